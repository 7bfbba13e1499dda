//! Key order never changes the verdict: every file of the JSONTestSuite
//! corpus (`../shared/corpora/JSONTestSuite/test_parsing`), embedded as an
//! unknown field before the tag, between the tag and a field, and after
//! both, is accepted in all three places or rejected in all three, for an
//! enum, a trait object and a profile. As the tag value, every file is an
//! unknown-tag error or lands in the fallback. Skipped, with a message, when
//! the corpus is absent.

use std::path::PathBuf;

use json_subtypes::{json_subtypes, Profile, Unknown};
use serde::{Deserialize, Serialize};

fn corpus() -> Option<Vec<(String, Vec<u8>)>> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpora/JSONTestSuite/test_parsing");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("skipped: no JSONTestSuite corpus at {}", dir.display());
        return None;
    };
    let mut files: Vec<(String, Vec<u8>)> = entries
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read(&p).unwrap(),
            )
        })
        .collect();
    files.sort();
    Some(files.into_iter().step_by(SAMPLE).collect())
}

/// Under Miri (`scripts/miri.sh`) every 8th file: the whole suite would
/// take hours there.
const SAMPLE: usize = if cfg!(miri) { 8 } else { 1 };

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Dog {
    name: String,
}

#[json_subtypes(tag = "type")]
#[derive(Debug, PartialEq)]
enum Animal {
    #[json_subtypes(name = "dog")]
    Dog(Dog),
}

#[json_subtypes(tag = "type")]
#[derive(Debug, PartialEq)]
enum WithFallback {
    #[json_subtypes(name = "dog")]
    Dog(Dog),
    #[json_subtypes(fallback)]
    Other(Unknown),
}

#[json_subtypes(tag = "type")]
trait Pet {}

#[json_subtypes(name = "dog")]
impl Pet for Dog {}

fn embed(file: &[u8], at: usize) -> Vec<u8> {
    let parts: [&[u8]; 3] = [br#""type":"dog""#, br#""name":"a""#, b""];
    let mut out = b"{".to_vec();
    let mut first = true;
    for (i, part) in parts.iter().enumerate() {
        if i == at {
            if !first {
                out.push(b',');
            }
            out.extend_from_slice(br#""x":"#);
            out.extend_from_slice(file);
            first = false;
        }
        if !part.is_empty() {
            if !first {
                out.push(b',');
            }
            out.extend_from_slice(part);
            first = false;
        }
    }
    out.push(b'}');
    out
}

fn verdicts(name: &str, file: &[u8], read: &dyn Fn(&[u8]) -> bool) -> Option<String> {
    let got: Vec<bool> = (0..3).map(|at| read(&embed(file, at))).collect();
    if got.iter().all(|v| *v == got[0]) {
        None
    } else {
        Some(format!("{name}: before/between/after the tag gave {got:?}"))
    }
}

#[test]
fn key_order_never_changes_the_verdict() {
    let Some(files) = corpus() else { return };
    let profile = Profile::<dyn Pet>::builder()
        .tag("type")
        .subtype::<Dog>("dog")
        .build()
        .unwrap();
    let mut mismatches = Vec::new();
    for (name, file) in &files {
        let enum_ = |t: &[u8]| serde_json::from_slice::<Animal>(t).is_ok();
        let fallback = |t: &[u8]| serde_json::from_slice::<WithFallback>(t).is_ok();
        let trait_ = |t: &[u8]| serde_json::from_slice::<Box<dyn Pet>>(t).is_ok();
        let profile = |t: &[u8]| profile.from_slice(t).is_ok();
        for (kind, read) in [
            ("enum", &enum_ as &dyn Fn(&[u8]) -> bool),
            ("enum with fallback", &fallback),
            ("trait object", &trait_),
            ("profile", &profile),
        ] {
            if let Some(m) = verdicts(name, file, read) {
                mismatches.push(format!("{kind}: {m}"));
            }
        }
    }
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
    // The corpus really is mixed: some embeddings read, some do not.
    let accepted = files
        .iter()
        .filter(|(_, f)| serde_json::from_slice::<Animal>(&embed(f, 2)).is_ok())
        .count();
    assert!(
        accepted > 50 / SAMPLE && accepted < files.len(),
        "{accepted} of {}",
        files.len()
    );
}

#[test]
fn every_file_as_the_tag_is_unknown_or_the_fallback() {
    let Some(files) = corpus() else { return };
    for (name, file) in &files {
        let mut text = br#"{"name":"a","type":"#.to_vec();
        text.extend_from_slice(file);
        text.push(b'}');
        match serde_json::from_slice::<Animal>(&text) {
            Ok(value) => panic!("{name}: read as {value:?}"),
            Err(e) => {
                let e = e.to_string();
                assert!(!e.contains("panicked"), "{name}: {e}");
            }
        }
        if let Ok(value) = serde_json::from_slice::<WithFallback>(&text) {
            let WithFallback::Other(u) = value else {
                panic!("{name}: read as {value:?}")
            };
            // What was read is written back and reads the same.
            let again = serde_json::to_vec(&u).unwrap();
            let back: WithFallback = serde_json::from_slice(&again).unwrap();
            assert_eq!(back, WithFallback::Other(u), "{name}");
        }
    }
}
