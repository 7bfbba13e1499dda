//! Trait objects: `#[json_subtypes]` on a trait and its impls, an inventory
//! registry built once on first use, registrations from another crate.

use std::sync::Arc;

use json_subtypes::{json_subtypes, Unknown};
use json_subtypes_test_plugins::Plugin;
use rstest::rstest;
use serde::{Deserialize, Serialize};

#[json_subtypes(tag = "type")]
trait Shape: std::fmt::Debug + Send + Sync {
    fn area(&self) -> f64;
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Circle {
    r: f64,
}

#[json_subtypes(name = "circle", alias = "round", alias = 0)]
impl Shape for Circle {
    fn area(&self) -> f64 {
        3.0 * self.r * self.r
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Square {
    side: f64,
}

#[json_subtypes(name = 4)]
impl Shape for Square {
    fn area(&self) -> f64 {
        self.side * self.side
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Dot {}

#[json_subtypes(name = false)]
impl Shape for Dot {
    fn area(&self) -> f64 {
        0.0
    }
}

/// The default name is the type's name.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Triangle {
    base: f64,
    height: f64,
}

#[json_subtypes]
impl Shape for Triangle {
    fn area(&self) -> f64 {
        self.base * self.height / 2.0
    }
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(transparent)]
struct OtherShape(Unknown);

#[json_subtypes(fallback)]
impl Shape for OtherShape {
    fn area(&self) -> f64 {
        f64::NAN
    }
}

#[rstest]
#[case::string_first(r#"{"type":"circle","r":1.0}"#, 3.0)]
#[case::string_last(r#"{"r":1.0,"type":"circle"}"#, 3.0)]
#[case::alias(r#"{"r":1.0,"type":"round"}"#, 3.0)]
#[case::int_alias(r#"{"type":0,"r":1.0}"#, 3.0)]
#[case::int(r#"{"side":2.0,"type":4}"#, 4.0)]
#[case::bool(r#"{"type":false}"#, 0.0)]
#[case::default_name(r#"{"base":2.0,"type":"Triangle","height":3.0}"#, 3.0)]
fn reads_every_name_kind(#[case] text: &str, #[case] area: f64) {
    let shape: Box<dyn Shape> = serde_json::from_str(text).unwrap();
    assert_eq!(shape.area(), area);
}

#[rstest]
#[case(Box::new(Circle { r: 1.0 }) as Box<dyn Shape>, r#"{"type":"circle","r":1.0}"#)]
#[case(Box::new(Square { side: 2.0 }), r#"{"type":4,"side":2.0}"#)]
#[case(Box::new(Dot {}), r#"{"type":false}"#)]
#[case(Box::new(Triangle { base: 1.0, height: 2.0 }), r#"{"type":"Triangle","base":1.0,"height":2.0}"#)]
fn writes_the_tag_first_and_round_trips(#[case] shape: Box<dyn Shape>, #[case] text: &str) {
    assert_eq!(serde_json::to_string(&shape).unwrap(), text);
    let back: Box<dyn Shape> = serde_json::from_str(text).unwrap();
    assert_eq!(serde_json::to_string(&back).unwrap(), text);
    // References, Arc and Rc serialize the same way.
    let by_ref: &dyn Shape = &*shape;
    assert_eq!(serde_json::to_string(by_ref).unwrap(), text);
    let shared: Arc<dyn Shape> = Arc::from(back);
    assert_eq!(serde_json::to_string(&shared).unwrap(), text);
}

#[test]
fn unknown_tags_land_in_the_fallback_unchanged() {
    let text = r#"{"sides":6,"type":"hexagon"}"#;
    let shape: Box<dyn Shape> = serde_json::from_str(text).unwrap();
    assert!(shape.area().is_nan());
    assert_eq!(serde_json::to_string(&shape).unwrap(), text);
    let missing = r#"{"sides":6}"#;
    let shape: Box<dyn Shape> = serde_json::from_str(missing).unwrap();
    assert_eq!(serde_json::to_string(&shape).unwrap(), missing);
}

#[rstest]
#[case::bad_body(
    r#"{"type":"circle","r":"big"}"#,
    r#"invalid type: string "big", expected f64 at line 1 column 26"#
)]
#[case::bad_body_last(
    r#"{"r":"big","type":"circle"}"#,
    r#"invalid type: string "big", expected f64 at line 1 column 27"#
)]
#[case::missing_field(r#"{"type":"circle"}"#, "missing field `r` at line 1 column 17")]
#[case::duplicate(
    r#"{"type":"circle","r":1,"type":4}"#,
    "duplicate field `type` at line 1 column 29"
)]
#[case::duplicate_prefix(
    r#"{"r":1,"type":"circle","type":"circle"}"#,
    "duplicate field `type` at line 1 column 29"
)]
fn errors_keep_their_positions(#[case] text: &str, #[case] message: &str) {
    let err = serde_json::from_str::<Box<dyn Shape>>(text).unwrap_err();
    assert_eq!(err.to_string(), message);
}

