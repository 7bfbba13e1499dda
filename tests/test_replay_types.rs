//! A field of the wrong type gets the same message whether it came before
//! the tag (buffered, then replayed to the payload) or after it (read from
//! serde_json in place). Replayed values answer a typed request (`u32`,
//! `String`, `bool`, `char`, `f64`) only with values of that kind and
//! refuse the others as serde_json does, without offering them to the
//! field's visitor.

use json_subtypes::json_subtypes;
use rstest::rstest;
use serde::{Deserialize, Serialize};

#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
struct Fields {
    #[serde(default)]
    n: u32,
    #[serde(default)]
    s: String,
    #[serde(default)]
    b: bool,
    #[serde(default)]
    c: char,
    #[serde(default)]
    f: f64,
}

#[json_subtypes(tag = "type")]
#[derive(Debug, PartialEq)]
enum Doc {
    Fields(Fields),
}

/// The message without serde_json's position, which differs by where the
/// error surfaced.
fn message(text: &str) -> String {
    let err = serde_json::from_str::<Doc>(text).unwrap_err().to_string();
    match err.find(" at line ") {
        Some(at) => err[..at].to_owned(),
        None => err,
    }
}

#[rstest]
#[case::string_for_u32("n", r#""seven""#, r#"invalid type: string "seven", expected u32"#)]
#[case::bool_for_u32("n", "true", "invalid type: boolean `true`, expected u32")]
#[case::null_for_u32("n", "null", "invalid type: null, expected u32")]
#[case::float_for_u32("n", "1.5", "invalid type: floating point `1.5`, expected u32")]
#[case::array_for_u32("n", "[1]", "invalid type: sequence, expected u32")]
#[case::map_for_u32("n", r#"{"a":1}"#, "invalid type: map, expected u32")]
#[case::negative_for_u32("n", "-1", "invalid value: integer `-1`, expected u32")]
#[case::number_for_string("s", "7", "invalid type: integer `7`, expected a string")]
#[case::bool_for_string("s", "false", "invalid type: boolean `false`, expected a string")]
#[case::array_for_string("s", r#"["x"]"#, "invalid type: sequence, expected a string")]
#[case::string_for_bool("b", r#""yes""#, r#"invalid type: string "yes", expected a boolean"#)]
#[case::number_for_bool("b", "1", "invalid type: integer `1`, expected a boolean")]
#[case::long_string_for_char("c", r#""ab""#, r#"invalid value: string "ab", expected a character"#)]
#[case::number_for_char("c", "1", "invalid type: integer `1`, expected a character")]
#[case::string_for_f64("f", r#""1.5""#, r#"invalid type: string "1.5", expected f64"#)]
#[case::escaped_string_for_f64("f", r#""a\"b""#, r#"invalid type: string "a\"b", expected f64"#)]
fn wrong_types_read_the_same_before_and_after_the_tag(
    #[case] field: &str,
    #[case] value: &str,
    #[case] expected: &str,
) {
    let first = format!(r#"{{"type":"Fields","{field}":{value}}}"#);
    let last = format!(r#"{{"{field}":{value},"type":"Fields"}}"#);
    assert_eq!(message(&first), expected, "tag first: {first}");
    assert_eq!(message(&last), expected, "tag last: {last}");
}

#[rstest]
#[case::number(r#""n":7"#, Fields { n: 7, ..Fields::default() })]
#[case::string(r#""s":"x""#, Fields { s: "x".into(), ..Fields::default() })]
#[case::escaped_string(r#""s":"a\nb""#, Fields { s: "a\nb".into(), ..Fields::default() })]
#[case::bool(r#""b":true"#, Fields { b: true, ..Fields::default() })]
#[case::char(r#""c":"z""#, Fields { c: 'z', ..Fields::default() })]
#[case::integer_for_f64(r#""f":3"#, Fields { f: 3.0, ..Fields::default() })]
#[case::negative_for_f64(r#""f":-3"#, Fields { f: -3.0, ..Fields::default() })]
fn right_types_read_and_round_trip_before_and_after_the_tag(
    #[case] entry: &str,
    #[case] expected: Fields,
) {
    for text in [
        format!(r#"{{"type":"Fields",{entry}}}"#),
        format!(r#"{{{entry},"type":"Fields"}}"#),
    ] {
        let doc: Doc = serde_json::from_str(&text).unwrap();
        assert_eq!(doc, Doc::Fields(expected.clone()), "{text}");
        let written = serde_json::to_string(&doc).unwrap();
        assert_eq!(serde_json::from_str::<Doc>(&written).unwrap(), doc);
    }
}
