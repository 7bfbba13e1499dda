//! The externally tagged form, `{"Circle":{"r":1.0}}`: the tag is a
//! one-entry map's key and the payload its value (typetag's default,
//! serde's default for enums, Jackson's `WRAPPER_OBJECT`).

use core::fmt;
use core::marker::PhantomData;

use serde::de::{
    DeserializeSeed, Deserializer, Error as _, IgnoredAny, MapAccess, Unexpected, VariantAccess,
    Visitor,
};
use serde::ser::{SerializeMap, Serializer};

use super::{build_from, Bare, BuildSeed, TagSeed, TagValue};
use crate::buffer::{Buffer, Mark, Reader};
use crate::dispatch::Subtypes;
use crate::subtype::Subtype;
use crate::tag::{OwnedLiteral, TagSink};

/// Writes `value` as the one entry of a map, under `tag`.
pub(crate) fn serialize<S, V>(
    serializer: S,
    tag: &OwnedLiteral,
    value: Bare<'_, V>,
) -> Result<S::Ok, S::Error>
where
    S: Serializer,
    V: ?Sized + Subtype,
{
    let mut map = serializer.serialize_map(Some(1))?;
    map.serialize_entry(&TagValue(tag), &value)?;
    map.end()
}

/// Reads one value of `subtypes` in the externally tagged form.
pub(crate) fn deserialize<'de, S, D>(subtypes: S, deserializer: D) -> Result<S::Value, D::Error>
where
    S: Subtypes<'de>,
    D: Deserializer<'de>,
{
    // Only the nesting: this form hoists no tag key (see `enter_depth`).
    let Some(_depth) = crate::state::enter_depth(subtypes.settings().max_depth) else {
        return Err(D::Error::custom("recursion limit exceeded"));
    };
    // Asked up front only for a fallback, which is handed the map with its
    // key replayed; a subtype's own value is read from the format itself.
    let human_readable = match S::MAY_KEEP_TAG {
        true => (subtypes.settings().fallback).map(|_| deserializer.is_human_readable()),
        false => None,
    };
    deserializer.deserialize_map(ExternalVisitor {
        subtypes,
        human_readable,
        marker: PhantomData,
    })
}

struct ExternalVisitor<'de, S> {
    subtypes: S,
    /// The format's `is_human_readable`, with a fallback.
    human_readable: Option<bool>,
    marker: PhantomData<&'de ()>,
}

impl<'de, S: Subtypes<'de>> Visitor<'de> for ExternalVisitor<'de, S> {
    type Value = S::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "a map with a single key, the subtype tag of {}",
            self.subtypes.settings().name
        )
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<S::Value, A::Error> {
        let s = &self.subtypes;
        let fallback = if S::MAY_KEEP_TAG {
            s.settings().fallback
        } else {
            None
        };
        // An unknown key is recorded for the fallback, as the key it is.
        let mut kept = Buffer::new();
        let sink = fallback.map(|_| TagSink {
            buf: &mut kept,
            key: None,
            fallback: true,
            visible: false,
            head: None,
        });
        let index = match map.next_key_seed(TagSeed {
            subtypes: s,
            sink,
            in_seq: false,
        })? {
            Some(Some(index)) => index,
            found => {
                // An unknown tag, or no entry at all: the fallback reads
                // the map as it is, the unknown key replayed.
                let Some(fallback) = fallback else {
                    return Err(A::Error::invalid_value(Unexpected::Map, &self));
                };
                let human_readable = self.human_readable.unwrap_or(true);
                kept.note_human_readable(human_readable);
                let payload = KeyFirst {
                    key: found.map(|_| kept.reader_at(Mark::START)),
                    live: found.map(|_| map),
                    human_readable,
                };
                return build_from(s, fallback, payload);
            }
        };
        let value = map.next_value_seed(BuildSeed { subtypes: s, index })?;
        match map.next_key::<IgnoredAny>()? {
            None => Ok(value),
            Some(_) => Err(A::Error::invalid_value(Unexpected::Map, &self)),
        }
    }
}

/// A map whose first key was read and recorded (an unknown tag), handed to
/// the fallback: that key replayed, then its value and anything after it
/// live. With no key (an empty map) it is an empty map.
struct KeyFirst<'b, 'de, A> {
    key: Option<Reader<'b, 'de>>,
    /// `None` once the live map has ended.
    live: Option<A>,
    human_readable: bool,
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for KeyFirst<'_, 'de, A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        if let Some(mut key) = self.key.take() {
            return seed
                .deserialize(key.next_key::<A::Error>(self.human_readable))
                .map(Some);
        }
        match &mut self.live {
            Some(live) => live.next_key_seed(seed),
            None => Ok(None),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        match &mut self.live {
            Some(live) => live.next_value_seed(seed),
            None => Err(A::Error::custom(
                "a map value was asked for after the map's end",
            )),
        }
    }
}

/// The whole map, whatever is asked, as a fallback payload reads it.
impl<'de, A: MapAccess<'de>> Deserializer<'de> for KeyFirst<'_, 'de, A> {
    type Error = A::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, A::Error> {
        visitor.visit_map(self)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(
        mut self,
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        while self.next_key::<IgnoredAny>()?.is_some() {
            self.next_value::<IgnoredAny>()?;
        }
        visitor.visit_unit()
    }

    fn is_human_readable(&self) -> bool {
        self.human_readable
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier
    }
}

/// A fallback variant reading the map as its content.
impl<'de, A: MapAccess<'de>> VariantAccess<'de> for KeyFirst<'_, 'de, A> {
    type Error = A::Error;

    fn unit_variant(self) -> Result<(), A::Error> {
        self.deserialize_ignored_any(IgnoredAny).map(|_| ())
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, A::Error> {
        seed.deserialize(self)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, A::Error> {
        visitor.visit_map(self)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        visitor.visit_map(self)
    }
}
