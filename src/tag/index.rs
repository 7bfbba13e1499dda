//! The tag owners of a run-time table (a registry or a profile): which
//! subtype each tag names, one map per tag kind.

use std::sync::Arc;

use ahash::AHashMap;

use super::{Found, OwnedLiteral};

/// A tag owned by one subtype, or claimed by two.
#[derive(Clone, Copy)]
pub(crate) enum TagOwner {
    One(u32),
    Clash(u32, u32),
}

/// Which subtype owns each tag, one map per tag kind.
#[derive(Default)]
pub(crate) struct TagIndex {
    by_str: AHashMap<Arc<str>, TagOwner>,
    /// The same string tags when there are few: scanned, which beats
    /// hashing the tag for a handful of short strings.
    few_str: Vec<(Arc<str>, TagOwner)>,
    by_u64: AHashMap<u64, TagOwner>,
    by_i64: AHashMap<i64, TagOwner>,
    by_bool: [Option<TagOwner>; 2],
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
        }
    }

    #[inline]
    pub(crate) fn owner(&self, found: Found<'_>) -> Option<&TagOwner> {
        match found {
            Found::Str(s) if self.by_str.len() <= FEW => self
                .few_str
                .iter()
                .find(|(tag, _)| tag.len() == s.len() && **tag == *s)
                .map(|(_, owner)| owner),
            Found::Str(s) => self.by_str.get(s),
            Found::U64(v) => self.by_u64.get(&v),
            Found::I64(v) => self.by_i64.get(&v),
            Found::Bool(v) => self.by_bool[v as usize].as_ref(),
            _ => None,
        }
    }
}
