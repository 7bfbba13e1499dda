//! The engine's per-thread state: how deep dispatch levels nest (and the
//! innermost level's limit), and the tag key hoisted for the next replay.
//! Each piece is set through a guard that restores it when dropped, also
//! on unwinding (issue 17: a payload that panics leaves nothing behind).

use core::cell::Cell;

thread_local! {
    /// Set by the dispatch engine just before it hands its visitor to a
    /// deserializer: the tag key it looks for. When that deserializer is a
    /// replay of our own buffer, the replay hands the tag entry over first,
    /// so a nested object whose tag came last is read on the streaming path
    /// instead of being buffered again (which would make recursive types
    /// quadratic, as typetag's are). Only the order of entries changes, and
    /// only for the engine's own visitor, which clears this on its first visit.
    static HOIST: Cell<Option<&'static str>> = const { Cell::new(None) };
}

#[inline]
pub(crate) fn set_hoist(key: Option<&'static str>) {
    HOIST.with(|h| h.set(key));
}

/// Puts the previous hoist key back when dropped, also when a format panics
/// before it visits (and so before the engine's visitor clears the key):
/// a key left behind would reorder the next replay on this thread that is
/// not the engine's own (`Unknown::deserialize_into`, `Unknown::get`).
pub(crate) struct Hoisting(Option<&'static str>);

impl Drop for Hoisting {
    #[inline]
    fn drop(&mut self) {
        set_hoist(self.0);
    }
}

/// The hoisted key, taken: a replay hands the tag entry over first once.
#[inline]
pub(crate) fn take_hoist() -> Option<&'static str> {
    HOIST.with(|h| h.get().and_then(|_| h.take()))
}

/// Sets the hoist key for the next deserializer until the guard drops.
#[inline]
pub(crate) fn hoist(key: Option<&'static str>) -> Hoisting {
    Hoisting(HOIST.with(|h| h.replace(key)))
}

/// Default nesting limit, the same as serde_json's.
pub(crate) const DEFAULT_MAX_DEPTH: u32 = 128;

thread_local! {
    /// How deep the dispatch engine is nested on this thread, and the limit
    /// of the innermost level. We count ourselves so that hostile nesting is
    /// an error even where the format sets no limit of its own.
    static NESTING: Cell<(u32, u32)> = const { Cell::new((0, DEFAULT_MAX_DEPTH)) };
}

/// Restores the nesting state of the enclosing level when dropped (also on
/// unwinding).
pub(crate) struct Nested((u32, u32));

impl Drop for Nested {
    #[inline]
    fn drop(&mut self) {
        NESTING.with(|n| n.set(self.0));
    }
}

/// Enters one more level of dispatch with its own `limit`; `None` when that
/// is one level too many.
#[inline]
pub(crate) fn enter(limit: u32) -> Option<Nested> {
    NESTING.with(|n| {
        let outer = n.get();
        let depth = outer.0 + 1;
        if depth > limit {
            return None;
        }
        n.set((depth, limit));
        Some(Nested(outer))
    })
}

/// How many more levels values may nest, for buffering at this level.
#[inline]
pub(crate) fn remaining() -> u32 {
    NESTING.with(|n| {
        let (depth, limit) = n.get();
        limit.saturating_sub(depth).max(1)
    })
}
