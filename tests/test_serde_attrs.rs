//! serde's own container and variant attributes on a `#[json_subtypes]`
//! enum: one test per attribute the crate docs' "Serde attributes" table
//! says is honoured, through reading (tag first and last), writing and a
//! round trip. The refused ones are compile errors, in `tests/ui/`.

mod common;

use common::points_into;
use std::borrow::Cow;
use std::marker::PhantomData;

use json_subtypes::json_subtypes;
use rstest::rstest;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A type with neither `Serialize` nor `Deserialize`.
#[derive(Debug, PartialEq)]
struct NotSerde;

// ---------------------------------------------------------------------------
// Container: `rename`.

#[json_subtypes(tag = "type")]
#[serde(rename = "Beast")]
#[derive(Debug, PartialEq)]
enum Animal {
    Dog { name: String },
}

#[rstest]
#[case::tag_first(r#"{"type":"Dog","name":"Rex"}"#)]
#[case::tag_last(r#"{"name":"Rex","type":"Dog"}"#)]
fn container_rename_keeps_the_wire_form(#[case] text: &str) {
    let dog = Animal::Dog { name: "Rex".into() };
    assert_eq!(serde_json::from_str::<Animal>(text).unwrap(), dog);
    assert_eq!(
        serde_json::to_string(&dog).unwrap(),
        r#"{"type":"Dog","name":"Rex"}"#
    );
}

#[test]
fn container_rename_names_the_enum_in_messages() {
    let err = serde_json::from_str::<Animal>("3").unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid type: integer `3`, expected a map with a `type` tag for Beast at line 1 column 1"
    );
}

// ---------------------------------------------------------------------------
// Container: `expecting`.

#[json_subtypes(tag = "type")]
#[serde(expecting = "an animal, as an object with a `type`")]
#[derive(Debug, PartialEq)]
enum Pet {
    Cat { lives: u8 },
}

#[rstest]
#[case::integer(
    "3",
    "invalid type: integer `3`, expected an animal, as an object with a `type` at line 1 column 1"
)]
#[case::string(
    r#""cat""#,
    r#"invalid type: string "cat", expected an animal, as an object with a `type` at line 1 column 5"#
)]
#[case::null(
    "null",
    "invalid type: null, expected an animal, as an object with a `type` at line 1 column 4"
)]
fn expecting_words_the_wrong_type_error(#[case] text: &str, #[case] message: &str) {
    let err = serde_json::from_str::<Pet>(text).unwrap_err();
    assert_eq!(err.to_string(), message);
    // Where serde's internally tagged enum puts it.
    let serde_err = serde_json::from_str::<SerdePet>(text).unwrap_err();
    assert_eq!(serde_err.to_string(), message);
}

#[derive(Debug, Deserialize)]
#[serde(tag = "type", expecting = "an animal, as an object with a `type`")]
#[allow(dead_code)]
enum SerdePet {
    Cat { lives: u8 },
}

#[rstest]
#[case::tag_first(r#"{"type":"Cat","lives":9}"#)]
#[case::tag_last(r#"{"lives":9,"type":"Cat"}"#)]
fn expecting_leaves_objects_alone(#[case] text: &str) {
    let cat = Pet::Cat { lives: 9 };
    assert_eq!(serde_json::from_str::<Pet>(text).unwrap(), cat);
    assert_eq!(
        serde_json::to_string(&cat).unwrap(),
        r#"{"type":"Cat","lives":9}"#
    );
}

// ---------------------------------------------------------------------------
// Container: `rename_all_fields`; variant: `rename_all`, which wins over it
// for its own fields, as in serde.

#[json_subtypes(tag = "type")]
#[serde(rename_all_fields = "camelCase")]
#[derive(Debug, PartialEq)]
enum Move {
    Walk {
        step_count: u32,
        top_speed: u8,
    },
    #[serde(rename_all = "SCREAMING_SNAKE_CASE")]
    Swim {
        lap_count: u32,
    },
}

