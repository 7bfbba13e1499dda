use json_subtypes::json_subtypes;

#[json_subtypes(tag = "type")]
#[serde(tag = "kind")]
enum Animal {
    Dog,
    Cat,
}

fn main() {}
