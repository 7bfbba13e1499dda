use json_subtypes::json_subtypes;
use serde::{Deserialize, Serialize};

#[json_subtypes(tag = "type")]
trait Shape {}

#[derive(Serialize, Deserialize)]
struct Wrapper<T> {
    inner: T,
}

#[json_subtypes(alias = "wrapper", instances(u32 = "w_u32", String = "w_str"))]
impl<T: Serialize + 'static> Shape for Wrapper<T> {}

fn main() {}
