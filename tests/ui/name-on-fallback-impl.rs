use json_subtypes::json_subtypes;
use serde::{Deserialize, Serialize};

#[json_subtypes(tag = "type")]
trait Shape {}

#[derive(Serialize, Deserialize)]
struct Other {}

#[json_subtypes(name = "other", fallback)]
impl Shape for Other {}

fn main() {}
