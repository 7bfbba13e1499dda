//! Resolver profiles: subtype tables for a trait built at run time, each
//! owning its tables, so two profiles over one trait never see each other's
//! mappings.

use core::any::{Any, TypeId};
use core::cell::{Cell, RefCell};
use core::fmt;
use std::io;
use std::sync::Arc;

use serde::de::{DeserializeOwned, DeserializeSeed, Deserializer};
use serde::ser::{Serialize, Serializer};

use crate::compiled::AnyReaders;
use crate::registry::{Described, Member, Registered, Registry, TagPosition};
use crate::representation::Representation;
use crate::subtype::{Subtype, Upcast};
use crate::tag::OwnedLiteral;

/// A tag value given to [`ProfileBuilder::subtype`]: a string, an integer
/// or a bool.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TagValue(OwnedLiteral);

impl From<&str> for TagValue {
    fn from(v: &str) -> Self {
        TagValue(OwnedLiteral::Str(v.into()))
    }
}

impl From<String> for TagValue {
    fn from(v: String) -> Self {
        TagValue(OwnedLiteral::Str(v.into()))
    }
}

impl From<bool> for TagValue {
    fn from(v: bool) -> Self {
        TagValue(OwnedLiteral::Bool(v))
    }
}

macro_rules! int_tags {
    ($($ty:ty)*) => {
        $(
            impl From<$ty> for TagValue {
                fn from(v: $ty) -> Self {
                    let v = i128::from(v);
                    TagValue(match u64::try_from(v) {
                        Ok(u) => OwnedLiteral::U64(u),
                        // Only negative values land here for these widths.
                        Err(_) => OwnedLiteral::I64(v as i64),
                    })
                }
            }
        )*
    };
}

int_tags!(i8 i16 i32 i64 u8 u16 u32 u64);

/// Why [`ProfileBuilder::build`] refused: every problem found, each naming
/// the call it comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildError {
    problems: Vec<String>,
}

impl BuildError {
    /// One line per problem.
    pub fn problems(&self) -> impl Iterator<Item = &str> {
        self.problems.iter().map(|p| p.as_str())
    }
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.problems.as_slice() {
            [one] => write!(f, "cannot build the profile: {one}"),
            many => {
                f.write_str("cannot build the profile:")?;
                for problem in many {
                    write!(f, "\n- {problem}")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for BuildError {}

/// A set of subtypes of `T` (a `dyn Trait`) with its own tag key, tags,
/// fallback and tag position, built with [`Profile::builder`].
///
/// ```
/// use json_subtypes::{json_subtypes, Profile, TagPosition};
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
/// impl Shape for Square {
///     fn area(&self) -> f64 {
///         self.side * self.side
///     }
/// }
///
/// let v2 = Profile::<dyn Shape>::builder()
///     .tag("kind")
///     .subtype::<Square>(2)
///     .tag_position(TagPosition::Last)
///     .build()?;
/// let shape = v2.from_str(r#"{"kind":2,"side":3.0}"#)?;
/// assert_eq!(shape.area(), 9.0);
/// assert_eq!(v2.to_string(&*shape)?, r#"{"side":3.0,"kind":2}"#);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// Cloning is cheap (the tables are shared); a profile is `Send + Sync`
/// whatever the trait's supertraits are.
pub struct Profile<T: ?Sized + 'static> {
    registry: Arc<Registry<T>>,
}

impl<T: ?Sized + 'static> Clone for Profile<T> {
    fn clone(&self) -> Self {
        Profile {
            registry: self.registry.clone(),
        }
    }
}

impl<T: ?Sized + 'static> fmt::Debug for Profile<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Profile").field(&self.registry).finish()
    }
}

/// A type's readers compiled for serde_json (`ProfileBuilder::compiled`),
/// for the internal form and for the external and adjacent ones: the form
/// is known at build, which applies that form's.
struct CompiledReaders {
    type_id: TypeId,
    internal: fn() -> AnyReaders,
    wrapped: fn() -> AnyReaders,
}

