use json_subtypes::{json_subtypes, Unknown};

#[json_subtypes(tag = "type", rename_all = "lowercase")]
enum Child {
    Dog { name: String },
}

#[json_subtypes(external)]
enum IntTag {
    #[json_subtypes(name = 3, alias = true)]
    Three { x: u8 },
}

#[json_subtypes(tag = "type", content = "value", tag_type = u8)]
enum Typed {
    #[json_subtypes(name = 1)]
    One { x: u8 },
}

#[json_subtypes(tag = "type", content = "value")]
enum Nested {
    #[json_subtypes(nested)]
    Pet(Child),
}

#[json_subtypes(external)]
enum Fields {
    #[json_subtypes(when_field = "x")]
    One { x: u8 },
}

#[json_subtypes(external)]
enum FallbackStruct {
    One { x: u8 },
    #[json_subtypes(fallback)]
    Other { rest: Unknown },
}

#[json_subtypes(external, visible)]
enum Visible {
    One { x: u8 },
}

fn main() {}
