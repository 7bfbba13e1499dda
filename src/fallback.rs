//! The compile-time check that a fallback variant's payload can hold the
//! object it receives, decided by the type system rather than by the
//! payload's spelling: `Box<Unknown>` and `Rc<MyStruct>` pass, `String`,
//! `Vec<u8>` or `Box<str>` fail with the message below, and a generic `T`
//! passes (its `Deserialize` decides at run time, as for serde).
//!
//! Generated code calls `(&&&FallbackProbe::<P>::NEW).holds()`: method
//! resolution tries `ProbeNotAMap` first (`P: NotAMap`), else `ProbeAny`.
//! The result must be `HoldsObject<P>`, which only `CanHold` is.

use core::marker::PhantomData;
use std::borrow::Cow;
use std::collections::{BTreeSet, BinaryHeap, HashSet, LinkedList, VecDeque};
use std::rc::Rc;
use std::sync::Arc;

/// Types serde reads from a scalar or a sequence, never from a map.
pub trait NotAMap {}

macro_rules! not_a_map {
    ($($ty:ty),* $(,)?) => {
        $(impl NotAMap for $ty {})*
    };
}

not_a_map!(
    bool,
    char,
    str,
    String,
    u8,
    u16,
    u32,
    u64,
    u128,
    usize,
    i8,
    i16,
    i32,
    i64,
    i128,
    isize,
    f32,
    f64,
    ()
);

impl<T> NotAMap for Vec<T> {}
impl<T> NotAMap for VecDeque<T> {}
impl<T> NotAMap for LinkedList<T> {}
impl<T> NotAMap for BinaryHeap<T> {}
impl<T, S> NotAMap for HashSet<T, S> {}
impl<T> NotAMap for BTreeSet<T> {}
impl<T> NotAMap for [T] {}
impl<T, const N: usize> NotAMap for [T; N] {}
// serde reads these as what they hold.
impl<T: NotAMap + ?Sized> NotAMap for Box<T> {}
impl<T: NotAMap + ?Sized> NotAMap for Rc<T> {}
impl<T: NotAMap + ?Sized> NotAMap for Arc<T> {}
impl<T: NotAMap + ?Sized> NotAMap for &T {}
impl<T: NotAMap + ToOwned + ?Sized> NotAMap for Cow<'_, T> {}
impl<T: NotAMap> NotAMap for Option<T> {}

macro_rules! tuples {
    ($(($($name:ident),+))*) => {
        $(impl<$($name),+> NotAMap for ($($name,)+) {})*
    };
}

tuples! {
    (A)
    (A, B)
    (A, B, C)
    (A, B, C, D)
    (A, B, C, D, E)
    (A, B, C, D, E, F)
    (A, B, C, D, E, F, G)
    (A, B, C, D, E, F, G, H)
}

pub struct FallbackProbe<P: ?Sized>(PhantomData<P>);

impl<P: ?Sized> FallbackProbe<P> {
    pub const NEW: Self = FallbackProbe(PhantomData);
}

pub struct CanHold;
pub struct CannotHold;

pub trait ProbeNotAMap {
    fn holds(&self) -> CannotHold {
        CannotHold
    }
}

impl<P: NotAMap + ?Sized> ProbeNotAMap for &&FallbackProbe<P> {}

pub trait ProbeAny {
    fn holds(&self) -> CanHold {
        CanHold
    }
}

impl<P: ?Sized> ProbeAny for &FallbackProbe<P> {}

#[diagnostic::on_unimplemented(
    message = "a fallback receives the whole object and `{P}` cannot hold it; use `json_subtypes::Unknown` or a struct",
    label = "read from a scalar or a sequence, never from an object"
)]
pub trait HoldsObject<P: ?Sized> {}

// Keeps the error to the message above (ignored before Rust 1.85).
#[diagnostic::do_not_recommend]
impl<P: ?Sized> HoldsObject<P> for CanHold {}

#[inline(always)]
pub fn fallback_holds<P: ?Sized, W: HoldsObject<P>>(_: W) {}
