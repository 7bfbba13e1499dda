//! Tag values: the literals a subtype is known by, reading one from the
//! input without allocating, and the messages for tags that match nothing.
//!
//! Here are the values, the tables generated code provides and the
//! messages; the readers are in `reader`, and a map met where a tag value
//! was expected (serde_json's `arbitrary_precision` number) in `first_key`.

use core::fmt;
use std::sync::Arc;

use serde::de;
use serde::ser::{Serialize, Serializer};

mod first_key;
mod index;
mod reader;
mod requested;

pub(crate) use self::index::{map, Map, TagIndex, TagOwner};
pub use self::reader::KnownTags;
pub use self::reader::{read_typed_tag, TagSink};
pub(crate) use self::reader::{FastTagVisitor, Lookup, Picked, Picking, Static, TagVisitor};
pub(crate) use self::requested::Requested;

/// The one request a table's tags are read with where the format need not
/// describe itself (the externally and adjacently tagged forms): the kind
/// every tag shares, or any value for a table that mixes kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TagRequest {
    /// Every tag is a string (also a table with no tags at all).
    Str,
    /// Every tag is a non-negative integer.
    U64,
    /// Every tag is an integer, some negative.
    I64,
    /// Every tag is a bool.
    Bool,
    /// Tags of several kinds: only a self-describing format says which.
    Any,
}

impl TagRequest {
    /// The request that reads every one of `tags`.
    pub fn of(tags: &[Literal]) -> Self {
        let mut kinds = tags.iter().map(|tag| match tag {
            Literal::Str(_) => TagRequest::Str,
            Literal::U64(_) => TagRequest::U64,
            Literal::I64(v) if *v >= 0 => TagRequest::U64,
            Literal::I64(_) => TagRequest::I64,
            Literal::Bool(_) => TagRequest::Bool,
        });
        let Some(first) = kinds.next() else {
            return TagRequest::Str;
        };
        kinds.fold(first, |all, kind| match (all, kind) {
            _ if all == kind => all,
            (TagRequest::U64 | TagRequest::I64, TagRequest::U64 | TagRequest::I64) => {
                TagRequest::I64
            }
            _ => TagRequest::Any,
        })
    }
}

/// How many tags an error message lists before it says "and N more".
const LISTED_TAGS: usize = 32;

/// A tag value as written in the attribute: `name = "dog"`, `name = 3`,
/// `name = true`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Literal {
    Str(&'static str),
    I64(i64),
    U64(u64),
    Bool(bool),
}

impl Serialize for Literal {
    #[inline]
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match *self {
            Literal::Str(v) => serializer.serialize_str(v),
            _ => self.serialize_scalar(serializer),
        }
    }
}

impl Literal {
    /// The int and bool arms, out of line: most tags are strings, and
    /// without these arms a string tag's write is small enough for the
    /// format's `serialize_field` to take it inline
    /// (`benches/instructions.sh '^ser_'`).
    #[inline(never)]
    fn serialize_scalar<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match *self {
            Literal::Str(v) => serializer.serialize_str(v),
            Literal::I64(v) => serializer.serialize_i64(v),
            Literal::U64(v) => serializer.serialize_u64(v),
            Literal::Bool(v) => serializer.serialize_bool(v),
        }
    }
}

impl fmt::Display for Literal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Literal::Str(v) => write!(f, "{v:?}"),
            Literal::I64(v) => write!(f, "{v}"),
            Literal::U64(v) => write!(f, "{v}"),
            Literal::Bool(v) => write!(f, "{v}"),
        }
    }
}

/// A tag value read from the input, borrowed for the time of the lookup.
#[derive(Clone, Copy, Debug)]
pub enum Found<'a> {
    Str(&'a str),
    I64(i64),
    U64(u64),
    Bool(bool),
    /// Integers wider than 64 bits never equal a literal, but the message
    /// still shows them exactly.
    I128(i128),
    U128(u128),
    Float(f64),
    Char(char),
}

impl fmt::Display for Found<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Found::Str(v) => write!(f, "{v:?}"),
            Found::I64(v) => write!(f, "{v}"),
            Found::U64(v) => write!(f, "{v}"),
            Found::Bool(v) => write!(f, "{v}"),
            Found::I128(v) => write!(f, "{v}"),
            Found::U128(v) => write!(f, "{v}"),
            // `{:?}` keeps the `.0` of `1.0`, so it does not read as the int 1.
            Found::Float(v) => write!(f, "{v:?}"),
            Found::Char(v) => write!(f, "{:?}", v.encode_utf8(&mut [0; 4]) as &str),
        }
    }
}

/// The list of accepted tags, for messages: `"cat", "dog", 3`.
pub struct Expected<'a, T = Literal>(pub &'a [T]);

impl<T: fmt::Display> fmt::Display for Expected<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, tag) in self.0.iter().take(LISTED_TAGS).enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            fmt::Display::fmt(tag, f)?;
        }
        if self.0.len() > LISTED_TAGS {
            write!(f, ", and {} more", self.0.len() - LISTED_TAGS)?;
        }
        Ok(())
    }
}

