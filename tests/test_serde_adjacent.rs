//! serde's own adjacently tagged enum tests, run on ours.
//!
//! The cases are those of serde's
//! <https://github.com/serde-rs/serde/blob/v1.0.229/test_suite/tests/test_enum_adjacently_tagged.rs>
//! (serde 1.0.229, the version in Cargo.lock): the same enums, declared
//! with `#[json_subtypes(tag = "t", content = "c")]` instead of
//! `#[serde(tag = "t", content = "c")]`, and the same serde_test token
//! streams. Where ours answers differently the assertion is ours, word for
//! word, with a comment saying what serde does and why ours differs; a
//! serde twin of each enum checks that comment. serde's
//! `partially_untagged` is left out (see below).

use rstest::rstest;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_test::{assert_de_tokens, assert_de_tokens_error, assert_tokens, Configure, Token};

use json_subtypes::json_subtypes;

#[json_subtypes(tag = "t", content = "c")]
#[derive(Debug, Clone, PartialEq)]
enum AdjacentlyTagged<T> {
    Unit,
    Newtype(T),
    Tuple(u8, u8),
    Struct { f: u8 },
}

/// serde's enum, to check the comments on the differences.
mod serde_side {
    use super::*;

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    #[serde(tag = "t", content = "c")]
    pub enum AdjacentlyTagged<T> {
        Unit,
        Newtype(T),
        Tuple(u8, u8),
        Struct { f: u8 },
    }
}

const NAME: &str = "AdjacentlyTagged";

/// The outer struct of serde's token streams.
fn outer(len: usize) -> Token {
    Token::Struct { name: NAME, len }
}

/// A tag value as serde writes it: a unit variant of the enum.
fn tag(variant: &'static str) -> Token {
    Token::UnitVariant {
        name: NAME,
        variant,
    }
}

/// serde's `assert_de_tokens` where content comes before the tag (or the
/// set has a fallback): ours records it and replays it as the format
/// answered `is_human_readable` while it was recorded, and serde_test
/// answers only when configured (`content_first_needs_configuring`), so
/// the stream is read both ways.
fn assert_de_recorded<T>(value: &T, tokens: &[Token])
where
    T: DeserializeOwned + Clone + PartialEq + std::fmt::Debug,
{
    assert_de_tokens(&value.clone().readable(), tokens);
    assert_de_tokens(&value.clone().compact(), tokens);
}

/// serde's derive reads content before the tag unconfigured (its buffer
/// answers `is_human_readable` itself); ours asks the format while it
/// records it, and serde_test panics. With the tag first neither asks.
#[test]
fn content_first_needs_configuring() {
    let tokens = [
        outer(2),
        Token::Str("c"),
        Token::Unit,
        Token::Str("t"),
        tag("Unit"),
        Token::StructEnd,
    ];
    assert_de_tokens(&serde_side::AdjacentlyTagged::<u8>::Unit, &tokens);
    let ours = std::panic::catch_unwind(|| {
        assert_de_tokens(&AdjacentlyTagged::<u8>::Unit, &tokens);
    })
    .unwrap_err();
    assert_eq!(
        ours.downcast_ref::<&str>().copied(),
        Some(
            "Types which have different human-readable and compact representations must \
             explicitly mark their test cases with `serde_test::Configure`"
        )
    );
}

mod unit {
    use super::*;

    const UNIT: AdjacentlyTagged<u8> = AdjacentlyTagged::Unit;

    #[test]
    fn map_str_tag_only() {
        assert_tokens(
            &UNIT,
            &[outer(1), Token::Str("t"), tag("Unit"), Token::StructEnd],
        );
        // A wrong length hint.
        assert_de_tokens(
            &UNIT,
            &[outer(2), Token::Str("t"), tag("Unit"), Token::StructEnd],
        );
    }

    #[rstest]
    // serde's `map_int_tag_only`: a key's index for the key.
    #[case::int_key(Token::U16(0))]
    // serde's `map_bytes_tag_only`.
    #[case::bytes_key(Token::Bytes(b"t"))]
    #[case::borrowed_bytes_key(Token::BorrowedBytes(b"t"))]
    fn map_tag_only_other_keys(#[case] key: Token) {
        assert_de_tokens(&UNIT, &[outer(1), key, tag("Unit"), Token::StructEnd]);
    }

