//! The type-erased path between the engine and a trait object's own
//! `Deserialize` and `Serialize`.
//!
//! A registered type's reader and writer are compiled once, at its impl,
//! with no knowledge of the caller's format, so values cross through `dyn`
//! traits. erased-serde hands every read result back as a type-erased `Any`
//! that is boxed once the value is over 16 bytes (most strings, vectors and
//! the payload struct itself: ten allocations for our benchmark payload).
//! Here a result is written into a slot on the reading side's stack
//! instead, so a trait object costs the plain struct's allocations plus its
//! one `Box`.

// Not public API: generated code reaches it through `__private`.
#![allow(missing_docs)]

use core::fmt;

use serde::{de, ser};

/// Takes a value a `dyn` call needs once, or fails with `used()`.
macro_rules! take {
    ($slot:expr) => {
        match $slot.take() {
            Some(value) => value,
            None => return Err(crate::erased::used()),
        }
    };
}

mod read;
mod write;

pub use read::{deserialize, ErasedDeserializer};
pub use write::{serialize, ErasedSerialize};

/// An error crossing the erased boundary. Only its message survives; the
/// engine keeps the original error of the live map, with its position (see
/// `Subtypes::erased`), and a writer keeps its serializer's own error.
pub struct Error(Box<str>);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
    }
}

impl std::error::Error for Error {}

impl de::Error for Error {
    #[cold]
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Error(msg.to_string().into_boxed_str())
    }
}

impl ser::Error for Error {
    #[cold]
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Error(msg.to_string().into_boxed_str())
    }
}

impl Error {
    /// An error that carries nothing: the end of a map or sequence, or a
    /// failure whose real error is kept elsewhere. An empty message
    /// allocates nothing.
    fn marker() -> Self {
        Error(Box::from(""))
    }
}

#[cold]
fn erase<E: fmt::Display>(e: E) -> Error {
    <Error as de::Error>::custom(e)
}

#[cold]
fn unerase<E: de::Error>(e: Error) -> E {
    E::custom(e)
}

/// A deserializer, visitor or access asked twice. Our own code never does;
/// this keeps a misbehaving `Deserialize` impl from panicking.
#[cold]
fn used() -> Error {
    <Error as de::Error>::custom("a type-erased value was used twice")
}
