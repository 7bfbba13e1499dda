//! The rest of an object once the walk (`dispatch`) has picked its subtype:
//! the buffered prefix replayed, then the live map streamed, handed to the
//! payload as its deserializer and to a serde-derived enum reader as the
//! chosen variant. A second tag key in the live rest is an error, and
//! ignored values are parsed, not skipped, so the verdict is the same
//! wherever the tag comes.

use core::cell::Cell;
use core::fmt;
use core::marker::PhantomData;

use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, Error as _, IgnoredAny, MapAccess, SeqAccess,
    Unexpected, VariantAccess, Visitor,
};

use crate::buffer::{Buffer, Reader};
use crate::tag::HeadValue;
use crate::unknown::{take_wants_hint, tell_tag_key};

/// The rest of an object (or sequence) after its tag: a deserializer for a
/// payload and a variant access for a serde-derived enum reader.
pub trait Payload<'de>:
    Deserializer<'de> + VariantAccess<'de, Error = <Self as Deserializer<'de>>::Error>
{
}

impl<'de, P> Payload<'de> for P where
    P: Deserializer<'de> + VariantAccess<'de, Error = <P as Deserializer<'de>>::Error>
{
}

/// serde's message for a missing field, for keys that are not `'static`.
pub(crate) fn missing_field<E: de::Error>(key: &str) -> E {
    E::custom(format_args!("missing field `{key}`"))
}

/// serde's message for a duplicate field, for keys that are not `'static`.
pub(crate) fn duplicate_field<E: de::Error>(key: &str) -> E {
    E::custom(format_args!("duplicate field `{key}`"))
}

/// The rest of an object once its tag is known: the buffered prefix replayed,
/// then the live map streamed.
pub struct Rest<'de, 's, A: MapAccess<'de>> {
    pub(crate) prefix: PrefixReader<'s, 'de>,
    pub(crate) live: A,
    /// A second tag key in the live rest is an error.
    pub(crate) tag: Option<&'s str>,
    /// Told to an `Unknown` payload: which key is the tag.
    pub(crate) hint: Option<&'s str>,
    /// Keeps the first error of the live map when the payload is read
    /// through the type-erased path, which would flatten it to a message.
    pub(crate) catch: Option<&'s Cell<Option<A::Error>>>,
    /// What the payload is told (see `is_human_readable` below).
    pub(crate) human_readable: bool,
    /// Whether the key just handed out came from the prefix.
    pub(crate) from_prefix: bool,
}

/// The buffered prefix with its read position. It borrows the buffer,
/// which stays with the engine: moving a buffer (it has a `Drop`) into
/// the payload's reader made every move of that reader a `memcpy`.
pub(crate) struct PrefixReader<'b, 'de> {
    pub(crate) buf: &'b Buffer<'de>,
    pos: usize,
    end: usize,
    /// A second stretch read after the first: `[0, then)`.
    then: Option<usize>,
}

impl<'de> Buffer<'de> {
    pub(crate) fn prefix_reader(&self) -> PrefixReader<'_, 'de> {
        let end = self.len();
        PrefixReader {
            buf: self,
            pos: 0,
            end,
            then: None,
        }
    }

    /// `prefix_reader` once the live map has ended: after the prefix comes
    /// the end of the object, not another call to the map, which a format
    /// need not answer with `None` again (ciborium reads an indefinite-length
    /// map's next item past its end). `is_done` never holds, and the
    /// prefix's end is found where the buffer ends (see `next_key_seed`).
    pub(crate) fn prefix_reader_ended(&self) -> PrefixReader<'_, 'de> {
        PrefixReader {
            buf: self,
            pos: 0,
            end: usize::MAX,
            then: None,
        }
    }