    /// serde's `map_str_tag_content`, `map_int_tag_content` and
    /// `map_bytes_tag_content`.
    #[rstest]
    #[case::str_tag_content(vec![outer(2), Token::Str("t"), tag("Unit"), Token::Str("c"), Token::Unit, Token::StructEnd])]
    #[case::str_excess_fields(vec![
        outer(2),
        Token::Str("f"), Token::Unit,
        Token::Str("t"), tag("Unit"),
        Token::Str("g"), Token::Unit,
        Token::Str("c"), Token::Unit,
        Token::Str("h"), Token::Unit,
        Token::StructEnd,
    ])]
    #[case::bytes_tag_content(vec![outer(2), Token::BorrowedBytes(b"t"), tag("Unit"), Token::BorrowedBytes(b"c"), Token::Unit, Token::StructEnd])]
    // The keys' indices: 0 the tag, 1 the content.
    #[case::int_tag_content(vec![outer(2), Token::U8(0), tag("Unit"), Token::U8(1), Token::Unit, Token::StructEnd])]
    #[case::int_excess_fields(vec![
        outer(2),
        Token::U8(2), Token::Unit,
        Token::U8(0), tag("Unit"),
        Token::U8(3), Token::Unit,
        Token::U8(1), Token::Unit,
        Token::StructEnd,
    ])]
    fn map_tag_content(#[case] tokens: Vec<Token>) {
        assert_de_tokens(&UNIT, &tokens);
    }

    /// The same, the content first.
    #[rstest]
    #[case::str(vec![outer(2), Token::Str("c"), Token::Unit, Token::Str("t"), tag("Unit"), Token::StructEnd])]
    #[case::bytes(vec![outer(2), Token::Bytes(b"c"), Token::Unit, Token::Bytes(b"t"), tag("Unit"), Token::StructEnd])]
    #[case::int(vec![outer(2), Token::U64(1), Token::Unit, Token::U64(0), tag("Unit"), Token::StructEnd])]
    fn map_content_tag(#[case] tokens: Vec<Token>) {
        assert_de_recorded(&UNIT, &tokens);
    }

    /// serde's `seq_tag_content`: the tag a unit variant, or the variant's
    /// bare name or index.
    #[rstest]
    #[case::unit_variant(tag("Unit"))]
    #[case::str(Token::Str("Unit"))]
    #[case::borrowed_str(Token::BorrowedStr("Unit"))]
    #[case::bytes(Token::Bytes(b"Unit"))]
    #[case::index(Token::U32(0))]
    fn seq_tag_content(#[case] tag: Token) {
        assert_de_tokens(
            &UNIT,
            &[Token::Seq { len: Some(2) }, tag, Token::Unit, Token::SeqEnd],
        );
    }

    /// A bare tag in the sequence form is still looked up among the tags.
    #[rstest]
    #[case::unknown_name(
        Token::Str("Nope"),
        r#"unknown subtype tag "Nope", expected one of "Unit", "Newtype", "Tuple", "Struct""#
    )]
    #[case::index_out_of_range(
        Token::U32(4),
        "invalid value: integer `4`, expected variant index 0 <= i < 4"
    )]
    fn seq_bad_tag(#[case] tag: Token, #[case] message: &str) {
        assert_de_tokens_error::<AdjacentlyTagged<u8>>(&[Token::Seq { len: None }, tag], message);
    }

    /// In a map the tag is a unit variant only, as serde's derive reads it.
    #[test]
    fn map_str_tag() {
        let tokens = [outer(1), Token::Str("t"), Token::Str("Unit")];
        let message = r#"invalid type: string "Unit", expected a variant tag of AdjacentlyTagged"#;
        assert_de_tokens_error::<serde_side::AdjacentlyTagged<u8>>(
            &tokens,
            r#"invalid type: string "Unit", expected variant of enum AdjacentlyTagged"#,
        );
        assert_de_tokens_error::<AdjacentlyTagged<u8>>(&tokens, message);
    }
}

mod newtype {
    use super::*;

    #[test]
    fn map_tag_only() {
        // An optional newtype without its content.
        assert_de_tokens(
            &AdjacentlyTagged::Newtype::<Option<u8>>(None),
            &[outer(1), Token::Str("t"), tag("Newtype"), Token::StructEnd],
        );
    }

    #[test]
    fn map_tag_content() {
        let value = AdjacentlyTagged::Newtype::<u8>(1);
        assert_tokens(
            &value,
            &[
                outer(2),
                Token::Str("t"),
                tag("Newtype"),
                Token::Str("c"),
                Token::U8(1),
                Token::StructEnd,
            ],
        );
        assert_de_recorded(
            &value,
            &[
                outer(2),
                Token::Str("c"),
                Token::U8(1),
                Token::Str("t"),
                tag("Newtype"),
                Token::StructEnd,
            ],
        );
    }

