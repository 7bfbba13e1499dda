//! `NotTag`: the key seed of the live rest, which refuses a second tag key
//! before the payload's reader sees the key.

use core::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, EnumAccess, MapAccess, Visitor};

use super::duplicate_field;
use super::forward::forward_requests;
use crate::tag::is_known;

/// A key seed that refuses the tag key, then hands the key to `seed`.
pub(super) struct NotTag<'s, K> {
    pub(super) seed: K,
    pub(super) tag: &'s str,
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
    is_known(key, tag.as_bytes())
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