    /// Reads from `start` to the end first, then from the beginning to
    /// `start`: a nested child sees the tag entry recorded at `start` first.
    pub(crate) fn prefix_reader_from(&self, start: usize) -> PrefixReader<'_, 'de> {
        let end = self.len();
        PrefixReader {
            buf: self,
            pos: start,
            end,
            then: Some(start),
        }
    }
}

impl<'de> PrefixReader<'_, 'de> {
    // Called for every replayed key and value: kept out of line it costs
    // a call frame per entry.
    #[inline(always)]
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

    #[inline]
    fn is_done(&self) -> bool {
        self.pos >= self.end
    }
}

impl<'de, 's, A: MapAccess<'de>> Rest<'de, 's, A> {
    /// Passes errors through unchanged: for a payload read without the
    /// erased layers (`native`), which keep them as they are.
    pub(crate) fn uncaught(self) -> Self {
        Rest {
            catch: None,
            ..self
        }
    }
}

// `inline(always)`: a payload's reader calls these once per entry, and a
// call frame here cost the tag-first enum path about 2% and the trait-object
// path (where the caller is an erased entry point) more.
impl<'de, A: MapAccess<'de>> MapAccess<'de> for Rest<'de, '_, A> {
    type Error = A::Error;

    #[inline(always)]
    fn next_key_seed<K>(&mut self, seed: K) -> Result<Option<K::Value>, A::Error>
    where
        K: DeserializeSeed<'de>,
    {
        if !self.prefix.is_done() {
            // Only a `prefix_reader_ended` gets here at the buffer's end.
            if self.prefix.pos >= self.prefix.buf.len() {
                return Ok(None);
            }
            self.from_prefix = true;
            let human_readable = self.human_readable;
            let out = self
                .prefix
                .with(|r| seed.deserialize(r.next_key::<A::Error>(human_readable)));
            return caught(self.catch, out.map(Some));
        }
        self.from_prefix = false;
        let out = match self.tag {
            Some(tag) => self.live.next_key_seed(NotTag { seed, tag }),
            None => self.live.next_key_seed(seed),
        };
        caught(self.catch, out)
    }

    #[inline(always)]
    fn next_value_seed<V>(&mut self, seed: V) -> Result<V::Value, A::Error>
    where
        V: DeserializeSeed<'de>,
    {
        let out = if self.from_prefix {
            let human_readable = self.human_readable;
            self.prefix
                .with(|r| seed.deserialize(r.next_value::<A::Error>(human_readable)))
        } else {
            self.live.next_value_seed(ParseIgnored(seed))
        };
        caught(self.catch, out)
    }

    fn size_hint(&self) -> Option<usize> {
        self.live.size_hint()
    }
}

/// Keeps the first error for the engine (see `Rest::catch`) and passes a
/// stand-in up through the erased layers, which would flatten it anyway.
#[inline(always)]
fn caught<T, E: de::Error>(catch: Option<&Cell<Option<E>>>, out: Result<T, E>) -> Result<T, E> {
    // Enums never catch: keep their path a plain pass-through.
    match catch {
        None => out,
        Some(slot) => out.map_err(|e| keep_first(slot, e)),
    }
}

#[cold]
fn keep_first<E: de::Error>(slot: &Cell<Option<E>>, e: E) -> E {
    match slot.take() {
        Some(first) => {
            slot.set(Some(first));
            e
        }
        None => {
            let stand_in = E::custom(format_args!("{e}"));
            slot.set(Some(e));
            stand_in
        }
    }
}

impl<'de, A: MapAccess<'de>> Rest<'de, '_, A> {
    /// Reads and drops the remaining entries (still refusing a second tag).
    fn drain(&mut self) -> Result<(), A::Error> {
        while self.next_key::<IgnoredAny>()?.is_some() {
            self.next_value::<IgnoredAny>()?;
        }
        Ok(())
    }
}

