//! The tagged serializer: wraps the real serializer and puts the tag entry
//! in front of the payload's own fields.
//!
//! Generated code serializes the enum through a serde-derived, externally
//! tagged twin; its `serialize_*_variant` calls land here with the variant's
//! index, which selects the tag. The tag is a literal written directly: no
//! allocation, no intermediate value. Output is what serde's internally
//! tagged enums write, so the two are interchangeable on the wire.

use core::cell::OnceCell;
use core::marker::PhantomData;

use serde::ser::{self, Impossible, Serialize, Serializer};

use crate::tag::Literal;

mod fields;
mod map_form;
mod payload;

use self::fields::VariantFields;
pub(crate) use self::fields::{struct_variant, write_unit, Owner, TagEntry};
pub use self::map_form::AsMap;
use self::payload::EnumPayload;
pub(crate) use self::payload::PayloadSerializer;
pub use self::payload::{NewtypeVariant, Newtypes};

/// What generated code provides to write an enum's tags.
pub trait Tagging {
    /// The tag key, e.g. `"type"`.
    const KEY: &'static str;
    /// The tag value type (a `Literal` for literal tags).
    type Tag: Serialize;
    /// The tag of variant `index`; `None` for variants written as they are
    /// (fallbacks, presence mode).
    fn tag(index: u32) -> Option<Self::Tag>;

    /// Whether every tag written is a string, which each newtype
    /// variant's `NewtypeVariant` then holds. A constant, so that with it
    /// the other writer is not compiled.
    const STR_TAGS: bool = false;

    /// `visible`: whether some variant's payload writes the tag itself.
    /// A constant, so that without one the writer for it is not compiled.
    const ANY_VISIBLE: bool = false;

    /// `visible`: whether variant `index`'s payload writes the tag itself,
    /// as its own field named like the tag.
    #[inline]
    fn visible(index: u32) -> bool {
        let _ = index;
        false
    }

    /// `visible`: the aliases of variant `index`, which its field named
    /// like the tag may hold as well as the tag (each reads back to it).
    #[inline]
    fn aliases(index: u32) -> &'static [Literal] {
        let _ = index;
        &[]
    }

    /// Whether `visible` may be said on this enum (its tags are literals):
    /// a newtype payload's field named like the tag is then an error that
    /// names it.
    const VISIBLE_FIX: bool = false;

    /// Whether variant `index` is a struct variant written through serde's
    /// `serialize_newtype_variant`, as serde writes one that flattens a
    /// field: `visible` would not make a key of that map the tag.
    #[inline]
    fn flattens(index: u32) -> bool {
        let _ = index;
        false
    }

    /// `visible` and `aliases` together, as a tag entry takes them.
    #[doc(hidden)]
    #[inline]
    fn visible_tags(index: u32) -> Option<&'static [Literal]> {
        if Self::visible(index) {
            Some(Self::aliases(index))
        } else {
            None
        }
    }
}

/// Entry point of a generated `Serialize` impl: `serialize` is the twin's
/// serde-derived function.
pub struct TaggedSerializer<S, T> {
    inner: S,
    marker: PhantomData<T>,
}

impl<S, T> TaggedSerializer<S, T> {
    #[inline]
    pub fn new(inner: S) -> Self {
        TaggedSerializer {
            inner,
            marker: PhantomData,
        }
    }

    #[inline]
    pub(crate) fn into_inner(self) -> S {
        self.inner
    }
}

fn not_a_variant<E: ser::Error>() -> E {
    E::custom("json_subtypes: the generated serializer expects an enum variant")
}

macro_rules! refuse {
    ($($method:ident($($arg:ty),*))*) => {
        $(
            fn $method(self, $(_: $arg),*) -> Result<S::Ok, S::Error> {
                Err(not_a_variant())
            }
        )*
    };
}

/// How a newtype variant is written: decided by the enum's table alone,
/// apart from the payload's type, so that what is compiled once per
/// payload type is only the write itself (no tag value held there, with
/// its drop flags and unwind paths).
enum Form {
    Enum,
    Visible,
    Untagged,
}

fn form<T: Tagging>(index: u32) -> Form {
    match T::tag(index) {
        None => Form::Untagged,
        Some(_) if T::ANY_VISIBLE && T::visible(index) => Form::Visible,
        Some(_) => Form::Enum,
    }
}

