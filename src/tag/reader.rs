//! The tag readers: `TagSink`, where a tag value is recorded for the
//! payload or the fallback; the one shared reader (`TagVisitor` through
//! `dyn Lookup`), the per-table `FastTagVisitor`, the `TokenVisitor` every
//! table shares when nothing is recorded, `read_typed_tag` for
//! `tag_type` tags, and `Picking`, which hands a reader's answer back in
//! one word.

use core::fmt;
use core::marker::PhantomData;
use core::num::NonZeroU32;

use serde::de::{
    self, Deserialize, Deserializer, EnumAccess, MapAccess, SeqAccess, Unexpected, Visitor,
};
use serde::ser::Serialize;

use super::first_key::{FirstKey, FirstKeySeed, Resumed, TextSeed};
use super::{unknown_tag, unknown_typed_tag, Expected, Found, HeadValue, Literal, LiteralTable};
use crate::buffer::{Buffer, Recorder};

/// Where an unknown tag value is recorded when the enum has a fallback, so
/// the fallback sees the whole object.
pub struct TagSink<'a, 'de> {
    pub(crate) buf: &'a mut Buffer<'de>,
    /// The tag key, recorded just before a value is (so a known tag costs
    /// no buffer at all); `None` where the tag is itself a key (the
    /// externally tagged form), recorded as the key it is.
    pub(crate) key: Option<&'a str>,
    /// Whether an unknown value goes to a fallback (else it is an error).
    pub(crate) fallback: bool,
    /// `visible`: a known value is recorded too, for the payload to read.
    pub(crate) visible: bool,
    /// Where a nested child's tag is kept when it needs no buffer (a
    /// borrowed string, an integer, a bool).
    pub(crate) head: Option<&'a mut Option<HeadValue<'de>>>,
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
    /// What the unknown-tag message adds after a semicolon: how a type gets
    /// the tag `found` (a registry or a profile, whose types are not all
    /// known; an enum's are).
    fn unknown_fix(&self, found: Found<'_>) -> Option<String> {
        let _ = found;
        None
    }
    /// The subtype a string tag selects when nothing more is to be done
    /// with it: one owner, not `nested`. `None` sends the tag the general
    /// way (`lookup`), which also reports what this cannot (a clash).
    fn quick_str(&self, found: &str) -> Option<u32> {
        let _ = found;
        None
    }
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

/// What a tag reader expects: `a subtype tag in `type`, one of "cat", 3`,
/// or without the key where the tag is a key itself (the external form).
struct Expecting<'a, L: ?Sized>(&'a L);

impl<L: ?Sized + Lookup> fmt::Display for Expecting<'_, L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tags = self.0.expected();
        match self.0.key() {
            "" => write!(f, "a subtype tag, one of {}", Expected(&tags)),
            key => write!(f, "a subtype tag in `{key}`, one of {}", Expected(&tags)),
        }
    }
}

/// Reads a tag value and looks it up, allocating nothing for a known tag.
/// `Ok(None)` means unknown and recorded in the sink; without a sink an
/// unknown tag is an error.
///
/// `QUICK`: a known string tag is first looked for with `quick_str`, the
/// way of a run-time table (a registry, a profile). An enum's table is a
/// generated `match`, asked here only for what its own reader could not
/// place, so it does not try.
pub(crate) struct TagVisitor<'a, 'de, const QUICK: bool = false> {
    pub(crate) table: &'a (dyn Lookup + 'static),
    pub(crate) sink: Option<TagSink<'a, 'de>>,
}