    #[test]
    fn seq() {
        assert_de_tokens(
            &AdjacentlyTagged::Newtype::<u8>(1),
            &[
                Token::Seq { len: Some(2) },
                tag("Newtype"),
                Token::U8(1),
                Token::SeqEnd,
            ],
        );
    }

    // serde's `seq`, the tag as a string.
    #[rstest]
    #[case::str(Token::Str("Newtype"))]
    #[case::borrowed_str(Token::BorrowedStr("Newtype"))]
    fn seq_str_tag(#[case] tag: Token) {
        assert_de_tokens(
            &AdjacentlyTagged::Newtype::<u8>(1),
            &[Token::Seq { len: None }, tag, Token::U8(1), Token::SeqEnd],
        );
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct NewtypeStruct(u32);

/// serde's `newtype_with_newtype`: a newtype struct as the content, before
/// the tag.
#[test]
fn newtype_with_newtype() {
    assert_de_recorded(
        &AdjacentlyTagged::Newtype(NewtypeStruct(5)),
        &[
            outer(2),
            Token::Str("c"),
            Token::NewtypeStruct {
                name: "NewtypeStruct",
            },
            Token::U32(5),
            Token::Str("t"),
            tag("Newtype"),
            Token::StructEnd,
        ],
    );
}

mod tuple {
    use super::*;

    const VALUE: AdjacentlyTagged<u8> = AdjacentlyTagged::Tuple(1, 1);

    fn content() -> [Token; 4] {
        [
            Token::Tuple { len: 2 },
            Token::U8(1),
            Token::U8(1),
            Token::TupleEnd,
        ]
    }

    #[test]
    fn map() {
        let tag_first: Vec<Token> = [outer(2), Token::Str("t"), tag("Tuple"), Token::Str("c")]
            .into_iter()
            .chain(content())
            .chain([Token::StructEnd])
            .collect();
        assert_tokens(&VALUE, &tag_first);
        let content_first: Vec<Token> = [outer(2), Token::Str("c")]
            .into_iter()
            .chain(content())
            .chain([Token::Str("t"), tag("Tuple"), Token::StructEnd])
            .collect();
        assert_de_recorded(&VALUE, &content_first);
    }

    #[test]
    fn seq() {
        let tokens: Vec<Token> = [Token::Seq { len: Some(2) }, tag("Tuple")]
            .into_iter()
            .chain(content())
            .chain([Token::SeqEnd])
            .collect();
        assert_de_tokens(&VALUE, &tokens);
    }
}

mod struct_ {
    use super::*;

    const VALUE: AdjacentlyTagged<u8> = AdjacentlyTagged::Struct { f: 1 };

    /// serde's content, the struct named after its variant.
    fn content() -> [Token; 4] {
        [
            Token::Struct {
                name: "Struct",
                len: 1,
            },
            Token::Str("f"),
            Token::U8(1),
            Token::StructEnd,
        ]
    }

    fn tag_first() -> Vec<Token> {
        [outer(2), Token::Str("t"), tag("Struct"), Token::Str("c")]
            .into_iter()
            .chain(content())
            .chain([Token::StructEnd])
            .collect()
    }

    #[test]
    fn map() {
        assert_tokens(&VALUE, &tag_first());
        let content_first: Vec<Token> = [outer(2), Token::Str("c")]
            .into_iter()
            .chain(content())
            .chain([Token::Str("t"), tag("Struct"), Token::StructEnd])
            .collect();
        assert_de_recorded(&VALUE, &content_first);
    }

    #[test]
    fn seq() {
        let tokens: Vec<Token> = [Token::Seq { len: Some(2) }, tag("Struct")]
            .into_iter()
            .chain(content())
            .chain([Token::SeqEnd])
            .collect();
        assert_de_tokens(&VALUE, &tokens);
    }

    #[json_subtypes(tag = "t", content = "c", rename_all = "snake_case")]
    #[derive(Debug, Clone, PartialEq)]
    enum Renamed {
        MouseClick { f: u8 },
    }

    /// A renamed variant's content is read under the name it is written
    /// with, its tag, not the variant's identifier.
    #[test]
    fn renamed() {
        let name = "Renamed";
        let tokens = [
            Token::Struct { name, len: 2 },
            Token::Str("t"),
            Token::UnitVariant {
                name,
                variant: "mouse_click",
            },
            Token::Str("c"),
            Token::Struct {
                name: "mouse_click",
                len: 1,
            },
            Token::Str("f"),
            Token::U8(1),
            Token::StructEnd,
            Token::StructEnd,
        ];
        assert_tokens(&Renamed::MouseClick { f: 1 }, &tokens);
    }
}

/// serde's `struct_with_flatten`.
#[test]
fn struct_with_flatten() {
    #[json_subtypes(tag = "t", content = "c")]
    #[derive(Clone, PartialEq, Debug)]
    enum Data {
        A {
            a: i32,
            #[serde(flatten)]
            flat: Flat,
        },
    }

    #[derive(Clone, Serialize, Deserialize, PartialEq, Debug)]
    struct Flat {
        b: i32,
    }

    assert_tokens(
        &Data::A {
            a: 0,
            flat: Flat { b: 0 },
        },
        &[
            Token::Struct {
                name: "Data",
                len: 2,
            },
            Token::Str("t"),
            Token::UnitVariant {
                name: "Data",
                variant: "A",
            },
            Token::Str("c"),
            Token::Map { len: None },
            Token::Str("a"),
            Token::I32(0),
            Token::Str("b"),
            Token::I32(0),
            Token::MapEnd,
            Token::StructEnd,
        ],
    );
}

mod expecting {
    use super::*;

    #[json_subtypes(tag = "tag", content = "content")]
    #[serde(expecting = "something strange...")]
    #[derive(Debug)]
    pub enum Enum {
        AdjacentlyTagged,
    }

    mod serde_side {
        #[derive(Debug, serde::Deserialize)]
        #[serde(tag = "tag", content = "content")]
        #[serde(expecting = "something strange...")]
        pub enum Enum {
            #[allow(dead_code)]
            AdjacentlyTagged,
        }
    }

    /// serde's `expecting_message`.
    #[rstest]
    // Both say `expecting`.
    #[case::not_a_map(
        vec![Token::Str("AdjacentlyTagged")],
        r#"invalid type: string "AdjacentlyTagged", expected something strange..."#,
        r#"invalid type: string "AdjacentlyTagged", expected something strange..."#
    )]
    // serde quotes the keys and names the enum; ours words a bad key and a
    // bad tag as everywhere else in this crate (backticks, "variant tag").
    #[case::not_a_key(
        vec![Token::Map { len: None }, Token::Unit],
        r#"invalid type: unit value, expected "tag", "content", or other ignored fields"#,
        "invalid type: unit value, expected `tag`, `content` or another key"
    )]
    // `expecting` is not the message of the variant identifier.
    #[case::not_a_tag(
        vec![Token::Map { len: None }, Token::Str("tag"), Token::Unit],
        "invalid type: unit value, expected variant of enum Enum",
        "invalid type: unit value, expected a variant tag of Enum"
    )]
    fn message(#[case] tokens: Vec<Token>, #[case] serde: &str, #[case] ours: &str) {
        assert_de_tokens_error::<serde_side::Enum>(&tokens, serde);
        assert_de_tokens_error::<Enum>(&tokens, ours);
    }
}

