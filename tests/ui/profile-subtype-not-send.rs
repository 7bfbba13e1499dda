use std::marker::PhantomData;
use std::rc::Rc;

use json_subtypes::{json_subtypes, Profile};
use serde::{Deserialize, Serialize};

#[json_subtypes(tag = "type")]
trait Shape {
    fn area(&self) -> f64;
}

#[derive(Serialize, Deserialize)]
struct Local {
    side: f64,
    #[serde(skip)]
    shared: PhantomData<Rc<()>>,
}

impl Shape for Local {
    fn area(&self) -> f64 {
        self.side
    }
}

fn main() {
    let _ = Profile::<dyn Shape + Send>::builder()
        .tag("type")
        .subtype::<Local>("local")
        .build();
}
