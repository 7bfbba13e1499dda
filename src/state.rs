//! The engine's per-thread state, in one context: how deep dispatch levels
//! nest, the innermost level's limit, and the tag key hoisted for the next
//! replay. A level sets all three through one guard that puts the
//! enclosing level's nesting back and clears the hoisted key when dropped,
//! also on unwinding (a payload that panics leaves nothing behind).
//!
//! It lives in a thread-local, not in a value passed down, because the
//! path between two levels runs through the user's `Deserialize` impls and
//! the format, and serde's API carries nothing of ours across them (serde
//! and typetag keep such state in thread-locals for the same reason).

use core::cell::Cell;

/// Default nesting limit, the same as serde_json's.
pub(crate) const DEFAULT_MAX_DEPTH: u32 = 128;

/// What one dispatch level leaves for the code it calls. One thread-local,
/// so a level reaches all of it with one lookup; a `Cell` per part, so a
/// read of one part copies nothing else.
struct Engine {
    /// How many dispatch levels are open on this thread, and the innermost
    /// level's limit. We count ourselves so that hostile nesting is an
    /// error even where the format sets no limit of its own. One word
    /// (`Nesting`), so a level saves, sets and puts it back with one load
    /// and one store each.
    nesting: Cell<Nesting>,
    /// Set by a level just before it hands its visitor to a deserializer:
    /// the tag key it looks for. When that deserializer is a replay of our
    /// own buffer, the replay hands the tag entry over first, so a nested
    /// object whose tag came last is read on the streaming path instead of
    /// being buffered again (which would make recursive types quadratic, as
    /// typetag's are). Only the order of entries changes, and only for the
    /// engine's own visitor, which clears this on its first visit.
    hoist: Cell<Option<&'static str>>,
}

/// The depth in the low 32 bits, the limit in the high ones. The depth
/// never exceeds the limit: `enter` refuses the level that would.
#[derive(Clone, Copy)]
struct Nesting(u64);

impl Nesting {
    #[inline]
    const fn new(depth: u32, limit: u32) -> Self {
        Nesting(depth as u64 | (limit as u64) << 32)
    }

    #[inline]
    fn depth(self) -> u32 {
        self.0 as u32
    }

    #[inline]
    fn limit(self) -> u32 {
        (self.0 >> 32) as u32
    }
}

thread_local! {
    static ENGINE: Engine = const {
        Engine {
            nesting: Cell::new(Nesting::new(0, DEFAULT_MAX_DEPTH)),
            hoist: Cell::new(None),
        }
    };
}

/// Puts the enclosing level's nesting back and clears the hoist key when
/// dropped, also when a payload or a format panics: a depth left behind
/// would refuse the next read on this thread too soon, and a hoist key left
/// behind would reorder the next replay that is not the engine's own
/// (`Unknown::deserialize_into`, `Unknown::get`).
///
/// The enclosing level's hoist key is not kept: it is gone before anything
/// that could enter this level runs (see `enter_depth`), so clearing puts
/// back what was there.
pub(crate) struct Level {
    nesting: Nesting,
}

impl Drop for Level {
    #[inline]
    fn drop(&mut self) {
        ENGINE.with(|e| {
            e.nesting.set(self.nesting);
            e.hoist.set(None);
        });
    }
}

/// Enters one more level of dispatch with its own `limit`, hoisting `hoist`
/// for the deserializer it calls next; `None` when that is one level too
/// many.
#[inline]
pub(crate) fn enter(limit: u32, hoist: Option<&'static str>) -> Option<Level> {
    ENGINE.with(|e| {
        let outer = e.nesting.get();
        let depth = outer.depth() + 1;
        if depth > limit {
            return None;
        }
        e.nesting.set(Nesting::new(depth, limit));
        e.hoist.set(hoist);
        Some(Level { nesting: outer })
    })
}

/// Puts the enclosing level's nesting back when dropped, as `Level` does,
/// for a level that leaves the hoist key alone.
pub(crate) struct Depth {
    nesting: Nesting,
}

impl Drop for Depth {
    #[inline]
    fn drop(&mut self) {
        ENGINE.with(|e| e.nesting.set(self.nesting));
    }
}

/// `enter` for the externally tagged form, which hoists no key: only the
/// nesting is counted. A key an enclosing level hoisted is gone by the time
/// anything inside that level is read: a replay of our buffer takes it, and
/// the engine's visitor clears it, each before reading anything. So there
/// is none to clear here.
#[inline]
pub(crate) fn enter_depth(limit: u32) -> Option<Depth> {
    ENGINE.with(|e| {
        let outer = e.nesting.get();
        let depth = outer.depth() + 1;
        if depth > limit {
            return None;
        }
        e.nesting.set(Nesting::new(depth, limit));
        Some(Depth { nesting: outer })
    })
}

/// Clears the hoist key: the engine's visitor does on its first visit, so
/// that only the deserializer it was handed to sees it.
#[inline]
pub(crate) fn clear_hoist() {
    ENGINE.with(|e| e.hoist.set(None));
}

/// The hoisted key, taken: a replay hands the tag entry over first once.
#[inline]
pub(crate) fn take_hoist() -> Option<&'static str> {
    ENGINE.with(|e| e.hoist.get().and_then(|_| e.hoist.take()))
}

/// How many more levels values may nest, for buffering at this level.
#[inline]
pub(crate) fn remaining() -> u32 {
    ENGINE.with(|e| {
        let nesting = e.nesting.get();
        // Not `saturating_sub`: the depth never exceeds the limit
        // (`Nesting`), and the subtraction then needs no guard.
        (nesting.limit() - nesting.depth()).max(1)
    })
}
