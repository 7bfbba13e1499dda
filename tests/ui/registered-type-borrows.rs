use json_subtypes::json_subtypes;
use serde::{Deserialize, Serialize};

#[json_subtypes(tag = "type")]
trait Shape {}

#[derive(Serialize, Deserialize)]
struct Named<'a> {
    name: &'a str,
}

#[json_subtypes(name = "named")]
impl<'a> Shape for Named<'a> {}

fn main() {}
