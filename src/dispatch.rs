//! The dispatch engine: one walk over an object's keys picks the subtype.
//!
//! Keys before the tag are recorded in a [`Buffer`]; the tag's value is
//! looked up in place; the chosen subtype then reads a map that replays the
//! buffered prefix and streams the rest of the live map. With the tag first
//! nothing is buffered at all. After the tag, a second tag key is an error
//! wherever it comes, including inside the streamed rest.

use core::cell::Cell;
use core::fmt;
use core::marker::PhantomData;

use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, Error as _, IgnoredAny, MapAccess, SeqAccess,
    Unexpected, VariantAccess, Visitor,
};

use crate::buffer::{set_hoist, Buffer, Limit, Reader};
use crate::tag::{FastTagVisitor, HeadValue, LiteralTable, Static, TagSink};
use crate::unknown::{take_wants_hint, tell_tag_key};

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

    /// `max_depth = N`: how deeply values may nest.
    const MAX_DEPTH: u32 = crate::buffer::DEFAULT_MAX_DEPTH;

    /// `max_buffer = N`: how many bytes may be buffered before the tag.
    const MAX_BUFFER: Option<usize> = None;

    /// `require_tag_first`: a key before the tag is an error.
    const REQUIRE_TAG_FIRST: bool = false;

    /// `#[serde(expecting = "...")]`: what a value of the wrong type is
    /// told was expected, instead of our own wording.
    const EXPECTING: Option<&'static str> = None;

    /// `visible`: whether some variant's payload reads the tag entry too.
    const VISIBLE: bool = false;

    /// `visible`: whether variant `index`'s payload reads the tag entry.
    #[inline]
    fn is_visible(index: u32) -> bool {
        let _ = index;
        false
    }

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

    /// Builds the `nested` variant `index`, whose child's tag `head` this
    /// level has already read, from the rest of the object. Generated code
    /// hands plain `nested` variants straight to the child's `build_tagged`.
    #[inline]
    fn build_head<P>(
        index: u32,
        head: HeadValue<'de>,
        payload: P,
    ) -> Result<Self, <P as Deserializer<'de>>::Error>
    where
        P: Payload<'de>,
    {
        build_head_first::<Self, P>(index, head, payload)
    }

    /// Builds the variant that `head`, a tag read by an enclosing level,
    /// selects, from the rest of the object. Generated code for literal tags
    /// resolves it without a second walk over the object.
    #[inline]
    fn build_tagged<P>(
        head: HeadValue<'de>,
        payload: P,
    ) -> Result<Self, <P as Deserializer<'de>>::Error>
    where
        P: Payload<'de>,
    {
        let key = Self::KEY.unwrap_or_default();
        deserialize::<Self, _>(HeadFirst::new(head, key, payload))
    }
}

/// `Dispatch::build_head` through the serde-derived reader, for a `nested`
/// variant with serde attributes of its own: the child is handed its tag
/// entry first and reads the object again.
pub fn build_head_first<'de, T, P>(
    index: u32,
    head: HeadValue<'de>,
    payload: P,
) -> Result<T, <P as Deserializer<'de>>::Error>
where
    T: Dispatch<'de>,
    P: Payload<'de>,
{
    let key = T::KEY.unwrap_or_default();
    T::build(VariantDeserializer::new(
        index,
        HeadFirst::new(head, key, payload),
    ))
}

