use json_subtypes::json_subtypes;

#[json_subtypes(external)]
enum Shape {
    Circle { r: f64 },
}

fn main() {}
