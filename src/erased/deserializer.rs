//! The erased deserializer: `ErasedDeserializer` on the format's side and
//! `Crossing`, the serde `Deserializer` on the registered type's side whose
//! every request crosses once, to its `Source`.

use serde::de::{Deserializer, Visitor};

use super::error::{erase, take, used, Error};
use super::request::{run, Request};
use super::visitor::{ErasedVisitor, VisitorCell};

/// An object-safe `Deserializer`.
pub trait ErasedDeserializer<'de> {
    fn erased_deserialize(
        &mut self,
        request: &Request,
        visitor: &mut dyn ErasedVisitor<'de>,
    ) -> Result<(), Error>;
    fn erased_is_human_readable(&self) -> bool;
}

/// The format's side: a real deserializer, used once.
impl<'de, D: Deserializer<'de>> ErasedDeserializer<'de> for Option<D> {
    fn erased_deserialize(
        &mut self,
        request: &Request,
        visitor: &mut dyn ErasedVisitor<'de>,
    ) -> Result<(), Error> {
        run(take!(self), request, visitor).map_err(erase)
    }

    fn erased_is_human_readable(&self) -> bool {
        self.as_ref().map_or(true, |d| d.is_human_readable())
    }
}

/// Where a probe's request goes: a whole deserializer, the next key or
/// value of a map, the next element of a sequence, or an enum's parts.
pub(super) trait Source<'de> {
    fn fetch(
        &mut self,
        request: &Request,
        visitor: &mut dyn ErasedVisitor<'de>,
    ) -> Result<(), Error>;

    /// `deserialize_identifier`; a borrowed name may come back as the result
    /// instead of being visited on the far side (see `IdentWrap`).
    #[inline]
    fn fetch_identifier(
        &mut self,
        visitor: &mut dyn ErasedVisitor<'de>,
    ) -> Result<Option<&'de str>, Error> {
        self.fetch(&Request::Identifier, visitor).map(|()| None)
    }
}

/// The registered type's side: a serde `Deserializer` whose every request
/// crosses once, to its source.
pub(super) struct Crossing<S> {
    source: S,
    human_readable: bool,
}

impl<S> Crossing<S> {
    #[inline]
    pub(super) fn new(source: S, human_readable: bool) -> Self {
        Crossing {
            source,
            human_readable,
        }
    }

    #[inline]
    pub(super) fn source_mut(&mut self) -> &mut S {
        &mut self.source
    }
}

macro_rules! probe_requests {
    ($($method:ident $request:ident)*) => {
        $(
            #[inline]
            fn $method<V: Visitor<'de>>(mut self, visitor: V) -> Result<V::Value, Error> {
                let mut slot = VisitorCell::new(visitor, self.human_readable);
                match self.source.fetch(&Request::$request, &mut slot) {
                    Ok(()) => slot.out(),
                    Err(e) => Err(e),
                }
            }
        )*
    };
}

macro_rules! probe_request_with {
    ($method:ident ($($arg:ident: $ty:ty),*) $request:ident) => {
        #[inline]
        fn $method<V: Visitor<'de>>(mut self, $($arg: $ty,)* visitor: V) -> Result<V::Value, Error> {
            let mut slot = VisitorCell::new(visitor, self.human_readable);
            match self.source.fetch(&Request::$request($($arg),*), &mut slot) {
                Ok(()) => slot.out(),
                Err(e) => Err(e),
            }
        }
    };
}

impl<'de, S: Source<'de>> Deserializer<'de> for Crossing<S> {
    type Error = Error;

    probe_requests! {
        deserialize_any Any
        deserialize_bool Bool
        deserialize_i8 I8
        deserialize_i16 I16
        deserialize_i32 I32
        deserialize_i64 I64
        deserialize_i128 I128
        deserialize_u8 U8
        deserialize_u16 U16
        deserialize_u32 U32
        deserialize_u64 U64
        deserialize_u128 U128
        deserialize_f32 F32
        deserialize_f64 F64
        deserialize_char Char
        deserialize_str Str
        deserialize_string String
        deserialize_bytes Bytes
        deserialize_byte_buf ByteBuf
        deserialize_option Option
        deserialize_unit Unit
        deserialize_seq Seq
        deserialize_map Map
        deserialize_ignored_any IgnoredAny
    }

    #[inline]
    fn deserialize_identifier<V: Visitor<'de>>(mut self, visitor: V) -> Result<V::Value, Error> {
        let mut slot = VisitorCell::new(visitor, self.human_readable);
        match self.source.fetch_identifier(&mut slot) {
            Ok(None) => slot.out(),
            Ok(Some(name)) => match slot.inner.take() {
                Some(visitor) => visitor.visit_borrowed_str(name),
                None => Err(used()),
            },
            Err(e) => Err(e),
        }
    }

    probe_request_with!(deserialize_unit_struct(name: &'static str) UnitStruct);
    probe_request_with!(deserialize_newtype_struct(name: &'static str) NewtypeStruct);
    probe_request_with!(deserialize_tuple(len: usize) Tuple);
    probe_request_with!(deserialize_tuple_struct(name: &'static str, len: usize) TupleStruct);
    probe_request_with!(
        deserialize_struct(name: &'static str, fields: &'static [&'static str]) Struct
    );
    probe_request_with!(deserialize_enum(name: &'static str, variants: &'static [&'static str]) Enum);

    fn is_human_readable(&self) -> bool {
        self.human_readable
    }
}

/// A whole erased deserializer as a source.
pub(super) struct Whole<'a, 'de>(&'a mut dyn ErasedDeserializer<'de>);

impl<'de> Whole<'_, 'de> {
    /// The deserializer it reads from.
    #[inline]
    pub(super) fn inner(&mut self) -> &mut dyn ErasedDeserializer<'de> {
        &mut *self.0
    }
}

impl<'de> Source<'de> for Whole<'_, 'de> {
    #[inline]
    fn fetch(
        &mut self,
        request: &Request,
        visitor: &mut dyn ErasedVisitor<'de>,
    ) -> Result<(), Error> {
        self.0.erased_deserialize(request, visitor)
    }
}

/// A probe over a whole erased deserializer.
#[inline]
pub(super) fn whole<'a, 'de>(
    d: &'a mut dyn ErasedDeserializer<'de>,
    human_readable: bool,
) -> Crossing<Whole<'a, 'de>> {
    Crossing::new(Whole(d), human_readable)
}
