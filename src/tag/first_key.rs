//! A map met where a tag value was expected: its first key read
//! (`FirstKey`) to tell serde_json's `arbitrary_precision` number, whose
//! digits are then read (`TextSeed`), from a map, which is handed on whole
//! (`Resumed`).

use core::fmt;

use serde::de::{self, Deserializer, EnumAccess, MapAccess, SeqAccess, Visitor};

use crate::buffer::{Buffer, Mark, Recorder, NUMBER_TOKEN};

/// The first key of a map read as a tag value: serde_json's number token,
/// or a key kept to hand on with the map.
pub(super) enum FirstKey<'de> {
    Number,
    Text(Text<'de>),
    Other(Buffer<'de>),
}

/// A string, borrowed from the input when the format allows.
pub(super) enum Text<'de> {
    Borrowed(&'de str),
    Owned(String),
}

impl Text<'_> {
    pub(super) fn as_str(&self) -> &str {
        match self {
            Text::Borrowed(s) => s,
            Text::Owned(s) => s,
        }
    }
}

pub(super) struct FirstKeySeed;

impl<'de> de::DeserializeSeed<'de> for FirstKeySeed {
    type Value = FirstKey<'de>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<FirstKey<'de>, D::Error> {
        // As the engine asks for an object's keys (see `KeySeed` in
        // dispatch/key.rs): a key of another kind is taken as it is.
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for FirstKeySeed {
    type Value = FirstKey<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a map key")
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<FirstKey<'de>, E> {
        Ok(match v {
            NUMBER_TOKEN => FirstKey::Number,
            _ => FirstKey::Text(Text::Borrowed(v)),
        })
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<FirstKey<'de>, E> {
        Ok(match v {
            NUMBER_TOKEN => FirstKey::Number,
            _ => FirstKey::Text(Text::Owned(v.to_owned())),
        })
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<FirstKey<'de>, E> {
        Ok(match v.as_str() {
            NUMBER_TOKEN => FirstKey::Number,
            _ => FirstKey::Text(Text::Owned(v)),
        })
    }

    // Keys of other kinds (CBOR integers, YAML booleans) are kept as they came.
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<FirstKey<'de>, E> {
        let mut buf = Buffer::new();
        buf.push_u64(v);
        Ok(FirstKey::Other(buf))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<FirstKey<'de>, E> {
        let mut buf = Buffer::new();
        buf.push_i64(v);
        Ok(FirstKey::Other(buf))
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<FirstKey<'de>, E> {
        let mut buf = Buffer::new();
        buf.push_bool(v);
        Ok(FirstKey::Other(buf))
    }

    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<FirstKey<'de>, E> {
        let mut buf = Buffer::new();
        buf.push_bytes(v);
        Ok(FirstKey::Other(buf))
    }

    fn visit_borrowed_bytes<E: de::Error>(self, v: &'de [u8]) -> Result<FirstKey<'de>, E> {
        other_key(|r| r.visit_borrowed_bytes(v))
    }

    fn visit_i128<E: de::Error>(self, v: i128) -> Result<FirstKey<'de>, E> {
        other_key(|r| r.visit_i128(v))
    }

    fn visit_u128<E: de::Error>(self, v: u128) -> Result<FirstKey<'de>, E> {
        other_key(|r| r.visit_u128(v))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<FirstKey<'de>, E> {
        other_key(|r| r.visit_f64(v))
    }

    fn visit_unit<E: de::Error>(self) -> Result<FirstKey<'de>, E> {
        other_key(|r| r.visit_unit())
    }

    fn visit_none<E: de::Error>(self) -> Result<FirstKey<'de>, E> {
        other_key(|r| r.visit_none())
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<FirstKey<'de>, D::Error> {
        other_key(|r| r.visit_some(d))
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<FirstKey<'de>, D::Error> {
        other_key(|r| r.visit_newtype_struct(d))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<FirstKey<'de>, A::Error> {
        other_key(|r| r.visit_seq(seq))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<FirstKey<'de>, A::Error> {
        other_key(|r| r.visit_map(map))
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<FirstKey<'de>, A::Error> {
        other_key(|r| r.visit_enum(data))
    }
}

/// A first key of another kind (a float, a sequence...), recorded whole.
fn other_key<'de, E>(
    record: impl FnOnce(Recorder<'_, 'de>) -> Result<(), E>,
) -> Result<FirstKey<'de>, E> {
    let mut buf = Buffer::new();
    record(buf.recorder(crate::state::remaining()))?;
    Ok(FirstKey::Other(buf))
}

/// Reads a string value, borrowing when it can.
pub(super) struct TextSeed;

impl<'de> de::DeserializeSeed<'de> for TextSeed {
    type Value = Text<'de>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Text<'de>, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for TextSeed {
    type Value = Text<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a number's digits")
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Text<'de>, E> {
        Ok(Text::Borrowed(v))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Text<'de>, E> {
        Ok(Text::Owned(v.to_owned()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Text<'de>, E> {
        Ok(Text::Owned(v))
    }
}

/// A map whose first key was already read (into `first`), handed on whole.
pub(super) struct Resumed<'de, A> {
    pub(super) first: Option<FirstKey<'de>>,
    pub(super) human_readable: bool,
    pub(super) map: A,
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Resumed<'de, A> {
    type Error = A::Error;

    fn next_key_seed<K: de::DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        match self.first.take() {
            Some(FirstKey::Text(Text::Borrowed(key))) => seed
                .deserialize(de::value::BorrowedStrDeserializer::new(key))
                .map(Some),
            Some(FirstKey::Text(Text::Owned(key))) => seed
                .deserialize(de::value::StringDeserializer::new(key))
                .map(Some),
            Some(FirstKey::Other(buf)) => {
                let mut reader = buf.reader_at(Mark::START);
                seed.deserialize(reader.next_value::<A::Error>(self.human_readable))
                    .map(Some)
            }
            // The number token is never handed on (it is read as a number).
            Some(FirstKey::Number) | None => self.map.next_key_seed(seed),
        }
    }

    fn next_value_seed<V: de::DeserializeSeed<'de>>(
        &mut self,
        seed: V,
    ) -> Result<V::Value, A::Error> {
        self.map.next_value_seed(seed)
    }
}
