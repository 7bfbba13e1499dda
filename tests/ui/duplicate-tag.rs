use json_subtypes::json_subtypes;

#[json_subtypes(tag = "type")]
enum Animal {
    #[json_subtypes(name = "x")]
    Dog,
    #[json_subtypes(name = "x")]
    Cat,
}

fn main() {}
