//! Every feature through formats other than JSON: serde_json, YAML
//! (serde_norway), TOML (where the shape fits), CBOR (ciborium), MessagePack
//! (rmp-serde with named fields), and RON for reading; postcard and bincode,
//! which are not self-describing, only for their error.
//!
//! One case list ([`Case`]) runs through one table of formats ([`Format`]).
//! A case's inputs are ordered entries ([`Obj`]), so the tag's position is
//! under our control in every format: text formats get text written by the
//! small emitters below (never by the format's own serializer, which could
//! reorder keys), binary formats get the entries serialized as a map in the
//! given order ([`Ordered`]).
//!
//! For every case and format:
//! - writing the value gives the same bytes as the format gives for the
//!   entries the case says are written (tag first, or last for the profile);
//! - the written bytes read back to the same value;
//! - every input (tag first, tag last, ...) reads as the value;
//! - a fallback case reads into the fallback and writes every input back
//!   unchanged (byte for byte, in its own key order).
//!
//! TOML: a document is a table, so every case here is an object at top
//! level; what TOML cannot say is `null` (no such value) and integers above
//! `i64::MAX` (TOML integers are i64). Cases with either are skipped for
//! TOML, each saying why (`toml: Skip(...)`). `toml` is built with
//! `preserve_order`: without it the reader hands keys over sorted, so the tag
//! position in the text would not be the one the engine sees.
//!
//! RON is read only (only reading is promised); a fallback read from RON is
//! written back through serde_json and compared with the input as JSON.

use std::fmt::{Debug, Write as _};
use std::sync::OnceLock;

use json_subtypes::{json_subtypes, Profile, TagPosition, Unknown};
use rstest::rstest;
use serde::de::DeserializeOwned;
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

// ---------------------------------------------------------------------------
// The types under test.

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Dog {
    name: String,
    age: u32,
}

#[json_subtypes(tag = "type")]
#[derive(Debug, Clone, PartialEq)]
enum Animal {
    /// String tag, newtype variant.
    #[json_subtypes(name = "dog")]
    Dog(Dog),
    /// Int tag, struct variant.
    #[json_subtypes(name = 3)]
    Bird { wingspan: f64, rings: Vec<u32> },
    /// Negative int tag.
    #[json_subtypes(name = -1)]
    Worm { length: i64 },
    /// An int tag beyond i64.
    #[json_subtypes(name = 18446744073709551615)]
    Huge,
    /// Bool tag.
    #[json_subtypes(name = true)]
    Robot { model: String },
    /// Unit variant.
    #[json_subtypes(name = "fish")]
    Fish,
    /// A child with the same key: its tags are read at this level.
    #[json_subtypes(nested)]
    Mammal(Mammal),
    /// A child with its own key.
    #[json_subtypes(name = "pet")]
    Pet(Species),
    #[json_subtypes(fallback)]
    Other(Unknown),
}

#[json_subtypes(tag = "type")]
#[derive(Debug, Clone, PartialEq)]
enum Mammal {
    #[json_subtypes(name = "whale")]
    Whale { tons: u32 },
    #[json_subtypes(name = 7)]
    Bat,
}

#[json_subtypes(tag = "species")]
#[derive(Debug, Clone, PartialEq)]
enum Species {
    #[json_subtypes(name = "cat")]
    Cat { lives: u8 },
    #[json_subtypes(name = 2)]
    Parrot { words: Vec<String> },
}

/// Presence mode.
#[json_subtypes]
#[derive(Debug, Clone, PartialEq)]
enum Employee {
    #[json_subtypes(when_field = "skill")]
    Developer { name: String, skill: Option<String> },
    #[json_subtypes(when_field = "reports", when_field = "team")]
    Manager { name: String, reports: Vec<String> },
    #[json_subtypes(fallback)]
    Other(Unknown),
}

#[json_subtypes(tag = "shape")]
trait Shape: Debug {
    fn area(&self) -> f64;
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Circle {
    r: f64,
}

#[json_subtypes(name = "circle")]
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

#[derive(Debug, Serialize, Deserialize)]
#[serde(transparent)]
struct OtherShape(Unknown);

#[json_subtypes(fallback)]
impl Shape for OtherShape {
    fn area(&self) -> f64 {
        f64::NAN
    }
}

/// A trait object read and written through the attribute registry.
#[derive(Debug, Serialize, Deserialize)]
#[serde(transparent)]
struct ShapeBox(Box<dyn Shape>);

/// The same trait through a profile: another key, other tags, the tag
/// written last.
fn profile() -> &'static Profile<dyn Shape> {
    static PROFILE: OnceLock<Profile<dyn Shape>> = OnceLock::new();
    PROFILE.get_or_init(|| {
        Profile::<dyn Shape>::builder()
            .tag("kind")
            .subtype::<Circle>("round")
            .subtype::<Square>(2)
            .subtype::<Dot>(true)
            .fallback::<OtherShape>()
            .tag_position(TagPosition::Last)
            .build()
            .unwrap()
    })
}

/// A trait object read with `profile.deserialize` and written with
/// `profile.serializable`.
#[derive(Debug)]
struct Profiled(Box<dyn Shape>);

impl Serialize for Profiled {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        profile().serializable(&*self.0).serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Profiled {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        profile().deserialize(deserializer).map(Profiled)
    }
}

// Trait objects compare by what they print.
impl PartialEq for ShapeBox {
    fn eq(&self, other: &Self) -> bool {
        format!("{:?}", self.0) == format!("{:?}", other.0)
    }
}

impl PartialEq for Profiled {
    fn eq(&self, other: &Self) -> bool {
        format!("{:?}", self.0) == format!("{:?}", other.0)
    }
}

trait Subject: Serialize + DeserializeOwned + PartialEq + Debug {
    fn is_fallback(&self) -> bool;
}

impl Subject for Animal {
    fn is_fallback(&self) -> bool {
        matches!(self, Animal::Other(u) if u.tag_key() == Some("type"))
    }
}

impl Subject for Employee {
    fn is_fallback(&self) -> bool {
        matches!(self, Employee::Other(u) if u.tag_key().is_none())
    }
}

impl Subject for ShapeBox {
    fn is_fallback(&self) -> bool {
        self.0.area().is_nan()
    }
}

impl Subject for Profiled {
    fn is_fallback(&self) -> bool {
        self.0.area().is_nan()
    }
}

// ---------------------------------------------------------------------------
// Inputs: ordered entries.

