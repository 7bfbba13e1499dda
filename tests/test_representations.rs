//! The externally and adjacently tagged forms of trait objects and
//! profiles: `#[json_subtypes(external)]` (`{"Circle":{"r":1.0}}`) and
//! `#[json_subtypes(tag = "type", content = "value")]`
//! (`{"type":"Circle","value":{"r":1.0}}`). Each feature is read, written
//! and read back; errors are asserted word for word.

use json_subtypes::{json_subtypes, Profile, TagPosition, Unknown};
use rstest::rstest;
use serde::{Deserialize, Serialize};

/// The externally tagged trait, without a fallback.
#[json_subtypes(external)]
trait Shape: std::fmt::Debug {
    fn area(&self) -> f64;
}

/// The adjacently tagged trait, without a fallback.
#[json_subtypes(tag = "type", content = "value")]
trait Figure: std::fmt::Debug {
    fn area(&self) -> f64;
}

/// Both forms with a fallback that keeps every byte, and a nesting limit.
#[json_subtypes(external, max_depth = 16)]
trait Plugin: std::fmt::Debug {}

#[json_subtypes(tag = "type", content = "value", max_depth = 16)]
trait Message: std::fmt::Debug {}

/// `deny_unknown_fields` and integer tags.
#[json_subtypes(tag = "op", content = "args", deny_unknown_fields)]
trait Command: std::fmt::Debug {}

#[json_subtypes(external)]
trait Code: std::fmt::Debug {}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Circle {
    r: f64,
}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Square {
    side: f64,
}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Point;

#[derive(Debug, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
struct Other(Unknown);

macro_rules! shapes {
    ($($trait:ident)*) => {$(
        #[json_subtypes]
        impl $trait for Circle {
            fn area(&self) -> f64 {
                3.0 * self.r * self.r
            }
        }

        #[json_subtypes(name = "square", alias = "sq")]
        impl $trait for Square {
            fn area(&self) -> f64 {
                self.side * self.side
            }
        }

        #[json_subtypes]
        impl $trait for Point {
            fn area(&self) -> f64 {
                0.0
            }
        }
    )*};
}

shapes!(Shape Figure);

macro_rules! with_fallback {
    ($($trait:ident)*) => {$(
        #[json_subtypes]
        impl $trait for Circle {}

        #[json_subtypes(name = "square", alias = "sq")]
        impl $trait for Square {}

        #[json_subtypes]
        impl $trait for Point {}

        #[json_subtypes(fallback)]
        impl $trait for Other {}
    )*};
}

with_fallback!(Plugin Message);

#[json_subtypes(name = 1)]
impl Command for Circle {}

#[json_subtypes(name = 2)]
impl Command for Square {}

#[json_subtypes(name = 1)]
impl Code for Circle {}

#[json_subtypes(name = 2)]
impl Code for Square {}

fn shown<T: std::fmt::Debug + ?Sized>(value: &T) -> String {
    format!("{value:?}")
}

// The externally tagged form.

#[rstest]
#[case::struct_payload(
    r#"{"Circle":{"r":1.0}}"#,
    "Circle { r: 1.0 }",
    r#"{"Circle":{"r":1.0}}"#
)]
#[case::named(
    r#"{"square":{"side":2.0}}"#,
    "Square { side: 2.0 }",
    r#"{"square":{"side":2.0}}"#
)]
#[case::alias_writes_the_name(
    r#"{"sq":{"side":2.0}}"#,
    "Square { side: 2.0 }",
    r#"{"square":{"side":2.0}}"#
)]
#[case::unit_struct(r#"{"Point":null}"#, "Point", r#"{"Point":null}"#)]
#[case::whitespace(
    " { \"Circle\" : { \"r\" : 1.0 } } ",
    "Circle { r: 1.0 }",
    r#"{"Circle":{"r":1.0}}"#
)]
fn external_reads_writes_and_reads_back(
    #[case] text: &str,
    #[case] value: &str,
    #[case] written: &str,
) {
    let read: Box<dyn Shape> = serde_json::from_str(text).unwrap();
    assert_eq!(shown(&read), value);
    assert!(read.area() >= 0.0);
    assert_eq!(serde_json::to_string(&read).unwrap(), written);
    let back: Box<dyn Shape> = serde_json::from_str(written).unwrap();
    assert_eq!(shown(&back), value);
}

