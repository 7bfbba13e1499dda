use json_subtypes::json_subtypes;

#[json_subtypes(tag = "type", deny_unknown_fields)]
trait Shape {}

fn main() {}
