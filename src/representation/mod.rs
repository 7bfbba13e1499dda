//! The externally and adjacently tagged forms, `{"Circle":{"r":1.0}}` and
//! `{"type":"Circle","value":{"r":1.0}}`: their readers over any set of
//! subtypes (`external`, `adjacent`), their writers, and what both share:
//! the tag read with the one request its kinds allow ([`Requested`]), and a
//! value handed to a subtype as its payload ([`ValuePayload`]).
//!
//! Both read with `deserialize_map` or `deserialize_struct`, never
//! `deserialize_any`, so formats that do not describe themselves (postcard,
//! bincode) read what they wrote, as typetag's readers do. With the tag
//! first nothing is buffered.

use core::cell::Cell;

use serde::de::{self, DeserializeSeed, Deserializer, VariantAccess, Visitor};
use serde::ser::Serialize;

use crate::compiled::{AnyValue, WriteBare};
use crate::dispatch::Subtypes;
use crate::object::Subtype;
pub(crate) use crate::tag::Requested;
use crate::tag::{OwnedLiteral, TagSink};

pub(crate) mod adjacent;
pub(crate) mod enums;
pub(crate) mod external;

pub(crate) use self::adjacent::Adjacent;

/// How the tag sits beside the payload.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Representation {
    /// `{"type":"Circle","r":1.0}`: the tag among the payload's fields.
    #[default]
    Internal,
    /// `{"Circle":{"r":1.0}}`: the tag as the one key, the payload its value.
    External,
    /// `{"type":"Circle","value":{"r":1.0}}`: the tag and the payload under
    /// two keys.
    Adjacent(Adjacent),
    /// `as_map`: the internal form, written as a map with the tag entry
    /// first and read with `deserialize_map` (typetag's internal form), so
    /// postcard and bincode read it back.
    InternalMap,
}

/// Reads a tag (a map key in the external form, a value in the adjacent
/// one) with the request of its kinds: `Some(index)`, or `None` for an
/// unknown tag recorded in the sink for the fallback.
pub(crate) struct TagSeed<'a, 'de, S> {
    pub(crate) subtypes: &'a S,
    pub(crate) sink: Option<TagSink<'a, 'de>>,
    /// The adjacent form's `[tag, content]`, where serde's derive reads an
    /// enum's tag as a bare variant name or index too.
    pub(crate) in_seq: bool,
}

impl<'de, S: Subtypes<'de>> DeserializeSeed<'de> for TagSeed<'_, 'de, S> {
    type Value = Option<u32>;

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Option<u32>, D::Error> {
        if S::TAG_IS_VARIANT {
            return self
                .subtypes
                .read_variant_tag(deserializer, self.sink, self.in_seq);
        }
        let request = self.subtypes.tag_request();
        self.subtypes.read_tag(
            Requested {
                deserializer,
                request,
            },
            self.sink,
        )
    }
}

/// Reads subtype `index` from a value: the content of the external form's
/// one entry or of the adjacent form's content key.
pub(crate) struct BuildSeed<'a, S> {
    pub(crate) subtypes: &'a S,
    pub(crate) index: u32,
}

impl<'de, S: Subtypes<'de>> DeserializeSeed<'de> for BuildSeed<'_, S> {
    type Value = S::Value;

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<S::Value, D::Error> {
        build_from(self.subtypes, self.index, deserializer)
    }
}

/// Reads subtype `index` from `deserializer`, keeping the format's own
/// error (with its position) where a type-erased payload would flatten it.
pub(crate) fn build_from<'de, S, D>(
    subtypes: &S,
    index: u32,
    deserializer: D,
) -> Result<S::Value, D::Error>
where
    S: Subtypes<'de>,
    D: Deserializer<'de>,
{
    let slot = Cell::new(None);
    let payload = ValuePayload {
        deserializer,
        name: subtypes.variant_name(index),
        catch: subtypes.settings().erased.then_some(&slot),
    };
    subtypes
        .build(index, payload)
        .map_err(|e| slot.take().unwrap_or(e))
}

/// A whole value as a subtype's payload: every request goes to the value's
/// own deserializer, and as a variant access it is the variant's content.
pub(crate) struct ValuePayload<'s, 'de, D: Deserializer<'de>> {
    deserializer: D,
    /// The struct name a struct variant asks for, as its writer named it.
    name: &'static str,
    /// Keeps the first error of the format for a type-erased payload (see
    /// `Rest::catch`).
    catch: Option<&'s Cell<Option<D::Error>>>,
}