/// `unknown subtype tag "fish", expected one of "cat", "dog", 3`, and
/// after a semicolon `fix` if there is one.
pub(crate) fn unknown_tag<E: de::Error>(
    found: Found<'_>,
    expected: &[Literal],
    fix: Option<String>,
) -> E {
    let message = UnknownTag {
        found: &found,
        expected,
    };
    match fix {
        Some(fix) => E::custom(format_args!("{message}; {fix}")),
        None => E::custom(message),
    }
}

fn unknown<E: de::Error, F: fmt::Display, T: fmt::Display>(found: &F, expected: &[T]) -> E {
    E::custom(UnknownTag { found, expected })
}

/// The unknown-tag message without a fix.
struct UnknownTag<'a, F, T> {
    found: &'a F,
    expected: &'a [T],
}

impl<F: fmt::Display, T: fmt::Display> fmt::Display for UnknownTag<'_, F, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let found = self.found;
        match self.expected.len() {
            0 => write!(f, "unknown subtype tag {found}, there are no subtypes"),
            1 => write!(
                f,
                "unknown subtype tag {found}, expected {}",
                Expected(self.expected)
            ),
            _ => write!(
                f,
                "unknown subtype tag {found}, expected one of {}",
                Expected(self.expected)
            ),
        }
    }
}

/// The unknown-tag error for `tag_type` tags: values are shown as serde_json
/// writes them through the tag type's own `Serialize`.
pub fn unknown_typed_tag<E: de::Error, K: Serialize>(found: &K, expected: &[K]) -> E {
    let show = |k: &K| serde_json::to_string(k).unwrap_or_else(|_| "<unprintable>".to_owned());
    let shown: Vec<String> = expected.iter().map(show).collect();
    unknown(&show(found), &shown)
}

/// Whether a text read at run time is `known` (a tag, a tag key): the
/// first byte before the whole, so that one of the same length but not it
/// (`"name"` beside `"type"`, `"cat"` beside `"dog"`) is passed over
/// without a call to `bcmp` (`benches/instructions.sh '^pos_'`).
#[inline]
pub(crate) fn is_known(text: &[u8], known: &[u8]) -> bool {
    text.len() == known.len() && text.first() == known.first() && text == known
}

/// `is_known` for where the text is expected to match (the tag key met in
/// a registry's walk, the tag among a registry's few): up to 16 bytes, two
/// words that overlap and cover the text are compared, where the
/// comparison of slices whose length is not a constant calls `bcmp`. Takes
/// `&str`s, so that each generic caller compiles to one call, as `==` does.
#[inline]
pub(crate) fn same_text(text: &str, known: &str) -> bool {
    let (text, known) = (text.as_bytes(), known.as_bytes());
    let n = text.len();
    if n != known.len() {
        return false;
    }
    match n {
        0 => true,
        // Bytes 0, n/2 and n-1 are every byte of a text this short.
        1..=3 => text[0] == known[0] && text[n / 2] == known[n / 2] && text[n - 1] == known[n - 1],
        4..=8 => {
            word::<4>(text, 0) == word::<4>(known, 0)
                && word::<4>(text, n - 4) == word::<4>(known, n - 4)
        }
        9..=16 => {
            word::<8>(text, 0) == word::<8>(known, 0)
                && word::<8>(text, n - 8) == word::<8>(known, n - 8)
        }
        _ => text == known,
    }
}

/// `N` bytes of `bytes` from `at`, which the caller keeps in bounds.
#[inline(always)]
fn word<const N: usize>(bytes: &[u8], at: usize) -> [u8; N] {
    let mut out = [0; N];
    out.copy_from_slice(&bytes[at..at + N]);
    out
}

/// Bytes `8 * i..8 * i + 8` of `s` as a little-endian `u64`, zero past the
/// end. A lookup of many string tags matches the length first, then these
/// chunks: an integer `match` compiles to a jump table or a binary search,
/// where a `&str` match compares each arm in turn. With the length known
/// the zero padding cannot make two tags equal.
#[inline]
pub fn str_chunk(s: &str, i: usize) -> u64 {
    let rest = s.as_bytes().get(8 * i..).unwrap_or_default();
    let n = rest.len().min(8);
    let mut chunk = [0u8; 8];
    chunk[..n].copy_from_slice(&rest[..n]);
    u64::from_le_bytes(chunk)
}

