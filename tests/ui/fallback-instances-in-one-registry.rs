use json_subtypes::{json_subtypes, Unknown};
use serde::{Deserialize, Serialize};
use std::marker::PhantomData;

#[json_subtypes(tag = "type")]
trait Shape {}

#[derive(Serialize, Deserialize)]
#[serde(transparent, bound = "")]
struct Other<T> {
    kept: Unknown,
    #[serde(skip)]
    marker: PhantomData<T>,
}

#[json_subtypes(fallback, instances(u8, u16))]
impl<T: 'static> Shape for Other<T> {}

fn main() {}
