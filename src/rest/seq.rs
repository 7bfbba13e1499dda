//! `RestSeq`: the rest of a sequence after its leading tag, as a payload's
//! deserializer and a variant access.

use core::marker::PhantomData;

use serde::de::{
    DeserializeSeed, Deserializer, Error as _, IgnoredAny, SeqAccess, Unexpected, VariantAccess,
    Visitor,
};

use super::ignored::ParseIgnored;

/// The rest of a sequence after its leading tag.
pub struct RestSeq<A>(pub(crate) A);

impl<'de, A: SeqAccess<'de>> Deserializer<'de> for RestSeq<A> {
    type Error = A::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, A::Error> {
        visitor.visit_seq(self.0)
    }

    /// As serde's internally tagged enums: `["Info"]`, nothing after the
    /// tag, is a unit (struct) payload.
    fn deserialize_unit<V: Visitor<'de>>(mut self, visitor: V) -> Result<V::Value, A::Error> {
        let next = self
            .0
            .next_element_seed(ParseIgnored(PhantomData::<IgnoredAny>))?;
        match next {
            None => visitor.visit_unit(),
            Some(_) => Err(A::Error::invalid_type(Unexpected::Seq, &visitor)),
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        self.deserialize_unit(visitor)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

impl<'de, A: SeqAccess<'de>> VariantAccess<'de> for RestSeq<A> {
    type Error = A::Error;

    fn unit_variant(mut self) -> Result<(), A::Error> {
        // As serde's internally tagged enums: `["Fish"]` only. Extra
        // elements are parsed (see `ParseIgnored`) to count them.
        let mut extra = 0;
        while self
            .0
            .next_element_seed(ParseIgnored(PhantomData::<IgnoredAny>))?
            .is_some()
        {
            extra += 1;
        }
        if extra > 0 {
            return Err(A::Error::invalid_length(extra, &"0 elements in sequence"));
        }
        Ok(())
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, A::Error> {
        seed.deserialize(self)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, A::Error> {
        visitor.visit_seq(self.0)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        visitor.visit_seq(self.0)
    }
}