#[derive(Debug, Clone)]
enum V {
    S(&'static str),
    I(i64),
    U(u64),
    U128(u128),
    I128(i128),
    F(f64),
    B(bool),
    Null,
    M(Obj),
    A(Vec<V>),
}

type Obj = Vec<(&'static str, V)>;

/// Serializes entries as a map, in the given order.
struct Ordered<'a>(&'a [(&'static str, V)]);

impl Serialize for Ordered<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (key, value) in self.0 {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

impl Serialize for V {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            V::S(s) => serializer.serialize_str(s),
            V::I(i) => serializer.serialize_i64(*i),
            V::U(u) => serializer.serialize_u64(*u),
            V::U128(u) => serializer.serialize_u128(*u),
            V::I128(i) => serializer.serialize_i128(*i),
            V::F(f) => serializer.serialize_f64(*f),
            V::B(b) => serializer.serialize_bool(*b),
            V::Null => serializer.serialize_none(),
            V::M(entries) => Ordered(entries).serialize(serializer),
            V::A(items) => items.serialize(serializer),
        }
    }
}

/// Text emitters, one per text format. Scalars are written the way JSON
/// writes them, which YAML, TOML and RON read the same way for the values
/// used here.
fn scalar(out: &mut String, value: &V, null: &str) -> bool {
    match value {
        V::S(s) => out.push_str(&serde_json::to_string(s).unwrap()),
        V::I(i) => write!(out, "{i}").unwrap(),
        V::U(u) => write!(out, "{u}").unwrap(),
        V::U128(u) => write!(out, "{u}").unwrap(),
        V::I128(i) => write!(out, "{i}").unwrap(),
        V::F(f) => write!(out, "{f:?}").unwrap(),
        V::B(b) => write!(out, "{b}").unwrap(),
        V::Null => out.push_str(null),
        V::M(_) | V::A(_) => return false,
    }
    true
}

/// JSON, compact; YAML's flow style is written the same way.
fn json_like(out: &mut String, value: &V, null: &str, colon: &str) {
    if scalar(out, value, null) {
        return;
    }
    match value {
        V::M(entries) => {
            out.push('{');
            for (i, (key, value)) in entries.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write!(out, "{}{colon}", serde_json::to_string(key).unwrap()).unwrap();
                json_like(out, value, null, colon);
            }
            out.push('}');
        }
        V::A(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                json_like(out, item, null, colon);
            }
            out.push(']');
        }
        _ => unreachable!(),
    }
}

fn json_text(obj: &Obj) -> String {
    let mut out = String::new();
    json_like(&mut out, &V::M(obj.clone()), "null", ":");
    out
}

/// RON: objects in struct syntax, `(name: "Rex", type: "dog")`, which is
/// what RON writes for structs (and for these enums). RON's map syntax with
/// quoted keys is refused by the engine: see `ron_map_syntax_reads_like_serdes_twin`.
fn ron_text(obj: &Obj) -> String {
    fn value(out: &mut String, v: &V) {
        if scalar(out, v, "None") {
            return;
        }
        match v {
            // `()` would be RON's unit.
            V::M(entries) if entries.is_empty() => out.push_str("{}"),
            V::M(entries) => {
                out.push('(');
                for (i, (key, v)) in entries.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    write!(out, "{key}: ").unwrap();
                    value(out, v);
                }
                out.push(')');
            }
            V::A(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    value(out, item);
                }
                out.push(']');
            }
            _ => unreachable!(),
        }
    }
    let mut out = String::new();
    value(&mut out, &V::M(obj.clone()));
    out
}

/// YAML: a block mapping at the top, flow style below it.
fn yaml_text(obj: &Obj) -> String {
    if obj.is_empty() {
        return "{}\n".into();
    }
    let mut out = String::new();
    for (key, value) in obj {
        write!(out, "{key}: ").unwrap();
        json_like(&mut out, value, "null", ": ");
        out.push('\n');
    }
    out
}

/// TOML: `key = value` lines, inline tables and arrays below them.
fn toml_text(obj: &Obj) -> String {
    fn value(out: &mut String, v: &V) {
        assert!(!matches!(v, V::Null), "TOML has no null");
        if scalar(out, v, "") {
            return;
        }
        match v {
            V::M(entries) => {
                out.push('{');
                for (i, (key, v)) in entries.iter().enumerate() {
                    out.push_str(if i > 0 { ", " } else { " " });
                    write!(out, "{key} = ").unwrap();
                    value(out, v);
                }
                out.push_str(" }");
            }
            V::A(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    value(out, item);
                }
                out.push(']');
            }
            _ => unreachable!(),
        }
    }
    let mut out = String::new();
    for (key, v) in obj {
        write!(out, "{key} = ").unwrap();
        value(&mut out, v);
        out.push('\n');
    }
    out
}

// ---------------------------------------------------------------------------
// The formats.

#[derive(Debug, Clone, Copy, PartialEq)]
enum Format {
    Json,
    Yaml,
    Toml,
    Cbor,
    MsgPack,
    /// Read only.
    Ron,
}

impl Format {
    fn writes(self) -> bool {
        self != Format::Ron
    }

    fn is_text(self) -> bool {
        !matches!(self, Format::Cbor | Format::MsgPack)
    }

    fn write<T: Serialize + ?Sized>(self, value: &T) -> Result<Vec<u8>, String> {
        match self {
            Format::Json => serde_json::to_vec(value).map_err(|e| e.to_string()),
            Format::Yaml => serde_norway::to_string(value)
                .map(String::into_bytes)
                .map_err(|e| e.to_string()),
            Format::Toml => toml::to_string(value)
                .map(String::into_bytes)
                .map_err(|e| e.to_string()),
            Format::Cbor => {
                let mut out = Vec::new();
                ciborium::into_writer(value, &mut out).map_err(|e| e.to_string())?;
                Ok(out)
            }
            Format::MsgPack => rmp_serde::to_vec_named(value).map_err(|e| e.to_string()),
            Format::Ron => unreachable!("RON is read only here"),
        }
    }

    fn read<T: DeserializeOwned>(self, bytes: &[u8]) -> Result<T, String> {
        let text = || std::str::from_utf8(bytes).unwrap();
        match self {
            Format::Json => serde_json::from_slice(bytes).map_err(|e| e.to_string()),
            Format::Yaml => serde_norway::from_str(text()).map_err(|e| e.to_string()),
            Format::Toml => toml::from_str(text()).map_err(|e| e.to_string()),
            Format::Cbor => ciborium::from_reader(bytes).map_err(|e| match e {
                ciborium::de::Error::Semantic(_, message) => message,
                other => format!("{other:?}"),
            }),
            Format::MsgPack => rmp_serde::from_slice(bytes).map_err(|e| e.to_string()),
            Format::Ron => ron::from_str(text()).map_err(|e| e.to_string()),
        }
    }

    /// An input with its keys in the given order.
    fn input(self, obj: &Obj) -> Vec<u8> {
        match self {
            Format::Json => json_text(obj).into_bytes(),
            Format::Yaml => yaml_text(obj).into_bytes(),
            Format::Toml => toml_text(obj).into_bytes(),
            Format::Ron => ron_text(obj).into_bytes(),
            Format::Cbor | Format::MsgPack => self.write(&Ordered(obj)).unwrap(),
        }
    }

    fn show(self, bytes: &[u8]) -> String {
        if self.is_text() {
            String::from_utf8_lossy(bytes).into_owned()
        } else {
            format!("{bytes:02x?}")
        }
    }
}

// ---------------------------------------------------------------------------
// The cases.

