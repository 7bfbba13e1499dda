//! Rust's own attributes where `#[json_subtypes]` reads: `cfg` and
//! `cfg_attr` as a library gates optional serde support, `deprecated`, and
//! generated code that never warns. `all()` (and `test` in `cfg`, where
//! clippy asks for a condition) stands for a feature that is on and `any()`
//! for one that is off, so both sides build in one test.
//! Each gated declaration has a plain twin: the same bytes and errors.
#![deny(warnings)]
#![warn(clippy::pedantic)]
#![allow(clippy::needless_pass_by_value)]

use json_subtypes::{json_subtypes, Tagged, Unknown};
use rstest::rstest;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Whale {
    tons: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Dog {
    name: String,
}

/// Everything behind a predicate that holds.
#[cfg_attr(all(), json_subtypes(tag = "op"))]
#[cfg_attr(all(), json_subtypes(rename_all = "snake_case"))]
#[derive(Debug, Clone, PartialEq)]
enum Gated {
    #[cfg_attr(all(), json_subtypes(name = "add", alias = "plus"))]
    Add {
        #[cfg_attr(all(), serde(rename = "lhs"))]
        a: i32,
        #[cfg_attr(any(), serde(rename = "never"))]
        b: i32,
        #[cfg_attr(all(), serde(default))]
        carry: u8,
        #[cfg(any())]
        debug_info: String,
    },
    #[cfg(any())]
    Sub { a: i32 },
    #[cfg(test)]
    Neg { a: i32 },
    #[cfg_attr(all(), json_subtypes(name = 7))]
    Dog(Dog),
    #[cfg_attr(all(), json_subtypes(nested))]
    Sea(GatedSea),
    #[cfg_attr(any(), json_subtypes(name = "never"))]
    Unit,
    #[cfg_attr(all(), cfg_attr(all(), json_subtypes(fallback)))]
    Other(Unknown),
}

#[cfg_attr(all(), json_subtypes(tag = "op"))]
#[derive(Debug, Clone, PartialEq)]
enum GatedSea {
    #[cfg_attr(all(), json_subtypes(name = "whale"))]
    Whale(Whale),
}

/// The same enum written plainly.
#[json_subtypes(tag = "op", rename_all = "snake_case")]
#[derive(Debug, Clone, PartialEq)]
enum Plain {
    #[json_subtypes(name = "add", alias = "plus")]
    Add {
        #[serde(rename = "lhs")]
        a: i32,
        b: i32,
        #[serde(default)]
        carry: u8,
    },
    Neg {
        a: i32,
    },
    #[json_subtypes(name = 7)]
    Dog(Dog),
    #[json_subtypes(nested)]
    Sea(PlainSea),
    Unit,
    #[json_subtypes(fallback)]
    Other(Unknown),
}

#[json_subtypes(tag = "op")]
#[derive(Debug, Clone, PartialEq)]
enum PlainSea {
    #[json_subtypes(name = "whale")]
    Whale(Whale),
}

/// Behind a predicate that does not hold: a plain enum, no serde at all.
#[cfg_attr(any(), json_subtypes(tag = "op"))]
#[derive(Debug, Clone, PartialEq)]
enum Off {
    #[cfg_attr(any(), json_subtypes(name = "add"))]
    Add {
        #[cfg_attr(any(), serde(rename = "lhs"))]
        a: i32,
    },
}

#[rstest]
#[case::struct_variant(r#"{"op":"add","lhs":1,"b":2}"#)]
#[case::alias(r#"{"lhs":1,"b":2,"op":"plus"}"#)]
#[case::renamed_variant(r#"{"op":"neg","a":3}"#)]
#[case::int_tag(r#"{"op":7,"name":"Rex"}"#)]
#[case::nested(r#"{"op":"whale","tons":40}"#)]
#[case::unit(r#"{"op":"unit"}"#)]
#[case::fallback(r#"{"op":"sub","a":1}"#)]
#[case::gated_field_is_unknown(r#"{"op":"add","lhs":1,"b":2,"debug_info":"x"}"#)]
fn gated_reads_and_writes_as_plain(#[case] json: &str) {
    let gated: Gated = serde_json::from_str(json).unwrap();
    let plain: Plain = serde_json::from_str(json).unwrap();
    let written = serde_json::to_string(&gated).unwrap();
    assert_eq!(written, serde_json::to_string(&plain).unwrap());
    assert_eq!(serde_json::from_str::<Gated>(&written).unwrap(), gated);
}

#[test]
fn gated_fields_and_variants_are_what_the_predicates_say() {
    let read: Gated = serde_json::from_str(r#"{"op":"add","lhs":1,"b":2}"#).unwrap();
    assert_eq!(
        read,
        Gated::Add {
            a: 1,
            b: 2,
            carry: 0
        }
    );
    assert_eq!(
        serde_json::to_string(&read).unwrap(),
        r#"{"op":"add","lhs":1,"b":2,"carry":0}"#
    );
    // `Sub` does not exist: its tag lands in the fallback as any unknown one.
    let sub: Gated = serde_json::from_str(r#"{"op":"sub","a":1}"#).unwrap();
    assert!(matches!(sub, Gated::Other(_)));
    assert_eq!(
        serde_json::to_string(&sub).unwrap(),
        r#"{"op":"sub","a":1}"#
    );
}

#[rstest]
#[case::missing_field(r#"{"op":"add","b":2}"#)]
#[case::wrong_type(r#"{"op":"add","lhs":"1","b":2}"#)]
#[case::nested_body(r#"{"op":"whale","tons":"x"}"#)]
#[case::not_a_map("[1]")]
fn gated_errors_are_plain_errors(#[case] json: &str) {
    let gated = serde_json::from_str::<Gated>(json).unwrap_err().to_string();
    let plain = serde_json::from_str::<Plain>(json).unwrap_err().to_string();
    assert_eq!(gated, plain.replace("Plain", "Gated"));
}

#[test]
fn an_unknown_tag_lists_only_the_variants_that_exist() {
    #[json_subtypes(tag = "type")]
    #[derive(Debug)]
    enum Closed {
        A {
            x: u8,
        },
        #[cfg(any())]
        B {
            w: u8,
        },
        #[cfg_attr(all(), json_subtypes(name = "c"))]
        C {
            w: u8,
        },
    }
    let err = serde_json::from_str::<Closed>(r#"{"type":"B","w":1}"#).unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"unknown subtype tag "B", expected one of "A", "c" at line 1 column 11"#
    );
    let c: Closed = serde_json::from_str(r#"{"type":"c","w":1}"#).unwrap();
    assert_eq!(serde_json::to_string(&c).unwrap(), r#"{"type":"c","w":1}"#);
}

#[test]
fn tagged_payloads_of_gated_variants() {
    let dog = Dog { name: "Rex".into() };
    let text = serde_json::to_string(&Tagged::<&Dog, Gated>::new(&dog)).unwrap();
    assert_eq!(text, r#"{"op":7,"name":"Rex"}"#);
    let back: Tagged<Dog, Gated> = serde_json::from_str(&text).unwrap();
    assert_eq!(back.into_inner(), dog);
    let err = serde_json::from_str::<Tagged<Dog, Gated>>(r#"{"op":"neg","a":1}"#).unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"expected subtype tag 7 (Gated::Dog), found "neg""#
    );
}

#[test]
fn off_is_a_plain_enum() {
    let off = Off::Add { a: 1 };
    assert_eq!(format!("{off:?}"), "Add { a: 1 }");
    assert_eq!(off.clone(), off);
}

/// Trait objects: the trait and each impl behind `cfg_attr`, and impls
/// that exist only under a predicate.
#[cfg_attr(all(), json_subtypes(tag = "type"))]
trait Figure: std::fmt::Debug {
    fn area(&self) -> f64;
}

#[derive(Debug, Serialize, Deserialize)]
struct Circle {
    r: f64,
}

#[cfg_attr(all(), json_subtypes(name = "circle", alias = "round"))]
impl Figure for Circle {
    fn area(&self) -> f64 {
        3.0 * self.r * self.r
    }
}

#[derive(Debug, Serialize, Deserialize)]
struct Square {
    s: f64,
}

#[cfg(any())]
#[json_subtypes(name = "square")]
impl Figure for Square {
    fn area(&self) -> f64 {
        self.s * self.s
    }
}

#[json_subtypes(name = "square2")]
#[cfg(any())]
impl Figure for Square {
    fn area(&self) -> f64 {
        self.s * self.s
    }
}

#[cfg_attr(any(), json_subtypes(name = "never"))]
impl Figure for Square {
    fn area(&self) -> f64 {
        self.s * self.s
    }
}

#[derive(Debug, Serialize, Deserialize)]
struct Blob(Unknown);

#[cfg_attr(all(), json_subtypes(fallback))]
impl Figure for Blob {
    fn area(&self) -> f64 {
        0.0
    }
}

#[rstest]
#[case::registered(r#"{"type":"circle","r":1.0}"#, r#"{"type":"circle","r":1.0}"#)]
#[case::alias(r#"{"r":1.0,"type":"round"}"#, r#"{"type":"circle","r":1.0}"#)]
#[case::gated_off_is_unknown(r#"{"type":"square","s":2.0}"#, r#"{"type":"square","s":2.0}"#)]
#[case::gated_off_after(r#"{"type":"square2","s":2.0}"#, r#"{"type":"square2","s":2.0}"#)]
fn gated_impls(#[case] json: &str, #[case] written: &str) {
    let figure: Box<dyn Figure> = serde_json::from_str(json).unwrap();
    let text = serde_json::to_string(&figure).unwrap();
    assert_eq!(text, written);
    let again: Box<dyn Figure> = serde_json::from_str(&text).unwrap();
    assert_eq!(serde_json::to_string(&again).unwrap(), written);
}

#[test]
fn an_impl_behind_a_false_predicate_is_not_registered() {
    json_subtypes::verify_registry::<dyn Figure>().unwrap();
    let square: Box<dyn Figure> = Box::new(Square { s: 1.0 });
    assert!((square.area() - 1.0).abs() < f64::EPSILON);
    let err = serde_json::to_string(&square).unwrap_err().to_string();
    assert!(
        err.contains("is not a registered subtype of dyn Figure"),
        "{err}"
    );
}

/// `deprecated` variants and fields: the crate denies warnings, so the
/// generated code must not use them in a way that warns.
#[json_subtypes(tag = "type")]
#[derive(Debug, Clone, PartialEq)]
enum Event {
    A {
        x: u8,
    },
    #[deprecated(note = "use A")]
    B {
        #[deprecated]
        y: u8,
    },
    #[deprecated]
    C(Dog),
    #[deprecated]
    D,
}

/// The same through serde's own derive on a twin (a field attribute the
/// lean path does not take).
#[json_subtypes(tag = "type")]
#[derive(Debug, Clone, PartialEq)]
enum EventTwin {
    A {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        x: Option<u8>,
    },
    #[deprecated(note = "use A")]
    B {
        #[deprecated]
        #[serde(default)]
        y: u8,
    },
    #[deprecated]
    C(Dog),
}

#[test]
#[allow(deprecated)]
fn deprecated_variants_read_and_write() {
    let b: Event = serde_json::from_str(r#"{"type":"B","y":1}"#).unwrap();
    assert_eq!(b, Event::B { y: 1 });
    assert_eq!(serde_json::to_string(&b).unwrap(), r#"{"type":"B","y":1}"#);
    let d: Event = serde_json::from_str(r#"{"type":"D"}"#).unwrap();
    assert_eq!(serde_json::to_string(&d).unwrap(), r#"{"type":"D"}"#);
    let c: Event = serde_json::from_str(r#"{"type":"C","name":"Rex"}"#).unwrap();
    assert_eq!(
        serde_json::to_string(&c).unwrap(),
        r#"{"type":"C","name":"Rex"}"#
    );
    let a: Event = serde_json::from_str(r#"{"type":"A","x":1}"#).unwrap();
    assert_eq!(serde_json::to_string(&a).unwrap(), r#"{"type":"A","x":1}"#);

    let b: EventTwin = serde_json::from_str(r#"{"type":"B"}"#).unwrap();
    assert_eq!(b, EventTwin::B { y: 0 });
    assert_eq!(serde_json::to_string(&b).unwrap(), r#"{"type":"B","y":0}"#);
    let c: EventTwin = serde_json::from_str(r#"{"type":"C","name":"Rex"}"#).unwrap();
    assert_eq!(
        serde_json::to_string(&c).unwrap(),
        r#"{"type":"C","name":"Rex"}"#
    );
    let a: EventTwin = serde_json::from_str(r#"{"type":"A"}"#).unwrap();
    assert_eq!(serde_json::to_string(&a).unwrap(), r#"{"type":"A"}"#);
}