// serde's `partially_untagged` is not ported: `#[serde(untagged)]` on a
// variant is refused at compile time ("`#[serde(untagged)]` on a variant;
// mark the variant that takes what no tag selects
// `#[json_subtypes(fallback)]`", tests/ui/serde-untagged-on-variant.rs).

/// serde's `deny_unknown_fields`.
mod deny_unknown_fields {
    use super::*;

    #[json_subtypes(tag = "t", content = "c", deny_unknown_fields)]
    #[derive(Debug, Clone, PartialEq)]
    enum AdjacentlyTagged {
        Unit,
    }

    #[test]
    fn known_fields() {
        assert_de_tokens(
            &AdjacentlyTagged::Unit,
            &[
                outer(2),
                Token::Str("t"),
                tag("Unit"),
                Token::Str("c"),
                Token::Unit,
                Token::StructEnd,
            ],
        );
    }

    mod serde_side {
        #[derive(Debug, serde::Deserialize)]
        #[serde(tag = "t", content = "c", deny_unknown_fields)]
        pub enum AdjacentlyTagged {
            #[allow(dead_code)]
            Unit,
        }
    }

    // serde's error for an unknown key is `invalid value: <key>, expected
    // "t" or "c"`; ours is serde's `unknown field` message for structs (the
    // same as for trait objects), and serde's for a key's index.
    #[rstest]
    #[case::after_tag_and_content(
        vec![outer(2), Token::Str("t"), tag("Unit"), Token::Str("c"), Token::Unit, Token::Str("h")],
        r#"invalid value: string "h", expected "t" or "c""#,
        "unknown field `h`, expected `t` or `c`"
    )]
    #[case::first(
        vec![outer(2), Token::Str("h")],
        r#"invalid value: string "h", expected "t" or "c""#,
        "unknown field `h`, expected `t` or `c`"
    )]
    #[case::int_key(
        vec![outer(2), Token::U64(0), tag("Unit"), Token::U64(3)],
        r#"invalid value: integer `3`, expected "t" or "c""#,
        "invalid value: integer `3`, expected `t` or `c`"
    )]
    fn unknown_fields(#[case] tokens: Vec<Token>, #[case] serde: &str, #[case] ours: &str) {
        assert_de_tokens_error::<serde_side::AdjacentlyTagged>(&tokens, serde);
        assert_de_tokens_error::<AdjacentlyTagged>(&tokens, ours);
    }

    /// The same after content recorded before the tag (see
    /// `assert_de_recorded`).
    #[rstest]
    #[case::after_content(
        vec![outer(2), Token::Str("c"), Token::Unit, Token::Str("h")],
        r#"invalid value: string "h", expected "t" or "c""#,
        "unknown field `h`, expected `t` or `c`"
    )]
    #[case::bytes_key(
        vec![outer(2), Token::Bytes(b"c"), Token::Unit, Token::Bytes(b"h")],
        r#"invalid value: byte array, expected "t" or "c""#,
        "unknown field `h`, expected `t` or `c`"
    )]
    fn unknown_fields_after_content(
        #[case] tokens: Vec<Token>,
        #[case] serde: &str,
        #[case] ours: &str,
    ) {
        assert_de_tokens_error::<serde_side::AdjacentlyTagged>(&tokens, serde);
        assert_de_tokens_error::<serde_test::Readable<AdjacentlyTagged>>(&tokens, ours);
        assert_de_tokens_error::<serde_test::Compact<AdjacentlyTagged>>(&tokens, ours);
    }
}

