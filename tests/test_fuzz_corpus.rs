//! Replays the fuzzing corpus (`fuzz/corpus/<target>/`, the inputs that add
//! the most coverage) and the inputs that once found a bug
//! (`fuzz/regressions/<target>/`, named for what they caught) through the
//! same checks the fuzz targets run, on stable, in every `cargo test`.

// The `cbor` and `roundtrip` checks are not replayed under
// `arbitrary_precision` (below), so their helpers go unused there.
#[cfg_attr(feature = "arbitrary_precision", allow(dead_code))]
#[path = "../fuzz/checks.rs"]
mod checks;

use std::path::{Path, PathBuf};

/// The files of `fuzz/<kind>/<target>`, every `step`th, none if the folder
/// is absent.
fn inputs(kind: &str, target: &str, step: usize) -> Vec<(PathBuf, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz")
        .join(kind)
        .join(target);
    let entries = match std::fs::read_dir(&dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Vec::new(),
        Err(e) => panic!("{}: {e}", dir.display()),
    };
    // Sorted by file name, which in one folder is the order of the paths:
    // comparing whole paths parses them, which Miri spent minutes on.
    let mut names: Vec<_> = entries.map(|e| e.unwrap().file_name()).collect();
    names.sort();
    names
        .into_iter()
        .step_by(step)
        .map(|name| {
            let path = dir.join(name);
            let data = std::fs::read(&path).unwrap();
            (path, data)
        })
        .collect()
}

/// Every corpus input natively. Under Miri (`scripts/miri.sh`) every 10th,
/// or every `MIRI_FUZZ_STEP`th: Miri spends about 2 s on an input (228
/// inputs took 8 to 9 minutes), so all of them would take about 20.
fn step() -> usize {
    if !cfg!(miri) {
        return 1;
    }
    match std::env::var("MIRI_FUZZ_STEP") {
        Ok(n) => n
            .parse()
            .ok()
            .filter(|&n| n > 0)
            .unwrap_or_else(|| panic!("MIRI_FUZZ_STEP={n}: expected a whole number above 0")),
        Err(_) => 10,
    }
}

/// Every regression (there must be `regressions` of them) and the corpus
/// (sampled under Miri) through `check`.
fn replay(target: &str, regressions: usize, check: impl Fn(&[u8])) {
    let found = inputs("regressions", target, 1);
    assert_eq!(found.len(), regressions, "regressions of {target}");
    let corpus = inputs("corpus", target, step());
    assert!(!corpus.is_empty(), "empty corpus for {target}");
    for (path, data) in found.into_iter().chain(corpus) {
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check(&data)));
        assert!(result.is_ok(), "{} failed", path.display());
    }
}

#[test]
fn enum_corpus() {
    replay("enum", 3, checks::check_enum);
}

#[test]
fn trait_object_corpus() {
    replay("trait_object", 0, checks::check_trait_object);
}

#[test]
fn profile_corpus() {
    let profile = checks::profile();
    replay("profile", 0, |d| checks::check_profile(&profile, d));
}

#[test]
fn unknown_corpus() {
    replay("unknown", 0, checks::check_unknown);
}

#[test]
fn differential_corpus() {
    replay("differential", 3, checks::check_differential);
}

// The `cbor` and `roundtrip` checks hold for serde_json as the fuzz crate
// builds it, without `arbitrary_precision`. With it, the `serde_json::Value`
// they go through differs, not the engine: a `Value`'s number is written to
// CBOR as a one-entry map (`{"$serde_json::private::Number": "4"}`), so
// `{"type": 2}` has a map for its tag there; and it is read as a number
// where text hands over its digits, so an `Unknown` read from the `Value`
// holds `1.5` as a float and one read from the text its digits, and the two
// compare unequal. (A bare number is refused as one either way:
// `test_formats::a_bare_number_is_not_an_object`.)
#[cfg(not(feature = "arbitrary_precision"))]
#[test]
fn cbor_corpus() {
    let profile = checks::profile();
    replay("cbor", 4, |d| checks::check_cbor(&profile, d));
}

#[cfg(not(feature = "arbitrary_precision"))]
#[test]
fn roundtrip_corpus() {
    let profile = checks::profile();
    replay("roundtrip", 4, |d| checks::check_roundtrip(&profile, d));
}