/// The tag key told to an `Unknown` that asks, beside the map rather than
/// as an entry of it: an entry would compile every payload's reader once
/// more, for a wrapping map and a string deserializer. Not generic, so not
/// compiled again for every payload.
#[inline]
fn tell_hint(hint: Option<&str>) -> Option<crate::unknown::Told> {
    match hint {
        Some(key) if take_wants_hint() => Some(tell_tag_key(key)),
        _ => None,
    }
}

/// Deserializes the rest of the object as the payload of a subtype: every
/// request is answered with the map, as serde's internally tagged enums do.
impl<'de, A: MapAccess<'de>> Deserializer<'de> for Rest<'de, '_, A> {
    type Error = A::Error;

    #[inline]
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, A::Error> {
        let catch = self.catch;
        let _told = tell_hint(self.hint);
        caught(catch, visitor.visit_map(self))
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, A::Error> {
        let catch = self.catch;
        caught(catch, visitor.visit_some(self))
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        let catch = self.catch;
        caught(catch, visitor.visit_newtype_struct(self))
    }

    fn deserialize_unit<V: Visitor<'de>>(mut self, visitor: V) -> Result<V::Value, A::Error> {
        // Only an object with nothing but the tag is a unit.
        let out = match self.next_key::<IgnoredAny>()? {
            None => visitor.visit_unit(),
            Some(_) => Err(A::Error::invalid_type(Unexpected::Map, &visitor)),
        };
        caught(self.catch, out)
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

    /// An externally tagged enum as a newtype variant's payload: the one
    /// entry left after the tag is the enum (`{"tag":"V","Unit":null}`), as
    /// serde's internally tagged enums read it.
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        let catch = self.catch;
        caught(catch, visitor.visit_enum(RestEnum { rest: self }))
    }

    /// The format's answer if it was asked (the type-erased path) or the
    /// prefix recorded a value from it; with nothing buffered (the tag
    /// first) serde's default, as serde's own internally tagged enums
    /// answer: asking the format would ask on every read, and serde_test
    /// refuses the question (see `Buffer`). The payload's own values are
    /// read from the format and answer for themselves.
    fn is_human_readable(&self) -> bool {
        self.human_readable
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf seq tuple tuple_struct map struct identifier
    }
}

/// The rest of an object read as an externally tagged enum: exactly one
/// entry, its key the variant, its value the variant's content.
struct RestEnum<'de, 's, A: MapAccess<'de>> {
    rest: Rest<'de, 's, A>,
}

/// serde's message for an enum read from a map of another size.
fn not_one_entry<E: de::Error>() -> E {
    E::invalid_value(Unexpected::Map, &"map with a single key")
}

impl<'de, A: MapAccess<'de>> RestEnum<'de, '_, A> {
    /// The entry read was the only one.
    fn single<T>(mut self, value: T) -> Result<T, A::Error> {
        match self.rest.next_key::<IgnoredAny>()? {
            None => Ok(value),
            Some(_) => Err(not_one_entry()),
        }
    }
}

impl<'de, 's, A: MapAccess<'de>> EnumAccess<'de> for RestEnum<'de, 's, A> {
    type Error = A::Error;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(
        mut self,
        seed: V,
    ) -> Result<(V::Value, Self), A::Error> {
        match self.rest.next_key_seed(seed)? {
            Some(variant) => Ok((variant, self)),
            None => Err(not_one_entry()),
        }
    }
}

impl<'de, A: MapAccess<'de>> VariantAccess<'de> for RestEnum<'de, '_, A> {
    type Error = A::Error;

    fn unit_variant(mut self) -> Result<(), A::Error> {
        let () = self.rest.next_value()?;
        self.single(())
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(
        mut self,
        seed: T,
    ) -> Result<T::Value, A::Error> {
        let value = self.rest.next_value_seed(seed)?;
        self.single(value)
    }

    fn tuple_variant<V: Visitor<'de>>(
        mut self,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        let value = self.rest.next_value_seed(Content(visitor))?;
        self.single(value)
    }

    fn struct_variant<V: Visitor<'de>>(
        mut self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        let value = self.rest.next_value_seed(Content(visitor))?;
        self.single(value)
    }
}

