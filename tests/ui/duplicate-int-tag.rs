use json_subtypes::json_subtypes;

#[json_subtypes(tag = "type")]
enum Animal {
    #[json_subtypes(name = 1)]
    Dog,
    #[json_subtypes(name = 1)]
    Cat,
    #[json_subtypes(name = 2, alias = 1)]
    Bird,
}

fn main() {}
