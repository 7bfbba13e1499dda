#![no_main]

#[path = "../checks.rs"]
mod checks;

use std::sync::OnceLock;

static PROFILE: OnceLock<json_subtypes::Profile<dyn checks::Pet>> = OnceLock::new();

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    checks::check_cbor(PROFILE.get_or_init(checks::profile), data)
});
