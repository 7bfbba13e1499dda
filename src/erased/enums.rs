//! Enums across the boundary: `ErasedEnumAccess` on the format's side
//! (`EnumSlot`), `ErasedEnum` on the registered type's side.

use serde::de::{self, DeserializeSeed, EnumAccess, VariantAccess, Visitor};

use super::access::Probed;
use super::deserializer::{Crossing, Source};
use super::error::{erase, take, used, Error};
use super::request::{Request, RequestSeed};
use super::visitor::{ErasedVisitor, VisitorCell, Wrap};

/// An object-safe `EnumAccess` and, once the variant is read, its
/// `VariantAccess`.
pub trait ErasedEnumAccess<'de> {
    fn erased_variant(
        &mut self,
        request: &Request,
        visitor: &mut dyn ErasedVisitor<'de>,
    ) -> Result<(), Error>;
    fn erased_unit_variant(&mut self) -> Result<(), Error>;
    fn erased_newtype_variant(
        &mut self,
        request: &Request,
        visitor: &mut dyn ErasedVisitor<'de>,
    ) -> Result<(), Error>;
    fn erased_tuple_variant(
        &mut self,
        len: usize,
        visitor: &mut dyn ErasedVisitor<'de>,
    ) -> Result<(), Error>;
    fn erased_struct_variant(
        &mut self,
        fields: &'static [&'static str],
        visitor: &mut dyn ErasedVisitor<'de>,
    ) -> Result<(), Error>;
}

/// The format's side of an enum: its access, then its variant.
pub(super) struct EnumSlot<A, V> {
    pub(super) access: Option<A>,
    pub(super) variant: Option<V>,
}

impl<'de, A: EnumAccess<'de>> ErasedEnumAccess<'de> for EnumSlot<A, A::Variant> {
    fn erased_variant(
        &mut self,
        request: &Request,
        visitor: &mut dyn ErasedVisitor<'de>,
    ) -> Result<(), Error> {
        let ((), variant) = take!(self.access)
            .variant_seed(RequestSeed { request, visitor })
            .map_err(erase)?;
        self.variant = Some(variant);
        Ok(())
    }

    fn erased_unit_variant(&mut self) -> Result<(), Error> {
        take!(self.variant).unit_variant().map_err(erase)
    }

    fn erased_newtype_variant(
        &mut self,
        request: &Request,
        visitor: &mut dyn ErasedVisitor<'de>,
    ) -> Result<(), Error> {
        take!(self.variant)
            .newtype_variant_seed(RequestSeed { request, visitor })
            .map_err(erase)
    }

    fn erased_tuple_variant(
        &mut self,
        len: usize,
        visitor: &mut dyn ErasedVisitor<'de>,
    ) -> Result<(), Error> {
        take!(self.variant)
            .tuple_variant(len, Wrap(visitor))
            .map_err(erase)
    }

    fn erased_struct_variant(
        &mut self,
        fields: &'static [&'static str],
        visitor: &mut dyn ErasedVisitor<'de>,
    ) -> Result<(), Error> {
        take!(self.variant)
            .struct_variant(fields, Wrap(visitor))
            .map_err(erase)
    }
}

/// The registered type's side of an enum.
pub(super) struct ErasedEnum<'a, 'de> {
    data: &'a mut dyn ErasedEnumAccess<'de>,
    human_readable: bool,
}

impl<'a, 'de> ErasedEnum<'a, 'de> {
    pub(super) fn new(data: &'a mut dyn ErasedEnumAccess<'de>, human_readable: bool) -> Self {
        ErasedEnum {
            data,
            human_readable,
        }
    }
}

struct VariantSource<'a, 'de> {
    data: &'a mut dyn ErasedEnumAccess<'de>,
    probed: &'a mut Probed,
}

impl<'de> Source<'de> for VariantSource<'_, 'de> {
    fn fetch(
        &mut self,
        request: &Request,
        visitor: &mut dyn ErasedVisitor<'de>,
    ) -> Result<(), Error> {
        self.probed.used = true;
        self.data.erased_variant(request, visitor)
    }
}

struct NewtypeSource<'a, 'de> {
    data: &'a mut dyn ErasedEnumAccess<'de>,
    probed: &'a mut Probed,
}

impl<'de> Source<'de> for NewtypeSource<'_, 'de> {
    fn fetch(
        &mut self,
        request: &Request,
        visitor: &mut dyn ErasedVisitor<'de>,
    ) -> Result<(), Error> {
        self.probed.used = true;
        self.data.erased_newtype_variant(request, visitor)
    }
}

impl<'de> EnumAccess<'de> for ErasedEnum<'_, 'de> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self), Error> {
        let mut probed = Probed::default();
        let source = VariantSource {
            data: &mut *self.data,
            probed: &mut probed,
        };
        let variant = seed.deserialize(Crossing::new(source, self.human_readable))?;
        if !probed.used {
            let mut slot = VisitorCell::new(de::IgnoredAny, self.human_readable);
            self.data.erased_variant(&Request::IgnoredAny, &mut slot)?;
        }
        Ok((variant, self))
    }
}

impl<'de> VariantAccess<'de> for ErasedEnum<'_, 'de> {
    type Error = Error;

    fn unit_variant(self) -> Result<(), Error> {
        self.data.erased_unit_variant()
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, Error> {
        let mut probed = Probed::default();
        let source = NewtypeSource {
            data: &mut *self.data,
            probed: &mut probed,
        };
        let value = seed.deserialize(Crossing::new(source, self.human_readable))?;
        if !probed.used {
            let mut slot = VisitorCell::new(de::IgnoredAny, self.human_readable);
            self.data
                .erased_newtype_variant(&Request::IgnoredAny, &mut slot)?;
        }
        Ok(value)
    }

    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, Error> {
        let mut slot = VisitorCell::new(visitor, self.human_readable);
        self.data.erased_tuple_variant(len, &mut slot)?;
        slot.out()
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        let mut slot = VisitorCell::new(visitor, self.human_readable);
        self.data.erased_struct_variant(fields, &mut slot)?;
        slot.out()
    }
}
