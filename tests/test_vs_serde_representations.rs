//! Enums in the externally and adjacently tagged forms beside serde's
//! derive of the same enum: `#[json_subtypes(external)]` next to serde's
//! default, `#[json_subtypes(tag = "type", content = "value")]` next to
//! `#[serde(tag = "type", content = "value")]`. The same bytes in JSON, YAML
//! (serde_norway), RON, CBOR (ciborium), MessagePack (rmp-serde, compact and
//! named), postcard and bincode 1.x, each library reading what the other wrote; then what ours
//! adds (a fallback that keeps every byte) and its messages.

use std::fmt::Debug;

use json_subtypes::{json_subtypes, Unknown};
use rstest::rstest;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Cat {
    lives: u8,
    name: String,
}

/// serde's derive, each form in a module of its own, so the types print
/// (`Debug`) as ours do.
mod serde_side {
    use super::Cat;
    use serde::{Deserialize, Serialize};

    pub mod external {
        use super::*;

        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
        pub enum Animal {
            Dog {
                name: String,
                #[serde(default, rename = "years")]
                age: u8,
            },
            Cat(Cat),
            #[serde(alias = "Goldfish")]
            Fish,
            Pair(u8, String),
            Wrapped(u64),
        }

        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
        #[serde(rename_all = "snake_case")]
        pub enum Event {
            MouseClick { x: i32, y: i32 },
            KeyPress(char),
            WindowClosed,
        }
    }

    pub mod adjacent {
        use super::*;

        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
        #[serde(tag = "type", content = "value")]
        pub enum Animal {
            Dog {
                name: String,
                #[serde(default, rename = "years")]
                age: u8,
            },
            Cat(Cat),
            #[serde(alias = "Goldfish")]
            Fish,
            Pair(u8, String),
            Wrapped(u64),
        }

        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
        #[serde(tag = "t", content = "c", rename_all = "snake_case")]
        pub enum Event {
            MouseClick { x: i32, y: i32 },
            KeyPress(char),
            WindowClosed,
        }
    }
}

/// Ours, the same declarations with our attribute.
mod ours {
    use super::Cat;
    use json_subtypes::json_subtypes;

    pub mod external {
        use super::*;

        #[json_subtypes(external)]
        #[derive(Debug, Clone, PartialEq)]
        pub enum Animal {
            Dog {
                name: String,
                #[serde(default, rename = "years")]
                age: u8,
            },
            Cat(Cat),
            #[json_subtypes(alias = "Goldfish")]
            Fish,
            Pair(u8, String),
            Wrapped(u64),
        }

        #[json_subtypes(external, rename_all = "snake_case")]
        #[derive(Debug, Clone, PartialEq)]
        pub enum Event {
            MouseClick { x: i32, y: i32 },
            KeyPress(char),
            WindowClosed,
        }
    }

    pub mod adjacent {
        use super::*;

        #[json_subtypes(tag = "type", content = "value")]
        #[derive(Debug, Clone, PartialEq)]
        pub enum Animal {
            Dog {
                name: String,
                #[serde(default, rename = "years")]
                age: u8,
            },
            Cat(Cat),
            #[json_subtypes(alias = "Goldfish")]
            Fish,
            Pair(u8, String),
            Wrapped(u64),
        }

        #[json_subtypes(tag = "t", content = "c", rename_all = "snake_case")]
        #[derive(Debug, Clone, PartialEq)]
        pub enum Event {
            MouseClick { x: i32, y: i32 },
            KeyPress(char),
            WindowClosed,
        }
    }
}

#[derive(Debug, Clone, Copy)]
enum Format {
    Json,
    Yaml,
    Ron,
    Cbor,
    MsgPack,
    MsgPackNamed,
    Postcard,
    Bincode,
}

impl Format {
    fn write<T: Serialize>(self, value: &T) -> Vec<u8> {
        match self {
            Format::Json => serde_json::to_vec(value).unwrap(),
            Format::Yaml => serde_norway::to_string(value).unwrap().into_bytes(),
            Format::Ron => ron::to_string(value).unwrap().into_bytes(),
            Format::Cbor => {
                let mut out = Vec::new();
                ciborium::into_writer(value, &mut out).unwrap();
                out
            }
            Format::MsgPack => rmp_serde::to_vec(value).unwrap(),
            Format::MsgPackNamed => rmp_serde::to_vec_named(value).unwrap(),
            Format::Postcard => postcard::to_allocvec(value).unwrap(),
            Format::Bincode => bincode::serialize(value).unwrap(),
        }
    }