#[rstest]
#[case::rename_all_fields(
    Move::Walk { step_count: 3, top_speed: 7 },
    r#"{"type":"Walk","stepCount":3,"topSpeed":7}"#,
    r#"{"stepCount":3,"topSpeed":7,"type":"Walk"}"#
)]
#[case::variant_rename_all(
    Move::Swim { lap_count: 2 },
    r#"{"type":"Swim","LAP_COUNT":2}"#,
    r#"{"LAP_COUNT":2,"type":"Swim"}"#
)]
fn field_renames_apply_to_struct_variants(
    #[case] value: Move,
    #[case] written: &str,
    #[case] tag_last: &str,
) {
    assert_eq!(serde_json::to_string(&value).unwrap(), written);
    assert_eq!(serde_json::from_str::<Move>(written).unwrap(), value);
    assert_eq!(serde_json::from_str::<Move>(tag_last).unwrap(), value);
}

/// The same key given where `rename_all` goes, beside the tag's own
/// options: the same meaning as `#[serde(rename_all_fields)]`.
#[json_subtypes(
    tag = "type",
    rename_all = "snake_case",
    rename_all_fields = "camelCase"
)]
#[derive(Debug, PartialEq)]
enum Stride {
    QuickWalk {
        step_count: u32,
        top_speed: u8,
    },
    #[serde(rename_all = "SCREAMING_SNAKE_CASE")]
    Swim {
        lap_count: u32,
    },
    /// A newtype payload keeps its own names.
    Plain(Plain),
}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Plain {
    step_count: u32,
}

#[rstest]
#[case::rename_all_fields(
    Stride::QuickWalk { step_count: 3, top_speed: 7 },
    r#"{"type":"quick_walk","stepCount":3,"topSpeed":7}"#,
    r#"{"stepCount":3,"topSpeed":7,"type":"quick_walk"}"#
)]
#[case::variant_rename_all_wins(
    Stride::Swim { lap_count: 2 },
    r#"{"type":"swim","LAP_COUNT":2}"#,
    r#"{"LAP_COUNT":2,"type":"swim"}"#
)]
#[case::newtype_payload(
    Stride::Plain(Plain { step_count: 1 }),
    r#"{"type":"plain","step_count":1}"#,
    r#"{"step_count":1,"type":"plain"}"#
)]
fn rename_all_fields_in_json_subtypes_is_serdes(
    #[case] value: Stride,
    #[case] written: &str,
    #[case] tag_last: &str,
) {
    assert_eq!(serde_json::to_string(&value).unwrap(), written);
    assert_eq!(serde_json::from_str::<Stride>(written).unwrap(), value);
    assert_eq!(serde_json::from_str::<Stride>(tag_last).unwrap(), value);
    let tree = serde_json::to_value(&value).unwrap();
    assert_eq!(serde_json::from_value::<Stride>(tree).unwrap(), value);
}

#[test]
fn rename_all_fields_in_json_subtypes_names_the_fields_read() {
    let err =
        serde_json::from_str::<Stride>(r#"{"type":"quick_walk","step_count":3}"#).unwrap_err();
    assert_eq!(
        err.to_string(),
        "missing field `stepCount` at line 1 column 36"
    );
}

#[test]
fn field_renames_are_the_names_read() {
    let err = serde_json::from_str::<Move>(r#"{"type":"Walk","step_count":3}"#).unwrap_err();
    assert_eq!(
        err.to_string(),
        "missing field `stepCount` at line 1 column 30"
    );
}

// ---------------------------------------------------------------------------
// Container: `deny_unknown_fields`, for struct variants (the tag is not
// unknown), as in serde's internally tagged enums.

#[json_subtypes(tag = "type")]
#[serde(deny_unknown_fields)]
#[derive(Debug, PartialEq)]
enum Strict {
    Point { x: i32, y: i32 },
}

#[rstest]
#[case::tag_first(r#"{"type":"Point","x":1,"y":2}"#)]
#[case::tag_middle(r#"{"x":1,"type":"Point","y":2}"#)]
#[case::tag_last(r#"{"x":1,"y":2,"type":"Point"}"#)]
fn deny_unknown_fields_accepts_known_fields(#[case] text: &str) {
    let point = Strict::Point { x: 1, y: 2 };
    assert_eq!(serde_json::from_str::<Strict>(text).unwrap(), point);
    assert_eq!(
        serde_json::to_string(&point).unwrap(),
        r#"{"type":"Point","x":1,"y":2}"#
    );
}

#[rstest]
#[case::tag_first(
    r#"{"type":"Point","x":1,"z":0,"y":2}"#,
    "unknown field `z`, expected `x` or `y` at line 1 column 25"
)]
#[case::tag_last(
    r#"{"x":1,"z":0,"y":2,"type":"Point"}"#,
    "unknown field `z`, expected `x` or `y` at line 1 column 34"
)]
fn deny_unknown_fields_refuses_others(#[case] text: &str, #[case] message: &str) {
    let err = serde_json::from_str::<Strict>(text).unwrap_err();
    assert_eq!(err.to_string(), message);
}

