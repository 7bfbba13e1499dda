//! `DispatchVisitor`: the walk over one object's keys that finds the tag,
//! records what comes before it and builds the chosen subtype (or reads a
//! sequence's tag first), with its messages for what it cannot take.

use core::cell::Cell;
use core::fmt;
use core::marker::PhantomData;

use serde::de::{self, Error as _, MapAccess, SeqAccess, Unexpected, Visitor};

use super::key::{KeySeed, KnownTagSeed, TagSeed};
use super::string_keys::StringKeys;
use super::Subtypes;
use crate::buffer::Buffer;
use crate::rest::{missing_field, PrefixReader, RestSeq, RestState};
use crate::state::clear_hoist;
use crate::tag::{HeadValue, TagSink};

pub(super) struct DispatchVisitor<'de, S> {
    pub(super) subtypes: S,
    /// The format's answer, when it was asked up front.
    pub(super) human_readable: Option<bool>,
    pub(super) marker: PhantomData<&'de ()>,
}

impl<'de, S: Subtypes<'de>> DispatchVisitor<'de, S> {
    /// Reads subtype `index` from the prefix (replayed from `start`, then
    /// from its beginning up to `start`) and the live rest; with `hint`
    /// (the fallback) an `Unknown` payload is told which key is the tag.
    fn build<A: MapAccess<'de>>(
        &self,
        index: u32,
        prefix: PrefixReader<'_, 'de>,
        live: A,
        hint: bool,
    ) -> Result<S::Value, A::Error> {
        let slot = Cell::new(None);
        let mut state = self.rest(prefix, live, hint, &slot);
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
        prefix: PrefixReader<'_, 'de>,
        live: A,
    ) -> Result<S::Value, A::Error> {
        let slot = Cell::new(None);
        let mut state = self.rest(prefix, live, false, &slot);
        let out = self.subtypes.build_head(index, head, state.rest());
        out.map_err(|e| slot.take().unwrap_or(e))
    }

    /// The rest of the object after the tag, for `build`.
    #[inline]
    fn rest<'s, A: MapAccess<'de>>(
        &'s self,
        prefix: PrefixReader<'s, 'de>,
        live: A,
        hint: bool,
        slot: &'s Cell<Option<A::Error>>,
    ) -> RestState<'de, 's, A> {
        let human_readable = match self.human_readable {
            Some(answer) => answer,
            None => prefix.buf().human_readable(),
        };
        RestState {
            prefix,
            live,
            tag: self.subtypes.settings().key.as_ref(),
            hint: self.subtypes.settings().key.as_ref().filter(|_| hint),
            catch: self.subtypes.settings().erased.then_some(slot),
            human_readable,
            from_prefix: false,
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
                        return self.build(index, prefix.prefix_reader(), map, false);
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
                                self.build_with_head(index, value, prefix.prefix_reader(), map)
                            }
                            None => self.build(index, prefix.prefix_reader_from(mark), map, false),
                        },
                        Some(index) => {
                            if !s.is_visible(index) {
                                prefix.truncate(mark);
                            }
                            self.build(index, prefix.prefix_reader(), map, false)
                        }
                        None => {
                            let fallback = settings.fallback.unwrap_or_default();
                            self.build(fallback, prefix.prefix_reader(), map, true)
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
            return self.build(index, prefix.prefix_reader_ended(), map, false);
        }
        let key = settings.key.unwrap_or_default();
        match settings.fallback {
            Some(fallback) if S::MAY_KEEP_TAG => {
                self.build(fallback, prefix.prefix_reader_ended(), map, true)
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