    fn read<T: DeserializeOwned>(self, bytes: &[u8]) -> Result<T, String> {
        match self {
            Format::Json => serde_json::from_slice(bytes).map_err(|e| e.to_string()),
            Format::Yaml => serde_norway::from_slice(bytes).map_err(|e| e.to_string()),
            Format::Ron => {
                let text = std::str::from_utf8(bytes).map_err(|e| e.to_string())?;
                ron::from_str(text).map_err(|e| e.to_string())
            }
            Format::Cbor => ciborium::from_reader(bytes).map_err(|e| e.to_string()),
            Format::MsgPack | Format::MsgPackNamed => {
                rmp_serde::from_slice(bytes).map_err(|e| e.to_string())
            }
            Format::Postcard => postcard::from_bytes(bytes).map_err(|e| e.to_string()),
            Format::Bincode => bincode::deserialize(bytes).map_err(|e| e.to_string()),
        }
    }
}

fn cat() -> Cat {
    Cat {
        lives: 9,
        name: "Tom".to_owned(),
    }
}

/// Ours and serde's hold the same value: they print the same.
fn same<A: Debug, B: Debug>(a: &A, b: &B) {
    assert_eq!(format!("{a:?}"), format!("{b:?}"));
}

/// The same bytes from both, each reading the other's, and back. Where
/// serde cannot read its own bytes (`serde_reads` false), ours still does.
fn side_by_side<O, S>(format: Format, ours: O, serde: S, serde_reads: bool)
where
    O: Serialize + DeserializeOwned + Debug + PartialEq,
    S: Serialize + DeserializeOwned + Debug + PartialEq,
{
    same(&ours, &serde);
    let written = format.write(&ours);
    assert_eq!(written, format.write(&serde), "{format:?}: {ours:?}");
    let by_serde = format.read::<S>(&written);
    let by_ours = format.read::<O>(&written);
    assert_eq!(by_ours, Ok(ours), "{format:?}");
    match serde_reads {
        true => assert_eq!(by_serde, Ok(serde), "{format:?}"),
        false => assert!(by_serde.is_err(), "{format:?}: {by_serde:?}"),
    }
}

/// A variant's style, for what serde cannot read back.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Struct,
    Unit,
    Other,
}

macro_rules! animals {
    ($ours:path, $serde:path) => {{
        use $ours as O;
        use $serde as S;
        vec![
            (
                O::Dog {
                    name: "Rex".to_owned(),
                    age: 3,
                },
                S::Dog {
                    name: "Rex".to_owned(),
                    age: 3,
                },
                Kind::Struct,
            ),
            (O::Cat(cat()), S::Cat(cat()), Kind::Other),
            (O::Fish, S::Fish, Kind::Unit),
            (
                O::Pair(7, "seven".to_owned()),
                S::Pair(7, "seven".to_owned()),
                Kind::Other,
            ),
            (O::Wrapped(u64::MAX), S::Wrapped(u64::MAX), Kind::Other),
        ]
    }};
}

macro_rules! events {
    ($ours:path, $serde:path) => {{
        use $ours as O;
        use $serde as S;
        vec![
            (
                O::MouseClick { x: -1, y: 2 },
                S::MouseClick { x: -1, y: 2 },
                Kind::Struct,
            ),
            (O::KeyPress('k'), S::KeyPress('k'), Kind::Other),
            (O::WindowClosed, S::WindowClosed, Kind::Unit),
        ]
    }};
}

#[rstest]
fn external_is_serdes_default(
    #[values(
        Format::Json,
        Format::Yaml,
        Format::Ron,
        Format::Cbor,
        Format::MsgPack,
        Format::MsgPackNamed,
        Format::Postcard,
        Format::Bincode
    )]
    format: Format,
) {
    let all = animals!(ours::external::Animal, serde_side::external::Animal);
    for (ours, serde, _) in all {
        side_by_side(format, ours, serde, true);
    }
    let all = events!(ours::external::Event, serde_side::external::Event);
    for (ours, serde, _) in all {
        side_by_side(format, ours, serde, true);
    }
}

