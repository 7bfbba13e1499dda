use json_subtypes::json_subtypes;

#[json_subtypes(tag = "type")]
enum Animal {
    Fish,
    #[json_subtypes(nested)]
    Again(Box<Self>),
}

fn main() {}