enum Toml {
    Fits,
    Skip(&'static str),
}

/// What a case expects to read: a value, or the fallback.
enum Expect<T> {
    Value(T),
    Fallback,
}

enum Subjects {
    Animal(Expect<Animal>),
    Employee(Expect<Employee>),
    Shape(Expect<ShapeBox>),
    Profiled(Expect<Profiled>),
}

struct Case {
    expect: Subjects,
    /// What writing the value gives (unused for fallbacks: they write each
    /// input back as it was).
    written: Obj,
    /// Inputs that read as the value, each with its own key order.
    inputs: Vec<Obj>,
    toml: Toml,
}

use V::*;

fn animal(value: Animal, written: Obj, inputs: Vec<Obj>) -> Case {
    Case {
        expect: Subjects::Animal(Expect::Value(value)),
        written,
        inputs,
        toml: Toml::Fits,
    }
}

/// The written form first, then every rotation of its entries: the tag
/// first, in the middle, last.
fn rotations(written: &Obj) -> Vec<Obj> {
    let mut out = Vec::new();
    for i in 0..written.len().max(1) {
        let mut entries = written.clone();
        entries.rotate_left(i);
        out.push(entries);
    }
    out
}

fn rotated(value: Animal, written: Obj) -> Case {
    let inputs = rotations(&written);
    animal(value, written, inputs)
}

fn string_tag() -> Case {
    rotated(
        Animal::Dog(Dog {
            name: "Rex".into(),
            age: 3,
        }),
        vec![("type", S("dog")), ("name", S("Rex")), ("age", U(3))],
    )
}

fn int_tag() -> Case {
    rotated(
        Animal::Bird {
            wingspan: 20.5,
            rings: vec![1, 2],
        },
        vec![
            ("type", U(3)),
            ("wingspan", F(20.5)),
            ("rings", A(vec![U(1), U(2)])),
        ],
    )
}

fn negative_int_tag() -> Case {
    rotated(
        Animal::Worm { length: -4 },
        vec![("type", I(-1)), ("length", I(-4))],
    )
}

fn u64_max_tag() -> Case {
    Case {
        toml: Toml::Skip("TOML integers are i64: u64::MAX cannot be written"),
        ..animal(
            Animal::Huge,
            vec![("type", U(u64::MAX))],
            vec![vec![("type", U(u64::MAX))]],
        )
    }
}

fn bool_tag() -> Case {
    rotated(
        Animal::Robot { model: "R2".into() },
        vec![("type", B(true)), ("model", S("R2"))],
    )
}

fn unit_variant() -> Case {
    rotated(Animal::Fish, vec![("type", S("fish"))])
}

fn nested_same_key() -> Case {
    rotated(
        Animal::Mammal(Mammal::Whale { tons: 40 }),
        vec![("type", S("whale")), ("tons", U(40))],
    )
}

fn nested_same_key_int_unit() -> Case {
    rotated(Animal::Mammal(Mammal::Bat), vec![("type", U(7))])
}

fn nested_other_key() -> Case {
    rotated(
        Animal::Pet(Species::Cat { lives: 9 }),
        vec![("type", S("pet")), ("species", S("cat")), ("lives", U(9))],
    )
}

fn nested_other_key_int_tag() -> Case {
    rotated(
        Animal::Pet(Species::Parrot {
            words: vec!["hi".into()],
        }),
        vec![
            ("type", S("pet")),
            ("species", U(2)),
            ("words", A(vec![S("hi")])),
        ],
    )
}

fn animal_fallback(inputs: Vec<Obj>, toml: Toml) -> Case {
    Case {
        expect: Subjects::Animal(Expect::Fallback),
        written: vec![],
        inputs,
        toml,
    }
}

fn fallback_unknown_tag() -> Case {
    animal_fallback(
        vec![
            vec![("type", S("cow")), ("moo", B(true)), ("legs", U(4))],
            vec![("moo", B(true)), ("legs", U(4)), ("type", S("cow"))],
            vec![("moo", B(true)), ("type", U(99)), ("legs", U(4))],
            vec![
                ("spots", A(vec![U(1), I(-2), F(0.5)])),
                ("type", S("cow")),
                ("where", M(vec![("field", S("north")), ("gate", B(false))])),
            ],
        ],
        Toml::Fits,
    )
}

fn fallback_missing_tag() -> Case {
    animal_fallback(
        vec![vec![("moo", B(true)), ("legs", U(4))], vec![]],
        Toml::Fits,
    )
}

fn fallback_null_tag() -> Case {
    animal_fallback(
        vec![vec![("moo", B(true)), ("type", Null)]],
        Toml::Skip("TOML has no null"),
    )
}

fn presence(value: Employee, written: Obj, toml: Toml) -> Case {
    let inputs = rotations(&written);
    Case {
        expect: Subjects::Employee(Expect::Value(value)),
        written,
        inputs,
        toml,
    }
}

fn presence_mode() -> Case {
    presence(
        Employee::Developer {
            name: "a".into(),
            skill: Some("rust".into()),
        },
        vec![("name", S("a")), ("skill", S("rust"))],
        Toml::Fits,
    )
}

fn presence_mode_null() -> Case {
    presence(
        Employee::Developer {
            name: "a".into(),
            skill: None,
        },
        vec![("name", S("a")), ("skill", Null)],
        Toml::Skip("TOML has no null: `skill = null` cannot be written"),
    )
}

fn presence_mode_second_field() -> Case {
    Case {
        inputs: vec![
            vec![("team", S("x")), ("name", S("m")), ("reports", A(vec![]))],
            vec![("name", S("m")), ("reports", A(vec![]))],
        ],
        ..presence(
            Employee::Manager {
                name: "m".into(),
                reports: vec![],
            },
            vec![("name", S("m")), ("reports", A(vec![]))],
            Toml::Fits,
        )
    }
}

fn presence_fallback() -> Case {
    Case {
        expect: Subjects::Employee(Expect::Fallback),
        written: vec![],
        inputs: vec![vec![("name", S("x")), ("title", S("intern"))]],
        toml: Toml::Fits,
    }
}

fn shape(value: Box<dyn Shape>, written: Obj) -> Case {
    let inputs = rotations(&written);
    Case {
        expect: Subjects::Shape(Expect::Value(ShapeBox(value))),
        written,
        inputs,
        toml: Toml::Fits,
    }
}

fn trait_string_tag() -> Case {
    shape(
        Box::new(Circle { r: 1.5 }),
        vec![("shape", S("circle")), ("r", F(1.5))],
    )
}

fn trait_int_tag() -> Case {
    shape(
        Box::new(Square { side: 2.0 }),
        vec![("shape", U(4)), ("side", F(2.0))],
    )
}

fn trait_bool_tag() -> Case {
    shape(Box::new(Dot {}), vec![("shape", B(false))])
}

fn trait_fallback() -> Case {
    Case {
        expect: Subjects::Shape(Expect::Fallback),
        written: vec![],
        inputs: vec![
            vec![("shape", S("hexagon")), ("sides", U(6))],
            vec![("sides", U(6)), ("shape", S("hexagon"))],
        ],
        toml: Toml::Fits,
    }
}

/// The profile writes its tag last.
fn profiled(value: Box<dyn Shape>, written: Obj) -> Case {
    let inputs = rotations(&written);
    Case {
        expect: Subjects::Profiled(Expect::Value(Profiled(value))),
        written,
        inputs,
        toml: Toml::Fits,
    }
}

fn profile_string_tag() -> Case {
    profiled(
        Box::new(Circle { r: 1.5 }),
        vec![("r", F(1.5)), ("kind", S("round"))],
    )
}

fn profile_int_tag() -> Case {
    profiled(
        Box::new(Square { side: 2.0 }),
        vec![("side", F(2.0)), ("kind", U(2))],
    )
}

fn profile_bool_tag() -> Case {
    profiled(Box::new(Dot {}), vec![("kind", B(true))])
}

fn profile_fallback() -> Case {
    Case {
        expect: Subjects::Profiled(Expect::Fallback),
        written: vec![],
        inputs: vec![
            vec![("kind", S("hexagon")), ("sides", U(6))],
            vec![("sides", U(6)), ("kind", S("hexagon"))],
            // The registry's tag key means nothing to the profile.
            vec![("shape", S("circle")), ("r", F(1.0))],
        ],
        toml: Toml::Fits,
    }
}

fn check<T: Subject>(format: Format, case: &Case, expect: &Expect<T>) {
    match expect {
        Expect::Value(value) => {
            if format.writes() {
                let bytes = format.write(value).unwrap();
                let expected = format.write(&Ordered(&case.written)).unwrap();
                assert_eq!(
                    format.show(&bytes),
                    format.show(&expected),
                    "{format:?}: writing {value:?}"
                );
                if format == Format::Json {
                    assert_eq!(format.show(&bytes), json_text(&case.written));
                }
                let back: T = format.read(&bytes).unwrap();
                assert_eq!(&back, value, "{format:?}: reading back what was written");
            }
            for input in &case.inputs {
                let bytes = format.input(input);
                let read: T = format
                    .read(&bytes)
                    .unwrap_or_else(|e| panic!("{format:?}: {}: {e}", format.show(&bytes)));
                assert_eq!(&read, value, "{format:?}: {}", format.show(&bytes));
            }
        }
        Expect::Fallback => {
            for input in &case.inputs {
                let bytes = format.input(input);
                let read: T = format
                    .read(&bytes)
                    .unwrap_or_else(|e| panic!("{format:?}: {}: {e}", format.show(&bytes)));
                assert!(
                    read.is_fallback(),
                    "{format:?}: {} read as {read:?}",
                    format.show(&bytes)
                );
                // Written back unchanged, in the input's own order.
                if format.writes() {
                    let again = format.write(&read).unwrap();
                    let expected = format.write(&Ordered(input)).unwrap();
                    assert_eq!(format.show(&again), format.show(&expected), "{format:?}");
                    let twice: T = format.read(&again).unwrap();
                    assert!(twice.is_fallback());
                } else {
                    assert_eq!(serde_json::to_string(&read).unwrap(), json_text(input));
                }
            }
        }
    }
}

#[rstest]
#[case::string_tag(string_tag())]
#[case::int_tag(int_tag())]
#[case::negative_int_tag(negative_int_tag())]
#[case::u64_max_tag(u64_max_tag())]
#[case::bool_tag(bool_tag())]
#[case::unit_variant(unit_variant())]
#[case::nested_same_key(nested_same_key())]
#[case::nested_same_key_int_unit(nested_same_key_int_unit())]
#[case::nested_other_key(nested_other_key())]
#[case::nested_other_key_int_tag(nested_other_key_int_tag())]
#[case::fallback_unknown_tag(fallback_unknown_tag())]
#[case::fallback_missing_tag(fallback_missing_tag())]
#[case::fallback_null_tag(fallback_null_tag())]
#[case::presence_mode(presence_mode())]
#[case::presence_mode_null(presence_mode_null())]
#[case::presence_mode_second_field(presence_mode_second_field())]
#[case::presence_fallback(presence_fallback())]
#[case::trait_string_tag(trait_string_tag())]
#[case::trait_int_tag(trait_int_tag())]
#[case::trait_bool_tag(trait_bool_tag())]
#[case::trait_fallback(trait_fallback())]
#[case::profile_string_tag(profile_string_tag())]
#[case::profile_int_tag(profile_int_tag())]
#[case::profile_bool_tag(profile_bool_tag())]
#[case::profile_fallback(profile_fallback())]
fn every_feature_in_every_format(
    #[case] case: Case,
    #[values(
        Format::Json,
        Format::Yaml,
        Format::Toml,
        Format::Cbor,
        Format::MsgPack,
        Format::Ron
    )]
    format: Format,
) {
    if let (Format::Toml, Toml::Skip(_why)) = (format, &case.toml) {
        return;
    }
    match &case.expect {
        Subjects::Animal(expect) => check(format, &case, expect),
        Subjects::Employee(expect) => check(format, &case, expect),
        Subjects::Shape(expect) => check(format, &case, expect),
        Subjects::Profiled(expect) => check(format, &case, expect),
    }
}

