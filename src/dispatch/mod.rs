//! The dispatch engine: one walk over an object's keys picks the subtype.
//!
//! Keys before the tag are recorded in a [`Buffer`](crate::buffer::Buffer);
//! the tag's value is looked up in place; the chosen subtype then reads a
//! map that replays the buffered prefix and streams the rest of the live
//! map. With the tag first nothing is buffered at all. After the tag, a
//! second tag key is an error wherever it comes, including inside the
//! streamed rest.
//!
//! Here are what generated code and the registries provide and call
//! (`Subtypes`, `Enum` and the entry functions); the walk is in `walk`,
//! and the keys and tag value it reads in `key`.

use core::marker::PhantomData;

use serde::de::{self, Deserializer};

use crate::rest::{HeadFirst, Payload};
use crate::tag::{
    FastTagVisitor, HeadValue, LiteralTable, Static, TagRequest, TagSink, TokenVisitor,
};

mod key;
mod settings;
mod string_keys;
mod variant;
mod walk;

pub use self::settings::{AdjacentKeys, Settings};

pub(crate) use self::variant::VariantSeed;

use self::walk::DispatchVisitor;

/// The engine's one view of a set of subtypes: an annotated enum (its
/// tables constants of generated code, in a zero-sized `Subtypes` type
/// generated beside it), a trait's registry or a profile (tables built at
/// run time). Its settings are one value; the rest are the behaviours that
/// differ between sets. Indexes are the subtypes' positions in the set.
///
/// The associated constants are compile-time switches: a set that cannot
/// have some feature says so, and the walk's branch for it is dropped
/// before what it calls is instantiated (rustc does that for a constant
/// condition, not for a method's result).
pub trait Subtypes<'de>: Sized {
    /// What reading produces.
    type Value;

    /// The variant names of an enum: for messages, and in the external and
    /// adjacent forms the names the format is told (their string tags, as
    /// serde's derive writes them). Empty for a trait object's set.
    const VARIANTS: &'static [&'static str] = &[];

    /// Presence mode: every deciding field of an enum, for messages.
    const FIELDS: &'static [&'static str] = &[];

    /// Whether the adjacently tagged form's tag is a unit variant of an
    /// enum, as serde's derive writes it (`read_variant_tag`), rather than
    /// a value read with the request of the tags' kinds.
    const TAG_IS_VARIANT: bool = false;

    /// An enum's adjacent form (unused in the other forms; a trait's form
    /// is in its table).
    const ADJACENT: AdjacentKeys = AdjacentKeys {
        fields: &[],
        deny_unknown_fields: false,
    };

    /// `as_map`: the object is read with `deserialize_map`, its keys with
    /// `deserialize_identifier` and its tag with `tag_request`, never
    /// `deserialize_any` up to the tag, so that formats that do not
    /// describe themselves (postcard, bincode) read the internally tagged
    /// form when its tag comes first.
    const AS_MAP: bool = false;

    /// `as_map` on an enum: the one request every tag is read with.
    const TAG_REQUEST: TagRequest = TagRequest::Any;

    /// Whether the tag entry may be kept for a subtype (a fallback, a
    /// `nested` child or a `visible` payload reads it).
    const MAY_KEEP_TAG: bool = true;

    /// Whether `key` can be `None` (presence mode).
    const MAY_BE_PRESENCE: bool = true;

    /// Whether `limit` can be `Some`.
    const MAY_LIMIT: bool = true;

    /// Whether `require_tag_first` can be true.
    const MAY_REQUIRE_TAG_FIRST: bool = true;

    /// Whether some subtype can be `nested`: without, `build_head` does not
    /// compile the child's path, which reads every payload once more.
    const MAY_NEST: bool = true;

    /// Whether `exact_numbers` can be true: without, the walk does not
    /// compile the text reader.
    const MAY_BE_EXACT: bool = false;

    /// The set's settings.
    fn settings(&self) -> &Settings;

    /// Whether subtype `index` is `nested`.
    #[inline]
    fn is_nested(&self, index: u32) -> bool {
        let _ = index;
        false
    }

    /// `visible`: whether subtype `index` reads the tag entry too.
    #[inline]
    fn is_visible(&self, index: u32) -> bool {
        let _ = index;
        false
    }

    /// Reads a tag value: `Ok(Some(index))`, `Ok(None)` for an unknown tag
    /// recorded in the sink (fallback), or the unknown-tag error.
    fn read_tag<D>(&self, tag: D, sink: Option<TagSink<'_, 'de>>) -> Result<Option<u32>, D::Error>
    where
        D: Deserializer<'de>;

    /// `read_tag` with nothing to record: an enum with literal tags reads
    /// it with the reader every table shares (`read_known_literal_tag`).
    #[inline]
    fn read_known_tag<D>(&self, tag: D) -> Result<Option<u32>, D::Error>
    where
        D: Deserializer<'de>,
    {
        self.read_tag(tag, None)
    }

    /// Presence mode: the subtypes (bit `i` for index `i`) that `field` picks.
    #[inline]
    fn presence(&self, field: &str) -> u128 {
        let _ = field;
        0
    }

    /// The request tags are read with under `as_map` and in the externally
    /// and adjacently tagged forms of a trait object, which must also read
    /// formats that do not describe themselves.
    #[inline]
    fn tag_request(&self) -> TagRequest {
        Self::TAG_REQUEST
    }

    /// Reads the adjacently tagged form's tag: as a unit variant with
    /// `TAG_IS_VARIANT`, where with `bare` (the sequence form, as serde's
    /// derive reads it there) a bare variant name or index is taken too;
    /// else as any tag.
    #[inline]
    fn read_variant_tag<D>(
        &self,
        tag: D,
        sink: Option<TagSink<'_, 'de>>,
        bare: bool,
    ) -> Result<Option<u32>, D::Error>
    where
        D: Deserializer<'de>,
    {
        if Self::TAG_IS_VARIANT {
            self::variant::read_unit_variant(self, tag, sink, bare)
        } else {
            self.read_tag(tag, sink)
        }
    }

    /// Presence mode: the deciding fields, for messages.
    fn fields(&self) -> Vec<&str> {
        Self::FIELDS.to_vec()
    }

    /// The name of subtype `index`, for messages.
    fn subtype_name(&self, index: u32) -> &str {
        Self::VARIANTS.get(index as usize).copied().unwrap_or("?")
    }

    /// The name a format is told for variant `index`'s struct content in
    /// the adjacent form, as serde's derive names it when writing. Only an
    /// enum has variants; a trait object's payload reads itself.
    #[inline]
    fn variant_name(&self, index: u32) -> &'static str {
        Self::VARIANTS
            .get(index as usize)
            .copied()
            .unwrap_or_default()
    }

    /// Reads subtype `index` from the rest of the object.
    fn build<P>(
        &self,
        index: u32,
        payload: P,
    ) -> Result<Self::Value, <P as Deserializer<'de>>::Error>
    where
        P: Payload<'de>;

    /// Reads `nested` subtype `index`, whose child's tag `head` was read
    /// here, from the rest of the object. Generated code hands a plain
    /// `nested` variant straight to its child (`Enum::build_tagged`).
    #[inline]
    fn build_head<P>(
        &self,
        index: u32,
        head: HeadValue<'de>,
        payload: P,
    ) -> Result<Self::Value, <P as Deserializer<'de>>::Error>
    where
        P: Payload<'de>,
    {
        if Self::MAY_NEST {
            build_head_first(self, index, head, payload)
        } else {
            self.build(index, payload)
        }
    }
}

