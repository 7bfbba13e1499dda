use json_subtypes::json_subtypes;
use serde::{Deserialize, Serialize};

#[json_subtypes(tag = "type")]
trait Matcher<'a> {
    fn find(&self, haystack: &'a str) -> Option<&'a str>;
}

#[derive(Serialize, Deserialize)]
struct Whole {}

#[json_subtypes(name = "whole")]
impl Matcher<'static> for Whole {
    fn find(&self, haystack: &'static str) -> Option<&'static str> {
        Some(haystack)
    }
}

fn main() {}