#[rstest]
#[case::unknown_tag(
    r#"{"Hexagon":{"sides":6}}"#,
    r#"unknown subtype tag "Hexagon", expected one of "Circle", "Point", "square", "sq"; to read a type under this tag, put `#[json_subtypes(name = "Hexagon")]` on its `impl Shape`, or read it with a `Profile` that registers it at line 1 column 10"#
)]
#[case::empty(
    "{}",
    "invalid value: map, expected a map with a single key, the subtype tag of dyn Shape at line 1 column 2"
)]
#[case::two_entries(
    r#"{"Circle":{"r":1.0},"Point":null}"#,
    "invalid value: map, expected a map with a single key, the subtype tag of dyn Shape at line 1 column 27"
)]
#[case::not_a_map(
    r#""Circle""#,
    r#"invalid type: string "Circle", expected a map with a single key, the subtype tag of dyn Shape at line 1 column 8"#
)]
#[case::body_error_keeps_its_position(
    r#"{"Circle":{"r":"one"}}"#,
    r#"invalid type: string "one", expected f64 at line 1 column 20"#
)]
#[case::body_unknown_field(
    r#"{"Circle":{"r":1.0,"d":2.0}}"#,
    "unknown field `d`, expected `r` at line 1 column 22"
)]
#[case::unit_with_a_body(
    r#"{"Point":{}}"#,
    "invalid type: map, expected unit struct Point at line 1 column 9"
)]
fn external_errors(#[case] text: &str, #[case] message: &str) {
    let err = serde_json::from_str::<Box<dyn Shape>>(text).unwrap_err();
    assert_eq!(err.to_string(), message);
}

#[rstest]
#[case::unknown_key(r#"{"Hexagon":{"sides":6,"big":18446744073709551615}}"#)]
#[case::unknown_key_scalar(r#"{"Line":[1,2,3]}"#)]
#[case::empty("{}")]
fn external_fallback_keeps_every_byte(#[case] text: &str) {
    let read: Box<dyn Plugin> = serde_json::from_str(text).unwrap();
    assert!(shown(&read).starts_with("Other("), "{read:?}");
    assert_eq!(serde_json::to_string(&read).unwrap(), text);
    let back: Box<dyn Plugin> = serde_json::from_str(text).unwrap();
    assert_eq!(shown(&back), shown(&read));
}

#[test]
fn external_fallback_sees_the_unknown_key() {
    let read: Box<dyn Plugin> = serde_json::from_str(r#"{"Hexagon":{"sides":6}}"#).unwrap();
    let text = shown(&read);
    assert!(text.contains(r#"{"Hexagon":{"sides":6}}"#), "{text}");
    // Known tags never reach the fallback.
    let read: Box<dyn Plugin> = serde_json::from_str(r#"{"sq":{"side":1.0}}"#).unwrap();
    assert_eq!(shown(&read), "Square { side: 1.0 }");
}

#[rstest]
#[case::first(r#"{"1":{"r":1.0}}"#, "Circle { r: 1.0 }", r#"{"1":{"r":1.0}}"#)]
#[case::second(
    r#"{"2":{"side":2.0}}"#,
    "Square { side: 2.0 }",
    r#"{"2":{"side":2.0}}"#
)]
fn external_integer_tags_are_json_keys(
    #[case] text: &str,
    #[case] value: &str,
    #[case] written: &str,
) {
    let read: Box<dyn Code> = serde_json::from_str(text).unwrap();
    assert_eq!(shown(&read), value);
    assert_eq!(serde_json::to_string(&read).unwrap(), written);
}

#[test]
fn external_integer_tag_unknown() {
    let err = serde_json::from_str::<Box<dyn Code>>(r#"{"3":{}}"#).unwrap_err();
    assert_eq!(
        err.to_string(),
        "unknown subtype tag 3, expected one of 1, 2; to read a type under this tag, put `#[json_subtypes(name = 3)]` on its `impl Code`, or read it with a `Profile` that registers it at line 1 column 3"
    );
}

// The adjacently tagged form.

#[rstest]
#[case::tag_first(r#"{"type":"Circle","value":{"r":1.0}}"#, "Circle { r: 1.0 }")]
#[case::content_first(r#"{"value":{"r":1.0},"type":"Circle"}"#, "Circle { r: 1.0 }")]
#[case::alias(r#"{"type":"sq","value":{"side":2.0}}"#, "Square { side: 2.0 }")]
#[case::other_keys_ignored(
    r#"{"id":7,"type":"square","note":[1,{"a":null}],"value":{"side":2.0},"more":true}"#,
    "Square { side: 2.0 }"
)]
#[case::other_keys_ignored_content_first(
    r#"{"id":7,"value":{"side":2.0},"note":"x","type":"square","more":true}"#,
    "Square { side: 2.0 }"
)]
#[case::unit_with_null(r#"{"type":"Point","value":null}"#, "Point")]
#[case::unit_without_content(r#"{"type":"Point"}"#, "Point")]
fn adjacent_reads(#[case] text: &str, #[case] value: &str) {
    let read: Box<dyn Figure> = serde_json::from_str(text).unwrap();
    assert_eq!(shown(&read), value);
    assert!(read.area() >= 0.0);
    let written = serde_json::to_string(&read).unwrap();
    let back: Box<dyn Figure> = serde_json::from_str(&written).unwrap();
    assert_eq!(shown(&back), value);
}

