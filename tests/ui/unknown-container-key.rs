use json_subtypes::json_subtypes;

#[json_subtypes(tga = "type")]
enum Animal {
    Dog,
    Cat,
}

fn main() {}
