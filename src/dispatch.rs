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
    self, DeserializeSeed, Deserializer, EnumAccess, Error as _, IgnoredAny, MapAccess,
    SeqAccess, Unexpected, VariantAccess, Visitor,
};

use crate::buffer::{Buffer, Reader, DEFAULT_MAX_DEPTH};
use crate::tag::{LiteralTable, TagVisitor};

/// What generated code provides for an enum with a tag key.
pub trait Dispatch<'de>: Sized {
    /// The tag key, e.g. `"type"`.
    const KEY: &'static str;

    /// The enum's name, for messages.
    const NAME: &'static str;

    /// Reads a tag value and returns the index of the variant it selects, or
    /// the unknown-tag error.
    fn read_tag<D>(tag: D) -> Result<u32, D::Error>
    where
        D: Deserializer<'de>;

    /// Builds the chosen variant from `variant`, a deserializer that
    /// answers with an enum access (a [`VariantDeserializer`]).
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
    deserializer.deserialize_any(DispatchVisitor::<T> {
        human_readable,
        marker: PhantomData,
    })
}

struct DispatchVisitor<T> {
    human_readable: bool,
    marker: PhantomData<T>,
}

impl<'de, T: Dispatch<'de>> Visitor<'de> for DispatchVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "a map with a `{}` tag for {}",
            T::KEY,
            T::NAME
        )
    }

    fn visit_map<A>(self, mut map: A) -> Result<T, A::Error>
    where
        A: MapAccess<'de>,
    {
        let key = T::KEY;
        let mut prefix = Buffer::new();
        loop {
            let seed = KeySeed {
                tag: key,
                prefix: &mut prefix,
            };
            match map.next_key_seed(seed)? {
                Some(true) => {
                    let index = map.next_value_seed(TagSeed::<T>(PhantomData))?;
                    return T::build(VariantDeserializer {
                        index,
                        human_readable: self.human_readable,
                        rest: Rest {
                            prefix: prefix.reader_owned(),
                            live: map,
                            tag: key,
                            human_readable: self.human_readable,
                            from_prefix: false,
                        },
                    });
                }
                Some(false) => prefix.record(
                    ValueSeedDeserializer { map: &mut map },
                    DEFAULT_MAX_DEPTH,
                )?,
                None => return Err(A::Error::missing_field(key)),
            }
        }
    }

    /// serde's internally tagged enums also read `["dog", field, ...]`:
    /// the tag, then the payload's fields in order.
    fn visit_seq<A>(self, mut seq: A) -> Result<T, A::Error>
    where
        A: SeqAccess<'de>,
    {
        match seq.next_element_seed(TagSeed::<T>(PhantomData))? {
            Some(index) => T::build(VariantDeserializer {
                index,
                human_readable: self.human_readable,
                rest: RestSeq(seq),
            }),
            None => Err(A::Error::invalid_length(0, &self)),
        }
    }
}

/// Reads a map key: `true` when it is the tag key, else records it.
struct KeySeed<'b, 'de> {
    tag: &'static str,
    prefix: &'b mut Buffer<'de>,
}

impl<'de> DeserializeSeed<'de> for KeySeed<'_, 'de> {
    type Value = bool;

    fn deserialize<D>(self, deserializer: D) -> Result<bool, D::Error>
    where
        D: Deserializer<'de>,
    {
        deserializer.deserialize_identifier(self)
    }
}

impl<'de> Visitor<'de> for KeySeed<'_, 'de> {
    type Value = bool;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a field name")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<bool, E> {
        if v == self.tag {
            return Ok(true);
        }
        self.prefix.push_str(v);
        Ok(false)
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<bool, E> {
        if v == self.tag {
            return Ok(true);
        }
        self.prefix.push_borrowed_str(v);
        Ok(false)
    }

    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<bool, E> {
        if v == self.tag.as_bytes() {
            return Ok(true);
        }
        self.prefix.push_bytes(v);
        Ok(false)
    }

    fn visit_borrowed_bytes<E: de::Error>(self, v: &'de [u8]) -> Result<bool, E> {
        if v == self.tag.as_bytes() {
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

struct TagSeed<T>(PhantomData<T>);

impl<'de, T: Dispatch<'de>> DeserializeSeed<'de> for TagSeed<T> {
    type Value = u32;

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<u32, D::Error> {
        T::read_tag(deserializer)
    }
}

/// `Dispatch::read_tag` for literal tags: looks the value up without
/// allocating.
#[inline]
pub fn read_literal_tag<'de, T, D>(deserializer: D) -> Result<u32, D::Error>
where
    T: LiteralTable,
    D: Deserializer<'de>,
{
    deserializer.deserialize_any(TagVisitor::<T>(PhantomData))
}

/// The rest of an object once its tag is known: the buffered prefix replayed,
/// then the live map streamed.
pub struct Rest<'de, A> {
    prefix: OwnedReader<'de>,
    live: A,
    tag: &'static str,
    human_readable: bool,
    /// Whether the key just handed out came from the prefix.
    from_prefix: bool,
}

/// A buffer together with its read position.
pub(crate) struct OwnedReader<'de> {
    buf: Buffer<'de>,
    pos: usize,
}

impl<'de> Buffer<'de> {
    pub(crate) fn reader_owned(self) -> OwnedReader<'de> {
        OwnedReader { buf: self, pos: 0 }
    }
}

impl<'de> OwnedReader<'de> {
    fn with<R>(&mut self, f: impl FnOnce(&mut Reader<'_, 'de>) -> R) -> R {
        let mut reader = self.buf.reader_at(self.pos);
        let out = f(&mut reader);
        self.pos = reader.position();
        out
    }

    fn is_done(&self) -> bool {
        self.pos >= self.buf.len()
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
        self.live.next_key_seed(NotTag {
            seed,
            tag: self.tag,
        })
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
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, A::Error> {
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

    fn deserialize_ignored_any<V: Visitor<'de>>(mut self, visitor: V) -> Result<V::Value, A::Error> {
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
        self.inner.deserialize_unit_struct(name, NotTagVisitor { inner: visitor, tag: self.tag })
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.inner.deserialize_newtype_struct(name, NotTagVisitor { inner: visitor, tag: self.tag })
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, D::Error> {
        self.inner.deserialize_tuple(len, NotTagVisitor { inner: visitor, tag: self.tag })
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.inner
            .deserialize_tuple_struct(name, len, NotTagVisitor { inner: visitor, tag: self.tag })
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.inner
            .deserialize_struct(name, fields, NotTagVisitor { inner: visitor, tag: self.tag })
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.inner
            .deserialize_enum(name, variants, NotTagVisitor { inner: visitor, tag: self.tag })
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
