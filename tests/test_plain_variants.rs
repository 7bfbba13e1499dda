//! Enums whose variants carry no serde attribute that changes how they are
//! read or written are built and written by the runtime's shared code, not
//! by a serde-derived twin (the twin was most of the macro's expansion).
//!
//! Every case here runs on such an enum (`Lean`) and on the same enum with
//! `#[serde(bound = "")]`, which keeps the twin (`Twin`): the two must agree
//! on every output and every error, and the expected text is serde's own.

use json_subtypes::json_subtypes;
use rstest::rstest;
use serde::{Deserialize, Serialize};
use serde_test::{assert_de_tokens, assert_de_tokens_error, Token};

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Point {
    x: i64,
    y: i64,
}

/// One enum's variants, declared twice: once plain, once with an attribute
/// that makes the macro keep serde's derive.
macro_rules! pair {
    ($(#[$attr:meta])* => $lean:ident, $twin:ident) => {
        pair!(@one $lean [$(#[$attr])*]);
        pair!(@one $twin [$(#[$attr])* #[serde(bound = "")]]);
    };
    (@one $name:ident [$(#[$attr:meta])*]) => {
        #[json_subtypes(tag = "type")]
        #[serde(rename = "Shape")]
        $(#[$attr])*
        #[derive(Debug, PartialEq)]
        enum $name {
            Dot(Point),
            // The same payload type as `Dot`'s: each writes its own tag.
            Spot(Point),
            Line {
                from: u32,
                to: u32,
                label: Option<String>,
            },
            Renamed {
                #[serde(rename = "x-pos")]
                x: i64,
                r#type2: bool,
            },
            Empty {},
            Stop,
        }
    };
}

pair!(=> Lean, Twin);
pair!(#[serde(deny_unknown_fields)] => LeanStrict, TwinStrict);

/// What reading `text` gives, as text: the value written back, or the error.
fn read<T>(text: &str) -> String
where
    T: for<'de> Deserialize<'de> + Serialize,
{
    match serde_json::from_str::<T>(text) {
        Ok(value) => serde_json::to_string(&value).unwrap(),
        Err(err) => format!("error: {err}"),
    }
}

#[rstest]
#[case::struct_tag_first(
    r#"{"type":"Line","from":1,"to":2,"label":"a"}"#,
    r#"{"type":"Line","from":1,"to":2,"label":"a"}"#
)]
#[case::struct_tag_last(
    r#"{"to":2,"from":1,"type":"Line"}"#,
    r#"{"type":"Line","from":1,"to":2,"label":null}"#
)]
#[case::missing_option_is_none(
    r#"{"type":"Line","from":1,"to":2}"#,
    r#"{"type":"Line","from":1,"to":2,"label":null}"#
)]
#[case::missing_field(
    r#"{"type":"Line","to":2}"#,
    "error: missing field `from` at line 1 column 22"
)]
#[case::missing_field_tag_last(
    r#"{"to":2,"type":"Line"}"#,
    "error: missing field `from` at line 1 column 22"
)]
#[case::duplicate_field(
    r#"{"type":"Line","from":1,"from":2,"to":3}"#,
    "error: duplicate field `from` at line 1 column 30"
)]
#[case::duplicate_field_tag_last(
    r#"{"from":1,"from":2,"to":3,"type":"Line"}"#,
    "error: duplicate field `from` at line 1 column 40"
)]
#[case::unknown_field_ignored(
    r#"{"type":"Line","from":1,"extra":[1,{"a":2}],"to":2}"#,
    r#"{"type":"Line","from":1,"to":2,"label":null}"#
)]
#[case::wrong_field_type(
    r#"{"type":"Line","from":"x","to":2}"#,
    "error: invalid type: string \"x\", expected u32 at line 1 column 25"
)]
#[case::renamed_fields(
    r#"{"type":"Renamed","x-pos":-3,"type2":true}"#,
    r#"{"type":"Renamed","x-pos":-3,"type2":true}"#
)]
#[case::field_under_its_rust_name_is_unknown(
    r#"{"type":"Renamed","x":-3,"type2":true}"#,
    "error: missing field `x-pos` at line 1 column 38"
)]
#[case::empty_struct(r#"{"type":"Empty","a":1}"#, r#"{"type":"Empty"}"#)]
#[case::unit(r#"{"a":[1],"type":"Stop"}"#, r#"{"type":"Stop"}"#)]
#[case::newtype(r#"{"y":2,"type":"Dot","x":1}"#, r#"{"type":"Dot","x":1,"y":2}"#)]
#[case::newtype_sharing_a_payload_type(
    r#"{"y":2,"type":"Spot","x":1}"#,
    r#"{"type":"Spot","x":1,"y":2}"#
)]
#[case::seq_form(
    r#"["Line",1,2,"a"]"#,
    r#"{"type":"Line","from":1,"to":2,"label":"a"}"#
)]
#[case::seq_form_too_short(
    r#"["Line",1]"#,
    "error: invalid length 1, expected struct variant {}::Line with 3 elements at line 1 column 10"
)]
#[case::seq_form_empty_struct(r#"["Empty"]"#, r#"{"type":"Empty"}"#)]
#[case::struct_from_a_string(
    r#"{"type":"Line","from":1,"to":2,"label":7}"#,
    "error: invalid type: integer `7`, expected a string at line 1 column 40"
)]
fn plain_and_derived_variants_agree(#[case] text: &str, #[case] expected: &str) {
    // serde's messages name the enum by its identifier, not its `rename`.
    assert_eq!(read::<Lean>(text), expected.replace("{}", "Lean"));
    assert_eq!(read::<Twin>(text), expected.replace("{}", "Twin"));
}

