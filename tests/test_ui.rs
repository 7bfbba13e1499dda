//! Compile-fail cases for `#[json_subtypes]`: each file in `tests/ui/` is one
//! mistake a user can make, and its `.stderr` is the exact diagnostic the
//! macro must give (pointing at the offending tokens, saying how to fix it).
//!
//! Regenerate the expected output with
//! `TRYBUILD=overwrite cargo test --test test_ui` and read every changed
//! `.stderr` before committing it.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
}

/// Mistakes that are errors only with the `schemars` feature.
#[cfg(feature = "schemars")]
#[test]
fn ui_schemars() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui-schemars/*.rs");
}

/// Mistakes with `exact_numbers`, which needs its feature to compile at all.
#[cfg(feature = "exact_numbers")]
#[test]
fn ui_exact_numbers() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui-exact/*.rs");
}

/// `exact_numbers` without the feature.
#[cfg(not(feature = "exact_numbers"))]
#[test]
fn ui_without_exact_numbers() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui-no-exact/*.rs");
}