#[derive(Debug, Serialize, Deserialize)]
struct Drawing {
    name: String,
    shapes: Vec<Box<dyn Shape>>,
    main: Option<Box<dyn Shape>>,
}

#[test]
fn inside_derived_types() {
    let text = r#"{"name":"d","shapes":[{"type":"circle","r":1.0},{"type":4,"side":1.0}],"main":{"type":false}}"#;
    let drawing: Drawing = serde_json::from_str(text).unwrap();
    assert_eq!(drawing.shapes.len(), 2);
    assert_eq!(serde_json::to_string(&drawing).unwrap(), text);
}

// An impl without `#[json_subtypes]` is legal (a profile may register it),
// so the registry meets it only at run time: the messages name both fixes,
// with the type's own name.

/// No fallback: an unknown tag is an error.
#[json_subtypes(tag = "type")]
trait Panel: std::fmt::Debug {
    fn width(&self) -> u8;
}

#[derive(Debug, Serialize, Deserialize)]
struct Frame {
    width: u8,
}

#[json_subtypes(name = "frame", alias = 7)]
impl Panel for Frame {
    fn width(&self) -> u8 {
        self.width
    }
}

mod panels {
    use serde::{Deserialize, Serialize};

    #[derive(Debug, Serialize, Deserialize)]
    pub struct Blob {
        pub width: u8,
    }

    impl super::Panel for Blob {
        fn width(&self) -> u8 {
            self.width
        }
    }

    /// Generic: its name's parameters lose their modules too.
    #[derive(Debug, Serialize, Deserialize)]
    pub struct Tile<T>(pub T);

    impl super::Panel for Tile<Blob> {
        fn width(&self) -> u8 {
            self.0.width
        }
    }
}

#[rstest]
#[case::plain(
    Box::new(panels::Blob { width: 1 }),
    "cannot serialize Blob: its type is not a registered subtype of dyn Panel; put `#[json_subtypes(name = ...)]` on `impl Panel for Blob`, or write it with a `Profile` that registers it"
)]
#[case::generic(
    Box::new(panels::Tile(panels::Blob { width: 1 })),
    "cannot serialize Tile<Blob>: its type is not a registered subtype of dyn Panel; put `#[json_subtypes(name = ...)]` on `impl Panel for Tile<Blob>`, or write it with a `Profile` that registers it"
)]
fn an_unregistered_impl_names_both_fixes_on_write(
    #[case] panel: Box<dyn Panel>,
    #[case] message: &str,
) {
    assert_eq!(
        serde_json::to_string(&panel).unwrap_err().to_string(),
        message
    );
    // The erased writer says the same.
    assert_eq!(
        serde_json::to_value(&panel).unwrap_err().to_string(),
        message
    );
}

#[rstest]
#[case::string_tag(
    r#"{"type":"Blob","width":1}"#,
    r#"unknown subtype tag "Blob", expected one of "frame", 7; to read a type under this tag, put `#[json_subtypes(name = "Blob")]` on its `impl Panel`, or read it with a `Profile` that registers it at line 1 column 14"#
)]
#[case::int_tag_last(
    r#"{"width":1,"type":5}"#,
    r#"unknown subtype tag 5, expected one of "frame", 7; to read a type under this tag, put `#[json_subtypes(name = 5)]` on its `impl Panel`, or read it with a `Profile` that registers it at line 1 column 19"#
)]
#[case::not_a_tag(
    r#"{"type":1.5,"width":1}"#,
    r#"unknown subtype tag 1.5, expected one of "frame", 7 at line 1 column 11"#
)]
fn an_unknown_tag_names_both_fixes_on_read(#[case] text: &str, #[case] message: &str) {
    let err = serde_json::from_str::<Box<dyn Panel>>(text).unwrap_err();
    assert_eq!(err.to_string(), message);
    // The erased reader (a `Value`) says the same, without a position.
    let tree: serde_json::Value = serde_json::from_str(text).unwrap();
    let err = serde_json::from_value::<Box<dyn Panel>>(tree).unwrap_err();
    assert_eq!(err.to_string(), message.split(" at line").next().unwrap());
}

