use json_subtypes::json_subtypes;

#[json_subtypes(tag = "type")]
enum Animal {
    Dog { name: String },
    #[json_subtypes(fallback)]
    Other(Box<str>),
}

fn main() {}
