use json_subtypes::json_subtypes;

#[json_subtypes(tag = "type", rename_all_fields = "camel")]
enum Move {
    Walk { step_count: u32 },
}

fn main() {}