/// `Subtypes::build_head` through the payload's own reader, for a `nested`
/// subtype that reads the object again (a child with serde attributes of
/// its own, a registry's): the child is handed its tag entry first.
pub fn build_head_first<'de, S, P>(
    subtypes: &S,
    index: u32,
    head: HeadValue<'de>,
    payload: P,
) -> Result<S::Value, <P as Deserializer<'de>>::Error>
where
    S: Subtypes<'de>,
    P: Payload<'de>,
{
    let key = subtypes.settings().key.unwrap_or_default();
    subtypes.build(index, HeadFirst::new(head, key, payload))
}

/// What generated code provides for an annotated enum besides its set: the
/// way to its set, and how a `nested` parent hands it a tag the parent read.
pub trait Enum<'de>: Sized {
    /// The enum's set of subtypes (a zero-sized type of generated code).
    type Subtypes: Subtypes<'de, Value = Self>;

    /// The set, as a constant: it is copied wherever it is used.
    const SUBTYPES: Self::Subtypes;

    /// Builds the variant that `head`, a tag read by an enclosing level,
    /// selects, from the rest of the object. Generated code for literal tags
    /// resolves it without a second walk over the object.
    #[inline]
    fn build_tagged<P>(
        head: HeadValue<'de>,
        payload: P,
    ) -> Result<Self, <P as Deserializer<'de>>::Error>
    where
        P: Payload<'de>,
    {
        let key = Self::SUBTYPES.settings().key.unwrap_or_default();
        deserialize::<Self, _>(HeadFirst::new(head, key, payload))
    }
}

