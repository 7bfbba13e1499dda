//! The erased visitor: `ErasedVisitor`, the registered type's visitor and
//! the value it builds (`VisitorCell`), and the format's side that forwards
//! each visit to it (`Wrap`, `IdentWrap`).

use core::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess, Visitor};

use super::access::{ErasedMap, ErasedMapAccess, ErasedSeq, ErasedSeqAccess};
use super::deserializer::{whole, ErasedDeserializer};
use super::enums::{EnumSlot, ErasedEnum, ErasedEnumAccess};
use super::error::{unerase, used, Error};
use super::unwrap;

/// A `visit_*` call and its argument, for every visit but the frequent
/// scalars (which have methods of their own, below). They cross as one enum
/// so that each reader's visitor compiles one method with a `match` for
/// them, instead of one method each with its own prologue and error path:
/// those were most of the code a registered type cost where it is
/// registered. The frequent ones keep their own methods because a shared
/// body costs every call its dispatch and the largest arm's prologue
/// (about a tenth more instructions for a struct read from CBOR).
pub enum Visit<'a, 'de> {
    I8(i8),
    I16(i16),
    I32(i32),
    I128(i128),
    U8(u8),
    U16(u16),
    U32(u32),
    U128(u128),
    F32(f32),
    Char(char),
    Bytes(&'a [u8]),
    BorrowedBytes(&'de [u8]),
    /// Lent and taken (leaving it empty): a `Visit` has no drop glue, so
    /// no path through the reader's `match` keeps drop flags.
    ByteBuf(&'a mut Vec<u8>),
    None,
    Unit,
    Some(&'a mut dyn ErasedDeserializer<'de>),
    NewtypeStruct(&'a mut dyn ErasedDeserializer<'de>),
    Seq(&'a mut dyn ErasedSeqAccess<'de>),
    Map(&'a mut dyn ErasedMapAccess<'de>),
    Enum(&'a mut dyn ErasedEnumAccess<'de>),
}

/// An object-safe `Visitor`; the value it builds stays on its side.
pub trait ErasedVisitor<'de> {
    fn erased_expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result;
    fn erased_visit_bool(&mut self, v: bool) -> Result<(), Error>;
    fn erased_visit_i64(&mut self, v: i64) -> Result<(), Error>;
    fn erased_visit_u64(&mut self, v: u64) -> Result<(), Error>;
    fn erased_visit_f64(&mut self, v: f64) -> Result<(), Error>;
    fn erased_visit_str(&mut self, v: &str) -> Result<(), Error>;
    fn erased_visit_borrowed_str(&mut self, v: &'de str) -> Result<(), Error>;
    /// Lent and taken, as `Visit::ByteBuf`.
    fn erased_visit_string(&mut self, v: &mut String) -> Result<(), Error>;
    fn erased_visit(&mut self, v: Visit<'_, 'de>) -> Result<(), Error>;
}

/// The registered type's visitor (or seed) and, once it has run, its value.
pub(super) struct VisitorCell<T, O> {
    pub(super) inner: Option<T>,
    out: Option<O>,
    /// Handed on to the deserializers and accesses the visitor is given.
    human_readable: bool,
}

impl<T, O> VisitorCell<T, O> {
    #[inline]
    pub(super) fn new(inner: T, human_readable: bool) -> Self {
        VisitorCell {
            inner: Some(inner),
            out: None,
            human_readable,
        }
    }

    #[inline]
    pub(super) fn out(self) -> Result<O, Error> {
        match self.out {
            Some(out) => Ok(out),
            None => Err(used()),
        }
    }

    /// Keeps the visitor's value: the one error path of every visit.
    #[inline]
    fn put(&mut self, out: Result<O, Error>) -> Result<(), Error> {
        match out {
            Ok(out) => {
                self.out = Some(out);
                Ok(())
            }
            Err(e) => Err(e),
        }
    }
}

macro_rules! visit_scalars {
    ($($erased:ident $visit:ident $ty:ty,)*) => {
        $(
            fn $erased(&mut self, v: $ty) -> Result<(), Error> {
                match self.inner.take() {
                    Some(visitor) => self.put(visitor.$visit(v)),
                    None => Err(used()),
                }
            }
        )*
    };
}

impl<'de, V: Visitor<'de>> ErasedVisitor<'de> for VisitorCell<V, V::Value> {
    fn erased_expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.inner {
            Some(visitor) => visitor.expecting(f),
            None => f.write_str("a value"),
        }
    }

    visit_scalars! {
        erased_visit_bool visit_bool bool,
        erased_visit_i64 visit_i64 i64,
        erased_visit_u64 visit_u64 u64,
        erased_visit_f64 visit_f64 f64,
        erased_visit_str visit_str &str,
        erased_visit_borrowed_str visit_borrowed_str &'de str,
    }

    fn erased_visit_string(&mut self, v: &mut String) -> Result<(), Error> {
        match self.inner.take() {
            Some(visitor) => self.put(visitor.visit_string(core::mem::take(v))),
            None => Err(used()),
        }
    }

    fn erased_visit(&mut self, v: Visit<'_, 'de>) -> Result<(), Error> {
        let Some(visitor) = self.inner.take() else {
            return Err(used());
        };
        let hr = self.human_readable;
        self.put(match v {
            Visit::I8(v) => visitor.visit_i8(v),
            Visit::I16(v) => visitor.visit_i16(v),
            Visit::I32(v) => visitor.visit_i32(v),
            Visit::I128(v) => visitor.visit_i128(v),
            Visit::U8(v) => visitor.visit_u8(v),
            Visit::U16(v) => visitor.visit_u16(v),
            Visit::U32(v) => visitor.visit_u32(v),
            Visit::U128(v) => visitor.visit_u128(v),
            Visit::F32(v) => visitor.visit_f32(v),
            Visit::Char(v) => visitor.visit_char(v),
            Visit::Bytes(v) => visitor.visit_bytes(v),
            Visit::BorrowedBytes(v) => visitor.visit_borrowed_bytes(v),
            Visit::ByteBuf(v) => visitor.visit_byte_buf(core::mem::take(v)),
            Visit::None => visitor.visit_none(),
            Visit::Unit => visitor.visit_unit(),
            Visit::Some(d) => visitor.visit_some(whole(d, hr)),
            Visit::NewtypeStruct(d) => visitor.visit_newtype_struct(whole(d, hr)),
            Visit::Seq(seq) => visitor.visit_seq(ErasedSeq::new(seq, hr)),
            // A struct's map, the usual payload, keeps its value out of
            // the arms' shared result, which is written in pieces of other
            // widths than `put` reads it with: a load the processor cannot
            // forward from the stores just before it.
            Visit::Map(map) => return self.put(visitor.visit_map(ErasedMap::new(map, hr))),
            Visit::Enum(data) => visitor.visit_enum(ErasedEnum::new(data, hr)),
        })
    }
}

/// The body of a format-side visitor: every visit is forwarded to the
/// reader's erased visitor at once, and `$done` is the result. Only
/// `visit_borrowed_str` differs between the two visitors below.
macro_rules! forward_visits {
    ($done:expr) => {
        forward_visits! {
            @direct $done;
            visit_bool erased_visit_bool bool,
            visit_i64 erased_visit_i64 i64,
            visit_u64 erased_visit_u64 u64,
            visit_f64 erased_visit_f64 f64,
            visit_str erased_visit_str &str,
        }

        forward_visits! {
            @enum $done;
            visit_i8 I8 i8,
            visit_i16 I16 i16,
            visit_i32 I32 i32,
            visit_i128 I128 i128,
            visit_u8 U8 u8,
            visit_u16 U16 u16,
            visit_u32 U32 u32,
            visit_u128 U128 u128,
            visit_f32 F32 f32,
            visit_char Char char,
            visit_bytes Bytes &[u8],
            visit_borrowed_bytes BorrowedBytes &'de [u8],
        }

        #[inline]
        fn visit_string<E: de::Error>(self, mut v: String) -> Result<Self::Value, E> {
            self.0.erased_visit_string(&mut v).map_err(unerase)?;
            Ok($done)
        }

        #[inline]
        fn visit_byte_buf<E: de::Error>(self, mut v: Vec<u8>) -> Result<Self::Value, E> {
            self.0.erased_visit(Visit::ByteBuf(&mut v)).map_err(unerase)?;
            Ok($done)
        }

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            self.0.erased_expecting(f)
        }

        #[inline]
        fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
            self.0.erased_visit(Visit::None).map_err(unerase)?;
            Ok($done)
        }