/// A variant's content, read as whatever it is (a sequence or a map), as
/// serde reads a buffered variant's content: a typed request would tell a
/// format the enum's name where serde's twin tells none.
struct Content<V>(V);

impl<'de, V: Visitor<'de>> DeserializeSeed<'de> for Content<V> {
    type Value = V::Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<V::Value, D::Error> {
        deserializer.deserialize_any(self.0)
    }
}

/// The rest of an object with a nested child's tag entry, read by an
/// enclosing level, handed out again before anything else: for a child that
/// reads the object itself (a `nested` variant with serde attributes, or a
/// child without literal tags).
pub struct HeadFirst<'de, 's, P> {
    head: HeadValue<'de>,
    key: &'s str,
    payload: P,
}

impl<'de, 's, P> HeadFirst<'de, 's, P> {
    pub fn new(head: HeadValue<'de>, key: &'s str, payload: P) -> Self {
        HeadFirst { head, key, payload }
    }
}

impl<'de, P: Payload<'de>> Deserializer<'de> for HeadFirst<'de, '_, P> {
    type Error = <P as Deserializer<'de>>::Error;

    fn deserialize_any<V: Visitor<'de>>(
        self,
        visitor: V,
    ) -> Result<V::Value, <P as Deserializer<'de>>::Error> {
        // A payload answers every request with its map.
        self.payload.deserialize_any(HeadVisitor {
            head: Some(self.head),
            key: self.key,
            visitor,
        })
    }

    fn is_human_readable(&self) -> bool {
        self.payload.is_human_readable()
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

impl<'de, P: Payload<'de>> VariantAccess<'de> for HeadFirst<'de, '_, P> {
    type Error = <P as Deserializer<'de>>::Error;

    fn unit_variant(self) -> Result<(), <P as Deserializer<'de>>::Error> {
        self.payload.unit_variant()
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(
        self,
        seed: T,
    ) -> Result<T::Value, <P as Deserializer<'de>>::Error> {
        seed.deserialize(self)
    }

    fn tuple_variant<V: Visitor<'de>>(
        self,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, <P as Deserializer<'de>>::Error> {
        self.deserialize_any(visitor)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, <P as Deserializer<'de>>::Error> {
        self.deserialize_any(visitor)
    }
}

struct HeadVisitor<'de, 's, V> {
    head: Option<HeadValue<'de>>,
    key: &'s str,
    visitor: V,
}

impl<'de, V: Visitor<'de>> Visitor<'de> for HeadVisitor<'de, '_, V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.visitor.expecting(f)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        self.visitor.visit_map(HeadMap {
            head: self.head,
            in_head: false,
            key: self.key,
            map,
        })
    }
}

struct HeadMap<'de, 's, A> {
    head: Option<HeadValue<'de>>,
    in_head: bool,
    key: &'s str,
    map: A,
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for HeadMap<'de, '_, A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        if self.head.is_some() && !self.in_head {
            self.in_head = true;
            let key = de::value::StrDeserializer::<A::Error>::new(self.key);
            return seed.deserialize(key).map(Some);
        }
        self.map.next_key_seed(seed)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        if self.in_head {
            if let Some(head) = self.head.take() {
                return match head {
                    HeadValue::Str(v) => {
                        seed.deserialize(de::value::BorrowedStrDeserializer::new(v))
                    }
                    HeadValue::U64(v) => seed.deserialize(de::value::U64Deserializer::new(v)),
                    HeadValue::I64(v) => seed.deserialize(de::value::I64Deserializer::new(v)),
                    HeadValue::Bool(v) => seed.deserialize(de::value::BoolDeserializer::new(v)),
                };
            }
        }
        self.map.next_value_seed(seed)
    }

    fn size_hint(&self) -> Option<usize> {
        self.map.size_hint()
    }
}