// ---------------------------------------------------------------------------
// Text written by hand, in each format's own syntax.

#[rstest]
#[case::yaml_tag_first(Format::Yaml, "type: dog\nname: Rex\nage: 3\n")]
#[case::yaml_tag_last(Format::Yaml, "name: Rex\nage: 3\ntype: dog\n")]
#[case::yaml_flow(Format::Yaml, "{name: Rex, type: dog, age: 3}")]
#[case::toml_tag_first(Format::Toml, "type = \"dog\"\nname = \"Rex\"\nage = 3\n")]
#[case::toml_tag_last(Format::Toml, "name = 'Rex'\nage = 3\ntype = 'dog'\n")]
#[case::ron_struct_tag_last(Format::Ron, r#"(name: "Rex", age: 3, type: "dog")"#)]
#[case::ron_named_struct_tag_first(Format::Ron, r#"Dog(type: "dog", name: "Rex", age: 3)"#)]
fn hand_written_text(#[case] format: Format, #[case] text: &str) {
    let read: Animal = format
        .read(text.as_bytes())
        .unwrap_or_else(|e| panic!("{format:?}: {text}: {e}"));
    assert_eq!(
        read,
        Animal::Dog(Dog {
            name: "Rex".into(),
            age: 3
        })
    );
}

#[rstest]
#[case::yaml(Format::Yaml, "kind: 2\nside: 2.0\n", "side: 2.0\nkind: 2\n")]
#[case::toml(Format::Toml, "kind = 2\nside = 2.0\n", "side = 2.0\nkind = 2\n")]
fn hand_written_profile_text(#[case] format: Format, #[case] text: &str, #[case] written: &str) {
    let read: Profiled = format.read(text.as_bytes()).unwrap();
    assert_eq!(read.0.area(), 4.0);
    assert_eq!(
        String::from_utf8(format.write(&read).unwrap()).unwrap(),
        written
    );
}

#[rstest]
#[case::yaml(Format::Yaml, "moo: true\ntype: cow\nlegs: 4\n")]
#[case::toml(Format::Toml, "moo = true\ntype = \"cow\"\nlegs = 4\n")]
fn hand_written_fallback_is_written_back_unchanged(#[case] format: Format, #[case] text: &str) {
    let read: Animal = format.read(text.as_bytes()).unwrap();
    assert!(read.is_fallback(), "{read:?}");
    assert_eq!(
        String::from_utf8(format.write(&read).unwrap()).unwrap(),
        text
    );
}

// ---------------------------------------------------------------------------
// 128-bit integers through CBOR.

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

/// serde's own internally tagged twin.
#[derive(Debug, Deserialize)]
#[serde(tag = "type")]
#[allow(dead_code)]
enum SerdeWide {
    Big(Big),
}