/// Configures a [`Profile`].
pub struct ProfileBuilder<T: ?Sized + 'static> {
    name: String,
    tag: Option<String>,
    /// Each with readers made for `T` (`push`, or `T`'s own registry).
    subtypes: Vec<Member>,
    marker: core::marker::PhantomData<fn() -> Box<T>>,
    /// Types that came from the attribute registry: `subtype` re-tags them.
    inherited: Vec<TypeId>,
    /// What the impl attributes proved about the registry's types: kept
    /// when `subtype` re-tags one or a fallback adds it again.
    markers: Vec<(TypeId, crate::marker::Conversions)>,
    /// Schemas of types, from the registry or `describe`, applied at build.
    described: Vec<(TypeId, Described)>,
    /// `alias` calls in order, each added at build to its type's tags.
    aliases: Vec<Alias>,
    /// Readers and writers compiled for serde_json, from `compiled`,
    /// applied at build.
    compiled: Vec<CompiledReaders>,
    position: Option<TagPosition>,
    max_depth: Option<u32>,
    max_buffer: Option<usize>,
    require_tag_first: bool,
    exact_numbers: bool,
    visible: bool,
    /// `external`: the tag is the one key of a map.
    external: bool,
    /// `as_map`: the internal form written and read as a map.
    as_map: bool,
    /// `content`: the payload's key beside the tag key.
    content: Option<String>,
    deny_unknown_fields: bool,
    problems: Vec<String>,
}

/// One `alias::<C>(tag)` call.
struct Alias {
    type_id: TypeId,
    type_name: &'static str,
    tag: OwnedLiteral,
}

/// `C`'s name without its modules, interned: `a::b::Circle<c::D>` ->
/// `Circle<D>`, `dyn a::Shape` -> `dyn Shape`.
fn short_name<C: ?Sized>() -> &'static str {
    crate::registry::intern(&crate::names::short_of::<C>())
}

impl<T: ?Sized + 'static> Profile<T> {
    /// An empty builder.
    pub fn builder() -> ProfileBuilder<T> {
        ProfileBuilder {
            name: format!("profile of {}", short_name::<T>()),
            tag: None,
            subtypes: Vec::new(),
            marker: core::marker::PhantomData,
            inherited: Vec::new(),
            markers: Vec::new(),
            described: Vec::new(),
            aliases: Vec::new(),
            compiled: Vec::new(),
            position: None,
            max_depth: None,
            max_buffer: None,
            require_tag_first: false,
            exact_numbers: false,
            visible: false,
            external: false,
            as_map: false,
            content: None,
            deny_unknown_fields: false,
            problems: Vec::new(),
        }
    }

    /// Reads a `Box<T>` from any serde deserializer.
    pub fn deserialize<'de, D: Deserializer<'de>>(
        &self,
        deserializer: D,
    ) -> Result<Box<T>, D::Error> {
        self.registry.read(deserializer)
    }

    /// This profile as a `DeserializeSeed`, for reading inside other seeds.
    pub fn seed(&self) -> ProfileSeed<'_, T> {
        ProfileSeed { profile: self }
    }

    /// Reads a `Box<T>` from JSON text.
    pub fn from_str(&self, json: &str) -> serde_json::Result<Box<T>> {
        let mut de = serde_json::Deserializer::from_str(json);
        let value = self.deserialize(&mut de)?;
        de.end()?;
        Ok(value)
    }

    /// Reads a `Box<T>` from JSON bytes.
    pub fn from_slice(&self, json: &[u8]) -> serde_json::Result<Box<T>> {
        let mut de = serde_json::Deserializer::from_slice(json);
        let value = self.deserialize(&mut de)?;
        de.end()?;
        Ok(value)
    }

    /// Reads a `Box<T>` from a JSON reader.
    pub fn from_reader<R: io::Read>(&self, json: R) -> serde_json::Result<Box<T>> {
        let mut de = serde_json::Deserializer::from_reader(json);
        let value = self.deserialize(&mut de)?;
        de.end()?;
        Ok(value)
    }

    /// Writes `value` with this profile's tags, as anything that serializes:
    /// `serde_json::to_value(profile.serializable(value))`, a field of a
    /// hand-written `Serialize`, another format's serializer.
    pub fn serializable<'a>(&'a self, value: &'a T) -> Profiled<'a, T>
    where
        T: Subtype,
    {
        Profiled {
            profile: self,
            value,
        }
    }

    /// Writes `value` as JSON text.
    pub fn to_string(&self, value: &T) -> serde_json::Result<String>
    where
        T: Subtype,
    {
        serde_json::to_string(&self.serializable(value))
    }

    /// Writes `value` as JSON bytes.
    pub fn to_vec(&self, value: &T) -> serde_json::Result<Vec<u8>>
    where
        T: Subtype,
    {
        serde_json::to_vec(&self.serializable(value))
    }

    /// Writes `value` as JSON to `writer`.
    pub fn to_writer<W: io::Write>(&self, writer: W, value: &T) -> serde_json::Result<()>
    where
        T: Subtype,
    {
        serde_json::to_writer(writer, &self.serializable(value))
    }

    /// Runs `f` with this profile in charge of every `Box<T>` read and every
    /// `T` written on this thread, inside ordinary derived types (`Vec`,
    /// `Option`, map values, struct fields). Scopes nest (the innermost
    /// wins), scopes of several traits combine, and the previous state comes
    /// back when `f` returns or panics.
    pub fn scope<R>(&self, f: impl FnOnce() -> R) -> R {
        /// The enclosing state (scopes, open count), put back on drop.
        struct Pop(usize, usize);
        impl Drop for Pop {
            fn drop(&mut self) {
                SCOPES.with(|s| s.borrow_mut().truncate(self.0));
                ACTIVE.with(|a| a.set(self.1));
            }
        }
        let shared: Arc<dyn Any + Send + Sync> = self.registry.clone();
        let outer = SCOPES.with(|s| {
            let mut s = s.borrow_mut();
            s.push((TypeId::of::<T>(), shared));
            s.len() - 1
        });
        let _pop = Pop(outer, ACTIVE.with(|a| a.replace(a.get() + 1)));
        f()
    }

    /// The JSON Schema of what this profile reads: `oneOf` its subtypes, each
    /// with its tag under this profile's key (see the crate docs, "JSON
    /// Schema"). Payload schemas go to `generator`'s definitions.
    #[cfg(feature = "schemars")]
    pub fn json_schema(&self, generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        crate::schema::registry_schema(&self.registry, generator)
    }

    /// [`json_schema`](Self::json_schema) as a root schema (draft 2020-12),
    /// the payloads' schemas under `$defs`.
    #[cfg(feature = "schemars")]
    pub fn root_schema(&self) -> schemars::Schema {
        crate::schema::root_schema(self.registry.name(), |g| self.json_schema(g))
    }

    fn serialize_value<S: Serializer>(&self, value: &T, serializer: S) -> Result<S::Ok, S::Error>
    where
        T: Subtype,
    {
        self.registry.serialize(value, serializer)
    }
}