#[rstest]
fn adjacent_is_serdes_tag_and_content(
    #[values(
        Format::Json,
        Format::Yaml,
        Format::Ron,
        Format::Cbor,
        Format::MsgPack,
        Format::MsgPackNamed,
        Format::Postcard,
        Format::Bincode
    )]
    format: Format,
) {
    // serde's adjacent reader asks postcard and bincode for the tag with
    // `deserialize_identifier`, which they do not answer, and compact
    // MessagePack holds a unit variant's struct as one element and a
    // struct variant's content as a sequence, which it does not take: it
    // cannot read back what it wrote there. Ours reads all of them.
    let serde_reads = |kind: Kind| match format {
        Format::Postcard | Format::Bincode => false,
        Format::MsgPack => kind == Kind::Other,
        _ => true,
    };
    let all = animals!(ours::adjacent::Animal, serde_side::adjacent::Animal);
    for (ours, serde, kind) in all {
        side_by_side(format, ours, serde, serde_reads(kind));
    }
    for (ours, serde, kind) in events!(ours::adjacent::Event, serde_side::adjacent::Event) {
        side_by_side(format, ours, serde, serde_reads(kind));
    }
}

/// The JSON both write, spelled out.
#[rstest]
#[case::struct_variant(
    ours::external::Animal::Dog { name: "Rex".to_owned(), age: 3 },
    r#"{"Dog":{"name":"Rex","years":3}}"#
)]
#[case::newtype(
    ours::external::Animal::Cat(cat()),
    r#"{"Cat":{"lives":9,"name":"Tom"}}"#
)]
#[case::unit_as_a_bare_string(ours::external::Animal::Fish, r#""Fish""#)]
#[case::tuple(ours::external::Animal::Pair(7, "seven".to_owned()), r#"{"Pair":[7,"seven"]}"#)]
fn external_json(#[case] value: ours::external::Animal, #[case] text: &str) {
    assert_eq!(serde_json::to_string(&value).unwrap(), text);
    assert_eq!(
        serde_json::from_str::<ours::external::Animal>(text).unwrap(),
        value
    );
}

#[rstest]
#[case::struct_variant(
    ours::adjacent::Animal::Dog { name: "Rex".to_owned(), age: 3 },
    r#"{"type":"Dog","value":{"name":"Rex","years":3}}"#
)]
#[case::newtype(
    ours::adjacent::Animal::Cat(cat()),
    r#"{"type":"Cat","value":{"lives":9,"name":"Tom"}}"#
)]
#[case::unit_without_content(ours::adjacent::Animal::Fish, r#"{"type":"Fish"}"#)]
#[case::tuple(
    ours::adjacent::Animal::Pair(7, "seven".to_owned()),
    r#"{"type":"Pair","value":[7,"seven"]}"#
)]
fn adjacent_json(#[case] value: ours::adjacent::Animal, #[case] text: &str) {
    assert_eq!(serde_json::to_string(&value).unwrap(), text);
    assert_eq!(
        serde_json::from_str::<ours::adjacent::Animal>(text).unwrap(),
        value
    );
}

/// What serde reads besides what it writes, ours reads too, to the same
/// value: a unit variant as a map, an alias, a missing defaulted field;
/// in the adjacent form the content before the tag, other keys, no content
/// or a null one for a unit.
#[rstest]
#[case::unit_as_a_map(r#"{"Fish":null}"#)]
#[case::alias_bare(r#""Goldfish""#)]
#[case::alias_in_a_map(r#"{"Goldfish":null}"#)]
#[case::default_field(r#"{"Dog":{"name":"Rex"}}"#)]
#[case::spaces(r#" { "Cat" : { "name" : "Tom" , "lives" : 9 } } "#)]
fn external_reads_what_serde_reads(#[case] text: &str) {
    let serde: serde_side::external::Animal = serde_json::from_str(text).unwrap();
    let ours: ours::external::Animal = serde_json::from_str(text).unwrap();
    same(&ours, &serde);
}

