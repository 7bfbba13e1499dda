//! Fallback variants: what lands there (unknown, missing, null and
//! wrong-kind tags) and what never does (a known tag with a bad body), and
//! `Unknown`, which keeps every entry and writes it back unchanged.

use json_subtypes::{json_subtypes, Unknown};
use rstest::rstest;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Dog {
    name: String,
}

#[json_subtypes(tag = "type")]
#[derive(Debug, Clone, PartialEq)]
enum Animal {
    #[json_subtypes(name = "dog")]
    Dog(Dog),
    #[json_subtypes(name = 2)]
    Cat { lives: u8 },
    #[json_subtypes(fallback)]
    Other(Unknown),
}

fn other(text: &str) -> Unknown {
    match serde_json::from_str::<Animal>(text).unwrap() {
        Animal::Other(u) => u,
        known => panic!("{text} read as {known:?}"),
    }
}

#[rstest]
#[case::unknown_tag_first(r#"{"type":"cow","moo":true}"#)]
#[case::unknown_tag_middle(r#"{"moo":true,"type":"cow","x":[1,2]}"#)]
#[case::unknown_tag_last(r#"{"moo":true,"type":"cow"}"#)]
#[case::missing_tag(r#"{"moo":true,"x":{"y":null}}"#)]
#[case::empty(r#"{}"#)]
#[case::null_tag(r#"{"type":null,"moo":1}"#)]
#[case::object_tag(r#"{"a":1,"type":{"k":[1,{"z":2}]},"b":2}"#)]
#[case::array_tag(r#"{"type":[1,"dog"]}"#)]
#[case::wrong_kind_string_for_int(r#"{"type":"2","lives":1}"#)]
#[case::float_tag(r#"{"type":2.0,"lives":1}"#)]
#[case::bool_tag(r#"{"type":true}"#)]
#[case::huge_int_tag(r#"{"type":18446744073709551615}"#)]
fn lands_in_the_fallback_and_writes_back_unchanged(#[case] text: &str) {
    let unknown = other(text);
    assert_eq!(unknown.tag_key(), Some("type"));
    let again = serde_json::to_string(&Animal::Other(unknown.clone())).unwrap();
    assert_eq!(again, text);
    assert_eq!(serde_json::to_string(&unknown).unwrap(), text);
    // And it reads back to the same thing.
    assert_eq!(other(&again), unknown);
}

#[rstest]
#[case::bad_body_tag_first(
    r#"{"type":"dog","name":5}"#,
    "invalid type: integer `5`, expected a string at line 1 column 22"
)]
#[case::bad_body_tag_last(
    r#"{"name":5,"type":"dog"}"#,
    "invalid type: integer `5`, expected a string at line 1 column 23"
)]
#[case::missing_body_field(r#"{"type":2}"#, "missing field `lives` at line 1 column 10")]
#[case::duplicate_tag_after_unknown(
    r#"{"type":"cow","type":"dog"}"#,
    "duplicate field `type` at line 1 column 20"
)]
#[case::duplicate_tag_after_known(
    r#"{"type":"dog","name":"a","type":"cow"}"#,
    "duplicate field `type` at line 1 column 31"
)]
fn never_swallows_errors(#[case] text: &str, #[case] message: &str) {
    let err = serde_json::from_str::<Animal>(text).unwrap_err();
    assert_eq!(err.to_string(), message);
}

