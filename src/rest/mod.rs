//! The rest of an object once the walk (`dispatch`) has picked its subtype:
//! the buffered prefix replayed, then the live map streamed, handed to the
//! payload as its deserializer and to a serde-derived enum reader as the
//! chosen variant. A second tag key in the live rest is an error, and
//! ignored values are parsed, not skipped, so the verdict is the same
//! wherever the tag comes.

use core::cell::Cell;

use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, Error as _, IgnoredAny, MapAccess, Unexpected,
    VariantAccess, Visitor,
};

use crate::buffer::{Buffer, Mark, Reader};
use crate::unknown::{take_wants_hint, tell_tag_key};

pub(crate) mod forward;
mod head;
mod ignored;
mod not_tag;
mod seq;
mod value;
mod variant;

pub use self::head::HeadFirst;
use self::ignored::ParseIgnored;
use self::not_tag::NotTag;
pub(crate) use self::seq::RestSeq;
pub(crate) use self::value::ValuePayload;
pub use self::variant::VariantDeserializer;

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
/// then the live map streamed. A pointer to its state (`RestState`), which
/// stays in the engine's frame: the payload's reader is a call of its own
/// (a derived `Deserialize` the optimizer does not inline), and a state
/// handed over by value would be written field by field by the engine and
/// read back at once in 16-byte pieces by the payload, loads that the
/// processor cannot forward from those narrower stores.
pub struct Rest<'de, 's, A: MapAccess<'de>> {
    state: &'s mut RestState<'de, 's, A>,
}

impl<'de, 's, A: MapAccess<'de>> core::ops::Deref for Rest<'de, 's, A> {
    type Target = RestState<'de, 's, A>;

    #[inline(always)]
    fn deref(&self) -> &Self::Target {
        self.state
    }
}

impl<'de, A: MapAccess<'de>> core::ops::DerefMut for Rest<'de, '_, A> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut Self::Target {
        self.state
    }
}

impl<'de, 's, A: MapAccess<'de>> RestState<'de, 's, A> {
    /// The payload's deserializer over this state.
    #[inline(always)]
    pub(crate) fn rest(&'s mut self) -> Rest<'de, 's, A> {
        Rest { state: self }
    }
}

/// What `Rest` reads: the prefix, the live map and what to tell the payload.
pub struct RestState<'de, 's, A: MapAccess<'de>> {
    pub(crate) prefix: PrefixReader<'s, 'de>,
    pub(crate) live: A,
    /// A second tag key in the live rest is an error. This and `hint` are
    /// thin pointers: a payload's reader copies them up front for its error
    /// path, and a `&str` was copied in one 16-byte load from the two 8-byte
    /// stores that had just written it, which the processor cannot forward.
    pub(crate) tag: Option<&'s &'static str>,
    /// Told to an `Unknown` payload: which key is the tag.
    pub(crate) hint: Option<&'s &'static str>,
    /// Keeps the first error of the live map when the payload is read
    /// through the type-erased path, which would flatten it to a message.
    pub(crate) catch: Option<&'s Cell<Option<A::Error>>>,
    /// What the payload is told (see `is_human_readable` below).
    pub(crate) human_readable: bool,
}

/// The buffered prefix with its read position. It borrows the buffer,
/// which stays with the engine: moving a buffer (it has a `Drop`) into
/// the payload's reader made every move of that reader a `memcpy`.
///
/// The cursor is kept as the `Reader` each replayed value is read with,
/// handed out in place: a reader made afresh of the buffer and the position
/// for each value was copied in one 16-byte load from the 8-byte store that
/// had just moved the position, a load the processor cannot forward.
pub(crate) struct PrefixReader<'b, 'de> {
    reader: Reader<'b, 'de>,
    end: usize,
    /// A second stretch read after the first: `[0, then)`.
    then: Option<Mark>,
}

/// Which stretch of the buffer a [`PrefixReader`] replays. The engine hands
/// this, not the reader, to the function that builds the payload, which
/// makes the reader where it is kept: a reader made by the caller would
/// reach that function through memory, written a word at a time and read
/// back 16 bytes at a time, two loads per read the processor cannot forward
/// their data to (PERFORMANCE.md, "Time and instructions").
#[derive(Clone, Copy)]
pub(crate) enum Stretch {
    /// The whole prefix, then the live map.
    All,
    /// The whole prefix once the live map has ended: after the prefix
    /// comes the end of the object, not another call to the map, which a
    /// format need not answer with `None` again (ciborium reads an
    /// indefinite-length map's next item past its end). `is_done` never
    /// holds, and the prefix's end is found where the buffer ends (see
    /// `next_key_seed`).
    Ended,
    /// From the mark to the end first, then from the beginning to the
    /// mark: a nested child sees the tag entry recorded there first.
    From(Mark),
}

