use json_subtypes::{json_subtypes, Unknown};

#[json_subtypes(tag = "type")]
enum Animal {
    Dog { name: String },
    #[json_subtypes(fallback, name = "other")]
    Other(Unknown),
}

fn main() {}