/// A table of literal tags: what the generated code knows of an enum.
pub trait LiteralTable {
    /// Every accepted tag, aliases included, in declaration order.
    const TAGS: &'static [Literal];
    /// The tag key, e.g. `"type"`.
    const KEY: &'static str;
    /// The variant a tag value selects (for a nested child's tag, the
    /// `nested` variant holding it).
    fn lookup(found: Found<'_>) -> Option<u32>;
    /// `lookup` of a string tag, as a function of its own: the string is
    /// passed in two registers, where a `Found` is built in memory, copied
    /// and passed by its address.
    #[inline]
    fn lookup_str(found: &str) -> Option<u32> {
        Self::lookup(Found::Str(found))
    }
    /// Whether variant `index` is `nested`: its payload reads the tag again.
    #[inline]
    fn is_nested(index: u32) -> bool {
        let _ = index;
        false
    }
    /// Every tag accepted, nested children's included, for messages.
    fn expected() -> Vec<Literal> {
        Self::TAGS.to_vec()
    }
}

/// What a `nested` variant needs of the enum it holds. Implemented by every
/// `#[json_subtypes(tag = ...)]` enum with literal tags.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a nested subtype",
    label = "not an enum with `#[json_subtypes(tag = ...)]` and literal tags",
    note = "a `nested` variant holds an enum whose tags are accepted by the parent; without `nested` any payload works"
)]
pub trait Claims {
    /// The tag key; it must be the parent's.
    const KEY: &'static str;
    /// The enum's name, for messages.
    const NAME: &'static str;
    /// Whether a tag value selects one of this enum's variants. `depth`
    /// bounds runaway recursion through enums that nest each other.
    fn claims(found: Found<'_>, depth: u32) -> bool;
    /// Every tag with the variant it selects (`"Mammal::Whale"`), nested
    /// children's included.
    fn tags(out: &mut Vec<(Literal, String)>, depth: u32);
    /// This enum's own check of its `nested` children, which a parent that
    /// builds it directly must see too.
    fn verify() -> Result<(), String> {
        Ok(())
    }
}

/// How deep `nested` levels may go before lookups give up.
pub const MAX_NESTING: u32 = 32;

/// Checked once per enum with `nested` variants, on first use: every tag
/// selects one variant, and children share the parent's tag key.
pub fn check_nested(
    key: &str,
    children: &[(&str, &str)],
    tags: &[(Literal, String)],
) -> Result<(), String> {
    for (child_key, child) in children {
        if child_key.is_empty() {
            return Err(format!(
                "nested enum {child} has no tag key (it is externally tagged, or picks variants by their fields), not `{key}`; a `nested` variant needs the same key (without `nested`, the child is read as an ordinary payload)"
            ));
        }
        if child_key != &key {
            return Err(format!(
                "nested enum {child} has the tag key `{child_key}`, not `{key}`; a `nested` variant needs the same key (without `nested`, each level keeps its own key)"
            ));
        }
    }
    for (i, (tag, owner)) in tags.iter().enumerate() {
        if let Some((_, other)) = tags[..i].iter().find(|(t, _)| t == tag) {
            return Err(format!(
                "subtype tag {tag} is claimed by both {other} and {owner}"
            ));
        }
    }
    Ok(())
}

/// A tag value handed again to a nested child without buffering.
#[derive(Clone, Copy)]
pub enum HeadValue<'de> {
    Str(&'de str),
    U64(u64),
    I64(i64),
    Bool(bool),
}

impl<'de> HeadValue<'de> {
    /// The value as a table looks it up.
    #[inline]
    pub fn found(self) -> Found<'de> {
        match self {
            HeadValue::Str(v) => Found::Str(v),
            HeadValue::U64(v) => Found::U64(v),
            HeadValue::I64(v) => Found::I64(v),
            HeadValue::Bool(v) => Found::Bool(v),
        }
    }
}

/// A tag value owned at run time (profiles build tags from strings).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum OwnedLiteral {
    /// A string tag.
    Str(Arc<str>),
    /// A negative integer tag.
    I64(i64),
    /// A non-negative integer tag.
    U64(u64),
    /// A bool tag.
    Bool(bool),
}

impl OwnedLiteral {
    pub(crate) fn from_literal(l: Literal) -> Self {
        match l {
            Literal::Str(s) => OwnedLiteral::Str(s.into()),
            Literal::I64(v) if v >= 0 => OwnedLiteral::U64(v as u64),
            Literal::I64(v) => OwnedLiteral::I64(v),
            Literal::U64(v) => OwnedLiteral::U64(v),
            Literal::Bool(v) => OwnedLiteral::Bool(v),
        }
    }
}

impl fmt::Display for OwnedLiteral {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OwnedLiteral::Str(s) => write!(f, "{:?}", &**s),
            OwnedLiteral::I64(v) => write!(f, "{v}"),
            OwnedLiteral::U64(v) => write!(f, "{v}"),
            OwnedLiteral::Bool(v) => write!(f, "{v}"),
        }
    }
}

impl Serialize for OwnedLiteral {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            OwnedLiteral::Str(v) => s.serialize_str(v),
            OwnedLiteral::I64(v) => s.serialize_i64(*v),
            OwnedLiteral::U64(v) => s.serialize_u64(*v),
            OwnedLiteral::Bool(v) => s.serialize_bool(*v),
        }
    }
}
