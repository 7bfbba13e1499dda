//! `Requested`: a tag read with the one request its kinds allow.

use serde::de::{Deserializer, Visitor};

use super::TagRequest;

/// A tag's deserializer that answers a request for any value with the one
/// `request` says: the readers of the tables ask for any value, which a
/// format that does not describe itself cannot answer.
pub(crate) struct Requested<D> {
    pub(crate) deserializer: D,
    pub(crate) request: TagRequest,
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Requested<D> {
    type Error = D::Error;

    #[inline]
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        let d = self.deserializer;
        match self.request {
            TagRequest::Str => d.deserialize_str(visitor),
            TagRequest::U64 => d.deserialize_u64(visitor),
            TagRequest::I64 => d.deserialize_i64(visitor),
            TagRequest::Bool => d.deserialize_bool(visitor),
            TagRequest::Any => d.deserialize_any(visitor),
        }
    }

    fn is_human_readable(&self) -> bool {
        self.deserializer.is_human_readable()
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}
