use json_subtypes::json_subtypes;
use serde::{Deserialize, Serialize};

#[derive(PartialEq, Serialize, Deserialize)]
enum Kind {
    Dog,
}

#[json_subtypes(tag = "type", tag_type = Kind)]
enum Animal {
    #[json_subtypes(name = Kind::Dog)]
    Dog,
    #[json_subtypes(name = Kind :: Dog)]
    Puppy,
}

fn main() {}
