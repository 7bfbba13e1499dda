use json_subtypes::json_subtypes;

#[json_subtypes(tag = "type")]
enum Animal {
    #[json_subtypes(nmae = "x")]
    Dog,
    Cat,
}

fn main() {}
