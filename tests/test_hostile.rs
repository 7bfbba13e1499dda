//! Hostile input: nesting far beyond any limit (with serde_json's own limit
//! switched off), escaped keys and tags, lone surrogates, duplicate tags,
//! and many threads on one profile. Always an error or a correct value;
//! never a panic or a stack overflow.

use json_subtypes::{json_subtypes, Profile, Unknown};
use rstest::rstest;
use serde::{Deserialize, Serialize};

#[json_subtypes(tag = "op")]
#[derive(Debug, Clone, PartialEq)]
enum Expr {
    Num {
        value: i64,
    },
    Neg {
        arg: Box<Expr>,
    },
    #[json_subtypes(fallback)]
    Other(Unknown),
}

#[json_subtypes(tag = "op", max_depth = 400)]
#[derive(Debug, Clone, PartialEq)]
enum DeepExpr {
    Num { value: i64 },
    Neg { arg: Box<DeepExpr> },
}

fn chain(depth: usize, tag_last: bool) -> String {
    let mut out = String::with_capacity(depth * 24);
    for _ in 0..depth {
        out.push_str(if tag_last {
            r#"{"arg":"#
        } else {
            r#"{"op":"Neg","arg":"#
        });
    }
    out.push_str(r#"{"op":"Num","value":1}"#);
    for _ in 0..depth {
        out.push_str(if tag_last { r#","op":"Neg"}"# } else { "}" });
    }
    out
}

fn arrays(depth: usize) -> String {
    format!(
        r#"{{"op":"mystery","v":{}{}}}"#,
        "[".repeat(depth),
        "]".repeat(depth)
    )
}

/// Runs `f` on a thread with a 2 MiB stack, as many thread pools use.
fn small_stack<R: Send + 'static>(f: impl FnOnce() -> R + Send + 'static) -> R {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap()
}

fn read_unbounded<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_str(text);
    de.disable_recursion_limit();
    T::deserialize(&mut de)
}

#[rstest]
#[cfg_attr(
    miri,
    ignore = "100,000 levels: hours under Miri (the engine code is the shallow cases')"
)]
fn deep_nesting_is_an_error_not_a_stack_overflow(
    #[values(1_000, 100_000)] depth: usize,
    #[values("tag first", "tag last", "fallback")] shape: &'static str,
) {
    let message = small_stack(move || {
        let text = match shape {
            "tag first" => chain(depth, false),
            "tag last" => chain(depth, true),
            _ => arrays(depth),
        };
        read_unbounded::<Expr>(&text).unwrap_err().to_string()
    });
    assert!(message.starts_with("recursion limit exceeded"), "{message}");
}

#[rstest]
#[case::tag_first(false)]
#[case::tag_last(true)]
fn within_the_limit_deep_values_read(#[case] tag_last: bool) {
    small_stack(move || {
        let value: Expr = read_unbounded(&chain(100, tag_last)).unwrap();
        let mut depth = 0;
        let mut e = &value;
        while let Expr::Neg { arg } = e {
            depth += 1;
            e = arg;
        }
        assert_eq!(depth, 100);
    });
}

#[test]
fn max_depth_raises_the_limit() {
    // A raised limit needs the stack to go with it (unoptimized builds use
    // several KiB per level).
    let big_stack = std::thread::Builder::new().stack_size(64 << 20);
    let handle = big_stack.spawn(|| {
        // 300 levels: beyond the default, within `max_depth = 400`.
        let value: DeepExpr = read_unbounded(&chain(300, true)).unwrap();
        assert!(matches!(value, DeepExpr::Neg { .. }));
        let err = read_unbounded::<DeepExpr>(&chain(500, false)).unwrap_err();
        assert!(
            err.to_string().starts_with("recursion limit exceeded"),
            "{err}"
        );
        let err = read_unbounded::<Expr>(&chain(300, false)).unwrap_err();
        assert!(
            err.to_string().starts_with("recursion limit exceeded"),
            "{err}"
        );
    });
    handle.unwrap().join().unwrap();
}

