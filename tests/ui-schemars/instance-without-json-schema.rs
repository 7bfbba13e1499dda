use json_subtypes::json_subtypes;
use serde::{Deserialize, Serialize};

#[json_subtypes(tag = "type", schema)]
trait Kernel<D: 'static> {}

#[derive(Serialize, Deserialize)]
struct Gaussian<D> {
    sigma: D,
}

#[json_subtypes(name = "gaussian", instances(f32, f64))]
impl<D: Serialize + 'static> Kernel<D> for Gaussian<D> {}

fn main() {}