// ---------------------------------------------------------------------------
// Container `bound` and variant `bound`: they replace the inferred
// `T: Serialize`/`T: Deserialize`, so these compile for `NotSerde`.

#[json_subtypes(tag = "type")]
#[serde(bound = "")]
#[derive(Debug, PartialEq)]
enum Marked<T> {
    Tagged { id: u32, marker: PhantomData<T> },
}

#[json_subtypes(tag = "type")]
#[derive(Debug, PartialEq)]
enum Either<A, B> {
    #[serde(bound = "")]
    Left {
        marker: PhantomData<A>,
    },
    Right {
        b: B,
    },
}

#[rstest]
#[case::tag_first(r#"{"type":"Tagged","id":7,"marker":null}"#)]
#[case::tag_last(r#"{"id":7,"marker":null,"type":"Tagged"}"#)]
fn container_bound_replaces_the_inferred_one(#[case] text: &str) {
    let value = Marked::<NotSerde>::Tagged {
        id: 7,
        marker: PhantomData,
    };
    assert_eq!(
        serde_json::from_str::<Marked<NotSerde>>(text).unwrap(),
        value
    );
    assert_eq!(
        serde_json::to_string(&value).unwrap(),
        r#"{"type":"Tagged","id":7,"marker":null}"#
    );
}

#[rstest]
#[case::left(
    Either::Left { marker: PhantomData },
    r#"{"type":"Left","marker":null}"#,
    r#"{"marker":null,"type":"Left"}"#
)]
#[case::right(
    Either::Right { b: 5 },
    r#"{"type":"Right","b":5}"#,
    r#"{"b":5,"type":"Right"}"#
)]
fn variant_bound_replaces_the_inferred_one(
    #[case] value: Either<NotSerde, u8>,
    #[case] written: &str,
    #[case] tag_last: &str,
) {
    assert_eq!(serde_json::to_string(&value).unwrap(), written);
    assert_eq!(
        serde_json::from_str::<Either<NotSerde, u8>>(written).unwrap(),
        value
    );
    assert_eq!(
        serde_json::from_str::<Either<NotSerde, u8>>(tag_last).unwrap(),
        value
    );
}

// ---------------------------------------------------------------------------
// Variant: `skip_serializing`, serde's error on write; reading still works.

#[json_subtypes(tag = "type")]
#[derive(Debug, PartialEq)]
enum Secretive {
    Public {
        a: u8,
    },
    #[serde(skip_serializing)]
    Secret {
        code: u32,
    },
}

