use json_subtypes::json_subtypes;

#[json_subtypes(tag = "type")]
struct Dog {
    name: String,
}

fn main() {}
