use json_subtypes::json_subtypes;

#[json_subtypes(tag = "type")]
enum Animal {
    Bird {
        r#type: String,
    },
    Fish {
        #[serde(rename = "type")]
        kind: String,
    },
}

fn main() {}