#[rstest]
#[case::struct_payload(Box::new(Circle { r: 1.0 }), r#"{"type":"Circle","value":{"r":1.0}}"#)]
#[case::named(Box::new(Square { side: 2.0 }), r#"{"type":"square","value":{"side":2.0}}"#)]
#[case::unit(Box::new(Point), r#"{"type":"Point","value":null}"#)]
fn adjacent_writes(#[case] value: Box<dyn Figure>, #[case] text: &str) {
    assert_eq!(serde_json::to_string(&value).unwrap(), text);
    let back: Box<dyn Figure> = serde_json::from_str(text).unwrap();
    assert_eq!(shown(&back), shown(&value));
}

#[rstest]
#[case::unknown_tag(
    r#"{"type":"Hexagon","value":{}}"#,
    r#"unknown subtype tag "Hexagon", expected one of "Circle", "Point", "square", "sq"; to read a type under this tag, put `#[json_subtypes(name = "Hexagon")]` on its `impl Figure`, or read it with a `Profile` that registers it at line 1 column 17"#
)]
#[case::missing_tag(r#"{"value":{"r":1.0}}"#, "missing field `type` at line 1 column 19")]
#[case::empty("{}", "missing field `type` at line 1 column 2")]
#[case::tag_twice(
    r#"{"type":"Circle","type":"Circle","value":{"r":1.0}}"#,
    "duplicate field `type` at line 1 column 23"
)]
#[case::tag_twice_after_content(
    r#"{"type":"Circle","value":{"r":1.0},"type":"Circle"}"#,
    "duplicate field `type` at line 1 column 41"
)]
#[case::content_twice(
    r#"{"value":{"r":1.0},"value":{"r":1.0},"type":"Circle"}"#,
    "duplicate field `value` at line 1 column 26"
)]
#[case::content_twice_after_tag(
    r#"{"type":"Circle","value":{"r":1.0},"value":{"r":1.0}}"#,
    "duplicate field `value` at line 1 column 42"
)]
#[case::tag_of_wrong_kind(
    r#"{"type":3,"value":{}}"#,
    r#"invalid type: integer `3`, expected a subtype tag in `type`, one of "Circle", "Point", "square", "sq" at line 1 column 9"#
)]
#[case::body_error_tag_first(
    r#"{"type":"Circle","value":{"r":"one"}}"#,
    r#"invalid type: string "one", expected f64 at line 1 column 35"#
)]
#[case::body_error_content_first(
    r#"{"value":{"r":"one"},"type":"Circle"}"#,
    r#"invalid type: string "one", expected f64 at line 1 column 37"#
)]
#[case::not_a_map(
    "[]",
    r#"invalid length 0, expected a map with the subtype tag of dyn Figure in `type` and its content in `value` at line 1 column 2"#
)]
#[case::missing_content_of_a_struct(
    r#"{"type":"Circle"}"#,
    "invalid type: null, expected struct Circle at line 1 column 17"
)]
fn adjacent_errors(#[case] text: &str, #[case] message: &str) {
    let err = serde_json::from_str::<Box<dyn Figure>>(text).unwrap_err();
    assert_eq!(err.to_string(), message);
}

