use json_subtypes::json_subtypes;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, PartialEq)]
enum Kind {
    Bird,
}

#[json_subtypes(tag = "type", tag_type = Kind, visible)]
enum Animal {
    #[json_subtypes(name = Kind::Bird)]
    Bird { r#type: Kind },
}

fn main() {}
