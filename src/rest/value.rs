//! A whole value as a subtype's payload: the content of the external
//! form's one entry or of the adjacent form's content key
//! (`representation`), here beside `Rest` so that `compiled` can name it.

use core::cell::Cell;

use serde::de::{self, DeserializeSeed, Deserializer, VariantAccess, Visitor};

use super::caught;

/// A whole value as a subtype's payload: every request goes to the value's
/// own deserializer, and as a variant access it is the variant's content.
pub(crate) struct ValuePayload<'s, 'de, D: Deserializer<'de>> {
    pub(crate) deserializer: D,
    /// The struct name a struct variant asks for, as its writer named it.
    pub(crate) name: &'static str,
    /// Keeps the first error of the format for a type-erased payload (see
    /// `Rest::catch`).
    pub(crate) catch: Option<&'s Cell<Option<D::Error>>>,
}

impl<'de, D: Deserializer<'de>> ValuePayload<'_, 'de, D> {
    /// The value's own deserializer, whose errors pass unchanged: for a
    /// payload read without the erased layers (`compiled`).
    #[inline(always)]
    pub(crate) fn into_inner(self) -> D {
        self.deserializer
    }
}

macro_rules! forward_caught {
    ($($method:ident($($arg:ident: $ty:ty),*))*) => {
        $(
            #[inline]
            fn $method<V: Visitor<'de>>(self, $($arg: $ty,)* visitor: V) -> Result<V::Value, D::Error> {
                caught(self.catch, self.deserializer.$method($($arg,)* visitor))
            }
        )*
    };
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for ValuePayload<'_, 'de, D> {
    type Error = D::Error;

    forward_caught! {
        deserialize_any() deserialize_bool() deserialize_i8() deserialize_i16()
        deserialize_i32() deserialize_i64() deserialize_i128() deserialize_u8()
        deserialize_u16() deserialize_u32() deserialize_u64() deserialize_u128()
        deserialize_f32() deserialize_f64() deserialize_char() deserialize_str()
        deserialize_string() deserialize_bytes() deserialize_byte_buf()
        deserialize_option() deserialize_unit() deserialize_seq() deserialize_map()
        deserialize_identifier() deserialize_ignored_any()
        deserialize_unit_struct(name: &'static str)
        deserialize_newtype_struct(name: &'static str)
        deserialize_tuple(len: usize)
        deserialize_tuple_struct(name: &'static str, len: usize)
        deserialize_struct(name: &'static str, fields: &'static [&'static str])
        deserialize_enum(name: &'static str, variants: &'static [&'static str])
    }

    fn is_human_readable(&self) -> bool {
        self.deserializer.is_human_readable()
    }
}

impl<'de, D: Deserializer<'de>> VariantAccess<'de> for ValuePayload<'_, 'de, D> {
    type Error = D::Error;

    fn unit_variant(self) -> Result<(), D::Error> {
        de::Deserialize::deserialize(self)
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, D::Error> {
        seed.deserialize(self)
    }

    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, D::Error> {
        self.deserialize_tuple(len, visitor)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        let name = self.name;
        self.deserialize_struct(name, fields, visitor)
    }
}
