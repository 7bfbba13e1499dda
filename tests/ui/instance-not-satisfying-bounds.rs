use json_subtypes::json_subtypes;
use serde::{Deserialize, Serialize};

#[json_subtypes(tag = "type")]
trait Strategy<D: 'static> {
    fn apply(&self, x: D) -> D;
}

#[derive(Serialize, Deserialize)]
struct Clamp<D> {
    lo: D,
    hi: D,
}

#[json_subtypes(name = "clamp", instances(f64, String))]
impl<D: PartialOrd + Copy + Serialize + 'static> Strategy<D> for Clamp<D> {
    fn apply(&self, x: D) -> D {
        if x < self.lo { self.lo } else if x > self.hi { self.hi } else { x }
    }
}

fn main() {}
