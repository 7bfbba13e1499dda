//! `DispatchVisitor`: the walk over one object's keys that finds the tag,
//! records what comes before it and builds the chosen subtype (or reads a
//! sequence's tag first), with its messages for what it cannot take; and
//! what it reads each key and the tag's value with (`KeySeed`: the tag key
//! or a key recorded before it, refused there under `require_tag_first`;
//! `KnownTagSeed` and `TagSeed` for the tag's value).

use core::cell::Cell;
use core::fmt;
use core::marker::PhantomData;

use serde::de::{
    self, DeserializeSeed, Deserializer, Error as _, MapAccess, SeqAccess, Unexpected, Visitor,
};

use super::string_keys::StringKeys;
use super::{Enum, Settings, Subtypes};
use crate::buffer::{Buffer, Recorder, NUMBER_TOKEN};
use crate::rest::{missing_field, RestSeq, RestState, Stretch};
use crate::state::clear_hoist;
use crate::tag::{same_text, FastTagVisitor, HeadValue, LiteralTable, Requested, Static, TagSink};

pub(super) struct DispatchVisitor<'de, S> {
    pub(super) subtypes: S,
    /// The format's answer, when it was asked up front.
    pub(super) human_readable: Option<bool>,
    pub(super) marker: PhantomData<&'de ()>,
}

