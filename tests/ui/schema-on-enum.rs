use json_subtypes::json_subtypes;

#[json_subtypes(tag = "type", schema)]
enum Animal {
    Dog { name: String },
}

fn main() {}
