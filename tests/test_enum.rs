//! Enums with string tags: writing, reading in every tag position, serde
//! attributes on payloads and struct variants, and a differential check
//! against serde's own `#[serde(tag = "...")]` on a twin enum.

mod common;

use common::points_into;
use std::collections::{BTreeMap, HashMap};

use json_subtypes::json_subtypes;
use rstest::rstest;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Dog {
    name: String,
    #[serde(default)]
    age: u32,
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    toys: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Cat {
    lives_left: u8,
    indoor: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Empty {}

#[json_subtypes(tag = "type")]
#[derive(Debug, Clone, PartialEq)]
enum Animal {
    Dog(Dog),
    #[json_subtypes(name = "cat", alias = "kitty", alias = "puss")]
    Cat(Cat),
    Bird {
        name: String,
        #[serde(rename = "wingspan")]
        wingspan_cm: f32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ring: Option<u32>,
    },
    Fish,
    Nothing(Empty),
}

/// The same wire format written with serde's internally tagged enums.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type")]
enum SerdeAnimal {
    Dog(Dog),
    #[serde(rename = "cat", alias = "kitty", alias = "puss")]
    Cat(Cat),
    Bird {
        name: String,
        #[serde(rename = "wingspan")]
        wingspan_cm: f32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ring: Option<u32>,
    },
    Fish,
    Nothing(Empty),
}

fn twin(a: &Animal) -> SerdeAnimal {
    match a.clone() {
        Animal::Dog(d) => SerdeAnimal::Dog(d),
        Animal::Cat(c) => SerdeAnimal::Cat(c),
        Animal::Bird {
            name,
            wingspan_cm,
            ring,
        } => SerdeAnimal::Bird {
            name,
            wingspan_cm,
            ring,
        },
        Animal::Fish => SerdeAnimal::Fish,
        Animal::Nothing(e) => SerdeAnimal::Nothing(e),
    }
}

fn animals() -> Vec<Animal> {
    let mut out = Vec::new();
    for i in 0..40u32 {
        out.push(match i % 5 {
            0 => Animal::Dog(Dog {
                name: format!("dog \"{i}\"\n"),
                age: i,
                toys: (0..i % 3).map(|t| format!("toy{t}")).collect(),
            }),
            1 => Animal::Cat(Cat {
                lives_left: (i % 9) as u8,
                indoor: i % 2 == 0,
            }),
            2 => Animal::Bird {
                name: format!("bird{i}"),
                wingspan_cm: i as f32 * 1.5,
                ring: if i % 3 == 0 { None } else { Some(i * 1000) },
            },
            3 => Animal::Fish,
            _ => Animal::Nothing(Empty {}),
        });
    }
    out
}

#[test]
fn writes_exactly_what_serde_writes() {
    for animal in animals() {
        let ours = serde_json::to_string(&animal).unwrap();
        let theirs = serde_json::to_string(&twin(&animal)).unwrap();
        assert_eq!(ours, theirs);
        let ours = serde_json::to_string_pretty(&animal).unwrap();
        let theirs = serde_json::to_string_pretty(&twin(&animal)).unwrap();
        assert_eq!(ours, theirs);
    }
}

#[test]
fn round_trips() {
    for animal in animals() {
        let text = serde_json::to_string(&animal).unwrap();
        let back: Animal = serde_json::from_str(&text).unwrap();
        assert_eq!(back, animal);
        let value = serde_json::to_value(&animal).unwrap();
        let back: Animal = serde_json::from_value(value).unwrap();
        assert_eq!(back, animal);
    }
}

/// serde's own buffer cannot hold serde_json's arbitrary-precision numbers
/// (serde-rs/serde#1183): with that feature on, the twin is no reference.
const SERDE_BUFFERS_NUMBERS: bool = !cfg!(feature = "arbitrary_precision");

/// Moves the tag entry of a serialized object to position `at` (clamped).
fn move_tag(object: &serde_json::Value, at: usize) -> String {
    let map = object.as_object().unwrap();
    let mut entries: Vec<(String, serde_json::Value)> = map
        .iter()
        .filter(|(k, _)| k.as_str() != "type")
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let at = at.min(entries.len());
    entries.insert(at, ("type".to_owned(), map["type"].clone()));
    let body: Vec<String> = entries
        .iter()
        .map(|(k, v)| format!("{}:{}", serde_json::to_string(k).unwrap(), v))
        .collect();
    format!("{{{}}}", body.join(","))
}

/// Reading agrees with serde's internally tagged enum wherever the tag is.
#[rstest]
fn reads_like_serde_in_every_tag_position(#[values(0, 1, 2, 99)] at: usize) {
    for animal in animals() {
        let value = serde_json::to_value(&animal).unwrap();
        let text = move_tag(&value, at);
        let ours: Animal = serde_json::from_str(&text).unwrap();
        assert_eq!(ours, animal, "{text}");
        if SERDE_BUFFERS_NUMBERS {
            let theirs: SerdeAnimal = serde_json::from_str(&text).unwrap();
            assert_eq!(twin(&ours), theirs, "{text}");
        }
    }
}

/// Inputs serde's internally tagged enum accepts or rejects, ours the same.
#[rstest]
#[case::extra_field_first(r#"{"extra":[1,{"a":null}],"type":"Dog","name":"a"}"#)]
#[case::extra_field_last(r#"{"type":"Dog","name":"a","extra":{"b":[true]}}"#)]
#[case::alias(r#"{"type":"kitty","livesLeft":3,"indoor":false}"#)]
#[case::second_alias(r#"{"livesLeft":3,"type":"puss","indoor":false}"#)]
#[case::unit_with_fields(r#"{"a":1,"type":"Fish","b":2}"#)]
#[case::empty_payload(r#"{"type":"Nothing"}"#)]
#[case::empty_payload_with_field(r#"{"type":"Nothing","x":1}"#)]
#[case::defaults(r#"{"type":"Dog","name":"a"}"#)]
#[case::struct_variant_default(r#"{"wingspan":1.5,"name":"b","type":"Bird"}"#)]
#[case::sequence_form(r#"["Dog","a",3,["ball"]]"#)]
#[case::sequence_form_struct_variant(r#"["Bird","b",2.5,7]"#)]
#[case::sequence_form_unit(r#"["Fish"]"#)]
#[case::escaped_key(r#"{"\u0074ype":"Dog","name":"a"}"#)]
#[case::escaped_tag_value(r#"{"name":"a","type":"D\u006fg"}"#)]
#[case::missing_payload_field(r#"{"type":"Dog"}"#)]
#[case::wrong_payload_type(r#"{"name":"a","type":"Dog","age":"old"}"#)]
#[case::unknown_tag(r#"{"type":"Cow"}"#)]
#[case::missing_tag(r#"{"name":"a"}"#)]
#[case::null_tag(r#"{"type":null,"name":"a"}"#)]
#[case::array(r#"[]"#)]
#[case::string(r#""Dog""#)]
#[case::number(r#"3"#)]
fn accepts_and_rejects_like_serde(#[case] text: &str) {
    let ours = serde_json::from_str::<Animal>(text);
    let theirs = serde_json::from_str::<SerdeAnimal>(text);
    if !SERDE_BUFFERS_NUMBERS && ours.is_ok() {
        return;
    }
    match (&ours, &theirs) {
        (Ok(a), Ok(b)) => assert_eq!(&twin(a), b),
        (Err(_), Err(_)) => {}
        _ => panic!("{text}: ours {ours:?}, serde {theirs:?}"),
    }
}

#[rstest]
#[case::unknown_tag(
    r#"{"type":"Cow","name":"a"}"#,
    r#"unknown subtype tag "Cow", expected one of "Dog", "cat", "kitty", "puss", "Bird", "Fish", "Nothing" at line 1 column 13"#
)]
#[case::unknown_tag_last(
    r#"{"name":"a","type":"Cow"}"#,
    r#"unknown subtype tag "Cow", expected one of "Dog", "cat", "kitty", "puss", "Bird", "Fish", "Nothing" at line 1 column 24"#
)]
#[case::missing_tag(r#"{"name":"a"}"#, "missing field `type` at line 1 column 12")]
#[case::empty_object("{}", "missing field `type` at line 1 column 2")]
#[case::duplicate_tag_right_after(
    r#"{"type":"Dog","type":"Dog","name":"a"}"#,
    "duplicate field `type` at line 1 column 20"
)]
#[case::duplicate_tag_at_end(
    r#"{"type":"Dog","name":"a","type":"cat"}"#,
    "duplicate field `type` at line 1 column 31"
)]
#[case::duplicate_tag_after_prefix(
    r#"{"name":"a","type":"Dog","age":1,"type":"Dog"}"#,
    "duplicate field `type` at line 1 column 39"
)]
#[case::duplicate_tag_in_unit_variant(
    r#"{"type":"Fish","type":"Fish"}"#,
    "duplicate field `type` at line 1 column 21"
)]
#[case::null_tag(
    r#"{"type":null}"#,
    r#"invalid type: null, expected a subtype tag in `type`, one of "Dog", "cat", "kitty", "puss", "Bird", "Fish", "Nothing" at line 1 column 12"#
)]
#[case::object_tag(
    r#"{"type":{"a":1}}"#,
    r#"invalid type: map, expected a subtype tag in `type`, one of "Dog", "cat", "kitty", "puss", "Bird", "Fish", "Nothing" at line 1 column 12"#
)]
#[case::array_tag(
    r#"{"type":["Dog"]}"#,
    r#"invalid type: sequence, expected a subtype tag in `type`, one of "Dog", "cat", "kitty", "puss", "Bird", "Fish", "Nothing" at line 1 column 9"#
)]
#[case::number_tag(
    r#"{"type":3}"#,
    r#"unknown subtype tag 3, expected one of "Dog", "cat", "kitty", "puss", "Bird", "Fish", "Nothing" at line 1 column 9"#
)]
#[case::float_tag(
    r#"{"type":1.0}"#,
    r#"unknown subtype tag 1.0, expected one of "Dog", "cat", "kitty", "puss", "Bird", "Fish", "Nothing" at line 1 column 11"#
)]
#[case::body_error_tag_first(
    r#"{"type":"Dog","name":"a","age":"old"}"#,
    r#"invalid type: string "old", expected u32 at line 1 column 36"#
)]
#[case::body_error_tag_last(
    "{\"age\":\"old\",\n\"name\":\"a\",\n\"type\":\"Dog\"}",
    r#"invalid type: string "old", expected u32 at line 3 column 13"#
)]
#[case::body_missing_field(r#"{"type":"Dog"}"#, "missing field `name` at line 1 column 14")]
#[case::struct_variant_missing_field(
    r#"{"type":"Bird","name":"a"}"#,
    "missing field `wingspan` at line 1 column 26"
)]
#[case::not_a_map(
    r#""Dog""#,
    r#"invalid type: string "Dog", expected a map with a `type` tag for Animal at line 1 column 5"#
)]
#[case::empty_array(
    "[]",
    "invalid length 0, expected a map with a `type` tag for Animal at line 1 column 2"
)]
#[case::trailing_garbage(r#"{"type":"Fish"} x"#, "trailing characters at line 1 column 17")]
fn errors(#[case] text: &str, #[case] message: &str) {
    let err = serde_json::from_str::<Animal>(text).unwrap_err();
    assert_eq!(err.to_string(), message);
}