#[rstest]
#[case::tag_first(vec![("type", S("Big")), ("u", U128(u128::MAX)), ("i", I128(i128::MIN))])]
#[case::tag_last(vec![("u", U128(u128::MAX)), ("i", I128(i128::MIN)), ("type", S("Big"))])]
#[case::tag_between(vec![("u", U128(u128::MAX)), ("type", S("Big")), ("i", I128(i128::MIN))])]
fn u128_and_i128_survive_cbor_buffering(#[case] input: Obj) {
    let bytes = Format::Cbor.input(&input);
    let read: Wide = Format::Cbor.read(&bytes).unwrap();
    assert_eq!(
        read,
        Wide::Big(Big {
            u: u128::MAX,
            i: i128::MIN
        })
    );
    let written = Format::Cbor.write(&read).unwrap();
    let expected = Format::Cbor
        .write(&Ordered(&[
            ("type", S("Big")),
            ("u", U128(u128::MAX)),
            ("i", I128(i128::MIN)),
        ]))
        .unwrap();
    assert_eq!(written, expected);
    // serde's internally tagged enum buffers into its private `Content`,
    // which has no 128-bit integers: the twin fails on the same bytes.
    assert!(Format::Cbor.read::<SerdeWide>(&bytes).is_err());
}

#[test]
fn unknown_keeps_128_bit_integers_from_cbor() {
    let input = vec![
        ("big", U128(u128::MAX)),
        ("neg", I128(i128::MIN)),
        ("type", S("cow")),
    ];
    let bytes = Format::Cbor.input(&input);
    let read: Animal = Format::Cbor.read(&bytes).unwrap();
    let Animal::Other(unknown) = &read else {
        panic!("{read:?}")
    };
    assert_eq!(unknown.get::<u128>("big").unwrap().unwrap(), u128::MAX);
    assert_eq!(unknown.get::<i128>("neg").unwrap().unwrap(), i128::MIN);
    assert_eq!(Format::Cbor.write(&read).unwrap(), bytes);
}

// MessagePack has no 128-bit integers: rmp-serde writes them as 16-byte
// binary blobs, which a self-describing read hands over as bytes, so there
// is nothing to keep exactly there; not tested.

// ---------------------------------------------------------------------------
// `Unknown` on its own, and errors, in every format.

#[rstest]
fn unknown_on_its_own_round_trips(
    #[values(
        Format::Json,
        Format::Yaml,
        Format::Toml,
        Format::Cbor,
        Format::MsgPack
    )]
    format: Format,
) {
    let input = vec![
        ("b", U(1)),
        ("a", A(vec![B(true), S("x")])),
        ("o", M(vec![("z", I(-1)), ("y", F(0.5))])),
    ];
    let bytes = format.input(&input);
    let unknown: Unknown = format.read(&bytes).unwrap();
    assert_eq!(unknown.tag_key(), None);
    assert_eq!(unknown.keys().collect::<Vec<_>>(), ["b", "a", "o"]);
    assert_eq!(
        format.show(&format.write(&unknown).unwrap()),
        format.show(&format.write(&Ordered(&input)).unwrap())
    );
}

