//! Our own erased accesses handed back across the boundary, unwrapped.
//!
//! A trait object inside a trait object's payload is read by a registered
//! type's reader on the far side of the boundary, and what that reader's
//! visitor is handed (a sequence, a map, an `Option`'s value) crosses back
//! to the format's side, which would wrap it as an erased access again.
//! One more layer per level of nesting: a tree of trait objects read
//! through the erased path cost more per value the deeper it went
//! (quadratic in its depth). When the access handed over is one of ours
//! (`ErasedSeq`, `ErasedMap`, or a `Crossing` over a whole erased
//! deserializer), the visitor is handed the access it wraps instead, so
//! every level reads through the same one layer.
//!
//! Types are compared with `typeid::of`, the `TypeId` of a type with its
//! lifetimes erased; the casts are the module's only `unsafe`.

use serde::de::{Deserializer, MapAccess, SeqAccess};

use super::access::{ErasedMap, ErasedMapAccess, ErasedSeq, ErasedSeqAccess};
use super::deserializer::{Crossing, ErasedDeserializer, Whole};

/// `value` as a `&mut B` when `A` and `B` are one type but for lifetimes.
///
/// # Safety
///
/// The caller only reads from the result, or reborrows what it points to,
/// for no longer than the borrow of `value`, and never writes a value of
/// `B` into it: `B`'s lifetimes may be shorter than `A`'s, which only a
/// write could exploit.
#[inline(always)]
unsafe fn cast_mut<A, B>(value: &mut A) -> Option<&mut B> {
    if typeid::of::<A>() != typeid::of::<B>() {
        return None;
    }
    // SAFETY: one type but for lifetimes, which change neither layout nor
    // validity; the caller answers for the lifetimes (see above).
    Some(unsafe { &mut *(value as *mut A).cast::<B>() })
}

/// The erased access `seq` wraps, when it is one of ours.
#[inline(always)]
pub(super) fn seq<'a, 'de, A: SeqAccess<'de>>(
    seq: &'a mut A,
) -> Option<&'a mut (dyn ErasedSeqAccess<'de> + 'a)> {
    // SAFETY: `A` is `ErasedSeq<'x, 'de>` for some `'x` that outlives
    // `'a` (`seq` is borrowed for `'a`); only its field is reborrowed,
    // for `'a`, and nothing is written into it.
    let erased = unsafe { cast_mut::<A, ErasedSeq<'a, 'de>>(seq) }?;
    Some(erased.inner())
}

/// The erased access `map` wraps, when it is one of ours.
#[inline(always)]
pub(super) fn map<'a, 'de, A: MapAccess<'de>>(
    map: &'a mut A,
) -> Option<&'a mut (dyn ErasedMapAccess<'de> + 'a)> {
    // SAFETY: as in `seq`, for `ErasedMap<'x, 'de>`.
    let erased = unsafe { cast_mut::<A, ErasedMap<'a, 'de>>(map) }?;
    Some(erased.inner())
}

/// The erased deserializer `d` reads from, when it is one of ours over a
/// whole erased deserializer.
#[inline(always)]
pub(super) fn whole<'a, 'de, D: Deserializer<'de>>(
    d: &'a mut D,
) -> Option<&'a mut (dyn ErasedDeserializer<'de> + 'a)> {
    // SAFETY: as in `seq`, for `Crossing<Whole<'x, 'de>>`.
    let crossing = unsafe { cast_mut::<D, Crossing<Whole<'a, 'de>>>(d) }?;
    Some(crossing.source_mut().inner())
}
