//! `PayloadSerializer`: a newtype variant's (or a trait object's) payload
//! written with the tag entry, and an enum payload's variant entry;
//! `EnumPayload`: an enum's newtype payload whose tag is not `visible`.

use core::cell::OnceCell;
use core::marker::PhantomData;

use serde::ser::{
    Error as _, Impossible, Serialize, SerializeMap, SerializeStruct, SerializeStructVariant,
    SerializeTupleVariant, Serializer,
};

use super::fields::{field_is_tag, Fields, TagEntry};
use super::Tagging;
use crate::owned_value::{Content, ContentSerializer};

/// Serializes a newtype variant's payload with the tag entry first.
///
/// `OWN`: an enum's newtype variant with a `visible` tag (the others are
/// `EnumPayload`'s), whose struct payload writes the tag
/// entry as an `OwnEntry`, so that the format's `serialize_field` for it
/// is not the one shared by the unit, struct-variant and trailing-tag
/// writes. With one caller, LLVM inlines it into the payload's write, as
/// serde's twin has its `&str` tag entry inlined. Trait objects
/// and profiles keep the shared one: their writes measured slower with a
/// type of their own (`benches/instructions.sh '^ser_'`).
///
/// The entry is borrowed from the caller, so that this and the payload's
/// `Fields` are the format's serializer (or state) and one pointer.
pub struct PayloadSerializer<'a, S, G, const OWN: bool = false> {
    pub(super) inner: S,
    pub(super) entry: &'a TagEntry<G>,
}

impl<'a, S: Serializer, G: Serialize> PayloadSerializer<'a, S, G> {
    pub(crate) fn new(inner: S, entry: &'a TagEntry<G>) -> Self {
        PayloadSerializer { inner, entry }
    }
}

impl<'a, S: Serializer, G: Serialize, const OWN: bool> PayloadSerializer<'a, S, G, OWN> {
    fn bad_type(&self, what: &str) -> S::Error {
        let subject = self.entry.subject;
        if subject.of_trait() {
            S::Error::custom(format_args!(
                "cannot serialize {subject}: it is {what}, not a map or struct"
            ))
        } else {
            // serde's own wording for an internally tagged enum.
            S::Error::custom(format_args!(
                "cannot serialize tagged newtype variant {subject} containing {what}"
            ))
        }
    }

    /// Starts the two-entry map of an enum payload: the tag (unless it goes
    /// last) and the key `inner_variant`, whose value the caller writes.
    fn variant_entry(
        self,
        inner_variant: &'static str,
    ) -> Result<VariantEntry<'a, S::SerializeMap, G>, S::Error> {
        let entry = self.entry;
        let mut map = self.inner.serialize_map(Some(2))?;
        if !entry.last {
            map.serialize_entry(entry.key, &entry.tag)?;
        }
        map.serialize_key(inner_variant)?;
        Ok(VariantEntry { map, entry })
    }

    fn tag_only(self) -> Result<S::Ok, S::Error> {
        let mut map = self.inner.serialize_map(Some(1))?;
        map.serialize_entry(self.entry.key, &self.entry.tag)?;
        map.end()
    }
}

macro_rules! payload_refuses {
    ($($method:ident($($arg:ty),*) => $what:expr;)*) => {
        $(
            fn $method(self, $(_: $arg),*) -> Result<S::Ok, S::Error> {
                Err(self.bad_type($what))
            }
        )*
    };
}