impl<T: ?Sized + Registered + 'static> Profile<T> {
    /// A builder that starts from the attribute registrations of `T`'s
    /// trait (its tags, tag key, fallback, `max_depth`, `max_buffer`,
    /// `require_tag_first` and `visible`), to
    /// change before [`build`](ProfileBuilder::build): for example another
    /// tag key for an API version, or another tag for one type.
    pub fn builder_from_registry() -> ProfileBuilder<T> {
        let registry = T::registry();
        let mut builder = Profile::<T>::builder();
        builder.name = format!("profile of {}", registry.name());
        builder.tag = registry.key_string();
        builder.subtypes = registry.subtypes().to_vec();
        builder.inherited = builder.subtypes.iter().map(|s| s.type_id).collect();
        builder.markers = builder
            .subtypes
            .iter()
            .filter_map(|s| Some((s.type_id, s.markers.clone()?)))
            .collect();
        builder.described = builder
            .subtypes
            .iter()
            .filter_map(|s| Some((s.type_id, s.schema?)))
            .collect();
        builder.max_depth = Some(registry.max_depth_value());
        (builder.max_buffer, builder.require_tag_first) = registry.limits();
        builder.exact_numbers = registry.exact_numbers_value();
        builder.visible = registry.is_visible();
        match registry.representation() {
            Representation::Internal => {}
            Representation::InternalMap => builder.as_map = true,
            Representation::External => builder.external = true,
            Representation::Adjacent(form) => {
                builder.content = Some(form.content().to_owned());
                builder.deny_unknown_fields = form.deny_unknown_fields;
            }
        }
        builder
    }
}

