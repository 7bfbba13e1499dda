//! An enum's variants read and written by shared code, without a serde
//! derive per enum.
//!
//! When no serde attribute changes how a variant's content is read or
//! written (the common case: plain fields, perhaps renamed), generated code
//! does not derive a twin enum. It builds each variant straight from the
//! payload and writes it through the `TaggedSerializer`, and a struct
//! variant's fields are handled here, by code generic over the tuple of
//! their types (a derived visitor per struct variant was most of the
//! expansion). The messages and the accepted forms are exactly serde's
//! derived visitor's, so which path an enum takes is not observable.
//!
//! Enums with other serde attributes (`default`, `with`, `flatten`,
//! `skip`, generics, ...) keep the serde-derived twin.

use core::fmt;
use core::marker::PhantomData;

use serde::de::{
    self, DeserializeSeed, Deserializer, Error as _, Expected, IgnoredAny, MapAccess, SeqAccess,
    Unexpected, VariantAccess, Visitor,
};
use serde::ser::{Serialize, SerializeStructVariant, Serializer};

use crate::rest::Payload;
use crate::tag::Literal;
use crate::tag_writer::{
    struct_variant, write_unit, NewtypeVariant, Newtypes, TaggedSerializer, Tagging,
};

/// What serde's derive knows of one struct variant.
pub struct StructShape {
    /// The enum's identifier, which serde's messages name (a twin is a
    /// `remote` derive, named by its remote type).
    owner: &'static str,
    /// The variant's identifier, for messages.
    variant: &'static str,
    /// The fields' names on the wire, in declaration order.
    fields: &'static [&'static str],
    /// `#[serde(deny_unknown_fields)]` on the enum.
    deny_unknown: bool,
    /// The index of the field a key names, or the number of fields: a
    /// `match` in generated code, as fast as serde's derived identifier
    /// (comparing the names one by one costs a `memcmp` call per key).
    field: fn(&str) -> usize,
}

impl StructShape {
    pub const fn new(
        owner: &'static str,
        variant: &'static str,
        fields: &'static [&'static str],
        deny_unknown: bool,
        field: fn(&str) -> usize,
    ) -> Self {
        StructShape {
            owner,
            variant,
            fields,
            deny_unknown,
            field,
        }
    }
}

/// A struct variant's fields, as the tuple of their values.
#[inline]
pub fn fields<'de, T, P>(
    payload: P,
    shape: &'static StructShape,
) -> Result<T, <P as Deserializer<'de>>::Error>
where
    T: FieldTuple<'de>,
    P: Payload<'de>,
{
    VariantAccess::struct_variant(
        payload,
        shape.fields,
        FieldsVisitor {
            shape,
            marker: PhantomData,
        },
    )
}

/// The table only hands out indexes of variants; anything else is a bug
/// in generated code, reported rather than panicking.
#[cold]
#[inline(never)]
pub fn no_variant<T, E: de::Error>(index: u32) -> Result<T, E> {
    Err(E::custom(format_args!(
        "json_subtypes: no variant with index {index}"
    )))
}

struct FieldsVisitor<T> {
    shape: &'static StructShape,
    marker: PhantomData<T>,
}

impl<'de, T: FieldTuple<'de>> Visitor<'de> for FieldsVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "struct variant {}::{}",
            self.shape.owner, self.shape.variant
        )
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<T, A::Error> {
        T::read_seq(seq, self.shape)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<T, A::Error> {
        let mut slots = T::empty();
        let key = FieldKey { shape: self.shape };
        while let Some(index) = map.next_key_seed(key)? {
            T::read(&mut slots, index, &mut map, self.shape.fields)?;
        }
        T::finish(slots, self.shape.fields)
    }
}

/// serde's message for a sequence too short: "struct variant E::V with 3
/// elements".
struct Elements(&'static StructShape);

impl Expected for Elements {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "struct variant {}::{} with {} elements",
            self.0.owner,
            self.0.variant,
            self.0.fields.len()
        )
    }
}

/// A field's key: the index of the field it names, or the number of
/// fields for a key ignored (an error under `deny_unknown_fields`), as
/// serde's derived field identifier reads it.
#[derive(Clone, Copy)]
struct FieldKey {
    shape: &'static StructShape,
}

impl<'de> DeserializeSeed<'de> for FieldKey {
    type Value = usize;

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<usize, D::Error> {
        deserializer.deserialize_identifier(self)
    }
}

impl<'de> Visitor<'de> for FieldKey {
    type Value = usize;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("field identifier")
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<usize, E> {
        let len = self.shape.fields.len();
        match usize::try_from(value) {
            Ok(index) if index < len => Ok(index),
            _ if self.shape.deny_unknown => Err(E::invalid_value(
                Unexpected::Unsigned(value),
                &FieldIndex(len),
            )),
            _ => Ok(len),
        }
    }