impl<'de, const QUICK: bool> TagVisitor<'_, 'de, QUICK> {
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

    /// A known string tag that is neither recorded (`visible`) nor handed
    /// on (`nested`): its index, without building a `Found` or a message.
    #[inline]
    fn quick(&self, v: &str) -> Option<u32> {
        if !QUICK || self.sink.as_ref().is_some_and(|s| s.visible) {
            return None;
        }
        self.table.quick_str(v)
    }

    /// `visit_borrowed_str` past the quick lookup.
    #[inline(never)]
    fn borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Option<u32>, E> {
        self.found_or_head(Found::Str(v), Some(HeadValue::Str(v)), |r| {
            r.visit_borrowed_str(v)
        })
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
                            if let Some(key) = sink.key {
                                sink.buf.push_str(key);
                            }
                            record(sink.buf.recorder(crate::state::remaining()))?;
                        }
                    }
                }
                Ok(Some(index))
            }
            Some(index) => {
                if let Some(sink) = self.sink.filter(|s| s.visible) {
                    if let Some(key) = sink.key {
                        sink.buf.push_str(key);
                    }
                    record(sink.buf.recorder(crate::state::remaining()))?;
                }
                Ok(Some(index))
            }
            None => self.unknown(
                || unknown_tag(found, &table.expected(), table.unknown_fix(found)),
                record,
            ),
        }
    }

    fn unknown<E>(
        self,
        error: impl FnOnce() -> E,
        record: impl FnOnce(Recorder<'_, 'de>) -> Result<(), E>,
    ) -> Result<Option<u32>, E> {
        match self.sink {
            Some(sink) if sink.fallback => {
                if let Some(key) = sink.key {
                    sink.buf.push_str(key);
                }
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
        let message = format!("{}", Expecting(self.table));
        self.unknown(|| E::invalid_type(what, &message.as_str()), record)
    }
}

impl<'de, const QUICK: bool> Visitor<'de> for TagVisitor<'_, 'de, QUICK> {
    type Value = Option<u32>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&Expecting(self.table), f)
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
        if let Some(index) = self.quick(v) {
            return Ok(Some(index));
        }
        self.found(Found::Str(v), |r| r.visit_str(v))
    }

    // The quick lookup is inlined into the format's reader, as the key's
    // check is in the walk (`KeySeed`): a known tag of a registry or a
    // profile then costs its lookup and no call frame of its own. The rest
    // stays out of line: an enum comes here only with what its own reader
    // could not place, and inlined it lengthened those reads.
    #[inline(always)]
    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Option<u32>, E> {
        if let Some(index) = self.quick(v) {
            return Ok(Some(index));
        }
        self.borrowed_str(v)
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
        fmt::Display::fmt(&Expecting(self.table), f)
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

/// A table of literal tags as the engine reads it with nothing to record:
/// a constant of the set (`Subtypes::KNOWN_TAGS`), so that the walk reads
/// the tag itself and only the table's lookup, a generated `match`, is
/// called, through a function pointer. A thin pointer to the table's
/// constant, so that the reader is handed to the format in one register.
#[derive(Clone, Copy)]
pub struct KnownTags(&'static TokenTable);

impl KnownTags {
    /// Table `T`'s.
    pub const fn of<T: LiteralTable + 'static>() -> Self {
        KnownTags(&Tokens::<T>::TABLE)
    }

    /// The reader of one tag value.
    #[inline]
    pub(crate) fn visitor(self) -> TokenVisitor {
        TokenVisitor { fns: self.0 }
    }
}

/// The tag reader when nothing is to be recorded (`sink` is `None`): one
/// for every table, so a format's `deserialize_any` is compiled once for
/// it instead of once per enum. The table's own lookup, a
/// generated `match`, is reached through a function pointer. An unknown
/// tag is reported from inside the visitor, so the format gives the
/// error the position of the tag.
///
/// Its value is the subtype's index alone: with nothing to record an
/// unknown tag is an error, never `None`. A `Result<Option<u32>, _>` would
/// be returned through memory as a 4-byte tag beside the 4-byte index and
/// copied on in one 8-byte load of the two stores that just wrote it, a
/// load the processor cannot forward.
pub(crate) struct TokenVisitor {
    /// A thin pointer to the table's constant: the visitor is handed to the
    /// format's reader in one register, not written to the stack first.
    fns: &'static TokenTable,
}

/// What `TokenVisitor` needs of one table, a constant per table.
pub(crate) struct TokenTable {
    table: &'static (dyn Lookup + 'static),
    lookup: fn(Found<'_>) -> Option<u32>,
    /// `LiteralTable::lookup_str`, for the tags that come as strings.
    lookup_str: fn(&str) -> Option<u32>,
}

/// The home of a table's `TokenTable`.
struct Tokens<T>(PhantomData<T>);

impl<T: LiteralTable + 'static> Tokens<T> {
    const TABLE: TokenTable = TokenTable {
        table: &Static::<T>(PhantomData),
        lookup: T::lookup,
        lookup_str: T::lookup_str,
    };
}

impl TokenVisitor {
    #[inline]
    fn shared<'de>(&self) -> TagVisitor<'_, 'de> {
        TagVisitor {
            table: self.fns.table,
            sink: None,
        }
    }

    /// A string that is no tag of the table's own (a nested child's, or the
    /// unknown-tag error), by the shared reader. With nothing to record, a
    /// borrowed string is read as any other.
    #[cold]
    #[inline(never)]
    fn not_found_str<E: de::Error>(self, v: &str) -> Result<u32, E> {
        known(self.shared().visit_str(v))
    }
}

/// The shared reader's answer with no sink, which is never `Ok(None)` (an
/// unknown tag is then an error); `0` stands in for it all the same, as the
/// walk reads a missing index.
#[inline(always)]
fn known<E>(out: Result<Option<u32>, E>) -> Result<u32, E> {
    match out {
        Ok(index) => Ok(index.unwrap_or_default()),
        Err(e) => Err(e),
    }
}

macro_rules! token_visits {
    ($($visit:ident($($arg:ident: $ty:ty),*))*) => {
        $(
            fn $visit<E: de::Error>(self, $($arg: $ty),*) -> Result<u32, E> {
                known(self.shared().$visit($($arg),*))
            }
        )*
    };
}