impl<'de, S: Subtypes<'de>> DispatchVisitor<'de, S> {
    /// Reads subtype `index` from `stretch` of the prefix and the live
    /// rest; with `hint` (the fallback) an `Unknown` payload is told which
    /// key is the tag.
    fn build<A: MapAccess<'de>>(
        &self,
        index: u32,
        prefix: &Buffer<'de>,
        stretch: Stretch,
        live: A,
        hint: bool,
    ) -> Result<S::Value, A::Error> {
        let slot = Cell::new(None);
        let mut state = self.rest(prefix, stretch, live, hint, &slot);
        let out = self.subtypes.build(index, state.rest());
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
        prefix: &Buffer<'de>,
        stretch: Stretch,
        live: A,
    ) -> Result<S::Value, A::Error> {
        let slot = Cell::new(None);
        let mut state = self.rest(prefix, stretch, live, false, &slot);
        let out = self.subtypes.build_head(index, head, state.rest());
        out.map_err(|e| slot.take().unwrap_or(e))
    }

    /// The rest of the object after the tag, for `build`.
    #[inline]
    fn rest<'s, A: MapAccess<'de>>(
        &'s self,
        prefix: &'s Buffer<'de>,
        stretch: Stretch,
        live: A,
        hint: bool,
        slot: &'s Cell<Option<A::Error>>,
    ) -> RestState<'de, 's, A> {
        let human_readable = match self.human_readable {
            Some(answer) => answer,
            None => prefix.human_readable(),
        };
        RestState {
            prefix: prefix.prefix_reader(stretch),
            live,
            tag: self.subtypes.settings().key.as_ref(),
            hint: self.subtypes.settings().key.as_ref().filter(|_| hint),
            catch: self.subtypes.settings().erased.then_some(slot),
            human_readable,
        }
    }

    /// `as_map`: a value before the tag could not be kept. In a format
    /// that does not describe itself that is the format refusing
    /// `deserialize_any`: the error says the tag must come first.
    #[cold]
    #[inline(never)]
    fn before_the_tag<E: de::Error>(&self, error: E) -> E {
        if self.human_readable != Some(false) {
            return error;
        }
        let s = self.subtypes.settings();
        E::custom(format_args!(
            "{error}: a key came before the tag `{}` of {}, and a format that does not describe itself (postcard, bincode) reads an `as_map` value only with its tag first",
            s.key.unwrap_or_default(),
            s.name
        ))
    }

    /// Presence mode: the one subtype whose fields are all there is to see.
    fn decide<E: de::Error>(&self, seen: u128) -> Result<u32, E> {
        let s = &self.subtypes;
        let settings = s.settings();
        match seen.count_ones() {
            1 => Ok(seen.trailing_zeros()),
            0 => settings.fallback.ok_or_else(|| {
                E::custom(format_args!(
                    "no subtype of {} matches: expected one of the fields {}",
                    settings.name,
                    Fields(&s.fields())
                ))
            }),
            _ if settings.first_match => Ok(seen.trailing_zeros()),
            _ => {
                let names: Vec<&str> = (0..128u32)
                    .filter(|i| seen & (1u128 << i) != 0)
                    .map(|i| s.subtype_name(i))
                    .collect();
                let (last, rest) = names.split_last().unwrap_or((&"", &[]));
                Err(E::custom(format_args!(
                    "ambiguous subtype of {}: the fields match both {} and {last}",
                    settings.name,
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

impl<'de, S: Subtypes<'de>> DispatchVisitor<'de, S> {
    /// The walk over the object's keys (`visit_map`'s body).
    #[inline(always)]
    fn walk<A>(self, mut map: A) -> Result<S::Value, A::Error>
    where
        A: MapAccess<'de>,
    {
        clear_hoist();

        let s = &self.subtypes;
        let settings = s.settings();
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
                        || (settings.fallback.is_none() && !settings.nested && !settings.visible)
                    {
                        let index = map.next_value_seed(KnownTagSeed { subtypes: s })?;
                        let index = index.unwrap_or_default();
                        return self.build(index, &prefix, Stretch::All, map, false);
                    }
                    // The tag entry is recorded in place for the fallback,
                    // for a nested child which reads it first, or for a
                    // `visible` payload which reads it where it was; dropped
                    // again for any other subtype.
                    let key = settings.key.unwrap_or_default();
                    let mark = prefix.mark();
                    let mut head = None;
                    let sink = TagSink {
                        buf: &mut prefix,
                        head: Some(&mut head),
                        key: Some(key),
                        fallback: settings.fallback.is_some(),
                        visible: settings.visible,
                    };
                    let seed = TagSeed {
                        subtypes: s,
                        sink: Some(sink),
                    };
                    return match map.next_value_seed(seed)? {
                        Some(index) if s.is_nested(index) => match head {
                            // Handed on as it was read: no buffer.
                            Some(value) => {
                                self.build_with_head(index, value, &prefix, Stretch::All, map)
                            }
                            None => self.build(index, &prefix, Stretch::From(mark), map, false),
                        },
                        Some(index) => {
                            if !s.is_visible(index) {
                                prefix.truncate(mark);
                            }
                            self.build(index, &prefix, Stretch::All, map, false)
                        }
                        None => {
                            let fallback = settings.fallback.unwrap_or_default();
                            self.build(fallback, &prefix, Stretch::All, map, true)
                        }
                    };
                }
                Some(false) if S::MAY_BE_EXACT && settings.exact_numbers => {
                    crate::exact::record_value(&mut prefix, &mut map, depth, settings.limit())?
                }
                Some(false) => {
                    let recorded = match if S::MAY_LIMIT { settings.limit() } else { None } {
                        Some(limit) => prefix.record_value_within(&mut map, depth, limit),
                        None => prefix.record_value(&mut map, depth),
                    };
                    if S::AS_MAP {
                        recorded.map_err(|e| self.before_the_tag(e))?;
                    } else {
                        recorded?;
                    }
                }
                None => break,
            }
        }
        // serde_json's `arbitrary_precision` hands a bare number over as a
        // one-entry map: refused as the number it is, as without the
        // feature, not taken for an object without its tag.
        if let Some(number) = prefix.lone_number().and_then(bare_number) {
            return Err(A::Error::invalid_type(number, &self));
        }
        if S::MAY_BE_PRESENCE && settings.key.is_none() {
            let index = self.decide(seen)?;
            return self.build(index, &prefix, Stretch::Ended, map, false);
        }
        let key = settings.key.unwrap_or_default();
        match settings.fallback {
            Some(fallback) if S::MAY_KEEP_TAG => {
                self.build(fallback, &prefix, Stretch::Ended, map, true)
            }
            _ => Err(missing_field(key)),
        }
    }
}

impl<'de, S: Subtypes<'de>> Visitor<'de> for DispatchVisitor<'de, S> {
    type Value = S::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.subtypes.settings();
        expecting(f, s.expecting, s.key, s.name)
    }

    #[inline]
    fn visit_map<A>(self, map: A) -> Result<S::Value, A::Error>
    where
        A: MapAccess<'de>,
    {
        // A constant: a set without `as_map` compiles only the second call.
        if S::AS_MAP {
            self.walk(StringKeys(map))
        } else {
            self.walk(map)
        }
    }

    /// serde's internally tagged enums also read `["dog", field, ...]`:
    /// the tag, then the payload's fields in order.
    fn visit_seq<A>(self, mut seq: A) -> Result<S::Value, A::Error>
    where
        A: SeqAccess<'de>,
    {
        clear_hoist();
        let s = &self.subtypes;
        if s.settings().key.is_none() {
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
        match self.subtypes.settings().key {
            Some(tag) => same_text(key, tag),
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
        let s = self.subtypes.settings();
        if s.require_tag_first {
            let first = self.prefix.len() == 0;
            return not_first(first, s.key.unwrap_or_default(), s.name, key);
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
        // reads a key the same way for either request. Under `as_map` the
        // key's deserializer is a `StringKey`, which asks for a string.
        deserializer.deserialize_any(self)
    }
}

impl<'de, S: Subtypes<'de>> Visitor<'de> for KeySeed<'_, 'de, S> {
    type Value = bool;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a field name")
    }

    // Always inlined, with `visit_borrowed_str` below: a registry's walk is
    // compiled once per format and is large, and left to itself LLVM keeps
    // these calls of their own there, which save and restore more
    // registers than the check costs.
    #[inline(always)]
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

    #[inline(always)]
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
            self.subtypes.settings().limit()
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
        // Constant conditions, which rustc decides before it instantiates
        // what a branch calls (a `match` on the `Option` itself it does
        // not): an enum with literal tags does not compile its `read_tag`
        // here, nor a registry the shared reader.
        if const { S::KNOWN_TAGS.is_some() } {
            let Some(known) = S::KNOWN_TAGS else {
                return Err(no_known_tags());
            };
            if S::AS_MAP {
                let request = self.subtypes.tag_request();
                let requested = Requested {
                    deserializer,
                    request,
                };
                return requested.deserialize_any(known.visitor()).map(Some);
            }
            return deserializer.deserialize_any(known.visitor()).map(Some);
        }
        let seed = TagSeed {
            subtypes: self.subtypes,
            sink: None,
        };
        seed.deserialize(deserializer)
    }
}

/// The `else` of a condition that holds: not reached.
#[cold]
#[inline(never)]
fn no_known_tags<E: de::Error>() -> E {
    E::custom("json_subtypes: a set without known tags")
}

struct TagSeed<'a, 'de, S> {
    subtypes: &'a S,
    sink: Option<TagSink<'a, 'de>>,
}

impl<'de, S: Subtypes<'de>> DeserializeSeed<'de> for TagSeed<'_, 'de, S> {
    type Value = Option<u32>;

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Option<u32>, D::Error> {
        if S::AS_MAP {
            let request = self.subtypes.tag_request();
            return self.subtypes.read_tag(
                Requested {
                    deserializer,
                    request,
                },
                self.sink,
            );
        }
        self.subtypes.read_tag(deserializer, self.sink)
    }
}

