//! Recursive types read with the tag LAST at every level: ours (enum and
//! trait object), serde's `#[serde(tag)]` twin, typetag's `Box<dyn Node>`
//! tree, and the plain limit (the same chain with no tag at all).
//!
//! serde_json's own recursion limit (128) is switched off for every reader
//! (`disable_recursion_limit`, the `unbounded_depth` feature); callers run
//! these on a thread with a big stack (`run_on_big_stack`).

use std::fmt;

use json_subtypes::json_subtypes;
use serde::{Deserialize, Serialize};

/// The depths measured: levels of `Neg` above the innermost `Num`.
pub const DEPTHS: [usize; 3] = [50, 100, 200];

/// Ours, an enum.
#[json_subtypes(tag = "op", max_depth = 1000)]
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    Num { value: i64 },
    Neg { arg: Box<Expr> },
}

/// serde's twin: same wire format.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op")]
pub enum SerdeExpr {
    Num { value: i64 },
    Neg { arg: Box<SerdeExpr> },
}

/// typetag's twin: a `Box<dyn TtNode>` tree.
#[typetag::serde(tag = "op")]
pub trait TtNode: fmt::Debug {
    fn depth(&self) -> usize;
}

/// Ours, as a trait object tree (the apples-to-apples peer of typetag's).
#[json_subtypes(tag = "op", max_depth = 1000)]
pub trait Node: fmt::Debug {
    fn depth(&self) -> usize;
}

#[derive(Debug, Serialize, Deserialize)]
pub struct TtNum {
    pub value: i64,
}

#[derive(Debug, Serialize, Deserialize)]
pub struct TtNeg {
    pub arg: Box<dyn TtNode>,
}

#[typetag::serde(name = "Num")]
impl TtNode for TtNum {
    fn depth(&self) -> usize {
        0
    }
}

#[typetag::serde(name = "Neg")]
impl TtNode for TtNeg {
    fn depth(&self) -> usize {
        1 + self.arg.depth()
    }
}

#[derive(Debug, Serialize, Deserialize)]
pub struct OurNum {
    pub value: i64,
}

#[derive(Debug, Serialize, Deserialize)]
pub struct OurNeg {
    pub arg: Box<dyn Node>,
}

#[json_subtypes(name = "Num")]
impl Node for OurNum {
    fn depth(&self) -> usize {
        0
    }
}

#[json_subtypes(name = "Neg")]
impl Node for OurNeg {
    fn depth(&self) -> usize {
        1 + self.arg.depth()
    }
}

/// The limit: the same chain without a tag, as a plain derived struct.
#[derive(Debug, Deserialize)]
pub struct PlainNode {
    pub arg: Option<Box<PlainNode>>,
    pub value: Option<i64>,
}

impl PlainNode {
    pub fn depth(&self) -> usize {
        self.arg.as_ref().map_or(0, |a| 1 + a.depth())
    }
}

impl Expr {
    pub fn depth(&self) -> usize {
        match self {
            Expr::Num { .. } => 0,
            Expr::Neg { arg } => 1 + arg.depth(),
        }
    }
}

impl SerdeExpr {
    pub fn depth(&self) -> usize {
        match self {
            SerdeExpr::Num { .. } => 0,
            SerdeExpr::Neg { arg } => 1 + arg.depth(),
        }
    }
}

/// `{"arg":{"arg":...{"value":1,"op":"Num"}...,"op":"Neg"},"op":"Neg"}`.
pub fn chain_tag_last(depth: usize) -> String {
    let mut out = String::with_capacity(depth * 20 + 32);
    for _ in 0..depth {
        out.push_str(r#"{"arg":"#);
    }
    out.push_str(r#"{"value":1,"op":"Num"}"#);
    for _ in 0..depth {
        out.push_str(r#","op":"Neg"}"#);
    }
    out
}

/// `{"op":"Neg","arg":{"op":"Neg","arg":...{"op":"Num","value":1}...}}`.
pub fn chain_tag_first(depth: usize) -> String {
    let mut out = String::with_capacity(depth * 20 + 32);
    for _ in 0..depth {
        out.push_str(r#"{"op":"Neg","arg":"#);
    }
    out.push_str(r#"{"op":"Num","value":1}"#);
    for _ in 0..depth {
        out.push('}');
    }
    out
}

/// `{"arg":{"arg":...{"value":1}...}}`.
pub fn chain_plain(depth: usize) -> String {
    let mut out = String::with_capacity(depth * 8 + 16);
    for _ in 0..depth {
        out.push_str(r#"{"arg":"#);
    }
    out.push_str(r#"{"value":1}"#);
    for _ in 0..depth {
        out.push('}');
    }
    out
}

/// One input pair per depth in `DEPTHS`.
pub struct Chains {
    pub plain: Vec<String>,
    pub tag_last: Vec<String>,
    /// For contrast: trait-object trees cost more per level the deeper they
    /// go even with the tag first (see PERFORMANCE.md).
    pub tag_first: Vec<String>,
}

impl Chains {
    pub fn new() -> Self {
        Chains {
            plain: DEPTHS.iter().map(|&d| chain_plain(d)).collect(),
            tag_last: DEPTHS.iter().map(|&d| chain_tag_last(d)).collect(),
            tag_first: DEPTHS.iter().map(|&d| chain_tag_first(d)).collect(),
        }
    }

    /// Every reader reads every depth back exactly.
    pub fn check(&self) {
        for (i, &d) in DEPTHS.iter().enumerate() {
            assert_eq!(deep_plain(&self.plain[i]).depth(), d, "plain, depth {d}");
            let ours = deep_ours(&self.tag_last[i]);
            assert_eq!(ours.depth(), d, "ours, depth {d}");
            assert_eq!(deep_ours_trait(&self.tag_last[i]).depth(), d, "ours dyn");
            assert_eq!(deep_serde(&self.tag_last[i]).depth(), d, "serde");
            assert_eq!(deep_typetag(&self.tag_last[i]).depth(), d, "typetag");
            let first = &self.tag_first[i];
            assert_eq!(deep_ours(first).depth(), d, "ours, tag first");
            assert_eq!(deep_ours_trait(first).depth(), d, "ours dyn, tag first");
            assert_eq!(deep_serde(first).depth(), d, "serde, tag first");
            assert_eq!(deep_typetag(first).depth(), d, "typetag, tag first");
        }
    }
}

impl Default for Chains {
    fn default() -> Self {
        Self::new()
    }
}

fn read_unbounded<'de, T: Deserialize<'de>>(json: &'de str) -> T {
    let mut de = serde_json::Deserializer::from_str(json);
    de.disable_recursion_limit();
    let value = T::deserialize(&mut de).unwrap();
    de.end().unwrap();
    value
}

#[inline(never)]
pub fn deep_plain(json: &str) -> PlainNode {
    read_unbounded(json)
}

#[inline(never)]
pub fn deep_ours(json: &str) -> Expr {
    read_unbounded(json)
}

#[inline(never)]
pub fn deep_ours_trait(json: &str) -> Box<dyn Node> {
    read_unbounded(json)
}

#[inline(never)]
pub fn deep_serde(json: &str) -> SerdeExpr {
    read_unbounded(json)
}

#[inline(never)]
pub fn deep_typetag(json: &str) -> Box<dyn TtNode> {
    read_unbounded(json)
}

/// Runs `f` on a thread with a 256 MiB stack (deep tag-last chains recurse
/// through the deserializers of every level).
pub fn run_on_big_stack<R: Send + 'static>(f: impl FnOnce() -> R + Send + 'static) -> R {
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap()
}