#[rstest]
fn errors_in_every_format(
    #[values(
        Format::Json,
        Format::Yaml,
        Format::Toml,
        Format::Cbor,
        Format::MsgPack,
        Format::Ron
    )]
    format: Format,
) {
    let read = |obj: Obj| format.read::<Species>(&format.input(&obj)).unwrap_err();
    for obj in [
        vec![("species", S("emu")), ("lives", U(1))],
        vec![("lives", U(1)), ("species", S("emu"))],
    ] {
        let err = read(obj);
        assert!(
            err.contains(r#"unknown subtype tag "emu", expected one of "cat", 2"#),
            "{format:?}: {err}"
        );
    }
    // TOML refuses a repeated key in its parser, before the engine sees it.
    if format != Format::Toml {
        for obj in [
            vec![
                ("species", S("cat")),
                ("lives", U(1)),
                ("species", S("cat")),
            ],
            vec![("lives", U(1)), ("species", S("cat")), ("species", U(2))],
        ] {
            let err = read(obj);
            assert!(
                err.contains("duplicate field `species`"),
                "{format:?}: {err}"
            );
        }
    }
}

// ---------------------------------------------------------------------------
// RON's map syntax.

/// Like a derived struct, an annotated enum reads RON's struct syntax
/// `(type: "dog", ...)`, not its map syntax with quoted keys: a payload's
/// keys are read as identifiers, which RON answers only for bare names (the
/// engine reads the tag key as any value, so the error is at the payload's
/// first key). (serde's `#[serde(tag)]` reads both because it buffers every
/// object.) A fallback written by RON uses the map syntax, and reads back
/// through the enum too.
#[test]
fn ron_map_syntax_is_read_as_derived_structs_read_it() {
    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Plain {
        name: String,
    }
    let plain = ron::from_str::<Plain>(r#"{"name": "Rex"}"#).unwrap_err();
    let ours = ron::from_str::<Animal>(r#"{"type": "dog", "name": "Rex", "age": 3}"#).unwrap_err();
    assert_eq!(
        plain.code,
        ron::error::Error::ExpectedNamedStructLike("Plain")
    );
    assert_eq!(ours.to_string(), "1:17: Expected identifier");
    let dog: Animal = ron::from_str(r#"(name: "Rex", age: 3, type: "dog")"#).unwrap();
    assert_eq!(
        dog,
        Animal::Dog(Dog {
            name: "Rex".into(),
            age: 3
        })
    );
    let cow: Animal = ron::from_str(r#"(type: "cow", moo: true)"#).unwrap();
    let Animal::Other(unknown) = &cow else {
        panic!("{cow:?}")
    };
    let text = ron::to_string(&cow).unwrap();
    assert_eq!(text, r#"{"type":"cow","moo":true}"#);
    let back = ron::from_str::<Unknown>(&text).unwrap();
    assert_eq!(
        back.to_json_value().unwrap(),
        unknown.to_json_value().unwrap()
    );
    assert_eq!(back.tag_key(), None, "on its own it knows no tag key");
    assert_eq!(ron::from_str::<Animal>(&text).unwrap(), cow);
}

/// `Unknown` on its own reads any self-describing map, RON's included.
#[test]
fn unknown_on_its_own_round_trips_through_ron() {
    let unknown: Unknown = serde_json::from_str(r#"{"b":1,"a":[true]}"#).unwrap();
    let text = ron::to_string(&unknown).unwrap();
    assert_eq!(text, r#"{"b":1,"a":[true]}"#);
    let back: Unknown = ron::from_str(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(back, unknown);
}

// ---------------------------------------------------------------------------
// Formats that are not self-describing.

/// postcard and bincode write our values (the tag, then the payload's fields,
/// positionally and without keys) but cannot read them back: reading starts
/// with `deserialize_any`, which both refuse. An error, never a panic or a
/// wrong value. (Reading could start with `deserialize_struct`, which these
/// formats answer with the fields as a sequence, but in RON and serde_test
/// that call checks the struct name, which for a newtype variant is the
/// payload's and so unknown before the tag is read; and YAML and CBOR then
/// refuse the sequence form.)
#[rstest]
#[case::newtype(Animal::Dog(Dog { name: "Rex".into(), age: 3 }), b"\x03dog\x03Rex\x03")]
#[case::strukt(Animal::Worm { length: -2 }, b"\x01\x03")]
#[case::unit(Animal::Fish, b"\x04fish")]
fn postcard_and_bincode_write_but_refuse_to_read(#[case] value: Animal, #[case] written: &[u8]) {
    let bytes = postcard::to_allocvec(&value).unwrap();
    assert_eq!(bytes, written);
    let err = postcard::from_bytes::<Animal>(&bytes).unwrap_err();
    assert_eq!(err, postcard::Error::WontImplement);

    let bytes = bincode::serialize(&value).unwrap();
    let err = bincode::deserialize::<Animal>(&bytes).unwrap_err();
    assert_eq!(
        err.to_string(),
        "Bincode does not support the serde::Deserializer::deserialize_any method: Animal is internally tagged, which this format cannot read back; add `as_map` to its `#[json_subtypes(...)]` (on a profile, `.as_map()`) to write and read it as a map with the tag first, as typetag does"
    );
}

#[test]
fn postcard_and_bincode_refuse_to_read_trait_objects() {
    let shape: Box<dyn Shape> = Box::new(Circle { r: 2.0 });
    let bytes = postcard::to_allocvec(&shape).unwrap();
    assert_eq!(bytes, b"\x06circle\0\0\0\0\0\0\0\x40");
    let err = postcard::from_bytes::<Box<dyn Shape>>(&bytes).unwrap_err();
    assert_eq!(err, postcard::Error::WontImplement);

    let bytes = bincode::serialize(&shape).unwrap();
    let err = bincode::deserialize::<Box<dyn Shape>>(&bytes).unwrap_err();
    assert_eq!(
        err.to_string(),
        "Bincode does not support the serde::Deserializer::deserialize_any method: dyn Shape is internally tagged, which this format cannot read back; add `as_map` to its `#[json_subtypes(...)]` (on a profile, `.as_map()`) to write and read it as a map with the tag first, as typetag does"
    );
}

/// `as_map`: the internally tagged form written as a map with the tag
/// entry first, read with `deserialize_map` (typetag's internal form), so
/// postcard and bincode read it back. JSON's text is the same as without it.
#[json_subtypes(tag = "type", as_map)]
#[derive(Debug, Clone, PartialEq)]
enum MapAnimal {
    #[json_subtypes(name = "dog")]
    Dog(Dog),
    #[json_subtypes(name = "worm")]
    Worm { length: i64 },
    #[json_subtypes(name = "fish")]
    Fish,
}

/// Integer tags, one negative: read with `deserialize_i64`.
#[json_subtypes(tag = "kind", as_map)]
#[derive(Debug, Clone, PartialEq)]
enum MapNumbered {
    #[json_subtypes(name = 1)]
    Dog(Dog),
    #[json_subtypes(name = -2)]
    Worm { length: i64 },
}

/// The same through a profile.
fn map_profile() -> &'static Profile<dyn Shape> {
    static PROFILE: OnceLock<Profile<dyn Shape>> = OnceLock::new();
    PROFILE.get_or_init(|| {
        Profile::<dyn Shape>::builder()
            .tag("kind")
            .as_map()
            .subtype::<Circle>("round")
            .subtype::<Square>("square")
            .subtype::<Dot>("dot")
            .build()
            .unwrap()
    })
}

/// Writes `value` in postcard and bincode, reads it back with `read`, and
/// returns postcard's bytes.
fn postcard_and_bincode<T: Serialize + ?Sized, R>(
    value: &T,
    read_postcard: impl Fn(&[u8]) -> R,
    read_bincode: impl Fn(&[u8]) -> R,
) -> (Vec<u8>, R, R) {
    let bytes = postcard::to_allocvec(value).unwrap();
    let from_postcard = read_postcard(&bytes);
    let from_bincode = read_bincode(&bincode::serialize(value).unwrap());
    (bytes, from_postcard, from_bincode)
}

#[rstest]
#[case::newtype(
    MapAnimal::Dog(Dog { name: "Rex".into(), age: 3 }),
    b"\x03\x04type\x03dog\x04name\x03Rex\x03age\x03",
    r#"{"type":"dog","name":"Rex","age":3}"#
)]
#[case::strukt(
    MapAnimal::Worm { length: -2 },
    b"\x02\x04type\x04worm\x06length\x03",
    r#"{"type":"worm","length":-2}"#
)]
#[case::unit(MapAnimal::Fish, b"\x01\x04type\x04fish", r#"{"type":"fish"}"#)]
fn as_map_enums_round_trip_in_postcard_and_bincode(
    #[case] value: MapAnimal,
    #[case] written: &[u8],
    #[case] json: &str,
) {
    let (bytes, from_postcard, from_bincode) = postcard_and_bincode(
        &value,
        |b| postcard::from_bytes::<MapAnimal>(b).unwrap(),
        |b| bincode::deserialize::<MapAnimal>(b).unwrap(),
    );
    assert_eq!(bytes, written);
    assert_eq!(from_postcard, value);
    assert_eq!(from_bincode, value);
    assert_eq!(serde_json::to_string(&value).unwrap(), json);
    assert_eq!(serde_json::from_str::<MapAnimal>(json).unwrap(), value);
}

#[rstest]
#[case::positive(MapNumbered::Dog(Dog { name: "Rex".into(), age: 3 }))]
#[case::negative(MapNumbered::Worm { length: 5 })]
fn as_map_int_tags_round_trip_in_postcard_and_bincode(#[case] value: MapNumbered) {
    let (_, from_postcard, from_bincode) = postcard_and_bincode(
        &value,
        |b| postcard::from_bytes::<MapNumbered>(b).unwrap(),
        |b| bincode::deserialize::<MapNumbered>(b).unwrap(),
    );
    assert_eq!(from_postcard, value);
    assert_eq!(from_bincode, value);
}

/// CBOR and MessagePack (whose rmp-serde writes structs as arrays) write
/// the map and read it back too.
#[rstest]
fn as_map_enums_round_trip_in_cbor_and_msgpack(
    #[values(
        MapAnimal::Dog(Dog { name: "Rex".into(), age: 3 }),
        MapAnimal::Worm { length: -2 },
        MapAnimal::Fish
    )]
    value: MapAnimal,
) {
    let bytes = rmp_serde::to_vec(&value).unwrap();
    assert_eq!(rmp_serde::from_slice::<MapAnimal>(&bytes).unwrap(), value);
    let mut cbor = Vec::new();
    ciborium::into_writer(&value, &mut cbor).unwrap();
    assert_eq!(
        ciborium::from_reader::<MapAnimal, _>(cbor.as_slice()).unwrap(),
        value
    );
}

/// `postcard_and_bincode` for a value written and read through profile `p`
/// (bincode as `bincode::serialize` writes: fixed-width ints).
fn profile_in_postcard_and_bincode(
    p: &Profile<dyn Shape>,
    value: &(dyn Shape + 'static),
) -> (Vec<u8>, Box<dyn Shape>, Box<dyn Shape>) {
    postcard_and_bincode(
        &p.serializable(value),
        |b| {
            p.deserialize(&mut postcard::Deserializer::from_bytes(b))
                .unwrap()
        },
        |b| {
            use bincode::Options;
            let options = bincode::DefaultOptions::new()
                .with_fixint_encoding()
                .allow_trailing_bytes();
            p.deserialize(&mut bincode::Deserializer::from_slice(b, options))
                .unwrap()
        },
    )
}

#[rstest]
#[case::circle(Box::new(Circle { r: 2.0 }), r#"{"kind":"round","r":2.0}"#)]
#[case::square(Box::new(Square { side: 1.5 }), r#"{"kind":"square","side":1.5}"#)]
#[case::empty(Box::new(Dot {}), r#"{"kind":"dot"}"#)]
fn as_map_profiles_round_trip_in_postcard_and_bincode(
    #[case] value: Box<dyn Shape>,
    #[case] json: &str,
) {
    let p = map_profile();
    let (_, from_postcard, from_bincode) = profile_in_postcard_and_bincode(p, &*value);
    assert_eq!(format!("{from_postcard:?}"), format!("{value:?}"));
    assert_eq!(format!("{from_bincode:?}"), format!("{value:?}"));
    assert_eq!(p.to_string(&*value).unwrap(), json);
    assert_eq!(
        format!("{:?}", p.from_str(json).unwrap()),
        format!("{value:?}")
    );
}

/// Negative and positive int tags: every tag is read with
/// `deserialize_i64`, so a profile writes each one as an `i64` (a `u64` is
/// another encoding in postcard and bincode). The JSON is the same.
#[rstest]
#[case::positive(Box::new(Circle { r: 2.0 }), r#"{"kind":1,"r":2.0}"#)]
#[case::negative(Box::new(Square { side: 1.5 }), r#"{"kind":-2,"side":1.5}"#)]
fn as_map_mixed_sign_int_tags_round_trip_in_profiles(
    #[case] value: Box<dyn Shape>,
    #[case] json: &str,
) {
    let p = Profile::<dyn Shape>::builder()
        .tag("kind")
        .as_map()
        .subtype::<Circle>(1)
        .subtype::<Square>(-2)
        .build()
        .unwrap();
    let (bytes, from_postcard, from_bincode) = profile_in_postcard_and_bincode(&p, &*value);
    // The map's length, the key, then the tag as a zigzag varint.
    let tag: &[u8] = if json.contains("-2") {
        b"\x03"
    } else {
        b"\x02"
    };
    assert_eq!(&bytes[..7], [b"\x02\x04kind", tag].concat().as_slice());
    assert_eq!(format!("{from_postcard:?}"), format!("{value:?}"));
    assert_eq!(format!("{from_bincode:?}"), format!("{value:?}"));
    assert_eq!(p.to_string(&*value).unwrap(), json);
}

/// With the tag after a field a format that does not describe itself
/// cannot keep the field for later: the error says the tag must come first.
#[test]
fn as_map_needs_the_tag_first_in_bincode() {
    // {"age": 3, "type": "fish"} as a bincode map.
    let bytes = [
        &2u64.to_le_bytes()[..],
        &3u64.to_le_bytes(),
        b"age\x03\0\0\0",
        &4u64.to_le_bytes(),
        b"type",
        &4u64.to_le_bytes(),
        b"fish",
    ]
    .concat();
    let err = bincode::deserialize::<MapAnimal>(&bytes).unwrap_err();
    assert_eq!(
        err.to_string(),
        "Bincode does not support the serde::Deserializer::deserialize_any method: a key came before the tag `type` of MapAnimal, and a format that does not describe itself (postcard, bincode) reads an `as_map` value only with its tag first"
    );
}

/// A format error from deep inside a trait object keeps its size through
/// the levels: ciborium writes its errors with `Debug`, so an error wrapped
/// again at each level (as it was) escaped the message once more per level
/// and 30 levels made gigabytes (the `cbor` fuzz target's finding, kept as
/// `fuzz/artifacts/cbor/finding-nested-error-doubles`).
#[rstest]
#[case::one_level(1)]
#[case::ten_levels(10)]
#[case::thirty_levels(30)]
#[case::two_hundred_levels(200)]
fn nested_cbor_errors_do_not_grow_with_depth(#[case] levels: usize) {
    // {"shape": "x", [[...[<text with a bad chunk>]...]]: 1}: an unknown tag,
    // so the fallback buffers the next key, nested `levels` arrays deep.
    let mut cbor = vec![0xa2, 0x65];
    cbor.extend_from_slice(b"shape");
    cbor.extend_from_slice(&[0x61, b'x']);
    cbor.extend(std::iter::repeat(0x81).take(levels));
    cbor.extend_from_slice(&[0x7f, 0x01, 0xff, 0x01]);
    let err = ciborium::de::from_reader_with_recursion_limit::<ShapeBox, _>(cbor.as_slice(), 1024)
        .unwrap_err();
    let expected = if levels < 128 {
        // The offset of the bad chunk, wrapped once where the error leaves
        // the trait object.
        format!("Semantic(None, \"Syntax({})\")", levels + 10)
    } else {
        "Semantic(None, \"recursion limit exceeded\")".to_owned()
    };
    assert_eq!(err.to_string(), expected);
}

/// A map without the tag ends where the format says: the fallback takes
/// it, and the reader stops at the map's end (an indefinite-length CBOR map
/// was read past its break: the `cbor` fuzz target's finding, kept as
/// `fuzz/artifacts/cbor/finding-indefinite-map-without-tag`).
#[test]
fn a_map_without_the_tag_is_not_read_past_its_end() {
    // {_ "n": 1} then two more items, 2 and 2.
    let cbor = [0xbf, 0x61, b'n', 0x01, 0xff, 0x02, 0x02];
    let mut rest = &cbor[..];
    let read: ShapeBox = ciborium::from_reader(&mut rest).unwrap();
    assert_eq!(read.0.area().to_bits(), f64::NAN.to_bits());
    assert_eq!(rest, &[0x02, 0x02]);
    let mut rest = &cbor[..];
    let read: Animal = ciborium::from_reader(&mut rest).unwrap();
    assert!(matches!(read, Animal::Other(_)), "{read:?}");
    assert_eq!(rest, &[0x02, 0x02]);

    // Presence mode reads the whole object before it decides, too.
    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Named {
        n: u8,
    }
    #[json_subtypes]
    #[derive(Debug, PartialEq)]
    enum ByField {
        #[json_subtypes(when_field = "n")]
        Named(Named),
    }
    let mut rest = &cbor[..];
    let read: ByField = ciborium::from_reader(&mut rest).unwrap();
    assert_eq!(read, ByField::Named(Named { n: 1 }));
    assert_eq!(rest, &[0x02, 0x02]);
}

// ---------------------------------------------------------------------------
// Keys that are not strings (the `cbor` findings `finding-integer-key-*`,
// now `fuzz/regressions/cbor/integer-key-*`).

/// Which reader a CBOR input goes through, each with its fallback.
#[derive(Clone, Copy, Debug)]
enum CborReader {
    Enum,
    Boxed,
    Profiled,
}

impl CborReader {
    fn tag(self) -> &'static str {
        match self {
            CborReader::Enum => "type",
            CborReader::Boxed => "shape",
            CborReader::Profiled => "kind",
        }
    }

    /// The value read, written as JSON and back as CBOR; or the error.
    fn read(self, cbor: &[u8]) -> Result<(String, Vec<u8>), String> {
        fn read<T: Serialize + DeserializeOwned>(cbor: &[u8]) -> Result<(String, Vec<u8>), String> {
            let value: T = ciborium::from_reader(cbor).map_err(|e| e.to_string())?;
            let json = serde_json::to_string(&value).unwrap_or_else(|e| e.to_string());
            let mut back = Vec::new();
            ciborium::into_writer(&value, &mut back).unwrap();
            Ok((json, back))
        }
        match self {
            CborReader::Enum => read::<Animal>(cbor),
            CborReader::Boxed => read::<ShapeBox>(cbor),
            CborReader::Profiled => read::<Profiled>(cbor),
        }
    }
}

/// A two-entry CBOR map: `key: 2` and the reader's tag `"x"` (unknown, so
/// the fallback takes it), the tag first or not.
fn cbor_with_key(reader: CborReader, key: &[u8], tag_first: bool) -> Vec<u8> {
    let tag = reader.tag();
    let mut tag_entry = vec![0x60 + tag.len() as u8];
    tag_entry.extend_from_slice(tag.as_bytes());
    tag_entry.extend_from_slice(&[0x61, b'x']);
    let mut key_entry = key.to_vec();
    key_entry.push(0x02);
    let mut cbor = vec![0xa2];
    if tag_first {
        cbor.extend(tag_entry.iter().chain(&key_entry));
    } else {
        cbor.extend(key_entry.iter().chain(&tag_entry));
    }
    cbor
}

/// `{1: 2, "type": "x"}` reads as `{"type": "x", 1: 2}` does: a key that
/// is no string cannot be the tag, and is kept as the format gave it (it
/// was asked for as a field name, which ciborium answers only with text:
/// ``invalid type: integer `1`, expected str or bytes``).
#[rstest]
#[case::enum_key_before_tag(CborReader::Enum, false, r#"{"1":2,"type":"x"}"#)]
#[case::enum_key_after_tag(CborReader::Enum, true, r#"{"type":"x","1":2}"#)]
#[case::dyn_key_before_tag(CborReader::Boxed, false, r#"{"1":2,"shape":"x"}"#)]
#[case::dyn_key_after_tag(CborReader::Boxed, true, r#"{"shape":"x","1":2}"#)]
#[case::profile_key_before_tag(CborReader::Profiled, false, r#"{"1":2,"kind":"x"}"#)]
#[case::profile_key_after_tag(CborReader::Profiled, true, r#"{"kind":"x","1":2}"#)]
fn an_integer_key_reads_the_same_before_and_after_the_tag(
    #[case] reader: CborReader,
    #[case] tag_first: bool,
    #[case] json: &str,
) {
    let cbor = cbor_with_key(reader, &[0x01], tag_first);
    let (read, back) = reader.read(&cbor).unwrap();
    assert_eq!(read, json);
    assert_eq!(back, cbor);
}

/// Keys of every kind CBOR has, before the tag as after it, go to the
/// fallback and are written back as they came, byte for byte.
#[rstest]
fn keys_of_any_kind_are_kept_as_they_came(
    #[values(CborReader::Enum, CborReader::Boxed, CborReader::Profiled)] reader: CborReader,
    #[values(true, false)] tag_first: bool,
    #[values(
        &[0x20][..],                   // -1
        &[0x3b, 0x80, 0, 0, 0, 0, 0, 0, 0][..], // -2^63 - 1, beyond i64
        &[0xf9, 0x3e, 0x00][..],       // 1.5
        &[0xf5][..],                   // true
        &[0xf6][..],                   // null
        &[0x41, 0x01][..],             // the bytes h'01'
        &[0x81, 0x01][..],             // [1]
        &[0xa1, 0x01, 0x02][..],       // {1: 2}
    )]
    key: &[u8],
) {
    let cbor = cbor_with_key(reader, key, tag_first);
    let (_, back) = reader.read(&cbor).unwrap();
    assert_eq!(back, cbor);
}