#[rstest]
#[case::content_first(r#"{"value":{"name":"Rex","years":3},"type":"Dog"}"#)]
#[case::other_keys(r#"{"id":1,"type":"Cat","x":[1,{}],"value":{"lives":9,"name":"Tom"}}"#)]
#[case::unit_null_content(r#"{"type":"Fish","value":null}"#)]
#[case::alias(r#"{"type":"Goldfish"}"#)]
#[case::default_field(r#"{"type":"Dog","value":{"name":"Rex"}}"#)]
fn adjacent_reads_what_serde_reads(#[case] text: &str) {
    let serde: serde_side::adjacent::Animal = serde_json::from_str(text).unwrap();
    let ours: ours::adjacent::Animal = serde_json::from_str(text).unwrap();
    same(&ours, &serde);
}

/// Ours with a fallback: an unknown tag lands there with every byte, and
/// is written back unchanged.
#[json_subtypes(external)]
#[derive(Debug, Clone, PartialEq)]
enum Open {
    Dog {
        name: String,
    },
    Fish,
    #[json_subtypes(fallback)]
    Other(Unknown),
}

#[json_subtypes(tag = "type", content = "value")]
#[derive(Debug, Clone, PartialEq)]
enum OpenAdjacent {
    Dog {
        name: String,
    },
    Fish,
    #[json_subtypes(fallback)]
    Other(Unknown),
}

#[rstest]
#[case::object(r#"{"Bird":{"wings":2,"big":18446744073709551615,"f":-1.5}}"#)]
#[case::array(r#"{"Bird":[1,-2,"three",null]}"#)]
#[case::null(r#"{"Bird":null}"#)]
fn external_fallback_keeps_every_byte(#[case] text: &str) {
    let read: Open = serde_json::from_str(text).unwrap();
    let Open::Other(unknown) = &read else {
        panic!("{read:?}")
    };
    assert_eq!(unknown.keys().collect::<Vec<_>>(), ["Bird"]);
    assert_eq!(serde_json::to_string(&read).unwrap(), text);
    let again: Open = serde_json::from_str(&serde_json::to_string(&read).unwrap()).unwrap();
    assert_eq!(again, read);
    // Known tags still read as their variants.
    assert_eq!(
        serde_json::from_str::<Open>(r#"{"Dog":{"name":"Rex"}}"#).unwrap(),
        Open::Dog {
            name: "Rex".to_owned()
        }
    );
    assert_eq!(
        serde_json::from_str::<Open>(r#""Fish""#).unwrap(),
        Open::Fish
    );
}

#[rstest]
#[case::tag_first(r#"{"type":"Bird","value":{"wings":2},"id":18446744073709551615}"#)]
#[case::tag_last(r#"{"id":-1,"value":{"wings":2},"type":"Bird"}"#)]
#[case::no_content(r#"{"type":"Bird"}"#)]
fn adjacent_fallback_keeps_every_byte(#[case] text: &str) {
    let read: OpenAdjacent = serde_json::from_str(text).unwrap();
    let OpenAdjacent::Other(unknown) = &read else {
        panic!("{read:?}")
    };
    assert_eq!(unknown.tag::<String>().unwrap().unwrap(), "Bird");
    assert_eq!(serde_json::to_string(&read).unwrap(), text);
    let again: OpenAdjacent = serde_json::from_str(&serde_json::to_string(&read).unwrap()).unwrap();
    assert_eq!(again, read);
}

/// A fallback needs a self-describing format; the known variants of an
/// enum with one still round-trip in postcard and bincode.
#[rstest]
fn fallback_enums_round_trip_known_variants_in_binary_formats(
    #[values(Format::Postcard, Format::Bincode, Format::Cbor, Format::MsgPack)] format: Format,
) {
    let dog = Open::Dog {
        name: "Rex".to_owned(),
    };
    assert_eq!(format.read::<Open>(&format.write(&dog)).unwrap(), dog);
    assert_eq!(
        format.read::<Open>(&format.write(&Open::Fish)).unwrap(),
        Open::Fish
    );
    let dog = OpenAdjacent::Dog {
        name: "Rex".to_owned(),
    };
    assert_eq!(
        format.read::<OpenAdjacent>(&format.write(&dog)).unwrap(),
        dog
    );
}

/// Our messages; where the format or the payload speaks, serde's own.
#[rstest]
#[case::unknown_tag(
    r#"{"Bird":{}}"#,
    r#"unknown subtype tag "Bird", expected one of "Dog", "Cat", "Fish", "Goldfish", "Pair", "Wrapped" at line 1 column 7"#,
    false
)]
#[case::not_a_variant(r#"[1]"#, "expected value at line 1 column 1", true)]
#[case::two_entries(
    r#"{"Fish":null,"Dog":{}}"#,
    "expected value at line 1 column 12",
    true
)]
#[case::body_error(
    r#"{"Dog":{"name":1}}"#,
    "invalid type: integer `1`, expected a string at line 1 column 16",
    true
)]
fn external_errors(#[case] text: &str, #[case] message: &str, #[case] as_serde: bool) {
    let err = serde_json::from_str::<ours::external::Animal>(text).unwrap_err();
    assert_eq!(err.to_string(), message);
    let serde = serde_json::from_str::<serde_side::external::Animal>(text).unwrap_err();
    assert_eq!(serde.to_string() == message, as_serde, "serde: {serde}");
}

