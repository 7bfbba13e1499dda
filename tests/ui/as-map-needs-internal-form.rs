use json_subtypes::json_subtypes;

#[json_subtypes(external, as_map)]
trait External {}

#[json_subtypes(tag = "type", content = "value", as_map)]
trait Adjacent {}

#[json_subtypes(as_map)]
trait Presence {}

#[json_subtypes(external, as_map)]
enum Animal {
    #[json_subtypes(name = "dog")]
    Dog(String),
}

fn main() {}
