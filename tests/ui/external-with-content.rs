use json_subtypes::json_subtypes;

#[json_subtypes(external, content = "value")]
trait Shape {}

fn main() {}
