use json_subtypes::json_subtypes;
use serde::Serialize;

#[json_subtypes(tag = "type")]
#[cfg_attr(all(), derive(Debug, Serialize))]
enum Animal {
    Dog { name: String },
    Fish,
}

fn main() {}
