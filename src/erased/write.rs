//! Writing: the registered type's `Serialize` into the caller's serializer.
//!
//! `ErasedSerialize` is implemented for every `Serialize` type: it hands
//! the value a `Writer`, a serde serializer whose every call crosses once,
//! through the object-safe `ErasedSerializer`, to a `State` that holds the
//! real serializer (or the compound it has opened) on the caller's side.
//! Nested values cross as `&dyn ErasedSerialize` and are written by a fresh
//! `State` over the serializer the compound hands out, so a `dyn` value
//! inside a payload writes straight to the real serializer again.

use serde::ser::{
    self, Serialize, SerializeMap, SerializeSeq, SerializeStruct, SerializeStructVariant,
    SerializeTuple, SerializeTupleStruct, SerializeTupleVariant, Serializer,
};

use super::Error;

/// An object-safe `Serialize`.
pub trait ErasedSerialize {
    fn erased_serialize(&self, serializer: &mut dyn ErasedSerializer) -> Result<(), Error>;
}

impl<T: ?Sized + Serialize> ErasedSerialize for T {
    fn erased_serialize(&self, serializer: &mut dyn ErasedSerializer) -> Result<(), Error> {
        self.serialize(Writer { out: serializer })
    }
}

/// Writes an erased value into `serializer`.
#[inline]
pub fn serialize<S: Serializer>(
    value: &dyn ErasedSerialize,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    let mut state = State::Ready(serializer);
    let out = value.erased_serialize(&mut state);
    state.finish(out)
}

/// An erased value as a serde value, for a compound's fields.
struct Dyn<'a>(&'a dyn ErasedSerialize);

impl Serialize for Dyn<'_> {
    #[inline]
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serialize(self.0, serializer)
    }
}

