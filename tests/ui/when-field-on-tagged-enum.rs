use json_subtypes::json_subtypes;

#[json_subtypes(tag = "type")]
enum Animal {
    #[json_subtypes(when_field = "bark")]
    Dog { bark: bool },
}

fn main() {}
