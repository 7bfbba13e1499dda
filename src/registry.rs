//! Trait objects: registrations collected with `inventory`, one table per
//! trait built on first use, and the glue that reads `Box<dyn Trait>` and
//! writes `dyn Trait` through the same engine as enums.
//!
//! Here the registrations (`Entry`), the registry of a `T` (`Registry`) and
//! its checks (`verify_registry`); the `T`-free table in `table.rs`, the
//! walk's adapter in `read.rs`, the JSON Schema glue in `schema.rs`, and
//! the interner of run-time keys and tags in `intern.rs`.

mod intern;
mod read;
mod schema;
mod table;

pub(crate) use intern::intern;
use read::{Reading, Walk};
pub use schema::{Described, SchemaSubtype};
pub(crate) use table::Member;
pub use table::{Table, TagPosition};

use core::any::TypeId;
use core::fmt;
use core::marker::PhantomData;
use core::ops::{Deref, DerefMut};
use std::sync::Arc;

use serde::de::{self, Deserializer};

use crate::compiled::{Readers, Slot};
use crate::dispatch::deserialize_with;
use crate::marker::Conversions;
use crate::representation::{adjacent, external, Representation};
use crate::subtype::Subtype;
use crate::tag::Literal;

/// One registered subtype of a trait, as the impl attribute writes it (its
/// readers come beside it, from `compiled::readers`).
pub struct Entry {
    /// The tag (`None` for a fallback or a presence-mode subtype).
    pub tag: Option<Literal>,
    /// Further tags accepted on read.
    pub aliases: &'static [Literal],
    /// Whether unknown tags land here.
    pub fallback: bool,
    /// Presence mode: the fields that pick this subtype.
    pub when_fields: &'static [&'static str],
    /// The implementing type's name, for messages.
    pub type_name: &'static str,
    /// The implementing type's id, to find its tag when writing.
    pub type_id: fn() -> TypeId,
}

/// `Self` (a `dyn Trait`) has a registry: the table of the impls annotated
/// `#[json_subtypes(...)]`, which `Box<dyn Trait>` reads with. The bound of
/// [`verify_registry`] and
/// [`Profile::builder_from_registry`](crate::Profile::builder_from_registry).
///
/// Sealed: `#[json_subtypes(...)]` on the trait implements it for
/// `dyn Trait`; its method is not public API.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no json_subtypes registry",
    label = "this trait has no `#[json_subtypes]` attribute",
    note = "put `#[json_subtypes(tag = \"...\")]` on the trait to register its implementations"
)]
pub trait Registered: Subtype {
    /// Whether the trait's attribute chose the internally tagged form, so
    /// its registry's reads and writes go there without asking.
    #[doc(hidden)]
    const __JSON_SUBTYPES_INTERNAL: bool = true;

    /// The table built from every registration, on first use.
    #[doc(hidden)]
    fn registry() -> &'static Registry<Self>;
}

/// The subtypes of one trait (or of one profile), whose readers box them
/// as `T`: a `Table` with that type.
pub struct Registry<T: ?Sized + 'static> {
    table: Table,
    marker: PhantomData<fn() -> Box<T>>,
}

impl<T: ?Sized> Deref for Registry<T> {
    type Target = Table;

    fn deref(&self) -> &Table {
        &self.table
    }
}

impl<T: ?Sized> DerefMut for Registry<T> {
    fn deref_mut(&mut self) -> &mut Table {
        &mut self.table
    }
}

impl<T: ?Sized> Registry<T> {
    /// The same table for `U`: a generic trait's instantiation builds its
    /// table once without its type (`instances`), then types it. Its
    /// readers check the slot they fill, so a table read as another type's
    /// is an error, never a wrong value.
    pub(crate) fn retyped<U: ?Sized>(self) -> Registry<U> {
        Registry {
            table: self.table,
            marker: PhantomData,
        }
    }
}

/// The keys of a trait's attribute other than its tag, as the macro read them.
pub struct TraitSettings {
    /// `max_depth = N` (the default otherwise).
    pub max_depth: u32,
    /// `max_buffer = N`.
    pub max_buffer: Option<usize>,
    /// `require_tag_first`.
    pub require_tag_first: bool,
    /// `exact_numbers`.
    pub exact_numbers: bool,
    /// `visible`.
    pub visible: bool,
    /// `external`.
    pub external: bool,
    /// `content = "..."`.
    pub content: Option<&'static str>,
    /// `deny_unknown_fields`.
    pub deny_unknown_fields: bool,
    /// `as_map`.
    pub as_map: bool,
}