/// An object-safe `Serializer` together with the compound it has opened.
pub trait ErasedSerializer {
    fn erased_bool(&mut self, v: bool) -> Result<(), Error>;
    fn erased_i8(&mut self, v: i8) -> Result<(), Error>;
    fn erased_i16(&mut self, v: i16) -> Result<(), Error>;
    fn erased_i32(&mut self, v: i32) -> Result<(), Error>;
    fn erased_i64(&mut self, v: i64) -> Result<(), Error>;
    fn erased_i128(&mut self, v: i128) -> Result<(), Error>;
    fn erased_u8(&mut self, v: u8) -> Result<(), Error>;
    fn erased_u16(&mut self, v: u16) -> Result<(), Error>;
    fn erased_u32(&mut self, v: u32) -> Result<(), Error>;
    fn erased_u64(&mut self, v: u64) -> Result<(), Error>;
    fn erased_u128(&mut self, v: u128) -> Result<(), Error>;
    fn erased_f32(&mut self, v: f32) -> Result<(), Error>;
    fn erased_f64(&mut self, v: f64) -> Result<(), Error>;
    fn erased_char(&mut self, v: char) -> Result<(), Error>;
    fn erased_str(&mut self, v: &str) -> Result<(), Error>;
    fn erased_bytes(&mut self, v: &[u8]) -> Result<(), Error>;
    fn erased_none(&mut self) -> Result<(), Error>;
    fn erased_some(&mut self, v: &dyn ErasedSerialize) -> Result<(), Error>;
    fn erased_unit(&mut self) -> Result<(), Error>;
    fn erased_unit_struct(&mut self, name: &'static str) -> Result<(), Error>;
    fn erased_unit_variant(
        &mut self,
        name: &'static str,
        index: u32,
        variant: &'static str,
    ) -> Result<(), Error>;
    fn erased_newtype_struct(
        &mut self,
        name: &'static str,
        v: &dyn ErasedSerialize,
    ) -> Result<(), Error>;
    fn erased_newtype_variant(
        &mut self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        v: &dyn ErasedSerialize,
    ) -> Result<(), Error>;
    fn erased_seq(&mut self, len: Option<usize>) -> Result<(), Error>;
    fn erased_tuple(&mut self, len: usize) -> Result<(), Error>;
    fn erased_tuple_struct(&mut self, name: &'static str, len: usize) -> Result<(), Error>;
    fn erased_tuple_variant(
        &mut self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<(), Error>;
    fn erased_map(&mut self, len: Option<usize>) -> Result<(), Error>;
    fn erased_struct(&mut self, name: &'static str, len: usize) -> Result<(), Error>;
    fn erased_struct_variant(
        &mut self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<(), Error>;
    /// An element of a sequence or tuple, a field of a tuple struct or
    /// tuple variant.
    fn erased_element(&mut self, v: &dyn ErasedSerialize) -> Result<(), Error>;
    fn erased_key(&mut self, k: &dyn ErasedSerialize) -> Result<(), Error>;
    fn erased_value(&mut self, v: &dyn ErasedSerialize) -> Result<(), Error>;
    fn erased_entry(
        &mut self,
        k: &dyn ErasedSerialize,
        v: &dyn ErasedSerialize,
    ) -> Result<(), Error>;
    /// A field of a struct or struct variant.
    fn erased_field(&mut self, key: &'static str, v: &dyn ErasedSerialize) -> Result<(), Error>;
    fn erased_skip_field(&mut self, key: &'static str) -> Result<(), Error>;
    fn erased_end(&mut self) -> Result<(), Error>;
    fn erased_is_human_readable(&self) -> bool;
}

/// The caller's side: the real serializer, then what it has opened, then
/// its result or its own error (handed back as it was).
enum State<S: Serializer> {
    Ready(S),
    Seq(S::SerializeSeq),
    Tuple(S::SerializeTuple),
    TupleStruct(S::SerializeTupleStruct),
    TupleVariant(S::SerializeTupleVariant),
    Map(S::SerializeMap),
    Struct(S::SerializeStruct),
    StructVariant(S::SerializeStructVariant),
    Done(S::Ok),
    Failed(S::Error),
    Used,
}

impl<S: Serializer> State<S> {
    #[inline]
    fn ready(&mut self) -> Result<S, Error> {
        match core::mem::replace(self, State::Used) {
            State::Ready(s) => Ok(s),
            _ => Err(super::used()),
        }
    }

    /// Keeps a finished write's result; a failure's error stays here and
    /// only a marker crosses back.
    #[inline]
    fn done(&mut self, out: Result<S::Ok, S::Error>) -> Result<(), Error> {
        match out {
            Ok(ok) => {
                *self = State::Done(ok);
                Ok(())
            }
            Err(e) => Err(self.fail(e)),
        }
    }

    /// Moves into a compound state.
    #[inline]
    fn open<C>(&mut self, out: Result<C, S::Error>, state: fn(C) -> Self) -> Result<(), Error> {
        match out {
            Ok(compound) => {
                *self = state(compound);
                Ok(())
            }
            Err(e) => Err(self.fail(e)),
        }
    }

    /// A step inside a compound.
    #[inline]
    fn step(&mut self, out: Result<(), S::Error>) -> Result<(), Error> {
        out.map_err(|e| self.fail(e))
    }

    #[cold]
    fn fail(&mut self, e: S::Error) -> Error {
        *self = State::Failed(e);
        Error::marker()
    }

    /// The write's result: the serializer's own error when it failed, else
    /// the value's error.
    #[inline]
    fn finish(self, out: Result<(), Error>) -> Result<S::Ok, S::Error> {
        match (self, out) {
            (State::Done(ok), Ok(())) => Ok(ok),
            (State::Failed(e), _) => Err(e),
            (_, Err(e)) => Err(ser::Error::custom(e)),
            (_, Ok(())) => Err(ser::Error::custom(
                "a type-erased value wrote nothing or left a compound open",
            )),
        }
    }
}

macro_rules! scalars {
    ($($erased:ident $method:ident $ty:ty,)*) => {
        $(
            fn $erased(&mut self, v: $ty) -> Result<(), Error> {
                let s = self.ready()?;
                self.done(s.$method(v))
            }
        )*
    };
}

impl<S: Serializer> ErasedSerializer for State<S> {
    scalars! {
        erased_bool serialize_bool bool,
        erased_i8 serialize_i8 i8,
        erased_i16 serialize_i16 i16,
        erased_i32 serialize_i32 i32,
        erased_i64 serialize_i64 i64,
        erased_i128 serialize_i128 i128,
        erased_u8 serialize_u8 u8,
        erased_u16 serialize_u16 u16,
        erased_u32 serialize_u32 u32,
        erased_u64 serialize_u64 u64,
        erased_u128 serialize_u128 u128,
        erased_f32 serialize_f32 f32,
        erased_f64 serialize_f64 f64,
        erased_char serialize_char char,
        erased_str serialize_str &str,
        erased_bytes serialize_bytes &[u8],
    }

    fn erased_none(&mut self) -> Result<(), Error> {
        let s = self.ready()?;
        self.done(s.serialize_none())
    }

    fn erased_some(&mut self, v: &dyn ErasedSerialize) -> Result<(), Error> {
        let s = self.ready()?;
        self.done(s.serialize_some(&Dyn(v)))
    }

    fn erased_unit(&mut self) -> Result<(), Error> {
        let s = self.ready()?;
        self.done(s.serialize_unit())
    }

    fn erased_unit_struct(&mut self, name: &'static str) -> Result<(), Error> {
        let s = self.ready()?;
        self.done(s.serialize_unit_struct(name))
    }

    fn erased_unit_variant(
        &mut self,
        name: &'static str,
        index: u32,
        variant: &'static str,
    ) -> Result<(), Error> {
        let s = self.ready()?;
        self.done(s.serialize_unit_variant(name, index, variant))
    }

    fn erased_newtype_struct(
        &mut self,
        name: &'static str,
        v: &dyn ErasedSerialize,
    ) -> Result<(), Error> {
        let s = self.ready()?;
        self.done(s.serialize_newtype_struct(name, &Dyn(v)))
    }

    fn erased_newtype_variant(
        &mut self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        v: &dyn ErasedSerialize,
    ) -> Result<(), Error> {
        let s = self.ready()?;
        self.done(s.serialize_newtype_variant(name, index, variant, &Dyn(v)))
    }

    fn erased_seq(&mut self, len: Option<usize>) -> Result<(), Error> {
        let s = self.ready()?;
        self.open(s.serialize_seq(len), State::Seq)
    }

    fn erased_tuple(&mut self, len: usize) -> Result<(), Error> {
        let s = self.ready()?;
        self.open(s.serialize_tuple(len), State::Tuple)
    }

    fn erased_tuple_struct(&mut self, name: &'static str, len: usize) -> Result<(), Error> {
        let s = self.ready()?;
        self.open(s.serialize_tuple_struct(name, len), State::TupleStruct)
    }

    fn erased_tuple_variant(
        &mut self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<(), Error> {
        let s = self.ready()?;
        self.open(
            s.serialize_tuple_variant(name, index, variant, len),
            State::TupleVariant,
        )
    }

    fn erased_map(&mut self, len: Option<usize>) -> Result<(), Error> {
        let s = self.ready()?;
        self.open(s.serialize_map(len), State::Map)
    }

    fn erased_struct(&mut self, name: &'static str, len: usize) -> Result<(), Error> {
        let s = self.ready()?;
        self.open(s.serialize_struct(name, len), State::Struct)
    }

    fn erased_struct_variant(
        &mut self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<(), Error> {
        let s = self.ready()?;
        self.open(
            s.serialize_struct_variant(name, index, variant, len),
            State::StructVariant,
        )
    }

    fn erased_element(&mut self, v: &dyn ErasedSerialize) -> Result<(), Error> {
        let out = match self {
            State::Seq(seq) => seq.serialize_element(&Dyn(v)),
            State::Tuple(tuple) => tuple.serialize_element(&Dyn(v)),
            State::TupleStruct(tuple) => tuple.serialize_field(&Dyn(v)),
            State::TupleVariant(tuple) => tuple.serialize_field(&Dyn(v)),
            _ => return Err(super::used()),
        };
        self.step(out)
    }

    fn erased_key(&mut self, k: &dyn ErasedSerialize) -> Result<(), Error> {
        let out = match self {
            State::Map(map) => map.serialize_key(&Dyn(k)),
            _ => return Err(super::used()),
        };
        self.step(out)
    }

    fn erased_value(&mut self, v: &dyn ErasedSerialize) -> Result<(), Error> {
        let out = match self {
            State::Map(map) => map.serialize_value(&Dyn(v)),
            _ => return Err(super::used()),
        };
        self.step(out)
    }

    fn erased_entry(
        &mut self,
        k: &dyn ErasedSerialize,
        v: &dyn ErasedSerialize,
    ) -> Result<(), Error> {
        let out = match self {
            State::Map(map) => map.serialize_entry(&Dyn(k), &Dyn(v)),
            _ => return Err(super::used()),
        };
        self.step(out)
    }

    fn erased_field(&mut self, key: &'static str, v: &dyn ErasedSerialize) -> Result<(), Error> {
        let out = match self {
            State::Struct(st) => st.serialize_field(key, &Dyn(v)),
            State::StructVariant(st) => st.serialize_field(key, &Dyn(v)),
            _ => return Err(super::used()),
        };
        self.step(out)
    }

    fn erased_skip_field(&mut self, key: &'static str) -> Result<(), Error> {
        let out = match self {
            State::Struct(st) => st.skip_field(key),
            State::StructVariant(st) => st.skip_field(key),
            _ => return Err(super::used()),
        };
        self.step(out)
    }

    fn erased_end(&mut self) -> Result<(), Error> {
        let out = match core::mem::replace(self, State::Used) {
            State::Seq(c) => c.end(),
            State::Tuple(c) => c.end(),
            State::TupleStruct(c) => c.end(),
            State::TupleVariant(c) => c.end(),
            State::Map(c) => c.end(),
            State::Struct(c) => c.end(),
            State::StructVariant(c) => c.end(),
            _ => return Err(super::used()),
        };
        self.done(out)
    }

    fn erased_is_human_readable(&self) -> bool {
        match self {
            State::Ready(s) => s.is_human_readable(),
            _ => true,
        }
    }
}

/// The registered type's side: a serde `Serializer` whose every call
/// crosses once. It is its own compound: the compound's state lives on the
/// caller's side.
struct Writer<'a> {
    out: &'a mut dyn ErasedSerializer,
}

macro_rules! write_scalars {
    ($($method:ident $erased:ident $ty:ty,)*) => {
        $(
            #[inline]
            fn $method(self, v: $ty) -> Result<(), Error> {
                self.out.$erased(v)
            }
        )*
    };
}

impl<'a> Serializer for Writer<'a> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Self;
    type SerializeTuple = Self;
    type SerializeTupleStruct = Self;
    type SerializeTupleVariant = Self;
    type SerializeMap = Self;
    type SerializeStruct = Self;
    type SerializeStructVariant = Self;

    write_scalars! {
        serialize_bool erased_bool bool,
        serialize_i8 erased_i8 i8,
        serialize_i16 erased_i16 i16,
        serialize_i32 erased_i32 i32,
        serialize_i64 erased_i64 i64,
        serialize_i128 erased_i128 i128,
        serialize_u8 erased_u8 u8,
        serialize_u16 erased_u16 u16,
        serialize_u32 erased_u32 u32,
        serialize_u64 erased_u64 u64,
        serialize_u128 erased_u128 u128,
        serialize_f32 erased_f32 f32,
        serialize_f64 erased_f64 f64,
        serialize_char erased_char char,
        serialize_str erased_str &str,
        serialize_bytes erased_bytes &[u8],
    }

    #[inline]
    fn serialize_none(self) -> Result<(), Error> {
        self.out.erased_none()
    }

    // `&value` because a `?Sized` value cannot be made a `dyn` itself; its
    // reference can, and serde writes a reference as what it points to.
    #[inline]
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<(), Error> {
        self.out.erased_some(&value)
    }

    #[inline]
    fn serialize_unit(self) -> Result<(), Error> {
        self.out.erased_unit()
    }

    #[inline]
    fn serialize_unit_struct(self, name: &'static str) -> Result<(), Error> {
        self.out.erased_unit_struct(name)
    }

    #[inline]
    fn serialize_unit_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
    ) -> Result<(), Error> {
        self.out.erased_unit_variant(name, index, variant)
    }

    #[inline]
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.out.erased_newtype_struct(name, &value)
    }

    #[inline]
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.out
            .erased_newtype_variant(name, index, variant, &value)
    }

    #[inline]
    fn serialize_seq(self, len: Option<usize>) -> Result<Self, Error> {
        self.out.erased_seq(len)?;
        Ok(self)
    }

    #[inline]
    fn serialize_tuple(self, len: usize) -> Result<Self, Error> {
        self.out.erased_tuple(len)?;
        Ok(self)
    }

    #[inline]
    fn serialize_tuple_struct(self, name: &'static str, len: usize) -> Result<Self, Error> {
        self.out.erased_tuple_struct(name, len)?;
        Ok(self)
    }

    #[inline]
    fn serialize_tuple_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self, Error> {
        self.out.erased_tuple_variant(name, index, variant, len)?;
        Ok(self)
    }

    #[inline]
    fn serialize_map(self, len: Option<usize>) -> Result<Self, Error> {
        self.out.erased_map(len)?;
        Ok(self)
    }

    #[inline]
    fn serialize_struct(self, name: &'static str, len: usize) -> Result<Self, Error> {
        self.out.erased_struct(name, len)?;
        Ok(self)
    }

    #[inline]
    fn serialize_struct_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self, Error> {
        self.out.erased_struct_variant(name, index, variant, len)?;
        Ok(self)
    }

    // Asked of the caller's serializer only when a value asks: most never
    // do, and every value of a payload gets a `Writer` of its own.
    fn is_human_readable(&self) -> bool {
        self.out.erased_is_human_readable()
    }
}

impl SerializeSeq for Writer<'_> {
    type Ok = ();
    type Error = Error;

    #[inline]
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Error> {
        self.out.erased_element(&value)
    }

    #[inline]
    fn end(self) -> Result<(), Error> {
        self.out.erased_end()
    }
}

impl SerializeTuple for Writer<'_> {
    type Ok = ();
    type Error = Error;

    #[inline]
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Error> {
        self.out.erased_element(&value)
    }

    #[inline]
    fn end(self) -> Result<(), Error> {
        self.out.erased_end()
    }
}

impl SerializeTupleStruct for Writer<'_> {
    type Ok = ();
    type Error = Error;

    #[inline]
    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Error> {
        self.out.erased_element(&value)
    }

    #[inline]
    fn end(self) -> Result<(), Error> {
        self.out.erased_end()
    }
}

impl SerializeTupleVariant for Writer<'_> {
    type Ok = ();
    type Error = Error;

