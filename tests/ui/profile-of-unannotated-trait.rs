use json_subtypes::Profile;
use serde::{Deserialize, Serialize};

/// No `#[json_subtypes]`.
trait Shape {
    fn area(&self) -> f64;
}

#[derive(Serialize, Deserialize)]
struct Square {
    side: f64,
}

impl Shape for Square {
    fn area(&self) -> f64 {
        self.side * self.side
    }
}

fn write(profile: &Profile<dyn Shape>, shape: &dyn Shape) -> String {
    profile.to_string(shape).unwrap()
}

fn main() {
    let _ = Profile::<dyn Shape>::builder()
        .tag("type")
        .subtype::<Square>("square")
        .build();
}
