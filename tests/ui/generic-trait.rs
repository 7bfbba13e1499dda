use json_subtypes::json_subtypes;

#[json_subtypes(tag = "type")]
trait Shape<T = f64> {
    fn area(&self) -> T;
}

fn main() {}