/// The engine's view of one set of subtypes: an enum (constant tables from
/// generated code), a trait's registry or a profile (tables built at run
/// time). Indexes are the subtypes' positions in the set.
pub trait Subtypes<'de> {
    /// What reading produces.
    type Value;

    /// The tag key; `None` in presence mode.
    fn key(&self) -> Option<&str>;

    /// The tag key when it lives forever, so a replay of our own buffer may
    /// hand the tag entry first (see `buffer::HOIST`).
    fn hoist_key(&self) -> Option<&'static str> {
        None
    }

    /// The set's name (`Animal`, `dyn Shape`), for messages.
    fn name(&self) -> &str;

    /// The set's own words for what a value of the wrong type lacks.
    fn expecting(&self) -> Option<&str> {
        None
    }

    /// The fallback's index.
    fn fallback(&self) -> Option<u32>;

    /// Presence mode: on several matches, the first declared wins.
    fn first_match(&self) -> bool {
        false
    }

    /// Whether any subtype is `nested` (reads the tag again).
    fn any_nested(&self) -> bool {
        false
    }

    /// Whether subtype `index` is `nested`.
    fn is_nested(&self, index: u32) -> bool {
        let _ = index;
        false
    }

    /// `visible`: whether some subtype reads the tag entry too.
    fn any_visible(&self) -> bool {
        false
    }

    /// `visible`: whether subtype `index` reads the tag entry too.
    fn is_visible(&self, index: u32) -> bool {
        let _ = index;
        false
    }

    /// Reads a tag value: `Ok(Some(index))`, `Ok(None)` for an unknown tag
    /// recorded in the sink (fallback), or the unknown-tag error.
    fn read_tag<D>(&self, tag: D, sink: Option<TagSink<'_, 'de>>) -> Result<Option<u32>, D::Error>
    where
        D: Deserializer<'de>;

    /// Presence mode: the subtypes (bit `i` for index `i`) that `field` picks.
    fn presence(&self, field: &str) -> u128 {
        let _ = field;
        0
    }

    /// Presence mode: the deciding fields, for messages.
    fn fields(&self) -> Vec<&str> {
        Vec::new()
    }

    /// The name of subtype `index`, for messages.
    fn subtype_name(&self, index: u32) -> &str;

    /// How deeply this level's values may nest, counting the levels around it.
    fn max_depth(&self) -> u32 {
        crate::buffer::DEFAULT_MAX_DEPTH
    }

    /// `max_buffer`: how many bytes of an object may be buffered before its
    /// tag (in presence mode, of the whole object). A set with a limit
    /// returns `None` from `hoist_key`, so a replayed object shows its keys
    /// in their order and the limit sees what the input held.
    fn max_buffer(&self) -> Option<usize> {
        None
    }

    /// `require_tag_first`: a key before the tag is an error (a set that
    /// says so does not hoist either).
    fn require_tag_first(&self) -> bool {
        false
    }

    /// Whether payloads are read through a type-erased deserializer, whose
    /// errors would lose their position; the engine then keeps the original.
    fn erased(&self) -> bool {
        false
    }

    /// Reads subtype `index` from the rest of the object.
    fn build<P>(
        &self,
        index: u32,
        payload: P,
    ) -> Result<Self::Value, <P as Deserializer<'de>>::Error>
    where
        P: Payload<'de>;

    /// Reads `nested` subtype `index`, whose child's tag `head` was read
    /// here, from the rest of the object.
    fn build_head<P>(
        &self,
        index: u32,
        head: HeadValue<'de>,
        payload: P,
    ) -> Result<Self::Value, <P as Deserializer<'de>>::Error>
    where
        P: Payload<'de>,
    {
        let key = self.key().unwrap_or_default();
        self.build(index, HeadFirst::new(head, key, payload))
    }
}

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

/// An annotated enum as a set of subtypes.
pub struct EnumSubtypes<T>(PhantomData<T>);

