//! Helpers shared by more than one test file (`mod common;` in each).
//! Each file uses some of them, so the rest are dead code there.
#![allow(dead_code)]

use serde_json::Value;

/// Compiles `schema` with a draft 2020-12 validator; `true` if `instance`
/// is valid.
pub fn validator(schema: &Value) -> impl Fn(&Value) -> bool {
    validator_at(schema, "")
}

/// Compiles the schema at the JSON pointer `pointer` inside `document`
/// (`""` for the whole document), references resolved inside `document`,
/// with a draft 2020-12 validator; `true` if `instance` is valid.
pub fn validator_at(document: &Value, pointer: &str) -> impl Fn(&Value) -> bool {
    const URL: &str = "urn:json-subtypes:test";
    let mut schemas = boon::Schemas::new();
    let mut compiler = boon::Compiler::new();
    compiler.add_resource(URL, document.clone()).unwrap();
    let location = if pointer.is_empty() {
        URL.to_owned()
    } else {
        format!("{URL}#{pointer}")
    };
    let index = compiler
        .compile(&location, &mut schemas)
        .unwrap_or_else(|e| panic!("{e:#}\n{document:#}"));
    move |instance| schemas.validate(instance, index).is_ok()
}

/// The JSON Schema `schemars` makes for `T`, as a `Value`.
#[cfg(feature = "schemars")]
pub fn schema_of<T: schemars::JsonSchema + ?Sized>() -> Value {
    serde_json::to_value(schemars::schema_for!(T)).unwrap()
}

/// The branches of `schema`'s `oneOf`.
pub fn one_of(schema: &Value) -> &Vec<Value> {
    schema["oneOf"].as_array().expect("a oneOf")
}

/// `true` if `s` lies inside `input`: borrowed from it, not copied.
pub fn points_into(s: &str, input: &str) -> bool {
    input.as_bytes().as_ptr_range().contains(&s.as_ptr())
}
