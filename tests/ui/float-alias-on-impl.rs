use json_subtypes::json_subtypes;
use serde::{Deserialize, Serialize};

#[json_subtypes(tag = "type")]
trait Shape {}

#[derive(Serialize, Deserialize)]
struct Circle {
    radius: f64,
}

#[json_subtypes(name = "circle", alias = 1.5)]
impl Shape for Circle {}

fn main() {}
