use json_subtypes::json_subtypes;

#[json_subtypes(tag = "type")]
enum Nothing {}

fn main() {}
