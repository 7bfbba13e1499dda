/// No `#[json_subtypes]`.
trait Shape {
    fn area(&self) -> f64;
}

fn main() {
    json_subtypes::verify_registry::<dyn Shape>().unwrap();
}
