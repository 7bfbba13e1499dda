use json_subtypes::json_subtypes;

#[json_subtypes(tag = "type")]
#[serde(rename_all = "snake_case")]
enum Animal {
    Dog { name: String },
    Cat { lives: u8 },
}

fn main() {}
