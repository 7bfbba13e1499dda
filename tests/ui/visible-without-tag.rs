use json_subtypes::json_subtypes;

#[json_subtypes(visible)]
enum Employee {
    #[json_subtypes(when_field = "skill")]
    Developer { skill: String },
}

fn main() {}
