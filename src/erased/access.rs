//! Maps and sequences across the boundary: `ErasedMapAccess` and
//! `ErasedSeqAccess` on the format's side, `ErasedMap` and `ErasedSeq` on
//! the registered type's side.

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess};

use super::deserializer::{Crossing, Source};
use super::error::{end, erase, Error};
use super::request::{Request, RequestSeed};
use super::visitor::{ErasedVisitor, IdentSeed, VisitorCell};

/// What became of a probe handed to a seed: whether the seed asked for its
/// value at all, and whether the map or sequence had ended.
#[derive(Default)]
pub(super) struct Probed {
    pub(super) used: bool,
    ended: bool,
}
/// A map's keys or a sequence's elements: what `next_seed` reads next.
trait NextIn<'de> {
    /// Reads the next key or element with `request`; `Ok(false)` at the end.
    fn next(
        &mut self,
        request: &Request,
        visitor: &mut dyn ErasedVisitor<'de>,
    ) -> Result<bool, Error>;

    /// Reads the next key or element as an identifier; `Ok(None)` at the
    /// end, `Ok(Some(Some(name)))` for a borrowed name handed back.
    #[inline]
    fn next_identifier(
        &mut self,
        visitor: &mut dyn ErasedVisitor<'de>,
    ) -> Result<Option<Option<&'de str>>, Error> {
        Ok(self.next(&Request::Identifier, visitor)?.then_some(None))
    }
}

impl<'de> NextIn<'de> for dyn ErasedMapAccess<'de> + '_ {
    #[inline]
    fn next(
        &mut self,
        request: &Request,
        visitor: &mut dyn ErasedVisitor<'de>,
    ) -> Result<bool, Error> {
        self.erased_next_key(request, visitor)
    }

    #[inline]
    fn next_identifier(
        &mut self,
        visitor: &mut dyn ErasedVisitor<'de>,
    ) -> Result<Option<Option<&'de str>>, Error> {
        self.erased_next_identifier(visitor)
    }
}

impl<'de> NextIn<'de> for dyn ErasedSeqAccess<'de> + '_ {
    #[inline]
    fn next(
        &mut self,
        request: &Request,
        visitor: &mut dyn ErasedVisitor<'de>,
    ) -> Result<bool, Error> {
        self.erased_next_element(request, visitor)
    }
}

/// The next key or element as a source: the end is reported through
/// `Probed::ended`.
struct NextSource<'a, N: ?Sized> {
    access: &'a mut N,
    probed: &'a mut Probed,
}

impl<'de, N: ?Sized + NextIn<'de>> Source<'de> for NextSource<'_, N> {
    #[inline]
    fn fetch(
        &mut self,
        request: &Request,
        visitor: &mut dyn ErasedVisitor<'de>,
    ) -> Result<(), Error> {
        self.probed.used = true;
        if self.access.next(request, visitor)? {
            Ok(())
        } else {
            self.probed.ended = true;
            Err(end())
        }
    }

    #[inline]
    fn fetch_identifier(
        &mut self,
        visitor: &mut dyn ErasedVisitor<'de>,
    ) -> Result<Option<&'de str>, Error> {
        self.probed.used = true;
        match self.access.next_identifier(visitor)? {
            Some(name) => Ok(name),
            None => {
                self.probed.ended = true;
                Err(end())
            }
        }
    }
}

/// Runs `seed` on the next key or element; `None` at the end.
#[inline]
fn next_seed<'de, T, N>(
    access: &mut N,
    seed: T,
    human_readable: bool,
) -> Result<Option<T::Value>, Error>
where
    T: DeserializeSeed<'de>,
    N: ?Sized + NextIn<'de>,
{
    let mut probed = Probed::default();
    let source = NextSource {
        access: &mut *access,
        probed: &mut probed,
    };
    // Matched, not `?`: each `?` compiles a conversion per value type.
    match seed.deserialize(Crossing::new(source, human_readable)) {
        _ if probed.ended => Ok(None),
        Ok(value) if probed.used => Ok(Some(value)),
        // A seed that never looked at its key or element: it is still unread.
        Ok(value) => match skip_next(access, human_readable) {
            Ok(true) => Ok(Some(value)),
            Ok(false) => Ok(None),
            Err(e) => Err(e),
        },
        Err(e) => Err(e),
    }
}

/// Skips the next key or element; `Ok(false)` at the end. Not generic over
/// the seed, so compiled once per kind of access.
fn skip_next<'de, N: ?Sized + NextIn<'de>>(
    access: &mut N,
    human_readable: bool,
) -> Result<bool, Error> {
    let mut slot = VisitorCell::new(de::IgnoredAny, human_readable);
    access.next(&Request::IgnoredAny, &mut slot)
}

/// An object-safe `MapAccess`.
pub trait ErasedMapAccess<'de> {
    /// Reads the next key with `request`; `Ok(false)` at the end of the map.
    fn erased_next_key(
        &mut self,
        request: &Request,
        visitor: &mut dyn ErasedVisitor<'de>,
    ) -> Result<bool, Error>;
    fn erased_next_value(
        &mut self,
        request: &Request,
        visitor: &mut dyn ErasedVisitor<'de>,
    ) -> Result<(), Error>;
    /// Reads the next key as an identifier: a borrowed name comes back as
    /// the result (one crossing instead of two for a struct's field names).
    fn erased_next_identifier(
        &mut self,
        visitor: &mut dyn ErasedVisitor<'de>,
    ) -> Result<Option<Option<&'de str>>, Error>;
    fn erased_size_hint(&self) -> Option<usize>;
}

