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

#[derive(Clone, Copy, PartialEq, PartialOrd, Deserialize)]
struct Meters(f64);

#[json_subtypes(name = "clamp", instances(f64, Meters))]
impl<D: PartialOrd + Copy> Strategy<D> for Clamp<D> {
    fn apply(&self, x: D) -> D {
        if x < self.lo { self.lo } else if x > self.hi { self.hi } else { x }
    }
}

fn main() {}
