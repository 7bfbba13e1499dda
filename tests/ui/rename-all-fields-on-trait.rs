use json_subtypes::json_subtypes;

#[json_subtypes(tag = "type", rename_all_fields = "camelCase")]
trait Shape {}

fn main() {}
