//! `KeySeed`: one key of the walk, the tag key or a key recorded before
//! it (refused there under `require_tag_first`), and the seeds that read
//! the tag's value (`TagSeed`, `KnownTagSeed`).

use core::fmt;
use core::marker::PhantomData;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Unexpected, Visitor};

use super::Subtypes;
use crate::buffer::{Buffer, Recorder, NUMBER_TOKEN};
use crate::tag::{Requested, TagSink};

/// Reads a map key: `true` when it is the tag key, else records it (and in
/// presence mode notes which subtypes it points to).
pub(super) struct KeySeed<'b, 'de, S> {
    pub(super) subtypes: &'b S,
    pub(super) prefix: &'b mut Buffer<'de>,
    pub(super) seen: &'b mut u128,
    pub(super) marker: PhantomData<&'de ()>,
}

impl<'de, S: Subtypes<'de>> KeySeed<'_, 'de, S> {
    #[inline]
    fn is_tag(&mut self, key: &str) -> bool {
        match self.subtypes.settings().key {
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
pub(super) struct KnownTagSeed<'a, S> {
    pub(super) subtypes: &'a S,
}

impl<'de, S: Subtypes<'de>> DeserializeSeed<'de> for KnownTagSeed<'_, S> {
    type Value = Option<u32>;

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Option<u32>, D::Error> {
        if S::AS_MAP {
            let request = self.subtypes.tag_request();
            return self.subtypes.read_known_tag(Requested {
                deserializer,
                request,
            });
        }
        self.subtypes.read_known_tag(deserializer)
    }
}

pub(super) struct TagSeed<'a, 'de, S> {
    pub(super) subtypes: &'a S,
    pub(super) sink: Option<TagSink<'a, 'de>>,
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
