//! Error paths through serde_path_to_error: an error inside a subtype
//! reports where it is (`animals[2].age`), for enums (tag first, tag later,
//! nested levels, presence mode), trait objects and profiles, each inside a
//! derived struct with a `Vec` field.
//!
//! What serde_path_to_error can see: it tracks the keys and indexes it
//! hands out while the value is read. Everything after the tag streams
//! through it, so an error there has its full path, whether the tag came
//! first or later. An entry that came *before* the tag was buffered (its
//! subtype was not known yet) and its error surfaces when the buffer is
//! replayed, outside the tracker: the path then ends at the object
//! (`animals[2]`), and the position is where the replay happened. Presence
//! mode buffers the whole object, so its paths always end at the object.
//!
//! serde's own `#[serde(tag = "type")]` always buffers the whole object. On
//! the same inputs as the `enum_errors` cases below, with a twin
//! `SerdeAnimal { Dog(Dog) }`, it reports:
//!
//! | input (third animal) | serde's path | serde's message |
//! |---|---|---|
//! | `{"type":"dog","name":"b","age":"old"}` | `animals[2]` | ``invalid type: string "old", expected u32`` (at the object's end) |
//! | `{"name":"b","type":"dog","age":"old"}` | `animals[2]` | same |
//! | `{"name":"b","age":"old","type":"dog"}` | `animals[2]` | same |
//!
//! that is, the field is lost in every position; ours keeps it whenever the
//! field comes after the tag.

use json_subtypes::{json_subtypes, Profile, TagPosition};
use rstest::rstest;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Dog {
    name: String,
    age: u32,
}

#[json_subtypes(tag = "type")]
#[derive(Debug, Clone, PartialEq)]
enum Animal {
    #[json_subtypes(name = "dog")]
    Dog(Dog),
    #[json_subtypes(name = 2)]
    Cat { lives: u8 },
    /// Same key: "whale" is read at this level.
    #[json_subtypes(nested)]
    Mammal(Mammal),
    /// Its own key: `species`.
    #[json_subtypes(name = "pet")]
    Pet(Species),
}

#[json_subtypes(tag = "type")]
#[derive(Debug, Clone, PartialEq)]
enum Mammal {
    #[json_subtypes(name = "whale")]
    Whale { tons: u32 },
}

#[json_subtypes(tag = "species")]
#[derive(Debug, Clone, PartialEq)]
enum Species {
    #[json_subtypes(name = "parrot")]
    Parrot { words: Vec<String> },
}

#[derive(Debug, Deserialize)]
#[allow(dead_code)]
struct Zoo {
    name: String,
    animals: Vec<Animal>,
}

#[json_subtypes]
#[derive(Debug, Clone, PartialEq)]
enum Employee {
    #[json_subtypes(when_field = "skill")]
    Developer { name: String, skill: Option<String> },
    #[json_subtypes(when_field = "reports")]
    Manager { name: String, reports: Vec<String> },
}

#[derive(Debug, Deserialize)]
#[allow(dead_code)]
struct Office {
    staff: Vec<Employee>,
}

#[json_subtypes(tag = "shape")]
trait Shape: std::fmt::Debug {}

#[derive(Debug, Serialize, Deserialize)]
#[allow(dead_code)]
struct Circle {
    r: f64,
}

#[json_subtypes(name = "circle")]
impl Shape for Circle {}

/// Not registered: profiles only.
#[derive(Debug, Serialize, Deserialize)]
#[allow(dead_code)]
struct Square {
    side: f64,
}

impl Shape for Square {}

#[derive(Debug, Deserialize)]
#[allow(dead_code)]
struct Drawing {
    shapes: Vec<Box<dyn Shape>>,
}

fn profile() -> Profile<dyn Shape> {
    Profile::<dyn Shape>::builder()
        .tag("kind")
        .subtype::<Circle>("round")
        .subtype::<Square>(2)
        .tag_position(TagPosition::Last)
        .build()
        .unwrap()
}

/// The path and the message of the error reading `text` as `T`.
fn path_and_message<T: DeserializeOwned + std::fmt::Debug>(text: &str) -> (String, String) {
    let mut de = serde_json::Deserializer::from_str(text);
    let err = serde_path_to_error::deserialize::<_, T>(&mut de).unwrap_err();
    (err.path().to_string(), err.inner().to_string())
}

