//! Exports for scripts/wasm.sh (run under Node's WebAssembly). Each returns
//! 1 when the value read back and written equals what was expected, 2 when
//! reading failed because no subtype is registered (the constructors did
//! not run), 0 for any other outcome.

use json_subtypes::{json_subtypes, Profile};
use serde::{Deserialize, Serialize};

#[json_subtypes(tag = "type")]
pub trait Shape {
    fn area(&self) -> f64;
}

#[derive(Serialize, Deserialize)]
pub struct Square {
    side: f64,
}

/// Registered by the attribute: an `inventory` constructor.
#[json_subtypes(name = "square")]
impl Shape for Square {
    fn area(&self) -> f64 {
        self.side * self.side
    }
}

#[derive(Serialize, Deserialize)]
pub struct Circle {
    r: f64,
}

/// Not registered: a profile adds it at run time.
impl Shape for Circle {
    fn area(&self) -> f64 {
        3.0 * self.r * self.r
    }
}

fn verdict(
    read: Result<Box<dyn Shape>, serde_json::Error>,
    area: f64,
    written: impl Fn(&(dyn Shape + 'static)) -> Option<String>,
    expected: &str,
) -> i32 {
    match read {
        Ok(shape) if shape.area() == area && written(&*shape).as_deref() == Some(expected) => 1,
        Err(e) if e.to_string().starts_with("no subtypes are registered") => 2,
        _ => 0,
    }
}

/// A profile: no constructor involved.
#[no_mangle]
pub extern "C" fn profile_round_trip() -> i32 {
    let Ok(profile) = Profile::<dyn Shape>::builder()
        .tag("kind")
        .subtype::<Circle>("circle")
        .build()
    else {
        return 0;
    };
    verdict(
        profile.from_str(r#"{"r":2.0,"kind":"circle"}"#),
        12.0,
        |s| profile.to_string(s).ok(),
        r#"{"kind":"circle","r":2.0}"#,
    )
}

/// The attribute registry: needs the constructors.
#[no_mangle]
pub extern "C" fn registry_round_trip() -> i32 {
    verdict(
        serde_json::from_str(r#"{"side":3.0,"type":"square"}"#),
        9.0,
        |s| serde_json::to_string(s).ok(),
        r#"{"type":"square","side":3.0}"#,
    )
}

extern "C" {
    fn __wasm_call_ctors();
}

/// The setup step the docs describe: the embedder calls this once, right
/// after instantiating the module. Exporting a function that calls
/// `__wasm_call_ctors` also tells the linker not to run the constructors
/// at the start of every export itself.
#[no_mangle]
pub extern "C" fn init() {
    // SAFETY: the constructors are inventory's registrations, which are
    // idempotent; nothing else in this module has constructors.
    unsafe { __wasm_call_ctors() }
}