/// Either fix works: a profile that registers the impl reads and writes it.
#[test]
fn a_profile_registers_an_impl_without_the_attribute() {
    let profile = json_subtypes::Profile::<dyn Panel>::builder_from_registry()
        .subtype::<panels::Blob>("Blob")
        .build()
        .unwrap();
    let text = r#"{"type":"Blob","width":1}"#;
    let blob = profile.from_str(text).unwrap();
    assert_eq!(profile.to_string(&*blob).unwrap(), text);
    assert_eq!(
        profile.from_str(r#"{"type":7,"width":2}"#).unwrap().width(),
        2
    );
}

#[test]
fn a_clean_registry_verifies() {
    json_subtypes::verify_registry::<dyn Shape>().unwrap();
    json_subtypes::verify_registry::<dyn Plugin>().unwrap();
}

// Registrations across crates: the trait and two impls live in a dependency,
// one more impl here.

#[derive(Debug, Serialize, Deserialize)]
struct Shout {
    text: String,
}

#[json_subtypes(name = "shout")]
impl Plugin for Shout {
    fn run(&self) -> String {
        self.text.to_uppercase()
    }
}

#[rstest]
#[case(r#"{"plugin":"echo","text":"hi"}"#, "hi")]
#[case(r#"{"to":3,"plugin":2}"#, "1,2,3")]
#[case(r#"{"plugin":"shout","text":"hi"}"#, "HI")]
fn sees_registrations_from_other_crates(#[case] text: &str, #[case] out: &str) {
    let plugin: Box<dyn Plugin> = serde_json::from_str(text).unwrap();
    assert_eq!(plugin.run(), out);
    let again: Box<dyn Plugin> =
        serde_json::from_str(&serde_json::to_string(&plugin).unwrap()).unwrap();
    assert_eq!(again.run(), out);
}

#[test]
fn unknown_tag_lists_the_registered_ones() {
    let err = serde_json::from_str::<Box<dyn Plugin>>(r#"{"plugin":"nope"}"#).unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"unknown subtype tag "nope", expected one of 2, "echo", "shout"; to read a type under this tag, put `#[json_subtypes(name = "nope")]` on its `impl Plugin`, or read it with a `Profile` that registers it at line 1 column 16"#
    );
}

// Presence mode on a trait.

#[json_subtypes]
trait Step: std::fmt::Debug {
    fn describe(&self) -> String;
}

#[derive(Debug, Serialize, Deserialize)]
struct Move {
    dx: i32,
}

#[json_subtypes(when_field = "dx")]
impl Step for Move {
    fn describe(&self) -> String {
        format!("move {}", self.dx)
    }
}

#[derive(Debug, Serialize, Deserialize)]
struct Say {
    words: String,
}

#[json_subtypes(when_field = "words", when_field = "text")]
impl Step for Say {
    fn describe(&self) -> String {
        format!("say {}", self.words)
    }
}

#[rstest]
#[case(r#"{"dx":3}"#, "move 3")]
#[case(r#"{"words":"hi"}"#, "say hi")]
fn presence_mode_traits(#[case] text: &str, #[case] out: &str) {
    let step: Box<dyn Step> = serde_json::from_str(text).unwrap();
    assert_eq!(step.describe(), out);
    assert_eq!(serde_json::to_string(&step).unwrap(), text);
}

#[test]
fn presence_mode_trait_errors() {
    let err = serde_json::from_str::<Box<dyn Step>>(r#"{"dx":1,"words":"a"}"#).unwrap_err();
    assert_eq!(
        err.to_string(),
        "ambiguous subtype of dyn Step: the fields match both Move and Say at line 1 column 20"
    );
    let err = serde_json::from_str::<Box<dyn Step>>(r#"{"x":1}"#).unwrap_err();
    assert_eq!(
        err.to_string(),
        "no subtype of dyn Step matches: expected one of the fields `dx`, `words`, `text` at line 1 column 7"
    );
}

// An empty registry.

#[json_subtypes(tag = "kind")]
trait Lonely {}

#[test]
fn an_empty_registry_says_so() {
    let Err(err) = serde_json::from_str::<Box<dyn Lonely>>(r#"{"kind":"x"}"#) else {
        panic!("read from an empty registry")
    };
    assert!(
        err.to_string()
            .starts_with("no subtypes are registered for dyn Lonely"),
        "{err}"
    );
    let err = json_subtypes::verify_registry::<dyn Lonely>().unwrap_err();
    assert!(err
        .to_string()
        .contains("no subtypes are registered for dyn Lonely"));
}

#[test]
fn racing_first_use_from_64_threads() {
    #[json_subtypes(tag = "t")]
    trait Raced: Send {
        fn id(&self) -> u32;
    }
    #[derive(Serialize, Deserialize)]
    struct A {
        id: u32,
    }
    #[json_subtypes(name = "a")]
    impl Raced for A {
        fn id(&self) -> u32 {
            self.id
        }
    }
    let barrier = Arc::new(std::sync::Barrier::new(64));
    let threads: Vec<_> = (0..64u32)
        .map(|i| {
            let barrier = barrier.clone();
            std::thread::spawn(move || {
                barrier.wait();
                let text = format!(r#"{{"id":{i},"t":"a"}}"#);
                let value: Box<dyn Raced> = serde_json::from_str(&text).unwrap();
                assert_eq!(value.id(), i);
                std::ptr::addr_of!(*<dyn Raced as json_subtypes::__private::Registered>::registry())
                    as usize
            })
        })
        .collect();
    let tables: Vec<usize> = threads.into_iter().map(|t| t.join().unwrap()).collect();
    assert!(
        tables.iter().all(|t| *t == tables[0]),
        "one table for all threads"
    );
}

// ---------------------------------------------------------------------------
// Every shape of serde's data model crosses the type-erased boundary
// between the engine and a registered type's reader.

#[json_subtypes(tag = "kind")]
trait Record: std::fmt::Debug {
    fn as_any(&self) -> &dyn std::any::Any;
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
enum Mode {
    Off,
    Level(u8),
    Pair(i16, i16),
    Span { from: u32, to: u32 },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Meters(f32);

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Marker;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Inner {
    label: String,
    weight: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Everything {
    flag: bool,
    small: i8,
    big: i128,
    huge: u128,
    letter: char,
    text: String,
    none: Option<u32>,
    some: Option<Inner>,
    modes: Vec<Mode>,
    pair: (u16, String),
    length: Meters,
    marker: Marker,
    unit: (),
    by_id: std::collections::BTreeMap<u64, String>,
    grid: Vec<Vec<i64>>,
    #[serde(with = "serde_bytes_as_seq")]
    bytes: Vec<u8>,
    /// Written as text only by a human-readable serializer.
    addr: std::net::Ipv4Addr,
}

/// Bytes through `deserialize_byte_buf`, which serde_json answers with a
/// sequence and CBOR with bytes.
mod serde_bytes_as_seq {
    use serde::{Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &[u8], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(v)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
        struct Bytes;
        impl<'de> serde::de::Visitor<'de> for Bytes {
            type Value = Vec<u8>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("bytes")
            }
            fn visit_bytes<E: serde::de::Error>(self, v: &[u8]) -> Result<Vec<u8>, E> {
                Ok(v.to_vec())
            }
            fn visit_byte_buf<E: serde::de::Error>(self, v: Vec<u8>) -> Result<Vec<u8>, E> {
                Ok(v)
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<Vec<u8>, A::Error> {
                let mut out = Vec::new();
                while let Some(b) = seq.next_element()? {
                    out.push(b);
                }
                Ok(out)
            }
        }
        d.deserialize_byte_buf(Bytes)
    }
}

#[json_subtypes(name = "everything")]
impl Record for Everything {
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// `wide`: 128-bit values beyond 64 bits, which serde_json can only hand
/// over when they are read in place (a buffered number beyond 64 bits is a
/// float unless serde_json's `arbitrary_precision` is on).
fn everything(wide: bool) -> Everything {
    Everything {
        flag: true,
        small: -8,
        big: if wide { i128::MIN } else { i64::MIN.into() },
        huge: if wide { u128::MAX } else { u64::MAX.into() },
        letter: 'λ',
        text: "tab\tand \"quotes\"".to_owned(),
        none: None,
        some: Some(Inner {
            label: "x".to_owned(),
            weight: Some(0.5),
        }),
        modes: vec![
            Mode::Off,
            Mode::Level(3),
            Mode::Pair(-1, 1),
            Mode::Span { from: 1, to: 9 },
        ],
        pair: (7, "seven".to_owned()),
        length: Meters(1.5),
        marker: Marker,
        unit: (),
        // Integer keys from their quoted text, in place and buffered.
        by_id: [(1, "one".to_owned()), (20, "twenty".to_owned())].into(),
        grid: vec![vec![1, -2], vec![], vec![3]],
        bytes: vec![0, 255],
        addr: std::net::Ipv4Addr::new(10, 0, 0, 1),
    }
}

#[rstest]
#[case::tag_first(true)]
#[case::tag_last(false)]
fn every_data_model_shape_round_trips(#[case] tag_first: bool) {
    let value = everything(tag_first);
    let boxed: Box<dyn Record> = Box::new(value.clone());
    let text = serde_json::to_string(&boxed).unwrap();
    assert!(text.starts_with(r#"{"kind":"everything","flag":true,"#));
    assert!(text.ends_with(r#","addr":"10.0.0.1"}"#), "{text}");
    let input = if tag_first {
        text.clone()
    } else {
        let body = &text[r#"{"kind":"everything","#.len()..text.len() - 1];
        format!(r#"{{{body},"kind":"everything"}}"#)
    };
    let back: Box<dyn Record> = serde_json::from_str(&input).unwrap();
    assert_eq!(back.as_any().downcast_ref::<Everything>(), Some(&value));
    assert_eq!(serde_json::to_string(&back).unwrap(), text);
}

/// The same error as the plain struct reports for the same body, shifted by
/// the tag entry in front of it.
#[rstest]
#[case::in_an_enum(
    r#"{"flag":true,"small":1,"big":0,"huge":0,"letter":"a","text":"","none":null,"some":null,"modes":[{"Level":300}]"#
)]
#[case::unknown_variant(
    r#"{"flag":true,"small":1,"big":0,"huge":0,"letter":"a","text":"","none":null,"some":null,"modes":["On"]"#
)]
#[case::in_a_map_key(
    r#"{"flag":true,"small":1,"big":0,"huge":0,"letter":"a","text":"","none":null,"some":null,"modes":[],"pair":[1,"a"],"length":1,"marker":null,"unit":null,"by_id":{"x":"y"}}"#
)]
#[case::in_a_nested_struct(r#"{"flag":true,"small":1,"big":0,"huge":0,"letter":"a","text":"","none":null,"some":{"label":7}}"#)]
#[case::missing_field(r#"{"flag":true}"#)]
fn errors_inside_payloads_are_the_plain_structs(#[case] body: &str) {
    let plain = serde_json::from_str::<Everything>(body).unwrap_err();
    let text = format!(r#"{{"kind":"everything",{}"#, &body[1..]);
    let err = serde_json::from_str::<Box<dyn Record>>(&text).unwrap_err();
    let shifted = r#""kind":"everything","#.len();
    assert_eq!(
        err.to_string().split(" at line").next(),
        plain.to_string().split(" at line").next()
    );
    assert_eq!(
        (err.line(), err.column()),
        (plain.line(), plain.column() + shifted)
    );
}

/// A binary format: the erased writer reports the serializer as not human
/// readable, so the address is written as four bytes, and reads back.
#[test]
fn every_data_model_shape_round_trips_through_cbor() {
    let value = everything(true);
    let boxed: Box<dyn Record> = Box::new(value.clone());
    let mut bytes = Vec::new();
    ciborium::into_writer(&boxed, &mut bytes).unwrap();
    let plain_addr = {
        let mut out = Vec::new();
        ciborium::into_writer(&value.addr, &mut out).unwrap();
        out
    };
    assert_eq!(
        plain_addr.len(),
        5,
        "four bytes and their header: {plain_addr:?}"
    );
    assert!(bytes.ends_with(&plain_addr));
    let back: Box<dyn Record> = ciborium::from_reader(bytes.as_slice()).unwrap();
    assert_eq!(back.as_any().downcast_ref::<Everything>(), Some(&value));
}

// ---------------------------------------------------------------------------
// A registered type's reader sees the very visits the format makes: the
// type-erased boundary hands each one over as it came (the same method,
// borrowed or not, the same value).

/// What its reader was visited with, in order, as text.
#[derive(Debug, Serialize)]
struct Visits(Vec<String>);

#[json_subtypes(name = "visits")]
impl Record for Visits {
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

impl<'de> Deserialize<'de> for Visits {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let mut log = Vec::new();
        serde::de::DeserializeSeed::deserialize(Recorder(&mut log), d)?;
        Ok(Visits(log))
    }
}

/// Reads any value and writes down every visit, nested ones included.
struct Recorder<'a>(&'a mut Vec<String>);

impl<'de> serde::de::DeserializeSeed<'de> for Recorder<'_> {
    type Value = ();

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

macro_rules! record_scalars {
    ($($visit:ident $ty:ty,)*) => {
        $(
            fn $visit<E: serde::de::Error>(self, v: $ty) -> Result<(), E> {
                self.0.push(format!("{} {v:?}", stringify!($visit)));
                Ok(())
            }
        )*
    };
}

impl<'de> serde::de::Visitor<'de> for Recorder<'_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("anything")
    }

    record_scalars! {
        visit_bool bool,
        visit_i8 i8,
        visit_i16 i16,
        visit_i32 i32,
        visit_i64 i64,
        visit_i128 i128,
        visit_u8 u8,
        visit_u16 u16,
        visit_u32 u32,
        visit_u64 u64,
        visit_u128 u128,
        visit_f32 f32,
        visit_f64 f64,
        visit_char char,
        visit_str &str,
        visit_borrowed_str &'de str,
        visit_string String,
        visit_bytes &[u8],
        visit_borrowed_bytes &'de [u8],
        visit_byte_buf Vec<u8>,
    }

    fn visit_none<E: serde::de::Error>(self) -> Result<(), E> {
        self.0.push("visit_none".to_owned());
        Ok(())
    }

    fn visit_unit<E: serde::de::Error>(self) -> Result<(), E> {
        self.0.push("visit_unit".to_owned());
        Ok(())
    }

    fn visit_some<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        self.0.push("visit_some".to_owned());
        d.deserialize_any(self)
    }

    fn visit_newtype_struct<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        self.0.push("visit_newtype_struct".to_owned());
        d.deserialize_any(self)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        self.0.push("visit_seq".to_owned());
        while seq.next_element_seed(Recorder(&mut *self.0))?.is_some() {}
        self.0.push("end".to_owned());
        Ok(())
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        self.0.push("visit_map".to_owned());
        while map.next_key_seed(Recorder(&mut *self.0))?.is_some() {
            map.next_value_seed(Recorder(&mut *self.0))?;
        }
        self.0.push("end".to_owned());
        Ok(())
    }

    fn visit_enum<A: serde::de::EnumAccess<'de>>(self, data: A) -> Result<(), A::Error> {
        use serde::de::VariantAccess;
        self.0.push("visit_enum".to_owned());
        let ((), variant) = data.variant_seed(Recorder(&mut *self.0))?;
        variant.newtype_variant_seed(Recorder(&mut *self.0))
    }
}

#[derive(Serialize)]
struct Newtype(u8);

#[derive(Serialize)]
enum Variant {
    Unit,
    Newtype(u8),
}

struct Bytes(&'static [u8]);

impl Serialize for Bytes {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(self.0)
    }
}

/// A map with one value of each kind, the tag entry first or not at all;
/// `skip` leaves out what a format cannot write.
struct Sample {
    tag: bool,
    skip: &'static [&'static str],
}

impl Serialize for Sample {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(None)?;
        if self.tag {
            map.serialize_entry("kind", "visits")?;
        }
        macro_rules! entries {
            ($($key:literal => $value:expr,)*) => {
                $(
                    if !self.skip.contains(&$key) {
                        map.serialize_entry($key, &$value)?;
                    }
                )*
            };
        }
        // The keys are `SAMPLE_KEYS`, in order.
        entries! {
            "bool" => true,
            "i8" => -8i8,
            "i16" => -1600i16,
            "i64" => i64::MIN,
            "u8" => 8u8,
            "u32" => 320_000u32,
            "u64" => u64::MAX,
            "i128" => i128::MIN,
            "u128" => u128::MAX,
            "f32" => 1.5f32,
            "f64" => 0.1f64,
            "char" => 'λ',
            "str" => "tab\tand \"quotes\"",
            "bytes" => Bytes(&[0, 255]),
            "none" => None::<u8>,
            "some" => Some(1u8),
            "unit" => (),
            "newtype" => Newtype(2),
            "seq" => [1u8, 2],
            "map" => std::collections::BTreeMap::from([("k", false)]),
            "unit_variant" => Variant::Unit,
            "newtype_variant" => Variant::Newtype(3),
        }
        map.end()
    }
}

const SAMPLE_KEYS: [&str; 22] = [
    "bool",
    "i8",
    "i16",
    "i64",
    "u8",
    "u32",
    "u64",
    "i128",
    "u128",
    "f32",
    "f64",
    "char",
    "str",
    "bytes",
    "none",
    "some",
    "unit",
    "newtype",
    "seq",
    "map",
    "unit_variant",
    "newtype_variant",
];

#[derive(Debug, Clone, Copy)]
enum Via {
    JsonReader,
    JsonProfile,
    Cbor,
    MessagePack,
    Yaml,
}

impl Via {
    fn skip(self) -> &'static [&'static str] {
        match self {
            // serde_json reads a number beyond 64 bits as a float, so the
            // buffered and the plain read would agree only by chance.
            Via::JsonReader | Via::JsonProfile => &["i128", "u128"],
            Via::MessagePack => &["i128", "u128"],
            Via::Yaml => &["bytes"],
            Via::Cbor => &[],
        }
    }

    fn write(self, tag: bool) -> Vec<u8> {
        let sample = Sample {
            tag,
            skip: self.skip(),
        };
        match self {
            Via::JsonReader | Via::JsonProfile => serde_json::to_vec(&sample).unwrap(),
            Via::Cbor => {
                let mut out = Vec::new();
                ciborium::into_writer(&sample, &mut out).unwrap();
                out
            }
            Via::MessagePack => rmp_serde::to_vec(&sample).unwrap(),
            Via::Yaml => serde_norway::to_string(&sample).unwrap().into_bytes(),
        }
    }

    fn read<T: serde::de::DeserializeOwned>(self, bytes: &[u8]) -> T {
        match self {
            Via::JsonReader => serde_json::from_reader(bytes).unwrap(),
            Via::JsonProfile => serde_json::from_slice(bytes).unwrap(),
            Via::Cbor => ciborium::from_reader(bytes).unwrap(),
            Via::MessagePack => rmp_serde::from_slice(bytes).unwrap(),
            Via::Yaml => serde_norway::from_slice(bytes).unwrap(),
        }
    }
}