/// Two good animals, then `third`.
fn zoo(third: &str) -> String {
    format!(
        r#"{{"name":"z","animals":[{{"type":2,"lives":1}},{{"type":"dog","name":"a","age":1}},{third}]}}"#
    )
}

#[rstest]
#[case::tag_first(
    r#"{"type":"dog","name":"b","age":"old"}"#,
    "animals[2].age",
    r#"invalid type: string "old", expected u32 at line 1 column 114"#
)]
#[case::tag_later_field_after_it(
    r#"{"name":"b","type":"dog","age":"old"}"#,
    "animals[2].age",
    r#"invalid type: string "old", expected u32 at line 1 column 114"#
)]
#[case::tag_last_field_buffered(
    r#"{"name":"b","age":"old","type":"dog"}"#,
    "animals[2]",
    r#"invalid type: string "old", expected u32 at line 1 column 115"#
)]
#[case::int_tag(
    r#"{"type":2,"lives":300}"#,
    "animals[2].lives",
    "invalid value: integer `300`, expected u8 at line 1 column 99"
)]
#[case::missing_body_field(
    r#"{"type":"dog","name":"b"}"#,
    "animals[2]",
    "missing field `age` at line 1 column 103"
)]
#[case::unknown_tag(
    r#"{"name":"b","type":"cow"}"#,
    "animals[2].type",
    r#"unknown subtype tag "cow", expected one of "dog", 2, "pet", "whale" at line 1 column 102"#
)]
#[case::null_tag(
    r#"{"type":null}"#,
    "animals[2].type",
    r#"invalid type: null, expected a subtype tag in `type`, one of "dog", 2, "pet", "whale" at line 1 column 90"#
)]
#[case::missing_tag(
    r#"{"name":"b"}"#,
    "animals[2]",
    "missing field `type` at line 1 column 90"
)]
#[case::duplicate_tag(
    r#"{"type":"dog","name":"b","age":1,"type":"dog"}"#,
    "animals[2].type",
    "duplicate field `type` at line 1 column 117"
)]
#[case::nested_same_key_tag_first(
    r#"{"type":"whale","tons":-1}"#,
    "animals[2].tons",
    "invalid value: integer `-1`, expected u32 at line 1 column 103"
)]
#[case::nested_same_key_tag_last(
    r#"{"tons":-1,"type":"whale"}"#,
    "animals[2]",
    "invalid value: integer `-1`, expected u32 at line 1 column 104"
)]
#[case::nested_other_key_tags_first(
    r#"{"type":"pet","species":"parrot","words":["a",1]}"#,
    "animals[2].words[1]",
    "invalid type: integer `1`, expected a string at line 1 column 125"
)]
#[case::nested_other_key_inner_tag_first(
    r#"{"species":"parrot","type":"pet","words":["a",1]}"#,
    "animals[2].words[1]",
    "invalid type: integer `1`, expected a string at line 1 column 125"
)]
#[case::nested_other_key_inner_tag_last(
    r#"{"type":"pet","words":["a",1],"species":"parrot"}"#,
    "animals[2]",
    "invalid type: integer `1`, expected a string at line 1 column 127"
)]
#[case::nested_other_key_unknown_inner_tag(
    r#"{"type":"pet","species":"emu"}"#,
    "animals[2].species",
    r#"unknown subtype tag "emu", expected "parrot" at line 1 column 107"#
)]
fn enum_errors(#[case] third: &str, #[case] path: &str, #[case] message: &str) {
    let (p, m) = path_and_message::<Zoo>(&zoo(third));
    assert_eq!((p.as_str(), m.as_str()), (path, message));
}

