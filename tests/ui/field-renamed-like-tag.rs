use json_subtypes::json_subtypes;

#[json_subtypes(tag = "kindName")]
#[serde(rename_all_fields = "camelCase")]
enum Animal {
    Dog { kind_name: String },
    Cat { lives: u8 },
}

fn main() {}