/// The chosen variant and the rest of its object, handed to the generated
/// code's serde-derived enum reader as an enum access.
pub struct VariantDeserializer<R> {
    index: u32,
    rest: R,
}

impl<'de, R: Deserializer<'de>> VariantDeserializer<R> {
    /// Variant `index`, read from `rest`.
    #[inline]
    pub fn new(index: u32, rest: R) -> Self {
        VariantDeserializer { index, rest }
    }
}

impl<'de, R> Deserializer<'de> for VariantDeserializer<R>
where
    R: Payload<'de>,
{
    type Error = <R as Deserializer<'de>>::Error;

    #[inline]
    fn deserialize_any<V: Visitor<'de>>(
        self,
        visitor: V,
    ) -> Result<V::Value, <R as Deserializer<'de>>::Error> {
        visitor.visit_enum(self)
    }

    // Asked only when the enum's reader asks (see `Rest::is_human_readable`).
    fn is_human_readable(&self) -> bool {
        self.rest.is_human_readable()
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

    #[inline]
    fn variant_seed<V>(self, seed: V) -> Result<(V::Value, R), R::Error>
    where
        V: DeserializeSeed<'de>,
    {
        let index = seed.deserialize(de::value::U32Deserializer::<R::Error>::new(self.index))?;
        Ok((index, self.rest))
    }
}

/// The rest of a sequence after its leading tag.
pub struct RestSeq<A>(pub(crate) A);

impl<'de, A: SeqAccess<'de>> Deserializer<'de> for RestSeq<A> {
    type Error = A::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, A::Error> {
        visitor.visit_seq(self.0)
    }

    /// As serde's internally tagged enums: `["Info"]`, nothing after the
    /// tag, is a unit (struct) payload.
    fn deserialize_unit<V: Visitor<'de>>(mut self, visitor: V) -> Result<V::Value, A::Error> {
        let next = self
            .0
            .next_element_seed(ParseIgnored(PhantomData::<IgnoredAny>))?;
        match next {
            None => visitor.visit_unit(),
            Some(_) => Err(A::Error::invalid_type(Unexpected::Seq, &visitor)),
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        self.deserialize_unit(visitor)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

impl<'de, A: SeqAccess<'de>> VariantAccess<'de> for RestSeq<A> {
    type Error = A::Error;

    fn unit_variant(mut self) -> Result<(), A::Error> {
        // As serde's internally tagged enums: `["Fish"]` only. Extra
        // elements are parsed (see `ParseIgnored`) to count them.
        let mut extra = 0;
        while self
            .0
            .next_element_seed(ParseIgnored(PhantomData::<IgnoredAny>))?
            .is_some()
        {
            extra += 1;
        }
        if extra > 0 {
            return Err(A::Error::invalid_length(extra, &"0 elements in sequence"));
        }
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

impl<'de, A: MapAccess<'de>> VariantAccess<'de> for Rest<'de, '_, A> {
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
struct NotTag<'s, K> {
    seed: K,
    tag: &'s str,
}

impl<'de, K: DeserializeSeed<'de>> DeserializeSeed<'de> for NotTag<'_, K> {
    type Value = K::Value;

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<K::Value, D::Error> {
        self.seed.deserialize(NotTagDeserializer {
            inner: deserializer,
            tag: self.tag,
        })
    }
}

struct NotTagDeserializer<'s, D> {
    inner: D,
    tag: &'s str,
}

struct NotTagVisitor<'s, V> {
    inner: V,
    tag: &'s str,
}

