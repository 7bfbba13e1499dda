use json_subtypes::json_subtypes;

// A `cfg_attr` that holds adds its keys to the attribute's: a key given
// twice is the same error as written plainly.
#[json_subtypes(tag = "type")]
#[cfg_attr(all(), json_subtypes(tag = "kind"))]
enum Animal {
    Dog { name: String },
    #[cfg_attr(all(), json_subtypes(name = "cat"))]
    #[json_subtypes(name = "kitty")]
    Cat,
}

fn main() {}
