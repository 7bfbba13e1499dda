use json_subtypes::json_subtypes;
use serde::{Deserialize, Serialize};

trait Shape {
    fn area(&self) -> f64;
}

#[derive(Serialize, Deserialize)]
struct Circle {
    r: f64,
}

#[json_subtypes(name = "circle")]
impl Shape for Circle {
    fn area(&self) -> f64 {
        self.r * self.r
    }
}

fn main() {}
