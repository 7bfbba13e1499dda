//! Shapes serde's internally tagged enums read and write that users port:
//! a newtype variant holding an externally tagged enum, the sequence form
//! with a unit-struct payload, and serde_test token streams on unconfigured
//! (not `.readable()`/`.compact()`) serializers and deserializers. Each is
//! checked against serde's own `#[serde(tag = "...")]` twin.

use std::any::Any;

use json_subtypes::{json_subtypes, Profile, TagPosition};
use rstest::rstest;
use serde::{Deserialize, Serialize};
use serde_test::{assert_de_tokens, assert_de_tokens_error, assert_tokens, Configure, Token};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
enum Inner {
    Unit,
    Newtype(u8),
    Tuple(u8, u8),
    Struct { f: u8 },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Unit;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Payload {
    a: u8,
}

#[json_subtypes(tag = "tag")]
#[derive(Debug, Clone, PartialEq)]
enum Outer {
    NewtypeEnum(Inner),
    NewtypeUnitStruct(Unit),
    Newtype(Payload),
    Struct { a: u8 },
    UnitVariant,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "tag", rename = "Outer")]
enum SerdeOuter {
    NewtypeEnum(Inner),
    NewtypeUnitStruct(Unit),
    Newtype(Payload),
    Struct { a: u8 },
    UnitVariant,
}

fn both(inner: Inner) -> (Outer, SerdeOuter) {
    (
        Outer::NewtypeEnum(inner.clone()),
        SerdeOuter::NewtypeEnum(inner),
    )
}

#[rstest]
#[case::unit(Inner::Unit, r#"{"tag":"NewtypeEnum","Unit":null}"#)]
#[case::newtype(Inner::Newtype(1), r#"{"tag":"NewtypeEnum","Newtype":1}"#)]
#[case::tuple(Inner::Tuple(1, 1), r#"{"tag":"NewtypeEnum","Tuple":[1,1]}"#)]
#[case::strukt(Inner::Struct { f: 1 }, r#"{"tag":"NewtypeEnum","Struct":{"f":1}}"#)]
fn newtype_enum_round_trips_as_serde(#[case] inner: Inner, #[case] json: &str) {
    let (ours, serde) = both(inner);
    let written = serde_json::to_string(&ours).unwrap();
    assert_eq!(written, serde_json::to_string(&serde).unwrap());
    assert_eq!(written, json);
    // Tag first, as written, and tag last.
    let entry = &json[r#"{"tag":"NewtypeEnum","#.len()..json.len() - 1];
    let last = format!(r#"{{{entry},"tag":"NewtypeEnum"}}"#);
    for input in [json, &last] {
        assert_eq!(
            serde_json::from_str::<Outer>(input).unwrap(),
            ours,
            "{input}"
        );
        assert_eq!(
            serde_json::from_str::<SerdeOuter>(input).unwrap(),
            serde,
            "{input}"
        );
    }
    // Other formats get the same bytes as serde's twin.
    let mut ours_cbor = Vec::new();
    ciborium::into_writer(&ours, &mut ours_cbor).unwrap();
    let mut serde_cbor = Vec::new();
    ciborium::into_writer(&serde, &mut serde_cbor).unwrap();
    assert_eq!(ours_cbor, serde_cbor);
    assert_eq!(
        ciborium::from_reader::<Outer, _>(&ours_cbor[..]).unwrap(),
        ours
    );
    assert_eq!(
        rmp_serde::to_vec_named(&ours).unwrap(),
        rmp_serde::to_vec_named(&serde).unwrap()
    );
}

#[rstest]
#[case::no_entry(
    r#"{"tag":"NewtypeEnum"}"#,
    "invalid value: map, expected map with a single key at line 1 column 21"
)]
#[case::two_entries(
    r#"{"tag":"NewtypeEnum","Unit":null,"Newtype":1}"#,
    "invalid value: map, expected map with a single key at line 1 column 42"
)]
#[case::two_entries_tag_last(
    r#"{"Unit":null,"Newtype":1,"tag":"NewtypeEnum"}"#,
    "invalid value: map, expected map with a single key at line 1 column 45"
)]
#[case::unknown_variant(
    r#"{"tag":"NewtypeEnum","Nope":1}"#,
    "unknown variant `Nope`, expected one of `Unit`, `Newtype`, `Tuple`, `Struct` at line 1 column 27"
)]
#[case::unit_with_value(
    r#"{"tag":"NewtypeEnum","Unit":1}"#,
    "invalid type: integer `1`, expected unit at line 1 column 29"
)]
#[case::tuple_too_short(
    r#"{"tag":"NewtypeEnum","Tuple":[1]}"#,
    "invalid length 1, expected tuple variant Inner::Tuple with 2 elements at line 1 column 32"
)]
#[case::duplicate_tag(
    r#"{"tag":"NewtypeEnum","tag":"NewtypeEnum"}"#,
    "duplicate field `tag` at line 1 column 26"
)]
fn newtype_enum_bad_shapes(#[case] json: &str, #[case] message: &str) {
    let ours = serde_json::from_str::<Outer>(json).unwrap_err().to_string();
    assert_eq!(ours, message);
    // serde says the same, without a position (it buffers the object).
    if !message.starts_with("duplicate") {
        let serde = serde_json::from_str::<SerdeOuter>(json)
            .unwrap_err()
            .to_string();
        assert!(message.starts_with(&serde), "{serde}");
    }
}

