use json_subtypes::json_subtypes;

#[json_subtypes(tag = "type")]
enum Animal {
    #[json_subtypes(name = "dog", compiled)]
    Dog { name: String },
}

fn main() {}
