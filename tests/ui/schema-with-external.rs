use json_subtypes::json_subtypes;

#[json_subtypes(external, schema)]
trait Shape {}

fn main() {}