impl<'de, T: Dispatch<'de>> Subtypes<'de> for EnumSubtypes<T> {
    type Value = T;

    #[inline]
    fn key(&self) -> Option<&str> {
        T::KEY
    }

    #[inline]
    fn hoist_key(&self) -> Option<&'static str> {
        if T::REQUIRE_TAG_FIRST || T::MAX_BUFFER.is_some() {
            return None;
        }
        T::KEY
    }

    fn name(&self) -> &str {
        T::NAME
    }

    fn expecting(&self) -> Option<&str> {
        T::EXPECTING
    }

    #[inline]
    fn fallback(&self) -> Option<u32> {
        T::FALLBACK
    }

    fn first_match(&self) -> bool {
        T::FIRST_MATCH
    }

    #[inline]
    fn any_nested(&self) -> bool {
        T::NESTED
    }

    #[inline]
    fn is_nested(&self, index: u32) -> bool {
        T::is_nested(index)
    }

    #[inline]
    fn any_visible(&self) -> bool {
        T::VISIBLE
    }

    #[inline]
    fn is_visible(&self, index: u32) -> bool {
        T::is_visible(index)
    }

    #[inline]
    fn read_tag<D>(&self, tag: D, sink: Option<TagSink<'_, 'de>>) -> Result<Option<u32>, D::Error>
    where
        D: Deserializer<'de>,
    {
        T::read_tag(tag, sink)
    }

    #[inline]
    fn presence(&self, field: &str) -> u128 {
        T::presence(field)
    }

    fn fields(&self) -> Vec<&str> {
        T::FIELDS.to_vec()
    }

    fn subtype_name(&self, index: u32) -> &str {
        T::VARIANTS.get(index as usize).copied().unwrap_or("?")
    }

    #[inline]
    fn max_depth(&self) -> u32 {
        T::MAX_DEPTH
    }

    #[inline]
    fn max_buffer(&self) -> Option<usize> {
        T::MAX_BUFFER
    }

    #[inline]
    fn require_tag_first(&self) -> bool {
        T::REQUIRE_TAG_FIRST
    }

    #[inline]
    fn build<P: Payload<'de>>(
        &self,
        index: u32,
        payload: P,
    ) -> Result<T, <P as Deserializer<'de>>::Error> {
        T::build(VariantDeserializer::new(index, payload))
    }

    #[inline]
    fn build_head<P: Payload<'de>>(
        &self,
        index: u32,
        head: HeadValue<'de>,
        payload: P,
    ) -> Result<T, <P as Deserializer<'de>>::Error> {
        // A constant condition: for an enum without `nested` variants (the
        // engine never hands it a child's tag) the child's path, which
        // compiles every payload once more, is not instantiated at all.
        if T::NESTED {
            T::build_head(index, head, payload)
        } else {
            T::build(VariantDeserializer::new(index, payload))
        }
    }
}

/// Entry point of a generated `Deserialize` impl.
#[inline]
pub fn deserialize<'de, T, D>(deserializer: D) -> Result<T, D::Error>
where
    T: Dispatch<'de>,
    D: Deserializer<'de>,
{
    deserialize_with(EnumSubtypes::<T>(PhantomData), deserializer)
}

/// Reads one value of `subtypes` from `deserializer`.
pub fn deserialize_with<'de, S, D>(subtypes: S, deserializer: D) -> Result<S::Value, D::Error>
where
    S: Subtypes<'de>,
    D: Deserializer<'de>,
{
    let Some(_nested) = crate::buffer::enter(subtypes.max_depth()) else {
        return Err(de::Error::custom("recursion limit exceeded"));
    };
    // The type-erased path hands one answer to every value of the payload
    // (see `erased::Probe`), so it needs the format's now. Otherwise the
    // format is asked only when something is buffered (see `Buffer`).
    let human_readable = subtypes.erased().then(|| deserializer.is_human_readable());
    // An `Unknown` fallback must see entries in their order, so no hoisting.
    let _hoisting = crate::buffer::hoist(
        subtypes
            .hoist_key()
            .filter(|_| subtypes.fallback().is_none()),
    );
    deserializer.deserialize_any(DispatchVisitor {
        subtypes,
        human_readable,
        marker: PhantomData,
    })
}

struct DispatchVisitor<'de, S> {
    subtypes: S,
    /// The format's answer, when it was asked up front.
    human_readable: Option<bool>,
    marker: PhantomData<&'de ()>,
}

