use json_subtypes::json_subtypes;

#[json_subtypes(tag = "type")]
enum Animal {
    #[json_subtypes(name = "dog")]
    Dog,
    #[json_subtypes(name = "cat", alias = "dog")]
    Cat,
}

fn main() {}
