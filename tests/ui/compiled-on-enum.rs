use json_subtypes::json_subtypes;

#[json_subtypes(tag = "type", compiled)]
enum Animal {
    Dog { name: String },
}

fn main() {}
