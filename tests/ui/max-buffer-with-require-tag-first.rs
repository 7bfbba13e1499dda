use json_subtypes::json_subtypes;

#[json_subtypes(tag = "type", require_tag_first, max_buffer = 4096)]
enum Animal {
    Dog { name: String },
}

#[json_subtypes(tag = "type", max_buffer = 4096, require_tag_first)]
trait Shape {}

fn main() {}
