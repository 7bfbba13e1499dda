use json_subtypes::json_subtypes;

#[json_subtypes(content = "value")]
trait Shape {}

fn main() {}