impl<'a, S: Serializer, G: Serialize, const OWN: bool> Serializer
    for PayloadSerializer<'a, S, G, OWN>
{
    type Ok = S::Ok;
    type Error = S::Error;
    type SerializeSeq = Impossible<S::Ok, S::Error>;
    type SerializeTuple = Impossible<S::Ok, S::Error>;
    type SerializeTupleStruct = Impossible<S::Ok, S::Error>;
    type SerializeTupleVariant = VariantValue<'a, S::SerializeMap, G>;
    type SerializeMap = Fields<S::SerializeMap, &'a TagEntry<G>>;
    type SerializeStruct = Fields<S::SerializeStruct, &'a TagEntry<G>>;
    type SerializeStructVariant = VariantValue<'a, S::SerializeMap, G>;

    payload_refuses! {
        serialize_bool(bool) => "a boolean";
        serialize_i8(i8) => "an integer";
        serialize_i16(i16) => "an integer";
        serialize_i32(i32) => "an integer";
        serialize_i64(i64) => "an integer";
        serialize_i128(i128) => "an integer";
        serialize_u8(u8) => "an integer";
        serialize_u16(u16) => "an integer";
        serialize_u32(u32) => "an integer";
        serialize_u64(u64) => "an integer";
        serialize_u128(u128) => "an integer";
        serialize_f32(f32) => "a float";
        serialize_f64(f64) => "a float";
        serialize_char(char) => "a char";
        serialize_str(&str) => "a string";
        serialize_bytes(&[u8]) => "a byte array";
        serialize_none() => "an optional";
    }

    fn serialize_some<V: ?Sized + Serialize>(self, _: &V) -> Result<S::Ok, S::Error> {
        Err(self.bad_type("an optional"))
    }

    fn serialize_unit(self) -> Result<S::Ok, S::Error> {
        self.tag_only()
    }

    fn serialize_unit_struct(self, _: &'static str) -> Result<S::Ok, S::Error> {
        self.tag_only()
    }

    // An externally tagged enum as the payload: its variant becomes the one
    // entry beside the tag, as serde's internally tagged enums write it.
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        inner_variant: &'static str,
    ) -> Result<S::Ok, S::Error> {
        let mut state = self.variant_entry(inner_variant)?;
        state.map.serialize_value(&())?;
        state.end()
    }

    fn serialize_newtype_struct<V: ?Sized + Serialize>(
        self,
        _: &'static str,
        value: &V,
    ) -> Result<S::Ok, S::Error> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<V: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        inner_variant: &'static str,
        value: &V,
    ) -> Result<S::Ok, S::Error> {
        let mut state = self.variant_entry(inner_variant)?;
        state.map.serialize_value(value)?;
        state.end()
    }

    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, S::Error> {
        Err(self.bad_type("a sequence"))
    }

    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, S::Error> {
        Err(self.bad_type("a tuple"))
    }

    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, S::Error> {
        Err(self.bad_type("a tuple struct"))
    }

    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        inner_variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeTupleVariant, S::Error> {
        let state = self.variant_entry(inner_variant)?;
        Ok(VariantValue {
            state,
            name: inner_variant,
            items: Vec::with_capacity(len),
            fields: Vec::new(),
        })
    }

    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        inner_variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeStructVariant, S::Error> {
        let state = self.variant_entry(inner_variant)?;
        Ok(VariantValue {
            state,
            name: inner_variant,
            items: Vec::new(),
            fields: Vec::with_capacity(len),
        })
    }

    #[inline]
    fn serialize_map(self, len: Option<usize>) -> Result<Self::SerializeMap, S::Error> {
        let entry = self.entry;
        // With `visible` the payload's own entry is the tag.
        let extra = usize::from(entry.visible.is_none());
        let mut map = self.inner.serialize_map(len.map(|len| len + extra))?;
        let trailing = entry.last || entry.visible.is_some();
        if !trailing {
            map.serialize_entry(entry.key, &entry.tag)?;
        }
        Ok(Fields {
            state: map,
            entry,
            trailing,
            value_is_tag: false,
        })
    }

    #[inline]
    fn serialize_struct(
        self,
        name: &'static str,
        len: usize,
    ) -> Result<Self::SerializeStruct, S::Error> {
        let entry = self.entry;
        // With `visible` the payload's own field is the tag: `len` counts it.
        let extra = usize::from(entry.visible.is_none());
        let mut state = self.inner.serialize_struct(name, len + extra)?;
        let trailing = entry.last || entry.visible.is_some();
        if !trailing {
            if OWN {
                state.serialize_field(entry.key, &OwnEntry(&entry.tag))?;
            } else {
                state.serialize_field(entry.key, &entry.tag)?;
            }
        }
        Ok(Fields {
            state,
            entry,
            trailing,
            value_is_tag: false,
        })
    }

    fn is_human_readable(&self) -> bool {
        self.inner.is_human_readable()
    }
}

