use json_subtypes::json_subtypes;

#[json_subtypes(tag = "type")]
#[serde(remote = "other::Animal")]
enum Animal {
    Dog { name: String },
    Cat { lives: u8 },
}

fn main() {}
