//! The externally and adjacently tagged forms, `{"Circle":{"r":1.0}}` and
//! `{"type":"Circle","value":{"r":1.0}}`: their readers over any set of
//! subtypes (`external`, `adjacent`), their writers, and what both share:
//! the tag read with the one request its kinds allow ([`Requested`]), and a
//! value handed to a subtype as its payload (`build_from`, through
//! `rest::ValuePayload`).
//!
//! Both read with `deserialize_map` or `deserialize_struct`, never
//! `deserialize_any`, so formats that do not describe themselves (postcard,
//! bincode) read what they wrote, as typetag's readers do. With the tag
//! first nothing is buffered.

use core::cell::Cell;

use serde::de::{DeserializeSeed, Deserializer};
use serde::ser::Serialize;

use crate::compiled::{AnyValue, WriteBare};
use crate::dispatch::Subtypes;
use crate::rest::ValuePayload;
use crate::subtype::Subtype;
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

/// An unknown tag that no fallback takes, where the tag reader has not
/// already refused it: only a set without a fallback gets here, so these
/// arms are there for the types.
#[cold]
pub(crate) fn no_fallback<E: serde::de::Error>() -> E {
    E::custom("an unknown tag reached no fallback")
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
