//! A binary whose registry has one tag claimed twice: `verify_registry` lists every
//! collision, and reading a collided tag is an error naming both types,
//! never an arbitrary pick. Other tags keep working.

use json_subtypes::json_subtypes;
use serde::{Deserialize, Serialize};

#[json_subtypes(tag = "type")]
trait Animal {
    fn sound(&self) -> &'static str;
}

#[derive(Serialize, Deserialize)]
struct Dog {}

#[json_subtypes(name = "dog")]
impl Animal for Dog {
    fn sound(&self) -> &'static str {
        "woof"
    }
}

#[derive(Serialize, Deserialize)]
struct Wolf {}

#[json_subtypes(name = "dog")]
impl Animal for Wolf {
    fn sound(&self) -> &'static str {
        "howl"
    }
}

#[derive(Serialize, Deserialize)]
struct Cat {}

#[json_subtypes(name = 1)]
impl Animal for Cat {
    fn sound(&self) -> &'static str {
        "meow"
    }
}

#[derive(Serialize, Deserialize)]
struct Lion {}

#[json_subtypes(name = 1)]
impl Animal for Lion {
    fn sound(&self) -> &'static str {
        "roar"
    }
}

#[derive(Serialize, Deserialize)]
struct Cow {}

#[json_subtypes(name = "cow")]
impl Animal for Cow {
    fn sound(&self) -> &'static str {
        "moo"
    }
}

#[test]
fn verify_lists_every_collision() {
    let err = json_subtypes::verify_registry::<dyn Animal>().unwrap_err();
    let problems: Vec<&str> = err.problems().collect();
    assert_eq!(
        problems,
        [
            r#"subtype tag 1 is claimed by both Cat and Lion"#,
            r#"subtype tag "dog" is claimed by both Dog and Wolf"#,
        ]
    );
    assert_eq!(
        err.to_string(),
        "the registry of dyn Animal has problems:\n- subtype tag 1 is claimed by both Cat and Lion\n- subtype tag \"dog\" is claimed by both Dog and Wolf"
    );
}

#[test]
fn a_collided_tag_is_an_error_at_use() {
    for (text, message) in [
        (
            r#"{"type":"dog"}"#,
            r#"subtype tag "dog" is claimed by both Dog and Wolf; see json_subtypes::verify_registry at line 1 column 13"#,
        ),
        (
            r#"{"x":0,"type":1}"#,
            "subtype tag 1 is claimed by both Cat and Lion; see json_subtypes::verify_registry at line 1 column 15",
        ),
    ] {
        let Err(err) = serde_json::from_str::<Box<dyn Animal>>(text) else {
            panic!("{text}: a collided tag must not pick a type")
        };
        assert_eq!(err.to_string(), message);
    }
}

#[test]
fn other_tags_still_work() {
    let cow: Box<dyn Animal> = serde_json::from_str(r#"{"type":"cow"}"#).unwrap();
    assert_eq!(cow.sound(), "moo");
}
