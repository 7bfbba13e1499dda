//! Generic traits: one registry per instantiation (`dyn Strategy<f64>` and
//! `dyn Strategy<f32>` each have their own), built on first use from the
//! registrations made for it.
//!
//! A `static` inside a generic function is one for all its instantiations,
//! so the registries of a generic trait cannot each sit in a `OnceLock` of
//! their own as a plain trait's does. They live in one table keyed by the
//! `TypeId` of the trait object, each built once and leaked (a registry
//! lives as long as the program, as a plain trait's does), with a copy of
//! what a thread found kept on that thread, so a read takes no lock.
//!
//! `inventory` collects one concrete type per trait, so a registration of
//! a generic trait ([`Instance`]) carries no `T`: the `TypeId` of the
//! instantiation it belongs to, and its readers and conversions with their
//! `T` erased. Each instantiation's registry takes the registrations with
//! its own `TypeId`; the readers check the slot they fill (`compiled`), so a
//! registration can only ever fill a slot of the type it was made for.

use core::any::{Any, TypeId};
use core::cell::RefCell;
use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::compiled::{AnyReaders, Readers};
use crate::marker::Conversions;
use crate::registry::{Described, Entry, Member, Registry, TagPosition, TraitSettings};
use crate::subtype::Upcast;
use crate::tag::OwnedLiteral;

/// One annotated impl of a generic trait, registered for one instantiation.
pub struct Instance {
    /// The `TypeId` of the instantiation (`dyn Strategy<f64>`).
    object: fn() -> TypeId,
    entry: Entry,
    readers: fn() -> AnyReaders,
    markers: fn() -> Conversions,
    described: Option<Described>,
}

impl Instance {
    /// The three constructors below, past their readers.
    const fn with<T: ?Sized + 'static>(
        entry: Entry,
        readers: fn() -> AnyReaders,
        markers: fn() -> Conversions,
        described: Option<Described>,
    ) -> Self {
        Instance {
            object: TypeId::of::<T>,
            entry,
            readers,
            markers,
            described,
        }
    }

    /// `C` registered in the registry of `T` (an instantiation of a generic
    /// trait), with what its impl found about it.
    pub const fn new<T, C>(
        entry: Entry,
        markers: fn() -> Conversions,
        described: Option<Described>,
    ) -> Self
    where
        T: ?Sized + Upcast<C> + 'static,
        C: Serialize + DeserializeOwned + 'static,
    {
        Self::with::<T>(entry, any_readers::<T, C>, markers, described)
    }

    /// [`new`](Self::new) for a trait in the external or adjacent form.
    pub const fn wrapped<T, C>(
        entry: Entry,
        markers: fn() -> Conversions,
        described: Option<Described>,
    ) -> Self
    where
        T: ?Sized + Upcast<C> + 'static,
        C: Serialize + DeserializeOwned + 'static,
    {
        Self::with::<T>(entry, any_wrapped::<T, C>, markers, described)
    }

    /// [`new`](Self::new) for a registration that says `compiled`.
    pub const fn compiled<T, C>(
        entry: Entry,
        markers: fn() -> Conversions,
        described: Option<Described>,
    ) -> Self
    where
        T: ?Sized + Upcast<C> + 'static,
        C: Serialize + DeserializeOwned + 'static,
    {
        Self::with::<T>(entry, any_compiled::<T, C>, markers, described)
    }

    /// [`compiled`](Self::compiled) for a trait in the external or
    /// adjacent form.
    pub const fn compiled_wrapped<T, C>(
        entry: Entry,
        markers: fn() -> Conversions,
        described: Option<Described>,
    ) -> Self
    where
        T: ?Sized + Upcast<C> + 'static,
        C: Serialize + DeserializeOwned + 'static,
    {
        Self::with::<T>(entry, any_compiled_wrapped::<T, C>, markers, described)
    }
}

/// `C`'s readers for `T`, without their `T`.
fn any_readers<T, C>() -> AnyReaders
where
    T: ?Sized + Upcast<C> + 'static,
    C: Serialize + DeserializeOwned + 'static,
{
    crate::compiled::readers::<T, C>().any()
}

/// `C`'s readers for `T` in the external or adjacent form, without their
/// `T`.
fn any_wrapped<T, C>() -> AnyReaders
where
    T: ?Sized + Upcast<C> + 'static,
    C: Serialize + DeserializeOwned + 'static,
{
    crate::compiled::readers_wrapped::<T, C>().any()
}

/// `C`'s readers and writer compiled for serde_json besides, for `T`,
/// without their `T`.
fn any_compiled<T, C>() -> AnyReaders
where
    T: ?Sized + Upcast<C> + 'static,
    C: Serialize + DeserializeOwned + 'static,
{
    crate::compiled::compiled::<T, C>().any()
}

/// `C`'s readers compiled for serde_json in the external or adjacent form
/// and its writer without a tag, for `T`, without their `T`.
fn any_compiled_wrapped<T, C>() -> AnyReaders
where
    T: ?Sized + Upcast<C> + 'static,
    C: Serialize + DeserializeOwned + 'static,
{
    crate::compiled::compiled_wrapped::<T, C>().any()
}

/// The registry of `T` (an instantiation of a generic trait), from the
/// registrations of its trait: those made for `T`.
///
/// Each instantiation is compiled where it is used, so all but the type's
/// name and id is left to `build_any`, compiled once.
pub fn build<'a, T: ?Sized + 'static>(
    key: Option<&'static str>,
    settings: TraitSettings,
    registrations: impl IntoIterator<Item = &'a Instance>,
) -> Registry<T> {
    let mut registrations = registrations.into_iter();
    let name = object_name::<T>();
    build_any(TypeId::of::<T>(), &name, key, settings, &mut registrations).retyped()
}