#[rstest]
#[case::unknown_field(
    r#"{"type":"Line","from":1,"to":2,"extra":1}"#,
    "error: unknown field `extra`, expected one of `from`, `to`, `label` at line 1 column 38"
)]
#[case::unknown_field_tag_last(
    r#"{"extra":1,"from":1,"to":2,"type":"Line"}"#,
    "error: unknown field `extra`, expected one of `from`, `to`, `label` at line 1 column 41"
)]
#[case::known_fields(
    r#"{"type":"Line","from":1,"to":2}"#,
    r#"{"type":"Line","from":1,"to":2,"label":null}"#
)]
fn deny_unknown_fields_agrees(#[case] text: &str, #[case] expected: &str) {
    assert_eq!(read::<LeanStrict>(text), expected);
    assert_eq!(read::<TwinStrict>(text), expected);
}

/// Every variant written, then read back, by both.
#[rstest]
#[case::newtype(Lean::Dot(Point { x: 1, y: -2 }), Twin::Dot(Point { x: 1, y: -2 }), r#"{"type":"Dot","x":1,"y":-2}"#)]
#[case::newtype_sharing_a_payload_type(
    Lean::Spot(Point { x: 3, y: 4 }),
    Twin::Spot(Point { x: 3, y: 4 }),
    r#"{"type":"Spot","x":3,"y":4}"#
)]
#[case::line(
    Lean::Line { from: 1, to: 2, label: None },
    Twin::Line { from: 1, to: 2, label: None },
    r#"{"type":"Line","from":1,"to":2,"label":null}"#
)]
#[case::renamed(
    Lean::Renamed { x: 5, r#type2: false },
    Twin::Renamed { x: 5, r#type2: false },
    r#"{"type":"Renamed","x-pos":5,"type2":false}"#
)]
#[case::empty(Lean::Empty {}, Twin::Empty {}, r#"{"type":"Empty"}"#)]
#[case::unit(Lean::Stop, Twin::Stop, r#"{"type":"Stop"}"#)]
fn write_and_round_trip(#[case] lean: Lean, #[case] twin: Twin, #[case] expected: &str) {
    let written = serde_json::to_string(&lean).unwrap();
    assert_eq!(written, expected);
    assert_eq!(serde_json::to_string(&twin).unwrap(), expected);
    assert_eq!(serde_json::from_str::<Lean>(&written).unwrap(), lean);
    assert_eq!(serde_json::from_str::<Twin>(&written).unwrap(), twin);
    let pretty = serde_json::to_string_pretty(&lean).unwrap();
    assert_eq!(pretty, serde_json::to_string_pretty(&twin).unwrap());
    assert_eq!(serde_json::from_str::<Lean>(&pretty).unwrap(), lean);
}

/// Keys that formats other than JSON hand over: field indexes and bytes,
/// as serde's derived field identifier reads them.
fn line_tokens(key: Token) -> Vec<Token> {
    vec![
        Token::Map { len: Some(3) },
        Token::Str("type"),
        Token::Str("Line"),
        key,
        Token::U32(1),
        Token::Str("to"),
        Token::U32(2),
        Token::MapEnd,
    ]
}

