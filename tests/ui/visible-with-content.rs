use json_subtypes::json_subtypes;

#[json_subtypes(tag = "type", content = "value", visible)]
trait Shape {}

fn main() {}