#[rstest]
#[case::unknown_tag(
    r#"{"type":"Bird","value":{}}"#,
    r#"unknown subtype tag "Bird", expected one of "Dog", "Cat", "Fish", "Goldfish", "Pair", "Wrapped" at line 1 column 14"#,
    false
)]
#[case::missing_tag(r#"{"value":{}}"#, "missing field `type` at line 1 column 12", true)]
#[case::body_error(
    r#"{"type":"Dog","value":{"name":1}}"#,
    "invalid type: integer `1`, expected a string at line 1 column 31",
    true
)]
fn adjacent_errors(#[case] text: &str, #[case] message: &str, #[case] as_serde: bool) {
    let err = serde_json::from_str::<ours::adjacent::Animal>(text).unwrap_err();
    assert_eq!(err.to_string(), message);
    let serde = serde_json::from_str::<serde_side::adjacent::Animal>(text).unwrap_err();
    assert_eq!(serde.to_string() == message, as_serde, "serde: {serde}");
}

/// `deny_unknown_fields` in the adjacent form, ours beside serde's: both
/// refuse a key beside the two; ours says it in typetag's words (the same
/// as for trait objects), serde's enum in its own.
#[json_subtypes(tag = "type", content = "value", deny_unknown_fields)]
#[derive(Debug, Clone, PartialEq)]
enum Strict {
    Dog { name: String },
    Fish,
}

