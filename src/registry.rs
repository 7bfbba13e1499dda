//! Trait objects: registrations collected with `inventory`, one table per
//! trait built on first use, and the glue that reads `Box<dyn Trait>` and
//! writes `dyn Trait` through the same engine as enums.

use core::any::TypeId;
use core::fmt;
use core::marker::PhantomData;
use core::ops::{Deref, DerefMut};
use std::sync::Arc;

use serde::de::{self, Deserializer};
use serde::ser::{Error as _, Serializer};

use crate::compiled::{write_json, AnyReaders, AnyValue, Readers, Slot};
use crate::dispatch::{deserialize_with, Settings, Subtypes};
use crate::marker::Conversions;
use crate::object::Subtype;
use crate::representation::{adjacent, external, Adjacent, Bare, Representation};
use crate::rest::Payload;
use crate::tag::{
    map, Found, Literal, Lookup, Map, OwnedLiteral, TagIndex, TagOwner, TagRequest, TagSink,
    TagVisitor,
};
use crate::tag_writer::{Owner, PayloadSerializer, TagEntry};

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

/// How a registered type describes itself in the trait's JSON Schema (the
/// `schemars` feature; empty without it). Set by the registration of a
/// trait with `schema`, and by `ProfileBuilder::describe`.
#[derive(Clone, Copy)]
pub struct Described {
    #[cfg(feature = "schemars")]
    pub(crate) schema: fn(&mut schemars::SchemaGenerator) -> schemars::Schema,
}

impl Described {
    /// `C`'s schema, for the registry of `H`.
    pub const fn of<C: SchemaSubtype<H>, H: ?Sized>() -> Self {
        Described {
            #[cfg(feature = "schemars")]
            schema: schema_of::<C>,
        }
    }
}

/// A registered type's schema, as its `Described` holds it.
#[cfg(feature = "schemars")]
fn schema_of<C: schemars::JsonSchema + ?Sized>(
    generator: &mut schemars::SchemaGenerator,
) -> schemars::Schema {
    generator.subschema_for::<C>()
}

/// The bound a trait with `schema` puts on its registered impls: with the
/// `schemars` feature, `JsonSchema`; without it, nothing.
#[cfg(feature = "schemars")]
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no JSON Schema, and `{H}` needs one for each of its subtypes",
    label = "`{Self}` does not implement `schemars::JsonSchema`",
    note = "the trait says `#[json_subtypes(schema)]`: derive `schemars::JsonSchema` for `{Self}`, or remove `schema` from the trait"
)]
pub trait SchemaSubtype<H: ?Sized>: schemars::JsonSchema {}

#[cfg(feature = "schemars")]
impl<T: schemars::JsonSchema + ?Sized, H: ?Sized> SchemaSubtype<H> for T {}

/// The bound a trait with `schema` puts on its registered impls: with the
/// `schemars` feature, `JsonSchema`; without it, nothing.
#[cfg(not(feature = "schemars"))]
pub trait SchemaSubtype<H: ?Sized> {}

#[cfg(not(feature = "schemars"))]
impl<T: ?Sized, H: ?Sized> SchemaSubtype<H> for T {}

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

/// A registry without its `T`, which is all the engine's walk needs: tag
/// tables keyed with ahash, so a known tag is found without allocating.
pub struct Table {
    /// What the engine's walk reads of the set: its key and name (interned
    /// once: serializers want `&'static str` names and keys), fallback,
    /// limits and flags.
    settings: Settings,
    entries: Vec<Member>,
    owners: TagIndex,
    by_type: Map<TypeId, u32>,
    presence: Map<Arc<str>, u128>,
    fields: Vec<Arc<str>>,
    tags: Vec<Literal>,
    /// Each entry's aliases, which its field named like the tag may hold
    /// when the tag is `visible`.
    aliases: Vec<&'static [Literal]>,
    /// A trait's registry or a profile: where a message says to register
    /// a type or make the tag `visible`.
    kind: Owner,
    problems: Vec<String>,
    /// A problem that makes every read ambiguous or impossible (no
    /// subtypes, two fallbacks); collisions only refuse their own tag.
    pub(crate) fatal: Option<String>,
    position: TagPosition,
    /// How the tag sits beside the payload.
    representation: Representation,
    /// The key the internal form's writer puts the tag under: `key` in
    /// that form, `None` in the others, whose writer the internal one
    /// reaches only on its untagged path (see `serialize`).
    write_key: Option<&'static str>,
    /// How the external and adjacent forms read a tag (see `TagRequest`).
    request: TagRequest,
}

