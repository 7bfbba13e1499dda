use json_subtypes::json_subtypes;

struct Circle {
    r: f64,
}

#[json_subtypes(name = "circle")]
impl Circle {
    fn area(&self) -> f64 {
        self.r * self.r
    }
}

fn main() {}