    #[inline]
    fn visit_str<E: de::Error>(self, value: &str) -> Result<usize, E> {
        let index = (self.shape.field)(value);
        if index == self.shape.fields.len() && self.shape.deny_unknown {
            return Err(E::unknown_field(value, self.shape.fields));
        }
        Ok(index)
    }

    fn visit_bytes<E: de::Error>(self, value: &[u8]) -> Result<usize, E> {
        // The names are text: bytes that are not never name a field.
        match core::str::from_utf8(value) {
            Ok(key) => self.visit_str(key),
            Err(_) if self.shape.deny_unknown => Err(E::unknown_field(
                &String::from_utf8_lossy(value),
                self.shape.fields,
            )),
            Err(_) => Ok(self.shape.fields.len()),
        }
    }
}

/// serde's "field index 0 <= i < 3".
struct FieldIndex(usize);

impl Expected for FieldIndex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "field index 0 <= i < {}", self.0)
    }
}

/// A missing field, read as serde's derive reads it: `None` for an
/// `Option`, the missing-field error for anything else.
struct Missing(&'static str);

impl<'de, E: de::Error> de::IntoDeserializer<'de, E> for Missing {
    type Deserializer = MissingDeserializer<E>;

    fn into_deserializer(self) -> MissingDeserializer<E> {
        MissingDeserializer(self.0, PhantomData)
    }
}

struct MissingDeserializer<E>(&'static str, PhantomData<E>);

impl<'de, E: de::Error> Deserializer<'de> for MissingDeserializer<E> {
    type Error = E;

    fn deserialize_any<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value, E> {
        Err(E::missing_field(self.0))
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        visitor.visit_none()
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

#[cold]
fn missing<'de, T: de::Deserialize<'de>, E: de::Error>(name: &'static str) -> Result<T, E> {
    T::deserialize(de::IntoDeserializer::<E>::into_deserializer(Missing(name)))
}

/// A struct variant's field values as a tuple: what generated code builds
/// the variant from. Implemented for tuples of up to 16 fields; an enum
/// with a longer struct variant keeps the serde-derived twin.
pub trait FieldTuple<'de>: Sized {
    #[doc(hidden)]
    type Slots;

    #[doc(hidden)]
    fn empty() -> Self::Slots;

    #[doc(hidden)]
    fn read<A: MapAccess<'de>>(
        slots: &mut Self::Slots,
        index: usize,
        map: &mut A,
        names: &'static [&'static str],
    ) -> Result<(), A::Error>;

    #[doc(hidden)]
    fn finish<E: de::Error>(slots: Self::Slots, names: &'static [&'static str]) -> Result<Self, E>;

    #[doc(hidden)]
    fn read_seq<A: SeqAccess<'de>>(seq: A, shape: &'static StructShape) -> Result<Self, A::Error>;
}

/// A struct variant's fields, borrowed, as a tuple: what generated code
/// writes the variant from.
pub trait FieldRefs {
    #[doc(hidden)]
    fn write<M: SerializeStructVariant>(
        self,
        state: &mut M,
        names: &'static [&'static str],
    ) -> Result<(), M::Error>;
}

macro_rules! tuples {
    ($($len:literal => ($($t:ident $i:tt)*))*) => {$(
        // The empty tuple is a struct variant without fields, `V {}`.
        #[allow(clippy::unused_unit)]
        impl<'de, $($t: de::Deserialize<'de>),*> FieldTuple<'de> for ($($t,)*) {
            type Slots = ($(Option<$t>,)*);

            #[inline]
            fn empty() -> Self::Slots {
                ($(None::<$t>,)*)
            }

            #[inline]
            #[allow(unused_variables)]
            fn read<A: MapAccess<'de>>(
                slots: &mut Self::Slots,
                index: usize,
                map: &mut A,
                names: &'static [&'static str],
            ) -> Result<(), A::Error> {
                match index {
                    $($i => {
                        if slots.$i.is_some() {
                            return Err(A::Error::duplicate_field(names[$i]));
                        }
                        slots.$i = Some(map.next_value::<$t>()?);
                    })*
                    // A key no field has (`FieldKey` hands out the number
                    // of fields for it): its value is skipped.
                    _ => {
                        map.next_value::<IgnoredAny>()?;
                    }
                }
                Ok(())
            }

            #[inline]
            #[allow(unused_variables)]
            fn finish<E: de::Error>(
                slots: Self::Slots,
                names: &'static [&'static str],
            ) -> Result<Self, E> {
                Ok(($(
                    match slots.$i {
                        Some(value) => value,
                        None => missing::<$t, E>(names[$i])?,
                    },
                )*))
            }

            #[inline]
            #[allow(unused_variables, unused_mut)]
            fn read_seq<A: SeqAccess<'de>>(
                mut seq: A,
                shape: &'static StructShape,
            ) -> Result<Self, A::Error> {
                Ok(($(
                    match seq.next_element::<$t>()? {
                        Some(value) => value,
                        None => return Err(A::Error::invalid_length($i, &Elements(shape))),
                    },
                )*))
            }
        }

        impl<$($t: Serialize),*> FieldRefs for ($(&$t,)*) {
            #[inline]
            #[allow(unused_variables)]
            fn write<M: SerializeStructVariant>(
                self,
                state: &mut M,
                names: &'static [&'static str],
            ) -> Result<(), M::Error> {
                $(state.serialize_field(names[$i], self.$i)?;)*
                Ok(())
            }
        }
    )*};
}

