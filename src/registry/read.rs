//! One read of a registry: the adapter through which the engine's walk
//! (`dispatch`) reads a table and fills the slot of the registry's `T`.

use serde::de::Deserializer;

use super::Table;
use crate::dispatch::{Settings, Subtypes};
use crate::rest::Payload;
use crate::tag::{Lookup, Picked, Picking, TagRequest, TagSink, TagVisitor};

/// One read of a table: the table and the slot its subtype's reader fills.
pub(super) struct Reading<'a> {
    pub(super) table: &'a Table,
    pub(super) slot: &'a dyn core::any::Any,
}

/// A `Reading` as the walk holds it: one pointer. The walk takes its set
/// by value, and a set of three words is passed by pointer to a copy its
/// caller has just written word by word, which the walk then reads back
/// 16 bytes at a time. A load wider than the stores it reads cannot take
/// their data before they reach the cache, and waits (a store-forwarding
/// stall, PERFORMANCE.md); one pointer travels in a register.
#[derive(Clone, Copy)]
pub(super) struct Walk<'a, const AS_MAP: bool>(pub(super) &'a Reading<'a>);

impl<'a, const AS_MAP: bool> core::ops::Deref for Walk<'a, AS_MAP> {
    type Target = Reading<'a>;

    #[inline]
    fn deref(&self) -> &Reading<'a> {
        self.0
    }
}

impl<'de, const AS_MAP: bool> Subtypes<'de> for Walk<'_, AS_MAP> {
    type Value = ();

    const AS_MAP: bool = AS_MAP;

    #[inline]
    fn settings(&self) -> &Settings {
        &self.table.settings
    }

    /// Every registry's tags are read by the one shared reader, the table
    /// looked up through `dyn`: a reader per registry would compile a
    /// format's `deserialize_any` once per trait. Its answer comes back
    /// through `Picking`, in one word.
    #[inline]
    fn read_tag<D>(&self, tag: D, sink: Option<TagSink<'_, 'de>>) -> Result<Option<u32>, D::Error>
    where
        D: Deserializer<'de>,
    {
        let table: &(dyn Lookup + 'static) = self.table;
        tag.deserialize_any(Picking(TagVisitor::<true> { table, sink }))
            .map(Picked::index)
    }

    // Out of line: inlined, its hashing made the tag key's check, which
    // runs for every registry, save six registers (`benches/instructions.sh
    // dyn`).
    #[inline(never)]
    fn presence(&self, field: &str) -> u128 {
        self.table.presence.get(field).copied().unwrap_or(0)
    }

    fn tag_request(&self) -> TagRequest {
        self.table.request
    }

    fn fields(&self) -> Vec<&str> {
        self.table.fields.iter().map(|f| &**f).collect()
    }

    fn subtype_name(&self, index: u32) -> &str {
        self.table
            .entries
            .get(index as usize)
            .map_or("?", |e| e.type_name)
    }

    fn is_visible(&self, _: u32) -> bool {
        self.table.settings.visible
    }

    // Without the feature no registry can say `exact_numbers` (the key is a
    // compile error, the builder a `BuildError`).
    const MAY_BE_EXACT: bool = cfg!(feature = "exact_numbers");

    #[inline]
    fn build<P>(&self, index: u32, payload: P) -> Result<(), <P as Deserializer<'de>>::Error>
    where
        P: Payload<'de>,
    {
        self.table.entries[index as usize]
            .readers
            .read(payload, self.slot)
    }
}