#[rstest]
#[case::json_reader(Via::JsonReader)]
#[case::json_profile(Via::JsonProfile)]
#[case::cbor(Via::Cbor)]
#[case::message_pack(Via::MessagePack)]
#[case::yaml(Via::Yaml)]
fn a_registered_reader_sees_the_formats_own_visits(#[case] via: Via) {
    let plain: Visits = via.read(&via.write(false));
    let tagged = via.write(true);
    let boxed: Box<dyn Record> = match via {
        Via::JsonProfile => json_subtypes::Profile::<dyn Record>::builder()
            .tag("kind")
            .subtype::<Visits>("visits")
            .build()
            .unwrap()
            .from_slice(&tagged)
            .unwrap(),
        _ => via.read(&tagged),
    };
    let seen = boxed.as_any().downcast_ref::<Visits>().unwrap();
    assert_eq!(seen.0, plain.0);
    // Every entry was visited, its key and its value.
    let keys: Vec<&str> = plain
        .0
        .iter()
        .filter_map(|v| {
            v.strip_prefix("visit_borrowed_str ")
                .or(v.strip_prefix("visit_str "))
        })
        .filter_map(|k| SAMPLE_KEYS.iter().find(|s| format!("{s:?}") == k))
        .copied()
        .collect();
    let written: Vec<&str> = SAMPLE_KEYS
        .into_iter()
        .filter(|k| !via.skip().contains(k))
        .collect();
    assert_eq!(keys, written);
}
