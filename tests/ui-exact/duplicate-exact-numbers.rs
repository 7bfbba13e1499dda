use json_subtypes::json_subtypes;

#[json_subtypes(tag = "type", exact_numbers, exact_numbers)]
enum Animal {
    Dog { name: String },
}

fn main() {}