/// Keeps the first error in `catch` and passes a stand-in on, as `Rest`
/// does for the live map.
#[inline]
fn caught<T, E: de::Error>(catch: Option<&Cell<Option<E>>>, out: Result<T, E>) -> Result<T, E> {
    match (catch, out) {
        (Some(slot), Err(e)) => Err(keep_first(slot, e)),
        (_, out) => out,
    }
}

#[cold]
fn keep_first<E: de::Error>(slot: &Cell<Option<E>>, e: E) -> E {
    match slot.take() {
        Some(first) => {
            slot.set(Some(first));
            e
        }
        None => {
            let stand_in = E::custom(format_args!("{e}"));
            slot.set(Some(e));
            stand_in
        }
    }
}

macro_rules! forward_caught {
    ($($method:ident($($arg:ident: $ty:ty),*))*) => {
        $(
            #[inline]
            fn $method<V: Visitor<'de>>(self, $($arg: $ty,)* visitor: V) -> Result<V::Value, D::Error> {
                caught(self.catch, self.deserializer.$method($($arg,)* visitor))
            }
        )*
    };
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for ValuePayload<'_, 'de, D> {
    type Error = D::Error;

    forward_caught! {
        deserialize_any() deserialize_bool() deserialize_i8() deserialize_i16()
        deserialize_i32() deserialize_i64() deserialize_i128() deserialize_u8()
        deserialize_u16() deserialize_u32() deserialize_u64() deserialize_u128()
        deserialize_f32() deserialize_f64() deserialize_char() deserialize_str()
        deserialize_string() deserialize_bytes() deserialize_byte_buf()
        deserialize_option() deserialize_unit() deserialize_seq() deserialize_map()
        deserialize_identifier() deserialize_ignored_any()
        deserialize_unit_struct(name: &'static str)
        deserialize_newtype_struct(name: &'static str)
        deserialize_tuple(len: usize)
        deserialize_tuple_struct(name: &'static str, len: usize)
        deserialize_struct(name: &'static str, fields: &'static [&'static str])
        deserialize_enum(name: &'static str, variants: &'static [&'static str])
    }

    fn is_human_readable(&self) -> bool {
        self.deserializer.is_human_readable()
    }
}

impl<'de, D: Deserializer<'de>> VariantAccess<'de> for ValuePayload<'_, 'de, D> {
    type Error = D::Error;

    fn unit_variant(self) -> Result<(), D::Error> {
        de::Deserialize::deserialize(self)
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, D::Error> {
        seed.deserialize(self)
    }

    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, D::Error> {
        self.deserialize_tuple(len, visitor)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        let name = self.name;
        self.deserialize_struct(name, fields, visitor)
    }
}

/// A subtype's value written as it is, as the content of the external or
/// adjacent form: by the registration's writer compiled for serde_json's
/// compact writer where that is the serializer and the registration has
/// one (`native`), else through `erased_serde`.
pub(crate) struct Bare<'a, V: ?Sized> {
    pub(crate) value: &'a V,
    pub(crate) json: Option<WriteBare>,
}

impl<V: ?Sized + Subtype> Serialize for Bare<'_, V> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let serializer = match self.json {
            Some(write) => match crate::compiled::write_json(serializer, |json| {
                write(AnyValue::of(self.value), json)
            }) {
                Ok(done) => return done,
                Err(serializer) => serializer,
            },
            None => serializer,
        };
        erased_serde::serialize(self.value.__json_subtypes_erased(), serializer)
    }
}

/// A tag as the external form's key or the adjacent form's tag value.
/// Not `OwnedLiteral`'s own `Serialize`: the internal form writes its tag
/// entry through that one, and more callers of it (these writers, for the
/// same serializer) make LLVM stop inlining it into the internal form's
/// write, which then costs 1 to 3% more instructions
/// (`benches/instructions.sh '^ser_'`).
pub(crate) struct TagValue<'a>(pub(crate) &'a OwnedLiteral);

impl Serialize for TagValue<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            OwnedLiteral::Str(v) => s.serialize_str(v),
            OwnedLiteral::I64(v) => s.serialize_i64(*v),
            OwnedLiteral::U64(v) => s.serialize_u64(*v),
            OwnedLiteral::Bool(v) => s.serialize_bool(*v),
        }
    }
}
