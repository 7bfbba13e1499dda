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
    self, DeserializeSeed, Deserializer, Error as _, MapAccess, SeqAccess, Unexpected, Visitor,
};

use crate::buffer::{Buffer, Limit, Recorder, NUMBER_TOKEN};
use crate::rest::{missing_field, HeadFirst, Payload, PrefixReader, Rest, RestSeq};
use crate::state::set_hoist;
use crate::tag::{FastTagVisitor, HeadValue, LiteralTable, Static, TagSink, TokenVisitor};

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
    const MAX_DEPTH: u32 = crate::state::DEFAULT_MAX_DEPTH;

    /// `max_buffer = N`: how many bytes may be buffered before the tag.
    const MAX_BUFFER: Option<usize> = None;

    /// `require_tag_first`: a key before the tag is an error.
    const REQUIRE_TAG_FIRST: bool = false;

    /// `exact_numbers`: entries before the tag keep numbers beyond 64 bits.
    const EXACT_NUMBERS: bool = false;

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

    /// `read_tag` with nothing to record: generated code for literal tags
    /// reads it with the reader every table shares.
    #[inline]
    fn read_known_tag<D>(tag: D) -> Result<Option<u32>, D::Error>
    where
        D: Deserializer<'de>,
    {
        Self::read_tag(tag, None)
    }

    /// Presence mode: the set of variants (bit `i` for variant `i`) that
    /// list `field` in `when_field`.
    #[inline]
    fn presence(field: &str) -> u128 {
        let _ = field;
        0
    }

    /// Builds variant `index` from the rest of its object.
    fn build<P>(index: u32, payload: P) -> Result<Self, <P as Deserializer<'de>>::Error>
    where
        P: Payload<'de>;

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
    T::build(index, HeadFirst::new(head, key, payload))
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
    /// hand the tag entry first (see `state::HOIST`).
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

    /// `read_tag` with nothing to record.
    #[inline]
    fn read_known_tag<D>(&self, tag: D) -> Result<Option<u32>, D::Error>
    where
        D: Deserializer<'de>,
    {
        self.read_tag(tag, None)
    }

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
        crate::state::DEFAULT_MAX_DEPTH
    }

    /// `max_buffer`: how many bytes of an object may be buffered before its
    /// tag (in presence mode, of the whole object). A set with a limit
    /// returns `None` from `hoist_key`, so a replayed object shows its keys
    /// in their order and the limit sees what the input held.
    fn limit(&self) -> Option<Limit> {
        None
    }

    /// `require_tag_first`: a key before the tag is an error (a set that
    /// says so does not hoist either).
    fn require_tag_first(&self) -> bool {
        false
    }

    /// Whether the tag entry may be kept for a subtype (a fallback, a
    /// `nested` child or a `visible` payload reads it). A constant, as
    /// `MAY_BE_EXACT`: an enum with none of them does not compile that path.
    const MAY_KEEP_TAG: bool = true;

    /// Whether `key` can be `None` (presence mode). A constant, as above.
    const MAY_BE_PRESENCE: bool = true;

    /// Whether `limit` can be `Some`. A constant, as above.
    const MAY_LIMIT: bool = true;

    /// Whether `require_tag_first` can be true. A constant, as above.
    const MAY_REQUIRE_TAG_FIRST: bool = true;

    /// Whether `exact_numbers` can be true: a constant, so that for an enum
    /// without it the walk does not compile the text reader (rustc drops a
    /// branch on a constant before it instantiates what the branch calls;
    /// it does not for a method's result).
    const MAY_BE_EXACT: bool = false;

    /// `exact_numbers`: entries before the tag are recorded from
    /// serde_json's text where it is the format (see `exact.rs`).
    fn exact_numbers(&self) -> bool {
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
    fn read_known_tag<D>(&self, tag: D) -> Result<Option<u32>, D::Error>
    where
        D: Deserializer<'de>,
    {
        T::read_known_tag(tag)
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
    fn limit(&self) -> Option<Limit> {
        let max = T::MAX_BUFFER?;
        Some(Limit {
            max,
            name: T::NAME,
            tag: T::KEY,
        })
    }

    #[inline]
    fn require_tag_first(&self) -> bool {
        T::REQUIRE_TAG_FIRST
    }

    const MAY_BE_EXACT: bool = T::EXACT_NUMBERS;
    const MAY_KEEP_TAG: bool = T::FALLBACK.is_some() || T::NESTED || T::VISIBLE;
    const MAY_BE_PRESENCE: bool = T::KEY.is_none();
    const MAY_LIMIT: bool = T::MAX_BUFFER.is_some();
    const MAY_REQUIRE_TAG_FIRST: bool = T::REQUIRE_TAG_FIRST;

    #[inline]
    fn exact_numbers(&self) -> bool {
        T::EXACT_NUMBERS
    }

    #[inline]
    fn build<P: Payload<'de>>(
        &self,
        index: u32,
        payload: P,
    ) -> Result<T, <P as Deserializer<'de>>::Error> {
        T::build(index, payload)
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
            T::build(index, payload)
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
    let Some(_nested) = crate::state::enter(subtypes.max_depth()) else {
        return Err(de::Error::custom("recursion limit exceeded"));
    };
    // The type-erased path hands one answer to every value of the payload
    // (see `erased::deserializer::Crossing`), so it needs the format's now.
    // Otherwise the format is asked only when something is buffered (see
    // `Buffer`).
    let human_readable = subtypes.erased().then(|| deserializer.is_human_readable());
    // An `Unknown` fallback must see entries in their order, so no hoisting.
    let _hoisting = crate::state::hoist(
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
        let slot = Cell::new(None);
        let rest = self.rest(prefix, live, hint, &slot);
        let out = self.subtypes.build(index, rest);
        // The first error the live map produced, with its position.
        out.map_err(|e| slot.take().unwrap_or(e))
    }

    /// `build` for a nested child whose tag was read here (`head`): the
    /// child resolves it and builds from the same rest. Separate from
    /// `build`, so that only sets that keep the tag compile it.
    fn build_with_head<A: MapAccess<'de>>(
        &self,
        index: u32,
        head: HeadValue<'de>,
        prefix: PrefixReader<'_, 'de>,
        live: A,
    ) -> Result<S::Value, A::Error> {
        let slot = Cell::new(None);
        let rest = self.rest(prefix, live, None, &slot);
        let out = self.subtypes.build_head(index, head, rest);
        out.map_err(|e| slot.take().unwrap_or(e))
    }

    /// The rest of the object after the tag, for `build`.
    #[inline]
    fn rest<'s, A: MapAccess<'de>>(
        &'s self,
        prefix: PrefixReader<'s, 'de>,
        live: A,
        hint: Option<&'s str>,
        slot: &'s Cell<Option<A::Error>>,
    ) -> Rest<'de, 's, A> {
        let human_readable = match self.human_readable {
            Some(answer) => answer,
            None => prefix.buf.human_readable(),
        };
        Rest {
            prefix,
            live,
            tag: self.subtypes.key(),
            hint,
            catch: self.subtypes.erased().then_some(slot),
            human_readable,
            from_prefix: false,
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

/// What a value of the wrong type lacks: one function for every set.
fn expecting(
    f: &mut fmt::Formatter<'_>,
    own: Option<&str>,
    key: Option<&str>,
    name: &str,
) -> fmt::Result {
    if let Some(own) = own {
        return f.write_str(own);
    }
    match key {
        Some(key) => write!(f, "a map with a `{key}` tag for {name}"),
        None => write!(f, "a map for {name}"),
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

impl<'de, S: Subtypes<'de>> Visitor<'de> for DispatchVisitor<'de, S> {
    type Value = S::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = &self.subtypes;
        expecting(f, s.expecting(), s.key(), s.name())
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
        let depth = crate::state::remaining();
        loop {
            let seed = KeySeed {
                subtypes: s,
                prefix: &mut prefix,
                seen: &mut seen,
                marker: PhantomData,
            };
            match map.next_key_seed(seed)? {
                Some(true) => {
                    // The fast path, nothing recorded, is the only one an
                    // enum without those variants compiles.
                    if !S::MAY_KEEP_TAG
                        || (s.fallback().is_none() && !s.any_nested() && !s.any_visible())
                    {
                        let index = map.next_value_seed(KnownTagSeed { subtypes: s })?;
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
                            Some(value) => {
                                self.build_with_head(index, value, prefix.prefix_reader(), map)
                            }
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
                Some(false) if S::MAY_BE_EXACT && s.exact_numbers() => {
                    crate::exact::record_value(&mut prefix, &mut map, depth, s.limit())?
                }
                Some(false) => match if S::MAY_LIMIT { s.limit() } else { None } {
                    Some(limit) => prefix.record_value_within(&mut map, depth, limit)?,
                    None => prefix.record_value(&mut map, depth)?,
                },
                None => break,
            }
        }
        // serde_json's `arbitrary_precision` hands a bare number over as a
        // one-entry map: refused as the number it is, as without the
        // feature, not taken for an object without its tag.
        if let Some(number) = prefix.lone_number().and_then(bare_number) {
            return Err(A::Error::invalid_type(number, &self));
        }
        if S::MAY_BE_PRESENCE && s.key().is_none() {
            let index = self.decide(seen)?;
            return self.build(index, prefix.prefix_reader_ended(), map, None);
        }
        let key = s.key().unwrap_or_default();
        match s.fallback() {
            Some(fallback) if S::MAY_KEEP_TAG => {
                self.build(fallback, prefix.prefix_reader_ended(), map, Some(key))
            }
            _ => Err(missing_field(key)),
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
        match seq.next_element_seed(KnownTagSeed { subtypes: s })? {
            Some(index) => s.build(index.unwrap_or_default(), RestSeq(seq)),
            None => Err(A::Error::invalid_length(0, &self)),
        }
    }
}

/// A number by its digits as serde_json reads it without
/// `arbitrary_precision`: an integer that fits 64 bits, else a float
/// (`-0` too). `None` for digits that are no number (an object that only
/// looks like the feature's map).
#[cold]
#[inline(never)]
fn bare_number(digits: &str) -> Option<Unexpected<'_>> {
    if let Ok(v) = digits.parse::<u64>() {
        return Some(Unexpected::Unsigned(v));
    }
    match digits.parse::<i64>() {
        Ok(v) if v != 0 => Some(Unexpected::Signed(v)),
        _ => digits.parse::<f64>().ok().map(Unexpected::Float),
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
            let s = self.subtypes;
            let first = self.prefix.len() == 0;
            return not_first(first, s.key().unwrap_or_default(), s.name(), key);
        }
        Ok(())
    }
}

/// `require_tag_first` met another key than the tag.
#[cold]
#[inline(never)]
fn not_first<E: de::Error, K: fmt::Display>(
    first: bool,
    tag: &str,
    name: &str,
    key: K,
) -> Result<(), E> {
    // serde_json's `arbitrary_precision` number: read whole, and refused as
    // a number (see `bare_number`).
    if first && key.to_string() == NUMBER_TOKEN {
        return Ok(());
    }
    Err(E::custom(format_args!(
        "the tag `{tag}` of {name} must be the first key (require_tag_first), found `{key}`"
    )))
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
        // As any value, not as an identifier: a binary format may answer
        // that only with text or bytes (ciborium does) where its key is an
        // integer. A key that is no string cannot be the tag; it is
        // recorded as the format gives it, as the fallback's `Unknown`
        // reads it after the tag, and a field name asked of it is its text
        // where the format is human-readable (see `ReplayKey`). serde_json
        // reads a key the same way for either request.
        deserializer.deserialize_any(self)
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
        if S::MAY_REQUIRE_TAG_FIRST {
            self.not_tag(v)?;
        }
        self.prefix.push_str(v);
        Ok(false)
    }

    fn visit_borrowed_str<E: de::Error>(mut self, v: &'de str) -> Result<bool, E> {
        if self.is_tag(v) {
            return Ok(true);
        }
        if S::MAY_REQUIRE_TAG_FIRST {
            self.not_tag(v)?;
        }
        self.prefix.push_borrowed_str(v);
        Ok(false)
    }

    fn visit_bytes<E: de::Error>(mut self, v: &[u8]) -> Result<bool, E> {
        if core::str::from_utf8(v).is_ok_and(|v| self.is_tag(v)) {
            return Ok(true);
        }
        if S::MAY_REQUIRE_TAG_FIRST {
            self.not_tag(Lossy(v))?;
        }
        self.prefix.push_bytes(v);
        Ok(false)
    }

    fn visit_borrowed_bytes<E: de::Error>(mut self, v: &'de [u8]) -> Result<bool, E> {
        if core::str::from_utf8(v).is_ok_and(|v| self.is_tag(v)) {
            return Ok(true);
        }
        if S::MAY_REQUIRE_TAG_FIRST {
            self.not_tag(Lossy(v))?;
        }
        self.prefix.push_borrowed_bytes(v);
        Ok(false)
    }

    // Keys of other kinds (CBOR integers, YAML booleans) are never the tag.
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<bool, E> {
        if S::MAY_REQUIRE_TAG_FIRST {
            self.not_tag(v)?;
        }
        self.prefix.first_use();
        self.prefix.push_u64(v);
        Ok(false)
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<bool, E> {
        if S::MAY_REQUIRE_TAG_FIRST {
            self.not_tag(v)?;
        }
        self.prefix.first_use();
        self.prefix.push_i64(v);
        Ok(false)
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<bool, E> {
        if S::MAY_REQUIRE_TAG_FIRST {
            self.not_tag(v)?;
        }
        self.prefix.first_use();
        self.prefix.push_bool(v);
        Ok(false)
    }

    fn visit_i128<E: de::Error>(self, v: i128) -> Result<bool, E> {
        self.record_other(v, |r| r.visit_i128(v))
    }

    fn visit_u128<E: de::Error>(self, v: u128) -> Result<bool, E> {
        self.record_other(v, |r| r.visit_u128(v))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<bool, E> {
        self.record_other(v, |r| r.visit_f64(v))
    }

    fn visit_unit<E: de::Error>(self) -> Result<bool, E> {
        self.record_other(Unexpected::Unit, |r| r.visit_unit())
    }

    fn visit_none<E: de::Error>(self) -> Result<bool, E> {
        self.record_other(Unexpected::Option, |r| r.visit_none())
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<bool, D::Error> {
        self.record_other(Unexpected::Option, |r| r.visit_some(d))
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<bool, D::Error> {
        self.record_other(Unexpected::NewtypeStruct, |r| r.visit_newtype_struct(d))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<bool, A::Error> {
        self.record_other(Unexpected::Seq, |r| r.visit_seq(seq))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<bool, A::Error> {
        self.record_other(Unexpected::Map, |r| r.visit_map(map))
    }

    fn visit_enum<A: de::EnumAccess<'de>>(self, data: A) -> Result<bool, A::Error> {
        self.record_other(Unexpected::Enum, |r| r.visit_enum(data))
    }
}

impl<'de, S: Subtypes<'de>> KeySeed<'_, 'de, S> {
    /// A key of a kind no tag is (a float, a sequence, a map...): recorded
    /// whole, as a value before the tag is, within `max_buffer`.
    #[cold]
    #[inline(never)]
    fn record_other<E: de::Error>(
        self,
        key: impl fmt::Display,
        record: impl FnOnce(Recorder<'_, 'de>) -> Result<(), E>,
    ) -> Result<bool, E> {
        if S::MAY_REQUIRE_TAG_FIRST {
            self.not_tag(key)?;
        }
        let limit = if S::MAY_LIMIT {
            self.subtypes.limit()
        } else {
            None
        };
        let depth = crate::state::remaining();
        self.prefix.first_use();
        self.prefix
            .within(limit, |buf| record(buf.recorder(depth)))?;
        Ok(false)
    }
}

/// Reads a tag value with nothing to record.
struct KnownTagSeed<'a, S> {
    subtypes: &'a S,
}

impl<'de, S: Subtypes<'de>> DeserializeSeed<'de> for KnownTagSeed<'_, S> {
    type Value = Option<u32>;

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Option<u32>, D::Error> {
        self.subtypes.read_known_tag(deserializer)
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

/// `Dispatch::read_known_tag` for literal tags: the value is read by the
/// one reader every table shares, with this table's lookup.
#[inline]
pub fn read_known_literal_tag<'de, T, D>(deserializer: D) -> Result<Option<u32>, D::Error>
where
    T: LiteralTable + 'static,
    D: Deserializer<'de>,
{
    deserializer.deserialize_any(TokenVisitor {
        table: &Static::<T>(PhantomData),
        lookup: T::lookup,
    })
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
