//! Strings and tag lists made `&'static` once each: serializers want
//! `&'static str` keys, and a profile's are built at run time.

use crate::tag::Literal;

/// A list of tags, as `intern` keeps strings: once per distinct list.
pub(crate) fn intern_tags(tags: &[Literal]) -> &'static [Literal] {
    if tags.is_empty() {
        return &[];
    }
    static INTERNED: std::sync::OnceLock<
        parking_lot::Mutex<std::collections::HashSet<&'static [Literal]>>,
    > = std::sync::OnceLock::new();
    let mut set = INTERNED.get_or_init(Default::default).lock();
    if let Some(found) = set.get(tags) {
        return found;
    }
    let leaked: &'static [Literal] = Box::leak(Box::<[Literal]>::from(tags));
    set.insert(leaked);
    leaked
}

/// Serializers want `&'static str` keys; keys and tags built at run time
/// (profiles) are interned once each, so memory is bounded by the number of
/// distinct strings, not by how many profiles are built.
pub(crate) fn intern(s: &str) -> &'static str {
    static INTERNED: std::sync::OnceLock<
        parking_lot::Mutex<std::collections::HashSet<&'static str>>,
    > = std::sync::OnceLock::new();
    let mut set = INTERNED.get_or_init(Default::default).lock();
    if let Some(found) = set.get(s) {
        return found;
    }
    let leaked: &'static str = Box::leak(Box::<str>::from(s));
    set.insert(leaked);
    leaked
}