#[test]
fn known_tags_still_stream_past_the_fallback() {
    assert_eq!(
        serde_json::from_str::<Animal>(r#"{"type":"dog","name":"a"}"#).unwrap(),
        Animal::Dog(Dog { name: "a".into() })
    );
    assert_eq!(
        serde_json::from_str::<Animal>(r#"{"lives":3,"type":2}"#).unwrap(),
        Animal::Cat { lives: 3 }
    );
    assert_eq!(
        serde_json::to_string(&Animal::Cat { lives: 3 }).unwrap(),
        r#"{"type":2,"lives":3}"#
    );
}

#[test]
fn unknown_keeps_every_value_exactly() {
    let text = format!(
        r#"{{"u":{},"i":{},"f":1.5e300,"neg0":-0.0,"s":"a\"\n\u00e9","n":null,"t":true,"a":[[],{{}},[1,[2]]],"type":"cow","o":{{"z":1,"a":2}}}}"#,
        u64::MAX,
        i64::MIN
    );
    let unknown = other(&text);
    assert_eq!(
        unknown.keys().collect::<Vec<_>>(),
        ["u", "i", "f", "neg0", "s", "n", "t", "a", "type", "o"]
    );
    assert_eq!(unknown.len(), 10);
    assert_eq!(unknown.get::<u64>("u").unwrap().unwrap(), u64::MAX);
    assert_eq!(unknown.get::<i64>("i").unwrap().unwrap(), i64::MIN);
    assert_eq!(unknown.get::<f64>("f").unwrap().unwrap(), 1.5e300);
    assert!(unknown
        .get::<f64>("neg0")
        .unwrap()
        .unwrap()
        .is_sign_negative());
    assert_eq!(unknown.get::<String>("s").unwrap().unwrap(), "a\"\né");
    assert_eq!(unknown.get::<Option<u8>>("n").unwrap().unwrap(), None);
    assert_eq!(unknown.tag::<String>().unwrap().unwrap(), "cow");
    assert!(unknown.get::<u8>("missing").is_none());
    let err = unknown.get::<u8>("s").unwrap().unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"invalid type: string "a\"\né", expected u8"#
    );
    // Written back as serde_json writes the same document (escapes and
    // exponents normalised), field order kept at every level.
    let canonical: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        serde_json::to_string(&unknown).unwrap(),
        serde_json::to_string(&canonical).unwrap()
    );
    assert!(serde_json::to_string(&unknown)
        .unwrap()
        .ends_with(r#""o":{"z":1,"a":2}}"#));
}

#[test]
fn unknown_converts_to_json_values_and_types() {
    let unknown = other(r#"{"type":"cow","legs":4,"name":"Bess"}"#);
    assert_eq!(
        unknown.to_json_value().unwrap(),
        serde_json::json!({"type": "cow", "legs": 4, "name": "Bess"})
    );
    #[derive(Debug, PartialEq, Deserialize)]
    struct Cow {
        #[serde(rename = "type")]
        kind: String,
        legs: u8,
        name: String,
    }
    assert_eq!(
        unknown.deserialize_into::<Cow>().unwrap(),
        Cow {
            kind: "cow".into(),
            legs: 4,
            name: "Bess".into()
        }
    );
}

#[test]
fn a_missing_tag_is_known_to_be_missing() {
    let unknown = other(r#"{"legs":4}"#);
    assert_eq!(unknown.tag_key(), Some("type"));
    assert!(unknown.tag::<String>().is_none());
}

#[test]
fn unknown_on_its_own_reads_any_map() {
    let unknown: Unknown = serde_json::from_str(r#"{"b":1,"a":[true]}"#).unwrap();
    assert_eq!(unknown.tag_key(), None);
    assert_eq!(unknown.keys().collect::<Vec<_>>(), ["b", "a"]);
    assert_eq!(
        serde_json::to_string(&unknown).unwrap(),
        r#"{"b":1,"a":[true]}"#
    );
    let err = serde_json::from_str::<Unknown>("[1]").unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid type: sequence, expected a map at line 1 column 1"
    );
    assert!(Unknown::is_empty(&serde_json::from_str("{}").unwrap()));
}

#[test]
fn unknown_debug_shows_the_object() {
    let unknown = other(r#"{"type":"cow","legs":4}"#);
    assert_eq!(
        format!("{unknown:?}"),
        r#"Unknown { tag_key: Some("type"), fields: {"type":"cow","legs":4} }"#
    );
}

#[test]
fn unknown_holds_128_bit_integers_from_formats_that_give_them() {
    // serde's value deserializers hand `u128`/`i128` over exactly, as binary
    // formats do.
    use serde::de::value::{Error, MapDeserializer};
    use serde::de::IntoDeserializer;
    let entries = vec![
        ("big", u128::MAX.into_deserializer()),
        ("small", 7u128.into_deserializer()),
    ];
    let unknown =
        Unknown::deserialize(MapDeserializer::<_, Error>::new(entries.into_iter())).unwrap();
    assert_eq!(unknown.get::<u128>("big").unwrap().unwrap(), u128::MAX);
    assert_eq!(
        serde_json::to_string(&unknown).unwrap(),
        format!(r#"{{"big":{},"small":7}}"#, u128::MAX)
    );
}

/// A wrapper around `Unknown`, as the design promises.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
struct UnknownShape(Unknown);

#[json_subtypes(tag = "kind")]
#[derive(Debug, Clone, PartialEq)]
enum Shape {
    Circle {
        r: f64,
    },
    #[json_subtypes(fallback)]
    Other(UnknownShape),
}

#[test]
fn wrapped_unknown_still_learns_the_tag() {
    let text = r#"{"side":2,"kind":"square"}"#;
    let Shape::Other(UnknownShape(u)) = serde_json::from_str(text).unwrap() else {
        panic!()
    };
    assert_eq!(u.tag::<String>().unwrap().unwrap(), "square");
    assert_eq!(
        serde_json::to_string(&Shape::Other(UnknownShape(u))).unwrap(),
        text
    );
}

// ---------------------------------------------------------------------------
// Fallbacks that are not `Unknown`.

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Generic {
    #[serde(rename = "type", default)]
    kind: Option<String>,
    #[serde(flatten)]
    rest: std::collections::BTreeMap<String, serde_json::Value>,
}

#[json_subtypes(tag = "type")]
#[derive(Debug, Clone, PartialEq)]
enum Typed {
    Known {
        a: u8,
    },
    #[json_subtypes(fallback)]
    Other(Generic),
}

#[rstest]
#[case::unknown_first(r#"{"type":"x","b":1}"#, Some("x"))]
#[case::unknown_last(r#"{"b":1,"type":"x"}"#, Some("x"))]
#[case::missing(r#"{"b":1}"#, None)]
fn typed_fallbacks_receive_the_whole_object(#[case] text: &str, #[case] kind: Option<&str>) {
    let Typed::Other(g) = serde_json::from_str(text).unwrap() else {
        panic!()
    };
    assert_eq!(g.kind.as_deref(), kind);
    assert_eq!(g.rest["b"], 1);
    let written = serde_json::to_string(&Typed::Other(g.clone())).unwrap();
    let back: Typed = serde_json::from_str(&written).unwrap();
    assert_eq!(back, Typed::Other(g));
}

#[test]
fn typed_fallback_errors_are_its_own() {
    // The fallback's own type refuses a tag value it cannot hold.
    let err = serde_json::from_str::<Typed>(r#"{"type":5}"#).unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid type: integer `5`, expected a string at line 1 column 10"
    );
}

#[json_subtypes(tag = "type")]
#[derive(Debug, Clone, PartialEq)]
enum Discarding {
    Known {
        a: u8,
    },
    #[json_subtypes(fallback)]
    Other,
}

#[rstest]
#[case(r#"{"type":"x","b":[1,{"c":2}]}"#)]
#[case(r#"{"b":1,"type":"x"}"#)]
#[case(r#"{}"#)]
fn unit_fallbacks_discard_the_data(#[case] text: &str) {
    assert_eq!(
        serde_json::from_str::<Discarding>(text).unwrap(),
        Discarding::Other
    );
    assert_eq!(serde_json::to_string(&Discarding::Other).unwrap(), "{}");
}

// ---------------------------------------------------------------------------
// Fallback with typed tags: an unreadable tag value lands there too.

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Kind {
    Dog,
    Cat,
}

#[json_subtypes(tag = "kind", tag_type = Kind)]
#[derive(Debug, Clone, PartialEq)]
enum Pet {
    #[json_subtypes(name = Kind::Dog)]
    Dog(Dog),
    #[json_subtypes(fallback)]
    Other(Unknown),
}

#[rstest]
#[case::unknown_value(r#"{"kind":"parrot","name":"p"}"#)]
#[case::known_value_without_variant(r#"{"name":"p","kind":"cat"}"#)]
#[case::wrong_kind(r#"{"kind":7}"#)]
fn typed_tags_fall_back(#[case] text: &str) {
    let Pet::Other(u) = serde_json::from_str(text).unwrap() else {
        panic!("{text}")
    };
    assert_eq!(serde_json::to_string(&u).unwrap(), text);
    assert_eq!(
        serde_json::from_str::<Pet>(r#"{"name":"p","kind":"dog"}"#).unwrap(),
        Pet::Dog(Dog { name: "p".into() })
    );
}

// ---------------------------------------------------------------------------
// Fallbacks behind `Box`, `Rc` and `Arc`, and a generic one.

#[json_subtypes(tag = "type")]
#[derive(Debug, Clone, PartialEq)]
enum Boxed {
    #[json_subtypes(name = "dog")]
    Dog(Box<Dog>),
    #[json_subtypes(fallback)]
    Other(Box<Unknown>),
}

#[json_subtypes(tag = "type")]
#[derive(Debug, Clone, PartialEq)]
enum Counted {
    #[json_subtypes(name = "dog")]
    Dog(std::rc::Rc<Dog>),
    #[json_subtypes(fallback)]
    Other(std::rc::Rc<Unknown>),
}

#[json_subtypes(tag = "type")]
#[derive(Debug, Clone, PartialEq)]
enum Shared {
    #[json_subtypes(name = "dog")]
    Dog(std::sync::Arc<Dog>),
    #[json_subtypes(fallback)]
    Other(std::sync::Arc<Unknown>),
}

#[json_subtypes(tag = "type")]
#[derive(Debug, Clone, PartialEq)]
enum Open<T> {
    #[json_subtypes(name = "dog")]
    Dog(Dog),
    #[json_subtypes(fallback)]
    Other(Box<T>),
}

#[rstest]
#[case::tag_first(r#"{"type":"cow","moo":true}"#)]
#[case::tag_last(r#"{"moo":true,"type":"cow"}"#)]
#[case::missing_tag(r#"{"moo":true}"#)]
fn fallbacks_behind_pointers_keep_the_object(#[case] text: &str) {
    // As a plain `Unknown` fallback reads it, the tag key included.
    let unknown = other(text);

    let boxed: Boxed = serde_json::from_str(text).unwrap();
    assert_eq!(boxed, Boxed::Other(Box::new(unknown.clone())));
    assert_eq!(serde_json::to_string(&boxed).unwrap(), text);

    let counted: Counted = serde_json::from_str(text).unwrap();
    assert_eq!(counted, Counted::Other(std::rc::Rc::new(unknown.clone())));
    assert_eq!(serde_json::to_string(&counted).unwrap(), text);

    let shared: Shared = serde_json::from_str(text).unwrap();
    assert_eq!(shared, Shared::Other(std::sync::Arc::new(unknown.clone())));
    assert_eq!(serde_json::to_string(&shared).unwrap(), text);

    let open: Open<Unknown> = serde_json::from_str(text).unwrap();
    assert_eq!(open, Open::Other(Box::new(unknown)));
    assert_eq!(serde_json::to_string(&open).unwrap(), text);
}

#[rstest]
#[case::tag_first(r#"{"type":"dog","name":"Rex"}"#)]
#[case::tag_last(r#"{"name":"Rex","type":"dog"}"#)]
fn known_tags_beside_a_boxed_fallback(#[case] text: &str) {
    let rex = Dog { name: "Rex".into() };
    let written = r#"{"type":"dog","name":"Rex"}"#;
    let boxed: Boxed = serde_json::from_str(text).unwrap();
    assert_eq!(boxed, Boxed::Dog(Box::new(rex.clone())));
    assert_eq!(serde_json::to_string(&boxed).unwrap(), written);
    let counted: Counted = serde_json::from_str(text).unwrap();
    assert_eq!(counted, Counted::Dog(std::rc::Rc::new(rex.clone())));
    assert_eq!(serde_json::to_string(&counted).unwrap(), written);
    let shared: Shared = serde_json::from_str(text).unwrap();
    assert_eq!(shared, Shared::Dog(std::sync::Arc::new(rex.clone())));
    assert_eq!(serde_json::to_string(&shared).unwrap(), written);
}

/// A generic fallback is checked by its `Deserialize` at run time, as serde
/// checks it: a `T` that cannot hold an object is the serde error.
#[test]
fn a_generic_fallback_that_cannot_hold_an_object_is_a_read_error() {
    let err = serde_json::from_str::<Open<String>>(r#"{"type":"cow"}"#).unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid type: map, expected a string at line 1 column 14"
    );
}
