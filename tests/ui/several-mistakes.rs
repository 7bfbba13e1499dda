use json_subtypes::json_subtypes;

#[json_subtypes(tag = "type")]
enum Animal {
    #[json_subtypes(name = "dog")]
    Dog,
    #[json_subtypes(name = "dog")]
    Cat,
    Pair(u32, u32),
    #[json_subtypes(nmae = "bird")]
    Bird,
}

fn main() {}