#[rstest]
#[case::tag_first(r#"{"op":1,"args":{"r":1.0}}"#, "Circle { r: 1.0 }")]
#[case::content_first(r#"{"args":{"side":2.0},"op":2}"#, "Square { side: 2.0 }")]
fn adjacent_integer_tags(#[case] text: &str, #[case] value: &str) {
    let read: Box<dyn Command> = serde_json::from_str(text).unwrap();
    assert_eq!(shown(&read), value);
    let written = serde_json::to_string(&read).unwrap();
    assert!(written.starts_with(r#"{"op":"#), "{written}");
    let back: Box<dyn Command> = serde_json::from_str(&written).unwrap();
    assert_eq!(shown(&back), value);
}

#[rstest]
#[case::before_the_tag(
    r#"{"unknown":1,"op":1,"args":{"r":1.0}}"#,
    "unknown field `unknown`, expected `op` or `args` at line 1 column 10"
)]
#[case::after_the_content(
    r#"{"op":1,"args":{"r":1.0},"unknown":1}"#,
    "unknown field `unknown`, expected `op` or `args` at line 1 column 34"
)]
fn adjacent_deny_unknown_fields(#[case] text: &str, #[case] message: &str) {
    let err = serde_json::from_str::<Box<dyn Command>>(text).unwrap_err();
    assert_eq!(err.to_string(), message);
}

#[rstest]
#[case::unknown_tag_first(r#"{"type":"Hexagon","value":{"sides":6},"id":18446744073709551615}"#)]
#[case::unknown_tag_last(r#"{"id":-1,"value":{"sides":6},"type":"Hexagon"}"#)]
#[case::unknown_tag_between(r#"{"value":[1,2],"type":"Hexagon","id":"x"}"#)]
#[case::missing_tag(r#"{"value":{"sides":6},"id":1}"#)]
#[case::empty("{}")]
fn adjacent_fallback_keeps_every_byte(#[case] text: &str) {
    let read: Box<dyn Message> = serde_json::from_str(text).unwrap();
    assert!(shown(&read).starts_with("Other("), "{read:?}");
    assert_eq!(serde_json::to_string(&read).unwrap(), text);
}

