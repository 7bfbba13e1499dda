use json_subtypes::json_subtypes;

// A mistake in the attribute is the one error: the enum still implements
// `Serialize` and `Deserialize`, so its uses add none.
#[json_subtypes(tag = "type")]
#[derive(Debug)]
enum Animal {
    #[json_subtypes(name = 1.5)]
    Dog { name: String },
    Fish,
}

fn main() {
    let fish: Animal = serde_json::from_str(r#"{"type":"Fish"}"#).unwrap();
    let _ = serde_json::to_string(&fish);
}
