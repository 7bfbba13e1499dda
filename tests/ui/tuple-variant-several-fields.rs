use json_subtypes::json_subtypes;

#[json_subtypes(tag = "type")]
enum Shape {
    Pair(u32, u32),
    Empty,
}

fn main() {}
