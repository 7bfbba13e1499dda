use json_subtypes::json_subtypes;

#[json_subtypes(require_tag_first)]
trait Shape {}

fn main() {}
