use json_subtypes::json_subtypes;

#[json_subtypes(tag = "type", first_match)]
enum Animal {
    Dog { name: String },
}

fn main() {}
