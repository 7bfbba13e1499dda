use json_subtypes::json_subtypes;

#[json_subtypes(require_tag_first)]
enum Pet {
    #[json_subtypes(when_field = "bark")]
    Dog { bark: String },
}

fn main() {}
