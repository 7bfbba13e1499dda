use json_subtypes::json_subtypes;

#[json_subtypes(tag = "type")]
#[serde(try_from = "String")]
enum Animal {
    Dog { name: String },
    Cat { lives: u8 },
}

fn main() {}
