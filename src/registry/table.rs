//! A registry without its `T`: the tag tables the engine's walk reads
//! (`Table`), how each subtype is read (`Member`), and where the tag goes
//! when a value is written (`TagPosition`).

use core::any::TypeId;
use std::sync::Arc;

use serde::ser::{Error as _, Serializer};

use super::intern::{intern, intern_tags};
use super::{Described, Entry, TraitSettings};
use crate::compiled::{write_json, AnyReaders, AnyValue};
use crate::dispatch::Settings;
use crate::marker::Conversions;
use crate::representation::{adjacent, external, Adjacent, Bare, Representation};
use crate::subtype::Subtype;
use crate::tag::{map, Found, Literal, Lookup, Map, OwnedLiteral, TagIndex, TagOwner, TagRequest};
use crate::tag_writer::{AsMap, Owner, PayloadSerializer, TagEntry};

/// A registry without its `T`, which is all the engine's walk needs: tag
/// tables keyed with ahash, so a known tag is found without allocating.
pub struct Table {
    /// What the engine's walk reads of the set: its key and name (interned
    /// once: serializers want `&'static str` names and keys), fallback,
    /// limits and flags.
    pub(super) settings: Settings,
    pub(super) entries: Vec<Member>,
    pub(super) owners: TagIndex,
    pub(super) by_type: Map<TypeId, u32>,
    pub(super) presence: Map<Arc<str>, u128>,
    pub(super) fields: Vec<Arc<str>>,
    pub(super) tags: Vec<Literal>,
    /// Each entry's aliases, which its field named like the tag may hold
    /// when the tag is `visible`.
    pub(super) aliases: Vec<&'static [Literal]>,
    /// A trait's registry or a profile: where a message says to register
    /// a type or make the tag `visible`.
    pub(super) kind: Owner,
    pub(super) problems: Vec<String>,
    /// A problem that makes every read ambiguous or impossible (no
    /// subtypes, two fallbacks); collisions only refuse their own tag.
    pub(crate) fatal: Option<String>,
    pub(super) position: TagPosition,
    /// How the tag sits beside the payload.
    pub(super) representation: Representation,
    /// The key the internal form's writer puts the tag under: `key` in
    /// that form, `None` in the others, whose writer the internal one
    /// reaches only on its untagged path (see `serialize`).
    pub(super) write_key: Option<&'static str>,
    /// How the external and adjacent forms read a tag (see `TagRequest`).
    pub(super) request: TagRequest,
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

impl Member {
    /// A subtype as the impl attribute registered it.
    pub(super) fn registered(
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
    pub(super) fn from_registrations(
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
            settings.as_map,
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
    pub(super) fn build(
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
        as_map: bool,
    ) {
        self.representation = match (external, content, self.settings.key) {
            (true, _, _) => Representation::External,
            (false, Some(content), Some(tag)) => Representation::Adjacent(Adjacent::new(
                self.settings.name,
                tag,
                content,
                deny_unknown_fields,
            )),
            (false, None, Some(_)) if as_map => Representation::InternalMap,
            _ => Representation::Internal,
        };
        self.write_key = match self.representation {
            Representation::Internal | Representation::InternalMap => self.settings.key,
            _ => None,
        };
        if matches!(
            self.representation,
            Representation::External | Representation::Adjacent(_)
        ) {
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
            Some(tagged) if MAY_WRAP && self.representation == Representation::InternalMap => {
                serialize_as_map(value, serializer, tagged, self.request)
            }
            Some(tagged) => {
                erased_serde::serialize(value, PayloadSerializer::new(serializer, tagged))
            }
            None => erased_serde::serialize(value, serializer),
        }
    }
}

/// The internal form with `as_map` through the erased writer: the payload
/// written as a map, its tag entry first (see `AsMap`). Out of line, so the
/// internal form's write is compiled as it was without it.
#[inline(never)]
fn serialize_as_map<S: Serializer>(
    value: &dyn erased_serde::Serialize,
    serializer: S,
    tagged: &TagEntry<&OwnedLiteral>,
    request: TagRequest,
) -> Result<S::Ok, S::Error> {
    // With negative and positive int tags every tag is read as an `i64`:
    // written as one too, or postcard's and bincode's encodings differ.
    if let (TagRequest::I64, &OwnedLiteral::U64(v)) = (request, tagged.tag()) {
        if let Ok(v) = i64::try_from(*v) {
            let signed = OwnedLiteral::I64(v);
            let tagged = tagged.with_tag(&signed);
            return erased_serde::serialize(
                value,
                PayloadSerializer::new(AsMap(serializer), &tagged),
            );
        }
    }
    erased_serde::serialize(value, PayloadSerializer::new(AsMap(serializer), tagged))
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

    #[inline]
    fn quick_str(&self, found: &str) -> Option<u32> {
        match self.owners.owner(Found::Str(found)) {
            Some(TagOwner::One(index)) => Some(*index),
            _ => None,
        }
    }
}
