use json_subtypes::json_subtypes;

#[json_subtypes(tag = "type", content = "value", deny_unknown_fields)]
enum Shape {
    Circle { r: f64 },
}

fn main() {}
