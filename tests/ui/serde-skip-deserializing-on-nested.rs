use json_subtypes::json_subtypes;

#[json_subtypes(tag = "type")]
enum Mammal {
    Whale { length: u32 },
}

#[json_subtypes(tag = "type")]
enum Animal {
    Dog { name: String },
    #[json_subtypes(nested)]
    #[serde(skip_deserializing)]
    Mammal(Mammal),
}

fn main() {}