impl<S: Serializer, T: Newtypes> TaggedSerializer<S, T> {
    /// A newtype variant of generated code, described by its constant.
    #[inline]
    pub(crate) fn newtype_variant<V: ?Sized + Serialize>(
        self,
        variant: &'static NewtypeVariant,
        value: &V,
    ) -> Result<S::Ok, S::Error> {
        match form::<T>(variant.index) {
            Form::Enum => value.serialize(EnumPayload::<_, T> {
                inner: self.inner,
                variant,
                cell: &OnceCell::new(),
            }),
            // `form` gives `Visible` only with `ANY_VISIBLE`: without it,
            // the constant condition leaves the visible writer uncompiled.
            Form::Visible if T::ANY_VISIBLE => self.visible_newtype(variant, value),
            Form::Visible | Form::Untagged => value.serialize(self.inner),
        }
    }

    #[inline]
    fn visible_newtype<V: ?Sized + Serialize>(
        self,
        variant: &'static NewtypeVariant,
        value: &V,
    ) -> Result<S::Ok, S::Error> {
        let index = variant.index;
        let tag = T::tag(index).expect("a tagged variant");
        let visible = T::visible_tags(index);
        let (name, variant) = variant.names();
        let entry = TagEntry::for_variant(T::KEY, tag, name, variant, visible, T::VISIBLE_FIX);
        value.serialize(PayloadSerializer::<_, _, true> {
            inner: self.inner,
            entry: &entry,
        })
    }
}

impl<S: Serializer, T: Tagging> Serializer for TaggedSerializer<S, T> {
    type Ok = S::Ok;
    type Error = S::Error;
    type SerializeSeq = Impossible<S::Ok, S::Error>;
    type SerializeTuple = Impossible<S::Ok, S::Error>;
    type SerializeTupleStruct = Impossible<S::Ok, S::Error>;
    type SerializeTupleVariant = Impossible<S::Ok, S::Error>;
    type SerializeMap = Impossible<S::Ok, S::Error>;
    type SerializeStruct = Impossible<S::Ok, S::Error>;
    type SerializeStructVariant = VariantFields<S::SerializeStruct, T::Tag>;

    #[inline]
    fn serialize_unit_variant(
        self,
        name: &'static str,
        index: u32,
        _variant: &'static str,
    ) -> Result<S::Ok, S::Error> {
        write_unit(self.inner, name, T::KEY, T::tag(index))
    }

    #[inline]
    fn serialize_newtype_variant<V: ?Sized + Serialize>(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        value: &V,
    ) -> Result<S::Ok, S::Error> {
        match T::tag(index) {
            Some(tag) => {
                let fix = T::VISIBLE_FIX && !T::flattens(index);
                let visible = T::visible_tags(index);
                let entry = TagEntry::for_variant(T::KEY, tag, name, variant, visible, fix);
                value.serialize(PayloadSerializer::<_, _, true> {
                    inner: self.inner,
                    entry: &entry,
                })
            }
            None => value.serialize(self.inner),
        }
    }

    #[inline]
    fn serialize_struct_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeStructVariant, S::Error> {
        let tag = T::tag(index);
        let visible = T::visible_tags(index);
        struct_variant(self.inner, name, variant, len, T::KEY, tag, visible)
    }

    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, S::Error> {
        Err(not_a_variant())
    }

    refuse! {
        serialize_bool(bool) serialize_i8(i8) serialize_i16(i16) serialize_i32(i32)
        serialize_i64(i64) serialize_u8(u8) serialize_u16(u16) serialize_u32(u32)
        serialize_u64(u64) serialize_f32(f32) serialize_f64(f64) serialize_char(char)
        serialize_str(&str) serialize_bytes(&[u8]) serialize_none() serialize_unit()
        serialize_unit_struct(&'static str)
    }

    fn serialize_some<V: ?Sized + Serialize>(self, _: &V) -> Result<S::Ok, S::Error> {
        Err(not_a_variant())
    }

    fn serialize_newtype_struct<V: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: &V,
    ) -> Result<S::Ok, S::Error> {
        Err(not_a_variant())
    }

    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, S::Error> {
        Err(not_a_variant())
    }

    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, S::Error> {
        Err(not_a_variant())
    }

    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, S::Error> {
        Err(not_a_variant())
    }

    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, S::Error> {
        Err(not_a_variant())
    }

    fn serialize_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStruct, S::Error> {
        Err(not_a_variant())
    }

    fn is_human_readable(&self) -> bool {
        self.inner.is_human_readable()
    }
}
