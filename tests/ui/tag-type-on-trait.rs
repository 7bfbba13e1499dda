use json_subtypes::json_subtypes;

#[json_subtypes(tag = "kind", tag_type = Kind)]
trait Shape {}

fn main() {}