impl<'de> Buffer<'de> {
    /// A reader of `stretch` of this buffer.
    #[inline]
    pub(crate) fn prefix_reader(&self, stretch: Stretch) -> PrefixReader<'_, 'de> {
        match stretch {
            Stretch::All => PrefixReader {
                reader: self.reader_at(Mark::START),
                end: self.len(),
                then: None,
            },
            Stretch::Ended => PrefixReader {
                reader: self.reader_at(Mark::START),
                end: usize::MAX,
                then: None,
            },
            Stretch::From(start) => PrefixReader {
                reader: self.reader_at(start),
                end: self.len(),
                then: Some(start),
            },
        }
    }
}

impl<'b, 'de> PrefixReader<'b, 'de> {
    /// The buffer read.
    #[inline]
    pub(crate) fn buf(&self) -> &'b Buffer<'de> {
        self.reader.buffer()
    }

    // Called for every replayed key and value: kept out of line it costs
    // a call frame per entry.
    #[inline(always)]
    fn with<R>(&mut self, f: impl FnOnce(&mut Reader<'b, 'de>) -> R) -> R {
        let out = f(&mut self.reader);
        if self.reader.position().offset() >= self.end {
            if let Some(then) = self.then.take() {
                self.reader.seek(Mark::START);
                self.end = then.offset();
            }
        }
        out
    }

    #[inline]
    fn is_done(&self) -> bool {
        self.reader.position().offset() >= self.end
    }
}

impl<'de, 's, A: MapAccess<'de>> Rest<'de, 's, A> {
    /// Passes errors through unchanged: for a payload read without the
    /// erased layers (`compiled`), which keep them as they are.
    pub(crate) fn uncaught(mut self) -> Self {
        self.catch = None;
        self
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
            // Only `Stretch::Ended` gets here at the buffer's end.
            if self.prefix.reader.position().offset() >= self.prefix.buf().len() {
                return Ok(None);
            }
            let human_readable = self.human_readable;
            let out = self
                .prefix
                .with(|r| seed.deserialize(r.next_key::<A::Error>(human_readable)));
            return caught(self.catch, out.map(Some));
        }
        let out = match self.tag {
            Some(&tag) => self.live.next_key_seed(NotTag { seed, tag }),
            None => self.live.next_key_seed(seed),
        };
        caught(self.catch, out)
    }

    #[inline(always)]
    fn next_value_seed<V>(&mut self, seed: V) -> Result<V::Value, A::Error>
    where
        V: DeserializeSeed<'de>,
    {
        // A key from the prefix leaves the reader before its value; after
        // the prefix every key is live.
        let out = if !self.prefix.is_done() {
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
pub(super) fn caught<T, E: de::Error>(
    catch: Option<&Cell<Option<E>>>,
    out: Result<T, E>,
) -> Result<T, E> {
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
fn tell_hint(hint: Option<&&str>) -> Option<crate::unknown::Told> {
    match hint {
        Some(&key) if take_wants_hint() => Some(tell_tag_key(key)),
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

    /// As `deserialize_any`; a struct that lists a field named like the
    /// tag and misses it gets a message naming `visible`.
    #[inline]
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        let (catch, hint) = (self.catch, self.hint);
        // A thin pointer, followed only on the error path.
        let tag = if hint.is_none() { self.tag } else { None };
        let _told = tell_hint(hint);
        // A `match`, not `map_err` with a closure: this is compiled once per
        // payload type, and each closure would be one more function there.
        let out = match visitor.visit_map(self) {
            Ok(value) => Ok(value),
            Err(e) => Err(tag_not_received(e, tag, name, fields)),
        };
        caught(catch, out)
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
        bytes byte_buf seq tuple tuple_struct map identifier
    }
}

/// A payload that has its own field named like the tag (as typetag users
/// write) and read it from the object, where the tag entry went to the
/// engine instead: serde's "missing field" is true of the payload but not
/// of the input, so the message says why and names `visible`. A fallback
/// is given no `tag`: it sees the tag entry, so there the field really was
/// missing.
#[cold]
#[inline(never)]
fn tag_not_received<E: de::Error>(e: E, tag: Option<&&str>, name: &str, fields: &[&str]) -> E {
    let Some(&key) = tag.filter(|key| fields.contains(key)) else {
        return e;
    };
    if e.to_string() != format!("missing field `{key}`") {
        return e;
    }
    E::custom(format_args!(
        "missing field `{key}` in {name}: its own field named like the tag does not receive the tag; add `visible` to the `#[json_subtypes(tag = {key:?})]` that declares the tag, or call `.visible(true)` on the profile's builder"
    ))
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