impl<'de, S: Subtypes<'de>> DispatchVisitor<'de, S> {
    /// Reads subtype `index` from the prefix (replayed from `start`, then
    /// from its beginning up to `start`) and the live rest.
    fn build<A: MapAccess<'de>>(
        &self,
        index: u32,
        prefix: PrefixReader<'_, 'de>,
        live: A,
        hint: Option<&str>,
    ) -> Result<S::Value, A::Error> {
        self.build_with_head(index, None, prefix, live, hint)
    }

    /// `build`; for a nested child whose tag was read here (`head`), the
    /// child resolves it and builds from the same rest.
    fn build_with_head<A: MapAccess<'de>>(
        &self,
        index: u32,
        head: Option<HeadValue<'de>>,
        prefix: PrefixReader<'_, 'de>,
        live: A,
        hint: Option<&str>,
    ) -> Result<S::Value, A::Error> {
        let slot = Cell::new(None);
        let human_readable = match self.human_readable {
            Some(answer) => answer,
            None => prefix.buf.human_readable(),
        };
        let rest = Rest {
            prefix,
            live,
            tag: self.subtypes.key(),
            hint,
            catch: self.subtypes.erased().then_some(&slot),
            human_readable,
            from_prefix: false,
        };
        let out = match head {
            Some(head) => self.subtypes.build_head(index, head, rest),
            None => self.subtypes.build(index, rest),
        };
        match out {
            Ok(value) => Ok(value),
            // The first error the live map produced, with its position.
            Err(e) => Err(slot.take().unwrap_or(e)),
        }
    }

    /// Presence mode: the one subtype whose fields are all there is to see.
    fn decide<E: de::Error>(&self, seen: u128) -> Result<u32, E> {
        let s = &self.subtypes;
        match seen.count_ones() {
            1 => Ok(seen.trailing_zeros()),
            0 => s.fallback().ok_or_else(|| {
                E::custom(format_args!(
                    "no subtype of {} matches: expected one of the fields {}",
                    s.name(),
                    Fields(&s.fields())
                ))
            }),
            _ if s.first_match() => Ok(seen.trailing_zeros()),
            _ => {
                let names: Vec<&str> = (0..128u32)
                    .filter(|i| seen & (1u128 << i) != 0)
                    .map(|i| s.subtype_name(i))
                    .collect();
                let (last, rest) = names.split_last().unwrap_or((&"", &[]));
                Err(E::custom(format_args!(
                    "ambiguous subtype of {}: the fields match both {} and {last}",
                    s.name(),
                    rest.join(", ")
                )))
            }
        }
    }
}

struct Fields<'a>(&'a [&'a str]);

impl fmt::Display for Fields<'_> {
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

/// serde's message for a missing field, for keys that are not `'static`.
pub(crate) fn missing_field<E: de::Error>(key: &str) -> E {
    E::custom(format_args!("missing field `{key}`"))
}

/// serde's message for a duplicate field, for keys that are not `'static`.
pub(crate) fn duplicate_field<E: de::Error>(key: &str) -> E {
    E::custom(format_args!("duplicate field `{key}`"))
}

impl<'de, S: Subtypes<'de>> Visitor<'de> for DispatchVisitor<'de, S> {
    type Value = S::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(expecting) = self.subtypes.expecting() {
            return f.write_str(expecting);
        }
        match self.subtypes.key() {
            Some(key) => write!(f, "a map with a `{key}` tag for {}", self.subtypes.name()),
            None => write!(f, "a map for {}", self.subtypes.name()),
        }
    }

    fn visit_map<A>(self, mut map: A) -> Result<S::Value, A::Error>
    where
        A: MapAccess<'de>,
    {
        set_hoist(None);
        let s = &self.subtypes;
        let mut prefix = Buffer::new();
        let mut seen = 0u128;
        // Read once: the budget is the same for every entry of this object.
        let depth = crate::buffer::remaining();
        loop {
            let seed = KeySeed {
                subtypes: s,
                prefix: &mut prefix,
                seen: &mut seen,
                marker: PhantomData,
            };
            match map.next_key_seed(seed)? {
                Some(true) => {
                    if s.fallback().is_none() && !s.any_nested() && !s.any_visible() {
                        // The fast path: nothing recorded.
                        let index = map.next_value_seed(TagSeed {
                            subtypes: s,
                            sink: None,
                        })?;
                        let index = index.unwrap_or_default();
                        return self.build(index, prefix.prefix_reader(), map, None);
                    }
                    // The tag entry is recorded in place for the fallback,
                    // for a nested child which reads it first, or for a
                    // `visible` payload which reads it where it was; dropped
                    // again for any other subtype.
                    let key = s.key().unwrap_or_default();
                    let mark = prefix.len();
                    let mut head = None;
                    let sink = TagSink {
                        buf: &mut prefix,
                        head: Some(&mut head),
                        key,
                        fallback: s.fallback().is_some(),
                        visible: s.any_visible(),
                    };
                    let seed = TagSeed {
                        subtypes: s,
                        sink: Some(sink),
                    };
                    return match map.next_value_seed(seed)? {
                        Some(index) if s.is_nested(index) => match head {
                            // Handed on as it was read: no buffer.
                            Some(value) => self.build_with_head(
                                index,
                                Some(value),
                                prefix.prefix_reader(),
                                map,
                                None,
                            ),
                            None => self.build(index, prefix.prefix_reader_from(mark), map, None),
                        },
                        Some(index) => {
                            if !s.is_visible(index) {
                                prefix.truncate(mark);
                            }
                            self.build(index, prefix.prefix_reader(), map, None)
                        }
                        None => {
                            let fallback = s.fallback().unwrap_or_default();
                            self.build(fallback, prefix.prefix_reader(), map, Some(key))
                        }
                    };
                }
                Some(false) => match s.max_buffer() {
                    None => prefix.record_value(&mut map, depth)?,
                    Some(max) => {
                        let (name, tag) = (s.name(), s.key());
                        let limit = Limit { max, name, tag };
                        prefix.record_value_within(&mut map, depth, &limit)?
                    }
                },
                None => break,
            }
        }
        match s.key() {
            Some(key) => match s.fallback() {
                Some(fallback) => self.build(fallback, prefix.prefix_reader(), map, Some(key)),
                None => Err(missing_field(key)),
            },
            None => {
                let index = self.decide(seen)?;
                self.build(index, prefix.prefix_reader(), map, None)
            }
        }
    }

    /// serde's internally tagged enums also read `["dog", field, ...]`:
    /// the tag, then the payload's fields in order.
    fn visit_seq<A>(self, mut seq: A) -> Result<S::Value, A::Error>
    where
        A: SeqAccess<'de>,
    {
        set_hoist(None);
        let s = &self.subtypes;
        if s.key().is_none() {
            return Err(A::Error::invalid_type(Unexpected::Seq, &self));
        }
        match seq.next_element_seed(TagSeed {
            subtypes: s,
            sink: None,
        })? {
            Some(index) => s.build(index.unwrap_or_default(), RestSeq(seq)),
            None => Err(A::Error::invalid_length(0, &self)),
        }
    }
}