    #[inline]
    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Error> {
        self.out.erased_element(&value)
    }

    #[inline]
    fn end(self) -> Result<(), Error> {
        self.out.erased_end()
    }
}

impl SerializeMap for Writer<'_> {
    type Ok = ();
    type Error = Error;

    #[inline]
    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<(), Error> {
        self.out.erased_key(&key)
    }

    #[inline]
    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Error> {
        self.out.erased_value(&value)
    }

    #[inline]
    fn serialize_entry<K: ?Sized + Serialize, V: ?Sized + Serialize>(
        &mut self,
        key: &K,
        value: &V,
    ) -> Result<(), Error> {
        self.out.erased_entry(&key, &value)
    }

    #[inline]
    fn end(self) -> Result<(), Error> {
        self.out.erased_end()
    }
}

impl SerializeStruct for Writer<'_> {
    type Ok = ();
    type Error = Error;

    #[inline]
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.out.erased_field(key, &value)
    }

    #[inline]
    fn skip_field(&mut self, key: &'static str) -> Result<(), Error> {
        self.out.erased_skip_field(key)
    }

    #[inline]
    fn end(self) -> Result<(), Error> {
        self.out.erased_end()
    }
}

impl SerializeStructVariant for Writer<'_> {
    type Ok = ();
    type Error = Error;

    #[inline]
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.out.erased_field(key, &value)
    }

    #[inline]
    fn skip_field(&mut self, key: &'static str) -> Result<(), Error> {
        self.out.erased_skip_field(key)
    }

    #[inline]
    fn end(self) -> Result<(), Error> {
        self.out.erased_end()
    }
}