#[test]
fn sequence_form_with_unit_struct_payload() {
    let json = r#"["NewtypeUnitStruct"]"#;
    assert_eq!(
        serde_json::from_str::<Outer>(json).unwrap(),
        Outer::NewtypeUnitStruct(Unit)
    );
    assert_eq!(
        serde_json::from_str::<SerdeOuter>(json).unwrap(),
        SerdeOuter::NewtypeUnitStruct(Unit)
    );
    let extra = r#"["NewtypeUnitStruct",1]"#;
    assert_eq!(
        serde_json::from_str::<Outer>(extra)
            .unwrap_err()
            .to_string(),
        "invalid type: sequence, expected unit struct Unit at line 1 column 23"
    );
    assert_eq!(
        serde_json::from_str::<SerdeOuter>(extra)
            .unwrap_err()
            .to_string(),
        "invalid type: sequence, expected unit struct Unit"
    );
    // The written form is the map, as serde's.
    let written = serde_json::to_string(&Outer::NewtypeUnitStruct(Unit)).unwrap();
    assert_eq!(written, r#"{"tag":"NewtypeUnitStruct"}"#);
    assert_eq!(
        serde_json::from_str::<Outer>(&written).unwrap(),
        Outer::NewtypeUnitStruct(Unit)
    );
}

// Trait objects and profiles whose registered type is such an enum.

#[json_subtypes(tag = "type")]
trait Thing: std::fmt::Debug {
    fn as_any(&self) -> &dyn Any;
}

#[json_subtypes(name = "inner")]
impl Thing for Inner {
    fn as_any(&self) -> &dyn Any {
        self
    }
}

#[rstest]
#[case::unit(Inner::Unit, r#"{"type":"inner","Unit":null}"#)]
#[case::newtype(Inner::Newtype(1), r#"{"type":"inner","Newtype":1}"#)]
#[case::tuple(Inner::Tuple(1, 2), r#"{"type":"inner","Tuple":[1,2]}"#)]
#[case::strukt(Inner::Struct { f: 1 }, r#"{"type":"inner","Struct":{"f":1}}"#)]
fn trait_object_holding_an_enum(#[case] inner: Inner, #[case] json: &str) {
    let boxed: Box<dyn Thing> = Box::new(inner.clone());
    assert_eq!(serde_json::to_string(&boxed).unwrap(), json);
    let entry = &json[r#"{"type":"inner","#.len()..json.len() - 1];
    let last = format!(r#"{{{entry},"type":"inner"}}"#);
    for input in [json, &last] {
        let back: Box<dyn Thing> = serde_json::from_str(input).unwrap();
        assert_eq!(
            back.as_any().downcast_ref::<Inner>(),
            Some(&inner),
            "{input}"
        );
    }

    for position in [TagPosition::First, TagPosition::Last] {
        let profile = Profile::<dyn Thing>::builder()
            .tag("kind")
            .subtype::<Inner>("i")
            .tag_position(position)
            .build()
            .unwrap();
        let written = profile.to_string(&*boxed).unwrap();
        let expected = match position {
            TagPosition::Last => format!(r#"{{{entry},"kind":"i"}}"#),
            _ => format!(r#"{{"kind":"i",{entry}}}"#),
        };
        assert_eq!(written, expected);
        let back: Box<dyn Thing> = profile.from_str(&written).unwrap();
        assert_eq!(back.as_any().downcast_ref::<Inner>(), Some(&inner));
    }
}

// serde_test: neither side is configured, so `is_human_readable` must not
// be asked (serde_test panics); token streams equal serde's twin's.

fn tokens_of(value: &Outer) -> Vec<Token> {
    match value {
        Outer::Newtype(_) => vec![
            Token::Struct {
                name: "Payload",
                len: 2,
            },
            Token::Str("tag"),
            Token::Str("Newtype"),
            Token::Str("a"),
            Token::U8(7),
            Token::StructEnd,
        ],
        Outer::Struct { .. } => vec![
            Token::Struct {
                name: "Outer",
                len: 2,
            },
            Token::Str("tag"),
            Token::Str("Struct"),
            Token::Str("a"),
            Token::U8(7),
            Token::StructEnd,
        ],
        Outer::UnitVariant => vec![
            Token::Struct {
                name: "Outer",
                len: 1,
            },
            Token::Str("tag"),
            Token::Str("UnitVariant"),
            Token::StructEnd,
        ],
        Outer::NewtypeEnum(Inner::Struct { .. }) => vec![
            Token::Map { len: Some(2) },
            Token::Str("tag"),
            Token::Str("NewtypeEnum"),
            Token::Str("Struct"),
            Token::Struct {
                name: "Struct",
                len: 1,
            },
            Token::Str("f"),
            Token::U8(3),
            Token::StructEnd,
            Token::MapEnd,
        ],
        Outer::NewtypeEnum(_) => vec![
            Token::Map { len: Some(2) },
            Token::Str("tag"),
            Token::Str("NewtypeEnum"),
            Token::Str("Tuple"),
            Token::TupleStruct {
                name: "Tuple",
                len: 2,
            },
            Token::U8(1),
            Token::U8(2),
            Token::TupleStructEnd,
            Token::MapEnd,
        ],
        Outer::NewtypeUnitStruct(_) => vec![
            Token::Map { len: Some(1) },
            Token::Str("tag"),
            Token::Str("NewtypeUnitStruct"),
            Token::MapEnd,
        ],
    }
}

#[rstest]
#[case::newtype(Outer::Newtype(Payload { a: 7 }), SerdeOuter::Newtype(Payload { a: 7 }))]
#[case::strukt(Outer::Struct { a: 7 }, SerdeOuter::Struct { a: 7 })]
#[case::unit(Outer::UnitVariant, SerdeOuter::UnitVariant)]
#[case::newtype_enum(
    Outer::NewtypeEnum(Inner::Tuple(1, 2)),
    SerdeOuter::NewtypeEnum(Inner::Tuple(1, 2))
)]
#[case::newtype_unit_struct(Outer::NewtypeUnitStruct(Unit), SerdeOuter::NewtypeUnitStruct(Unit))]
#[case::newtype_enum_struct(Outer::NewtypeEnum(Inner::Struct { f: 3 }), SerdeOuter::NewtypeEnum(Inner::Struct { f: 3 }))]
fn serde_test_tokens_as_serde(#[case] ours: Outer, #[case] serde: SerdeOuter) {
    let tokens = tokens_of(&ours);
    assert_tokens(&serde, &tokens);
    assert_tokens(&ours, &tokens);
}

#[test]
fn serde_test_tag_last_and_errors() {
    let last = [
        Token::Map { len: Some(2) },
        Token::Str("a"),
        Token::U8(7),
        Token::Str("tag"),
        Token::Str("Newtype"),
        Token::MapEnd,
    ];
    // Buffering the entries before the tag asks the format, whose answer a
    // replay must repeat: such a case says which it is.
    assert_de_tokens(&Outer::Newtype(Payload { a: 7 }).readable(), &last);
    assert_de_tokens(&Outer::Newtype(Payload { a: 7 }).compact(), &last);
    assert_de_tokens(&SerdeOuter::Newtype(Payload { a: 7 }), &last);
    let unknown = [
        Token::Map { len: Some(1) },
        Token::Str("tag"),
        Token::Str("Fish"),
    ];
    assert_de_tokens_error::<Outer>(
        &unknown,
        "unknown subtype tag \"Fish\", expected one of \"NewtypeEnum\", \"NewtypeUnitStruct\", \"Newtype\", \"Struct\", \"UnitVariant\"",
    );
}

/// An enum payload whose fields hold options, sequences, maps and enums of
/// their own: collected and written as serde writes them, in every format.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
enum Rich {
    Pair(Option<Inner>, Vec<i64>),
    Named {
        inner: Inner,
        map: std::collections::BTreeMap<String, (u8, char)>,
        unit: Unit,
    },
}

#[json_subtypes(tag = "tag")]
#[derive(Debug, Clone, PartialEq)]
enum RichOuter {
    Rich(Rich),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "tag", rename = "RichOuter")]
enum SerdeRichOuter {
    Rich(Rich),
}

#[rstest]
#[case::pair(Rich::Pair(Some(Inner::Tuple(1, 2)), vec![-1, i64::MIN]))]
#[case::pair_none(Rich::Pair(None, vec![]))]
#[case::named(Rich::Named {
    inner: Inner::Struct { f: 9 },
    map: [("k".to_owned(), (1, 'x'))].into_iter().collect(),
    unit: Unit,
})]
fn rich_enum_payload_writes_serde_bytes(#[case] rich: Rich) {
    let ours = RichOuter::Rich(rich.clone());
    let serde = SerdeRichOuter::Rich(rich);
    let json = serde_json::to_string(&ours).unwrap();
    assert_eq!(json, serde_json::to_string(&serde).unwrap());
    assert_eq!(serde_json::from_str::<RichOuter>(&json).unwrap(), ours);
    let mut ours_cbor = Vec::new();
    ciborium::into_writer(&ours, &mut ours_cbor).unwrap();
    let mut serde_cbor = Vec::new();
    ciborium::into_writer(&serde, &mut serde_cbor).unwrap();
    assert_eq!(ours_cbor, serde_cbor);
    assert_eq!(
        ciborium::from_reader::<RichOuter, _>(&ours_cbor[..]).unwrap(),
        ours
    );
    assert_eq!(
        serde_norway::to_string(&ours).unwrap(),
        serde_norway::to_string(&serde).unwrap()
    );
}