#[test]
fn adjacent_fallback_knows_its_tag() {
    let read: Box<dyn Message> =
        serde_json::from_str(r#"{"value":{"sides":6},"type":"Hexagon"}"#).unwrap();
    let json = serde_json::to_value(&read).unwrap();
    assert_eq!(json["type"], "Hexagon");
    // Known tags never reach the fallback, wherever the content comes.
    let read: Box<dyn Message> =
        serde_json::from_str(r#"{"value":{"side":1.0},"id":3,"type":"sq"}"#).unwrap();
    assert_eq!(shown(&read), "Square { side: 1.0 }");
}

// Profiles.

fn external_profile() -> Profile<dyn Shape> {
    Profile::<dyn Shape>::builder()
        .external()
        .subtype::<Circle>("circle")
        .subtype::<Square>("square")
        .build()
        .unwrap()
}

fn adjacent_profile() -> Profile<dyn Shape> {
    Profile::<dyn Shape>::builder()
        .tag("kind")
        .content("data")
        .subtype::<Circle>("circle")
        .subtype::<Square>("square")
        .build()
        .unwrap()
}

#[rstest]
#[case::external(external_profile(), r#"{"circle":{"r":1.0}}"#)]
#[case::adjacent(adjacent_profile(), r#"{"kind":"circle","data":{"r":1.0}}"#)]
fn profiles_read_and_write_their_form(#[case] profile: Profile<dyn Shape>, #[case] text: &str) {
    let read = profile.from_str(text).unwrap();
    assert_eq!(shown(&read), "Circle { r: 1.0 }");
    assert_eq!(profile.to_string(&*read).unwrap(), text);
    // Inside derived types, through a scope.
    let list = format!("[{text},{text}]");
    let read: Vec<Box<dyn Shape>> = profile.scope(|| serde_json::from_str(&list)).unwrap();
    assert_eq!(read.len(), 2);
    assert_eq!(
        profile.scope(|| serde_json::to_string(&read)).unwrap(),
        list
    );
}

#[test]
fn adjacent_profile_with_the_tag_last() {
    let profile = Profile::<dyn Shape>::builder()
        .tag("kind")
        .content("data")
        .subtype::<Circle>("circle")
        .tag_position(TagPosition::Last)
        .build()
        .unwrap();
    let text = r#"{"data":{"r":1.0},"kind":"circle"}"#;
    let read = profile.from_str(text).unwrap();
    assert_eq!(profile.to_string(&*read).unwrap(), text);
}

#[test]
fn profiles_of_one_trait_in_every_form_never_mix() {
    let external = external_profile();
    let adjacent = adjacent_profile();
    let circle = Circle { r: 1.0 };
    assert_eq!(
        external.to_string(&circle).unwrap(),
        r#"{"circle":{"r":1.0}}"#
    );
    assert_eq!(
        adjacent.to_string(&circle).unwrap(),
        r#"{"kind":"circle","data":{"r":1.0}}"#
    );
    assert_eq!(
        serde_json::to_string(&circle as &dyn Shape).unwrap(),
        r#"{"Circle":{"r":1.0}}"#
    );
    assert!(external
        .from_str(r#"{"kind":"circle","data":{"r":1.0}}"#)
        .is_err());
    assert!(adjacent.from_str(r#"{"circle":{"r":1.0}}"#).is_err());
}

#[test]
fn builder_from_registry_keeps_the_form() {
    let external = Profile::<dyn Plugin>::builder_from_registry()
        .build()
        .unwrap();
    let read = external.from_str(r#"{"sq":{"side":1.0}}"#).unwrap();
    assert_eq!(
        external.to_string(&*read).unwrap(),
        r#"{"square":{"side":1.0}}"#
    );
    let adjacent = Profile::<dyn Command>::builder_from_registry()
        .build()
        .unwrap();
    let err = adjacent
        .from_str(r#"{"op":1,"args":{"r":1.0},"x":0}"#)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "unknown field `x`, expected `op` or `args` at line 1 column 28"
    );
    // Switched to the internal form with a tag key.
    let internal = Profile::<dyn Plugin>::builder_from_registry()
        .tag("type")
        .build()
        .unwrap();
    assert_eq!(
        internal.to_string(&Circle { r: 1.0 }).unwrap(),
        r#"{"type":"Circle","r":1.0}"#
    );
}

#[rstest]
#[case::content_without_tag(
    Profile::<dyn Shape>::builder().content("data").subtype::<Circle>("c").build(),
    "cannot build the profile:\n- content(\"data\"): the content key sits beside a tag key; call `.tag(\"...\")`\n- subtype::<Circle>(\"c\"): a tag value needs a tag key; call `.tag(\"...\")`"
)]
#[case::empty_content(
    Profile::<dyn Shape>::builder().tag("kind").content("").subtype::<Circle>("c").build(),
    "cannot build the profile: content(\"\"): the content key cannot be empty"
)]
#[case::deny_without_content(
    Profile::<dyn Shape>::builder().tag("kind").deny_unknown_fields(true).subtype::<Circle>("c").build(),
    "cannot build the profile: deny_unknown_fields(true): it refuses keys beside the tag and content keys; call `.content(\"...\")`, or put `#[serde(deny_unknown_fields)]` on the payloads"
)]
#[case::external_tag_last(
    Profile::<dyn Shape>::builder().external().subtype::<Circle>("c").tag_position(TagPosition::Last).build(),
    "cannot build the profile: tag_position(Last) with external(): an externally tagged value's tag is its one key; remove `tag_position`"
)]
#[case::adjacent_tag_omitted(
    Profile::<dyn Shape>::builder().tag("kind").content("data").subtype::<Circle>("c").tag_position(TagPosition::Omit).build(),
    "cannot build the profile: tag_position(Omit) with content(\"data\"): the adjacently tagged form writes its tag beside the content; use TagPosition::First or Last"
)]
#[case::external_when_field(
    Profile::<dyn Shape>::builder().external().when_field::<Circle>("r").build(),
    "cannot build the profile: when_field::<Circle>(\"r\"): only the internally tagged form picks subtypes by their fields, and this profile is externally tagged; use `subtype`"
)]
#[case::external_mixed_kinds(
    Profile::<dyn Shape>::builder().external().subtype::<Circle>("c").subtype::<Square>(2).build(),
    "cannot build the profile: external() with tags of several kinds: an externally tagged value's tag is a map key, and JSON writes every key as a string, so an integer or bool tag could not be told from a string; give every subtype a tag of one kind"
)]
#[case::adjacent_visible(
    Profile::<dyn Shape>::builder().tag("kind").content("data").visible(true).subtype::<Circle>("c").build(),
    "cannot build the profile: visible(true): the adjacently tagged form writes the tag apart from the payload, so no payload field receives it; remove it"
)]
fn build_refuses_what_the_form_cannot_honour(
    #[case] built: Result<Profile<dyn Shape>, json_subtypes::BuildError>,
    #[case] message: &str,
) {
    assert_eq!(built.unwrap_err().to_string(), message);
}