/// Reads a map key: `true` when it is the tag key, else records it (and in
/// presence mode notes which subtypes it points to).
struct KeySeed<'b, 'de, S> {
    subtypes: &'b S,
    prefix: &'b mut Buffer<'de>,
    seen: &'b mut u128,
    marker: PhantomData<&'de ()>,
}

impl<'de, S: Subtypes<'de>> KeySeed<'_, 'de, S> {
    #[inline]
    fn is_tag(&mut self, key: &str) -> bool {
        match self.subtypes.key() {
            Some(tag) => key == tag,
            None => {
                *self.seen |= self.subtypes.presence(key);
                false
            }
        }
    }

    /// `require_tag_first`: `key`, which is not the tag, is refused before
    /// it is buffered.
    #[inline]
    fn not_tag<E: de::Error, K: fmt::Display>(&self, key: K) -> Result<(), E> {
        if self.subtypes.require_tag_first() {
            return Err(not_first(self.subtypes, key));
        }
        Ok(())
    }
}

#[cold]
#[inline(never)]
fn not_first<'de, S: Subtypes<'de>, E: de::Error, K: fmt::Display>(s: &S, key: K) -> E {
    E::custom(format_args!(
        "the tag `{}` of {} must be the first key (require_tag_first), found `{key}`",
        s.key().unwrap_or_default(),
        s.name()
    ))
}

/// A byte-string key as text, for messages.
struct Lossy<'a>(&'a [u8]);

impl fmt::Display for Lossy<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&String::from_utf8_lossy(self.0))
    }
}

impl<'de, S: Subtypes<'de>> DeserializeSeed<'de> for KeySeed<'_, 'de, S> {
    type Value = bool;

    fn deserialize<D>(self, deserializer: D) -> Result<bool, D::Error>
    where
        D: Deserializer<'de>,
    {
        deserializer.deserialize_identifier(self)
    }
}

