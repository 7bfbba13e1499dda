use json_subtypes::json_subtypes;

#[json_subtypes(tag = "type", content = "type")]
trait Shape {}

fn main() {}