/// Where the tag goes when a value is written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TagPosition {
    /// Before the payload's fields (the default; readers stream fastest).
    #[default]
    First,
    /// After the payload's fields.
    Last,
    /// Not written (readers must pick the subtype by its fields).
    Omit,
}

/// One subtype in a registry: its tag as written and how to read it.
#[derive(Clone)]
pub(crate) struct Member {
    pub(crate) tag: Option<OwnedLiteral>,
    pub(crate) aliases: Vec<OwnedLiteral>,
    pub(crate) fallback: bool,
    pub(crate) when_fields: Vec<Arc<str>>,
    pub(crate) type_name: &'static str,
    pub(crate) type_id: TypeId,
    /// Its readers, which fill the `Slot` of the registry's `T`.
    pub(crate) readers: AnyReaders,
    /// What the impl attribute proved the type can become (`dyn Trait +
    /// Send`...); `None` when nobody looked (a profile's own subtypes).
    pub(crate) markers: Option<Conversions>,
    /// Its JSON Schema, when known.
    pub(crate) schema: Option<Described>,
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
        let walk = Walk {
            table: &self.table,
            slot: &slot,
        };
        match self.representation {
            Representation::Adjacent(form) => adjacent::deserialize(walk, form, deserializer)?,
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
            Walk {
                table: &self.table,
                slot: &slot,
            },
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

impl Member {
    /// A subtype as the impl attribute registered it.
    fn registered(
        e: &Entry,
        readers: AnyReaders,
        markers: Conversions,
        schema: Option<Described>,
    ) -> Self {
        Member {
            tag: e.tag.map(OwnedLiteral::from_literal),
            aliases: e
                .aliases
                .iter()
                .map(|a| OwnedLiteral::from_literal(*a))
                .collect(),
            fallback: e.fallback,
            when_fields: e.when_fields.iter().map(|f| Arc::from(*f)).collect(),
            // As the impl names it, less any module path.
            type_name: intern(&crate::names::short(e.type_name)),
            type_id: (e.type_id)(),
            readers,
            markers: Some(markers),
            schema,
        }
    }
}

impl Table {
    /// `Registry::from_entries` past its registrations.
    fn from_registrations(
        name: &str,
        key: Option<&'static str>,
        settings: TraitSettings,
        mut subtypes: Vec<Member>,
    ) -> Self {
        subtypes.sort_by(|a, b| (a.type_name, &a.tag).cmp(&(b.type_name, &b.tag)));
        let mut out = Table::build(name, key.map(Arc::from), subtypes, TagPosition::First);
        out.settings.max_depth = settings.max_depth;
        out.set_limits(settings.max_buffer, settings.require_tag_first);
        out.settings.exact_numbers = settings.exact_numbers;
        out.settings.visible = settings.visible && out.settings.key.is_some();
        out.set_representation(
            settings.external,
            settings.content,
            settings.deny_unknown_fields,
        );
        if out.entries.is_empty() {
            let problem = format!(
                "no subtypes are registered for {name} (none were found at run time; inventory registers nothing on platforms without static constructors)"
            );
            out.fatal = Some(problem.clone());
            out.problems.push(problem);
        }
        out
    }

    /// The table of `entries`, in this order.
    fn build(
        name: &str,
        key: Option<Arc<str>>,
        entries: Vec<Member>,
        position: TagPosition,
    ) -> Self {
        let mut settings = Settings::new(key.as_deref().map(intern), intern(name));
        // Payloads are read through the type-erased deserializer.
        settings.erased = true;
        let mut out = Table {
            settings,
            entries: Vec::new(),
            owners: TagIndex::default(),
            by_type: map(),
            presence: map(),
            fields: Vec::new(),
            tags: Vec::new(),
            aliases: Vec::new(),
            kind: Owner::Trait,
            problems: Vec::new(),
            fatal: None,
            position,
            representation: Representation::Internal,
            write_key: None,
            request: TagRequest::Str,
        };
        out.write_key = out.settings.key;
        for (index, entry) in entries.into_iter().enumerate() {
            let index = index as u32;
            if let Some(tag) = &entry.tag {
                out.add_tag(tag, index, &entry);
            }
            for alias in &entry.aliases {
                out.add_tag(alias, index, &entry);
            }
            let aliases = &out.tags[out.tags.len() - entry.aliases.len()..];
            let aliases = intern_tags(aliases);
            out.aliases.push(aliases);
            if entry.fallback {
                match out.settings.fallback {
                    Some(other) => {
                        let other = out.entries[other as usize].type_name;
                        let problem = format!(
                            "two fallbacks for {}: {other} and {}",
                            out.settings.name, entry.type_name
                        );
                        out.fatal.get_or_insert_with(|| problem.clone());
                        out.problems.push(problem);
                    }
                    None => out.settings.fallback = Some(index),
                }
            }
            for field in &entry.when_fields {
                if index >= 128 {
                    out.problems.push(format!(
                        "{} has more than 128 subtypes; `when_field` works on the first 128",
                        out.settings.name
                    ));
                    break;
                }
                *out.presence.entry(field.clone()).or_default() |= 1u128 << index;
                if !out.fields.contains(field) {
                    out.fields.push(field.clone());
                }
            }
            out.by_type.entry(entry.type_id).or_insert(index);
            out.entries.push(entry);
        }
        out.owners.finish();
        out.request = TagRequest::of(&out.tags);
        out
    }

    fn add_tag(&mut self, tag: &OwnedLiteral, index: u32, entry: &Member) {
        let slot = self.owners.claim(tag, index);
        match *slot {
            TagOwner::One(first) if first != index => {
                *slot = TagOwner::Clash(first, index);
                let first = self.entries[first as usize].type_name;
                self.problems.push(format!(
                    "subtype tag {tag} is claimed by both {first} and {}",
                    entry.type_name
                ));
            }
            _ => {}
        }
        self.tags.push(match tag {
            OwnedLiteral::Str(s) => Literal::Str(intern(s)),
            OwnedLiteral::I64(v) => Literal::I64(*v),
            OwnedLiteral::U64(v) => Literal::U64(*v),
            OwnedLiteral::Bool(v) => Literal::Bool(*v),
        });
    }

    pub(crate) fn set_max_depth(&mut self, max_depth: u32) {
        self.settings.max_depth = max_depth;
    }

    pub(crate) fn max_depth_value(&self) -> u32 {
        self.settings.max_depth
    }

    /// `max_buffer` and `require_tag_first` (the latter only with a tag key).
    pub(crate) fn set_limits(&mut self, max_buffer: Option<usize>, require_tag_first: bool) {
        self.settings.max_buffer = max_buffer;
        self.settings.require_tag_first = require_tag_first && self.settings.key.is_some();
    }

    pub(crate) fn limits(&self) -> (Option<usize>, bool) {
        (self.settings.max_buffer, self.settings.require_tag_first)
    }

    pub(crate) fn set_exact_numbers(&mut self, exact: bool) {
        self.settings.exact_numbers = exact;
    }

    pub(crate) fn exact_numbers_value(&self) -> bool {
        self.settings.exact_numbers
    }

    /// Marks the table as a profile's, for messages.
    pub(crate) fn set_profile(&mut self) {
        self.kind = Owner::Profile;
    }

    pub(crate) fn set_visible(&mut self, visible: bool) {
        self.settings.visible = visible && self.settings.key.is_some();
    }

    pub(crate) fn is_visible(&self) -> bool {
        self.settings.visible
    }

    /// `external`, or `content` with the tag key, or neither (the internal
    /// form).
    pub(crate) fn set_representation(
        &mut self,
        external: bool,
        content: Option<&str>,
        deny_unknown_fields: bool,
    ) {
        self.representation = match (external, content, self.settings.key) {
            (true, _, _) => Representation::External,
            (false, Some(content), Some(tag)) => Representation::Adjacent(Adjacent::new(
                self.settings.name,
                tag,
                content,
                deny_unknown_fields,
            )),
            _ => Representation::Internal,
        };
        self.write_key = match self.representation {
            Representation::Internal => self.settings.key,
            _ => None,
        };
        if self.representation != Representation::Internal {
            let untagged = self
                .entries
                .iter()
                .filter(|e| e.tag.is_none() && !e.fallback);
            let problems: Vec<String> = untagged
                .map(|e| {
                    format!(
                        "{} is picked by its fields (`when_field`), which only the internally tagged form does; give it a `name`",
                        e.type_name
                    )
                })
                .collect();
            self.problems.extend(problems);
        }
        if self.representation == Representation::External && self.request == TagRequest::Any {
            let problem = format!(
                "{} mixes tag kinds in the externally tagged form, where a tag is a map key: JSON writes every key as a string, so an integer or bool tag could not be told from a string; give every subtype a tag of one kind",
                self.settings.name
            );
            self.fatal.get_or_insert_with(|| problem.clone());
            self.problems.push(problem);
        }
    }

    pub(crate) fn representation(&self) -> Representation {
        self.representation
    }

    pub(crate) fn key_string(&self) -> Option<String> {
        self.settings.key.map(str::to_owned)
    }

    pub(crate) fn tag_key(&self) -> Option<&'static str> {
        self.settings.key
    }

    /// The subtype registered for `type_id` (the first, for a type with
    /// several tags).
    pub(crate) fn subtype_by_type(&self, type_id: TypeId) -> Option<&Member> {
        let index = *self.by_type.get(&type_id)?;
        self.entries.get(index as usize)
    }

    pub(crate) fn subtypes(&self) -> &[Member] {
        &self.entries
    }

    /// Every problem found while building: collisions, two fallbacks, no
    /// subtypes at all.
    pub(crate) fn problems(&self) -> &[String] {
        &self.problems
    }

    pub(crate) fn name(&self) -> &str {
        self.settings.name
    }

    /// The message for a value whose type is not registered here (`full`,
    /// its type's name as `type_name` spells it), with how to register it.
    #[cold]
    fn unregistered(&self, full: &str) -> String {
        let type_name = crate::names::short(full);
        format!(
            "cannot serialize {type_name}: its type is not a registered subtype of {}; {}",
            self.settings.name,
            self.how_to_register(&type_name, "write")
        )
    }

    /// How `type_name`, a type that implements the trait, becomes one of
    /// these subtypes: the attribute on its impl (which a trait's registry
    /// cannot miss at compile time: an impl may be meant for profiles
    /// only) or a profile's registration. `verb` is what the profile then
    /// does with it.
    pub(crate) fn how_to_register(&self, type_name: &str, verb: &str) -> String {
        match self.kind {
            Owner::Profile => format!(
                "register it on the profile's builder with `.subtype::<{type_name}>(...)`"
            ),
            _ => format!(
                "put `#[json_subtypes(name = ...)]` on `impl {} for {type_name}`, or {verb} it with a `Profile` that registers it",
                self.trait_name()
            ),
        }
    }

    /// `Shape` for the registry of `dyn Shape`.
    fn trait_name(&self) -> &str {
        self.settings
            .name
            .strip_prefix("dyn ")
            .unwrap_or(self.settings.name)
    }

    /// What registers a type under the tag `found`, for the unknown-tag
    /// message: a type that implements the trait may just lack its
    /// attribute (nothing can list the impls that do), or its profile
    /// registration. `None` for a value that cannot be a tag.
    fn register_fix(&self, found: Found<'_>) -> Option<String> {
        let tag = match found {
            Found::Str(_) | Found::I64(_) | Found::U64(_) | Found::Bool(_) | Found::Char(_) => {
                found.to_string()
            }
            Found::I128(_) | Found::U128(_) | Found::Float(_) => return None,
        };
        Some(match self.kind {
            Owner::Profile => format!(
                "to read a type under this tag, register it on the profile's builder with `.subtype::<T>({tag})`"
            ),
            _ => format!(
                "to read a type under this tag, put `#[json_subtypes(name = {tag})]` on its `impl {}`, or read it with a `Profile` that registers it",
                self.trait_name()
            ),
        })
    }

    fn index_of(&self, found: Found<'_>) -> Result<Option<u32>, String> {
        match self.owners.owner(found) {
            None => Ok(None),
            Some(TagOwner::One(index)) => Ok(Some(*index)),
            Some(TagOwner::Clash(a, b)) => Err(format!(
                "subtype tag {found} is claimed by both {} and {}; see json_subtypes::verify_registry",
                self.entries[*a as usize].type_name, self.entries[*b as usize].type_name
            )),
        }
    }

    /// `serialize` in the external or adjacent form; a subtype without a
    /// tag (the fallback) writes its payload as it is. Out of line, so the
    /// internal form's write is compiled as it was without it.
    #[inline(never)]
    fn serialize_wrapped<S: Serializer, V: ?Sized + Subtype>(
        &self,
        entry: &Member,
        value: &V,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        let value = Bare {
            value,
            json: entry.readers.json_bare(),
        };
        match (&entry.tag, self.representation) {
            (Some(tag), Representation::Adjacent(form)) => {
                let last = self.position == TagPosition::Last;
                adjacent::serialize(serializer, form, tag, value, last)
            }
            (Some(tag), _) => external::serialize(serializer, tag, value),
            (None, _) => serde::Serialize::serialize(&value, serializer),
        }
    }

    /// Writes `value` (a `T`, or the same object with other auto traits)
    /// with its tag, in the table's representation, whichever it is.
    #[inline]
    pub(crate) fn serialize<S: Serializer, V: ?Sized + Subtype>(
        &self,
        value: &V,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        self.write::<true, S, V>(value, serializer)
    }

    /// Writes `value` (a `T`, or the same object with other auto traits)
    /// with its tag, in the registry's representation. `MAY_WRAP`: whether
    /// the table may be in the external or adjacent form, false for a
    /// trait whose attribute chose the internal form. The internal form's
    /// write is the one it was before the other forms existed: they are
    /// told apart only on its untagged path (`write_key` is `None` for
    /// them), and not at all for such a trait.
    pub(crate) fn write<const MAY_WRAP: bool, S: Serializer, V: ?Sized + Subtype>(
        &self,
        value: &V,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        let any = AnyValue::of(value);
        let Some(&index) = self.by_type.get(&any.type_id()) else {
            return Err(S::Error::custom(
                self.unregistered(value.__json_subtypes_type_name()),
            ));
        };
        let entry = &self.entries[index as usize];
        let tagged = match (&entry.tag, self.write_key, self.position) {
            (Some(tag), Some(key), TagPosition::First | TagPosition::Last) => Some((tag, key)),
            _ if MAY_WRAP && self.representation != Representation::Internal => {
                return self.serialize_wrapped(entry, value, serializer);
            }
            _ => None,
        };
        let last = self.position == TagPosition::Last;
        let visible = self.settings.visible.then(|| self.aliases[index as usize]);
        let tagged = tagged.map(|(tag, key)| {
            let owner = (self.kind, self.settings.name);
            TagEntry::for_type(key, tag, owner, entry.type_name, last, visible)
        });
        // serde_json's compact writer into a `Vec<u8>`: the registration's
        // compiled writer for the form it writes, when it has one.
        let written = match (&tagged, &entry.readers) {
            (Some(tagged), readers) => match readers.json_tagged() {
                Some(write) => write_json(serializer, |json| {
                    write(any, PayloadSerializer::new(json, tagged))
                }),
                None => Err(serializer),
            },
            (None, readers) => match readers.json_bare() {
                Some(write) => write_json(serializer, |json| write(any, json)),
                None => Err(serializer),
            },
        };
        let serializer = match written {
            Ok(done) => return done,
            Err(serializer) => serializer,
        };
        let value = value.__json_subtypes_erased();
        match &tagged {
            Some(tagged) => {
                erased_serde::serialize(value, PayloadSerializer::new(serializer, tagged))
            }
            None => erased_serde::serialize(value, serializer),
        }
    }
}

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

impl Lookup for Table {
    fn key(&self) -> &str {
        self.settings.key.unwrap_or_default()
    }