#[rstest]
#[case::tag_first(r#"{"type":"Secret","code":42}"#)]
#[case::tag_last(r#"{"code":42,"type":"Secret"}"#)]
fn skip_serializing_reads_but_does_not_write(#[case] text: &str) {
    let secret = serde_json::from_str::<Secretive>(text).unwrap();
    assert_eq!(secret, Secretive::Secret { code: 42 });
    let err = serde_json::to_string(&secret).unwrap_err();
    assert_eq!(
        err.to_string(),
        "the enum variant Secretive::Secret cannot be serialized"
    );
    let public = Secretive::Public { a: 1 };
    let text = serde_json::to_string(&public).unwrap();
    assert_eq!(text, r#"{"type":"Public","a":1}"#);
    assert_eq!(serde_json::from_str::<Secretive>(&text).unwrap(), public);
}

// ---------------------------------------------------------------------------
// Variant: `skip_deserializing` and `skip`: the tag is unknown on read, as
// in serde; `skip` refuses writing too. A fallback takes the tag then.

#[json_subtypes(tag = "type")]
#[derive(Debug, PartialEq)]
enum Hiding {
    Shown {
        a: u8,
    },
    #[serde(skip_deserializing)]
    WriteOnly {
        b: u8,
    },
    #[serde(skip)]
    Never {
        c: u8,
    },
}

#[json_subtypes(tag = "type")]
#[derive(Debug, PartialEq)]
enum HidingWithFallback {
    Shown {
        a: u8,
    },
    #[serde(skip_deserializing)]
    WriteOnly {
        b: u8,
    },
    #[json_subtypes(fallback)]
    Other(json_subtypes::Unknown),
}

#[rstest]
#[case::write_only_tag_first(
    r#"{"type":"WriteOnly","b":1}"#,
    r#"unknown subtype tag "WriteOnly", expected "Shown" at line 1 column 19"#
)]
#[case::write_only_tag_last(
    r#"{"b":1,"type":"WriteOnly"}"#,
    r#"unknown subtype tag "WriteOnly", expected "Shown" at line 1 column 25"#
)]
#[case::never(
    r#"{"type":"Never","c":1}"#,
    r#"unknown subtype tag "Never", expected "Shown" at line 1 column 15"#
)]
fn skipped_variants_are_not_read(#[case] text: &str, #[case] message: &str) {
    let err = serde_json::from_str::<Hiding>(text).unwrap_err();
    assert_eq!(err.to_string(), message);
}

