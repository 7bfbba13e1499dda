//! A dependency that declares a registry trait and some implementations, so
//! the tests can check that registrations in other crates are seen.

use json_subtypes::json_subtypes;
use serde::{Deserialize, Serialize};

/// A plugin picked by its `"plugin"` tag.
#[json_subtypes(tag = "plugin")]
pub trait Plugin: std::fmt::Debug {
    fn run(&self) -> String;
}

#[derive(Debug, Serialize, Deserialize)]
pub struct Echo {
    pub text: String,
}

#[json_subtypes(name = "echo")]
impl Plugin for Echo {
    fn run(&self) -> String {
        self.text.clone()
    }
}

#[derive(Debug, Serialize, Deserialize)]
pub struct Count {
    pub to: u32,
}

#[json_subtypes(name = 2)]
impl Plugin for Count {
    fn run(&self) -> String {
        (1..=self.to)
            .map(|i| i.to_string())
            .collect::<Vec<_>>()
            .join(",")
    }
}
