//! `Settings`: what a set of subtypes says about itself as one value, a
//! constant for an enum (generated code) and a field of a trait's or a
//! profile's table.

use crate::buffer::Limit;

/// One set's settings: its key, its fallback, its limits and its flags.
/// Everything else about a set is a behaviour (`Subtypes`).
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// The tag key, e.g. `"type"`; `None` in presence mode.
    pub key: Option<&'static str>,
    /// The set's name (`Animal`, `dyn Shape`), for messages.
    pub name: &'static str,
    /// The fallback's index.
    pub fallback: Option<u32>,
    /// `#[serde(expecting = "...")]`: what a value of the wrong type is
    /// told was expected, instead of our own wording.
    pub expecting: Option<&'static str>,
    /// Presence mode: when several subtypes match, the first declared wins
    /// instead of an error.
    pub first_match: bool,
    /// Whether some subtype is `nested` (its payload reads the tag again).
    pub nested: bool,
    /// `visible`: whether some subtype's payload reads the tag entry too.
    pub visible: bool,
    /// `max_depth = N`: how deeply values may nest, counting the levels
    /// around this one.
    pub max_depth: u32,
    /// `max_buffer = N`: how many bytes of an object may be buffered before
    /// its tag (in presence mode, of the whole object).
    pub max_buffer: Option<usize>,
    /// `require_tag_first`: a key before the tag is an error.
    pub require_tag_first: bool,
    /// `exact_numbers`: entries before the tag are recorded from
    /// serde_json's text where it is the format (see `exact.rs`).
    pub exact_numbers: bool,
    /// Whether payloads are read through a type-erased deserializer, whose
    /// errors would lose their position; the engine then keeps the original.
    pub erased: bool,
}

impl Settings {
    /// A set with key `key` and nothing else said: generated code writes
    /// what an enum sets and `..Settings::new(key, name)`.
    pub const fn new(key: Option<&'static str>, name: &'static str) -> Self {
        Settings {
            key,
            name,
            fallback: None,
            expecting: None,
            first_match: false,
            nested: false,
            visible: false,
            max_depth: crate::state::DEFAULT_MAX_DEPTH,
            max_buffer: None,
            require_tag_first: false,
            exact_numbers: false,
            erased: false,
        }
    }

    /// The tag key when a replay of our own buffer may hand the tag entry
    /// first (see `state::Engine::hoist`): not for a set with a limit, so
    /// that a replayed object shows its keys in their order and the limit
    /// sees what the input held, nor under `require_tag_first`, nor for an
    /// `Unknown` fallback, which must see entries in their order.
    #[inline]
    pub(crate) fn hoist_key(&self) -> Option<&'static str> {
        if self.require_tag_first || self.max_buffer.is_some() || self.fallback.is_some() {
            return None;
        }
        self.key
    }

    /// `max_buffer` as the buffer's limit.
    #[inline]
    pub(crate) fn limit(&self) -> Option<Limit> {
        let max = self.max_buffer?;
        Some(Limit {
            max,
            name: self.name,
            tag: self.key,
        })
    }
}

/// An enum's adjacent form, written by generated code (`Subtypes::ADJACENT`).
#[derive(Clone, Copy, Debug)]
pub struct AdjacentKeys {
    /// `[tag, content]`.
    pub fields: &'static [&'static str],
    /// `deny_unknown_fields`: keys beside the two are refused.
    pub deny_unknown_fields: bool,
}
