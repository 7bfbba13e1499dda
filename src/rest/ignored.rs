//! `ParseIgnored`: the value seed of the live rest, under which an ignored
//! value is parsed, not skipped.

use core::fmt;

use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess, VariantAccess, Visitor,
};

use super::forward::forward_requests;

/// A value seed under which an ignored value is parsed, not skipped.
///
/// Entries before the tag are buffered, which parses them fully; entries
/// after it stream, and a format may skip an ignored value more leniently
/// than it parses one (serde_json skips numbers beyond `f64`, invalid UTF-8
/// and lone surrogates). Parsing ignored values of the object too keeps the
/// verdict the same wherever the tag comes. Other requests pass through.
pub(super) struct ParseIgnored<S>(pub(super) S);

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