        #[inline]
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            self.0.erased_visit(Visit::Unit).map_err(unerase)?;
            Ok($done)
        }

        // The accesses below are handed on unwrapped when they are our own
        // (see `unwrap`), so nested trait objects add no layer per level.
        #[inline]
        fn visit_some<D: Deserializer<'de>>(self, mut d: D) -> Result<Self::Value, D::Error> {
            let visit = match unwrap::whole(&mut d) {
                Some(inner) => self.0.erased_visit(Visit::Some(inner)),
                None => self.0.erased_visit(Visit::Some(&mut Some(d))),
            };
            visit.map_err(unerase)?;
            Ok($done)
        }

        #[inline]
        fn visit_newtype_struct<D: Deserializer<'de>>(
            self,
            mut d: D,
        ) -> Result<Self::Value, D::Error> {
            let visit = match unwrap::whole(&mut d) {
                Some(inner) => self.0.erased_visit(Visit::NewtypeStruct(inner)),
                None => self.0.erased_visit(Visit::NewtypeStruct(&mut Some(d))),
            };
            visit.map_err(unerase)?;
            Ok($done)
        }

        #[inline]
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            let visit = match unwrap::seq(&mut seq) {
                Some(inner) => Visit::Seq(inner),
                None => Visit::Seq(&mut seq),
            };
            self.0.erased_visit(visit).map_err(unerase)?;
            Ok($done)
        }

        #[inline]
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let visit = match unwrap::map(&mut map) {
                Some(inner) => Visit::Map(inner),
                None => Visit::Map(&mut map),
            };
            self.0.erased_visit(visit).map_err(unerase)?;
            Ok($done)
        }

        #[inline]
        fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<Self::Value, A::Error> {
            let mut data = EnumSlot {
                access: Some(data),
                variant: None,
            };
            self.0.erased_visit(Visit::Enum(&mut data)).map_err(unerase)?;
            Ok($done)
        }
    };
    (@direct $done:expr; $($visit:ident $erased:ident $ty:ty,)*) => {
        $(
            #[inline]
            fn $visit<E: de::Error>(self, v: $ty) -> Result<Self::Value, E> {
                self.0.$erased(v).map_err(unerase)?;
                Ok($done)
            }
        )*
    };
    (@enum $done:expr; $($visit:ident $kind:ident $ty:ty,)*) => {
        $(
            #[inline]
            fn $visit<E: de::Error>(self, v: $ty) -> Result<Self::Value, E> {
                self.0.erased_visit(Visit::$kind(v)).map_err(unerase)?;
                Ok($done)
            }
        )*
    };
}