/// Enums in the externally and adjacently tagged forms on unconfigured
/// serde_test streams: with the tag first nothing is recorded, so the
/// format's `is_human_readable` is not asked. (Trait objects read their
/// payloads on the type-erased path, which asks.)
mod apart_forms {
    use super::*;

    #[json_subtypes(external)]
    #[derive(Debug, Clone, PartialEq)]
    enum External {
        Newtype(u8),
        Struct { f: u8 },
    }

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    #[serde(rename = "External")]
    enum SerdeExternal {
        Newtype(u8),
        Struct { f: u8 },
    }

    #[json_subtypes(external)]
    #[derive(Debug, Clone, PartialEq)]
    enum ExternalKept {
        Newtype(u8),
        #[json_subtypes(fallback)]
        Other(std::collections::BTreeMap<String, u8>),
    }

    #[json_subtypes(tag = "t", content = "c")]
    #[derive(Debug, Clone, PartialEq)]
    enum Adjacent {
        Newtype(u8),
    }

    #[test]
    fn enums_read_unconfigured() {
        let tokens = [
            Token::NewtypeVariant {
                name: "External",
                variant: "Newtype",
            },
            Token::U8(7),
        ];
        assert_tokens(&SerdeExternal::Newtype(7), &tokens);
        assert_tokens(&External::Newtype(7), &tokens);
        let tokens = [
            Token::StructVariant {
                name: "External",
                variant: "Struct",
                len: 1,
            },
            Token::Str("f"),
            Token::U8(1),
            Token::StructVariantEnd,
        ];
        assert_tokens(&SerdeExternal::Struct { f: 1 }, &tokens);
        assert_tokens(&External::Struct { f: 1 }, &tokens);
        let tokens = [
            Token::Struct {
                name: "Adjacent",
                len: 2,
            },
            Token::Str("t"),
            Token::UnitVariant {
                name: "Adjacent",
                variant: "Newtype",
            },
            Token::Str("c"),
            Token::U8(7),
            Token::StructEnd,
        ];
        assert_tokens(&Adjacent::Newtype(7), &tokens);
    }

    /// A fallback may be handed the object with nothing of it recorded
    /// from the format, so the format is asked up front: serde_test then
    /// needs configuring.
    #[test]
    fn a_fallback_asks() {
        let tokens = [
            Token::NewtypeVariant {
                name: "ExternalKept",
                variant: "Newtype",
            },
            Token::U8(7),
        ];
        assert_de_tokens(&ExternalKept::Newtype(7).readable(), &tokens);
        assert_de_tokens(&ExternalKept::Newtype(7).compact(), &tokens);
        let unconfigured = std::panic::catch_unwind(|| {
            assert_de_tokens(&ExternalKept::Newtype(7), &tokens);
        })
        .unwrap_err();
        assert_eq!(
            unconfigured.downcast_ref::<&str>().copied(),
            Some(
                "Types which have different human-readable and compact representations must \
                 explicitly mark their test cases with `serde_test::Configure`"
            )
        );
    }
}