tuples! {
    0 => ()
    1 => (T0 0)
    2 => (T0 0 T1 1)
    3 => (T0 0 T1 1 T2 2)
    4 => (T0 0 T1 1 T2 2 T3 3)
    5 => (T0 0 T1 1 T2 2 T3 3 T4 4)
    6 => (T0 0 T1 1 T2 2 T3 3 T4 4 T5 5)
    7 => (T0 0 T1 1 T2 2 T3 3 T4 4 T5 5 T6 6)
    8 => (T0 0 T1 1 T2 2 T3 3 T4 4 T5 5 T6 6 T7 7)
    9 => (T0 0 T1 1 T2 2 T3 3 T4 4 T5 5 T6 6 T7 7 T8 8)
    10 => (T0 0 T1 1 T2 2 T3 3 T4 4 T5 5 T6 6 T7 7 T8 8 T9 9)
    11 => (T0 0 T1 1 T2 2 T3 3 T4 4 T5 5 T6 6 T7 7 T8 8 T9 9 T10 10)
    12 => (T0 0 T1 1 T2 2 T3 3 T4 4 T5 5 T6 6 T7 7 T8 8 T9 9 T10 10 T11 11)
    13 => (T0 0 T1 1 T2 2 T3 3 T4 4 T5 5 T6 6 T7 7 T8 8 T9 9 T10 10 T11 11 T12 12)
    14 => (T0 0 T1 1 T2 2 T3 3 T4 4 T5 5 T6 6 T7 7 T8 8 T9 9 T10 10 T11 11 T12 12 T13 13)
    15 => (T0 0 T1 1 T2 2 T3 3 T4 4 T5 5 T6 6 T7 7 T8 8 T9 9 T10 10 T11 11 T12 12 T13 13 T14 14)
    16 => (T0 0 T1 1 T2 2 T3 3 T4 4 T5 5 T6 6 T7 7 T8 8 T9 9 T10 10 T11 11 T12 12 T13 13 T14 14 T15 15)
}

impl<S: Serializer, T: Newtypes> TaggedSerializer<S, T> {
    /// A newtype variant, as the twin's `serialize_newtype_variant`.
    #[inline]
    pub fn newtype<V: ?Sized + Serialize>(
        self,
        variant: &'static NewtypeVariant,
        value: &V,
    ) -> Result<S::Ok, S::Error> {
        self.newtype_variant(variant, value)
    }
}

impl<S: Serializer, T: Tagging> TaggedSerializer<S, T> {
    /// A unit variant, as the twin's `serialize_unit_variant`.
    #[inline]
    pub fn unit(self, name: &'static str, index: u32) -> Result<S::Ok, S::Error> {
        write_unit(self.into_inner(), name, T::KEY, T::tag(index))
    }

    /// A struct variant, as the twin's `serialize_struct_variant` and its
    /// fields.
    #[inline]
    pub fn fields<F: FieldRefs>(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        shape: &'static StructShape,
        fields: F,
    ) -> Result<S::Ok, S::Error> {
        let (tag, visible) = (T::tag(index), T::visible_tags(index));
        write_fields(
            self.into_inner(),
            name,
            variant,
            T::KEY,
            tag,
            visible,
            shape,
            fields,
        )
    }
}

/// `TaggedSerializer::fields` without the enum's table: generic over the
/// tag's type and the fields, so that enums share what they can.
#[allow(clippy::too_many_arguments)]
fn write_fields<S: Serializer, G: Serialize, F: FieldRefs>(
    inner: S,
    name: &'static str,
    variant: &'static str,
    key: &'static str,
    tag: Option<G>,
    visible: Option<&'static [Literal]>,
    shape: &'static StructShape,
    fields: F,
) -> Result<S::Ok, S::Error> {
    let len = shape.fields.len();
    let mut state = struct_variant(inner, name, variant, len, key, tag, visible)?;
    fields.write(&mut state, shape.fields)?;
    SerializeStructVariant::end(state)
}