impl<'de, A: MapAccess<'de>> ErasedMapAccess<'de> for A {
    fn erased_next_key(
        &mut self,
        request: &Request,
        visitor: &mut dyn ErasedVisitor<'de>,
    ) -> Result<bool, Error> {
        match self.next_key_seed(RequestSeed { request, visitor }) {
            Ok(key) => Ok(key.is_some()),
            Err(e) => Err(erase(e)),
        }
    }

    fn erased_next_value(
        &mut self,
        request: &Request,
        visitor: &mut dyn ErasedVisitor<'de>,
    ) -> Result<(), Error> {
        self.next_value_seed(RequestSeed { request, visitor })
            .map_err(erase)
    }

    fn erased_next_identifier(
        &mut self,
        visitor: &mut dyn ErasedVisitor<'de>,
    ) -> Result<Option<Option<&'de str>>, Error> {
        self.next_key_seed(IdentSeed(visitor)).map_err(erase)
    }

    fn erased_size_hint(&self) -> Option<usize> {
        self.size_hint()
    }
}

/// The registered type's side of a map.
pub(super) struct ErasedMap<'a, 'de> {
    map: &'a mut dyn ErasedMapAccess<'de>,
    human_readable: bool,
}

impl<'a, 'de> ErasedMap<'a, 'de> {
    pub(super) fn new(map: &'a mut dyn ErasedMapAccess<'de>, human_readable: bool) -> Self {
        ErasedMap {
            map,
            human_readable,
        }
    }

    /// The access it wraps.
    #[inline]
    pub(super) fn inner(&mut self) -> &mut dyn ErasedMapAccess<'de> {
        &mut *self.map
    }
}

struct ValueSource<'a, 'de> {
    map: &'a mut dyn ErasedMapAccess<'de>,
    probed: &'a mut Probed,
}

impl<'de> Source<'de> for ValueSource<'_, 'de> {
    #[inline]
    fn fetch(
        &mut self,
        request: &Request,
        visitor: &mut dyn ErasedVisitor<'de>,
    ) -> Result<(), Error> {
        self.probed.used = true;
        self.map.erased_next_value(request, visitor)
    }
}

/// Skips a value its seed never looked at.
fn skip_value(map: &mut dyn ErasedMapAccess<'_>, human_readable: bool) -> Result<(), Error> {
    let mut slot = VisitorCell::new(de::IgnoredAny, human_readable);
    map.erased_next_value(&Request::IgnoredAny, &mut slot)
}

impl<'de> MapAccess<'de> for ErasedMap<'_, 'de> {
    type Error = Error;

    #[inline]
    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        next_seed(&mut *self.map, seed, self.human_readable)
    }

    #[inline]
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        let mut probed = Probed::default();
        let source = ValueSource {
            map: &mut *self.map,
            probed: &mut probed,
        };
        match seed.deserialize(Crossing::new(source, self.human_readable)) {
            Ok(value) if probed.used => Ok(value),
            Ok(value) => match skip_value(self.map, self.human_readable) {
                Ok(()) => Ok(value),
                Err(e) => Err(e),
            },
            Err(e) => Err(e),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        self.map.erased_size_hint()
    }
}

/// An object-safe `SeqAccess`.
pub trait ErasedSeqAccess<'de> {
    /// Reads the next element with `request`; `Ok(false)` at the end.
    fn erased_next_element(
        &mut self,
        request: &Request,
        visitor: &mut dyn ErasedVisitor<'de>,
    ) -> Result<bool, Error>;
    fn erased_size_hint(&self) -> Option<usize>;
}

impl<'de, A: SeqAccess<'de>> ErasedSeqAccess<'de> for A {
    fn erased_next_element(
        &mut self,
        request: &Request,
        visitor: &mut dyn ErasedVisitor<'de>,
    ) -> Result<bool, Error> {
        match self.next_element_seed(RequestSeed { request, visitor }) {
            Ok(element) => Ok(element.is_some()),
            Err(e) => Err(erase(e)),
        }
    }

    fn erased_size_hint(&self) -> Option<usize> {
        self.size_hint()
    }
}

/// The registered type's side of a sequence.
pub(super) struct ErasedSeq<'a, 'de> {
    seq: &'a mut dyn ErasedSeqAccess<'de>,
    human_readable: bool,
}

impl<'a, 'de> ErasedSeq<'a, 'de> {
    pub(super) fn new(seq: &'a mut dyn ErasedSeqAccess<'de>, human_readable: bool) -> Self {
        ErasedSeq {
            seq,
            human_readable,
        }
    }

    /// The access it wraps.
    #[inline]
    pub(super) fn inner(&mut self) -> &mut dyn ErasedSeqAccess<'de> {
        &mut *self.seq
    }
}

impl<'de> SeqAccess<'de> for ErasedSeq<'_, 'de> {
    type Error = Error;

    #[inline]
    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        next_seed(&mut *self.seq, seed, self.human_readable)
    }

    fn size_hint(&self) -> Option<usize> {
        self.seq.erased_size_hint()
    }
}