/// Integer keys in YAML are names to a payload (serde_norway reads a key
/// `1` as "1" when asked for a field name), before the tag as after it.
#[rstest]
#[case::key_before_tag("{1: 2, type: dog, name: Rex, age: 3}")]
#[case::key_after_tag("{type: dog, 1: 2, name: Rex, age: 3}")]
fn yaml_integer_keys_are_names_before_the_tag_as_after_it(#[case] yaml: &str) {
    let read: Animal = serde_norway::from_str(yaml).unwrap();
    assert_eq!(
        read,
        Animal::Dog(Dog {
            name: "Rex".into(),
            age: 3
        })
    );
}

// ---------------------------------------------------------------------------
// serde_json's `arbitrary_precision` (CI's second run, `.ci/run`) hands a
// number over as a one-entry map, `{"$serde_json::private::Number": "0.4"}`.
// These run with and without it and expect the same.

/// A bare number where an object is expected is refused as the number it
/// is, not read as an object without its tag by the fallback.
#[rstest]
#[case::enum_float(
    "0.4",
    "invalid type: floating point `0.4`, expected a map with a `type` tag for Animal"
)]
#[case::enum_integer(
    "4",
    "invalid type: integer `4`, expected a map with a `type` tag for Animal"
)]
#[case::enum_negative(
    "-4",
    "invalid type: integer `-4`, expected a map with a `type` tag for Animal"
)]
#[case::enum_negative_zero(
    "-0",
    "invalid type: floating point `-0.0`, expected a map with a `type` tag for Animal"
)]
#[case::enum_beyond_u64(
    "18446744073709551616",
    "invalid type: floating point `1.8446744073709552e+19`, expected a map with a `type` tag for Animal"
)]
fn a_bare_number_is_not_an_object(#[case] json: &str, #[case] expected: &str) {
    let err = serde_json::from_str::<Animal>(json).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!("{expected} at line 1 column {}", json.len())
    );
}

