use json_subtypes::json_subtypes;

#[json_subtypes(tag = "type")]
enum Animal {
    #[json_subtypes(name = 1.5)]
    Dog,
    Cat,
}

fn main() {}