impl<T: ?Sized + 'static> ProfileBuilder<T> {
    /// The tag key. Without it the profile is presence-only
    /// ([`when_field`](Self::when_field)).
    pub fn tag(mut self, key: impl Into<String>) -> Self {
        let key = key.into();
        if key.is_empty() {
            self.problems
                .push("tag(\"\"): the tag key cannot be empty".to_owned());
        }
        self.tag = Some(key);
        self.external = false;
        self
    }

    /// The externally tagged form, `{"circle":{"r":1.0}}`: each value is a
    /// map with one entry, the subtype's tag its key and the payload its
    /// value (typetag's default form, serde's default for enums). There is
    /// no tag key: this replaces [`tag`](Self::tag) and
    /// [`content`](Self::content), and `tag` replaces it in turn. Nothing
    /// is ever buffered, so `max_buffer` and `require_tag_first` hold
    /// without checking; an unknown key lands in the fallback, which reads
    /// (and writes back) the whole map.
    pub fn external(mut self) -> Self {
        self.external = true;
        self.tag = None;
        self.content = None;
        self
    }

    /// The adjacently tagged form, `{"kind":"circle","value":{"r":1.0}}`:
    /// the tag under the [`tag`](Self::tag) key and the payload under
    /// `key` (serde's and typetag's `tag` + `content`). Content before the
    /// tag is buffered, within [`max_buffer`](Self::max_buffer); other keys
    /// are ignored unless [`deny_unknown_fields`](Self::deny_unknown_fields).
    /// Replaces [`external`](Self::external).
    pub fn content(mut self, key: impl Into<String>) -> Self {
        let key = key.into();
        if key.is_empty() {
            self.problems
                .push("content(\"\"): the content key cannot be empty".to_owned());
        }
        self.content = Some(key);
        self.external = false;
        self
    }

    /// The internally tagged form written as a map with the tag entry first
    /// and read with `deserialize_map`, keys as identifiers and the tag
    /// with the one request its kinds allow, never `deserialize_any` up to
    /// the tag: typetag's internally tagged form, which formats that do not
    /// describe themselves (postcard, bincode) read back when the tag comes
    /// first. JSON's bytes are the same either way; CBOR and MessagePack
    /// write a map where they wrote the payload's struct (rmp-serde writes
    /// structs as arrays). With [`tag`](Self::tag) only, not with
    /// [`external`](Self::external) or [`content`](Self::content), which
    /// are maps already.
    pub fn as_map(mut self) -> Self {
        self.as_map = true;
        self
    }

    /// With [`content`](Self::content): whether a key other than the tag
    /// and content keys is refused (``unknown field `x`, expected `kind` or
    /// `value` ``) rather than ignored. Off by default.
    pub fn deny_unknown_fields(mut self, deny: bool) -> Self {
        self.deny_unknown_fields = deny;
        self
    }

    /// Registers `C` under the tag `value` (a string, an integer or a bool).
    pub fn subtype<C>(mut self, value: impl Into<TagValue>) -> Self
    where
        C: Serialize + DeserializeOwned + 'static,
        T: Upcast<C>,
    {
        let tag = value.into().0;
        let id = TypeId::of::<C>();
        if self.inherited.contains(&id) {
            // A type from the attribute registry gets its new tag.
            self.inherited.retain(|t| *t != id);
            self.subtypes.retain(|s| s.type_id != id || s.fallback);
        }
        self.push::<C>(Some(tag), false, Vec::new());
        self
    }

    /// Adds the tag `value` to those of `C`, which [`subtype`](Self::subtype)
    /// (or the registry, for [`Profile::builder_from_registry`]) gave it:
    /// as `#[json_subtypes(alias = ...)]`, every tag of `C` is read and its
    /// first one is written. Call again for more; the order of the calls
    /// does not matter. A tag another type has, one `C` has already or a
    /// `C` without a tag of its own is a [`BuildError`].
    ///
    /// ```
    /// use json_subtypes::{json_subtypes, Profile};
    /// use serde::{Deserialize, Serialize};
    ///
    /// #[json_subtypes(tag = "type")]
    /// trait Shape {
    ///     fn area(&self) -> f64;
    /// }
    ///
    /// #[derive(Serialize, Deserialize)]
    /// struct Circle {
    ///     r: f64,
    /// }
    ///
    /// impl Shape for Circle {
    ///     fn area(&self) -> f64 {
    ///         3.0 * self.r * self.r
    ///     }
    /// }
    ///
    /// let profile = Profile::<dyn Shape>::builder()
    ///     .tag("kind")
    ///     .subtype::<Circle>("circle")
    ///     .alias::<Circle>("round")
    ///     .alias::<Circle>(7)
    ///     .build()?;
    /// let shape = profile.from_str(r#"{"kind":"round","r":1.0}"#)?;
    /// assert_eq!(profile.to_string(&*shape)?, r#"{"kind":"circle","r":1.0}"#);
    /// assert_eq!(profile.from_str(r#"{"kind":7,"r":1.0}"#)?.area(), 3.0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn alias<C>(mut self, value: impl Into<TagValue>) -> Self
    where
        C: Serialize + DeserializeOwned + 'static,
        T: Upcast<C>,
    {
        self.aliases.push(Alias {
            type_id: TypeId::of::<C>(),
            type_name: short_name::<C>(),
            tag: value.into().0,
        });
        self
    }

    /// Registers `C`, picked when `field` is present (presence-only
    /// profiles). Call again to add fields to the same type.
    pub fn when_field<C>(mut self, field: impl Into<String>) -> Self
    where
        C: Serialize + DeserializeOwned + 'static,
        T: Upcast<C>,
    {
        let field: Arc<str> = field.into().into();
        match self
            .subtypes
            .iter_mut()
            .find(|s| s.type_id == TypeId::of::<C>() && s.tag.is_none() && !s.fallback)
        {
            Some(existing) => existing.when_fields.push(field),
            None => self.push::<C>(None, false, vec![field]),
        }
        self
    }

    /// Registers `C` as the fallback for unknown or missing tags (or no
    /// presence match).
    pub fn fallback<C>(mut self) -> Self
    where
        C: Serialize + DeserializeOwned + 'static,
        T: Upcast<C>,
    {
        self.push::<C>(None, true, Vec::new());
        self
    }

    /// Where the tag goes when writing: first (the default), last, or not
    /// at all.
    pub fn tag_position(mut self, position: TagPosition) -> Self {
        self.position = Some(position);
        self
    }

    /// Whether a payload field named like the tag is the tag (as
    /// `#[json_subtypes(tag = "...", visible)]`): it receives the tag on
    /// read, and it is what is written, where the payload puts it, holding
    /// the subtype's tag or one of its [`alias`](Self::alias)es; any other
    /// value is an error on write. A payload without such a field gets the
    /// tag after its fields. Off by default: such a field is an error on
    /// write, and on read a payload that requires it misses it.
    pub fn visible(mut self, visible: bool) -> Self {
        self.visible = visible;
        self
    }

    /// How deeply values may nest (default 128, as serde_json): deeper
    /// input is an error, never a stack overflow.
    pub fn max_depth(mut self, max_depth: u32) -> Self {
        if max_depth == 0 {
            self.problems
                .push("max_depth(0): nothing could be read; give at least 1".to_owned());
        }
        self.max_depth = Some(max_depth);
        self
    }

    /// At most `bytes` bytes of an object may be buffered before its tag
    /// (in a presence-only profile, of the whole object): more is an error
    /// naming the limit. Unlimited by default. It bounds the memory and the
    /// work an object whose tag comes late costs; what counts is the
    /// buffer's own size (see the crate docs, "Limits for untrusted input").
    /// Objects with their tag first buffer nothing. Replaces
    /// [`require_tag_first`](Self::require_tag_first) (one says how much may
    /// come before the tag, the other that nothing may).
    pub fn max_buffer(mut self, bytes: usize) -> Self {
        if bytes == 0 {
            self.problems.push(
                "max_buffer(0): no key could come before the tag; use `require_tag_first(true)` instead".to_owned(),
            );
        }
        self.max_buffer = Some(bytes);
        self.require_tag_first = false;
        self
    }

    /// Whether the tag must be the first key of every object, as
    /// System.Text.Json requires by default: a key before it is an error
    /// naming the limit, and nothing is ever buffered. An object without
    /// its tag is refused too, fallback or not (finding out means reading
    /// the whole object). Needs a tag key. Off by default; `true` replaces
    /// a [`max_buffer`](Self::max_buffer).
    pub fn require_tag_first(mut self, require: bool) -> Self {
        self.require_tag_first = require;
        if require {
            self.max_buffer = None;
        }
        self
    }

    /// Whether entries read before the tag keep numbers that no 64-bit
    /// integer holds, with serde_json over a `&str` or `&[u8]`: an integer
    /// beyond 64 bits then reads into a `u128` or `i128` field, and an
    /// `f32` field is parsed from the number's text, as with the tag
    /// first. serde_json (without `arbitrary_precision`) otherwise hands
    /// such a number over as an `f64` before the tag says who reads it.
    /// Off by default: it makes reads with the tag after other keys slower
    /// (`FEATURES=exact_numbers benches/instructions.sh`); other formats are
    /// unaffected.
    /// Needs this crate's `exact_numbers` feature (a [`BuildError`]
    /// without it); see the crate docs.
    pub fn exact_numbers(mut self, exact: bool) -> Self {
        self.exact_numbers = exact;
        self
    }

    fn push<C>(&mut self, tag: Option<OwnedLiteral>, fallback: bool, when_fields: Vec<Arc<str>>)
    where
        C: Serialize + DeserializeOwned + 'static,
        T: Upcast<C>,
    {
        let markers = self
            .markers
            .iter()
            .find(|(id, _)| *id == TypeId::of::<C>())
            .map(|(_, m)| m.clone());
        self.subtypes.push(Member {
            tag,
            aliases: Vec::new(),
            fallback,
            when_fields,
            type_name: short_name::<C>(),
            type_id: TypeId::of::<C>(),
            readers: crate::compiled::profile_readers::<T, C>().any(),
            markers,
            schema: None,
        });
    }

    /// Gives `C` its JSON Schema in the profile's schema ([`Profile::json_schema`]),
    /// wherever `C` is registered in this profile. Types that come from the
    /// registry of a trait with `#[json_subtypes(schema)]` have theirs
    /// already; any other subtype is described as any object with its tag.
    #[cfg(feature = "schemars")]
    pub fn describe<C: schemars::JsonSchema + 'static>(mut self) -> Self {
        self.described
            .push((TypeId::of::<C>(), Described::of::<C, T>()));
        self
    }

    /// The problems of `external` and `content` with the other settings.
    fn check_representation(
        &self,
        problems: &mut Vec<String>,
        position: TagPosition,
        subtypes: &[Member],
        presence: &[&Member],
    ) {
        let form = match (&self.content, self.external) {
            (Some(content), _) => {
                if self.tag.is_none() {
                    problems.push(format!(
                        "content({content:?}): the content key sits beside a tag key; call `.tag(\"...\")`"
                    ));
                }
                if position == TagPosition::Omit {
                    problems.push(format!(
                        "tag_position(Omit) with content({content:?}): the adjacently tagged form writes its tag beside the content; use TagPosition::First or Last"
                    ));
                }
                "adjacently"
            }
            (None, true) => {
                let tags = subtypes.iter().flat_map(|s| s.tag.iter().chain(&s.aliases));
                let mut kinds = tags.map(|tag| match tag {
                    OwnedLiteral::Str(_) => 0,
                    OwnedLiteral::Bool(_) => 1,
                    OwnedLiteral::I64(_) | OwnedLiteral::U64(_) => 2,
                });
                if let Some(first) = kinds.next() {
                    if kinds.any(|kind| kind != first) {
                        problems.push(
                            "external() with tags of several kinds: an externally tagged value's tag is a map key, and JSON writes every key as a string, so an integer or bool tag could not be told from a string; give every subtype a tag of one kind".to_owned(),
                        );
                    }
                }
                if let Some(p) = self.position.filter(|p| *p != TagPosition::First) {
                    problems.push(format!(
                        "tag_position({p:?}) with external(): an externally tagged value's tag is its one key; remove `tag_position`"
                    ));
                }
                "externally"
            }
            (None, false) => {
                if self.as_map && self.tag.is_none() {
                    problems.push(
                        "as_map(): it writes the tag entry first, and there is no tag key; call `.tag(\"...\")`".to_owned(),
                    );
                }
                if self.deny_unknown_fields {
                    problems.push(
                        "deny_unknown_fields(true): it refuses keys beside the tag and content keys; call `.content(\"...\")`, or put `#[serde(deny_unknown_fields)]` on the payloads".to_owned(),
                    );
                }
                return;
            }
        };
        if self.as_map {
            problems.push(format!(
                "as_map(): it writes the internally tagged form as a map, and the {form} tagged form writes a map already (postcard and bincode read it back); remove `as_map`"
            ));
        }
        for s in presence {
            problems.push(format!(
                "when_field::<{}>({:?}): only the internally tagged form picks subtypes by their fields, and this profile is {form} tagged; use `subtype`",
                s.type_name, &*s.when_fields[0]
            ));
        }
        if self.visible {
            problems.push(format!(
                "visible(true): the {form} tagged form writes the tag apart from the payload, so no payload field receives it; remove it"
            ));
        }
    }

    /// Reads and writes `C` with code compiled for serde_json, wherever `C`
    /// is registered in this profile, as `compiled` does for an impl: with
    /// `from_str`, `from_slice` and the compact writer into a `Vec<u8>`
    /// (`to_string`, `to_vec`), `C` is read and written as fast as an
    /// enum's payload, at the price of compiling `C`'s reader and writer
    /// once more for each (see the crate docs, "Compiled readers"). A type
    /// from the registry that is not `compiled` there becomes so here.
    /// [`build`](Self::build) gives `C` the readers of the profile's form:
    /// the internal form's, or with [`external`](Self::external) or
    /// [`content`](Self::content) those of the whole value that is the
    /// payload there. The form is chosen at run time, so both sets are
    /// compiled.
    pub fn compiled<C>(mut self) -> Self
    where
        C: Serialize + DeserializeOwned + 'static,
        T: Upcast<C>,
    {
        self.compiled.push(CompiledReaders {
            type_id: TypeId::of::<C>(),
            internal: || crate::compiled::compiled::<T, C>().any(),
            wrapped: || crate::compiled::profile_compiled_wrapped::<T, C>().any(),
        });
        self
    }

    /// Checks the configuration and builds the profile.
    pub fn build(mut self) -> Result<Profile<T>, BuildError> {
        let mut problems = core::mem::take(&mut self.problems);
        let position = self.position.unwrap_or_default();
        if self.subtypes.is_empty() {
            problems.push(
                "the profile has no subtypes; add `subtype`, `when_field` or `fallback`".to_owned(),
            );
        }
        // Aliases go to the first tagged registration of their type, after
        // the tags it already has (from the registry, or earlier calls).
        let mut subtypes = core::mem::take(&mut self.subtypes);
        let inherited_aliases: Vec<usize> = subtypes.iter().map(|s| s.aliases.len()).collect();
        let mut attached: Vec<&Alias> = Vec::new();
        for alias in &self.aliases {
            let (name, tag) = (alias.type_name, &alias.tag);
            let Some(member) = subtypes
                .iter_mut()
                .find(|s| s.type_id == alias.type_id && s.tag.is_some() && !s.fallback)
            else {
                problems.push(format!(
                    "alias::<{name}>({tag}): {name} has no tag of its own to add an alias to; register it with `.subtype::<{name}>(...)`"
                ));
                continue;
            };
            if member.tag.as_ref() == Some(tag) || member.aliases.contains(tag) {
                problems.push(format!(
                    "alias::<{name}>({tag}): {tag} is already a tag of {name}"
                ));
                continue;
            }
            member.aliases.push(tag.clone());
            attached.push(alias);
        }
        let tagged: Vec<&Member> = subtypes.iter().filter(|s| s.tag.is_some()).collect();
        let presence: Vec<&Member> = subtypes
            .iter()
            .filter(|s| !s.when_fields.is_empty())
            .collect();
        self.check_representation(&mut problems, position, &subtypes, &presence);
        match &self.tag {
            None if self.external => {}
            None => {
                for s in &tagged {
                    problems.push(format!(
                        "subtype::<{}>({}): a tag value needs a tag key; call `.tag(\"...\")`",
                        s.type_name,
                        s.tag.as_ref().unwrap()
                    ));
                }
                if let Some(p) = self.position.filter(|p| *p != TagPosition::Omit) {
                    problems.push(format!(
                        "tag_position({p:?}): a profile without a tag key writes no tag; use TagPosition::Omit or call `.tag(\"...\")`"
                    ));
                }
            }
            Some(key) => {
                for s in &presence {
                    problems.push(format!(
                        "when_field::<{}>({:?}): a profile with a tag key picks subtypes by tag; remove `.tag(\"{key}\")` or use `subtype`",
                        s.type_name, &*s.when_fields[0]
                    ));
                }
            }
        }
        // Every tag selects one type. The registry's aliases claim theirs
        // first (they were there before this builder), then the tags given
        // to `subtype`, then those given to `alias`: a clash is reported at
        // the call that made it.
        let mut owners: Vec<(&OwnedLiteral, &'static str)> = Vec::new();
        let mut check = |tag, type_name| match owners.iter().find(|(t, _)| *t == tag) {
            Some((_, first)) => Some(*first),
            None => {
                owners.push((tag, type_name));
                None
            }
        };
        for (s, inherited) in subtypes.iter().zip(&inherited_aliases) {
            if s.tag.is_some() {
                for tag in &s.aliases[..*inherited] {
                    if let Some(first) = check(tag, s.type_name) {
                        problems.push(format!(
                            "{}'s alias {tag}: the tag {tag} is already used by {first}",
                            s.type_name
                        ));
                    }
                }
            }
        }
        for (i, s) in tagged.iter().enumerate() {
            let tag = s.tag.as_ref().unwrap();
            if let Some(first) = check(tag, s.type_name) {
                problems.push(format!(
                    "subtype::<{}>({tag}): the tag {tag} is already used by {first}",
                    s.type_name
                ));
            }
            if position != TagPosition::Omit {
                if let Some(first) = tagged[..i]
                    .iter()
                    .find(|o| o.type_id == s.type_id && o.tag != s.tag)
                {
                    let name = s.type_name;
                    problems.push(format!(
                        "subtype::<{name}>({tag}): {name} is already registered as {}, and only one tag is written; add the others with `.alias::<{name}>({tag})`",
                        first.tag.as_ref().unwrap()
                    ));
                }
            }
        }
        for alias in &attached {
            if let Some(first) = check(&alias.tag, alias.type_name) {
                problems.push(format!(
                    "alias::<{}>({}): the tag {} is already used by {first}",
                    alias.type_name, alias.tag, alias.tag
                ));
            }
        }
        if self.require_tag_first && self.tag.is_none() {
            problems.push(
                "require_tag_first(true): a presence-only profile has no tag to come first; call `.tag(\"...\")` or remove it".to_owned(),
            );
        }
        if self.exact_numbers && !cfg!(feature = "exact_numbers") {
            problems.push(
                "exact_numbers(true) needs the `exact_numbers` feature of json_subtypes (it turns on serde_json's `raw_value`); add `features = [\"exact_numbers\"]` to the json_subtypes dependency".to_owned(),
            );
        }
        if self.exact_numbers && self.require_tag_first {
            problems.push(
                "exact_numbers(true) with require_tag_first(true): nothing is read before the tag; remove one".to_owned(),
            );
        }
        if self.require_tag_first && position == TagPosition::Last {
            problems.push(
                "require_tag_first(true) with tag_position(Last): the profile could not read what it writes; write the tag first or bound the buffer with `max_buffer` instead".to_owned(),
            );
        }
        let fallbacks: Vec<&Member> = subtypes.iter().filter(|s| s.fallback).collect();
        if fallbacks.len() > 1 {
            problems.push(format!(
                "fallback::<{}>(): the profile already has the fallback {}",
                fallbacks[1].type_name, fallbacks[0].type_name
            ));
        }
        if presence.len() > 128 {
            problems.push("more than 128 `when_field` subtypes".to_owned());
        }
        let mut seen_presence: Vec<TypeId> = Vec::new();
        for s in &subtypes {
            if s.when_fields.is_empty() {
                continue;
            }
            if seen_presence.contains(&s.type_id) || tagged.iter().any(|t| t.type_id == s.type_id) {
                problems.push(format!(
                    "when_field::<{}>: {} is registered twice",
                    s.type_name, s.type_name
                ));
            }
            seen_presence.push(s.type_id);
        }
        if !problems.is_empty() {
            return Err(BuildError { problems });
        }
        let key = self.tag.map(|k| Arc::from(crate::registry::intern(&k)));
        for s in &mut subtypes {
            let described = self.described.iter().rev().find(|(id, _)| *id == s.type_id);
            s.schema = s.schema.or(described.map(|(_, d)| *d));
            if let Some(c) = self.compiled.iter().find(|c| c.type_id == s.type_id) {
                s.readers = match self.external || self.content.is_some() {
                    true => (c.wrapped)(),
                    false => (c.internal)(),
                };
            }
        }
        let mut registry = Registry::build(&self.name, key, subtypes, position);
        if let Some(max_depth) = self.max_depth {
            registry.set_max_depth(max_depth);
        }
        registry.set_limits(self.max_buffer, self.require_tag_first);
        registry.set_exact_numbers(self.exact_numbers);
        registry.set_visible(self.visible);
        registry.set_representation(
            self.external,
            self.content.as_deref(),
            self.deny_unknown_fields,
            self.as_map,
        );
        registry.set_profile();
        debug_assert!(registry.problems().is_empty(), "{:?}", registry.problems());
        Ok(Profile {
            registry: Arc::new(registry),
        })
    }
}

