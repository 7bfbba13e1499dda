//! The dispatch engine: one walk over an object's keys picks the subtype.
//!
//! Keys before the tag are recorded in a [`Buffer`]; the tag's value is
//! looked up in place; the chosen subtype then reads a map that replays the
//! buffered prefix and streams the rest of the live map. With the tag first
//! nothing is buffered at all. After the tag, a second tag key is an error
//! wherever it comes, including inside the streamed rest.

use core::fmt;
use core::marker::PhantomData;

use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, Error as _, IgnoredAny, MapAccess, SeqAccess,
    Unexpected, VariantAccess, Visitor,
};

use crate::buffer::{set_hoist, Buffer, Reader, DEFAULT_MAX_DEPTH};
use crate::tag::{LiteralTable, TagSink, TagVisitor};
use crate::unknown::{TAG_HINT_KEY, UNKNOWN_NAME};

/// What generated code provides for an annotated enum.
pub trait Dispatch<'de>: Sized {
    /// The tag key, e.g. `"type"`; `None` in presence mode.
    const KEY: Option<&'static str>;

    /// The enum's name, for messages.
    const NAME: &'static str;

    /// The fallback variant's index.
    const FALLBACK: Option<u32> = None;

    /// Presence mode: the variant names, for messages.
    const VARIANTS: &'static [&'static str] = &[];

    /// Presence mode: every deciding field, for messages.
    const FIELDS: &'static [&'static str] = &[];

    /// Presence mode: when several variants match, the first declared wins
    /// instead of an error.
    const FIRST_MATCH: bool = false;

    /// Whether some variant is `nested` (its payload reads the tag again).
    const NESTED: bool = false;

    /// Whether variant `index` is `nested`.
    #[inline]
    fn is_nested(index: u32) -> bool {
        let _ = index;
        false
    }

    /// Reads a tag value and returns the index of the variant it selects.
    /// With a sink, an unknown value is recorded there and `Ok(None)` comes
    /// back; without, it is the unknown-tag error.
    fn read_tag<D>(tag: D, sink: Option<TagSink<'_, 'de>>) -> Result<Option<u32>, D::Error>
    where
        D: Deserializer<'de>;

    /// Presence mode: the set of variants (bit `i` for variant `i`) that
    /// list `field` in `when_field`.
    #[inline]
    fn presence(field: &str) -> u128 {
        let _ = field;
        0
    }

    /// Builds the chosen variant from `variant`, a deserializer that
    /// answers with an enum access (a `VariantDeserializer`).
    fn build<D>(variant: D) -> Result<Self, D::Error>
    where
        D: Deserializer<'de>;
}

/// Entry point of a generated `Deserialize` impl.
pub fn deserialize<'de, T, D>(deserializer: D) -> Result<T, D::Error>
where
    T: Dispatch<'de>,
    D: Deserializer<'de>,
{
    let human_readable = deserializer.is_human_readable();
    // An `Unknown` fallback must see entries in their order, so no hoisting.
    set_hoist(T::KEY.filter(|_| T::FALLBACK.is_none()));
    let out = deserializer.deserialize_any(DispatchVisitor::<T> {
        human_readable,
        marker: PhantomData,
    });
    set_hoist(None);
    out
}

struct DispatchVisitor<T> {
    human_readable: bool,
    marker: PhantomData<T>,
}

impl<'de, T: Dispatch<'de>> DispatchVisitor<T> {
    fn build<A: MapAccess<'de>>(
        &self,
        index: u32,
        prefix: Buffer<'de>,
        live: A,
        hint: Option<&'static str>,
    ) -> Result<T, A::Error> {
        T::build(VariantDeserializer {
            index,
            human_readable: self.human_readable,
            rest: Rest {
                prefix: prefix.reader_owned(),
                live,
                tag: T::KEY,
                hint,
                human_readable: self.human_readable,
                from_prefix: false,
            },
        })
    }

    /// Presence mode: the one variant whose fields are all there is to see.
    fn decide<E: de::Error>(&self, seen: u128) -> Result<u32, E> {
        match seen.count_ones() {
            1 => Ok(seen.trailing_zeros()),
            0 => T::FALLBACK.ok_or_else(|| {
                E::custom(format_args!(
                    "no subtype of {} matches: expected one of the fields {}",
                    T::NAME,
                    Fields(T::FIELDS)
                ))
            }),
            _ if T::FIRST_MATCH => Ok(seen.trailing_zeros()),
            _ => {
                let names: Vec<&str> = (0..128)
                    .filter(|i| seen & (1u128 << i) != 0)
                    .filter_map(|i| T::VARIANTS.get(i).copied())
                    .collect();
                let (last, rest) = names.split_last().unwrap_or((&"", &[]));
                Err(E::custom(format_args!(
                    "ambiguous subtype of {}: the fields match both {} and {last}",
                    T::NAME,
                    rest.join(", ")
                )))
            }
        }
    }
}

