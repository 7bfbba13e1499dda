//! Polymorphic subtype discriminators for serde.
#![deny(missing_docs)]

mod buffer;
// Their `pub` items are reached only through `__private`.
#[allow(missing_docs)]
mod dispatch;
#[allow(missing_docs)]
mod tag;
#[allow(missing_docs)]
mod tagged;
mod unknown;

pub use crate::unknown::{Unknown, UnknownError};

pub use json_subtypes_macros::json_subtypes;

/// Not public API. Used by generated code.
#[doc(hidden)]
#[allow(missing_docs)]
pub mod __private {
    pub use crate::dispatch::{deserialize, read_literal_tag, Dispatch};
    pub use crate::tag::{read_typed_tag, unknown_typed_tag, Found, Literal, LiteralTable, TagSink};
    pub use crate::tagged::{TaggedSerializer, Tagging};
    pub use serde;
}
