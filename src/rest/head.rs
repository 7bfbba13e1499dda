//! `HeadFirst`: the rest of an object with a nested child's tag entry,
//! which an enclosing level read, handed out again before anything else.

use core::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, VariantAccess, Visitor};

use super::Payload;
use crate::tag::HeadValue;

/// The rest of an object with a nested child's tag entry, read by an
/// enclosing level, handed out again before anything else: for a child that
/// reads the object itself (a `nested` variant with serde attributes, or a
/// child without literal tags).
pub struct HeadFirst<'de, 's, P> {
    head: HeadValue<'de>,
    key: &'s str,
    payload: P,
}

impl<'de, 's, P> HeadFirst<'de, 's, P> {
    pub fn new(head: HeadValue<'de>, key: &'s str, payload: P) -> Self {
        HeadFirst { head, key, payload }
    }
}

impl<'de, P: Payload<'de>> Deserializer<'de> for HeadFirst<'de, '_, P> {
    type Error = <P as Deserializer<'de>>::Error;

    fn deserialize_any<V: Visitor<'de>>(
        self,
        visitor: V,
    ) -> Result<V::Value, <P as Deserializer<'de>>::Error> {
        // A payload answers every request with its map.
        self.payload.deserialize_any(HeadVisitor {
            head: Some(self.head),
            key: self.key,
            visitor,
        })
    }

    fn is_human_readable(&self) -> bool {
        self.payload.is_human_readable()
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

impl<'de, P: Payload<'de>> VariantAccess<'de> for HeadFirst<'de, '_, P> {
    type Error = <P as Deserializer<'de>>::Error;

    fn unit_variant(self) -> Result<(), <P as Deserializer<'de>>::Error> {
        self.payload.unit_variant()
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(
        self,
        seed: T,
    ) -> Result<T::Value, <P as Deserializer<'de>>::Error> {
        seed.deserialize(self)
    }

    fn tuple_variant<V: Visitor<'de>>(
        self,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, <P as Deserializer<'de>>::Error> {
        self.deserialize_any(visitor)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, <P as Deserializer<'de>>::Error> {
        self.deserialize_any(visitor)
    }
}

struct HeadVisitor<'de, 's, V> {
    head: Option<HeadValue<'de>>,
    key: &'s str,
    visitor: V,
}

impl<'de, V: Visitor<'de>> Visitor<'de> for HeadVisitor<'de, '_, V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.visitor.expecting(f)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        self.visitor.visit_map(HeadMap {
            head: self.head,
            in_head: false,
            key: self.key,
            map,
        })
    }
}

struct HeadMap<'de, 's, A> {
    head: Option<HeadValue<'de>>,
    in_head: bool,
    key: &'s str,
    map: A,
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for HeadMap<'de, '_, A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        if self.head.is_some() && !self.in_head {
            self.in_head = true;
            let key = de::value::StrDeserializer::<A::Error>::new(self.key);
            return seed.deserialize(key).map(Some);
        }
        self.map.next_key_seed(seed)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        if self.in_head {
            if let Some(head) = self.head.take() {
                return match head {
                    HeadValue::Str(v) => {
                        seed.deserialize(de::value::BorrowedStrDeserializer::new(v))
                    }
                    HeadValue::U64(v) => seed.deserialize(de::value::U64Deserializer::new(v)),
                    HeadValue::I64(v) => seed.deserialize(de::value::I64Deserializer::new(v)),
                    HeadValue::Bool(v) => seed.deserialize(de::value::BoolDeserializer::new(v)),
                };
            }
        }
        self.map.next_value_seed(seed)
    }

    fn size_hint(&self) -> Option<usize> {
        self.map.size_hint()
    }
}