/// Keys given as their index where ours adds to serde's form.
mod index_keys {
    use std::collections::BTreeMap;

    use super::*;

    #[json_subtypes(tag = "t", content = "c", require_tag_first)]
    #[derive(Debug, PartialEq)]
    enum First {
        Unit,
    }

    #[test]
    fn require_tag_first() {
        assert_de_tokens_error::<First>(
            &[
                Token::Struct {
                    name: "First",
                    len: 2,
                },
                Token::U8(1),
            ],
            "the tag `t` of First must be the first key (require_tag_first), found `1`",
        );
        assert_de_tokens(
            &First::Unit,
            &[
                Token::Struct {
                    name: "First",
                    len: 1,
                },
                Token::U8(0),
                Token::UnitVariant {
                    name: "First",
                    variant: "Unit",
                },
                Token::StructEnd,
            ],
        );
    }

    #[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
    #[serde(untagged)]
    enum Key {
        Index(u64),
        Name(String),
    }

    #[json_subtypes(tag = "t", content = "c")]
    #[derive(Debug, Clone, PartialEq)]
    enum Kept {
        Newtype(u8),
        #[json_subtypes(fallback)]
        Other(BTreeMap<Key, serde_json::Value>),
    }

    fn tokens(variant: &'static str) -> Vec<Token> {
        let name = "Kept";
        vec![
            Token::Struct { name, len: 3 },
            Token::U8(2),
            Token::U8(7),
            Token::U8(1),
            Token::U8(5),
            Token::U8(0),
            Token::UnitVariant { name, variant },
            Token::StructEnd,
        ]
    }

    /// A set with a fallback records every key before the tag: an index
    /// key is recorded as the index it is.
    #[test]
    fn fallback() {
        let kept = BTreeMap::from([
            (Key::Index(1), serde_json::json!(5)),
            (Key::Index(2), serde_json::json!(7)),
            (Key::Name("t".into()), serde_json::json!("Nope")),
        ]);
        assert_de_recorded(&Kept::Other(kept), &tokens("Nope"));
        assert_de_recorded(&Kept::Newtype(5), &tokens("Newtype"));
    }
}
