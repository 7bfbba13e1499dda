use json_subtypes::json_subtypes;

#[json_subtypes()]
enum Animal {
    Dog,
    Cat,
}

fn main() {}
