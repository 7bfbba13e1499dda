//! No state left behind: a payload whose `Deserialize` or `Serialize`
//! panics, or a format that panics before it visits, caught with
//! `catch_unwind` as web servers do per request; then the next reads and
//! writes on that thread give exactly what they give on a fresh thread.

use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Once;

use json_subtypes::{json_subtypes, Profile, Unknown};
use rstest::rstest;
use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize, Serializer};

/// The message of every panic these tests cause on purpose.
const BOOM: &str = "boom: the payload gave up";

/// Keeps the expected panics quiet; any other panic prints as usual.
fn quiet_expected_panics() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let message = info
                .payload()
                .downcast_ref::<&str>()
                .copied()
                .or_else(|| info.payload().downcast_ref::<String>().map(String::as_str));
            if message != Some(BOOM) {
                default(info);
            }
        }));
    });
}

/// `"boom": true` panics; anything else reads as usual.
fn explode<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    let boom = bool::deserialize(d)?;
    if boom {
        panic!("{}", BOOM);
    }
    Ok(boom)
}

fn explode_on_write<S: Serializer>(_: &bool, _: S) -> Result<S::Ok, S::Error> {
    panic!("{}", BOOM)
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Bomb {
    #[serde(deserialize_with = "explode")]
    boom: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct WriteBomb {
    #[serde(serialize_with = "explode_on_write")]
    boom: bool,
}

// ---------------------------------------------------------------------------
// The types that panic.

#[json_subtypes(tag = "type")]
#[derive(Debug, Clone, PartialEq)]
enum Tagged {
    #[json_subtypes(name = "bomb")]
    Bomb(Bomb),
    #[json_subtypes(name = "write_bomb")]
    WriteBomb(WriteBomb),
    #[json_subtypes(nested)]
    Nested(Inner),
}

#[json_subtypes(tag = "type")]
#[derive(Debug, Clone, PartialEq)]
enum Inner {
    #[json_subtypes(name = "inner_bomb")]
    Bomb(Bomb),
}

/// A known variant next to an `Unknown` fallback: no hoisting here.
#[json_subtypes(tag = "type")]
#[derive(Debug, Clone, PartialEq)]
enum WithUnknown {
    #[json_subtypes(name = "bomb")]
    Bomb(Bomb),
    #[json_subtypes(fallback)]
    Other(Unknown),
}

/// The fallback payload itself panics.
#[json_subtypes(tag = "type")]
#[derive(Debug, Clone, PartialEq)]
enum BombFallback {
    #[json_subtypes(name = "quiet")]
    Quiet { n: u8 },
    #[json_subtypes(fallback)]
    Other(Bomb),
}

/// The externally and adjacently tagged forms enter their levels outside
/// the walk (the external form with a guard that puts back only the
/// nesting).
#[json_subtypes(external)]
#[derive(Debug, Clone, PartialEq)]
enum External {
    #[json_subtypes(name = "bomb")]
    Bomb(Bomb),
}

#[json_subtypes(tag = "type", content = "value")]
#[derive(Debug, Clone, PartialEq)]
enum Adjacent {
    #[json_subtypes(name = "bomb")]
    Bomb(Bomb),
}

#[json_subtypes]
#[derive(Debug, Clone, PartialEq)]
enum Presence {
    #[json_subtypes(when_field = "boom")]
    Bomb(Bomb),
    #[json_subtypes(when_field = "calm")]
    Calm { calm: u8 },
}

#[json_subtypes(tag = "type")]
trait Shape {
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

#[json_subtypes(name = "bomb")]
impl Shape for Bomb {
    fn area(&self) -> f64 {
        0.0
    }
}

#[json_subtypes(name = "write_bomb")]
impl Shape for WriteBomb {
    fn area(&self) -> f64 {
        0.0
    }
}

/// Unlike the registry: tag `kind`, circle `round`.
fn profile() -> Profile<dyn Shape> {
    Profile::<dyn Shape>::builder()
        .tag("kind")
        .subtype::<Circle>("round")
        .subtype::<Bomb>("bomb")
        .subtype::<WriteBomb>("write_bomb")
        .build()
        .unwrap()
}

/// A format that panics before it visits anything (as a format with a bug
/// might on corrupt input): the engine's visitor never gets to clear what
/// was set for it.
struct PanickingFormat;

impl<'de> Deserializer<'de> for PanickingFormat {
    type Error = de::value::Error;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
        panic!("{}", BOOM)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

// ---------------------------------------------------------------------------
// What must read and write the same afterwards.

/// A recursive type for depth: each level is one dispatch.
#[json_subtypes(tag = "op")]
#[derive(Debug, Clone, PartialEq)]
enum Expr {
    #[json_subtypes(name = "lit")]
    Lit { v: u8 },
    #[json_subtypes(name = "neg")]
    Neg { e: Box<Expr> },
}

/// A fallback that is not an `Unknown`: it must never see the tag hint.
#[json_subtypes(tag = "type")]
#[derive(Debug, Clone, PartialEq)]
enum MapFallback {
    #[json_subtypes(name = "known")]
    Known { n: u8 },
    #[json_subtypes(fallback)]
    Other(BTreeMap<String, serde_json::Value>),
}

#[derive(Deserialize)]
struct Drawing {
    shapes: Vec<Box<dyn Shape>>,
}

fn deep(levels: usize, tag_last: bool) -> String {
    let mut text = r#"{"op":"lit","v":7}"#.to_owned();
    for _ in 1..levels {
        text = if tag_last {
            format!(r#"{{"e":{text},"op":"neg"}}"#)
        } else {
            format!(r#"{{"op":"neg","e":{text}}}"#)
        };
    }
    text
}

fn show<T: std::fmt::Debug, E: std::fmt::Display>(out: Result<T, E>) -> String {
    match out {
        Ok(value) => format!("ok: {value:?}"),
        Err(e) => format!("err: {e}"),
    }
}

fn show_shape(out: serde_json::Result<Box<dyn Shape>>) -> String {
    show(out.map(|shape| shape.area()))
}

/// One read or write, shown as its value or its error message.
type Probe = fn() -> String;

/// Reads and writes touching every piece of engine state, each shown as
/// its value or its error message. Each one runs right after a panic: any
/// engine read resets some state for itself, which would hide what the
/// panic left from the probes after it.
fn probes() -> Vec<(&'static str, Probe)> {
    vec![
        // Tag hint: a fallback that is not an `Unknown` sees only the object.
        ("hint_tag_first", || {
            show(serde_json::from_str::<MapFallback>(
                r#"{"type":"cow","moo":1}"#,
            ))
        }),
        ("hint_tag_last", || {
            show(serde_json::from_str::<MapFallback>(
                r#"{"moo":1,"type":"cow"}"#,
            ))
        }),
        // Hoist key: a replay that is not the engine's keeps entry order.
        ("hoist_unknown", || {
            let again = serde_json::from_str::<Unknown>(r#"{"a":1,"type":"x","b":2}"#)
                .map_err(|e| e.to_string())
                .and_then(|u| u.deserialize_into::<Unknown>().map_err(|e| e.to_string()));
            show(again.map(|u| u.keys().map(str::to_owned).collect::<Vec<_>>()))
        }),
        ("hoist_value", || {
            show(
                serde_json::from_str::<Unknown>(r#"{"a":1,"type":"x","b":2}"#)
                    .map_err(|e| e.to_string())
                    .and_then(|u| {
                        u.deserialize_into::<serde_json::Value>()
                            .map_err(|e| e.to_string())
                    }),
            )
        }),
        ("hoist_get", || {
            show(
                serde_json::from_str::<Unknown>(r#"{"b":{"c":2,"type":"y"}}"#)
                    .map_err(|e| e.to_string())
                    .and_then(|u| match u.get::<serde_json::Value>("b") {
                        Some(got) => got.map_err(|e| e.to_string()),
                        None => Err("no entry `b`".to_owned()),
                    }),
            )
        }),
        // Depth: 100 levels read under the default limit of 128, 200 do not.
        ("depth_100_tag_first", || {
            show(serde_json::from_str::<Expr>(&deep(100, false)).map(|_| "100 levels"))
        }),
        ("depth_200_tag_first", || {
            show(serde_json::from_str::<Expr>(&deep(200, false)).map(|_| "200 levels"))
        }),
        ("depth_100_tag_last", || {
            show(serde_json::from_str::<Expr>(&deep(100, true)).map(|_| "100 levels"))
        }),
        ("depth_200_tag_last", || {
            show(serde_json::from_str::<Expr>(&deep(200, true)).map(|_| "200 levels"))
        }),
        // Scope: outside one, trait objects use the registry.
        ("registry_read", || {
            show_shape(serde_json::from_str(r#"{"type":"circle","r":1.0}"#))
        }),
        ("registry_refuses_profile", || {
            show_shape(serde_json::from_str(r#"{"kind":"round","r":1.0}"#))
        }),
        ("registry_in_a_struct", || {
            show(
                serde_json::from_str::<Drawing>(r#"{"shapes":[{"r":2.0,"type":"circle"}]}"#)
                    .map(|d| d.shapes.iter().map(|s| s.area()).collect::<Vec<_>>()),
            )
        }),
        ("registry_write", || {
            let circle: Box<dyn Shape> = Box::new(Circle { r: 1.0 });
            show(serde_json::to_string(&circle))
        }),
        ("profile_write", || {
            show(profile().to_string(&Circle { r: 1.0 }))
        }),
        ("scope_read", || {
            let p = profile();
            show_shape(p.scope(|| serde_json::from_str(r#"{"kind":"round","r":1.0}"#)))
        }),
        ("scope_write", || {
            let circle: Box<dyn Shape> = Box::new(Circle { r: 1.0 });
            show(profile().scope(|| serde_json::to_string(&circle)))
        }),
        // Every kind of read the panics went through, and their errors.
        ("every_read", || {
            let mut out = Vec::new();
            for text in [
                r#"{"type":"bomb","boom":false}"#,
                r#"{"boom":false,"type":"bomb"}"#,
                r#"{"type":"inner_bomb","boom":false}"#,
                r#"{"boom":false,"type":"inner_bomb"}"#,
                r#"{"type":"nope","boom":false}"#,
                r#"{"boom":"yes","type":"bomb"}"#,
            ] {
                out.push(show(serde_json::from_str::<Tagged>(text)));
                out.push(show(serde_json::from_str::<WithUnknown>(text)));
                out.push(show(serde_json::from_str::<BombFallback>(text)));
                out.push(show_shape(serde_json::from_str(text)));
            }
            for text in [r#"{"calm":1}"#, r#"{"boom":false}"#, r#"{"other":1}"#] {
                out.push(show(serde_json::from_str::<Presence>(text)));
            }
            out.join("\n")
        }),
        ("every_write", || {
            let values = [
                Tagged::Bomb(Bomb { boom: false }),
                Tagged::Nested(Inner::Bomb(Bomb { boom: false })),
            ];
            show(serde_json::to_string(&values))
        }),
    ]
}

fn fresh() -> Vec<(&'static str, String)> {
    std::thread::spawn(|| {
        probes()
            .into_iter()
            .map(|(name, probe)| (name, probe()))
            .collect()
    })
    .join()
    .unwrap()
}

// ---------------------------------------------------------------------------
// The cases.

fn read<T: for<'de> Deserialize<'de>>(text: &'static str) -> impl Fn() {
    move || drop(serde_json::from_str::<T>(text))
}

fn in_scope(text: &'static str) -> impl Fn() {
    move || {
        let p = profile();
        p.scope(|| p.scope(|| drop(serde_json::from_str::<Box<dyn Shape>>(text))));
    }
}

#[rstest]
#[case::tag_first(read::<Tagged>(r#"{"type":"bomb","boom":true}"#))]
#[case::tag_last(read::<Tagged>(r#"{"boom":true,"type":"bomb"}"#))]
#[case::nested_tag_first(read::<Tagged>(r#"{"type":"inner_bomb","boom":true}"#))]
#[case::nested_tag_last(read::<Tagged>(r#"{"boom":true,"type":"inner_bomb"}"#))]
#[case::in_a_vec_tag_last(read::<Vec<Tagged>>(r#"[{"type":"bomb","boom":false},{"boom":true,"type":"bomb"}]"#))]
#[case::beside_an_unknown_fallback(read::<WithUnknown>(r#"{"boom":true,"type":"bomb"}"#))]
#[case::fallback_payload_tag_first(read::<BombFallback>(r#"{"type":"nope","boom":true}"#))]
#[case::fallback_payload_tag_last(read::<BombFallback>(r#"{"boom":true,"type":"nope"}"#))]
#[case::presence(read::<Presence>(r#"{"boom":true}"#))]
#[case::external(read::<External>(r#"{"bomb":{"boom":true}}"#))]
#[case::adjacent(read::<Adjacent>(r#"{"type":"bomb","value":{"boom":true}}"#))]
#[case::adjacent_content_first(read::<Adjacent>(r#"{"value":{"boom":true},"type":"bomb"}"#))]
#[case::external_in_a_vec(read::<Vec<External>>(r#"[{"bomb":{"boom":false}},{"bomb":{"boom":true}}]"#))]
#[case::trait_object_tag_first(read::<Box<dyn Shape>>(r#"{"type":"bomb","boom":true}"#))]
#[case::trait_object_tag_last(read::<Box<dyn Shape>>(r#"{"boom":true,"type":"bomb"}"#))]
#[case::trait_object_in_a_struct(read::<Drawing>(r#"{"shapes":[{"boom":true,"type":"bomb"}]}"#))]
#[case::in_a_scope_tag_first(in_scope(r#"{"kind":"bomb","boom":true}"#))]
#[case::in_a_scope_tag_last(in_scope(r#"{"boom":true,"kind":"bomb"}"#))]
#[case::serialize_enum(|| drop(serde_json::to_string(&Tagged::WriteBomb(WriteBomb { boom: true }))))]
#[case::serialize_trait_object(|| {
    let shape: Box<dyn Shape> = Box::new(WriteBomb { boom: true });
    drop(serde_json::to_string(&shape));
})]
#[case::serialize_in_a_scope(|| {
    let shape: Box<dyn Shape> = Box::new(WriteBomb { boom: true });
    profile().scope(|| drop(serde_json::to_string(&vec![shape])));
})]
#[case::format_panics_before_an_enum(|| drop(Tagged::deserialize(PanickingFormat)))]
#[case::format_panics_before_a_nested_enum(|| drop(Inner::deserialize(PanickingFormat)))]
#[case::format_panics_before_a_trait_object(|| drop(<Box<dyn Shape>>::deserialize(PanickingFormat)))]
#[case::format_panics_before_an_unknown(|| drop(Unknown::deserialize(PanickingFormat)))]
#[case::format_panics_in_a_scope(|| profile().scope(|| drop(<Box<dyn Shape>>::deserialize(PanickingFormat))))]
fn the_next_reads_are_as_on_a_fresh_thread(#[case] panics: impl Fn() + Send + 'static) {
    quiet_expected_panics();
    let (after, panicked) = std::thread::spawn(move || {
        let mut panicked = 0;
        let mut panic = || panicked += catch_unwind(AssertUnwindSafe(&panics)).is_err() as usize;
        // Often enough that any count left behind would pass the depth limit.
        for _ in 0..200 {
            panic();
        }
        let mut out = Vec::new();
        for (name, probe) in probes() {
            panic();
            out.push((name, probe()));
        }
        (out, panicked)
    })
    .join()
    .unwrap();
    let differ: Vec<_> = after
        .into_iter()
        .zip(fresh())
        .filter(|(after, fresh)| after != fresh)
        .map(|((name, after), (_, fresh))| format!("{name}: {after} instead of {fresh}"))
        .collect();
    assert!(differ.is_empty(), "{differ:#?}");
    assert_eq!(panicked, 200 + probes().len(), "every run panics");
}

/// The probes themselves: what a fresh thread reads, so that a change in
/// the engine shows here rather than as two equal wrong answers.
#[test]
fn probes_read_what_they_should() {
    let out: std::collections::HashMap<_, _> = fresh().into_iter().collect();
    let tagged = r#"ok: Other({"moo": Number(1), "type": String("cow")})"#;
    assert_eq!(out["hint_tag_first"], tagged);
    assert_eq!(out["hint_tag_last"], tagged);
    assert_eq!(out["hoist_unknown"], r#"ok: ["a", "type", "b"]"#);
    assert_eq!(
        out["hoist_value"],
        r#"ok: Object {"a": Number(1), "type": String("x"), "b": Number(2)}"#
    );
    assert_eq!(
        out["hoist_get"],
        r#"ok: Object {"c": Number(2), "type": String("y")}"#
    );
    assert_eq!(out["depth_100_tag_first"], r#"ok: "100 levels""#);
    assert_eq!(
        out["depth_200_tag_first"],
        "err: recursion limit exceeded at line 1 column 2033"
    );
    assert_eq!(out["depth_100_tag_last"], r#"ok: "100 levels""#);
    assert_eq!(
        out["depth_200_tag_last"],
        "err: recursion limit exceeded at line 1 column 636"
    );
    assert_eq!(out["registry_read"], "ok: 3.0");
    assert_eq!(
        out["registry_refuses_profile"],
        "err: missing field `type` at line 1 column 24"
    );
    assert_eq!(out["registry_in_a_struct"], "ok: [12.0]");
    assert_eq!(
        out["registry_write"],
        r#"ok: "{\"type\":\"circle\",\"r\":1.0}""#
    );
    assert_eq!(
        out["profile_write"],
        r#"ok: "{\"kind\":\"round\",\"r\":1.0}""#
    );
    assert_eq!(out["scope_read"], "ok: 3.0");
    assert_eq!(
        out["scope_write"],
        r#"ok: "{\"kind\":\"round\",\"r\":1.0}""#
    );
    assert_eq!(
        out["every_write"],
        r#"ok: "[{\"type\":\"bomb\",\"boom\":false},{\"type\":\"inner_bomb\",\"boom\":false}]""#
    );
    let every_read: Vec<&str> = out["every_read"].lines().collect();
    assert_eq!(every_read.len(), 27);
    assert_eq!(every_read[0], "ok: Bomb(Bomb { boom: false })");
    assert_eq!(
        every_read[20],
        r#"err: invalid type: string "yes", expected a boolean at line 1 column 28"#
    );
    assert_eq!(
        every_read[26],
        "err: no subtype of Presence matches: expected one of the fields `boom`, `calm` at line 1 column 11"
    );
}
