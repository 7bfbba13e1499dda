//! `Request`: which `deserialize_*` method a reader called, run on the
//! format's deserializer.

use serde::de::{DeserializeSeed, Deserializer};

use super::visitor::{ErasedVisitor, Wrap};

/// Which `deserialize_*` method a reader called, with its arguments. The
/// registered type's side asks for a value with a request; the format's
/// side runs it on the real deserializer. One crossing per value, instead of
/// one to hand over a deserializer and another to learn what it is asked.
///
/// Handed across by reference: by value, its five words are passed by
/// pointer to a copy the caller has just written (often only the one byte
/// of its variant), which the callee copies again with 16-byte loads, each
/// waiting for the stores it reads (a store-forwarding stall,
/// PERFORMANCE.md). A request without arguments is then a constant.
#[derive(Clone, Copy)]
pub enum Request {
    Any,
    Bool,
    I8,
    I16,
    I32,
    I64,
    I128,
    U8,
    U16,
    U32,
    U64,
    U128,
    F32,
    F64,
    Char,
    Str,
    String,
    Bytes,
    ByteBuf,
    Option,
    Unit,
    Seq,
    Map,
    Identifier,
    IgnoredAny,
    UnitStruct(&'static str),
    NewtypeStruct(&'static str),
    Tuple(usize),
    TupleStruct(&'static str, usize),
    Struct(&'static str, &'static [&'static str]),
    Enum(&'static str, &'static [&'static str]),
}

/// Runs `request` on the format's deserializer.
#[inline]
pub(super) fn run<'de, D: Deserializer<'de>>(
    d: D,
    request: &Request,
    visitor: &mut dyn ErasedVisitor<'de>,
) -> Result<(), D::Error> {
    let v = Wrap(visitor);
    match *request {
        Request::Any => d.deserialize_any(v),
        Request::Bool => d.deserialize_bool(v),
        Request::I8 => d.deserialize_i8(v),
        Request::I16 => d.deserialize_i16(v),
        Request::I32 => d.deserialize_i32(v),
        Request::I64 => d.deserialize_i64(v),
        Request::I128 => d.deserialize_i128(v),
        Request::U8 => d.deserialize_u8(v),
        Request::U16 => d.deserialize_u16(v),
        Request::U32 => d.deserialize_u32(v),
        Request::U64 => d.deserialize_u64(v),
        Request::U128 => d.deserialize_u128(v),
        Request::F32 => d.deserialize_f32(v),
        Request::F64 => d.deserialize_f64(v),
        Request::Char => d.deserialize_char(v),
        Request::Str => d.deserialize_str(v),
        Request::String => d.deserialize_string(v),
        Request::Bytes => d.deserialize_bytes(v),
        Request::ByteBuf => d.deserialize_byte_buf(v),
        Request::Option => d.deserialize_option(v),
        Request::Unit => d.deserialize_unit(v),
        Request::Seq => d.deserialize_seq(v),
        Request::Map => d.deserialize_map(v),
        Request::Identifier => d.deserialize_identifier(v),
        Request::IgnoredAny => d.deserialize_ignored_any(v),
        Request::UnitStruct(name) => d.deserialize_unit_struct(name, v),
        Request::NewtypeStruct(name) => d.deserialize_newtype_struct(name, v),
        Request::Tuple(len) => d.deserialize_tuple(len, v),
        Request::TupleStruct(name, len) => d.deserialize_tuple_struct(name, len, v),
        Request::Struct(name, fields) => d.deserialize_struct(name, fields, v),
        Request::Enum(name, variants) => d.deserialize_enum(name, variants, v),
    }
}

/// A seed on the format's side that runs a request.
pub(super) struct RequestSeed<'a, 'de> {
    pub(super) request: &'a Request,
    pub(super) visitor: &'a mut dyn ErasedVisitor<'de>,
}

impl<'de> DeserializeSeed<'de> for RequestSeed<'_, 'de> {
    type Value = ();

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        run(d, self.request, self.visitor)
    }
}
