use json_subtypes::json_subtypes;

#[json_subtypes(tag = "type")]
enum Animal {
    Dog { name: String },
    #[serde(untagged)]
    Other(json_subtypes::Unknown),
}

fn main() {}
