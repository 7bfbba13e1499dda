use json_subtypes::json_subtypes;

#[json_subtypes(tag = "kindName", rename_all_fields = "camelCase")]
enum Animal {
    Dog { kind_name: String },
}

fn main() {}
