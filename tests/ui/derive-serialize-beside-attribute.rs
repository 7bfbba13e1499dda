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

fn main() {}
