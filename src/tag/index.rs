//! The tag owners of a run-time table (a registry or a profile): which
//! subtype each tag names, one map per tag kind.

use std::collections::HashMap;
use std::sync::Arc;

use super::{Found, OwnedLiteral};

/// A map of a run-time table (tags, field names, type ids), hashed with
/// ahash under a fixed seed. Such a map holds only what was registered,
/// never keys from the input, so no input can flood it; a random seed would
/// only make its lookups, and the order of the few-tags list, differ from
/// run to run, and with them the benches' instruction counts.
pub(crate) type Map<K, V> = HashMap<K, V, ahash::RandomState>;

/// An empty `Map`.
pub(crate) fn map<K, V>() -> Map<K, V> {
    // The crate's name in ASCII: any fixed seed will do.
    Map::with_hasher(ahash::RandomState::with_seeds(
        0x6a73_6f6e,
        0x5f73_7562,
        0x7479_7065,
        0x7300_0000,
    ))
}

/// A tag owned by one subtype, or claimed by two.
#[derive(Clone, Copy)]
pub(crate) enum TagOwner {
    One(u32),
    Clash(u32, u32),
}

/// Which subtype owns each tag, one map per tag kind.
pub(crate) struct TagIndex {
    by_str: Map<Arc<str>, TagOwner>,
    /// The same string tags when there are few: scanned, which beats
    /// hashing the tag for a handful of short strings.
    few_str: Vec<(Arc<str>, TagOwner)>,
    by_u64: Map<u64, TagOwner>,
    by_i64: Map<i64, TagOwner>,
    by_bool: [Option<TagOwner>; 2],
}

impl Default for TagIndex {
    fn default() -> Self {
        TagIndex {
            by_str: map(),
            few_str: Vec::new(),
            by_u64: map(),
            by_i64: map(),
            by_bool: [None; 2],
        }
    }
}

/// Up to this many string tags are found by a scan rather than a hash.
const FEW: usize = 8;

impl TagIndex {
    /// The owner of `tag`, `index` if it had none.
    pub(crate) fn claim(&mut self, tag: &OwnedLiteral, index: u32) -> &mut TagOwner {
        let owner = TagOwner::One(index);
        match tag {
            OwnedLiteral::Str(s) => self.by_str.entry(s.clone()).or_insert(owner),
            OwnedLiteral::U64(v) => self.by_u64.entry(*v).or_insert(owner),
            OwnedLiteral::I64(v) => self.by_i64.entry(*v).or_insert(owner),
            OwnedLiteral::Bool(v) => self.by_bool[*v as usize].get_or_insert(owner),
        }
    }

    /// Called once every tag is claimed.
    pub(crate) fn finish(&mut self) {
        if self.by_str.len() <= FEW {
            self.few_str = self.by_str.iter().map(|(k, v)| (k.clone(), *v)).collect();
            // Scanned in an order of their own, not the map's, so that a
            // tag's place in the scan does not depend on the hasher or on
            // the order the linker gave the registrations.
            self.few_str
                .sort_by(|(a, _), (b, _)| (a.len(), a).cmp(&(b.len(), b)));
        }
    }

    /// Out of line, so that the scan of a few tags saves no registers for
    /// the hashing.
    #[inline(never)]
    fn hashed_str(&self, s: &str) -> Option<&TagOwner> {
        self.by_str.get(s)
    }

    #[inline]
    pub(crate) fn owner(&self, found: Found<'_>) -> Option<&TagOwner> {
        match found {
            Found::Str(s) if self.by_str.len() <= FEW => self
                .few_str
                .iter()
                .find(|(tag, _)| super::same_text(s, tag))
                .map(|(_, owner)| owner),
            Found::Str(s) => self.hashed_str(s),
            Found::U64(v) => self.by_u64.get(&v),
            Found::I64(v) => self.by_i64.get(&v),
            Found::Bool(v) => self.by_bool[v as usize].as_ref(),
            _ => None,
        }
    }
}