struct Fields(&'static [&'static str]);

impl fmt::Display for Fields {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, field) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "`{field}`")?;
        }
        Ok(())
    }
}

impl<'de, T: Dispatch<'de>> Visitor<'de> for DispatchVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match T::KEY {
            Some(key) => write!(f, "a map with a `{key}` tag for {}", T::NAME),
            None => write!(f, "a map for {}", T::NAME),
        }
    }

    fn visit_map<A>(self, mut map: A) -> Result<T, A::Error>
    where
        A: MapAccess<'de>,
    {
        set_hoist(None);
        let mut prefix = Buffer::new();
        let mut seen = 0u128;
        loop {
            let seed = KeySeed::<T> {
                prefix: &mut prefix,
                seen: &mut seen,
                marker: PhantomData,
            };
            match map.next_key_seed(seed)? {
                Some(true) => {
                    let key = T::KEY.unwrap_or_default();
                    if T::FALLBACK.is_none() && !T::NESTED {
                        // The fast path: nothing recorded.
                        let index = map.next_value_seed(tag_seed::<T>(None))?;
                        let index = index.unwrap_or_default();
                        return self.build(index, prefix, map, None);
                    }
                    // The tag entry is recorded in place for the fallback,
                    // or for a nested child which reads it first; dropped
                    // again for any other variant.
                    let mark = prefix.len();
                    prefix.push_borrowed_str(key);
                    let sink = TagSink {
                        buf: &mut prefix,
                        human_readable: self.human_readable,
                        fallback: T::FALLBACK.is_some(),
                    };
                    return match map.next_value_seed(tag_seed::<T>(Some(sink)))? {
                        Some(index) if T::is_nested(index) => {
                            let rest = Rest {
                                prefix: prefix.reader_from(mark),
                                live: map,
                                tag: T::KEY,
                                hint: None,
                                human_readable: self.human_readable,
                                from_prefix: false,
                            };
                            T::build(VariantDeserializer {
                                index,
                                human_readable: self.human_readable,
                                rest,
                            })
                        }
                        Some(index) => {
                            prefix.truncate(mark);
                            self.build(index, prefix, map, None)
                        }
                        None => {
                            let fallback = T::FALLBACK.unwrap_or_default();
                            self.build(fallback, prefix, map, Some(key))
                        }
                    };
                }
                Some(false) => {
                    prefix.record(ValueSeedDeserializer { map: &mut map }, DEFAULT_MAX_DEPTH)?
                }
                None => break,
            }
        }
        match T::KEY {
            Some(key) => match T::FALLBACK {
                Some(fallback) => self.build(fallback, prefix, map, Some(key)),
                None => Err(A::Error::missing_field(key)),
            },
            None => {
                let index = self.decide(seen)?;
                self.build(index, prefix, map, None)
            }
        }
    }

    /// serde's internally tagged enums also read `["dog", field, ...]`:
    /// the tag, then the payload's fields in order.
    fn visit_seq<A>(self, mut seq: A) -> Result<T, A::Error>
    where
        A: SeqAccess<'de>,
    {
        set_hoist(None);
        if T::KEY.is_none() {
            return Err(A::Error::invalid_type(Unexpected::Seq, &self));
        }
        match seq.next_element_seed(tag_seed::<T>(None))? {
            Some(index) => T::build(VariantDeserializer {
                index: index.unwrap_or_default(),
                human_readable: self.human_readable,
                rest: RestSeq(seq),
            }),
            None => Err(A::Error::invalid_length(0, &self)),
        }
    }
}