/// The format's side of a visitor: forwards each visit to the erased one.
pub(super) struct Wrap<'a, 'de>(pub(super) &'a mut dyn ErasedVisitor<'de>);

impl<'de> Visitor<'de> for Wrap<'_, 'de> {
    type Value = ();

    #[inline]
    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<(), E> {
        self.0.erased_visit_borrowed_str(v).map_err(unerase)
    }

    forward_visits!(());
}

/// A key read as an identifier on the format's side.
pub(super) struct IdentSeed<'a, 'de>(pub(super) &'a mut dyn ErasedVisitor<'de>);

impl<'de> DeserializeSeed<'de> for IdentSeed<'_, 'de> {
    type Value = Option<&'de str>;

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Option<&'de str>, D::Error> {
        d.deserialize_identifier(IdentWrap(self.0))
    }
}

/// The format's side of an identifier visitor: a borrowed name goes back as
/// the result (`Some`); anything else is forwarded to the reader's visitor
/// at once (`None`). Only names come here, so the result stays small.
struct IdentWrap<'a, 'de>(&'a mut dyn ErasedVisitor<'de>);

impl<'de> Visitor<'de> for IdentWrap<'_, 'de> {
    type Value = Option<&'de str>;

    #[inline]
    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Option<&'de str>, E> {
        Ok(Some(v))
    }

    forward_visits!(None);
}