#[rstest]
#[case::index(Token::U64(0))]
#[case::bytes(Token::Bytes(b"from"))]
fn keys_as_indexes_and_bytes(#[case] key: Token) {
    let tokens = line_tokens(key);
    assert_de_tokens(
        &Lean::Line {
            from: 1,
            to: 2,
            label: None,
        },
        &tokens,
    );
    assert_de_tokens(
        &Twin::Line {
            from: 1,
            to: 2,
            label: None,
        },
        &tokens,
    );
}

#[rstest]
#[case::index_out_of_range(
    Token::U64(7),
    "invalid value: integer `7`, expected field index 0 <= i < 3"
)]
#[case::unknown_bytes(
    Token::Bytes(b"fro"),
    "unknown field `fro`, expected one of `from`, `to`, `label`"
)]
fn strict_keys_as_indexes_and_bytes(#[case] key: Token, #[case] message: &str) {
    let tokens = line_tokens(key);
    assert_de_tokens_error::<LeanStrict>(&tokens[..4], message);
    assert_de_tokens_error::<TwinStrict>(&tokens[..4], message);
}

/// Seventeen fields, one more than the shared code's tuples take: the
/// macro keeps the twin for this enum, and it reads and writes the same.
#[json_subtypes(tag = "type")]
#[derive(Debug, PartialEq)]
enum Wide {
    All {
        a: u8,
        b: u8,
        c: u8,
        d: u8,
        e: u8,
        f: u8,
        g: u8,
        h: u8,
        i: u8,
        j: u8,
        k: u8,
        l: u8,
        m: u8,
        n: u8,
        o: u8,
        p: u8,
        q: u8,
    },
}

#[test]
fn a_struct_variant_of_seventeen_fields() {
    let text = r#"{"type":"All","a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":10,"k":11,"l":12,"m":13,"n":14,"o":15,"p":16,"q":17}"#;
    let value: Wide = serde_json::from_str(text).unwrap();
    assert_eq!(serde_json::to_string(&value).unwrap(), text);
    let Wide::All { a, q, .. } = value;
    assert_eq!((a, q), (1, 17));
    let err = serde_json::from_str::<Wide>(r#"{"type":"All","a":1}"#).unwrap_err();
    assert_eq!(err.to_string(), "missing field `b` at line 1 column 20");
}

/// Sixteen fields, the most the shared code takes.
#[json_subtypes(tag = "type")]
#[derive(Debug, PartialEq)]
enum Sixteen {
    All {
        a: u8,
        b: u8,
        c: u8,
        d: u8,
        e: u8,
        f: u8,
        g: u8,
        h: u8,
        i: u8,
        j: u8,
        k: u8,
        l: u8,
        m: u8,
        n: u8,
        o: u8,
        p: u8,
    },
}

#[test]
fn a_struct_variant_of_sixteen_fields() {
    let text = r#"{"type":"All","a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":10,"k":11,"l":12,"m":13,"n":14,"o":15,"p":16}"#;
    let value: Sixteen = serde_json::from_str(text).unwrap();
    assert_eq!(serde_json::to_string(&value).unwrap(), text);
    let err = serde_json::from_str::<Sixteen>(r#"{"p":1,"type":"All"}"#).unwrap_err();
    assert_eq!(err.to_string(), "missing field `a` at line 1 column 20");
}

/// Fields named like the generated code's own variables.
#[json_subtypes(tag = "type")]
#[derive(Debug, PartialEq)]
#[allow(non_snake_case)]
enum Clash {
    Names {
        __s: u8,
        __serializer: u8,
        __payload: u8,
        __index: u8,
        __k: u8,
        __v: u8,
        __field0: u8,
    },
}

#[test]
fn fields_named_like_generated_variables() {
    let value = Clash::Names {
        __s: 1,
        __serializer: 2,
        __payload: 3,
        __index: 4,
        __k: 5,
        __v: 6,
        __field0: 7,
    };
    let text = serde_json::to_string(&value).unwrap();
    assert_eq!(
        text,
        r#"{"type":"Names","__s":1,"__serializer":2,"__payload":3,"__index":4,"__k":5,"__v":6,"__field0":7}"#
    );
    assert_eq!(serde_json::from_str::<Clash>(&text).unwrap(), value);
}