/// Reads a map key: `true` when it is the tag key, else records it (and in
/// presence mode notes which variants it points to).
struct KeySeed<'b, 'de, T> {
    prefix: &'b mut Buffer<'de>,
    seen: &'b mut u128,
    marker: PhantomData<T>,
}

impl<'de, T: Dispatch<'de>> KeySeed<'_, 'de, T> {
    #[inline]
    fn is_tag(&mut self, key: &str) -> bool {
        match T::KEY {
            Some(tag) => key == tag,
            None => {
                *self.seen |= T::presence(key);
                false
            }
        }
    }
}

impl<'de, T: Dispatch<'de>> DeserializeSeed<'de> for KeySeed<'_, 'de, T> {
    type Value = bool;

    fn deserialize<D>(self, deserializer: D) -> Result<bool, D::Error>
    where
        D: Deserializer<'de>,
    {
        deserializer.deserialize_identifier(self)
    }
}

impl<'de, T: Dispatch<'de>> Visitor<'de> for KeySeed<'_, 'de, T> {
    type Value = bool;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a field name")
    }

    fn visit_str<E: de::Error>(mut self, v: &str) -> Result<bool, E> {
        if self.is_tag(v) {
            return Ok(true);
        }
        self.prefix.push_str(v);
        Ok(false)
    }

    fn visit_borrowed_str<E: de::Error>(mut self, v: &'de str) -> Result<bool, E> {
        if self.is_tag(v) {
            return Ok(true);
        }
        self.prefix.push_borrowed_str(v);
        Ok(false)
    }

    fn visit_bytes<E: de::Error>(mut self, v: &[u8]) -> Result<bool, E> {
        if core::str::from_utf8(v).is_ok_and(|v| self.is_tag(v)) {
            return Ok(true);
        }
        self.prefix.push_bytes(v);
        Ok(false)
    }

    fn visit_borrowed_bytes<E: de::Error>(mut self, v: &'de [u8]) -> Result<bool, E> {
        if core::str::from_utf8(v).is_ok_and(|v| self.is_tag(v)) {
            return Ok(true);
        }
        self.prefix.push_borrowed_bytes(v);
        Ok(false)
    }

    // Keys of other kinds (CBOR integers, YAML booleans) are never the tag.
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<bool, E> {
        self.prefix.push_u64(v);
        Ok(false)
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<bool, E> {
        self.prefix.push_i64(v);
        Ok(false)
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<bool, E> {
        self.prefix.push_bool(v);
        Ok(false)
    }
}

/// Hands the value of the current map entry to the buffer's recorder.
struct ValueSeedDeserializer<'m, A> {
    map: &'m mut A,
}

impl<'de, A: MapAccess<'de>> ValueSeedDeserializer<'_, A> {
    fn forward<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, A::Error> {
        self.map.next_value_seed(AnySeed(visitor))
    }
}

struct AnySeed<V>(V);

impl<'de, V: Visitor<'de>> DeserializeSeed<'de> for AnySeed<V> {
    type Value = V::Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<V::Value, D::Error> {
        deserializer.deserialize_any(self.0)
    }
}

impl<'de, A: MapAccess<'de>> Deserializer<'de> for ValueSeedDeserializer<'_, A> {
    type Error = A::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, A::Error> {
        self.forward(visitor)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

struct TagSeed<'a, 'de, T> {
    sink: Option<TagSink<'a, 'de>>,
    marker: PhantomData<T>,
}

fn tag_seed<'a, 'de, T>(sink: Option<TagSink<'a, 'de>>) -> TagSeed<'a, 'de, T> {
    TagSeed {
        sink,
        marker: PhantomData,
    }
}

impl<'de, T: Dispatch<'de>> DeserializeSeed<'de> for TagSeed<'_, 'de, T> {
    type Value = Option<u32>;

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Option<u32>, D::Error> {
        T::read_tag(deserializer, self.sink)
    }
}

/// `Dispatch::read_tag` for literal tags: looks the value up without
/// allocating.
#[inline]
pub fn read_literal_tag<'de, T, D>(
    deserializer: D,
    sink: Option<TagSink<'_, 'de>>,
) -> Result<Option<u32>, D::Error>
where
    T: LiteralTable,
    D: Deserializer<'de>,
{
    deserializer.deserialize_any(TagVisitor::<T> {
        sink,
        marker: PhantomData,
    })
}

