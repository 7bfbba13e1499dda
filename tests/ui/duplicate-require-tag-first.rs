use json_subtypes::json_subtypes;

#[json_subtypes(tag = "type", require_tag_first, require_tag_first)]
enum Animal {
    Dog { name: String },
}

fn main() {}
