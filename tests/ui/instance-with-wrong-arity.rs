use json_subtypes::json_subtypes;
use serde::{Deserialize, Serialize};

#[json_subtypes(tag = "type")]
trait Shape {}

#[derive(Serialize, Deserialize)]
struct Pair<A, B> {
    a: A,
    b: B,
}

#[json_subtypes(instances((u8, bool) = "pair", u8 = "one"))]
impl<A: Serialize + 'static, B: Serialize + 'static> Shape for Pair<A, B> {}

fn main() {}
