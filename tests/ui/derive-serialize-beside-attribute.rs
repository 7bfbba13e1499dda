use json_subtypes::json_subtypes;
use serde::{Deserialize, Serialize};

#[derive(Debug, Serialize, Deserialize)]
struct Dog {
    name: String,
}

#[json_subtypes(tag = "type")]
#[derive(Debug, Serialize, Deserialize)]
enum Animal {
    Dog(Dog),
    Fish,
}

// The uses compile: the enum has our impls, not an error per use.
fn main() {
    let fish: Animal = serde_json::from_str(r#"{"type":"Fish"}"#).unwrap();
    let _ = serde_json::to_string(&fish);
}