/// Forwards every request of a wrapping deserializer to the one it wraps,
/// with the visitor that its `split` gives (wrapped or not).
macro_rules! forward_requests {
    ($($method:ident)*) => {
        $(
            #[inline]
            fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
                let (inner, visitor) = self.split(visitor);
                inner.$method(visitor)
            }
        )*

        #[inline]
        fn deserialize_unit_struct<V: Visitor<'de>>(
            self,
            name: &'static str,
            visitor: V,
        ) -> Result<V::Value, D::Error> {
            let (inner, visitor) = self.split(visitor);
            inner.deserialize_unit_struct(name, visitor)
        }

        #[inline]
        fn deserialize_newtype_struct<V: Visitor<'de>>(
            self,
            name: &'static str,
            visitor: V,
        ) -> Result<V::Value, D::Error> {
            let (inner, visitor) = self.split(visitor);
            inner.deserialize_newtype_struct(name, visitor)
        }

        #[inline]
        fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, D::Error> {
            let (inner, visitor) = self.split(visitor);
            inner.deserialize_tuple(len, visitor)
        }

        #[inline]
        fn deserialize_tuple_struct<V: Visitor<'de>>(
            self,
            name: &'static str,
            len: usize,
            visitor: V,
        ) -> Result<V::Value, D::Error> {
            let (inner, visitor) = self.split(visitor);
            inner.deserialize_tuple_struct(name, len, visitor)
        }

        #[inline]
        fn deserialize_struct<V: Visitor<'de>>(
            self,
            name: &'static str,
            fields: &'static [&'static str],
            visitor: V,
        ) -> Result<V::Value, D::Error> {
            let (inner, visitor) = self.split(visitor);
            inner.deserialize_struct(name, fields, visitor)
        }

        #[inline]
        fn deserialize_enum<V: Visitor<'de>>(
            self,
            name: &'static str,
            variants: &'static [&'static str],
            visitor: V,
        ) -> Result<V::Value, D::Error> {
            let (inner, visitor) = self.split(visitor);
            inner.deserialize_enum(name, variants, visitor)
        }
    };
}

impl<'s, D> NotTagDeserializer<'s, D> {
    #[inline]
    fn split<V>(self, visitor: V) -> (D, NotTagVisitor<'s, V>) {
        let visitor = NotTagVisitor {
            inner: visitor,
            tag: self.tag,
        };
        (self.inner, visitor)
    }
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for NotTagDeserializer<'_, D> {
    type Error = D::Error;

    forward_requests! {
        deserialize_any deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32
        deserialize_i64 deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32
        deserialize_u64 deserialize_u128 deserialize_f32 deserialize_f64 deserialize_char
        deserialize_str deserialize_string deserialize_bytes deserialize_byte_buf
        deserialize_option deserialize_unit deserialize_seq deserialize_map
        deserialize_identifier deserialize_ignored_any
    }

    fn is_human_readable(&self) -> bool {
        self.inner.is_human_readable()
    }
}

/// A test, not a `Result`, and not generic: a `?` on a `Result` compiled a
/// conversion for every key visitor and error type.
#[inline]
fn is_tag(key: &[u8], tag: &str) -> bool {
    key == tag.as_bytes()
}

/// Scalar visits a key that is not the tag passes on to the wrapped visitor.
macro_rules! scalars_to_inner {
    ($($method:ident($ty:ty))*) => {
        $(
            #[inline]
            fn $method<E: de::Error>(self, v: $ty) -> Result<V::Value, E> {
                self.inner.$method(v)
            }
        )*
    };
}

