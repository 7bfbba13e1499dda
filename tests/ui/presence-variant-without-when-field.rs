use json_subtypes::json_subtypes;

#[json_subtypes]
enum Employee {
    #[json_subtypes(when_field = "skill")]
    Developer { skill: String },
    Manager { reports: Vec<String> },
}

fn main() {}