#[test]
fn the_last_form_called_wins() {
    let profile = Profile::<dyn Shape>::builder()
        .tag("kind")
        .content("data")
        .external()
        .subtype::<Circle>("c")
        .build()
        .unwrap();
    assert_eq!(
        profile.to_string(&Circle { r: 1.0 }).unwrap(),
        r#"{"c":{"r":1.0}}"#
    );
    let profile = Profile::<dyn Shape>::builder()
        .external()
        .tag("kind")
        .subtype::<Circle>("c")
        .build()
        .unwrap();
    assert_eq!(
        profile.to_string(&Circle { r: 1.0 }).unwrap(),
        r#"{"kind":"c","r":1.0}"#
    );
}

// Limits.

#[rstest]
#[case::content_within(r#"{"args":{"r":1.0},"op":1}"#, Ok("Circle { r: 1.0 }"))]
#[case::content_over(
    r#"{"args":{"r":1.0,"a":"x","b":"x","c":"x","d":"x","e":"x","f":"x","g":"x"},"op":1}"#,
    Err("more than 64 bytes buffered before the tag `op` of profile of dyn Command (max_buffer = 64) at line 1 column 28")
)]
#[case::tag_first_is_never_limited(
    r#"{"op":2,"args":{"side":2.0,"pad":"0123456789012345678901234567890123456789"}}"#,
    Ok("Square { side: 2.0 }")
)]
fn adjacent_content_first_is_buffered_within_max_buffer(
    #[case] text: &str,
    #[case] expected: Result<&str, &str>,
) {
    // 64 bytes: with serde_json's `arbitrary_precision` a number is
    // recorded as a map under its private key, so the content of the first
    // case takes more than 32 there; a borrowed string costs the same
    // whatever its length, so the second case adds entries.
    let profile = Profile::<dyn Command>::builder_from_registry()
        .max_buffer(64)
        .build()
        .unwrap();
    let read = profile.from_str(text);
    let read = read.as_ref().map(shown).map_err(ToString::to_string);
    assert_eq!(read.as_deref().map_err(|e| e.as_str()), expected);
}