/// [`Profile::seed`].
pub struct ProfileSeed<'a, T: ?Sized + 'static> {
    profile: &'a Profile<T>,
}

impl<'de, T: ?Sized + 'static> DeserializeSeed<'de> for ProfileSeed<'_, T> {
    type Value = Box<T>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Box<T>, D::Error> {
        self.profile.deserialize(deserializer)
    }
}

/// A value with the profile that writes it, from [`Profile::serializable`]:
/// it implements `Serialize`, writing the value with the profile's tags.
pub struct Profiled<'a, T: ?Sized + 'static> {
    profile: &'a Profile<T>,
    value: &'a T,
}

impl<T: ?Sized + Subtype + 'static> Serialize for Profiled<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.profile.serialize_value(self.value, serializer)
    }
}

thread_local! {
    /// Profiles in charge on this thread, innermost last.
    static SCOPES: RefCell<Vec<(TypeId, Arc<dyn Any + Send + Sync>)>> = const { RefCell::new(Vec::new()) };
    /// How many scopes are open: outside any scope, reads never touch `SCOPES`.
    static ACTIVE: Cell<usize> = const { Cell::new(0) };
}

/// The registry of the innermost profile scoped for `T`, if any. Inline:
/// outside any scope (nearly every read and write) it is one load.
#[inline]
pub(crate) fn scoped<T: ?Sized + 'static>() -> Option<Arc<Registry<T>>> {
    if ACTIVE.with(Cell::get) == 0 {
        return None;
    }
    innermost()
}

#[inline(never)]
fn innermost<T: ?Sized + 'static>() -> Option<Arc<Registry<T>>> {
    SCOPES.with(|s| {
        s.borrow()
            .iter()
            .rev()
            .find(|(id, _)| *id == TypeId::of::<T>())
            .and_then(|(_, shared)| shared.clone().downcast::<Registry<T>>().ok())
    })
}
