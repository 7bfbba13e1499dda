//! The dispatch engine: one walk over an object's keys picks the subtype.
//!
//! Keys before the tag are recorded in a [`Buffer`](crate::buffer::Buffer);
//! the tag's value is looked up in place; the chosen subtype then reads a
//! map that replays the buffered prefix and streams the rest of the live
//! map. With the tag first nothing is buffered at all. After the tag, a
//! second tag key is an error wherever it comes, including inside the
//! streamed rest.
//!
//! Here are what generated code and the registries call (`Dispatch`,
//! `Subtypes` and the entry functions); the walk is in `walk`, and the keys
//! and tag value it reads in `key`.

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

/// What generated code provides for an annotated enum.
pub trait Dispatch<'de>: Sized {
    /// The enum's settings, a constant: a branch on one of them is dropped
    /// before what it calls is instantiated.
    const SETTINGS: Settings;

    /// The variant names: for messages in presence mode, and in the
    /// external and adjacent forms the names the format is told (their
    /// string tags, as serde's derive writes them).
    const VARIANTS: &'static [&'static str] = &[];

    /// Presence mode: every deciding field, for messages.
    const FIELDS: &'static [&'static str] = &[];

    /// `as_map`: the internally tagged form is read with `deserialize_map`,
    /// its keys as strings and its tag with `TAG_REQUEST`, as typetag reads
    /// it, so formats that do not describe themselves read it back.
    const AS_MAP: bool = false;

    /// `as_map`: the one request every tag is read with (see `TagRequest`).
    const TAG_REQUEST: TagRequest = TagRequest::Any;

    /// The adjacently tagged form's keys (unused in the other forms).
    const ADJACENT: AdjacentKeys = AdjacentKeys {
        fields: &[],
        deny_unknown_fields: false,
    };

    /// `visible`: whether variant `index`'s payload reads the tag entry.
    #[inline]
    fn is_visible(index: u32) -> bool {
        let _ = index;
        false
    }

    /// Whether variant `index` is `nested`.
    #[inline]
    fn is_nested(index: u32) -> bool {
        let _ = index;
        false
    }

    /// Reads a tag value and returns the index of the variant it selects.
    /// With a sink, an unknown value is recorded there and `Ok(None)` comes
    /// back; without, it is the unknown-tag error.
    fn read_tag<D>(tag: D, sink: Option<TagSink<'_, 'de>>) -> Result<Option<u32>, D::Error>
    where
        D: Deserializer<'de>;

    /// `read_tag` with nothing to record: generated code for literal tags
    /// reads it with the reader every table shares.
    #[inline]
    fn read_known_tag<D>(tag: D) -> Result<Option<u32>, D::Error>
    where
        D: Deserializer<'de>,
    {
        Self::read_tag(tag, None)
    }

    /// Presence mode: the set of variants (bit `i` for variant `i`) that
    /// list `field` in `when_field`.
    #[inline]
    fn presence(field: &str) -> u128 {
        let _ = field;
        0
    }

    /// Builds variant `index` from the rest of its object.
    fn build<P>(index: u32, payload: P) -> Result<Self, <P as Deserializer<'de>>::Error>
    where
        P: Payload<'de>;

    /// Builds the `nested` variant `index`, whose child's tag `head` this
    /// level has already read, from the rest of the object. Generated code
    /// hands plain `nested` variants straight to the child's `build_tagged`.
    #[inline]
    fn build_head<P>(
        index: u32,
        head: HeadValue<'de>,
        payload: P,
    ) -> Result<Self, <P as Deserializer<'de>>::Error>
    where
        P: Payload<'de>,
    {
        build_head_first::<Self, P>(index, head, payload)
    }

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
        let key = Self::SETTINGS.key.unwrap_or_default();
        deserialize::<Self, _>(HeadFirst::new(head, key, payload))
    }
}

/// `Dispatch::build_head` through the serde-derived reader, for a `nested`
/// variant with serde attributes of its own: the child is handed its tag
/// entry first and reads the object again.
pub fn build_head_first<'de, T, P>(
    index: u32,
    head: HeadValue<'de>,
    payload: P,
) -> Result<T, <P as Deserializer<'de>>::Error>
where
    T: Dispatch<'de>,
    P: Payload<'de>,
{
    let key = T::SETTINGS.key.unwrap_or_default();
    T::build(index, HeadFirst::new(head, key, payload))
}