impl<'de, V: Visitor<'de>> Visitor<'de> for NotTagVisitor<'_, V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.inner.expecting(f)
    }

    #[inline]
    fn visit_str<E: de::Error>(self, v: &str) -> Result<V::Value, E> {
        if is_tag(v.as_bytes(), self.tag) {
            return Err(duplicate_field(self.tag));
        }
        self.inner.visit_str(v)
    }

    #[inline]
    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<V::Value, E> {
        if is_tag(v.as_bytes(), self.tag) {
            return Err(duplicate_field(self.tag));
        }
        self.inner.visit_borrowed_str(v)
    }

    #[inline]
    fn visit_string<E: de::Error>(self, v: String) -> Result<V::Value, E> {
        if is_tag(v.as_bytes(), self.tag) {
            return Err(duplicate_field(self.tag));
        }
        self.inner.visit_string(v)
    }

    #[inline]
    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<V::Value, E> {
        if is_tag(v, self.tag) {
            return Err(duplicate_field(self.tag));
        }
        self.inner.visit_bytes(v)
    }

    #[inline]
    fn visit_borrowed_bytes<E: de::Error>(self, v: &'de [u8]) -> Result<V::Value, E> {
        if is_tag(v, self.tag) {
            return Err(duplicate_field(self.tag));
        }
        self.inner.visit_borrowed_bytes(v)
    }

    #[inline]
    fn visit_byte_buf<E: de::Error>(self, v: Vec<u8>) -> Result<V::Value, E> {
        if is_tag(&v, self.tag) {
            return Err(duplicate_field(self.tag));
        }
        self.inner.visit_byte_buf(v)
    }

    scalars_to_inner! {
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

/// A value seed under which an ignored value is parsed, not skipped.
///
/// Entries before the tag are buffered, which parses them fully; entries
/// after it stream, and a format may skip an ignored value more leniently
/// than it parses one (serde_json skips numbers beyond `f64`, invalid UTF-8
/// and lone surrogates). Parsing ignored values of the object too keeps the
/// verdict the same wherever the tag comes. Other requests pass through.
struct ParseIgnored<S>(S);

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for ParseIgnored<S> {
    type Value = S::Value;

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<S::Value, D::Error> {
        self.0.deserialize(ParseIgnoredDeserializer(deserializer))
    }
}

struct ParseIgnoredDeserializer<D>(D);

impl<D> ParseIgnoredDeserializer<D> {
    #[inline]
    fn split<V>(self, visitor: V) -> (D, V) {
        (self.0, visitor)
    }
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for ParseIgnoredDeserializer<D> {
    type Error = D::Error;

    forward_requests! {
        deserialize_any deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32
        deserialize_i64 deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32
        deserialize_u64 deserialize_u128 deserialize_f32 deserialize_f64 deserialize_char
        deserialize_str deserialize_string deserialize_bytes deserialize_byte_buf
        deserialize_option deserialize_unit deserialize_seq deserialize_map
        deserialize_identifier
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        self.0.deserialize_any(ParseAll {
            depth: crate::state::remaining(),
        })?;
        visitor.visit_unit()
    }

    fn is_human_readable(&self) -> bool {
        self.0.is_human_readable()
    }
}

/// Visits a whole value and keeps nothing, counting depth as the buffer does.
struct ParseAll {
    depth: u32,
}

impl ParseAll {
    fn nested<E: de::Error>(&self) -> Result<ParseAll, E> {
        match self.depth.checked_sub(1) {
            Some(depth) if depth > 0 => Ok(ParseAll { depth }),
            _ => Err(crate::buffer::too_deep()),
        }
    }
}

impl<'de> DeserializeSeed<'de> for ParseAll {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ParseAll {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }

    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }

    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }

    fn visit_i128<E>(self, _: i128) -> Result<(), E> {
        Ok(())
    }

    fn visit_u128<E>(self, _: u128) -> Result<(), E> {
        Ok(())
    }

    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }

    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }

    fn visit_bytes<E>(self, _: &[u8]) -> Result<(), E> {
        Ok(())
    }

    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_none<E>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self.nested()?)
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self.nested()?)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq.next_element_seed(self.nested()?)?.is_some() {}
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while map.next_key_seed(self.nested()?)?.is_some() {
            map.next_value_seed(self.nested()?)?;
        }
        Ok(())
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<(), A::Error> {
        let ((), variant) = data.variant_seed(self.nested()?)?;
        variant.newtype_variant_seed(self.nested()?)
    }
}
