//! `as_map`: every key of the object read as a string, as typetag reads its
//! internally tagged form (its `MapWithStringKeys`). Formats that do not
//! describe themselves (postcard, bincode) refuse `deserialize_identifier`
//! and `deserialize_any`, with which a payload's derived `Deserialize` and
//! the walk ask for keys; `deserialize_str` they answer, and every
//! self-describing format answers it for a string key the same way.

use serde::de::{DeserializeSeed, Deserializer, MapAccess, Visitor};

use crate::rest::forward::forward_requests;

/// The object's map, its keys read with `deserialize_str`.
pub(super) struct StringKeys<A>(pub(super) A);

impl<'de, A: MapAccess<'de>> MapAccess<'de> for StringKeys<A> {
    type Error = A::Error;

    #[inline]
    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        self.0.next_key_seed(StringKey(seed))
    }

    #[inline]
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        self.0.next_value_seed(seed)
    }

    #[inline]
    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

/// A key's seed, and then its deserializer, asking for a string where it
/// would ask for any value or an identifier.
struct StringKey<T>(T);

impl<'de, K: DeserializeSeed<'de>> DeserializeSeed<'de> for StringKey<K> {
    type Value = K::Value;

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<K::Value, D::Error> {
        self.0.deserialize(StringKey(deserializer))
    }
}

impl<D> StringKey<D> {
    /// For `forward_requests`: the wrapped deserializer, the visitor as is.
    #[inline]
    fn split<V>(self, visitor: V) -> (D, V) {
        (self.0, visitor)
    }
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for StringKey<D> {
    type Error = D::Error;

    #[inline]
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        self.0.deserialize_str(AsKey(visitor))
    }

    #[inline]
    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        self.0.deserialize_str(AsKey(visitor))
    }

    #[inline]
    fn is_human_readable(&self) -> bool {
        self.0.is_human_readable()
    }

    forward_requests! {
        deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
        deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64
        deserialize_u128 deserialize_f32 deserialize_f64 deserialize_char deserialize_str
        deserialize_string deserialize_bytes deserialize_byte_buf deserialize_option
        deserialize_unit deserialize_seq deserialize_map deserialize_ignored_any
    }
}

/// The key's visitor, in a type of its own: serde_json answers
/// `deserialize_str` with its `deserialize_any`, and the same instance
/// called from here too would no longer be inlined into the readers of
/// every set without `as_map` (their only caller), which cost a
/// trait-object read with the tag first 4% more instructions.
struct AsKey<V>(V);

macro_rules! visit {
    ($($method:ident($ty:ty))*) => {
        $(
            #[inline]
            fn $method<E: serde::de::Error>(self, v: $ty) -> Result<V::Value, E> {
                self.0.$method(v)
            }
        )*
    };
}

impl<'de, V: Visitor<'de>> Visitor<'de> for AsKey<V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        self.0.expecting(f)
    }

    visit! {
        visit_bool(bool) visit_i64(i64) visit_i128(i128) visit_u64(u64) visit_u128(u128)
        visit_f64(f64) visit_char(char) visit_str(&str) visit_borrowed_str(&'de str)
        visit_string(String) visit_bytes(&[u8]) visit_borrowed_bytes(&'de [u8])
        visit_byte_buf(Vec<u8>)
    }
}
