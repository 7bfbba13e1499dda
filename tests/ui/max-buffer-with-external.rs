use json_subtypes::json_subtypes;

#[json_subtypes(external, max_buffer = 64, require_tag_first)]
trait Shape {}

fn main() {}
