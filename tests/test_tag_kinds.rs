//! Tag kinds: string, integer (i64 and u64 ranges) and bool literals mixed in
//! one enum, and typed tags read and written through the tag type's own
//! serde impls (`tag_type`).

use json_subtypes::json_subtypes;
use rstest::rstest;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Body {
    n: i32,
}

#[json_subtypes(tag = "type")]
#[derive(Debug, Clone, PartialEq)]
enum Mixed {
    #[json_subtypes(name = "dog")]
    Str(Body),
    #[json_subtypes(name = 3)]
    Three(Body),
    #[json_subtypes(name = "3")]
    ThreeText(Body),
    #[json_subtypes(name = -7)]
    Negative(Body),
    #[json_subtypes(name = true)]
    Yes(Body),
    #[json_subtypes(name = false)]
    No,
    #[json_subtypes(name = 18446744073709551615)]
    MaxU64(Body),
    #[json_subtypes(name = -9223372036854775808)]
    MinI64(Body),
    #[json_subtypes(name = 0, alias = 100, alias = "zero")]
    Zero(Body),
}

const EXPECTED: &str = r#"expected one of "dog", 3, "3", -7, true, false, 18446744073709551615, -9223372036854775808, 0, 100, "zero""#;

const BEYOND_U64: &str = if cfg!(feature = "arbitrary_precision") {
    "18446744073709551616"
} else {
    "1.8446744073709552e19"
};
const BEYOND_I64: &str = if cfg!(feature = "arbitrary_precision") {
    "-9223372036854775809"
} else {
    "-9.223372036854776e18"
};

