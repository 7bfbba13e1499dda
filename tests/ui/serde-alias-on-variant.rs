use json_subtypes::json_subtypes;

#[json_subtypes(tag = "type")]
enum Animal {
    Dog { name: String },
    #[serde(alias = "kitty")]
    Cat { lives: u8 },
}

fn main() {}