/// The same from a `serde_json::Value`. (With `arbitrary_precision` a
/// `Value` hands over `-0` as the integer 0 and integers beyond 64 bits as
/// 128-bit ones, without it as floats: serde_json's own difference.)
#[rstest]
#[case::float(
    "0.4",
    "invalid type: floating point `0.4`, expected a map with a `type` tag for Animal"
)]
#[case::integer(
    "4",
    "invalid type: integer `4`, expected a map with a `type` tag for Animal"
)]
#[case::negative(
    "-4",
    "invalid type: integer `-4`, expected a map with a `type` tag for Animal"
)]
fn a_bare_number_value_is_not_an_object(#[case] json: &str, #[case] expected: &str) {
    let value: serde_json::Value = serde_json::from_str(json).unwrap();
    let err = serde_json::from_value::<Animal>(value).unwrap_err();
    assert_eq!(err.to_string(), expected);
}

fn json_error<T: DeserializeOwned>(json: &str) -> String {
    serde_json::from_str::<T>(json)
        .map(drop)
        .unwrap_err()
        .to_string()
}

/// The same for a trait object, a profile, presence mode, and inside a
/// sequence.
#[rstest]
#[case::trait_object(
    json_error::<ShapeBox>("0.4"),
    "invalid type: floating point `0.4`, expected a map with a `shape` tag for dyn Shape at line 1 column 3"
)]
#[case::profile(
    json_error::<Profiled>("0.4"),
    "invalid type: floating point `0.4`, expected a map with a `kind` tag for profile of dyn Shape at line 1 column 3"
)]
#[case::presence(
    json_error::<Employee>("0.4"),
    "invalid type: floating point `0.4`, expected a map for Employee at line 1 column 3"
)]
#[case::in_a_sequence(
    json_error::<Vec<Animal>>(r#"[{"type": "fish"}, 0.4]"#),
    "invalid type: floating point `0.4`, expected a map with a `type` tag for Animal at line 1 column 22"
)]
fn a_bare_number_is_not_an_object_anywhere(#[case] error: String, #[case] expected: &str) {
    assert_eq!(error, expected);
}

/// An object that only looks like the feature's number map (its digits are
/// no number) is an object without its tag, for the fallback.
#[test]
fn a_number_look_alike_is_an_object() {
    let json = r#"{"$serde_json::private::Number":"abc"}"#;
    let read: Animal = serde_json::from_str(json).unwrap();
    assert!(matches!(read, Animal::Other(_)), "{read:?}");
    assert_eq!(serde_json::to_string(&read).unwrap(), json);
}