/// Entry point of a generated `Deserialize` impl.
#[inline]
pub fn deserialize<'de, T, D>(deserializer: D) -> Result<T, D::Error>
where
    T: Enum<'de>,
    D: Deserializer<'de>,
{
    deserialize_with(T::SUBTYPES, deserializer)
}

/// Reads one value of `subtypes` from `deserializer`.
pub fn deserialize_with<'de, S, D>(subtypes: S, deserializer: D) -> Result<S::Value, D::Error>
where
    S: Subtypes<'de>,
    D: Deserializer<'de>,
{
    let settings = subtypes.settings();
    let Some(_level) = crate::state::enter(settings.max_depth, settings.hoist_key()) else {
        return Err(de::Error::custom("recursion limit exceeded"));
    };
    // The type-erased path hands one answer to every value of the payload
    // (see `erased::deserializer::Crossing`), so it needs the format's now.
    // Otherwise the format is asked only when something is buffered (see
    // `Buffer`).
    let human_readable = settings.erased.then(|| deserializer.is_human_readable());
    if S::AS_MAP {
        // Asked once: whether a failed value before the tag may be the
        // format's refusal of `deserialize_any` (see `walk`).
        let described = deserializer.is_human_readable();
        return deserializer.deserialize_map(DispatchVisitor {
            subtypes,
            human_readable: human_readable.or(Some(described)),
            marker: PhantomData,
        });
    }
    let name = settings.key.map(|_| settings.name);
    // A `match`, not `map_err` with a closure: one copy of `name_as_map` per
    // format instead of one closure per enum.
    match deserializer.deserialize_any(DispatchVisitor {
        subtypes,
        human_readable,
        marker: PhantomData,
    }) {
        Ok(value) => Ok(value),
        Err(error) => Err(name_as_map(error, name)),
    }
}

/// A format that does not describe itself refuses `deserialize_any`, with
/// which the internally tagged form starts: its error names `as_map`, the
/// form such formats read. Found by the format's own words, on the error
/// path only (a `Deserializer` does not say whether it describes itself);
/// postcard keeps no message of ours (`WontImplement` stays as it is).
#[cold]
#[inline(never)]
fn name_as_map<E: de::Error>(error: E, name: Option<&'static str>) -> E {
    let Some(name) = name else {
        return error;
    };
    let text = error.to_string();
    if !text.contains("deserialize_any") || text.contains("as_map") {
        return error;
    }
    E::custom(format_args!(
        "{text}: {name} is internally tagged, which this format cannot read back; \
         add `as_map` to its `#[json_subtypes(...)]` (on a profile, `.as_map()`) to write and read it as a map with the tag first, as typetag does"
    ))
}

/// `Subtypes::read_known_tag` for literal tags: the value is read by the
/// one reader every table shares, with this table's lookup.
#[inline]
pub fn read_known_literal_tag<'de, T, D>(deserializer: D) -> Result<Option<u32>, D::Error>
where
    T: LiteralTable + 'static,
    D: Deserializer<'de>,
{
    deserializer.deserialize_any(TokenVisitor {
        table: &Static::<T>(PhantomData),
        lookup: T::lookup,
        lookup_str: T::lookup_str,
    })
}

/// `Subtypes::read_tag` for literal tags: looks the value up without
/// allocating.
#[inline]
pub fn read_literal_tag<'de, T, D>(
    deserializer: D,
    sink: Option<TagSink<'_, 'de>>,
) -> Result<Option<u32>, D::Error>
where
    T: LiteralTable + 'static,
    D: Deserializer<'de>,
{
    deserializer.deserialize_any(FastTagVisitor {
        table: &Static::<T>(PhantomData),
        sink,
    })
}