/// Entry point of a generated `Deserialize` impl.
#[inline]
pub fn deserialize<'de, T, D>(deserializer: D) -> Result<T, D::Error>
where
    T: Enum<'de>,
    D: Deserializer<'de>,
{
    deserialize_with(T::SUBTYPES, deserializer)
}

/// Reads one value of `subtypes` from `deserializer`.
pub fn deserialize_with<'de, S, D>(subtypes: S, deserializer: D) -> Result<S::Value, D::Error>
where
    S: Subtypes<'de>,
    D: Deserializer<'de>,
{
    let settings = subtypes.settings();
    let Some(_level) = crate::state::enter(settings.max_depth, hoist_key(settings)) else {
        return Err(de::Error::custom("recursion limit exceeded"));
    };
    // The type-erased path hands one answer to every value of the payload
    // (see `erased::deserializer::Crossing`), so it needs the format's now.
    // Otherwise the format is asked only when something is buffered (see
    // `Buffer`).
    let human_readable = settings.erased.then(|| deserializer.is_human_readable());
    if S::AS_MAP {
        // Asked once: whether a failed value before the tag may be the
        // format's refusal of `deserialize_any` (see `walk`).
        let described = deserializer.is_human_readable();
        return deserializer.deserialize_map(DispatchVisitor {
            subtypes,
            human_readable: human_readable.or(Some(described)),
            marker: PhantomData,
        });
    }
    let name = settings.key.map(|_| settings.name);
    // A `match`, not `map_err` with a closure: one copy of `name_as_map` per
    // format instead of one closure per enum.
    match deserializer.deserialize_any(DispatchVisitor {
        subtypes,
        human_readable,
        marker: PhantomData,
    }) {
        Ok(value) => Ok(value),
        Err(error) => Err(name_as_map(error, name)),
    }
}

/// A format that does not describe itself refuses `deserialize_any`, with
/// which the internally tagged form starts: its error names `as_map`, the
/// form such formats read. Found by the format's own words, on the error
/// path only (a `Deserializer` does not say whether it describes itself);
/// postcard keeps no message of ours (`WontImplement` stays as it is).
#[cold]
#[inline(never)]
fn name_as_map<E: de::Error>(error: E, name: Option<&'static str>) -> E {
    let Some(name) = name else {
        return error;
    };
    let text = error.to_string();
    if !text.contains("deserialize_any") || text.contains("as_map") {
        return error;
    }
    E::custom(format_args!(
        "{text}: {name} is internally tagged, which this format cannot read back; \
         add `as_map` to its `#[json_subtypes(...)]` (on a profile, `.as_map()`) to write and read it as a map with the tag first, as typetag does"
    ))
}

/// `Subtypes::read_tag` for literal tags: looks the value up without
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

/// The tag key when a replay of our own buffer may hand the tag entry
/// first (see `state::Engine::hoist`): not for a set with a limit, so
/// that a replayed object shows its keys in their order and the limit
/// sees what the input held, nor under `require_tag_first`, nor for an
/// `Unknown` fallback, which must see entries in their order.
#[inline]
fn hoist_key(settings: &Settings) -> Option<&'static str> {
    if settings.require_tag_first || settings.max_buffer.is_some() || settings.fallback.is_some() {
        return None;
    }
    settings.key
}