/// The tag entry of an enum's struct payload (`PayloadSerializer`'s `OWN`).
struct OwnEntry<'a, G>(&'a G);

impl<G: Serialize> Serialize for OwnEntry<'_, G> {
    #[inline]
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

/// The map of an enum payload once its variant's key is written.
pub struct VariantEntry<'a, M, G> {
    map: M,
    /// With `last`, its tag is written after the entry.
    entry: &'a TagEntry<G>,
}

impl<M: SerializeMap, G: Serialize> VariantEntry<'_, M, G> {
    fn end(mut self) -> Result<M::Ok, M::Error> {
        if self.entry.last {
            self.map.serialize_entry(self.entry.key, &self.entry.tag)?;
        }
        self.map.end()
    }
}

/// A tuple or struct variant of an enum payload: its fields are collected
/// and written as the entry's value when it ends (see `crate::owned_value`).
pub struct VariantValue<'a, M, G> {
    state: VariantEntry<'a, M, G>,
    name: &'static str,
    items: Vec<Content>,
    fields: Vec<(&'static str, Content)>,
}

impl<M: SerializeMap, G: Serialize> SerializeTupleVariant for VariantValue<'_, M, G> {
    type Ok = M::Ok;
    type Error = M::Error;

    fn serialize_field<V: ?Sized + Serialize>(&mut self, value: &V) -> Result<(), M::Error> {
        self.items.push(value.serialize(ContentSerializer::new())?);
        Ok(())
    }

    fn end(mut self) -> Result<M::Ok, M::Error> {
        let items = core::mem::take(&mut self.items);
        // serde's `SerializeTupleVariantAsMapValue` writes a tuple struct
        // named after the variant.
        let value = Content::TupleStruct(self.name, items);
        self.state.map.serialize_value(&value)?;
        self.state.end()
    }
}

impl<M: SerializeMap, G: Serialize> SerializeStructVariant for VariantValue<'_, M, G> {
    type Ok = M::Ok;
    type Error = M::Error;

    fn serialize_field<V: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &V,
    ) -> Result<(), M::Error> {
        let value = value.serialize(ContentSerializer::new())?;
        self.fields.push((key, value));
        Ok(())
    }

    fn end(mut self) -> Result<M::Ok, M::Error> {
        let fields = core::mem::take(&mut self.fields);
        let value = Content::Struct(self.name, fields);
        self.state.map.serialize_value(&value)?;
        self.state.end()
    }
}

/// An enum's newtype payload whose tag is not `visible`: the common case,
/// written as serde's twin writes it.
///
/// Generic over the enum's table, so that in the payload's `serialize` the
/// tag key is a constant and a field's comparison with it is decided at
/// compile time, and so that this `serialize` has one call site and LLVM
/// inlines it into the enum's (a payload type in several enums would
/// otherwise share one out-of-line copy). A `TagEntry` in its place would
/// be built by every write and read through a pointer at every field
/// (`benches/instructions.sh '^ser_'`). The variant is a pointer to a
/// constant, not a type: a type would compile this writer once per variant.
///
/// Only a struct payload is written here; any other shape builds the
/// `TagEntry` in the caller's `cell` and goes to `PayloadSerializer`.
pub(crate) struct EnumPayload<'a, S, T: Newtypes> {
    pub(super) inner: S,
    pub(super) variant: &'static NewtypeVariant,
    pub(super) cell: &'a OnceCell<TagEntry<T::Tag>>,
}

