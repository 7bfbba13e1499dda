//! An annotated enum in the externally and adjacently tagged forms, read
//! as serde's derive reads them: the external form with
//! `deserialize_enum` (`"Fish"` or `{"Dog":{...}}` in JSON, the variant's
//! index in postcard and bincode), the adjacent form's tag as a unit
//! variant of the enum. The variant's content is read by the enum's
//! serde-derived twin, through the format's own variant access, so every
//! serde attribute of the variants and their fields reads as under serde.
//! Writing is the twin's serde-derived code (see the macro's expansion).

use core::cell::Cell;
use core::fmt;
use core::marker::PhantomData;

use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, Error as _, MapAccess, VariantAccess, Visitor,
};

use super::adjacent::{self, EnumForm};
use crate::buffer::{Buffer, Mark, Reader};
use crate::dispatch::{Enum, Subtypes, VariantSeed};
use crate::tag::TagSink;

/// The adjacently tagged form's tag as serde's derive writes it: a unit
/// variant of the enum (`"Dog"` in JSON, the variant's index in postcard
/// and bincode). For `Tagged`, which writes one variant's payload alone.
pub struct UnitVariant {
    enum_name: &'static str,
    index: u32,
    variant: &'static str,
}

impl UnitVariant {
    /// Variant `index` of `enum_name`, written under the name `variant`.
    pub const fn new(enum_name: &'static str, index: u32, variant: &'static str) -> Self {
        UnitVariant {
            enum_name,
            index,
            variant,
        }
    }
}

impl serde::Serialize for UnitVariant {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_unit_variant(self.enum_name, self.index, self.variant)
    }
}

/// Reads an enum in the externally tagged form.
pub fn deserialize_external<'de, T, D>(deserializer: D) -> Result<T, D::Error>
where
    T: Enum<'de>,
    D: Deserializer<'de>,
{
    let subtypes = T::SUBTYPES;
    let settings = subtypes.settings();
    // Only the nesting: this form hoists no tag key (see `enter_depth`).
    let Some(_depth) = crate::state::enter_depth(settings.max_depth) else {
        return Err(D::Error::custom("recursion limit exceeded"));
    };
    // Asked up front only for a fallback, which is handed the variant's
    // tag replayed; a variant's content is read from the format itself.
    let human_readable = settings.fallback.map(|_| deserializer.is_human_readable());
    deserializer.deserialize_enum(
        settings.name,
        T::Subtypes::VARIANTS,
        ExternalVisitor {
            subtypes,
            human_readable,
            marker: PhantomData,
        },
    )
}

/// Reads an enum in the adjacently tagged form, its keys `T::ADJACENT`.
pub fn deserialize_adjacent<'de, T, D>(deserializer: D) -> Result<T, D::Error>
where
    T: Enum<'de>,
    D: Deserializer<'de>,
{
    adjacent::deserialize(T::SUBTYPES, EnumForm::<T>::new(), deserializer)
}

struct ExternalVisitor<'de, S> {
    subtypes: S,
    /// The format's `is_human_readable`, with a fallback.
    human_readable: Option<bool>,
    marker: PhantomData<&'de ()>,
}

impl<'de, S: Subtypes<'de>> Visitor<'de> for ExternalVisitor<'de, S> {
    type Value = S::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let settings = self.subtypes.settings();
        match settings.expecting {
            Some(expecting) => f.write_str(expecting),
            None => write!(
                f,
                "a variant of {}: its tag as a string, or a map with the tag as its single key",
                settings.name
            ),
        }
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<S::Value, A::Error> {
        let subtypes = &self.subtypes;
        // Nothing to keep: no buffer to set up and drop. `MAY_KEEP_TAG` is
        // a constant, so an enum without a fallback does not compile the
        // fallback's path at all (the replay of its tag, `KeyFirst`).
        if !S::MAY_KEEP_TAG {
            return without_fallback(subtypes, data);
        }
        let Some(fallback) = subtypes.settings().fallback else {
            return without_fallback(subtypes, data);
        };
        // An unknown tag is recorded for the fallback, as the key it is.
        let mut kept = Buffer::new();
        let sink = TagSink {
            buf: &mut kept,
            key: None,
            fallback: true,
            visible: false,
            head: None,
        };
        let (found, access) = data.variant_seed(VariantSeed::new(subtypes, Some(sink)))?;
        if let Some(index) = found {
            return subtypes.build(index, AccessPayload { access });
        }
        // The fallback reads a map of that one key and its value.
        let human_readable = self.human_readable.unwrap_or(true);
        kept.note_human_readable(human_readable);
        let reached = Cell::new(false);
        let out = subtypes.build(
            fallback,
            KeyFirst {
                key: Some(kept.reader_at(Mark::START)),
                access: Some(access),
                reached: &reached,
                human_readable,
            },
        );
        match out {
            // A bare string (a unit variant's form) has no content to make
            // an object of: the unknown tag is the error.
            Err(_) if !reached.get() => {
                let mut key = kept.reader_at(Mark::START);
                subtypes.read_tag(key.next_key::<A::Error>(human_readable), None)?;
                Err(super::no_fallback())
            }
            out => out,
        }
    }
}

