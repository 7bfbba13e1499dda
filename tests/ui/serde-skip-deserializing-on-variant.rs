use json_subtypes::json_subtypes;

#[json_subtypes(tag = "type")]
enum Animal {
    Dog { name: String },
    #[serde(skip_deserializing)]
    Cat { lives: u8 },
}

fn main() {}
