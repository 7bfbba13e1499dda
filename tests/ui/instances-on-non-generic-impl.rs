use json_subtypes::json_subtypes;
use serde::{Deserialize, Serialize};

#[json_subtypes(tag = "type")]
trait Shape {}

#[derive(Serialize, Deserialize)]
struct Circle {
    r: f64,
}

#[json_subtypes(name = "circle", instances(f64))]
impl Shape for Circle {}

fn main() {}
