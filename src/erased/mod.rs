//! The type-erased path from the engine to a trait object's reader.
//!
//! A registered type's reader is compiled once, at its impl, with no
//! knowledge of the caller's format, so the payload reaches it through `dyn`
//! traits. erased-serde hands every result back as a type-erased `Any` that
//! is boxed once the value is over 16 bytes (most strings, vectors and the
//! payload struct itself: ten allocations for our benchmark payload). Here a
//! result is written into a slot on the reading side's stack instead, so a
//! trait object costs the plain struct's allocations plus its one `Box`.
//!
//! Naming: the `Erased*` traits are object safe and implemented by the
//! format's side (generic over the real deserializer); `Erased`,
//! `ErasedMap`, `ErasedSeq` and `ErasedEnum` are serde types over those
//! objects, used by the registered type's side.

// Not public API: generated code reaches it through `__private`.
#![allow(missing_docs)]

use serde::de;

mod access;
mod deserializer;
mod enums;
mod error;
mod request;
mod unwrap;
mod visitor;

use self::deserializer::whole;
pub use self::deserializer::ErasedDeserializer;
pub use self::error::Error;

/// Reads a `T` through an erased deserializer: the body of every registered
/// type's reader.
#[inline]
pub fn deserialize<'de, T: de::Deserialize<'de>>(
    deserializer: &mut dyn ErasedDeserializer<'de>,
) -> Result<T, Error> {
    let human_readable = deserializer.erased_is_human_readable();
    T::deserialize(whole(deserializer, human_readable))
}
