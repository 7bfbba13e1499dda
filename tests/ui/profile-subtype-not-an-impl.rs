use json_subtypes::{json_subtypes, Profile};
use serde::{Deserialize, Serialize};

#[json_subtypes(tag = "type")]
trait Shape {
    fn area(&self) -> f64;
}

/// Serializable, but not a `Shape`.
#[derive(Serialize, Deserialize)]
struct Point {
    x: f64,
}

fn main() {
    let _ = Profile::<dyn Shape>::builder()
        .tag("type")
        .subtype::<Point>("point")
        .build();
}