// ---------------------------------------------------------------------------
// Keys and tags as the input spells them.

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Dog {
    name: String,
}

#[json_subtypes(tag = "type")]
#[derive(Debug, Clone, PartialEq)]
enum Animal {
    #[json_subtypes(name = "dög")]
    Dog(Dog),
}

#[rstest]
#[case::escaped_key_first(r#"{"\u0074ype":"dög","name":"a"}"#)]
#[case::escaped_key_last(r#"{"name":"a","\u0074\u0079pe":"dög"}"#)]
#[case::escaped_tag(r#"{"type":"d\u00f6g","name":"a"}"#)]
#[case::escaped_tag_last(r#"{"name":"a","type":"d\u00F6g"}"#)]
#[case::escaped_field_name(r#"{"n\u0061me":"a","type":"dög"}"#)]
fn escapes_are_read_as_what_they_mean(#[case] text: &str) {
    assert_eq!(
        serde_json::from_str::<Animal>(text).unwrap(),
        Animal::Dog(Dog { name: "a".into() })
    );
}

#[rstest]
#[case::lone_surrogate_in_tag(
    r#"{"type":"\ud800","name":"a"}"#,
    "unexpected end of hex escape at line 1 column 16"
)]
#[case::lone_surrogate_in_key(
    r#"{"\udc00":1,"type":"dög","name":"a"}"#,
    "lone leading surrogate in hex escape at line 1 column 8"
)]
#[case::lone_surrogate_in_field(
    r#"{"name":"\ud800","type":"dög"}"#,
    "unexpected end of hex escape at line 1 column 16"
)]
fn lone_surrogates_are_errors(#[case] text: &str, #[case] message: &str) {
    let err = serde_json::from_str::<Animal>(text).unwrap_err();
    assert_eq!(err.to_string(), message);
}

#[rstest]
#[case(r#"{"type":"dög","type":"dög","name":"a"}"#)]
#[case(r#"{"type":"dög","name":"a","type":"dög"}"#)]
#[case(r#"{"name":"a","type":"dög","type":"dög"}"#)]
#[case(r#"{"\u0074ype":"dög","name":"a","type":"dög"}"#)]
#[case(r#"{"type":"dög","name":"a","\u0074ype":"x"}"#)]
fn duplicate_tags_in_every_position(#[case] text: &str) {
    let err = serde_json::from_str::<Animal>(text).unwrap_err();
    assert!(
        err.to_string().starts_with("duplicate field `type`"),
        "{err}"
    );
}

// ---------------------------------------------------------------------------
// One profile, eight threads.

#[json_subtypes(tag = "type")]
trait Shape: Send {
    fn area(&self) -> f64;
}

#[derive(Serialize, Deserialize)]
struct Square {
    side: f64,
}

impl Shape for Square {
    fn area(&self) -> f64 {
        self.side * self.side
    }
}

#[test]
#[cfg_attr(
    miri,
    ignore = "80,000 reads on 8 threads: hours under Miri (one read is other tests')"
)]
fn one_profile_many_threads() {
    let profile = Profile::<dyn Shape>::builder()
        .tag("kind")
        .subtype::<Square>("sq")
        .build()
        .unwrap();
    std::thread::scope(|s| {
        for t in 0..8u32 {
            let profile = profile.clone();
            s.spawn(move || {
                for i in 0..10_000u32 {
                    let side = f64::from((i + t) % 100);
                    let text = if i % 2 == 0 {
                        format!(r#"{{"kind":"sq","side":{side}}}"#)
                    } else {
                        format!(r#"{{"side":{side},"kind":"sq"}}"#)
                    };
                    assert_eq!(profile.from_str(&text).unwrap().area(), side * side);
                }
            });
        }
    });
}
