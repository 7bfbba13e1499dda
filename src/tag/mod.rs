//! Tag values: the literals a subtype is known by, reading one from the
//! input without allocating, and the messages for tags that match nothing.

use core::fmt;
use std::sync::Arc;

use core::marker::PhantomData;

use serde::de::{
    self, Deserialize, Deserializer, EnumAccess, MapAccess, SeqAccess, Unexpected, Visitor,
};

use crate::buffer::{Buffer, Recorder, NUMBER_TOKEN};
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

/// `unknown subtype tag "fish", expected one of "cat", "dog", 3`
pub(crate) fn unknown_tag<E: de::Error>(found: Found<'_>, expected: &[Literal]) -> E {
    unknown(&found, expected)
}

fn unknown<E: de::Error, F: fmt::Display, T: fmt::Display>(found: &F, expected: &[T]) -> E {
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
    let shown: Vec<String> = expected.iter().map(show).collect();
    unknown(&show(found), &shown)
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

/// Where an unknown tag value is recorded when the enum has a fallback, so
/// the fallback sees the whole object.
pub struct TagSink<'a, 'de> {
    pub(crate) buf: &'a mut Buffer<'de>,
    /// The tag key, recorded just before a value is (so a known tag costs
    /// no buffer at all).
    pub(crate) key: &'a str,
    /// Whether an unknown value goes to a fallback (else it is an error).
    pub(crate) fallback: bool,
    /// `visible`: a known value is recorded too, for the payload to read.
    pub(crate) visible: bool,
    /// Where a nested child's tag is kept when it needs no buffer (a
    /// borrowed string, an integer, a bool).
    pub(crate) head: Option<&'a mut Option<HeadValue<'de>>>,
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

/// A table of literal tags as a value: the generated constant tables, or a
/// registry built at run time.
pub(crate) trait Lookup {
    fn key(&self) -> &str;
    /// The subtype a tag selects; `Err` with a message for a tag two
    /// subtypes claim.
    fn lookup(&self, found: Found<'_>) -> Result<Option<u32>, String>;
    fn is_nested(&self, index: u32) -> bool {
        let _ = index;
        false
    }
    fn expected(&self) -> Vec<Literal>;
}

/// A generated table as a `Lookup`.
pub(crate) struct Static<T>(pub(crate) PhantomData<T>);

impl<T: LiteralTable> Lookup for Static<T> {
    #[inline]
    fn key(&self) -> &str {
        T::KEY
    }

    #[inline]
    fn lookup(&self, found: Found<'_>) -> Result<Option<u32>, String> {
        Ok(T::lookup(found))
    }

    #[inline]
    fn is_nested(&self, index: u32) -> bool {
        T::is_nested(index)
    }

    fn expected(&self) -> Vec<Literal> {
        T::expected()
    }
}

/// Reads a tag value and looks it up, allocating nothing for a known tag.
/// `Ok(None)` means unknown and recorded in the sink; without a sink an
/// unknown tag is an error.
pub(crate) struct TagVisitor<'a, 'de> {
    pub(crate) table: &'a (dyn Lookup + 'static),
    pub(crate) sink: Option<TagSink<'a, 'de>>,
}

impl<'de> TagVisitor<'_, 'de> {
    /// A number given by its digits: matched as serde_json would read it.
    fn number<E: de::Error>(self, digits: &str) -> Result<Option<u32>, E> {
        let found = if let Ok(v) = digits.parse::<u64>() {
            Found::U64(v)
        } else if let Ok(v) = digits.parse::<i64>() {
            Found::I64(v)
        } else if let Ok(v) = digits.parse::<u128>() {
            Found::U128(v)
        } else if let Ok(v) = digits.parse::<i128>() {
            Found::I128(v)
        } else {
            match digits.parse::<f64>() {
                Ok(v) => Found::Float(v),
                Err(_) => return Err(E::invalid_value(Unexpected::Str(digits), &"a number")),
            }
        };
        // Written back as read: an integer tag keeps its exact digits.
        let exact = matches!(found, Found::U64(_) | Found::I64(_)) && found.to_string() == digits;
        self.found(found, |r| {
            if exact {
                match found {
                    Found::U64(v) => r.visit_u64(v),
                    Found::I64(v) => r.visit_i64(v),
                    _ => Ok(()),
                }
            } else {
                r.number(digits);
                Ok(())
            }
        })
    }

    #[inline]
    fn found<E: de::Error>(
        self,
        found: Found<'_>,
        record: impl FnOnce(Recorder<'_, 'de>) -> Result<(), E>,
    ) -> Result<Option<u32>, E> {
        self.found_or_head(found, None, record)
    }

    /// `found`, with the value as a nested child could be handed it again
    /// without a buffer (`head`), where the value allows.
    #[inline]
    fn found_or_head<E: de::Error>(
        self,
        found: Found<'_>,
        head: Option<HeadValue<'de>>,
        record: impl FnOnce(Recorder<'_, 'de>) -> Result<(), E>,
    ) -> Result<Option<u32>, E> {
        let table = self.table;
        match table.lookup(found).map_err(E::custom)? {
            Some(index) if table.is_nested(index) => {
                // The nested child reads the tag again: keep the value.
                if let Some(sink) = self.sink {
                    match (head, sink.head) {
                        (Some(value), Some(slot)) => *slot = Some(value),
                        _ => {
                            sink.buf.push_str(sink.key);
                            record(sink.buf.recorder(crate::state::remaining()))?;
                        }
                    }
                }
                Ok(Some(index))
            }
            Some(index) => {
                if let Some(sink) = self.sink.filter(|s| s.visible) {
                    sink.buf.push_str(sink.key);
                    record(sink.buf.recorder(crate::state::remaining()))?;
                }
                Ok(Some(index))
            }
            None => self.unknown(|| unknown_tag(found, &table.expected()), record),
        }
    }

    fn unknown<E>(
        self,
        error: impl FnOnce() -> E,
        record: impl FnOnce(Recorder<'_, 'de>) -> Result<(), E>,
    ) -> Result<Option<u32>, E> {
        match self.sink {
            Some(sink) if sink.fallback => {
                sink.buf.push_str(sink.key);
                record(sink.buf.recorder(crate::state::remaining()))?;
                Ok(None)
            }
            _ => Err(error()),
        }
    }

    fn wrong_kind<E: de::Error>(
        self,
        what: Unexpected<'_>,
        record: impl FnOnce(Recorder<'_, 'de>) -> Result<(), E>,
    ) -> Result<Option<u32>, E> {
        let message = format!(
            "a subtype tag in `{}`, one of {}",
            self.table.key(),
            Expected(&self.table.expected())
        );
        self.unknown(|| E::invalid_type(what, &message.as_str()), record)
    }
}

impl<'de> Visitor<'de> for TagVisitor<'_, 'de> {
    type Value = Option<u32>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "a subtype tag in `{}`, one of {}",
            self.table.key(),
            Expected(&self.table.expected())
        )
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Option<u32>, E> {
        self.found_or_head(Found::Bool(v), Some(HeadValue::Bool(v)), |r| {
            r.visit_bool(v)
        })
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Option<u32>, E> {
        // A format that hands out signed integers for small values (CBOR
        // readers do) must still match `name = 3`.
        let found = match u64::try_from(v) {
            Ok(u) => Found::U64(u),
            Err(_) => Found::I64(v),
        };
        self.found_or_head(found, Some(HeadValue::I64(v)), |r| r.visit_i64(v))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Option<u32>, E> {
        self.found_or_head(Found::U64(v), Some(HeadValue::U64(v)), |r| r.visit_u64(v))
    }

    fn visit_i128<E: de::Error>(self, v: i128) -> Result<Option<u32>, E> {
        let found = match (i64::try_from(v), u64::try_from(v)) {
            (_, Ok(u)) => Found::U64(u),
            (Ok(i), _) => Found::I64(i),
            _ => Found::I128(v),
        };
        self.found(found, |r| r.visit_i128(v))
    }

    fn visit_u128<E: de::Error>(self, v: u128) -> Result<Option<u32>, E> {
        let found = match u64::try_from(v) {
            Ok(u) => Found::U64(u),
            Err(_) => Found::U128(v),
        };
        self.found(found, |r| r.visit_u128(v))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Option<u32>, E> {
        self.found(Found::Float(v), |r| r.visit_f64(v))
    }

    fn visit_char<E: de::Error>(self, v: char) -> Result<Option<u32>, E> {
        self.found(Found::Str(v.encode_utf8(&mut [0; 4])), |r| r.visit_char(v))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Option<u32>, E> {
        self.found(Found::Str(v), |r| r.visit_str(v))
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Option<u32>, E> {
        self.found_or_head(Found::Str(v), Some(HeadValue::Str(v)), |r| {
            r.visit_borrowed_str(v)
        })
    }

    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Option<u32>, E> {
        match core::str::from_utf8(v) {
            Ok(s) => self.found(Found::Str(s), |r| r.visit_bytes(v)),
            Err(_) => self.wrong_kind(Unexpected::Bytes(v), |r| r.visit_bytes(v)),
        }
    }

    fn visit_unit<E: de::Error>(self) -> Result<Option<u32>, E> {
        self.wrong_kind(Unexpected::Unit, |r| r.visit_unit())
    }

    fn visit_none<E: de::Error>(self) -> Result<Option<u32>, E> {
        self.wrong_kind(Unexpected::Option, |r| r.visit_none())
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Option<u32>, D::Error> {
        self.wrong_kind(Unexpected::Option, |r| r.visit_some(d))
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<Option<u32>, D::Error> {
        self.wrong_kind(Unexpected::NewtypeStruct, |r| r.visit_newtype_struct(d))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Option<u32>, A::Error> {
        self.wrong_kind(Unexpected::Seq, |r| r.visit_seq(seq))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Option<u32>, A::Error> {
        // serde_json's `arbitrary_precision` hands every number over as a
        // one-entry map; look at the first key before calling it a map.
        // Nothing is allocated on the way when the key and digits borrow.
        let first = map.next_key_seed(FirstKeySeed)?;
        if let Some(FirstKey::Number) = first {
            let digits = map.next_value_seed(TextSeed)?;
            return self.number(digits.as_str());
        }
        let human_readable = self.sink.as_ref().is_some_and(|s| s.buf.human_readable());
        self.wrong_kind(Unexpected::Map, |r| {
            r.visit_map(Resumed {
                first,
                human_readable,
                map,
            })
        })
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<Option<u32>, A::Error> {
        self.wrong_kind(Unexpected::Enum, |r| r.visit_enum(data))
    }
}

/// The tag reader of one table (an enum's generated one, a registry): a
/// known tag is found by the table's own lookup, inlined; everything else
/// (unknown tags, recording for a fallback, `nested` and `visible`
/// subtypes, other kinds of values) goes to the one shared reader through
/// `dyn`, which compiles once per format where a reader per table compiled
/// its whole set of methods per enum and per trait.
pub(crate) struct FastTagVisitor<'a, 'de, L> {
    pub(crate) table: &'a L,
    pub(crate) sink: Option<TagSink<'a, 'de>>,
}

impl<L: Lookup> FastTagVisitor<'_, '_, L> {
    /// The subtype, when nothing more than finding it is to be done.
    #[inline(always)]
    fn known(&self, found: Found<'_>) -> Option<u32> {
        let index = self.table.lookup(found).ok()??;
        match &self.sink {
            Some(sink) if sink.visible || self.table.is_nested(index) => None,
            _ => Some(index),
        }
    }
}

impl<'de, L: Lookup + 'static> Visitor<'de> for FastTagVisitor<'_, 'de, L> {
    type Value = Option<u32>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let table = self.table;
        write!(
            f,
            "a subtype tag in `{}`, one of {}",
            table.key(),
            Expected(&table.expected())
        )
    }

    #[inline]
    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Option<u32>, E> {
        match self.known(Found::Str(v)) {
            Some(index) => Ok(Some(index)),
            None => shared(self.table, self.sink, |t| t.visit_borrowed_str(v)),
        }
    }

    #[inline]
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Option<u32>, E> {
        match self.known(Found::Str(v)) {
            Some(index) => Ok(Some(index)),
            None => shared(self.table, self.sink, |t| t.visit_str(v)),
        }
    }

    #[inline]
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Option<u32>, E> {
        match self.known(Found::U64(v)) {
            Some(index) => Ok(Some(index)),
            None => shared(self.table, self.sink, |t| t.visit_u64(v)),
        }
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Option<u32>, E> {
        shared(self.table, self.sink, |t| t.visit_bool(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Option<u32>, E> {
        shared(self.table, self.sink, |t| t.visit_i64(v))
    }

    fn visit_i128<E: de::Error>(self, v: i128) -> Result<Option<u32>, E> {
        shared(self.table, self.sink, |t| t.visit_i128(v))
    }

    fn visit_u128<E: de::Error>(self, v: u128) -> Result<Option<u32>, E> {
        shared(self.table, self.sink, |t| t.visit_u128(v))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Option<u32>, E> {
        shared(self.table, self.sink, |t| t.visit_f64(v))
    }

    fn visit_char<E: de::Error>(self, v: char) -> Result<Option<u32>, E> {
        shared(self.table, self.sink, |t| t.visit_char(v))
    }

    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Option<u32>, E> {
        shared(self.table, self.sink, |t| t.visit_bytes(v))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Option<u32>, E> {
        shared(self.table, self.sink, |t| t.visit_unit())
    }

    fn visit_none<E: de::Error>(self) -> Result<Option<u32>, E> {
        shared(self.table, self.sink, |t| t.visit_none())
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Option<u32>, D::Error> {
        shared(self.table, self.sink, |t| t.visit_some(d))
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<Option<u32>, D::Error> {
        shared(self.table, self.sink, |t| t.visit_newtype_struct(d))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Option<u32>, A::Error> {
        shared(self.table, self.sink, |t| t.visit_seq(seq))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Option<u32>, A::Error> {
        shared(self.table, self.sink, |t| t.visit_map(map))
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<Option<u32>, A::Error> {
        shared(self.table, self.sink, |t| t.visit_enum(data))
    }
}

/// The tag reader when nothing is to be recorded (`sink` is `None`): one
/// for every table, so a format's `deserialize_any` is compiled once for
/// it instead of once per enum (issue 15). The table's own lookup, a
/// generated `match`, is reached through a function pointer. An unknown
/// tag is reported from inside the visitor, so the format gives the
/// error the position of the tag.
pub(crate) struct TokenVisitor<'a> {
    pub(crate) table: &'a (dyn Lookup + 'static),
    pub(crate) lookup: fn(Found<'_>) -> Option<u32>,
}

impl TokenVisitor<'_> {
    #[inline]
    fn shared<'de>(&self) -> TagVisitor<'_, 'de> {
        TagVisitor {
            table: self.table,
            sink: None,
        }
    }
}

macro_rules! token_visits {
    ($($visit:ident($($arg:ident: $ty:ty),*))*) => {
        $(
            fn $visit<E: de::Error>(self, $($arg: $ty),*) -> Result<Option<u32>, E> {
                self.shared().$visit($($arg),*)
            }
        )*
    };
}

impl<'de> Visitor<'de> for TokenVisitor<'_> {
    type Value = Option<u32>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.shared().expecting(f)
    }

    #[inline]
    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Option<u32>, E> {
        match (self.lookup)(Found::Str(v)) {
            Some(index) => Ok(Some(index)),
            None => self.shared().visit_borrowed_str(v),
        }
    }

    #[inline]
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Option<u32>, E> {
        match (self.lookup)(Found::Str(v)) {
            Some(index) => Ok(Some(index)),
            None => self.shared().visit_str(v),
        }
    }

    #[inline]
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Option<u32>, E> {
        match (self.lookup)(Found::U64(v)) {
            Some(index) => Ok(Some(index)),
            None => self.shared().visit_u64(v),
        }
    }

    token_visits! {
        visit_bool(v: bool) visit_i64(v: i64) visit_i128(v: i128)
        visit_u128(v: u128) visit_f64(v: f64) visit_char(v: char) visit_bytes(v: &[u8])
        visit_unit() visit_none()
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Option<u32>, D::Error> {
        self.shared().visit_some(d)
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<Option<u32>, D::Error> {
        self.shared().visit_newtype_struct(d)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Option<u32>, A::Error> {
        self.shared().visit_seq(seq)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Option<u32>, A::Error> {
        self.shared().visit_map(map)
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<Option<u32>, A::Error> {
        self.shared().visit_enum(data)
    }
}

/// The shared reader for `table`.
#[inline]
fn shared<'a, 'de, R>(
    table: &'a (dyn Lookup + 'static),
    sink: Option<TagSink<'a, 'de>>,
    visit: impl FnOnce(TagVisitor<'a, 'de>) -> R,
) -> R {
    visit(TagVisitor { table, sink })
}

/// The first key of a map read as a tag value: serde_json's number token,
/// or a key kept to hand on with the map.
enum FirstKey<'de> {
    Number,
    Text(Text<'de>),
    Other(Buffer<'de>),
}

/// A string, borrowed from the input when the format allows.
enum Text<'de> {
    Borrowed(&'de str),
    Owned(String),
}

impl Text<'_> {
    fn as_str(&self) -> &str {
        match self {
            Text::Borrowed(s) => s,
            Text::Owned(s) => s,
        }
    }
}

struct FirstKeySeed;

impl<'de> de::DeserializeSeed<'de> for FirstKeySeed {
    type Value = FirstKey<'de>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<FirstKey<'de>, D::Error> {
        // As the engine asks for an object's keys (see `KeySeed` in
        // dispatch.rs): a key of another kind is taken as it is.
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for FirstKeySeed {
    type Value = FirstKey<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a map key")
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<FirstKey<'de>, E> {
        Ok(match v {
            NUMBER_TOKEN => FirstKey::Number,
            _ => FirstKey::Text(Text::Borrowed(v)),
        })
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<FirstKey<'de>, E> {
        Ok(match v {
            NUMBER_TOKEN => FirstKey::Number,
            _ => FirstKey::Text(Text::Owned(v.to_owned())),
        })
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<FirstKey<'de>, E> {
        Ok(match v.as_str() {
            NUMBER_TOKEN => FirstKey::Number,
            _ => FirstKey::Text(Text::Owned(v)),
        })
    }

    // Keys of other kinds (CBOR integers, YAML booleans) are kept as they came.
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<FirstKey<'de>, E> {
        let mut buf = Buffer::new();
        buf.push_u64(v);
        Ok(FirstKey::Other(buf))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<FirstKey<'de>, E> {
        let mut buf = Buffer::new();
        buf.push_i64(v);
        Ok(FirstKey::Other(buf))
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<FirstKey<'de>, E> {
        let mut buf = Buffer::new();
        buf.push_bool(v);
        Ok(FirstKey::Other(buf))
    }

    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<FirstKey<'de>, E> {
        let mut buf = Buffer::new();
        buf.push_bytes(v);
        Ok(FirstKey::Other(buf))
    }

    fn visit_borrowed_bytes<E: de::Error>(self, v: &'de [u8]) -> Result<FirstKey<'de>, E> {
        other_key(|r| r.visit_borrowed_bytes(v))
    }

    fn visit_i128<E: de::Error>(self, v: i128) -> Result<FirstKey<'de>, E> {
        other_key(|r| r.visit_i128(v))
    }

    fn visit_u128<E: de::Error>(self, v: u128) -> Result<FirstKey<'de>, E> {
        other_key(|r| r.visit_u128(v))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<FirstKey<'de>, E> {
        other_key(|r| r.visit_f64(v))
    }

    fn visit_unit<E: de::Error>(self) -> Result<FirstKey<'de>, E> {
        other_key(|r| r.visit_unit())
    }

    fn visit_none<E: de::Error>(self) -> Result<FirstKey<'de>, E> {
        other_key(|r| r.visit_none())
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<FirstKey<'de>, D::Error> {
        other_key(|r| r.visit_some(d))
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<FirstKey<'de>, D::Error> {
        other_key(|r| r.visit_newtype_struct(d))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<FirstKey<'de>, A::Error> {
        other_key(|r| r.visit_seq(seq))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<FirstKey<'de>, A::Error> {
        other_key(|r| r.visit_map(map))
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<FirstKey<'de>, A::Error> {
        other_key(|r| r.visit_enum(data))
    }
}

/// A first key of another kind (a float, a sequence...), recorded whole.
fn other_key<'de, E>(
    record: impl FnOnce(Recorder<'_, 'de>) -> Result<(), E>,
) -> Result<FirstKey<'de>, E> {
    let mut buf = Buffer::new();
    record(buf.recorder(crate::state::remaining()))?;
    Ok(FirstKey::Other(buf))
}

/// Reads a string value, borrowing when it can.
struct TextSeed;

impl<'de> de::DeserializeSeed<'de> for TextSeed {
    type Value = Text<'de>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Text<'de>, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for TextSeed {
    type Value = Text<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a number's digits")
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Text<'de>, E> {
        Ok(Text::Borrowed(v))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Text<'de>, E> {
        Ok(Text::Owned(v.to_owned()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Text<'de>, E> {
        Ok(Text::Owned(v))
    }
}

/// A map whose first key was already read (into `first`), handed on whole.
struct Resumed<'de, A> {
    first: Option<FirstKey<'de>>,
    human_readable: bool,
    map: A,
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Resumed<'de, A> {
    type Error = A::Error;

    fn next_key_seed<K: de::DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        match self.first.take() {
            Some(FirstKey::Text(Text::Borrowed(key))) => seed
                .deserialize(de::value::BorrowedStrDeserializer::new(key))
                .map(Some),
            Some(FirstKey::Text(Text::Owned(key))) => seed
                .deserialize(de::value::StringDeserializer::new(key))
                .map(Some),
            Some(FirstKey::Other(buf)) => {
                let mut reader = buf.reader_at(0);
                seed.deserialize(reader.next_value::<A::Error>(self.human_readable))
                    .map(Some)
            }
            // The number token is never handed on (it is read as a number).
            Some(FirstKey::Number) | None => self.map.next_key_seed(seed),
        }
    }

    fn next_value_seed<V: de::DeserializeSeed<'de>>(
        &mut self,
        seed: V,
    ) -> Result<V::Value, A::Error> {
        self.map.next_value_seed(seed)
    }
}

/// `Dispatch::read_tag` for `tag_type` tags: the tag type's own
/// `Deserialize` reads the value, `lookup` compares it with each variant's.
/// With a sink, the raw value is recorded first so an unreadable or unknown
/// value can still go to the fallback.
pub fn read_typed_tag<'de, K, D>(
    deserializer: D,
    sink: Option<TagSink<'_, 'de>>,
    lookup: impl Fn(&K) -> Option<u32>,
    expected: impl FnOnce() -> Vec<K>,
) -> Result<Option<u32>, D::Error>
where
    K: Deserialize<'de> + Serialize,
    D: Deserializer<'de>,
{
    match sink.filter(|s| s.fallback) {
        None => {
            let found = K::deserialize(deserializer)?;
            match lookup(&found) {
                Some(index) => Ok(Some(index)),
                None => Err(unknown_typed_tag(&found, &expected())),
            }
        }
        Some(sink) => {
            sink.buf.push_str(sink.key);
            let start = sink.buf.len();
            sink.buf.record(deserializer, crate::state::remaining())?;
            let mut reader = sink.buf.reader_at(start);
            let value = reader.next_value::<de::value::Error>(sink.buf.human_readable());
            Ok(K::deserialize(value).ok().and_then(|k| lookup(&k)))
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