impl<'de> Visitor<'de> for TokenVisitor {
    type Value = u32;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.shared().expecting(f)
    }

    // The known tag inline, into the format's reader; anything else out of
    // line (`not_found_str`): inlined whole, the shared reader's path kept
    // this one a call frame of its own.
    #[inline(always)]
    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<u32, E> {
        match (self.fns.lookup_str)(v) {
            Some(index) => Ok(index),
            None => self.not_found_str(v),
        }
    }

    #[inline(always)]
    fn visit_str<E: de::Error>(self, v: &str) -> Result<u32, E> {
        match (self.fns.lookup_str)(v) {
            Some(index) => Ok(index),
            None => self.not_found_str(v),
        }
    }

    #[inline]
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<u32, E> {
        match (self.fns.lookup)(Found::U64(v)) {
            Some(index) => Ok(index),
            None => known(self.shared().visit_u64(v)),
        }
    }

    token_visits! {
        visit_bool(v: bool) visit_i64(v: i64) visit_i128(v: i128)
        visit_u128(v: u128) visit_f64(v: f64) visit_char(v: char) visit_bytes(v: &[u8])
        visit_unit() visit_none()
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<u32, D::Error> {
        known(self.shared().visit_some(d))
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<u32, D::Error> {
        known(self.shared().visit_newtype_struct(d))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<u32, A::Error> {
        known(self.shared().visit_seq(seq))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<u32, A::Error> {
        known(self.shared().visit_map(map))
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<u32, A::Error> {
        known(self.shared().visit_enum(data))
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

/// `Subtypes::read_tag` for `tag_type` tags: the tag type's own
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
            if let Some(key) = sink.key {
                sink.buf.push_str(key);
            }
            let start = sink.buf.mark();
            sink.buf.record(deserializer, crate::state::remaining())?;
            let mut reader = sink.buf.reader_at(start);
            let value = reader.next_value::<de::value::Error>(sink.buf.human_readable());
            Ok(K::deserialize(value).ok().and_then(|k| lookup(&k)))
        }
    }
}

/// The readers' `Option<u32>` (the subtype's index, or none for an unknown
/// tag recorded for the fallback) as one word: the index plus one. The
/// format's reader returns its visitor's value from several arms through
/// one place in memory; an `Option<u32>` is stored there as two halves and
/// read back as one word, a load the processor cannot forward its data to
/// (PERFORMANCE.md, "Time and instructions"), where one word comes back in
/// a register.
#[derive(Clone, Copy)]
pub(crate) struct Picked(Option<NonZeroU32>);

impl Picked {
    #[inline(always)]
    fn of(index: Option<u32>) -> Self {
        // `u32::MAX` subtypes are never registered: no index wraps to 0.
        Picked(index.and_then(|i| NonZeroU32::new(i.wrapping_add(1))))
    }

    #[inline(always)]
    pub(crate) fn index(self) -> Option<u32> {
        self.0.map(|i| i.get() - 1)
    }
}

/// Reads with `V`, a tag reader, and hands its answer back as [`Picked`].
pub(crate) struct Picking<V>(pub(crate) V);

macro_rules! forward {
    ($($method:ident($($arg:ident: $ty:ty),*))*) => {$(
        #[inline(always)]
        fn $method<E: de::Error>(self, $($arg: $ty),*) -> Result<Picked, E> {
            self.0.$method($($arg),*).map(Picked::of)
        }
    )*};
}

/// `forward` for the visits handed a deserializer or an access.
macro_rules! forward_access {
    ($($method:ident($arg:ident: $ty:ident: $bound:path))*) => {$(
        #[inline(always)]
        fn $method<$ty: $bound>(self, $arg: $ty) -> Result<Picked, $ty::Error> {
            self.0.$method($arg).map(Picked::of)
        }
    )*};
}

impl<'de, V: Visitor<'de, Value = Option<u32>>> Visitor<'de> for Picking<V> {
    type Value = Picked;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.expecting(f)
    }

    forward! {
        visit_bool(v: bool)
        visit_i8(v: i8)
        visit_i16(v: i16)
        visit_i32(v: i32)
        visit_i64(v: i64)
        visit_i128(v: i128)
        visit_u8(v: u8)
        visit_u16(v: u16)
        visit_u32(v: u32)
        visit_u64(v: u64)
        visit_u128(v: u128)
        visit_f32(v: f32)
        visit_f64(v: f64)
        visit_char(v: char)
        visit_str(v: &str)
        visit_borrowed_str(v: &'de str)
        visit_string(v: String)
        visit_bytes(v: &[u8])
        visit_borrowed_bytes(v: &'de [u8])
        visit_byte_buf(v: Vec<u8>)
        visit_none()
        visit_unit()
    }

    forward_access! {
        visit_some(d: D: Deserializer<'de>)
        visit_newtype_struct(d: D: Deserializer<'de>)
        visit_seq(seq: A: SeqAccess<'de>)
        visit_map(map: A: MapAccess<'de>)
        visit_enum(data: A: EnumAccess<'de>)
    }
}