/// Which newtype variant is written: an element of generated code's
/// constant `Newtypes::NEWTYPES`, so that a write carries one pointer for
/// it.
pub struct NewtypeVariant {
    /// The enum's name, as serde's `serialize_newtype_variant` takes it.
    name: &'static str,
    pub(super) index: u32,
    /// Its position in `Newtypes::NEWTYPES`.
    slot: u32,
    variant: &'static str,
    /// The tag if it is a string (`Tagging::STR_TAGS`): written as a
    /// `&str`, as serde's twin does; through the tag type's `Serialize`
    /// the same instructions take more time.
    tag: &'static str,
    /// `Tagging::KEY` and `Tagging::VISIBLE_FIX`, for the message of a
    /// payload field named like the tag, written apart from the table.
    key: &'static str,
    fix: bool,
}

impl NewtypeVariant {
    pub const fn new<T: Tagging>(
        name: &'static str,
        index: u32,
        slot: u32,
        variant: &'static str,
        tag: &'static str,
    ) -> Self {
        NewtypeVariant {
            name,
            index,
            slot,
            variant,
            tag,
            key: T::KEY,
            fix: T::VISIBLE_FIX,
        }
    }

    pub(super) fn names(&self) -> (&'static str, &'static str) {
        (self.name, self.variant)
    }
}

/// An enum's newtype variants, so that a struct payload's fields carry only
/// their variant's position, for the message of a field named like the tag:
/// a constant stored by one instruction, where a pointer to the variant
/// takes two (its address, then the store) and serde's twin, which makes
/// no such check, none. The variant as a type would store nothing, but
/// would compile the payload's write once per variant instead of once per
/// enum (2% more unoptimized IR in `benches/compile_cost`).
pub trait Newtypes: Tagging {
    /// Every newtype variant's `NewtypeVariant`, each at its `slot`.
    const NEWTYPES: &'static [NewtypeVariant];
}

impl<'a, S: Serializer, T: Newtypes> EnumPayload<'a, S, T> {
    fn general(self) -> PayloadSerializer<'a, S, T::Tag, true> {
        let variant = self.variant;
        let entry = self.cell.get_or_init(|| {
            // A newtype variant never flattens (`Tagging::flattens`).
            let tag = T::tag(variant.index).expect("a tagged variant");
            TagEntry::for_variant(
                T::KEY,
                tag,
                variant.name,
                variant.variant,
                None,
                T::VISIBLE_FIX,
            )
        });
        PayloadSerializer {
            inner: self.inner,
            entry,
        }
    }
}

macro_rules! to_general {
    ($($method:ident($($arg:ident: $ty:ty),*) -> $ret:ty;)*) => {
        $(
            fn $method(self, $($arg: $ty),*) -> Result<$ret, S::Error> {
                self.general().$method($($arg),*)
            }
        )*
    };
}

impl<'a, S: Serializer, T: Newtypes> Serializer for EnumPayload<'a, S, T> {
    type Ok = S::Ok;
    type Error = S::Error;
    type SerializeSeq = Impossible<S::Ok, S::Error>;
    type SerializeTuple = Impossible<S::Ok, S::Error>;
    type SerializeTupleStruct = Impossible<S::Ok, S::Error>;
    type SerializeTupleVariant = VariantValue<'a, S::SerializeMap, T::Tag>;
    type SerializeMap = Fields<S::SerializeMap, &'a TagEntry<T::Tag>>;
    type SerializeStruct = EnumFields<S::SerializeStruct, T>;
    type SerializeStructVariant = VariantValue<'a, S::SerializeMap, T::Tag>;