/// The rest of an object once its tag is known: the buffered prefix replayed,
/// then the live map streamed.
pub struct Rest<'de, A> {
    prefix: OwnedReader<'de>,
    live: A,
    /// A second tag key in the live rest is an error.
    tag: Option<&'static str>,
    /// Told to an `Unknown` payload: which key is the tag.
    hint: Option<&'static str>,
    human_readable: bool,
    /// Whether the key just handed out came from the prefix.
    from_prefix: bool,
}

/// A buffer together with its read position.
pub(crate) struct OwnedReader<'de> {
    buf: Buffer<'de>,
    pos: usize,
    end: usize,
    /// A second stretch read after the first: `[0, then)`.
    then: Option<usize>,
}

impl<'de> Buffer<'de> {
    pub(crate) fn reader_owned(self) -> OwnedReader<'de> {
        let end = self.len();
        OwnedReader {
            buf: self,
            pos: 0,
            end,
            then: None,
        }
    }

    /// Reads from `start` to the end first, then from the beginning to
    /// `start`: a nested child sees the tag entry recorded at `start` first.
    pub(crate) fn reader_from(self, start: usize) -> OwnedReader<'de> {
        let end = self.len();
        OwnedReader {
            buf: self,
            pos: start,
            end,
            then: Some(start),
        }
    }
}

impl<'de> OwnedReader<'de> {
    fn with<R>(&mut self, f: impl FnOnce(&mut Reader<'_, 'de>) -> R) -> R {
        let mut reader = self.buf.reader_at(self.pos);
        let out = f(&mut reader);
        self.pos = reader.position();
        if self.pos >= self.end {
            if let Some(then) = self.then.take() {
                self.pos = 0;
                self.end = then;
            }
        }
        out
    }

    fn is_done(&self) -> bool {
        self.pos >= self.end
    }
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Rest<'de, A> {
    type Error = A::Error;

    #[inline]
    fn next_key_seed<K>(&mut self, seed: K) -> Result<Option<K::Value>, A::Error>
    where
        K: DeserializeSeed<'de>,
    {
        if !self.prefix.is_done() {
            self.from_prefix = true;
            let human_readable = self.human_readable;
            return self
                .prefix
                .with(|r| seed.deserialize(r.next_value::<A::Error>(human_readable)))
                .map(Some);
        }
        self.from_prefix = false;
        match self.tag {
            Some(tag) => self.live.next_key_seed(NotTag { seed, tag }),
            None => self.live.next_key_seed(seed),
        }
    }

    #[inline]
    fn next_value_seed<V>(&mut self, seed: V) -> Result<V::Value, A::Error>
    where
        V: DeserializeSeed<'de>,
    {
        if self.from_prefix {
            let human_readable = self.human_readable;
            self.prefix
                .with(|r| seed.deserialize(r.next_value::<A::Error>(human_readable)))
        } else {
            self.live.next_value_seed(seed)
        }
    }

    fn size_hint(&self) -> Option<usize> {
        self.live.size_hint()
    }
}

impl<'de, A: MapAccess<'de>> Rest<'de, A> {
    /// Reads and drops the remaining entries (still refusing a second tag).
    fn drain(&mut self) -> Result<(), A::Error> {
        while self.next_key::<IgnoredAny>()?.is_some() {
            self.next_value::<IgnoredAny>()?;
        }
        Ok(())
    }
}

/// Deserializes the rest of the object as the payload of a subtype: every
/// request is answered with the map, as serde's internally tagged enums do.
impl<'de, A: MapAccess<'de>> Deserializer<'de> for Rest<'de, A> {
    type Error = A::Error;

