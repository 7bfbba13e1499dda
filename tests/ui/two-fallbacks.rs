use json_subtypes::{json_subtypes, Unknown};

#[json_subtypes(tag = "type")]
enum Animal {
    Dog { name: String },
    #[json_subtypes(fallback)]
    Other(Unknown),
    #[json_subtypes(fallback)]
    Rest(Unknown),
}

fn main() {}
