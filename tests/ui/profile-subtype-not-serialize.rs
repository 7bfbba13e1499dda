use json_subtypes::{json_subtypes, Profile};
use serde::Deserialize;

#[json_subtypes(tag = "type")]
trait Shape {
    fn area(&self) -> f64;
}

/// A `Shape` that can be read but not written.
#[derive(Deserialize)]
struct Square {
    side: f64,
}

impl Shape for Square {
    fn area(&self) -> f64 {
        self.side * self.side
    }
}

fn main() {
    let _ = Profile::<dyn Shape>::builder()
        .tag("type")
        .subtype::<Square>("square")
        .build();
}
