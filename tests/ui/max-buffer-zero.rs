use json_subtypes::json_subtypes;

#[json_subtypes(tag = "type", max_buffer = 0)]
enum Animal {
    Dog { name: String },
}

#[json_subtypes(tag = "type", max_buffer = 5000000000)]
enum Plant {
    Tree { height: u32 },
}

fn main() {}