/// The engine's view of one set of subtypes: an enum (constant tables from
/// generated code), a trait's registry or a profile (tables built at run
/// time). Indexes are the subtypes' positions in the set.
pub trait Subtypes<'de> {
    /// What reading produces.
    type Value;

    /// The set's settings.
    fn settings(&self) -> &Settings;

    /// Whether subtype `index` is `nested`.
    fn is_nested(&self, index: u32) -> bool {
        let _ = index;
        false
    }

    /// `visible`: whether subtype `index` reads the tag entry too.
    fn is_visible(&self, index: u32) -> bool {
        let _ = index;
        false
    }

    /// Reads a tag value: `Ok(Some(index))`, `Ok(None)` for an unknown tag
    /// recorded in the sink (fallback), or the unknown-tag error.
    fn read_tag<D>(&self, tag: D, sink: Option<TagSink<'_, 'de>>) -> Result<Option<u32>, D::Error>
    where
        D: Deserializer<'de>;

    /// `read_tag` with nothing to record.
    #[inline]
    fn read_known_tag<D>(&self, tag: D) -> Result<Option<u32>, D::Error>
    where
        D: Deserializer<'de>,
    {
        self.read_tag(tag, None)
    }

    /// Presence mode: the subtypes (bit `i` for index `i`) that `field` picks.
    fn presence(&self, field: &str) -> u128 {
        let _ = field;
        0
    }

    /// The request tags are read with in the externally and adjacently
    /// tagged forms, which must also read formats that do not describe
    /// themselves (`read_tag` asks for any value).
    fn tag_request(&self) -> TagRequest {
        TagRequest::Any
    }

    /// Whether the adjacently tagged form's tag is a unit variant of an
    /// enum, as serde's derive writes it (`read_variant_tag`), rather than
    /// a value read with the request of the tags' kinds. A constant, so
    /// each set compiles one of the two.
    const TAG_IS_VARIANT: bool = false;

    /// Reads the adjacently tagged form's tag as a unit variant (with
    /// `TAG_IS_VARIANT`); with `bare` (the sequence form, as serde's derive
    /// reads it there) a bare variant name or index is taken too.
    fn read_variant_tag<D>(
        &self,
        tag: D,
        sink: Option<TagSink<'_, 'de>>,
        bare: bool,
    ) -> Result<Option<u32>, D::Error>
    where
        D: Deserializer<'de>,
    {
        let _ = bare;
        self.read_tag(tag, sink)
    }

    /// Presence mode: the deciding fields, for messages.
    fn fields(&self) -> Vec<&str> {
        Vec::new()
    }

    /// The name of subtype `index`, for messages.
    fn subtype_name(&self, index: u32) -> &str;

    /// The name a format is told for variant `index`'s struct content in
    /// the adjacent form, as serde's derive names it when writing. Only an
    /// enum has variants; a trait object's payload reads itself.
    #[inline]
    fn variant_name(&self, index: u32) -> &'static str {
        let _ = index;
        ""
    }

    /// Whether the tag entry may be kept for a subtype (a fallback, a
    /// `nested` child or a `visible` payload reads it). A constant, as
    /// `MAY_BE_EXACT`: an enum with none of them does not compile that path.
    const MAY_KEEP_TAG: bool = true;

    /// Whether `key` can be `None` (presence mode). A constant, as above.
    const MAY_BE_PRESENCE: bool = true;

    /// Whether `limit` can be `Some`. A constant, as above.
    const MAY_LIMIT: bool = true;

    /// Whether `require_tag_first` can be true. A constant, as above.
    const MAY_REQUIRE_TAG_FIRST: bool = true;

    /// `as_map`: the object is read with `deserialize_map`, its keys with
    /// `deserialize_identifier` and its tag with `tag_request`, never
    /// `deserialize_any` up to the tag, so that formats that do not
    /// describe themselves (postcard, bincode) read the internally tagged
    /// form when its tag comes first. A constant: a set without it
    /// compiles the walk as it was.
    const AS_MAP: bool = false;

    /// Whether `exact_numbers` can be true: a constant, so that for an enum
    /// without it the walk does not compile the text reader (rustc drops a
    /// branch on a constant before it instantiates what the branch calls;
    /// it does not for a method's result).
    const MAY_BE_EXACT: bool = false;

    /// Reads subtype `index` from the rest of the object.
    fn build<P>(
        &self,
        index: u32,
        payload: P,
    ) -> Result<Self::Value, <P as Deserializer<'de>>::Error>
    where
        P: Payload<'de>;

    /// Reads `nested` subtype `index`, whose child's tag `head` was read
    /// here, from the rest of the object.
    fn build_head<P>(
        &self,
        index: u32,
        head: HeadValue<'de>,
        payload: P,
    ) -> Result<Self::Value, <P as Deserializer<'de>>::Error>
    where
        P: Payload<'de>,
    {
        let key = self.settings().key.unwrap_or_default();
        self.build(index, HeadFirst::new(head, key, payload))
    }
}

