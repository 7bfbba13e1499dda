use json_subtypes::json_subtypes;

#[json_subtypes(tag = "type", rename_all_fields = "camelCase")]
#[serde(rename_all_fields = "kebab-case")]
enum Move {
    Walk { step_count: u32 },
}

fn main() {}
