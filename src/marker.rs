//! Trait objects with auto traits: `Box<dyn Trait + Send>`, `+ Sync` and
//! `+ Send + Sync`, for traits that do not have them as supertraits.
//!
//! A registry reads `Box<dyn Trait>` only: one reader per type, whatever
//! the object. A marked box is that box turned back into its concrete type
//! (a downcast, same allocation) and boxed again as the marked object,
//! which needs a proof that the type is `Send` (or `Sync`). Generic code
//! cannot ask, so the proof is taken where the type is concrete: each
//! annotated impl probes its type with autoref method resolution (the
//! `*Yes` trait applies only when the bound holds, else the `*No` one one
//! reference further), and registers a conversion exactly for the marked
//! objects its type can become. A type that is not `Send` has no
//! conversion to `dyn Trait + Send`, so it can never become one.

use core::any::Any;
use core::marker::PhantomData;
use std::sync::Arc;

use crate::subtype::Upcast;

/// Turns a `Box<dyn Any>` holding the registered type into the marked
/// object; `None` if it holds another type.
pub type Convert<U> = fn(Box<dyn Any>) -> Option<Box<U>>;

fn convert<U: ?Sized + Upcast<C>, C: 'static>(value: Box<dyn Any>) -> Option<Box<U>> {
    value.downcast::<C>().ok().map(U::__json_subtypes_upcast)
}

/// What one impl's probe found: a conversion into `dyn Trait + Send`,
/// `dyn Trait + Sync` and `dyn Trait + Send + Sync`, where its type is so.
pub struct Markers<A: ?Sized, B: ?Sized, C: ?Sized> {
    pub send: Option<Convert<A>>,
    pub sync: Option<Convert<B>>,
    pub send_sync: Option<Convert<C>>,
}

/// The type probed by an impl's registration.
pub struct Probe<C>(PhantomData<fn() -> C>);

impl<C> Probe<C> {
    pub const NEW: Self = Probe(PhantomData);
}

/// The probe traits; generated code imports them all and calls
/// `(&Probe::<Type>::NEW).send()` and so on.
pub mod probe {
    use super::{convert, Convert, Probe, Upcast};

    pub trait SendYes<C> {
        fn send<U: ?Sized + Upcast<C>>(&self) -> Option<Convert<U>>;
    }

    impl<C: Send + 'static> SendYes<C> for Probe<C> {
        fn send<U: ?Sized + Upcast<C>>(&self) -> Option<Convert<U>> {
            Some(convert::<U, C>)
        }
    }

    pub trait SendNo {
        fn send<U: ?Sized>(&self) -> Option<Convert<U>> {
            None
        }
    }

    impl<C> SendNo for &Probe<C> {}

    pub trait SyncYes<C> {
        fn sync<U: ?Sized + Upcast<C>>(&self) -> Option<Convert<U>>;
    }

    impl<C: Sync + 'static> SyncYes<C> for Probe<C> {
        fn sync<U: ?Sized + Upcast<C>>(&self) -> Option<Convert<U>> {
            Some(convert::<U, C>)
        }
    }

    pub trait SyncNo {
        fn sync<U: ?Sized>(&self) -> Option<Convert<U>> {
            None
        }
    }

    impl<C> SyncNo for &Probe<C> {}

    pub trait SendSyncYes<C> {
        fn send_sync<U: ?Sized + Upcast<C>>(&self) -> Option<Convert<U>>;
    }

    impl<C: Send + Sync + 'static> SendSyncYes<C> for Probe<C> {
        fn send_sync<U: ?Sized + Upcast<C>>(&self) -> Option<Convert<U>> {
            Some(convert::<U, C>)
        }
    }

    pub trait SendSyncNo {
        fn send_sync<U: ?Sized>(&self) -> Option<Convert<U>> {
            None
        }
    }

    impl<C> SendSyncNo for &Probe<C> {}
}

/// An impl's conversions with the object types erased, so one registry
/// entry (generic over `dyn Trait` only) can hold them; found again by the
/// type of the conversion asked for.
#[derive(Clone)]
pub struct Conversions(Arc<[Box<dyn Any + Send + Sync>]>);

impl Conversions {
    pub fn new<A, B, C>(markers: Markers<A, B, C>) -> Self
    where
        A: ?Sized + 'static,
        B: ?Sized + 'static,
        C: ?Sized + 'static,
    {
        let mut all: Vec<Box<dyn Any + Send + Sync>> = Vec::new();
        if let Some(f) = markers.send {
            all.push(Box::new(f));
        }
        if let Some(f) = markers.sync {
            all.push(Box::new(f));
        }
        if let Some(f) = markers.send_sync {
            all.push(Box::new(f));
        }
        Conversions(all.into())
    }

    /// The conversion into `U`, if the type can become one.
    pub(crate) fn get<U: ?Sized + 'static>(&self) -> Option<Convert<U>> {
        self.0
            .iter()
            .find_map(|f| f.downcast_ref::<Convert<U>>().copied())
    }
}

/// `dyn a::Shape + core::marker::Send` -> `dyn Shape + Send`.
pub(crate) fn object_name<U: ?Sized>() -> String {
    crate::names::short_of::<U>()
}