/// serde's own key on ours does the same.
#[json_subtypes(tag = "type", content = "value")]
#[serde(deny_unknown_fields)]
#[derive(Debug, Clone, PartialEq)]
enum StrictBySerde {
    Dog { name: String },
    Fish,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", content = "value", deny_unknown_fields)]
enum StrictSerde {
    Dog { name: String },
    Fish,
}

#[rstest]
#[case::after_the_tag(r#"{"type":"Fish","id":1}"#, 19)]
#[case::before_the_tag(r#"{"id":1,"type":"Dog","value":{"name":"Rex"}}"#, 5)]
fn adjacent_deny_unknown_fields(#[case] text: &str, #[case] column: u32) {
    let serde = serde_json::from_str::<StrictSerde>(text).unwrap_err();
    assert_eq!(
        serde.to_string(),
        format!(
            r#"invalid value: string "id", expected "type" or "value" at line 1 column {column}"#
        )
    );
    let message =
        format!("unknown field `id`, expected `type` or `value` at line 1 column {column}");
    let ours = serde_json::from_str::<Strict>(text).unwrap_err();
    assert_eq!(ours.to_string(), message);
    let by_serde_key = serde_json::from_str::<StrictBySerde>(text).unwrap_err();
    assert_eq!(by_serde_key.to_string(), message);
    let fish = serde_json::from_str::<Strict>(r#"{"type":"Fish"}"#).unwrap();
    assert_eq!(fish, Strict::Fish);
}

/// A generic enum, ours beside serde's.
#[json_subtypes(external)]
#[derive(Debug, Clone, PartialEq)]
enum Wrapper<T> {
    One(T),
    Many { items: Vec<T> },
    Nothing,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
enum WrapperSerde<T> {
    One(T),
    Many { items: Vec<T> },
    Nothing,
}

#[rstest]
fn generic_enums_as_serde(
    #[values(
        Format::Json,
        Format::Yaml,
        Format::Ron,
        Format::Cbor,
        Format::MsgPack,
        Format::Postcard,
        Format::Bincode
    )]
    format: Format,
) {
    side_by_side(format, Wrapper::One(5u16), WrapperSerde::One(5u16), true);
    side_by_side(
        format,
        Wrapper::Many {
            items: vec!["a".to_owned()],
        },
        WrapperSerde::Many {
            items: vec!["a".to_owned()],
        },
        true,
    );
    side_by_side(
        format,
        Wrapper::<u8>::Nothing,
        WrapperSerde::<u8>::Nothing,
        true,
    );
}

/// The fallback keeps every byte in CBOR too, a self-describing binary
/// format.
#[test]
fn fallback_in_cbor() {
    use ciborium::Value as V;
    let text = |s: &str| V::Text(s.to_owned());
    let bird = V::Map(vec![(
        text("Bird"),
        V::Map(vec![
            (text("wings"), V::Integer(2.into())),
            (text("name"), text("Tweety")),
        ]),
    )]);
    let bytes = Format::Cbor.write(&bird);
    let read: Open = Format::Cbor.read(&bytes).unwrap();
    assert!(matches!(read, Open::Other(_)), "{read:?}");
    assert_eq!(Format::Cbor.write(&read), bytes);
    let bird = V::Map(vec![
        (text("type"), text("Bird")),
        (
            text("value"),
            V::Array(vec![V::Integer(1.into()), V::Integer(2.into())]),
        ),
    ]);
    let bytes = Format::Cbor.write(&bird);
    let read: OpenAdjacent = Format::Cbor.read(&bytes).unwrap();
    assert!(matches!(read, OpenAdjacent::Other(_)), "{read:?}");
    assert_eq!(Format::Cbor.write(&read), bytes);
}

/// With a fallback: a bare string is a unit variant's form, which holds no
/// object for the fallback, so an unknown one is the unknown-tag error; a
/// second entry is serde_json's error, as for serde's derive.
#[rstest]
#[case::unknown_bare_string(
    r#""Bird""#,
    r#"unknown subtype tag "Bird", expected one of "Dog", "Fish""#
)]
#[case::second_entry(r#"{"Bird":1,"Crow":2}"#, "expected value at line 1 column 9")]
#[case::struct_variant_as_a_string(
    r#""Dog""#,
    "invalid type: unit variant, expected struct variant"
)]
#[case::unit_with_content(
    r#"{"Fish":1}"#,
    "invalid type: integer `1`, expected unit at line 1 column 9"
)]
fn external_fallback_errors(#[case] text: &str, #[case] message: &str) {
    let err = serde_json::from_str::<Open>(text).unwrap_err();
    assert_eq!(err.to_string(), message);
}

/// `Tagged`: one payload written alone, as its enum writes that variant,
/// and read back through the enum, in both forms.
#[rstest]
fn tagged_payloads_write_as_their_variant(
    #[values(Format::Json, Format::Cbor, Format::Postcard, Format::Bincode)] format: Format,
) {
    use json_subtypes::Tagged;
    let alone = format.write(&Tagged::<_, ours::external::Animal>::new(&cat()));
    assert_eq!(alone, format.write(&ours::external::Animal::Cat(cat())));
    let read: Tagged<Cat, ours::external::Animal> = format.read(&alone).unwrap();
    assert_eq!(read.into_inner(), cat());
    let alone = format.write(&Tagged::<_, ours::adjacent::Animal>::new(&cat()));
    assert_eq!(alone, format.write(&ours::adjacent::Animal::Cat(cat())));
    let read: Tagged<Cat, ours::adjacent::Animal> = format.read(&alone).unwrap();
    assert_eq!(read.into_inner(), cat());
}