    #[inline]
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, A::Error> {
        visitor.visit_map(self)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, A::Error> {
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        mut self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        if name == UNKNOWN_NAME {
            if let Some(key) = self.hint.take() {
                return visitor.visit_map(Hinted {
                    key: Some(key),
                    rest: self,
                });
            }
        }
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_unit<V: Visitor<'de>>(mut self, visitor: V) -> Result<V::Value, A::Error> {
        // Only an object with nothing but the tag is a unit.
        match self.next_key::<IgnoredAny>()? {
            None => visitor.visit_unit(),
            Some(_) => Err(A::Error::invalid_type(Unexpected::Map, &visitor)),
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(
        mut self,
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        self.drain()?;
        visitor.visit_unit()
    }

    fn is_human_readable(&self) -> bool {
        self.human_readable
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf seq tuple tuple_struct map struct enum identifier
    }
}

/// The rest of an object for an `Unknown` payload: first an entry naming
/// the tag key, then the object.
struct Hinted<'de, A> {
    key: Option<&'static str>,
    rest: Rest<'de, A>,
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Hinted<'de, A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        if self.key.is_some() {
            let hint = de::value::BorrowedStrDeserializer::<A::Error>::new(TAG_HINT_KEY);
            return seed.deserialize(hint).map(Some);
        }
        self.rest.next_key_seed(seed)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        match self.key.take() {
            Some(key) => seed.deserialize(de::value::BorrowedStrDeserializer::new(key)),
            None => self.rest.next_value_seed(seed),
        }
    }
}

/// The chosen variant and the rest of its object, handed to the generated
/// code's serde-derived enum reader as an enum access.
pub struct VariantDeserializer<R> {
    index: u32,
    human_readable: bool,
    rest: R,
}