/// The table of the instantiation `id` from the registrations made for it:
/// the table `Registry::from_entries` builds for a plain trait, whose
/// readers come typed. That function is left as it is, so that a plain
/// trait compiles nothing more for this one.
fn build_any(
    id: TypeId,
    name: &str,
    key: Option<&'static str>,
    settings: TraitSettings,
    registrations: &mut dyn Iterator<Item = &Instance>,
) -> Registry<dyn Any> {
    let mut members: Vec<Member> = registrations
        .filter(|r| (r.object)() == id)
        .map(|r| {
            // Whole, so that a field added to `Entry` is a compile error here.
            let Entry {
                tag,
                aliases,
                fallback,
                when_fields,
                type_name,
                type_id,
            } = &r.entry;
            Member {
                tag: tag.map(OwnedLiteral::from_literal),
                aliases: aliases
                    .iter()
                    .map(|a| OwnedLiteral::from_literal(*a))
                    .collect(),
                fallback: *fallback,
                when_fields: when_fields.iter().map(|f| Arc::from(*f)).collect(),
                type_name,
                type_id: type_id(),
                readers: (r.readers)(),
                markers: Some((r.markers)()),
                schema: r.described,
            }
        })
        .collect();
    if members.is_empty() {
        // No registrations: a plain trait's empty table, and its message.
        type NoEntry = (
            &'static Entry,
            fn() -> Readers<dyn Any>,
            Conversions,
            Option<Described>,
        );
        return Registry::from_entries(name, key, settings, core::iter::empty::<NoEntry>());
    }
    members.sort_by(|a, b| (a.type_name, &a.tag).cmp(&(b.type_name, &b.tag)));
    // Whole, so that a setting added to `TraitSettings` is a compile error here.
    let TraitSettings {
        max_depth,
        max_buffer,
        require_tag_first,
        exact_numbers,
        visible,
        external,
        content,
        deny_unknown_fields,
        as_map,
    } = settings;
    let mut out = Registry::build(name, key.map(Arc::from), members, TagPosition::First);
    out.set_max_depth(max_depth);
    out.set_limits(max_buffer, require_tag_first);
    out.set_exact_numbers(exact_numbers);
    out.set_visible(visible);
    out.set_representation(external, content, deny_unknown_fields, as_map);
    out
}

type Found = &'static (dyn Any + Send + Sync);

/// Every instantiation's registry built so far.
static REGISTRIES: parking_lot::RwLock<Vec<(TypeId, Found)>> = parking_lot::RwLock::new(Vec::new());

thread_local! {
    /// The registries this thread has found in `REGISTRIES`.
    static SEEN: RefCell<Vec<(TypeId, Found)>> = const { RefCell::new(Vec::new()) };
}

/// The registry of `T`, built with `build` the first time any thread asks.
pub fn registry<T: ?Sized + 'static>(build: fn() -> Registry<T>) -> &'static Registry<T> {
    let found = find_or_build(TypeId::of::<T>(), &|| Box::new(build()));
    match found.downcast_ref::<Registry<T>>() {
        Some(registry) => registry,
        // Filed under `TypeId::of::<T>()` by `build`, a `Registry<T>`.
        None => {
            unreachable!("json_subtypes: the registry of one instantiation filed under another")
        }
    }
}

/// The registry filed under `id`, built with `build` and filed the first
/// time any thread asks; `registry` without its `T`, compiled once.
fn find_or_build(id: TypeId, build: &dyn Fn() -> Box<dyn Any + Send + Sync>) -> Found {
    let find = |list: &[(TypeId, Found)]| list.iter().find(|(t, _)| *t == id).map(|(_, r)| *r);
    // `try_with`: a read from another thread-local's destructor, after
    // this one's, goes to the shared table.
    if let Some(found) = SEEN.try_with(|seen| find(&seen.borrow())).ok().flatten() {
        return found;
    }
    let shared = find(&REGISTRIES.read());
    let found = match shared {
        Some(found) => found,
        None => {
            // Built without the lock: two threads may both build, and the
            // first to file its registry wins; the other's is dropped.
            let built = build();
            let mut all = REGISTRIES.write();
            match find(&all) {
                Some(found) => found,
                None => {
                    let leaked: Found = Box::leak(built);
                    all.push((id, leaked));
                    leaked
                }
            }
        }
    };
    let _ = SEEN.try_with(|seen| seen.borrow_mut().push((id, found)));
    found
}

/// `dyn a::Strategy<alloc::string::String>` -> `dyn Strategy<String>`:
/// the instantiation's name in messages.
pub(crate) fn object_name<T: ?Sized>() -> String {
    crate::names::short_of::<T>()
}

/// The name of an instantiation's JSON Schema (`Strategy_for_f64`, as
/// schemars 0.8 named the schemas of generic types): a `$defs` key and a
/// reference, so without the brackets and spaces of its type's name, and
/// without the lifetimes it is for every one of (`dyn for<'a> Pattern<'a>`
/// is `Pattern`).
#[cfg(feature = "schemars")]
pub fn schema_name<T: ?Sized>() -> String {
    let name = object_name::<T>();
    let name = name.replace("'_, ", "").replace("<'_>", "");
    let name = name.strip_prefix("dyn ").unwrap_or(&name);
    let mut out = String::with_capacity(name.len() + 8);
    for c in name.chars() {
        match c {
            '<' => out.push_str("_for_"),
            ',' => out.push_str("_and_"),
            '=' => out.push('_'),
            c if c.is_alphanumeric() || c == '_' => out.push(c),
            _ => {}
        }
    }
    out
}