/// A known tag with an invalid body reports the body's error, in the buffered
/// prefix too, with the field's name.
#[test]
fn body_errors_name_the_field() {
    let err =
        serde_json::from_str::<Animal>(r#"{"lives":1,"type":"cat","indoor":true}"#).unwrap_err();
    assert_eq!(
        err.to_string(),
        "missing field `livesLeft` at line 1 column 38"
    );
    let err =
        serde_json::from_str::<Animal>(r#"{"indoor":1,"type":"cat","livesLeft":1}"#).unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid type: integer `1`, expected a boolean at line 1 column 24"
    );
}

// ---------------------------------------------------------------------------
// rename_all, with every rule serde has.

macro_rules! renamed {
    ($name:ident, $rule:literal) => {
        #[json_subtypes(tag = "t", rename_all = $rule)]
        #[derive(Debug, PartialEq)]
        enum $name {
            HttpRequest,
            #[json_subtypes(name = "kept")]
            KeepMe,
        }
    };
}

renamed!(Lower, "lowercase");
renamed!(Upper, "UPPERCASE");
renamed!(Pascal, "PascalCase");
renamed!(Camel, "camelCase");
renamed!(Snake, "snake_case");
renamed!(ScreamingSnake, "SCREAMING_SNAKE_CASE");
renamed!(Kebab, "kebab-case");
renamed!(ScreamingKebab, "SCREAMING-KEBAB-CASE");

#[rstest]
#[case(serde_json::to_string(&Lower::HttpRequest).unwrap(), "httprequest")]
#[case(serde_json::to_string(&Upper::HttpRequest).unwrap(), "HTTPREQUEST")]
#[case(serde_json::to_string(&Pascal::HttpRequest).unwrap(), "HttpRequest")]
#[case(serde_json::to_string(&Camel::HttpRequest).unwrap(), "httpRequest")]
#[case(serde_json::to_string(&Snake::HttpRequest).unwrap(), "http_request")]
#[case(serde_json::to_string(&ScreamingSnake::HttpRequest).unwrap(), "HTTP_REQUEST")]
#[case(serde_json::to_string(&Kebab::HttpRequest).unwrap(), "http-request")]
#[case(serde_json::to_string(&ScreamingKebab::HttpRequest).unwrap(), "HTTP-REQUEST")]
fn rename_all_rules(#[case] written: String, #[case] tag: &str) {
    assert_eq!(written, format!(r#"{{"t":"{tag}"}}"#));
}

#[test]
fn rename_all_reads_back_and_name_wins() {
    assert_eq!(
        serde_json::from_str::<Kebab>(r#"{"t":"http-request"}"#).unwrap(),
        Kebab::HttpRequest
    );
    assert_eq!(
        serde_json::from_str::<Kebab>(r#"{"t":"kept"}"#).unwrap(),
        Kebab::KeepMe
    );
    assert_eq!(
        serde_json::to_string(&Kebab::KeepMe).unwrap(),
        r#"{"t":"kept"}"#
    );
    assert!(serde_json::from_str::<Kebab>(r#"{"t":"HttpRequest"}"#).is_err());
}

// ---------------------------------------------------------------------------
// serde attributes on struct variant fields.

mod as_string {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &u64, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(v)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
        String::deserialize(d)?
            .parse()
            .map_err(serde::de::Error::custom)
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Meta {
    source: String,
    version: u32,
}

#[json_subtypes(tag = "kind", rename_all = "snake_case")]
#[derive(Debug, Clone, PartialEq)]
enum Record {
    Account {
        #[serde(with = "as_string")]
        id: u64,
        #[serde(rename = "displayName", alias = "display")]
        name: String,
        #[serde(default = "default_limit")]
        limit: i32,
        #[serde(skip_serializing_if = "Option::is_none", default)]
        note: Option<String>,
        #[serde(skip)]
        cache: Option<u8>,
        #[serde(flatten)]
        meta: Meta,
    },
    Extra {
        #[serde(flatten)]
        rest: BTreeMap<String, serde_json::Value>,
    },
}

fn default_limit() -> i32 {
    100
}

#[rstest]
#[case::tag_first(
    r#"{"kind":"account","id":"18446744073709551615","display":"Ann","source":"db","version":2}"#
)]
#[case::tag_last(r#"{"id":"18446744073709551615","displayName":"Ann","source":"db","version":2,"kind":"account"}"#)]
#[case::tag_middle(r#"{"id":"18446744073709551615","source":"db","kind":"account","version":2,"displayName":"Ann"}"#)]
fn struct_variant_field_attributes(#[case] text: &str) {
    let record: Record = serde_json::from_str(text).unwrap();
    let expected = Record::Account {
        id: u64::MAX,
        name: "Ann".into(),
        limit: 100,
        note: None,
        cache: None,
        meta: Meta {
            source: "db".into(),
            version: 2,
        },
    };
    assert_eq!(record, expected);
    assert_eq!(
        serde_json::to_string(&record).unwrap(),
        r#"{"kind":"account","id":"18446744073709551615","displayName":"Ann","limit":100,"source":"db","version":2}"#
    );
}

#[test]
fn flatten_map_collects_the_rest_but_not_the_tag() {
    let record: Record = serde_json::from_str(r#"{"a":1,"kind":"extra","b":[2]}"#).unwrap();
    let Record::Extra { rest } = &record else {
        panic!("{record:?}")
    };
    assert_eq!(rest.keys().collect::<Vec<_>>(), ["a", "b"]);
    assert_eq!(
        serde_json::to_string(&record).unwrap(),
        r#"{"kind":"extra","a":1,"b":[2]}"#
    );
    let back: Record = serde_json::from_str(&serde_json::to_string(&record).unwrap()).unwrap();
    assert_eq!(back, record);
}

#[test]
fn flatten_map_never_writes_a_second_tag() {
    let mut rest = BTreeMap::new();
    rest.insert("kind".to_owned(), serde_json::json!("forged"));
    let err = serde_json::to_string(&Record::Extra { rest }).unwrap_err();
    assert_eq!(
        err.to_string(),
        "cannot serialize Record::Extra: its field `kind` has the name of the tag"
    );
}

// ---------------------------------------------------------------------------
// Newtype payloads that are not structs.

#[json_subtypes(tag = "type")]
#[derive(Debug, Clone, PartialEq)]
enum Payloads {
    Map(BTreeMap<String, i64>),
    Text(String),
    Wrapped(Wrapper),
    Unit(()),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Wrapper(Dog);

#[test]
fn map_payloads_round_trip() {
    let mut m = BTreeMap::new();
    m.insert("a".to_owned(), -1);
    m.insert("b".to_owned(), 2);
    let value = Payloads::Map(m);
    let text = serde_json::to_string(&value).unwrap();
    assert_eq!(text, r#"{"type":"Map","a":-1,"b":2}"#);
    assert_eq!(serde_json::from_str::<Payloads>(&text).unwrap(), value);
    assert_eq!(
        serde_json::from_str::<Payloads>(r#"{"a":-1,"type":"Map","b":2}"#).unwrap(),
        value
    );
}

#[test]
fn newtype_struct_payloads_round_trip() {
    let value = Payloads::Wrapped(Wrapper(Dog {
        name: "a".into(),
        age: 1,
        toys: vec![],
    }));
    let text = serde_json::to_string(&value).unwrap();
    assert_eq!(text, r#"{"type":"Wrapped","name":"a","age":1}"#);
    assert_eq!(serde_json::from_str::<Payloads>(&text).unwrap(), value);
}

#[test]
fn unit_payload_round_trips() {
    let text = serde_json::to_string(&Payloads::Unit(())).unwrap();
    assert_eq!(text, r#"{"type":"Unit"}"#);
    assert_eq!(
        serde_json::from_str::<Payloads>(&text).unwrap(),
        Payloads::Unit(())
    );
    let err = serde_json::from_str::<Payloads>(r#"{"type":"Unit","x":1}"#).unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid type: map, expected unit at line 1 column 18"
    );
}

#[test]
fn payload_that_is_not_a_map_is_an_error_both_ways() {
    let err = serde_json::to_string(&Payloads::Text("hi".into())).unwrap_err();
    assert_eq!(
        err.to_string(),
        "cannot serialize tagged newtype variant Payloads::Text containing a string"
    );
    let err = serde_json::from_str::<Payloads>(r#"{"type":"Text"}"#).unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid type: map, expected a string at line 1 column 15"
    );
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Sneaky {
    #[serde(rename = "type")]
    kind: String,
}

#[json_subtypes(tag = "type")]
#[derive(Debug, Clone, PartialEq)]
enum Collides {
    Sneaky(Sneaky),
}

#[test]
fn payload_field_named_like_the_tag_is_an_error_not_a_duplicate_key() {
    let err = serde_json::to_string(&Collides::Sneaky(Sneaky { kind: "x".into() })).unwrap_err();
    assert_eq!(
        err.to_string(),
        "cannot serialize Collides::Sneaky: its field `type` has the name of the tag; add `visible` to Collides's `#[json_subtypes(tag = \"type\")]` so that the field is the tag"
    );
}

// ---------------------------------------------------------------------------
// Generic enums.

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Created<T> {
    id: u32,
    item: T,
}

#[json_subtypes(tag = "event")]
#[derive(Debug, Clone, PartialEq)]
enum Event<T, U = ()>
where
    T: Clone,
{
    Created(Created<T>),
    Updated { before: T, after: T, by: U },
    Deleted,
}

#[test]
fn generic_enums_round_trip() {
    let events: Vec<Event<String, u8>> = vec![
        Event::Created(Created {
            id: 1,
            item: "a".into(),
        }),
        Event::Updated {
            before: "a".into(),
            after: "b".into(),
            by: 7,
        },
        Event::Deleted,
    ];
    let text = serde_json::to_string(&events).unwrap();
    assert_eq!(
        text,
        r#"[{"event":"Created","id":1,"item":"a"},{"event":"Updated","before":"a","after":"b","by":7},{"event":"Deleted"}]"#
    );
    let back: Vec<Event<String, u8>> = serde_json::from_str(&text).unwrap();
    assert_eq!(back, events);
    let back: Event<Vec<u8>> =
        serde_json::from_str(r#"{"item":[1,2],"id":3,"event":"Created"}"#).unwrap();
    assert_eq!(
        back,
        Event::Created(Created {
            id: 3,
            item: vec![1, 2]
        })
    );
}

// ---------------------------------------------------------------------------
// Borrowing from the input.

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Note<'a> {
    title: &'a str,
    #[serde(borrow)]
    body: std::borrow::Cow<'a, str>,
}

#[json_subtypes(tag = "type")]
#[derive(Debug, PartialEq)]
enum Doc<'a> {
    #[json_subtypes(name = "note")]
    Note(#[serde(borrow)] Note<'a>),
    #[json_subtypes(name = "link")]
    Link { href: &'a str },
}

#[rstest]
#[case::tag_first(r#"{"type":"note","title":"hello","body":"world"}"#)]
#[case::tag_last(r#"{"title":"hello","body":"world","type":"note"}"#)]
#[case::tag_middle(r#"{"title":"hello","type":"note","body":"world"}"#)]
fn borrowed_fields_borrow_from_the_input(#[case] input: &str) {
    let doc: Doc = serde_json::from_str(input).unwrap();
    let Doc::Note(note) = &doc else { panic!() };
    assert!(points_into(note.title, input));
    assert!(matches!(note.body, std::borrow::Cow::Borrowed(b) if points_into(b, input)));
    assert_eq!(
        serde_json::to_string(&doc).unwrap(),
        r#"{"type":"note","title":"hello","body":"world"}"#
    );
}

#[rstest]
#[case::tag_first(r#"{"type":"link","href":"x"}"#)]
#[case::tag_last(r#"{"href":"x","type":"link"}"#)]
fn borrowed_struct_variant_fields(#[case] input: &str) {
    let doc: Doc = serde_json::from_str(input).unwrap();
    let Doc::Link { href } = doc else { panic!() };
    assert!(points_into(href, input));
}

/// A copied string whose bytes are the buffer's own codes (15 is a
/// borrowed string's, 17 borrowed bytes') comes before borrowed ones: the
/// replay reads it as text and the borrowed field still points into the
/// input (under Miri too: `scripts/miri.sh test_enum`).
#[test]
fn copied_bytes_like_the_buffers_codes_are_read_as_text() {
    let codes = r"\u000f\u0011".repeat(8);
    let input = format!(r#"{{"body":"{codes}","title":"hello","type":"note"}}"#);
    let doc: Doc = serde_json::from_str(&input).unwrap();
    let Doc::Note(note) = &doc else { panic!() };
    assert!(points_into(note.title, &input));
    assert_eq!(note.body, "\u{f}\u{11}".repeat(8));
    assert!(matches!(note.body, std::borrow::Cow::Owned(_)));
    assert_eq!(
        serde_json::to_string(&doc).unwrap(),
        format!(r#"{{"type":"note","title":"hello","body":"{codes}"}}"#)
    );
}

#[test]
fn escaped_strings_cannot_be_borrowed() {
    let err = serde_json::from_str::<Doc>(r#"{"href":"a\nb","type":"link"}"#).unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"invalid type: string "a\nb", expected a borrowed string at line 1 column 29"#
    );
}

/// serde#2371: `&'static str` fields make serde's derive read from
/// `'static` input only; the enum then reads from string literals.
#[json_subtypes(tag = "type")]
#[derive(Debug, PartialEq)]
enum Label {
    #[json_subtypes(name = "fixed")]
    Fixed {
        text: &'static str,
        hint: Option<&'static str>,
    },
    #[json_subtypes(name = "named")]
    Named(Named),
}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Named {
    #[serde(borrow)]
    name: std::borrow::Cow<'static, str>,
}

#[rstest]
#[case::tag_first(r#"{"type":"fixed","text":"hi","hint":"x"}"#)]
#[case::tag_last(r#"{"text":"hi","hint":"x","type":"fixed"}"#)]
fn static_str_fields_read_from_static_input(#[case] input: &'static str) {
    let label: Label = serde_json::from_str(input).unwrap();
    let Label::Fixed { text, hint } = &label else {
        panic!("{label:?}")
    };
    assert!(points_into(text, input));
    assert!(points_into(hint.unwrap(), input));
    assert_eq!(
        serde_json::to_string(&label).unwrap(),
        r#"{"type":"fixed","text":"hi","hint":"x"}"#
    );
}

#[rstest]
#[case::tag_first(r#"{"type":"named","name":"Rex"}"#)]
#[case::tag_last(r#"{"name":"Rex","type":"named"}"#)]
fn static_borrowed_payload_reads_from_static_input(#[case] input: &'static str) {
    let label: Label = serde_json::from_str(input).unwrap();
    let Label::Named(Named { name }) = &label else {
        panic!("{label:?}")
    };
    assert!(matches!(name, std::borrow::Cow::Borrowed(b) if points_into(b, input)));
    assert_eq!(
        serde_json::to_string(&label).unwrap(),
        r#"{"type":"named","name":"Rex"}"#
    );
}

// ---------------------------------------------------------------------------
// Payloads behind `Box`, `Rc` and `Arc` (serde's `rc` feature).

#[json_subtypes(tag = "type")]
#[derive(Debug, PartialEq)]
enum Kennel {
    Boxed(Box<Dog>),
    Counted(std::rc::Rc<Dog>),
    Shared(std::sync::Arc<Dog>),
}

fn rex() -> Dog {
    Dog {
        name: "Rex".into(),
        age: 3,
        toys: vec![],
    }
}

#[rstest]
#[case::boxed(Kennel::Boxed(Box::new(rex())), "Boxed")]
#[case::rc(Kennel::Counted(std::rc::Rc::new(rex())), "Counted")]
#[case::arc(Kennel::Shared(std::sync::Arc::new(rex())), "Shared")]
fn payloads_behind_pointers_read_and_write(#[case] value: Kennel, #[case] tag: &str) {
    let text = serde_json::to_string(&value).unwrap();
    assert_eq!(text, format!(r#"{{"type":"{tag}","name":"Rex","age":3}}"#));
    assert_eq!(serde_json::from_str::<Kennel>(&text).unwrap(), value);
    let last = format!(r#"{{"name":"Rex","age":3,"type":"{tag}"}}"#);
    assert_eq!(serde_json::from_str::<Kennel>(&last).unwrap(), value);
}

// ---------------------------------------------------------------------------
// 128-bit integers.

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Big {
    u: u128,
    i: i128,
}

#[json_subtypes(tag = "type")]
#[derive(Debug, Clone, PartialEq)]
enum Wide {
    Big(Big),
}

#[test]
fn u128_and_i128_survive_with_the_tag_first() {
    let value = Wide::Big(Big {
        u: u128::MAX,
        i: i128::MIN,
    });
    let text = serde_json::to_string(&value).unwrap();
    assert_eq!(
        text,
        format!(r#"{{"type":"Big","u":{},"i":{}}}"#, u128::MAX, i128::MIN)
    );
    assert_eq!(serde_json::from_str::<Wide>(&text).unwrap(), value);
}

#[test]
fn u128_and_i128_within_64_bits_survive_buffering() {
    let text = format!(r#"{{"u":{},"i":{},"type":"Big"}}"#, u64::MAX, i64::MIN);
    let value: Wide = serde_json::from_str(&text).unwrap();
    assert_eq!(
        value,
        Wide::Big(Big {
            u: u64::MAX.into(),
            i: i64::MIN.into()
        })
    );
    // serde's own buffer cannot even hold a 128-bit visit; the twin fails here.
}

#[test]
#[cfg(feature = "arbitrary_precision")]
fn wider_integers_before_the_tag_survive_with_arbitrary_precision() {
    let text = format!(r#"{{"u":{},"i":{},"type":"Big"}}"#, u128::MAX, i128::MIN);
    let value: Wide = serde_json::from_str(&text).unwrap();
    assert_eq!(
        value,
        Wide::Big(Big {
            u: u128::MAX,
            i: i128::MIN
        })
    );
}

#[test]
#[cfg(not(feature = "arbitrary_precision"))]
fn wider_integers_before_the_tag_are_an_error_never_a_wrong_value() {
    // serde_json reads an integer beyond 64 bits as f64 when the target type
    // is unknown, so once buffered it can only be refused (see the docs).
    let text = format!(r#"{{"u":{},"i":0,"type":"Big"}}"#, u128::MAX);
    let err = serde_json::from_str::<Wide>(&text).unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid type: floating point `3.402823669209385e+38`, expected u128 at line 1 column 64"
    );
}

/// `f64` fields before the tag read exactly as with the tag first, digits
/// beyond what an `f64` holds included: serde_json parses a number the same
/// way whether the type is known or not (`float_roundtrip` or not), and the
/// buffer keeps the `f64` it gave. (`f32` fields are rounded from that `f64`
/// once buffered; with `float_roundtrip` serde_json rounds the digits to
/// `f32` directly with the tag first, which can differ in the last bit.)
#[rstest]
#[case::shortest("0.1")]
#[case::long_mantissa("1.00000005960464477539062500001")]
#[case::halfway_f64("9007199254740993")]
#[case::beyond_u64("18446744073709551616")]
#[case::subnormal_boundary("2.2250738585072011e-308")]
#[case::largest("1.7976931348623157e308")]
#[case::many_digits("3.14159265358979323846264338327950288419716939937510582097494459")]
fn floats_before_the_tag_read_as_with_the_tag_first(#[case] digits: &str) {
    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Num {
        x: f64,
    }
    #[json_subtypes(tag = "type")]
    #[derive(Debug, PartialEq)]
    enum Numbers {
        Num(Num),
    }
    let plain: f64 = serde_json::from_str(digits).unwrap();
    for text in [
        format!(r#"{{"type":"Num","x":{digits}}}"#),
        format!(r#"{{"x":{digits},"type":"Num"}}"#),
    ] {
        let Numbers::Num(Num { x }) = serde_json::from_str(&text).unwrap();
        assert_eq!(x.to_bits(), plain.to_bits(), "{text}");
    }
}

/// The limit the crate docs state for `f32` fields: the dev-dependencies
/// switch on serde_json's `float_roundtrip`, which rounds the digits to `f32`
/// directly when the type is known (tag first); a buffered entry is rounded
/// from the `f64` serde_json read before it knew the type. With
/// `arbitrary_precision` the buffer keeps the digits and rounds them to `f32`
/// directly too.
#[test]
fn f32_fields_before_the_tag_are_rounded_through_f64() {
    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Single {
        x: f32,
    }
    #[json_subtypes(tag = "type")]
    #[derive(Debug, PartialEq)]
    enum Singles {
        Single(Single),
    }
    let read = |text: &str| match serde_json::from_str::<Singles>(text) {
        Ok(Singles::Single(Single { x })) => Ok(x),
        Err(e) => Err(e.to_string()),
    };
    // Just above the midpoint of 1.0 and the next f32; the f64 nearest to it
    // is the midpoint itself, which rounds to even.
    let digits = "1.00000005960464477539062500001";
    let next = f32::from_bits(1.0f32.to_bits() + 1);
    assert_eq!(
        read(&format!(r#"{{"type":"Single","x":{digits}}}"#)),
        Ok(next)
    );
    let buffered = if cfg!(feature = "arbitrary_precision") {
        next
    } else {
        1.0
    };
    assert_eq!(
        read(&format!(r#"{{"x":{digits},"type":"Single"}}"#)),
        Ok(buffered)
    );
    // Beyond f32's range.
    assert_eq!(
        read(r#"{"type":"Single","x":1e39}"#),
        Err("number out of range at line 1 column 25".to_owned())
    );
    assert_eq!(read(r#"{"x":1e39,"type":"Single"}"#), Ok(f32::INFINITY));
}

// ---------------------------------------------------------------------------
// Inside ordinary derived types.

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Zoo {
    name: String,
    star: Animal,
    maybe: Option<Animal>,
    animals: Vec<Animal>,
    by_name: HashMap<String, Animal>,
    #[serde(default)]
    nested: Vec<Vec<Option<Animal>>>,
}

#[test]
fn lives_inside_derived_types() {
    let mut by_name = HashMap::new();
    by_name.insert("tom".to_owned(), animals()[1].clone());
    let zoo = Zoo {
        name: "z".into(),
        star: animals()[0].clone(),
        maybe: None,
        animals: animals(),
        by_name,
        nested: vec![vec![None, Some(Animal::Fish)]],
    };
    let text = serde_json::to_string(&zoo).unwrap();
    let back: Zoo = serde_json::from_str(&text).unwrap();
    assert_eq!(back, zoo);

    let text = r#"{"name":"z","star":{"name":"a","type":"Dog"},"maybe":{"type":"Fish"},
        "animals":[{"indoor":true,"type":"cat","livesLeft":1}],"by_name":{}}"#;
    let zoo: Zoo = serde_json::from_str(text).unwrap();
    assert_eq!(zoo.maybe, Some(Animal::Fish));
    assert_eq!(
        zoo.animals,
        vec![Animal::Cat(Cat {
            lives_left: 1,
            indoor: true
        })]
    );
}

#[test]
fn errors_inside_derived_types_keep_their_position() {
    let text = "{\"name\":\"z\",\n\"star\":{\"type\":\"Cow\"}}";
    let err = serde_json::from_str::<Zoo>(text).unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"unknown subtype tag "Cow", expected one of "Dog", "cat", "kitty", "puss", "Bird", "Fish", "Nothing" at line 2 column 20"#
    );
}

/// Values nested inside the buffered prefix (objects in arrays in objects)
/// replay exactly.
#[test]
fn deep_prefix_values_replay_exactly() {
    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Anything {
        v: serde_json::Value,
        #[serde(default)]
        w: Option<Vec<Option<i8>>>,
    }
    #[json_subtypes(tag = "type")]
    #[derive(Debug, PartialEq)]
    enum Holder {
        Anything(Anything),
    }
    let v = serde_json::json!({
        "a": [1, -2, 3.5, "x\ny", null, true, {"b": {"c": [[], {}]}}],
        "big": 18446744073709551615u64,
        "neg": -9223372036854775808i64,
    });
    let text = format!(r#"{{"v":{v},"w":[1,null,-3],"type":"Anything"}}"#);
    let Holder::Anything(got) = serde_json::from_str(&text).unwrap();
    assert_eq!(got.v, v);
    assert_eq!(got.w, Some(vec![Some(1), None, Some(-3)]));
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Scores {
    by_id: BTreeMap<u32, u8>,
    by_delta: BTreeMap<i64, String>,
    by_wide: BTreeMap<u128, bool>,
    by_flag: BTreeMap<bool, u8>,
}

#[json_subtypes(tag = "type")]
#[derive(Debug, Clone, PartialEq)]
enum Keyed {
    #[json_subtypes(name = "scores")]
    Scores(Scores),
    /// The payload is itself the map: its keys are the object's own.
    #[json_subtypes(name = "table")]
    Table(BTreeMap<u16, String>),
}

// serde_json reads a quoted number or bool as a key of that type. With the
// tag last the keys are buffered first, and serde's own buffering (its
// internally tagged enums) then refuses them; ours parses them as serde_json
// would have.
#[rstest]
#[case::tag_first(
    r#"{"type":"scores","by_id":{"7":1,"12":2},"by_delta":{"-3":"a"},"by_wide":{"340282366920938463463374607431768211455":true},"by_flag":{"true":1,"false":0}}"#
)]
#[case::tag_last(
    r#"{"by_id":{"7":1,"12":2},"by_delta":{"-3":"a"},"by_wide":{"340282366920938463463374607431768211455":true},"by_flag":{"true":1,"false":0},"type":"scores"}"#
)]
#[case::tag_between(
    r#"{"by_id":{"7":1,"12":2},"by_delta":{"-3":"a"},"type":"scores","by_wide":{"340282366920938463463374607431768211455":true},"by_flag":{"true":1,"false":0}}"#
)]
fn quoted_number_and_bool_keys_read_wherever_the_tag_is(#[case] text: &str) {
    let value: Keyed = serde_json::from_str(text).unwrap();
    let expected = Keyed::Scores(Scores {
        by_id: [(7, 1), (12, 2)].into(),
        by_delta: [(-3, "a".to_owned())].into(),
        by_wide: [(u128::MAX, true)].into(),
        by_flag: [(true, 1), (false, 0)].into(),
    });
    assert_eq!(value, expected);
    let written = serde_json::to_string(&value).unwrap();
    assert_eq!(serde_json::from_str::<Keyed>(&written).unwrap(), expected);
}

#[rstest]
#[case::tag_first(r#"{"type":"table","1":"a","65535":"b"}"#)]
#[case::tag_last(r#"{"1":"a","65535":"b","type":"table"}"#)]
fn a_map_payload_reads_its_own_quoted_number_keys(#[case] text: &str) {
    let value: Keyed = serde_json::from_str(text).unwrap();
    assert_eq!(
        value,
        Keyed::Table([(1, "a".to_owned()), (65535, "b".to_owned())].into())
    );
    assert_eq!(
        serde_json::to_string(&value).unwrap(),
        r#"{"type":"table","1":"a","65535":"b"}"#
    );
}

#[rstest]
#[case::not_a_number_first(
    r#"{"type":"table","x":"a"}"#,
    "invalid value: expected key to be a number in quotes at line 1 column 17"
)]
#[case::not_a_number_last(
    r#"{"x":"a","type":"table"}"#,
    "invalid value: expected key to be a number in quotes at line 1 column 24"
)]
#[case::out_of_range_first(
    r#"{"type":"table","65536":"a"}"#,
    "invalid value: integer `65536`, expected u16 at line 1 column 22"
)]
#[case::out_of_range_last(
    r#"{"65536":"a","type":"table"}"#,
    "invalid value: integer `65536`, expected u16 at line 1 column 28"
)]
#[case::leading_zero_last(
    r#"{"01":"a","type":"table"}"#,
    "invalid value: expected key to be a number in quotes at line 1 column 25"
)]
#[case::not_a_bool_last(
    r#"{"by_id":{},"by_delta":{},"by_wide":{},"by_flag":{"yes":1},"type":"scores"}"#,
    r#"invalid type: string "yes", expected a boolean at line 1 column 75"#
)]
fn keys_that_are_not_numbers_are_errors(#[case] text: &str, #[case] message: &str) {
    let err = serde_json::from_str::<Keyed>(text).unwrap_err();
    assert_eq!(err.to_string(), message);
}
