//! The dispatch engine: one walk over an object's keys picks the subtype.
//!
//! Keys before the tag are recorded in a [`Buffer`](crate::buffer::Buffer);
//! the tag's value is looked up in place; the chosen subtype then reads a
//! map that replays the buffered prefix and streams the rest of the live
//! map. With the tag first nothing is buffered at all. After the tag, a
//! second tag key is an error wherever it comes, including inside the
//! streamed rest.
//!
//! This file is the description of a set of subtypes that generated code
//! and the registries provide (`Settings`, `Subtypes`, `Enum`); the engine
//! that reads one, from the entry points to the payload, is `walk.rs`.

use serde::de::Deserializer;

use crate::buffer::Limit;
use crate::rest::{HeadFirst, Payload};
use crate::tag::{HeadValue, KnownTags, TagRequest, TagSink};

mod string_keys;
mod variant;
mod walk;

pub(crate) use self::variant::VariantSeed;

pub use self::walk::{deserialize, deserialize_with, read_literal_tag};

/// One set's settings: its key, its fallback, its limits and its flags.
/// Everything else about a set is a behaviour (`Subtypes`).
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// The tag key, e.g. `"type"`; `None` in presence mode.
    pub key: Option<&'static str>,
    /// The set's name (`Animal`, `dyn Shape`), for messages.
    pub name: &'static str,
    /// The fallback's index.
    pub fallback: Option<u32>,
    /// `#[serde(expecting = "...")]`: what a value of the wrong type is
    /// told was expected, instead of our own wording.
    pub expecting: Option<&'static str>,
    /// Presence mode: when several subtypes match, the first declared wins
    /// instead of an error.
    pub first_match: bool,
    /// Whether some subtype is `nested` (its payload reads the tag again).
    pub nested: bool,
    /// `visible`: whether some subtype's payload reads the tag entry too.
    pub visible: bool,
    /// `max_depth = N`: how deeply values may nest, counting the levels
    /// around this one.
    pub max_depth: u32,
    /// `max_buffer = N`: how many bytes of an object may be buffered before
    /// its tag (in presence mode, of the whole object).
    pub max_buffer: Option<usize>,
    /// `require_tag_first`: a key before the tag is an error.
    pub require_tag_first: bool,
    /// `exact_numbers`: entries before the tag are recorded from
    /// serde_json's text where it is the format (see `exact.rs`).
    pub exact_numbers: bool,
    /// Whether payloads are read through a type-erased deserializer, whose
    /// errors would lose their position; the engine then keeps the original.
    pub erased: bool,
}

impl Settings {
    /// A set with key `key` and nothing else said: generated code writes
    /// what an enum sets and `..Settings::new(key, name)`.
    pub const fn new(key: Option<&'static str>, name: &'static str) -> Self {
        Settings {
            key,
            name,
            fallback: None,
            expecting: None,
            first_match: false,
            nested: false,
            visible: false,
            max_depth: crate::state::DEFAULT_MAX_DEPTH,
            max_buffer: None,
            require_tag_first: false,
            exact_numbers: false,
            erased: false,
        }
    }

    /// `max_buffer` as the buffer's limit.
    #[inline]
    pub(crate) fn limit(&self) -> Option<Limit> {
        let max = self.max_buffer?;
        Some(Limit {
            max,
            name: self.name,
            tag: self.key,
        })
    }
}

/// An enum's adjacent form, written by generated code (`Subtypes::ADJACENT`).
#[derive(Clone, Copy, Debug)]
pub struct AdjacentKeys {
    /// `[tag, content]`.
    pub fields: &'static [&'static str],
    /// `deny_unknown_fields`: keys beside the two are refused.
    pub deny_unknown_fields: bool,
}

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

    /// An enum's literal tags: with nothing to record, the walk reads the
    /// tag with the reader every table shares and calls only the table's
    /// lookup. Without (a registry, `tag_type`), it asks `read_tag`.
    const KNOWN_TAGS: Option<KnownTags> = None;

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