impl<T: ?Sized + 'static> Registry<T> {
    /// Builds the table of a trait from its registrations, sorted by type
    /// name so every build sees the same order whatever the link order.
    /// Only the walk over the registrations depends on `T`: the rest is
    /// `Table`'s, compiled once here rather than once per trait (sorting
    /// and indexing were an eighth of a registering crate's code).
    pub fn from_entries<'a>(
        name: &str,
        key: Option<&'static str>,
        settings: TraitSettings,
        entries: impl IntoIterator<
            Item = (
                &'a Entry,
                fn() -> Readers<T>,
                Conversions,
                Option<Described>,
            ),
        >,
    ) -> Self {
        let mut members = Vec::new();
        for (entry, readers, markers, schema) in entries {
            members.push(Member::registered(entry, readers().any(), markers, schema));
        }
        Registry {
            table: Table::from_registrations(name, key, settings, members),
            marker: PhantomData,
        }
    }

    /// The registry of `entries`, whose readers were made for `T`.
    pub(crate) fn build(
        name: &str,
        key: Option<Arc<str>>,
        entries: Vec<Member>,
        position: TagPosition,
    ) -> Self {
        Registry {
            table: Table::build(name, key, entries, position),
            marker: PhantomData,
        }
    }

    /// Reads a `Box<T>` in the registry's representation.
    #[inline]
    pub(crate) fn read<'de, D: Deserializer<'de>>(
        &self,
        deserializer: D,
    ) -> Result<Box<T>, D::Error> {
        if self.representation != Representation::Internal {
            return self.read_wrapped(deserializer);
        }
        self.read_internal(deserializer)
    }

    /// Reads a `Box<T>` in the external or adjacent form. Out of line, so
    /// the internal form's read is compiled as it was without it.
    #[inline(never)]
    fn read_wrapped<'de, D: Deserializer<'de>>(&self, deserializer: D) -> Result<Box<T>, D::Error> {
        let slot: Slot<T> = Slot::new(None);
        let reading = Reading {
            table: &self.table,
            slot: &slot,
        };
        let walk = Walk::<false>(&reading);
        match self.representation {
            Representation::Adjacent(form) => adjacent::deserialize(walk, form, deserializer)?,
            Representation::InternalMap => {
                let walk = Walk::<true>(&reading);
                deserialize_with(walk, deserializer)?
            }
            _ => external::deserialize(walk, deserializer)?,
        }
        slot.into_inner()
            .ok_or_else(|| de::Error::custom("json_subtypes: a subtype's reader gave no value"))
    }

    /// Reads a `Box<T>` in the internal form: the walk fills a slot it sees
    /// as `dyn Any`, so it is the same code for every `T`.
    #[inline]
    pub(crate) fn read_internal<'de, D: Deserializer<'de>>(
        &self,
        deserializer: D,
    ) -> Result<Box<T>, D::Error> {
        let slot: Slot<T> = Slot::new(None);
        deserialize_with(
            Walk::<false>(&Reading {
                table: &self.table,
                slot: &slot,
            }),
            deserializer,
        )?;
        slot.into_inner()
            .ok_or_else(|| de::Error::custom("json_subtypes: a subtype's reader gave no value"))
    }

    /// Turns a `Box<T>` read with this table into `Box<U>`, the same
    /// object with auto traits, when its type was proven to have them.
    pub(crate) fn convert<U: ?Sized + 'static, E: de::Error>(
        &self,
        value: Box<T>,
    ) -> Result<Box<U>, E>
    where
        T: Subtype,
    {
        let entry = self
            .by_type
            .get(&value.__json_subtypes_type_id())
            .map(|&index| &self.entries[index as usize]);
        let type_name = entry.map_or("?", |e| e.type_name);
        match entry.and_then(|e| e.markers.as_ref()).map(|m| m.get::<U>()) {
            Some(Some(convert)) => convert(value.__json_subtypes_into_any()).ok_or_else(|| {
                E::custom(format_args!(
                    "json_subtypes: {type_name} is not the type its conversion was made for"
                ))
            }),
            Some(None) => {
                let object = crate::marker::object_name::<U>();
                let markers = object.split_once(" + ").map_or("", |(_, m)| m);
                Err(E::custom(format_args!(
                    "cannot read {type_name} as Box<{object}>: {type_name} is not {markers}"
                )))
            }
            None => {
                let object = crate::marker::object_name::<U>();
                Err(E::custom(format_args!(
                    "cannot read {type_name} as Box<{object}>: the {} cannot tell whether {type_name} is {}; build a Profile<{object}> for it",
                    self.settings.name,
                    object.split_once(" + ").map_or("", |(_, m)| m),
                )))
            }
        }
    }
}

/// Problems found in a trait's registry: every tag two types claim, a second
/// fallback, or no registrations at all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegistryError {
    name: String,
    problems: Vec<String>,
}

impl RegistryError {
    /// One line per problem.
    pub fn problems(&self) -> impl Iterator<Item = &str> {
        self.problems.iter().map(|p| p.as_str())
    }
}

impl fmt::Display for RegistryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the registry of {} has problems:", self.name)?;
        for problem in &self.problems {
            write!(f, "\n- {problem}")?;
        }
        Ok(())
    }
}

impl std::error::Error for RegistryError {}

/// Checks a trait's registry: `Ok(())` when every tag names one type,
/// else every collision (tag and both type names). Put it in a test to keep
/// the registry clean. It checks the registrations, not a value.
///
/// ```
/// use json_subtypes::json_subtypes;
/// use serde::{Deserialize, Serialize};
///
/// #[json_subtypes(tag = "type")]
/// trait Shape {
///     fn area(&self) -> f64;
/// }
///
/// #[derive(Serialize, Deserialize)]
/// struct Square {
///     side: f64,
/// }
///
/// #[json_subtypes(name = "square")]
/// impl Shape for Square {
///     fn area(&self) -> f64 {
///         self.side * self.side
///     }
/// }
///
/// json_subtypes::verify_registry::<dyn Shape>().unwrap();
/// ```
pub fn verify_registry<T: ?Sized + Registered + 'static>() -> Result<(), RegistryError> {
    let registry = T::registry();
    if registry.problems().is_empty() {
        Ok(())
    } else {
        Err(RegistryError {
            name: registry.name().to_owned(),
            problems: registry.problems().to_vec(),
        })
    }
}

impl<T: ?Sized> fmt::Debug for Registry<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Registry")
            .field("name", &self.settings.name)
            .field("key", &self.settings.key)
            .field("subtypes", &self.entries.len())
            .finish()
    }
}
