use json_subtypes::json_subtypes;

#[json_subtypes(tag = "type", content = "")]
trait Shape {}

fn main() {}