    to_general! {
        serialize_bool(v: bool) -> S::Ok;
        serialize_i8(v: i8) -> S::Ok;
        serialize_i16(v: i16) -> S::Ok;
        serialize_i32(v: i32) -> S::Ok;
        serialize_i64(v: i64) -> S::Ok;
        serialize_i128(v: i128) -> S::Ok;
        serialize_u8(v: u8) -> S::Ok;
        serialize_u16(v: u16) -> S::Ok;
        serialize_u32(v: u32) -> S::Ok;
        serialize_u64(v: u64) -> S::Ok;
        serialize_u128(v: u128) -> S::Ok;
        serialize_f32(v: f32) -> S::Ok;
        serialize_f64(v: f64) -> S::Ok;
        serialize_char(v: char) -> S::Ok;
        serialize_str(v: &str) -> S::Ok;
        serialize_bytes(v: &[u8]) -> S::Ok;
        serialize_none() -> S::Ok;
        serialize_unit() -> S::Ok;
        serialize_unit_struct(name: &'static str) -> S::Ok;
        serialize_unit_variant(name: &'static str, index: u32, variant: &'static str) -> S::Ok;
        serialize_seq(len: Option<usize>) -> Self::SerializeSeq;
        serialize_tuple(len: usize) -> Self::SerializeTuple;
        serialize_tuple_struct(name: &'static str, len: usize) -> Self::SerializeTupleStruct;
        serialize_tuple_variant(
            name: &'static str, index: u32, variant: &'static str, len: usize
        ) -> Self::SerializeTupleVariant;
        serialize_struct_variant(
            name: &'static str, index: u32, variant: &'static str, len: usize
        ) -> Self::SerializeStructVariant;
        serialize_map(len: Option<usize>) -> Self::SerializeMap;
    }

    fn serialize_some<V: ?Sized + Serialize>(self, value: &V) -> Result<S::Ok, S::Error> {
        self.general().serialize_some(value)
    }

    fn serialize_newtype_struct<V: ?Sized + Serialize>(
        self,
        _: &'static str,
        value: &V,
    ) -> Result<S::Ok, S::Error> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<V: ?Sized + Serialize>(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        value: &V,
    ) -> Result<S::Ok, S::Error> {
        self.general()
            .serialize_newtype_variant(name, index, variant, value)
    }

    #[inline]
    fn serialize_struct(
        self,
        name: &'static str,
        len: usize,
    ) -> Result<Self::SerializeStruct, S::Error> {
        let variant = self.variant;
        // The tag is borrowed apart from `self`, which then need not be
        // kept in memory. The tag is written before the fields are wrapped:
        // after, the `Result` around them is copied and checked again.
        let mut state = self.inner.serialize_struct(name, len + 1)?;
        if T::STR_TAGS {
            state.serialize_field(T::KEY, variant.tag)?;
        } else {
            let tag = T::tag(variant.index).expect("a tagged variant");
            state.serialize_field(T::KEY, &OwnEntry(&tag))?;
        }
        Ok(EnumFields {
            state,
            slot: variant.slot,
            table: PhantomData,
        })
    }

    fn is_human_readable(&self) -> bool {
        self.inner.is_human_readable()
    }
}

/// The fields of an `EnumPayload`'s struct after its tag. Generic over the
/// enum's table, so that the tag key is a constant: as a value, where the
/// payload's `serialize` is not inlined, each field would compare its key
/// with it at run time.
pub(crate) struct EnumFields<M, T> {
    state: M,
    /// The variant's position in `T::NEWTYPES`, read only for the message.
    slot: u32,
    table: PhantomData<T>,
}

/// A payload field named like the tag: out of line, and generic over the
/// error type only.
#[cold]
#[inline(never)]
fn enum_field_is_tag<E: serde::ser::Error>(variants: &[NewtypeVariant], slot: u32) -> E {
    let v = &variants[slot as usize];
    field_is_tag(&TagEntry::for_variant(
        v.key,
        (),
        v.name,
        v.variant,
        None,
        v.fix,
    ))
}

impl<M: SerializeStruct, T: Newtypes> SerializeStruct for EnumFields<M, T> {
    type Ok = M::Ok;
    type Error = M::Error;

    #[inline]
    fn serialize_field<V: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &V,
    ) -> Result<(), M::Error> {
        if key == T::KEY {
            return Err(enum_field_is_tag(T::NEWTYPES, self.slot));
        }
        self.state.serialize_field(key, value)
    }

    fn skip_field(&mut self, key: &'static str) -> Result<(), M::Error> {
        self.state.skip_field(key)
    }

    #[inline]
    fn end(self) -> Result<M::Ok, M::Error> {
        self.state.end()
    }
}
