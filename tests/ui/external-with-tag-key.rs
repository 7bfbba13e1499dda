use json_subtypes::json_subtypes;

#[json_subtypes(external, tag = "type")]
trait Shape {}

fn main() {}