impl<'de, R> Deserializer<'de> for VariantDeserializer<R>
where
    R: VariantAccess<'de>,
{
    type Error = R::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, R::Error> {
        visitor.visit_enum(self)
    }

    fn is_human_readable(&self) -> bool {
        self.human_readable
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

impl<'de, R: VariantAccess<'de>> EnumAccess<'de> for VariantDeserializer<R> {
    type Error = R::Error;
    type Variant = R;

    fn variant_seed<V>(self, seed: V) -> Result<(V::Value, R), R::Error>
    where
        V: DeserializeSeed<'de>,
    {
        let index = seed.deserialize(de::value::U32Deserializer::<R::Error>::new(self.index))?;
        Ok((index, self.rest))
    }
}

/// The rest of a sequence after its leading tag.
pub struct RestSeq<A>(A);

impl<'de, A: SeqAccess<'de>> Deserializer<'de> for RestSeq<A> {
    type Error = A::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, A::Error> {
        visitor.visit_seq(self.0)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

impl<'de, A: SeqAccess<'de>> VariantAccess<'de> for RestSeq<A> {
    type Error = A::Error;

    fn unit_variant(mut self) -> Result<(), A::Error> {
        while self.0.next_element::<IgnoredAny>()?.is_some() {}
        Ok(())
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, A::Error> {
        seed.deserialize(self)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, A::Error> {
        visitor.visit_seq(self.0)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        visitor.visit_seq(self.0)
    }
}

impl<'de, A: MapAccess<'de>> VariantAccess<'de> for Rest<'de, A> {
    type Error = A::Error;

    fn unit_variant(mut self) -> Result<(), A::Error> {
        // Like serde's internally tagged unit variants, other fields are
        // ignored; a second tag is still an error.
        self.drain()
    }

    #[inline]
    fn newtype_variant_seed<T>(self, seed: T) -> Result<T::Value, A::Error>
    where
        T: DeserializeSeed<'de>,
    {
        seed.deserialize(self)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, A::Error> {
        visitor.visit_map(self)
    }

    #[inline]
    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        visitor.visit_map(self)
    }
}

/// A key seed that refuses the tag key, then hands the key to `seed`.
struct NotTag<K> {
    seed: K,
    tag: &'static str,
}

impl<'de, K: DeserializeSeed<'de>> DeserializeSeed<'de> for NotTag<K> {
    type Value = K::Value;

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<K::Value, D::Error> {
        self.seed.deserialize(NotTagDeserializer {
            inner: deserializer,
            tag: self.tag,
        })
    }
}

struct NotTagDeserializer<D> {
    inner: D,
    tag: &'static str,
}

struct NotTagVisitor<V> {
    inner: V,
    tag: &'static str,
}

macro_rules! forward_key_requests {
    ($($method:ident)*) => {
        $(
            #[inline]
            fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
                self.inner.$method(NotTagVisitor { inner: visitor, tag: self.tag })
            }
        )*
    };
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for NotTagDeserializer<D> {
    type Error = D::Error;

    forward_key_requests! {
        deserialize_any deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32
        deserialize_i64 deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32
        deserialize_u64 deserialize_u128 deserialize_f32 deserialize_f64 deserialize_char
        deserialize_str deserialize_string deserialize_bytes deserialize_byte_buf
        deserialize_option deserialize_unit deserialize_seq deserialize_map
        deserialize_identifier deserialize_ignored_any
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.inner.deserialize_unit_struct(
            name,
            NotTagVisitor {
                inner: visitor,
                tag: self.tag,
            },
        )
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.inner.deserialize_newtype_struct(
            name,
            NotTagVisitor {
                inner: visitor,
                tag: self.tag,
            },
        )
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.inner.deserialize_tuple(
            len,
            NotTagVisitor {
                inner: visitor,
                tag: self.tag,
            },
        )
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.inner.deserialize_tuple_struct(
            name,
            len,
            NotTagVisitor {
                inner: visitor,
                tag: self.tag,
            },
        )
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.inner.deserialize_struct(
            name,
            fields,
            NotTagVisitor {
                inner: visitor,
                tag: self.tag,
            },
        )
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.inner.deserialize_enum(
            name,
            variants,
            NotTagVisitor {
                inner: visitor,
                tag: self.tag,
            },
        )
    }

    fn is_human_readable(&self) -> bool {
        self.inner.is_human_readable()
    }
}

impl<V> NotTagVisitor<V> {
    #[inline]
    fn check<E: de::Error>(&self, key: &[u8]) -> Result<(), E> {
        if key == self.tag.as_bytes() {
            Err(E::duplicate_field(self.tag))
        } else {
            Ok(())
        }
    }
}

macro_rules! forward_visits {
    ($($method:ident($ty:ty))*) => {
        $(
            #[inline]
            fn $method<E: de::Error>(self, v: $ty) -> Result<V::Value, E> {
                self.inner.$method(v)
            }
        )*
    };
}

impl<'de, V: Visitor<'de>> Visitor<'de> for NotTagVisitor<V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.inner.expecting(f)
    }

    #[inline]
    fn visit_str<E: de::Error>(self, v: &str) -> Result<V::Value, E> {
        self.check(v.as_bytes())?;
        self.inner.visit_str(v)
    }

    #[inline]
    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<V::Value, E> {
        self.check(v.as_bytes())?;
        self.inner.visit_borrowed_str(v)
    }

    #[inline]
    fn visit_string<E: de::Error>(self, v: String) -> Result<V::Value, E> {
        self.check(v.as_bytes())?;
        self.inner.visit_string(v)
    }

    #[inline]
    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<V::Value, E> {
        self.check(v)?;
        self.inner.visit_bytes(v)
    }

    #[inline]
    fn visit_borrowed_bytes<E: de::Error>(self, v: &'de [u8]) -> Result<V::Value, E> {
        self.check(v)?;
        self.inner.visit_borrowed_bytes(v)
    }

    #[inline]
    fn visit_byte_buf<E: de::Error>(self, v: Vec<u8>) -> Result<V::Value, E> {
        self.check(&v)?;
        self.inner.visit_byte_buf(v)
    }

    forward_visits! {
        visit_bool(bool) visit_i8(i8) visit_i16(i16) visit_i32(i32) visit_i64(i64)
        visit_i128(i128) visit_u8(u8) visit_u16(u16) visit_u32(u32) visit_u64(u64)
        visit_u128(u128) visit_f32(f32) visit_f64(f64) visit_char(char)
    }

    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        self.inner.visit_unit()
    }

    fn visit_none<E: de::Error>(self) -> Result<V::Value, E> {
        self.inner.visit_none()
    }

    fn visit_some<D2: Deserializer<'de>>(self, d: D2) -> Result<V::Value, D2::Error> {
        self.inner.visit_some(d)
    }

    fn visit_newtype_struct<D2: Deserializer<'de>>(self, d: D2) -> Result<V::Value, D2::Error> {
        self.inner.visit_newtype_struct(d)
    }

    fn visit_seq<S: de::SeqAccess<'de>>(self, seq: S) -> Result<V::Value, S::Error> {
        self.inner.visit_seq(seq)
    }

    fn visit_map<M: MapAccess<'de>>(self, map: M) -> Result<V::Value, M::Error> {
        self.inner.visit_map(map)
    }

    fn visit_enum<E2: EnumAccess<'de>>(self, data: E2) -> Result<V::Value, E2::Error> {
        self.inner.visit_enum(data)
    }
}
