use json_subtypes::json_subtypes;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize)]
struct Whale {
    tons: u32,
}

#[json_subtypes(tag = "type")]
enum Animal {
    Fish,
    #[json_subtypes(nested)]
    Whale(Whale),
}

fn main() {}
