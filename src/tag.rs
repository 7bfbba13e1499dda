//! Tag values: the literals a subtype is known by, reading one from the
//! input without allocating, and the messages for tags that match nothing.

use core::fmt;

use serde::de::{self, Unexpected, Visitor};
use serde::ser::{Serialize, Serializer};

/// How many tags an error message lists before it says "and N more".
const LISTED_TAGS: usize = 32;

/// A tag value as written in the attribute: `name = "dog"`, `name = 3`,
/// `name = true`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
pub struct Expected<'a>(pub &'a [Literal]);

impl fmt::Display for Expected<'_> {
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

/// `unknown subtype tag "fish", expected one of "cat", "dog", 3`
pub(crate) fn unknown_tag<E: de::Error>(found: Found<'_>, expected: &[Literal]) -> E {
    match expected.len() {
        0 => E::custom(format_args!(
            "unknown subtype tag {found}, there are no subtypes"
        )),
        1 => E::custom(format_args!(
            "unknown subtype tag {found}, expected {}",
            Expected(expected)
        )),
        _ => E::custom(format_args!(
            "unknown subtype tag {found}, expected one of {}",
            Expected(expected)
        )),
    }
}

/// The unknown-tag error for `tag_type` tags: values are shown as serde_json
/// writes them through the tag type's own `Serialize`.
pub fn unknown_typed_tag<E: de::Error, K: Serialize>(found: &K, expected: &[K]) -> E {
    let show = |k: &K| serde_json::to_string(k).unwrap_or_else(|_| "<unprintable>".to_owned());
    let mut list = String::new();
    for (i, tag) in expected.iter().take(LISTED_TAGS).enumerate() {
        if i > 0 {
            list.push_str(", ");
        }
        list.push_str(&show(tag));
    }
    if expected.len() > LISTED_TAGS {
        list.push_str(&format!(", and {} more", expected.len() - LISTED_TAGS));
    }
    let one_of = if expected.len() == 1 { "" } else { "one of " };
    E::custom(format_args!(
        "unknown subtype tag {}, expected {one_of}{list}",
        show(found)
    ))
}

/// A table of literal tags: what the generated code knows of an enum.
pub trait LiteralTable {
    /// Every accepted tag, aliases included, in declaration order.
    const TAGS: &'static [Literal];
    /// The tag key, e.g. `"type"`.
    const KEY: &'static str;
    /// The variant a tag value selects.
    fn lookup(found: Found<'_>) -> Option<u32>;
}

/// Reads a tag value and looks it up, allocating nothing for a known tag.
pub(crate) struct TagVisitor<T>(pub(crate) core::marker::PhantomData<T>);

impl<T: LiteralTable> TagVisitor<T> {
    fn found<E: de::Error>(found: Found<'_>) -> Result<u32, E> {
        T::lookup(found).ok_or_else(|| unknown_tag(found, T::TAGS))
    }
}

impl<'de, T: LiteralTable> Visitor<'de> for TagVisitor<T> {
    type Value = u32;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a subtype tag in `{}`, one of {}", T::KEY, Expected(T::TAGS))
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<u32, E> {
        Self::found(Found::Bool(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<u32, E> {
        match u64::try_from(v) {
            // A format that hands out signed integers for small values
            // (e.g. CBOR readers) must still match `name = 3`.
            Ok(u) => Self::found(Found::U64(u)),
            Err(_) => Self::found(Found::I64(v)),
        }
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<u32, E> {
        Self::found(Found::U64(v))
    }

    fn visit_i128<E: de::Error>(self, v: i128) -> Result<u32, E> {
        match i64::try_from(v) {
            Ok(v) => self.visit_i64(v),
            Err(_) => match u64::try_from(v) {
                Ok(v) => self.visit_u64(v),
                Err(_) => Self::found(Found::I128(v)),
            },
        }
    }

    fn visit_u128<E: de::Error>(self, v: u128) -> Result<u32, E> {
        match u64::try_from(v) {
            Ok(v) => self.visit_u64(v),
            Err(_) => Self::found(Found::U128(v)),
        }
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<u32, E> {
        Self::found(Found::Float(v))
    }

    fn visit_char<E: de::Error>(self, v: char) -> Result<u32, E> {
        Self::found(Found::Str(v.encode_utf8(&mut [0; 4])))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<u32, E> {
        Self::found(Found::Str(v))
    }

    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<u32, E> {
        match core::str::from_utf8(v) {
            Ok(s) => self.visit_str(s),
            Err(_) => Err(E::invalid_type(Unexpected::Bytes(v), &self)),
        }
    }
}