/// Presence mode reads the whole object before it knows the subtype, so
/// every error ends at the object.
#[rstest]
#[case::field_first(
    r#"{"skill":5,"name":"b"}"#,
    "staff[1]",
    "invalid type: integer `5`, expected a string at line 1 column 58"
)]
#[case::field_last(
    r#"{"name":"b","skill":5}"#,
    "staff[1]",
    "invalid type: integer `5`, expected a string at line 1 column 58"
)]
#[case::inside_a_list(
    r#"{"name":"b","reports":["a",1]}"#,
    "staff[1]",
    "invalid type: integer `1`, expected a string at line 1 column 66"
)]
#[case::ambiguous(
    r#"{"name":"b","reports":[],"skill":null}"#,
    "staff[1]",
    "ambiguous subtype of Employee: the fields match both Developer and Manager at line 1 column 74"
)]
#[case::no_match(
    r#"{"name":"b"}"#,
    "staff[1]",
    "no subtype of Employee matches: expected one of the fields `skill`, `reports` at line 1 column 48"
)]
fn presence_mode_errors(#[case] second: &str, #[case] path: &str, #[case] message: &str) {
    let text = format!(r#"{{"staff":[{{"name":"a","skill":null}},{second}]}}"#);
    let (p, m) = path_and_message::<Office>(&text);
    assert_eq!((p.as_str(), m.as_str()), (path, message));
}

#[rstest]
#[case::tag_first(
    r#"{"shape":"circle","r":"big"}"#,
    "shapes[1].r",
    r#"invalid type: string "big", expected f64 at line 1 column 63"#
)]
#[case::tag_last(
    r#"{"r":"big","shape":"circle"}"#,
    "shapes[1]",
    r#"invalid type: string "big", expected f64 at line 1 column 64"#
)]
#[case::unknown_tag(
    r#"{"shape":"hexagon"}"#,
    "shapes[1].shape",
    r#"unknown subtype tag "hexagon", expected "circle"; to read a type under this tag, put `#[json_subtypes(name = "hexagon")]` on its `impl Shape`, or read it with a `Profile` that registers it at line 1 column 54"#
)]
fn trait_object_errors(#[case] second: &str, #[case] path: &str, #[case] message: &str) {
    let text = format!(r#"{{"shapes":[{{"shape":"circle","r":1}},{second}]}}"#);
    let (p, m) = path_and_message::<Drawing>(&text);
    assert_eq!((p.as_str(), m.as_str()), (path, message));
}

#[rstest]
#[case::tag_first(
    r#"{"kind":2,"side":"big"}"#,
    "shapes[1].side",
    r#"invalid type: string "big", expected f64 at line 1 column 56"#
)]
#[case::tag_last(
    r#"{"side":"big","kind":2}"#,
    "shapes[1]",
    r#"invalid type: string "big", expected f64 at line 1 column 57"#
)]
#[case::unknown_tag(
    r#"{"kind":3}"#,
    "shapes[1].kind",
    r#"unknown subtype tag 3, expected one of "round", 2; to read a type under this tag, register it on the profile's builder with `.subtype::<T>(3)` at line 1 column 43"#
)]
#[case::registry_key_means_nothing_here(
    r#"{"shape":"circle","r":1}"#,
    "shapes[1]",
    "missing field `kind` at line 1 column 58"
)]
fn profile_errors_in_a_scope(#[case] second: &str, #[case] path: &str, #[case] message: &str) {
    let text = format!(r#"{{"shapes":[{{"kind":"round","r":1}},{second}]}}"#);
    let (p, m) = profile().scope(|| path_and_message::<Drawing>(&text));
    assert_eq!((p.as_str(), m.as_str()), (path, message));
}

/// `profile.deserialize` on a tracking deserializer directly.
#[rstest]
#[case::tag_first(
    r#"{"kind":2,"side":"big"}"#,
    "side",
    r#"invalid type: string "big", expected f64 at line 1 column 22"#
)]
#[case::tag_last(
    r#"{"side":"big","kind":2}"#,
    ".",
    r#"invalid type: string "big", expected f64 at line 1 column 23"#
)]
#[case::unknown_tag(
    r#"{"kind":3}"#,
    "kind",
    r#"unknown subtype tag 3, expected one of "round", 2; to read a type under this tag, register it on the profile's builder with `.subtype::<T>(3)` at line 1 column 9"#
)]
fn profile_deserialize_with_a_tracker(
    #[case] text: &str,
    #[case] path: &str,
    #[case] message: &str,
) {
    let mut de = serde_json::Deserializer::from_str(text);
    let mut track = serde_path_to_error::Track::new();
    let err = profile()
        .deserialize(serde_path_to_error::Deserializer::new(&mut de, &mut track))
        .unwrap_err();
    assert_eq!(
        (track.path().to_string().as_str(), err.to_string().as_str()),
        (path, message)
    );
}
