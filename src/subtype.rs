//! The trait objects' own traits, which every layer above boxes and
//! writes through: [`Subtype`] (a value whose type is known at run time and
//! that writes itself without knowing it) and [`Upcast`] (`dyn Trait` can
//! hold a `C`), with what a subtype's compiled writer writes to on
//! serde_json's compact writer (`JsonWriter`, `TaggedJson`).

use core::any::TypeId;

use serde::ser::Serialize;

use crate::tag::OwnedLiteral;
use crate::tag_writer::PayloadSerializer;

mod sealed {
    /// Keeps [`Subtype`](super::Subtype) to the impls of this crate.
    pub trait Sealed {}

    impl<T: serde::Serialize + 'static> Sealed for T {}
}

/// A value a trait object or profile can write: its type is known at run
/// time and it serializes without knowing it. The bound of
/// [`Profile::to_string`](crate::Profile::to_string) and the other writers
/// of a profile.
///
/// Implemented for every `Serialize + 'static` type, and for `dyn Trait`
/// when the trait has `#[json_subtypes(...)]`, which adds `Subtype` as a
/// supertrait of the trait. Sealed: there is nothing to implement.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be written as a subtype",
    label = "neither `Serialize` nor an object of a `#[json_subtypes]` trait",
    note = "a subtype derives or implements `serde::Serialize`; for `dyn Trait`, put `#[json_subtypes(tag = \"...\")]` on the trait"
)]
pub trait Subtype: erased_serde::Serialize + sealed::Sealed {
    #[doc(hidden)]
    fn __json_subtypes_type_id(&self) -> TypeId;
    #[doc(hidden)]
    fn __json_subtypes_type_name(&self) -> &'static str;
    #[doc(hidden)]
    fn __json_subtypes_erased(&self) -> &dyn erased_serde::Serialize;
    #[doc(hidden)]
    fn __json_subtypes_into_any(self: Box<Self>) -> Box<dyn core::any::Any>;
}

impl<T: Serialize + 'static> Subtype for T {
    fn __json_subtypes_type_id(&self) -> TypeId {
        TypeId::of::<T>()
    }

    fn __json_subtypes_type_name(&self) -> &'static str {
        core::any::type_name::<T>()
    }

    fn __json_subtypes_erased(&self) -> &dyn erased_serde::Serialize {
        self
    }

    fn __json_subtypes_into_any(self: Box<Self>) -> Box<dyn core::any::Any> {
        self
    }
}

/// serde_json's compact writer into a `Vec<u8>`: what `to_string`, `to_vec`
/// and `to_writer(&mut vec, ..)` use.
pub type JsonWriter<'a, 'b> = &'a mut serde_json::Serializer<&'b mut Vec<u8>>;

/// What a subtype's compiled writer writes to when the serializer is a
/// [`JsonWriter`] and the tag goes in (see `compiled::readers`).
pub type TaggedJson<'a, 'b> = PayloadSerializer<'a, JsonWriter<'a, 'b>, &'a OwnedLiteral>;

/// `Self` (a `dyn Trait`) can hold a `C`: the bound of
/// [`ProfileBuilder::subtype`](crate::ProfileBuilder::subtype), [`when_field`](crate::ProfileBuilder::when_field)
/// and [`fallback`](crate::ProfileBuilder::fallback).
///
/// `#[json_subtypes(...)]` on a trait implements it for `dyn Trait` (and
/// `dyn Trait + Send`, `+ Sync`, `+ Send + Sync`) and every type that
/// implements the trait, so a profile takes any implementation, annotated
/// or not. For `dyn Trait + Send` (or `+ Sync`) the type must be `Send` (or
/// `Sync`) too.
///
/// Sealed: only the attribute implements it. Its supertrait [`Subtype`]
/// holds only for the objects of annotated traits, and its one method is
/// not public API.
#[diagnostic::on_unimplemented(
    message = "`{C}` cannot be boxed as `{Self}`",
    label = "not a subtype of `{Self}`",
    note = "a subtype implements the trait, and for `dyn Trait + Send` or `+ Sync` it is `Send` or `Sync` too; a type that is not can be a subtype of a profile of the plain `dyn Trait`",
    note = "the trait needs `#[json_subtypes(...)]` for its objects to hold subtypes"
)]
pub trait Upcast<C>: Subtype {
    #[doc(hidden)]
    fn __json_subtypes_upcast(value: Box<C>) -> Box<Self>;
}