#[test]
fn skipped_variants_write_unless_skipped_both_ways() {
    let text = serde_json::to_string(&Hiding::WriteOnly { b: 1 }).unwrap();
    assert_eq!(text, r#"{"type":"WriteOnly","b":1}"#);
    let err = serde_json::to_string(&Hiding::Never { c: 1 }).unwrap_err();
    assert_eq!(
        err.to_string(),
        "the enum variant Hiding::Never cannot be serialized"
    );
    let shown = Hiding::Shown { a: 2 };
    let text = serde_json::to_string(&shown).unwrap();
    assert_eq!(text, r#"{"type":"Shown","a":2}"#);
    assert_eq!(serde_json::from_str::<Hiding>(&text).unwrap(), shown);
    assert_eq!(
        serde_json::from_str::<Hiding>(r#"{"a":2,"type":"Shown"}"#).unwrap(),
        shown
    );
}

#[rstest]
#[case::tag_first(r#"{"type":"WriteOnly","b":1}"#)]
#[case::tag_last(r#"{"b":1,"type":"WriteOnly"}"#)]
fn a_skipped_variants_tag_lands_in_the_fallback(#[case] text: &str) {
    let value = serde_json::from_str::<HidingWithFallback>(text).unwrap();
    let HidingWithFallback::Other(unknown) = &value else {
        panic!("{value:?}")
    };
    assert_eq!(unknown.tag::<String>().unwrap().unwrap(), "WriteOnly");
    assert_eq!(serde_json::to_string(&value).unwrap(), text);
}

/// In presence mode a variant serde does not read needs no `when_field`.
#[json_subtypes]
#[derive(Debug, PartialEq)]
enum Found {
    #[json_subtypes(when_field = "skill")]
    Developer { skill: String },
    #[serde(skip_deserializing)]
    Legacy { skill: String, team: String },
}

#[test]
fn presence_mode_skips_unread_variants() {
    let legacy = Found::Legacy {
        skill: "rust".into(),
        team: "core".into(),
    };
    assert_eq!(
        serde_json::to_string(&legacy).unwrap(),
        r#"{"skill":"rust","team":"core"}"#
    );
    // What it writes reads as the variant that is read.
    for text in [r#"{"skill":"rust","team":"core"}"#, r#"{"skill":"rust"}"#] {
        assert_eq!(
            serde_json::from_str::<Found>(text).unwrap(),
            Found::Developer {
                skill: "rust".into()
            }
        );
    }
}

/// serde's own internally tagged enum says the same of a skipped tag.
#[test]
fn skipped_variants_are_unknown_to_serde_too() {
    #[derive(Debug, Deserialize)]
    #[serde(tag = "type")]
    #[allow(dead_code)]
    enum SerdeHiding {
        Shown {
            a: u8,
        },
        #[serde(skip_deserializing)]
        WriteOnly {
            b: u8,
        },
    }
    let err = serde_json::from_str::<SerdeHiding>(r#"{"type":"WriteOnly","b":1}"#).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("unknown variant `WriteOnly`, expected `Shown`"),
        "{err}"
    );
}

// ---------------------------------------------------------------------------
// Variant: `serialize_with`, `deserialize_with`, `with`.

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Dog {
    name: String,
}

fn shout<S: Serializer>(dog: &Dog, serializer: S) -> Result<S::Ok, S::Error> {
    Dog {
        name: dog.name.to_uppercase(),
    }
    .serialize(serializer)
}

fn whisper<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Dog, D::Error> {
    let dog = Dog::deserialize(deserializer)?;
    Ok(Dog {
        name: dog.name.to_lowercase(),
    })
}

/// A struct variant's fields as one `{"sum":...,"diff":...}` object.
mod sum_and_difference {
    use super::*;

    #[derive(Serialize, Deserialize)]
    struct Wire {
        sum: i32,
        diff: i32,
    }

    pub fn serialize<S: Serializer>(a: &i32, b: &i32, serializer: S) -> Result<S::Ok, S::Error> {
        Wire {
            sum: a + b,
            diff: a - b,
        }
        .serialize(serializer)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<(i32, i32), D::Error> {
        let wire = Wire::deserialize(deserializer)?;
        Ok(((wire.sum + wire.diff) / 2, (wire.sum - wire.diff) / 2))
    }
}

#[json_subtypes(tag = "type")]
#[derive(Debug, PartialEq)]
enum Custom {
    #[serde(serialize_with = "shout")]
    Loud(Dog),
    #[serde(deserialize_with = "whisper")]
    Quiet(Dog),
    #[serde(with = "sum_and_difference")]
    Pair { a: i32, b: i32 },
}

#[rstest]
#[case::serialize_with(
    Custom::Loud(Dog { name: "Rex".into() }),
    r#"{"type":"Loud","name":"REX"}"#,
    Custom::Loud(Dog { name: "REX".into() })
)]
#[case::deserialize_with(
    Custom::Quiet(Dog { name: "Rex".into() }),
    r#"{"type":"Quiet","name":"Rex"}"#,
    Custom::Quiet(Dog { name: "rex".into() })
)]
#[case::with(
    Custom::Pair { a: 5, b: 3 },
    r#"{"type":"Pair","sum":8,"diff":2}"#,
    Custom::Pair { a: 5, b: 3 }
)]
fn variant_functions_write_and_read(
    #[case] value: Custom,
    #[case] written: &str,
    #[case] read_back: Custom,
) {
    assert_eq!(serde_json::to_string(&value).unwrap(), written);
    assert_eq!(serde_json::from_str::<Custom>(written).unwrap(), read_back);
    // Tag last: the same object with the tag moved to the end.
    let body = &written[written.find(',').unwrap() + 1..written.len() - 1];
    let tag = &written[1..written.find(',').unwrap()];
    let tag_last = format!("{{{body},{tag}}}");
    assert_eq!(
        serde_json::from_str::<Custom>(&tag_last).unwrap(),
        read_back
    );
}

// ---------------------------------------------------------------------------
// Variant: `borrow`, on a newtype variant.

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Text<'a> {
    #[serde(borrow)]
    body: Cow<'a, str>,
}

#[json_subtypes(tag = "type")]
#[derive(Debug, PartialEq)]
enum Message<'a> {
    #[serde(borrow)]
    Text(Text<'a>),
}

#[rstest]
#[case::tag_first(r#"{"type":"Text","body":"hello"}"#)]
#[case::tag_last(r#"{"body":"hello","type":"Text"}"#)]
fn variant_borrow_borrows_from_the_input(#[case] text: &str) {
    let message: Message = serde_json::from_str(text).unwrap();
    let Message::Text(Text { body }) = &message;
    assert!(matches!(body, Cow::Borrowed(b) if points_into(b, text)));
    assert_eq!(
        serde_json::to_string(&message).unwrap(),
        r#"{"type":"Text","body":"hello"}"#
    );
}