#[test]
fn adjacent_require_tag_first() {
    let profile = Profile::<dyn Command>::builder_from_registry()
        .require_tag_first(true)
        .build()
        .unwrap();
    assert!(profile.from_str(r#"{"op":1,"args":{"r":1.0}}"#).is_ok());
    let err = profile
        .from_str(r#"{"args":{"r":1.0},"op":1}"#)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "the tag `op` of profile of dyn Command must be the first key (require_tag_first), found `args` at line 1 column 7"
    );
}

// Formats that do not describe themselves.

#[rstest]
#[case::circle(Box::new(Circle { r: 1.5 }))]
#[case::square(Box::new(Square { side: 2.0 }))]
#[case::unit(Box::new(Point))]
fn binary_formats_round_trip_external(#[case] value: Box<dyn Shape>) {
    let bytes = postcard::to_allocvec(&value).unwrap();
    let back: Box<dyn Shape> = postcard::from_bytes(&bytes).unwrap();
    assert_eq!(shown(&back), shown(&value));
    let bytes = bincode::serialize(&value).unwrap();
    let back: Box<dyn Shape> = bincode::deserialize(&bytes).unwrap();
    assert_eq!(shown(&back), shown(&value));
}

#[rstest]
#[case::circle(Box::new(Circle { r: 1.5 }))]
#[case::square(Box::new(Square { side: 2.0 }))]
#[case::unit(Box::new(Point))]
fn binary_formats_round_trip_adjacent(#[case] value: Box<dyn Figure>) {
    let bytes = postcard::to_allocvec(&value).unwrap();
    let back: Box<dyn Figure> = postcard::from_bytes(&bytes).unwrap();
    assert_eq!(shown(&back), shown(&value));
    let bytes = bincode::serialize(&value).unwrap();
    let back: Box<dyn Figure> = bincode::deserialize(&bytes).unwrap();
    assert_eq!(shown(&back), shown(&value));
}

#[test]
fn binary_formats_round_trip_integer_tags() {
    let value: Box<dyn Command> = Box::new(Square { side: 2.0 });
    let bytes = postcard::to_allocvec(&value).unwrap();
    let back: Box<dyn Command> = postcard::from_bytes(&bytes).unwrap();
    assert_eq!(shown(&back), shown(&value));
    let value: Box<dyn Code> = Box::new(Square { side: 2.0 });
    let bytes = bincode::serialize(&value).unwrap();
    let back: Box<dyn Code> = bincode::deserialize(&bytes).unwrap();
    assert_eq!(shown(&back), shown(&value));
}

#[test]
fn binary_formats_round_trip_profiles() {
    for profile in [external_profile(), adjacent_profile()] {
        let value = Circle { r: 1.5 };
        let bytes = postcard::to_allocvec(&profile.serializable(&value)).unwrap();
        let back = profile
            .deserialize(&mut postcard::Deserializer::from_bytes(&bytes))
            .unwrap();
        assert_eq!(shown(&back), shown(&value));
    }
}

#[test]
fn binary_unknown_tag_is_an_error() {
    // postcard keeps no message of its own errors; bincode does.
    let bytes = postcard::to_allocvec(&("Hexagon", 6u8)).unwrap();
    assert!(postcard::from_bytes::<Box<dyn Message>>(&bytes).is_err());
    let bytes = bincode::serialize(&("Hexagon", 6u8)).unwrap();
    let err = bincode::deserialize::<Box<dyn Message>>(&bytes).unwrap_err();
    assert_eq!(
        err.to_string(),
        "unknown subtype tag \"Hexagon\", expected one of \"Batch\", \"Circle\", \"Point\", \"square\", \"sq\"; to read a type under this tag, put `#[json_subtypes(name = \"Hexagon\")]` on its `impl Message`, or read it with a `Profile` that registers it"
    );
}

#[test]
fn other_self_describing_formats() {
    let value: Box<dyn Figure> = Box::new(Circle { r: 1.5 });
    let bytes = rmp_serde::to_vec_named(&value).unwrap();
    let back: Box<dyn Figure> = rmp_serde::from_slice(&bytes).unwrap();
    assert_eq!(shown(&back), shown(&value));
    let mut bytes = Vec::new();
    ciborium::into_writer(&value, &mut bytes).unwrap();
    let back: Box<dyn Figure> = ciborium::from_reader(&bytes[..]).unwrap();
    assert_eq!(shown(&back), shown(&value));
    let value: Box<dyn Shape> = Box::new(Circle { r: 1.5 });
    let mut bytes = Vec::new();
    ciborium::into_writer(&value, &mut bytes).unwrap();
    let back: Box<dyn Shape> = ciborium::from_reader(&bytes[..]).unwrap();
    assert_eq!(shown(&back), shown(&value));
}

/// A subtype holding subtypes: nesting beyond `max_depth` is an error,
/// never a stack overflow, in both forms.
#[derive(Debug, Serialize, Deserialize)]
struct Group {
    items: Vec<Box<dyn Plugin>>,
}

#[json_subtypes]
impl Plugin for Group {}

#[derive(Debug, Serialize, Deserialize)]
struct Batch {
    items: Vec<Box<dyn Message>>,
}

#[json_subtypes]
impl Message for Batch {}

#[rstest]
#[case::external(r#"{"Group":{"items":["#, "]}}")]
#[case::adjacent(r#"{"type":"Batch","value":{"items":["#, "]}}")]
fn hostile_nesting_is_refused(#[case] open: &str, #[case] close: &str) {
    let depth = 200;
    let text = format!("{}{}", open.repeat(depth), close.repeat(depth));
    let message = match open.starts_with(r#"{"Group""#) {
        true => serde_json::from_str::<Box<dyn Plugin>>(&text).unwrap_err(),
        false => serde_json::from_str::<Box<dyn Message>>(&text).unwrap_err(),
    }
    .to_string();
    assert!(message.starts_with("recursion limit exceeded"), "{message}");
    // Within the limit it reads and writes back.
    let text = format!("{}{}", open.repeat(3), close.repeat(3));
    let written = match open.starts_with(r#"{"Group""#) {
        true => serde_json::to_string(&serde_json::from_str::<Box<dyn Plugin>>(&text).unwrap()),
        false => serde_json::to_string(&serde_json::from_str::<Box<dyn Message>>(&text).unwrap()),
    };
    assert_eq!(written.unwrap(), text);
}

/// `Tagged`: one subtype written and read alone as its trait's form.
#[rstest]
#[case::external(r#"{"Circle":{"r":1.0}}"#)]
#[case::adjacent(r#"{"type":"Circle","value":{"r":1.0}}"#)]
fn tagged_writes_the_traits_form(#[case] text: &str) {
    use json_subtypes::Tagged;
    let written = match text.starts_with(r#"{"Circle""#) {
        true => {
            let read: Tagged<Circle, dyn Shape> = serde_json::from_str(text).unwrap();
            assert_eq!(read.0, Circle { r: 1.0 });
            serde_json::to_string(&read).unwrap()
        }
        false => {
            let read: Tagged<Circle, dyn Figure> = serde_json::from_str(text).unwrap();
            assert_eq!(read.0, Circle { r: 1.0 });
            serde_json::to_string(&read).unwrap()
        }
    };
    assert_eq!(written, text);
}

// Self-describing formats besides JSON.

/// Writes `value` in `format` and reads it back as `T`.
fn through<T: serde::Serialize + serde::de::DeserializeOwned>(format: &str, value: &T) -> T {
    match format {
        "yaml" => serde_norway::from_str(&serde_norway::to_string(value).unwrap()).unwrap(),
        "ron" => ron::from_str(&ron::to_string(value).unwrap()).unwrap(),
        "cbor" => {
            let mut bytes = Vec::new();
            ciborium::into_writer(value, &mut bytes).unwrap();
            ciborium::from_reader(&bytes[..]).unwrap()
        }
        "msgpack" => rmp_serde::from_slice(&rmp_serde::to_vec(value).unwrap()).unwrap(),
        "msgpack_named" => rmp_serde::from_slice(&rmp_serde::to_vec_named(value).unwrap()).unwrap(),
        other => panic!("no format {other}"),
    }
}

#[rstest]
fn self_describing_formats_round_trip_both_forms(
    #[values("yaml", "ron", "cbor", "msgpack", "msgpack_named")] format: &str,
) {
    let shapes: Vec<Box<dyn Shape>> = vec![
        Box::new(Circle { r: 1.5 }),
        Box::new(Square { side: 2.0 }),
        Box::new(Point),
    ];
    for value in shapes {
        assert_eq!(shown(&through(format, &value)), shown(&value), "{format}");
    }
    let figures: Vec<Box<dyn Figure>> = vec![
        Box::new(Circle { r: 1.5 }),
        Box::new(Square { side: 2.0 }),
        Box::new(Point),
    ];
    for value in figures {
        assert_eq!(shown(&through(format, &value)), shown(&value), "{format}");
    }
}

/// `value` written as TOML and read back.
fn through_toml<T: serde::Serialize + serde::de::DeserializeOwned>(value: &T) -> Result<T, String> {
    let text = toml::to_string(value).map_err(|e| format!("write: {e}"))?;
    toml::from_str(&text).map_err(|e| format!("read: {e}"))
}

/// TOML holds a document as a table and has no `null`: both forms round-trip
/// wherever the payload is a table, and a unit struct's content (`null`) is
/// TOML's own error when written.
#[test]
fn toml_round_trips_both_forms_where_the_shape_fits() {
    let shapes: Vec<Box<dyn Shape>> =
        vec![Box::new(Circle { r: 1.5 }), Box::new(Square { side: 2.0 })];
    for value in shapes {
        assert_eq!(shown(&through_toml(&value).unwrap()), shown(&value));
    }
    let figures: Vec<Box<dyn Figure>> =
        vec![Box::new(Circle { r: 1.5 }), Box::new(Square { side: 2.0 })];
    for value in figures {
        assert_eq!(shown(&through_toml(&value).unwrap()), shown(&value));
    }
    let circle: Box<dyn Figure> = Box::new(Circle { r: 1.5 });
    assert_eq!(
        toml::to_string(&circle).unwrap(),
        "type = \"Circle\"\n\n[value]\nr = 1.5\n"
    );
    let point: Box<dyn Shape> = Box::new(Point);
    assert_eq!(
        through_toml(&point).unwrap_err(),
        "write: unsupported Point type"
    );
    let point: Box<dyn Figure> = Box::new(Point);
    assert_eq!(
        through_toml(&point).unwrap_err(),
        "write: unsupported Point type"
    );
}
