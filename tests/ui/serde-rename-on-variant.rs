use json_subtypes::json_subtypes;

#[json_subtypes(tag = "type")]
enum Animal {
    Dog { name: String },
    #[serde(rename = "cat")]
    Cat { lives: u8 },
}

fn main() {}