fn at(tag: &str, position: &str) -> String {
    match position {
        "first" => format!(r#"{{"type":{tag},"n":1,"x":null}}"#),
        "middle" => format!(r#"{{"n":1,"type":{tag},"x":null}}"#),
        _ => format!(r#"{{"n":1,"x":null,"type":{tag}}}"#),
    }
}

#[rstest]
#[case::string(r#""dog""#, Mixed::Str(Body { n: 1 }))]
#[case::int(r#"3"#, Mixed::Three(Body { n: 1 }))]
#[case::int_text(r#""3""#, Mixed::ThreeText(Body { n: 1 }))]
#[case::negative(r#"-7"#, Mixed::Negative(Body { n: 1 }))]
#[case::bool_true(r#"true"#, Mixed::Yes(Body { n: 1 }))]
#[case::bool_false(r#"false"#, Mixed::No)]
#[case::max_u64(r#"18446744073709551615"#, Mixed::MaxU64(Body { n: 1 }))]
#[case::min_i64(r#"-9223372036854775808"#, Mixed::MinI64(Body { n: 1 }))]
#[case::zero(r#"0"#, Mixed::Zero(Body { n: 1 }))]
#[case::int_alias(r#"100"#, Mixed::Zero(Body { n: 1 }))]
#[case::string_alias(r#""zero""#, Mixed::Zero(Body { n: 1 }))]
fn reads_every_kind_in_every_position(
    #[case] tag: &str,
    #[case] expected: Mixed,
    #[values("first", "middle", "last")] position: &str,
) {
    let got: Mixed = serde_json::from_str(&at(tag, position)).unwrap();
    assert_eq!(got, expected);
}

#[rstest]
#[case::float_one("1.0", "1.0")]
#[case::exponent("3e0", "3.0")]
#[case::float_three("3.0", "3.0")]
#[case::text_for_int(r#""-7""#, r#""-7""#)]
#[case::int_for_text("4", "4")]
#[case::text_true(r#""true""#, r#""true""#)]
// serde_json hands integers beyond 64 bits over as f64, or exactly with its
// `arbitrary_precision` feature; either way they never match or wrap.
#[case::beyond_u64("18446744073709551616", BEYOND_U64)]
#[case::beyond_i64("-9223372036854775809", BEYOND_I64)]
#[case::negative_zero_float("-0.0", "-0.0")]
#[case::other_int("-8", "-8")]
fn never_confuses_kinds(
    #[case] tag: &str,
    #[case] shown: &str,
    #[values("first", "middle", "last")] position: &str,
) {
    let err = serde_json::from_str::<Mixed>(&at(tag, position)).unwrap_err();
    let message = err.to_string();
    let expected = format!("unknown subtype tag {shown}, {EXPECTED} at line 1 column");
    assert!(message.starts_with(&expected), "{message}\n{expected}");
}

#[rstest]
#[case::null("null", "null")]
#[case::object(r#"{"a":3}"#, "map")]
#[case::array("[3]", "sequence")]
fn wrong_kind_is_an_invalid_type(#[case] tag: &str, #[case] what: &str) {
    let err = serde_json::from_str::<Mixed>(&at(tag, "first")).unwrap_err();
    let message = err.to_string();
    let expected = format!(
        "invalid type: {what}, expected a subtype tag in `type`, one of {}",
        &EXPECTED["expected one of ".len()..]
    );
    assert!(message.starts_with(&expected), "{message}");
}

#[rstest]
#[case::string(Mixed::Str(Body { n: 2 }), r#"{"type":"dog","n":2}"#)]
#[case::int(Mixed::Three(Body { n: 2 }), r#"{"type":3,"n":2}"#)]
#[case::int_text(Mixed::ThreeText(Body { n: 2 }), r#"{"type":"3","n":2}"#)]
#[case::negative(Mixed::Negative(Body { n: 2 }), r#"{"type":-7,"n":2}"#)]
#[case::bool_true(Mixed::Yes(Body { n: 2 }), r#"{"type":true,"n":2}"#)]
#[case::unit(Mixed::No, r#"{"type":false}"#)]
#[case::max_u64(Mixed::MaxU64(Body { n: 2 }), r#"{"type":18446744073709551615,"n":2}"#)]
#[case::min_i64(Mixed::MinI64(Body { n: 2 }), r#"{"type":-9223372036854775808,"n":2}"#)]
#[case::primary_not_alias(Mixed::Zero(Body { n: 2 }), r#"{"type":0,"n":2}"#)]
fn writes_and_round_trips_every_kind(#[case] value: Mixed, #[case] text: &str) {
    assert_eq!(serde_json::to_string(&value).unwrap(), text);
    assert_eq!(serde_json::from_str::<Mixed>(text).unwrap(), value);
    let json = serde_json::to_value(&value).unwrap();
    assert_eq!(serde_json::from_value::<Mixed>(json).unwrap(), value);
}

#[rstest]
#[case::int_twice(r#"{"type":3,"type":3}"#)]
#[case::int_then_text(r#"{"n":1,"type":3,"type":"3"}"#)]
#[case::bool_twice(r#"{"type":true,"n":1,"type":false}"#)]
fn duplicate_tags_of_every_kind(#[case] text: &str) {
    let err = serde_json::from_str::<Mixed>(text).unwrap_err();
    assert!(
        err.to_string().starts_with("duplicate field `type`"),
        "{err}"
    );
}

// ---------------------------------------------------------------------------
// tag_type: the tag's own Serialize/Deserialize is the converter.

/// A fieldless enum with serde renames.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
enum Species {
    GoldenRetriever,
    #[serde(alias = "TABBY")]
    HouseCat,
}

#[json_subtypes(tag = "species", tag_type = Species)]
#[derive(Debug, Clone, PartialEq)]
enum Pet {
    #[json_subtypes(name = Species::GoldenRetriever)]
    Dog(Body),
    #[json_subtypes(name = Species::HouseCat)]
    Cat { lives: u8 },
}

#[rstest]
#[case::first(r#"{"species":"GOLDEN_RETRIEVER","n":4}"#, Pet::Dog(Body { n: 4 }))]
#[case::last(r#"{"n":4,"species":"GOLDEN_RETRIEVER"}"#, Pet::Dog(Body { n: 4 }))]
#[case::type_alias(r#"{"lives":9,"species":"TABBY"}"#, Pet::Cat { lives: 9 })]
fn typed_enum_tags(#[case] text: &str, #[case] expected: Pet) {
    assert_eq!(serde_json::from_str::<Pet>(text).unwrap(), expected);
}

#[test]
fn typed_enum_tags_write_through_the_type() {
    assert_eq!(
        serde_json::to_string(&Pet::Cat { lives: 9 }).unwrap(),
        r#"{"species":"HOUSE_CAT","lives":9}"#
    );
    let err = serde_json::from_str::<Pet>(r#"{"species":"PARROT"}"#).unwrap_err();
    assert_eq!(
        err.to_string(),
        "unknown variant `PARROT`, expected one of `GOLDEN_RETRIEVER`, `HOUSE_CAT`, `TABBY` at line 1 column 19"
    );
}

/// An integer enum through serde_repr.
#[derive(
    Debug, Clone, Copy, PartialEq, serde_repr::Serialize_repr, serde_repr::Deserialize_repr,
)]
#[repr(u8)]
enum Code {
    Ok = 1,
    Retry = 2,
    Fail = 9,
}

#[json_subtypes(tag = "code", tag_type = Code)]
#[derive(Debug, Clone, PartialEq)]
enum Reply {
    #[json_subtypes(name = Code::Ok)]
    Ok(Body),
    #[json_subtypes(name = Code::Retry)]
    Retry { after_ms: u32 },
}

#[test]
fn serde_repr_tags() {
    assert_eq!(
        serde_json::to_string(&Reply::Retry { after_ms: 10 }).unwrap(),
        r#"{"code":2,"after_ms":10}"#
    );
    assert_eq!(
        serde_json::from_str::<Reply>(r#"{"after_ms":10,"code":2}"#).unwrap(),
        Reply::Retry { after_ms: 10 }
    );
    assert_eq!(
        serde_json::from_str::<Reply>(r#"{"code":1,"n":0}"#).unwrap(),
        Reply::Ok(Body { n: 0 })
    );
    // A value of the type that no variant claims.
    let err = serde_json::from_str::<Reply>(r#"{"code":9}"#).unwrap_err();
    assert_eq!(
        err.to_string(),
        "unknown subtype tag 9, expected one of 1, 2 at line 1 column 10"
    );
    let _ = Code::Fail;
}

/// A hand-written converter: writes upper case, reads case-insensitively.
#[derive(Debug, Clone, PartialEq)]
struct Shout(&'static str);

impl Shout {
    const CIRCLE: Shout = Shout("circle");
    const SQUARE: Shout = Shout("square");
}

impl Serialize for Shout {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0.to_uppercase())
    }
}

impl<'de> Deserialize<'de> for Shout {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?.to_lowercase();
        [Shout::CIRCLE, Shout::SQUARE]
            .into_iter()
            .find(|s| s.0 == text)
            .ok_or_else(|| serde::de::Error::custom(format!("no shape called {text:?}")))
    }
}

#[json_subtypes(tag = "shape", tag_type = Shout)]
#[derive(Debug, Clone, PartialEq)]
enum Shape {
    #[json_subtypes(name = Shout::CIRCLE)]
    Circle { r: f64 },
    #[json_subtypes(name = Shout::SQUARE)]
    Square { side: f64 },
}

#[rstest]
#[case(r#"{"shape":"circle","r":1.0}"#)]
#[case(r#"{"shape":"CIRCLE","r":1.0}"#)]
#[case(r#"{"r":1.0,"shape":"CiRcLe"}"#)]
fn custom_converter_reads_case_insensitively(#[case] text: &str) {
    let shape: Shape = serde_json::from_str(text).unwrap();
    assert_eq!(shape, Shape::Circle { r: 1.0 });
    assert_eq!(
        serde_json::to_string(&shape).unwrap(),
        r#"{"shape":"CIRCLE","r":1.0}"#
    );
}

#[test]
fn custom_converter_errors_are_its_own() {
    let err = serde_json::from_str::<Shape>(r#"{"side":1,"shape":"hexagon"}"#).unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"no shape called "hexagon" at line 1 column 28"#
    );
    let err = serde_json::from_str::<Shape>(r#"{"shape":"square","shape":"square"}"#).unwrap_err();
    assert_eq!(
        err.to_string(),
        "duplicate field `shape` at line 1 column 25"
    );
}

// ---------------------------------------------------------------------------
// More than 16 string tags: `__lookup` matches the length, then the tag's
// bytes as u64 chunks (`__private::str_chunk`). Chunk edges (8, 9, 16, 17
// bytes), shared prefixes, non-ASCII, a NUL byte, the empty tag, and int and
// bool tags in the same enum.

/// A nested child: a string its parent does not own is offered to it.
#[json_subtypes(tag = "type")]
#[derive(Debug, Clone, PartialEq)]
enum Inner {
    #[json_subtypes(name = "inner")]
    In(Body),
    #[json_subtypes(name = "kind_000_kind_02")]
    Deep(Body),
}

macro_rules! many {
    ($name:ident { $($extra:tt)* }) => {
        #[json_subtypes(tag = "type")]
        #[derive(Debug, Clone, PartialEq)]
        enum $name {
            #[json_subtypes(name = "")]
            Empty(Body),
            #[json_subtypes(name = "a")]
            A(Body),
            #[json_subtypes(name = "ab")]
            Ab(Body),
            #[json_subtypes(name = "a\0")]
            ANul(Body),
            #[json_subtypes(name = "dog")]
            Dog(Body),
            #[json_subtypes(name = "dot")]
            Dot(Body),
            #[json_subtypes(name = "猫")]
            Cat(Body),
            #[json_subtypes(name = "größe")]
            Size(Body),
            #[json_subtypes(name = "kind_000")]
            K8a(Body),
            #[json_subtypes(name = "kind_001")]
            K8b(Body),
            #[json_subtypes(name = "kind_0001")]
            K9a(Body),
            #[json_subtypes(name = "kind_0002")]
            K9b(Body),
            #[json_subtypes(name = "kind_000_kind_00")]
            K16a(Body),
            #[json_subtypes(name = "kind_000_kind_01")]
            K16b(Body),
            #[json_subtypes(name = "kind_000_kind_000")]
            K17a(Body),
            #[json_subtypes(name = "kind_000_kind_001")]
            K17b(Body),
            #[json_subtypes(name = "abcdefghijklmnopqrstuvwx")]
            K24(Body),
            #[json_subtypes(name = "crab 🦀 über")]
            Crab(Body),
            #[json_subtypes(name = "same_prefix_long_tag_one")]
            PrefixOne(Body),
            #[json_subtypes(name = "same_prefix_long_tag_two")]
            PrefixTwo(Body),
            #[json_subtypes(name = "primary", alias = "alias_one", alias = 7)]
            Aliased(Body),
            #[json_subtypes(name = true)]
            Yes(Body),
            #[json_subtypes(nested)]
            Nested(Inner),
            $($extra)*
        }
    };
}

many!(Many {});
many!(ManyOpen {
    #[json_subtypes(fallback)]
    Other(json_subtypes::Unknown),
});

const MANY_EXPECTED: &str = r#"expected one of "", "a", "ab", "a\0", "dog", "dot", "猫", "größe", "kind_000", "kind_001", "kind_0001", "kind_0002", "kind_000_kind_00", "kind_000_kind_01", "kind_000_kind_000", "kind_000_kind_001", "abcdefghijklmnopqrstuvwx", "crab 🦀 über", "same_prefix_long_tag_one", "same_prefix_long_tag_two", "primary", "alias_one", 7, true, "inner", "kind_000_kind_02""#;

/// `Many::X(Body { n })` and the same variant of `ManyOpen`.
macro_rules! both {
    ($variant:ident, $n:expr) => {
        (
            Many::$variant(Body { n: $n }),
            ManyOpen::$variant(Body { n: $n }),
        )
    };
}

fn nested(n: i32, deep: bool) -> (Many, ManyOpen) {
    let inner = if deep {
        Inner::Deep(Body { n })
    } else {
        Inner::In(Body { n })
    };
    (Many::Nested(inner.clone()), ManyOpen::Nested(inner))
}

#[rstest]
#[case::empty(r#""""#, both!(Empty, 1))]
#[case::one_byte(r#""a""#, both!(A, 1))]
#[case::two_bytes(r#""ab""#, both!(Ab, 1))]
#[case::nul_byte(r#""a\u0000""#, both!(ANul, 1))]
#[case::three_bytes(r#""dog""#, both!(Dog, 1))]
#[case::shared_prefix(r#""dot""#, both!(Dot, 1))]
#[case::non_ascii_three_bytes(r#""猫""#, both!(Cat, 1))]
#[case::non_ascii_escaped(r#""\u732b""#, both!(Cat, 1))]
#[case::non_ascii(r#""größe""#, both!(Size, 1))]
#[case::eight(r#""kind_000""#, both!(K8a, 1))]
#[case::eight_other(r#""kind_001""#, both!(K8b, 1))]
#[case::nine(r#""kind_0001""#, both!(K9a, 1))]
#[case::nine_other(r#""kind_0002""#, both!(K9b, 1))]
#[case::sixteen(r#""kind_000_kind_00""#, both!(K16a, 1))]
#[case::sixteen_other(r#""kind_000_kind_01""#, both!(K16b, 1))]
#[case::seventeen(r#""kind_000_kind_000""#, both!(K17a, 1))]
#[case::seventeen_other(r#""kind_000_kind_001""#, both!(K17b, 1))]
#[case::twenty_four(r#""abcdefghijklmnopqrstuvwx""#, both!(K24, 1))]
#[case::emoji(r#""crab 🦀 über""#, both!(Crab, 1))]
#[case::long_prefix_one(r#""same_prefix_long_tag_one""#, both!(PrefixOne, 1))]
#[case::long_prefix_two(r#""same_prefix_long_tag_two""#, both!(PrefixTwo, 1))]
#[case::primary(r#""primary""#, both!(Aliased, 1))]
#[case::string_alias(r#""alias_one""#, both!(Aliased, 1))]
#[case::int_alias("7", both!(Aliased, 1))]
#[case::bool_tag("true", both!(Yes, 1))]
#[case::nested_child(r#""inner""#, nested(1, false))]
#[case::nested_child_same_length_as_own(r#""kind_000_kind_02""#, nested(1, true))]
fn many_string_tags_read_in_every_position(
    #[case] tag: &str,
    #[case] expected: (Many, ManyOpen),
    #[values("first", "middle", "last")] position: &str,
) {
    let text = at(tag, position);
    assert_eq!(serde_json::from_str::<Many>(&text).unwrap(), expected.0);
    assert_eq!(serde_json::from_str::<ManyOpen>(&text).unwrap(), expected.1);
}

#[rstest]
#[case::same_length_as_dog(r#""dox""#, r#""dox""#)]
#[case::empty_vs_one_byte(r#""b""#, r#""b""#)]
#[case::nul_padded_eight(r#""kind_00\u0000""#, r#""kind_00\0""#)]
#[case::nul_after_one_byte(r#""a\u0000\u0000""#, r#""a\0\0""#)]
#[case::eight(r#""kind_002""#, r#""kind_002""#)]
#[case::nine(r#""kind_0003""#, r#""kind_0003""#)]
#[case::sixteen(r#""kind_000_kind_03""#, r#""kind_000_kind_03""#)]
#[case::seventeen(r#""kind_000_kind_002""#, r#""kind_000_kind_002""#)]
#[case::last_byte_of_twenty_four(r#""abcdefghijklmnopqrstuvwy""#, r#""abcdefghijklmnopqrstuvwy""#)]
#[case::non_ascii_same_length(r#""größf""#, r#""größf""#)]
#[case::other_length(r#""kind_000_kind_000_""#, r#""kind_000_kind_000_""#)]
#[case::int("8", "8")]
#[case::bool_false("false", "false")]
fn many_string_tags_unknown(
    #[case] tag: &str,
    #[case] shown: &str,
    #[values("first", "middle", "last")] position: &str,
) {
    let text = at(tag, position);
    let err = serde_json::from_str::<Many>(&text).unwrap_err();
    let message = err.to_string();
    let expected = format!("unknown subtype tag {shown}, {MANY_EXPECTED} at line 1 column");
    assert!(message.starts_with(&expected), "{message}\n{expected}");
    match serde_json::from_str::<ManyOpen>(&text).unwrap() {
        ManyOpen::Other(unknown) => assert_eq!(
            serde_json::to_string(&ManyOpen::Other(unknown)).unwrap(),
            text
        ),
        known => panic!("{text} read as {known:?}"),
    }
}

#[test]
fn many_string_tags_unknown_message() {
    let err = serde_json::from_str::<Many>(r#"{"type":"dox","n":1}"#).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!("unknown subtype tag \"dox\", {MANY_EXPECTED} at line 1 column 13")
    );
}

#[rstest]
#[case::empty(both!(Empty, 2), r#"{"type":"","n":2}"#)]
#[case::nul_byte(both!(ANul, 2), r#"{"type":"a\u0000","n":2}"#)]
#[case::non_ascii(both!(Cat, 2), r#"{"type":"猫","n":2}"#)]
#[case::nine(both!(K9b, 2), r#"{"type":"kind_0002","n":2}"#)]
#[case::seventeen(both!(K17a, 2), r#"{"type":"kind_000_kind_000","n":2}"#)]
#[case::emoji(both!(Crab, 2), r#"{"type":"crab 🦀 über","n":2}"#)]
#[case::primary_not_alias(both!(Aliased, 2), r#"{"type":"primary","n":2}"#)]
#[case::bool_tag(both!(Yes, 2), r#"{"type":true,"n":2}"#)]
#[case::nested_child(nested(2, true), r#"{"type":"kind_000_kind_02","n":2}"#)]
fn many_string_tags_write_and_round_trip(#[case] value: (Many, ManyOpen), #[case] text: &str) {
    let (many, open) = value;
    assert_eq!(serde_json::to_string(&many).unwrap(), text);
    assert_eq!(serde_json::from_str::<Many>(text).unwrap(), many);
    let json = serde_json::to_value(&many).unwrap();
    assert_eq!(serde_json::from_value::<Many>(json).unwrap(), many);
    assert_eq!(serde_json::to_string(&open).unwrap(), text);
    assert_eq!(serde_json::from_str::<ManyOpen>(text).unwrap(), open);
    let json = serde_json::to_value(&open).unwrap();
    assert_eq!(serde_json::from_value::<ManyOpen>(json).unwrap(), open);
}
