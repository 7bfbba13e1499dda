use json_subtypes::json_subtypes;
use serde::{Deserialize, Serialize};

#[json_subtypes]
trait Shape {}

#[derive(Serialize, Deserialize)]
struct Circle {
    radius: f64,
}

#[json_subtypes(when_field = "radius", alias = "round")]
impl Shape for Circle {}

fn main() {}
