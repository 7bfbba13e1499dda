/// Not `Serialize`: `Subtype` is sealed, there is nothing to implement.
struct Opaque;

impl json_subtypes::Subtype for Opaque {}

fn main() {}
