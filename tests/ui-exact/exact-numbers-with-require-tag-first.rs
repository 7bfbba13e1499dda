use json_subtypes::json_subtypes;

#[json_subtypes(tag = "type", require_tag_first, exact_numbers)]
enum Animal {
    Dog { name: String },
}

#[json_subtypes(tag = "type", exact_numbers, require_tag_first)]
trait Shape {}

fn main() {}
