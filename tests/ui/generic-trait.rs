use json_subtypes::json_subtypes;

#[json_subtypes(tag = "type")]
trait Shape<T> {
    fn area(&self) -> T;
}

fn main() {}
