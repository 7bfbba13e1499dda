use json_subtypes::json_subtypes;

#[json_subtypes(tag = "type", visible)]
enum Animal {
    Bird {
        #[serde(alias = "type")]
        kind: String,
    },
}

fn main() {}
