use json_subtypes::json_subtypes;

#[json_subtypes(tag = "type")]
enum Animal {
    #[json_subtypes(nested)]
    Mammal { legs: u8 },
}

fn main() {}