    #[inline]
    fn lookup(&self, found: Found<'_>) -> Result<Option<u32>, String> {
        self.index_of(found)
    }

    fn expected(&self) -> Vec<Literal> {
        self.tags.clone()
    }

    fn unknown_fix(&self, found: Found<'_>) -> Option<String> {
        self.register_fix(found)
    }
}

/// One read of a table: the table and the slot its subtype's reader fills.
#[derive(Clone, Copy)]
struct Walk<'a> {
    table: &'a Table,
    slot: &'a dyn core::any::Any,
}

impl<'de> Subtypes<'de> for Walk<'_> {
    type Value = ();

    #[inline]
    fn settings(&self) -> &Settings {
        &self.table.settings
    }

    /// Every registry's tags are read by the one shared reader, the table
    /// looked up through `dyn`: a reader per registry would compile a
    /// format's `deserialize_any` once per trait.
    #[inline]
    fn read_tag<D>(&self, tag: D, sink: Option<TagSink<'_, 'de>>) -> Result<Option<u32>, D::Error>
    where
        D: Deserializer<'de>,
    {
        let table: &(dyn Lookup + 'static) = self.table;
        tag.deserialize_any(TagVisitor { table, sink })
    }

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

/// Renamed to [`verify_registry`]: it checks a trait's registrations, not
/// a value.
#[deprecated(since = "0.1.0", note = "renamed to `verify_registry`")]
pub fn verify<T: ?Sized + Registered + 'static>() -> Result<(), RegistryError> {
    verify_registry::<T>()
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
