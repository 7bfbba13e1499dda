//! `VariantDeserializer`: the chosen variant and the rest of its object, as
//! the enum access a serde-derived enum reader reads.

use serde::de::{self, DeserializeSeed, Deserializer, EnumAccess, VariantAccess, Visitor};

use super::Payload;

/// The chosen variant and the rest of its object, handed to the generated
/// code's serde-derived enum reader as an enum access.
pub struct VariantDeserializer<R> {
    index: u32,
    rest: R,
}

impl<'de, R: Deserializer<'de>> VariantDeserializer<R> {
    /// Variant `index`, read from `rest`.
    #[inline]
    pub fn new(index: u32, rest: R) -> Self {
        VariantDeserializer { index, rest }
    }
}

impl<'de, R> Deserializer<'de> for VariantDeserializer<R>
where
    R: Payload<'de>,
{
    type Error = <R as Deserializer<'de>>::Error;

    #[inline]
    fn deserialize_any<V: Visitor<'de>>(
        self,
        visitor: V,
    ) -> Result<V::Value, <R as Deserializer<'de>>::Error> {
        visitor.visit_enum(self)
    }

    // Asked only when the enum's reader asks (see `Rest::is_human_readable`).
    fn is_human_readable(&self) -> bool {
        self.rest.is_human_readable()
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

impl<'de, R: VariantAccess<'de>> EnumAccess<'de> for VariantDeserializer<R> {
    type Error = R::Error;
    type Variant = R;

    #[inline]
    fn variant_seed<V>(self, seed: V) -> Result<(V::Value, R), R::Error>
    where
        V: DeserializeSeed<'de>,
    {
        let index = seed.deserialize(de::value::U32Deserializer::<R::Error>::new(self.index))?;
        Ok((index, self.rest))
    }
}
