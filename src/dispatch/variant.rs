//! A variant's tag read as serde's derive reads an enum's variant: the
//! externally tagged form's key and the adjacently tagged form's tag (a
//! unit variant of the enum), a string in JSON, the variant's index in
//! postcard and bincode.

use core::fmt;

use serde::de::value::{BorrowedStrDeserializer, StrDeserializer};
use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, Unexpected, VariantAccess, Visitor,
};

use super::Subtypes;
use crate::tag::TagSink;

/// Reads a variant's tag: a string looked up among the enum's tags, or,
/// from formats that write the variant's index (postcard, bincode), that
/// index. `None`: an unknown tag, recorded in the sink for the fallback.
pub struct VariantSeed<'a, 'de, S> {
    subtypes: &'a S,
    sink: Option<TagSink<'a, 'de>>,
}

impl<'a, 'de, S> VariantSeed<'a, 'de, S> {
    pub(crate) fn new(subtypes: &'a S, sink: Option<TagSink<'a, 'de>>) -> Self {
        VariantSeed { subtypes, sink }
    }
}

impl<'de, S: Subtypes<'de>> DeserializeSeed<'de> for VariantSeed<'_, 'de, S> {
    type Value = Option<u32>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Option<u32>, D::Error> {
        deserializer.deserialize_identifier(self)
    }
}

impl<'de, S: Subtypes<'de>> Visitor<'de> for VariantSeed<'_, 'de, S> {
    type Value = Option<u32>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "a variant tag of {} or a variant index",
            self.subtypes.settings().name
        )
    }

    fn visit_u64<E: de::Error>(self, index: u64) -> Result<Option<u32>, E> {
        match u32::try_from(index) {
            Ok(index) if (index as usize) < S::VARIANTS.len() => Ok(Some(index)),
            _ => Err(E::invalid_value(
                Unexpected::Unsigned(index),
                &format!("variant index 0 <= i < {}", S::VARIANTS.len()).as_str(),
            )),
        }
    }

    fn visit_str<E: de::Error>(self, tag: &str) -> Result<Option<u32>, E> {
        self.subtypes
            .read_tag(StrDeserializer::<E>::new(tag), self.sink)
    }

    fn visit_borrowed_str<E: de::Error>(self, tag: &'de str) -> Result<Option<u32>, E> {
        self.subtypes
            .read_tag(BorrowedStrDeserializer::<E>::new(tag), self.sink)
    }

    fn visit_bytes<E: de::Error>(self, tag: &[u8]) -> Result<Option<u32>, E> {
        match core::str::from_utf8(tag) {
            Ok(tag) => self.visit_str(tag),
            Err(_) => Err(E::invalid_value(Unexpected::Bytes(tag), &self)),
        }
    }
}

/// Reads the adjacent form's tag as serde writes it, a unit variant of the
/// enum: `"Dog"` in JSON, the variant's index in postcard and bincode.
/// With `bare`, a variant's name or index that the format hands over as it
/// is (not as an enum) is taken too: serde's derive reads the sequence
/// form's tag as the variant's identifier. Still `deserialize_enum`, not
/// `deserialize_identifier` as serde's derive asks there: bincode refuses
/// the latter.
pub(crate) fn read_unit_variant<'de, S, D>(
    subtypes: &S,
    deserializer: D,
    sink: Option<TagSink<'_, 'de>>,
    bare: bool,
) -> Result<Option<u32>, D::Error>
where
    S: Subtypes<'de>,
    D: Deserializer<'de>,
{
    deserializer.deserialize_enum(
        subtypes.settings().name,
        S::VARIANTS,
        UnitVariant {
            subtypes,
            sink,
            bare,
        },
    )
}

struct UnitVariant<'a, 'de, S> {
    subtypes: &'a S,
    sink: Option<TagSink<'a, 'de>>,
    bare: bool,
}

impl<'a, 'de, S: Subtypes<'de>> UnitVariant<'a, 'de, S> {
    /// The identifier's reader, or the error for `unexpected` where only
    /// an enum is taken.
    fn identifier<E: de::Error>(
        self,
        unexpected: Unexpected<'_>,
    ) -> Result<VariantSeed<'a, 'de, S>, E> {
        match self.bare {
            true => Ok(VariantSeed::new(self.subtypes, self.sink)),
            false => Err(E::invalid_type(unexpected, &self)),
        }
    }
}

impl<'de, S: Subtypes<'de>> Visitor<'de> for UnitVariant<'_, 'de, S> {
    type Value = Option<u32>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a variant tag of {}", self.subtypes.settings().name)
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<Option<u32>, A::Error> {
        let (found, access) = data.variant_seed(VariantSeed::new(self.subtypes, self.sink))?;
        access.unit_variant()?;
        Ok(found)
    }

    fn visit_u64<E: de::Error>(self, index: u64) -> Result<Option<u32>, E> {
        self.identifier(Unexpected::Unsigned(index))?
            .visit_u64(index)
    }

    fn visit_str<E: de::Error>(self, tag: &str) -> Result<Option<u32>, E> {
        self.identifier(Unexpected::Str(tag))?.visit_str(tag)
    }

    fn visit_borrowed_str<E: de::Error>(self, tag: &'de str) -> Result<Option<u32>, E> {
        self.identifier(Unexpected::Str(tag))?
            .visit_borrowed_str(tag)
    }

    fn visit_bytes<E: de::Error>(self, tag: &[u8]) -> Result<Option<u32>, E> {
        self.identifier(Unexpected::Bytes(tag))?.visit_bytes(tag)
    }
}