/// `ExternalVisitor::visit_enum` for a set without a fallback: an unknown
/// tag is the tag reader's error.
#[inline(always)]
fn without_fallback<'de, S, A>(subtypes: &S, data: A) -> Result<S::Value, A::Error>
where
    S: Subtypes<'de>,
    A: EnumAccess<'de>,
{
    match data.variant_seed(VariantSeed::new(subtypes, None))? {
        (Some(index), access) => subtypes.build(index, AccessPayload { access }),
        (None, _) => Err(super::no_fallback()),
    }
}

/// The format's variant access as a payload: the enum's twin reads the
/// variant's content through it (a unit, a newtype's value, a tuple's or
/// a struct's fields), and as a deserializer it is the newtype content.
struct AccessPayload<A> {
    access: A,
}

impl<'de, A: VariantAccess<'de>> VariantAccess<'de> for AccessPayload<A> {
    type Error = A::Error;

    fn unit_variant(self) -> Result<(), A::Error> {
        self.access.unit_variant()
    }

    fn newtype_variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<S::Value, A::Error> {
        self.access.newtype_variant_seed(seed)
    }

    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, A::Error> {
        self.access.tuple_variant(len, visitor)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        self.access.struct_variant(fields, visitor)
    }
}

/// Hands a request for the newtype content to the content's deserializer.
struct Forward<V>(V);

impl<'de, V: Visitor<'de>> DeserializeSeed<'de> for Forward<V> {
    type Value = V::Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<V::Value, D::Error> {
        deserializer.deserialize_any(self.0)
    }
}

impl<'de, A: VariantAccess<'de>> Deserializer<'de> for AccessPayload<A> {
    type Error = A::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, A::Error> {
        self.access.newtype_variant_seed(Forward(visitor))
    }

    // serde's default, as the rest-of-object reader of the internal form
    // tells a payload: the twin, serde's derive of an enum, never asks (it
    // reads the variant through the format's variant access, whose content
    // answers for the format), and a format's variant access cannot be
    // asked.
    fn is_human_readable(&self) -> bool {
        true
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

/// An unknown variant handed to the fallback: a map of its tag (recorded,
/// replayed as the key) and its content (read live from the format's
/// variant access), as a map in JSON holds it.
struct KeyFirst<'b, 'de, A> {
    key: Option<Reader<'b, 'de>>,
    /// `None` once the content was read.
    access: Option<A>,
    /// Set once the format handed the content over: a unit variant's
    /// access (a bare string) has none.
    reached: &'b Cell<bool>,
    human_readable: bool,
}

/// Notes that the content's deserializer was reached.
struct Reached<'b, S> {
    seed: S,
    reached: &'b Cell<bool>,
}

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for Reached<'_, S> {
    type Value = S::Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<S::Value, D::Error> {
        self.reached.set(true);
        self.seed.deserialize(deserializer)
    }
}

impl<'de, A: VariantAccess<'de>> MapAccess<'de> for KeyFirst<'_, 'de, A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        match self.key.take() {
            Some(mut key) => seed
                .deserialize(key.next_key::<A::Error>(self.human_readable))
                .map(Some),
            None => Ok(None),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        match self.access.take() {
            Some(access) => access.newtype_variant_seed(Reached {
                seed,
                reached: self.reached,
            }),
            None => Err(A::Error::custom(
                "a map value was asked for after the map's end",
            )),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(usize::from(self.key.is_some()))
    }
}

/// The whole map, whatever is asked, as a fallback payload reads it.
impl<'de, A: VariantAccess<'de>> Deserializer<'de> for KeyFirst<'_, 'de, A> {
    type Error = A::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, A::Error> {
        visitor.visit_map(self)
    }

    fn is_human_readable(&self) -> bool {
        self.human_readable
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

/// The fallback variant (a newtype: the macro refuses others in this form)
/// reading the map as its content.
impl<'de, A: VariantAccess<'de>> VariantAccess<'de> for KeyFirst<'_, 'de, A> {
    type Error = A::Error;

    fn unit_variant(self) -> Result<(), A::Error> {
        self.deserialize_any(de::IgnoredAny).map(|_| ())
    }

    fn newtype_variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<S::Value, A::Error> {
        seed.deserialize(self)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, A::Error> {
        visitor.visit_map(self)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        visitor.visit_map(self)
    }
}