impl<'de, S: Subtypes<'de>> Visitor<'de> for KeySeed<'_, 'de, S> {
    type Value = bool;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a field name")
    }

    fn visit_str<E: de::Error>(mut self, v: &str) -> Result<bool, E> {
        if self.is_tag(v) {
            return Ok(true);
        }
        self.not_tag(v)?;
        self.prefix.push_str(v);
        Ok(false)
    }

    fn visit_borrowed_str<E: de::Error>(mut self, v: &'de str) -> Result<bool, E> {
        if self.is_tag(v) {
            return Ok(true);
        }
        self.not_tag(v)?;
        self.prefix.push_borrowed_str(v);
        Ok(false)
    }

    fn visit_bytes<E: de::Error>(mut self, v: &[u8]) -> Result<bool, E> {
        if core::str::from_utf8(v).is_ok_and(|v| self.is_tag(v)) {
            return Ok(true);
        }
        self.not_tag(Lossy(v))?;
        self.prefix.push_bytes(v);
        Ok(false)
    }

    fn visit_borrowed_bytes<E: de::Error>(mut self, v: &'de [u8]) -> Result<bool, E> {
        if core::str::from_utf8(v).is_ok_and(|v| self.is_tag(v)) {
            return Ok(true);
        }
        self.not_tag(Lossy(v))?;
        self.prefix.push_borrowed_bytes(v);
        Ok(false)
    }

    // Keys of other kinds (CBOR integers, YAML booleans) are never the tag.
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<bool, E> {
        self.not_tag(v)?;
        self.prefix.first_use();
        self.prefix.push_u64(v);
        Ok(false)
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<bool, E> {
        self.not_tag(v)?;
        self.prefix.first_use();
        self.prefix.push_i64(v);
        Ok(false)
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<bool, E> {
        self.not_tag(v)?;
        self.prefix.first_use();
        self.prefix.push_bool(v);
        Ok(false)
    }
}

struct TagSeed<'a, 'de, S> {
    subtypes: &'a S,
    sink: Option<TagSink<'a, 'de>>,
}

impl<'de, S: Subtypes<'de>> DeserializeSeed<'de> for TagSeed<'_, 'de, S> {
    type Value = Option<u32>;

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Option<u32>, D::Error> {
        self.subtypes.read_tag(deserializer, self.sink)
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
    T: LiteralTable + 'static,
    D: Deserializer<'de>,
{
    deserializer.deserialize_any(FastTagVisitor {
        table: &Static::<T>(PhantomData),
        sink,
    })
}

/// The rest of an object once its tag is known: the buffered prefix replayed,
/// then the live map streamed.
pub struct Rest<'de, 's, A: MapAccess<'de>> {
    prefix: PrefixReader<'s, 'de>,
    live: A,
    /// A second tag key in the live rest is an error.
    tag: Option<&'s str>,
    /// Told to an `Unknown` payload: which key is the tag.
    hint: Option<&'s str>,
    /// Keeps the first error of the live map when the payload is read
    /// through the type-erased path, which would flatten it to a message.
    catch: Option<&'s Cell<Option<A::Error>>>,
    /// What the payload is told (see `is_human_readable` below).
    human_readable: bool,
    /// Whether the key just handed out came from the prefix.
    from_prefix: bool,
}

/// The buffered prefix with its read position. It borrows the buffer,
/// which stays with the engine: moving a buffer (it has a `Drop`) into
/// the payload's reader made every move of that reader a `memcpy`.
pub(crate) struct PrefixReader<'b, 'de> {
    buf: &'b Buffer<'de>,
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

/// Deserializes the rest of the object as the payload of a subtype: every
/// request is answered with the map, as serde's internally tagged enums do.
impl<'de, A: MapAccess<'de>> Deserializer<'de> for Rest<'de, '_, A> {
    type Error = A::Error;

    #[inline]
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, A::Error> {
        let catch = self.catch;
        // Told to an `Unknown` that asks, beside the map rather than as an
        // entry of it: an entry would compile every payload's reader once
        // more, for a wrapping map and a string deserializer.
        let _told = match self.hint {
            Some(key) if take_wants_hint() => Some(tell_tag_key(key)),
            _ => None,
        };
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
pub struct RestSeq<A>(A);

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

impl<V> NotTagVisitor<'_, V> {
    #[inline]
    fn check<E: de::Error>(&self, key: &[u8]) -> Result<(), E> {
        if key == self.tag.as_bytes() {
            Err(duplicate_field(self.tag))
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

impl<'de, V: Visitor<'de>> Visitor<'de> for NotTagVisitor<'_, V> {
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
            depth: crate::buffer::remaining(),
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