/// An annotated enum as a set of subtypes.
pub struct EnumSubtypes<T>(PhantomData<T>);

impl<T> EnumSubtypes<T> {
    pub(crate) fn new() -> Self {
        EnumSubtypes(PhantomData)
    }
}

impl<'de, T: Dispatch<'de>> Subtypes<'de> for EnumSubtypes<T> {
    type Value = T;

    #[inline]
    fn settings(&self) -> &Settings {
        &T::SETTINGS
    }

    #[inline]
    fn is_nested(&self, index: u32) -> bool {
        T::is_nested(index)
    }

    #[inline]
    fn is_visible(&self, index: u32) -> bool {
        T::is_visible(index)
    }

    #[inline]
    fn read_tag<D>(&self, tag: D, sink: Option<TagSink<'_, 'de>>) -> Result<Option<u32>, D::Error>
    where
        D: Deserializer<'de>,
    {
        T::read_tag(tag, sink)
    }

    #[inline]
    fn read_known_tag<D>(&self, tag: D) -> Result<Option<u32>, D::Error>
    where
        D: Deserializer<'de>,
    {
        T::read_known_tag(tag)
    }

    #[inline]
    fn presence(&self, field: &str) -> u128 {
        T::presence(field)
    }

    fn fields(&self) -> Vec<&str> {
        T::FIELDS.to_vec()
    }

    const TAG_IS_VARIANT: bool = true;

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
        self::variant::read_unit_variant::<T, D>(tag, sink, bare)
    }

    fn subtype_name(&self, index: u32) -> &str {
        T::VARIANTS.get(index as usize).copied().unwrap_or("?")
    }

    #[inline]
    fn variant_name(&self, index: u32) -> &'static str {
        T::VARIANTS.get(index as usize).copied().unwrap_or_default()
    }

    const MAY_BE_EXACT: bool = T::SETTINGS.exact_numbers;
    const MAY_KEEP_TAG: bool =
        T::SETTINGS.fallback.is_some() || T::SETTINGS.nested || T::SETTINGS.visible;
    const MAY_BE_PRESENCE: bool = T::SETTINGS.key.is_none();
    const MAY_LIMIT: bool = T::SETTINGS.max_buffer.is_some();
    const MAY_REQUIRE_TAG_FIRST: bool = T::SETTINGS.require_tag_first;
    const AS_MAP: bool = T::AS_MAP;

    #[inline]
    fn tag_request(&self) -> TagRequest {
        T::TAG_REQUEST
    }

    #[inline]
    fn build<P: Payload<'de>>(
        &self,
        index: u32,
        payload: P,
    ) -> Result<T, <P as Deserializer<'de>>::Error> {
        T::build(index, payload)
    }

    #[inline]
    fn build_head<P: Payload<'de>>(
        &self,
        index: u32,
        head: HeadValue<'de>,
        payload: P,
    ) -> Result<T, <P as Deserializer<'de>>::Error> {
        // A constant condition: for an enum without `nested` variants (the
        // engine never hands it a child's tag) the child's path, which
        // compiles every payload once more, is not instantiated at all.
        if T::SETTINGS.nested {
            T::build_head(index, head, payload)
        } else {
            T::build(index, payload)
        }
    }
}

/// Entry point of a generated `Deserialize` impl.
#[inline]
pub fn deserialize<'de, T, D>(deserializer: D) -> Result<T, D::Error>
where
    T: Dispatch<'de>,
    D: Deserializer<'de>,
{
    deserialize_with(EnumSubtypes::<T>(PhantomData), deserializer)
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

/// `Dispatch::read_known_tag` for literal tags: the value is read by the
/// one reader every table shares, with this table's lookup.
#[inline]
pub fn read_known_literal_tag<'de, T, D>(deserializer: D) -> Result<Option<u32>, D::Error>
where
    T: LiteralTable + 'static,
    D: Deserializer<'de>,
{
    deserializer
        .deserialize_any(TokenVisitor::of::<T>())
        .map(Some)
}

/// `Dispatch::read_tag` for literal tags: looks the value up without
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
