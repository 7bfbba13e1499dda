//! Fixtures beyond the tagged enum: trait objects (ours, typetag's twin and
//! a builder profile), presence mode, the `Unknown` fallback and a two-level
//! `nested` hierarchy. Every one reads and writes the same four payload
//! structs as the enum benches, so the plain struct stays the limit.

use std::fmt;

use json_subtypes::{json_subtypes, Profile, Unknown};
use serde::de::{DeserializeSeed, SeqAccess, Visitor};
use serde::{Deserializer, Serialize, Serializer};

use super::{json_array, tag_first, tag_last, Click, Event, Key, Kind, Scroll, View};

// ---------------------------------------------------------------------------
// Trait objects: ours (attribute registry), typetag's twin, and a profile.

/// Ours: an inventory registry with the same tags as `Event`.
#[json_subtypes(tag = "type")]
pub trait EventTrait: fmt::Debug {
    /// The payload back as an `Event`, for the correctness checks.
    fn to_event(&self) -> Event;
}

/// `EventTrait` with `compiled`: each impl also carries its reader and
/// writer compiled for serde_json.
#[json_subtypes(tag = "type", compiled)]
pub trait CompiledEvent: fmt::Debug {
    fn to_event(&self) -> Event;
}

/// typetag's twin. A type may implement both traits.
#[typetag::serde(tag = "type")]
pub trait TtEvent: fmt::Debug {
    fn to_event(&self) -> Event;
}

macro_rules! both_traits {
    ($($ty:ident => $name:literal),* $(,)?) => {$(
        #[json_subtypes(name = $name)]
        impl EventTrait for $ty {
            fn to_event(&self) -> Event {
                Event::$ty(self.clone())
            }
        }

        #[json_subtypes(name = $name)]
        impl CompiledEvent for $ty {
            fn to_event(&self) -> Event {
                Event::$ty(self.clone())
            }
        }

        #[typetag::serde(name = $name)]
        impl TtEvent for $ty {
            fn to_event(&self) -> Event {
                Event::$ty(self.clone())
            }
        }
    )*};
}

both_traits!(Click => "click", Key => "key", Scroll => "scroll", View => "view");

/// The builder-configured twin of the attribute registry: same tag key, same
/// tags, same types.
pub fn event_profile() -> Profile<dyn EventTrait> {
    profile_builder().build().unwrap()
}

/// `event_profile` with `exact_numbers(true)`.
#[cfg(feature = "exact_numbers")]
pub fn exact_event_profile() -> Profile<dyn EventTrait> {
    profile_builder().exact_numbers(true).build().unwrap()
}

fn profile_builder() -> json_subtypes::ProfileBuilder<dyn EventTrait> {
    Profile::<dyn EventTrait>::builder()
        .tag("type")
        .subtype::<Click>("click")
        .subtype::<Key>("key")
        .subtype::<Scroll>("scroll")
        .subtype::<View>("view")
}

pub fn boxed(e: &Event) -> Box<dyn EventTrait> {
    match e.clone() {
        Event::Click(v) => Box::new(v),
        Event::Key(v) => Box::new(v),
        Event::Scroll(v) => Box::new(v),
        Event::View(v) => Box::new(v),
    }
}

pub fn tt_boxed(e: &Event) -> Box<dyn TtEvent> {
    match e.clone() {
        Event::Click(v) => Box::new(v),
        Event::Key(v) => Box::new(v),
        Event::Scroll(v) => Box::new(v),
        Event::View(v) => Box::new(v),
    }
}

// ---------------------------------------------------------------------------
// Presence mode: no tag, the field that only one payload has decides.

#[json_subtypes]
#[derive(Debug, Clone, PartialEq)]
pub enum PresenceEvent {
    #[json_subtypes(when_field = "target")]
    Click(Click),
    #[json_subtypes(when_field = "code")]
    Key(Key),
    #[json_subtypes(when_field = "dx")]
    Scroll(Scroll),
    #[json_subtypes(when_field = "url")]
    View(View),
}

impl From<Event> for PresenceEvent {
    fn from(e: Event) -> Self {
        match e {
            Event::Click(v) => PresenceEvent::Click(v),
            Event::Key(v) => PresenceEvent::Key(v),
            Event::Scroll(v) => PresenceEvent::Scroll(v),
            Event::View(v) => PresenceEvent::View(v),
        }
    }
}

// ---------------------------------------------------------------------------
// Fallback: `Event`'s tags plus a fallback variant holding `Unknown`.

#[json_subtypes(tag = "type")]
#[derive(Debug, Clone, PartialEq)]
pub enum OpenEvent {
    #[json_subtypes(name = "click")]
    Click(Click),
    #[json_subtypes(name = "key")]
    Key(Key),
    #[json_subtypes(name = "scroll")]
    Scroll(Scroll),
    #[json_subtypes(name = "view")]
    View(View),
    #[json_subtypes(fallback)]
    Other(Unknown),
}

/// A tag `OpenEvent` does not know, one per kind.
pub fn unknown_tag(e: &Event) -> &'static str {
    match e.kind() {
        Kind::Click => "\"legacy_click\"",
        Kind::Key => "\"legacy_key\"",
        Kind::Scroll => "\"legacy_scroll\"",
        Kind::View => "\"legacy_view\"",
    }
}

// ---------------------------------------------------------------------------
// Two levels, one key: every tag is owned by a `nested` child.

#[json_subtypes(tag = "type")]
#[derive(Debug, Clone, PartialEq)]
pub enum NestedEvent {
    #[json_subtypes(nested)]
    Pointer(PointerEvent),
    #[json_subtypes(nested)]
    Page(PageEvent),
}

#[json_subtypes(tag = "type")]
#[derive(Debug, Clone, PartialEq)]
pub enum PointerEvent {
    #[json_subtypes(name = "click")]
    Click(Click),
    #[json_subtypes(name = "scroll")]
    Scroll(Scroll),
}

#[json_subtypes(tag = "type")]
#[derive(Debug, Clone, PartialEq)]
pub enum PageEvent {
    #[json_subtypes(name = "key")]
    Key(Key),
    #[json_subtypes(name = "view")]
    View(View),
}

impl From<Event> for NestedEvent {
    fn from(e: Event) -> Self {
        match e {
            Event::Click(v) => NestedEvent::Pointer(PointerEvent::Click(v)),
            Event::Scroll(v) => NestedEvent::Pointer(PointerEvent::Scroll(v)),
            Event::Key(v) => NestedEvent::Page(PageEvent::Key(v)),
            Event::View(v) => NestedEvent::Page(PageEvent::View(v)),
        }
    }
}

// ---------------------------------------------------------------------------
// Inputs of these scenarios, built from the enum benches' own data.

pub struct Extra {
    pub profile: Profile<dyn EventTrait>,
    #[cfg(feature = "exact_numbers")]
    pub exact_profile: Profile<dyn EventTrait>,
    pub click_boxed: Box<dyn EventTrait>,
    pub click_tt: Box<dyn TtEvent>,
    pub click_compiled: Box<dyn CompiledEvent>,
    pub boxed_events: Vec<Box<dyn EventTrait>>,
    pub tt_events: Vec<Box<dyn TtEvent>>,
    pub presence_events: Vec<PresenceEvent>,
    pub nested_events: Vec<NestedEvent>,
    /// `{"type":"legacy_click",<fields>}` and the mixed vec of such.
    pub single_unknown_first: String,
    pub single_unknown_last: String,
    pub vec_unknown_first: String,
    /// The plain click and the tagged ones as CBOR, keys in the JSON's
    /// order: a format with no compiled code, so the erased path.
    pub cbor_plain: Vec<u8>,
    pub cbor_first: Vec<u8>,
    pub cbor_last: Vec<u8>,
}

impl Extra {
    pub fn new(click: &Click, single_plain: &str, events: &[Event], plains: &[String]) -> Self {
        let click_event = Event::Click(click.clone());
        Extra {
            profile: event_profile(),
            #[cfg(feature = "exact_numbers")]
            exact_profile: exact_event_profile(),
            click_boxed: boxed(&click_event),
            click_tt: tt_boxed(&click_event),
            click_compiled: Box::new(click.clone()),
            boxed_events: events.iter().map(boxed).collect(),
            tt_events: events.iter().map(tt_boxed).collect(),
            presence_events: events.iter().cloned().map(PresenceEvent::from).collect(),
            nested_events: events.iter().cloned().map(NestedEvent::from).collect(),
            cbor_plain: cbor(single_plain),
            cbor_first: cbor(&tag_first(single_plain, "\"click\"")),
            cbor_last: cbor(&tag_last(single_plain, "\"click\"")),
            single_unknown_first: tag_first(single_plain, "\"legacy_click\""),
            single_unknown_last: tag_last(single_plain, "\"legacy_click\""),
            vec_unknown_first: json_array(
                events
                    .iter()
                    .zip(plains)
                    .map(|(e, p)| tag_first(p, unknown_tag(e))),
            ),
        }
    }
}

// ---------------------------------------------------------------------------
// The measured operations.

#[inline(never)]
pub fn de_trait(json: &str) -> Box<dyn EventTrait> {
    serde_json::from_str(json).unwrap()
}

#[inline(never)]
pub fn de_typetag(json: &str) -> Box<dyn TtEvent> {
    serde_json::from_str(json).unwrap()
}

#[inline(never)]
pub fn de_compiled(json: &str) -> Box<dyn CompiledEvent> {
    serde_json::from_str(json).unwrap()
}

/// Through `from_slice`, serde_json's other borrowing reader.
#[inline(never)]
pub fn de_slice<T: serde::de::DeserializeOwned>(json: &str) -> T {
    serde_json::from_slice(json.as_bytes()).unwrap()
}

#[inline(never)]
pub fn de_profile(profile: &Profile<dyn EventTrait>, json: &str) -> Box<dyn EventTrait> {
    profile.from_str(json).unwrap()
}

/// Through an `io::Read`, which serde_json does not borrow from: trait
/// objects take the erased path there.
#[inline(never)]
pub fn de_io<T: serde::de::DeserializeOwned>(json: &str) -> T {
    serde_json::from_reader(json.as_bytes()).unwrap()
}

/// `json` as CBOR, its keys in order (`ciborium::Value` keeps them).
fn cbor(json: &str) -> Vec<u8> {
    let value: ciborium::Value = serde_json::from_str(json).unwrap();
    let mut out = Vec::new();
    ciborium::into_writer(&value, &mut out).unwrap();
    out
}

/// From CBOR: every registered type's reader takes the erased path there.
#[inline(never)]
pub fn de_cbor<T: serde::de::DeserializeOwned>(cbor: &[u8]) -> T {
    ciborium::from_reader(cbor).unwrap()
}

/// The plain struct, then boxed as the trait object: the limit plus the Box.
#[inline(never)]
pub fn de_plain_boxed(json: &str) -> Box<dyn EventTrait> {
    Box::new(serde_json::from_str::<Click>(json).unwrap())
}

#[inline(never)]
pub fn de_vec_trait(json: &str) -> Vec<Box<dyn EventTrait>> {
    serde_json::from_str(json).unwrap()
}

#[inline(never)]
pub fn de_vec_typetag(json: &str) -> Vec<Box<dyn TtEvent>> {
    serde_json::from_str(json).unwrap()
}

/// `profile.deserialize` per element (through its seed), in a vec grown as
/// serde's `Vec<T>` impl grows it.
#[inline(never)]
pub fn de_vec_profile(profile: &Profile<dyn EventTrait>, json: &str) -> Vec<Box<dyn EventTrait>> {
    let mut de = serde_json::Deserializer::from_str(json);
    let out = ProfileVec(profile).deserialize(&mut de).unwrap();
    de.end().unwrap();
    out
}

/// `profile.scope`: the profile reads every `Box<dyn EventTrait>` of an
/// ordinary `Vec`.
#[inline(never)]
pub fn de_vec_profile_scope(
    profile: &Profile<dyn EventTrait>,
    json: &str,
) -> Vec<Box<dyn EventTrait>> {
    profile.scope(|| serde_json::from_str(json).unwrap())
}

#[inline(never)]
pub fn de_vec_plain_boxed(json: &str, kinds: &[Kind]) -> Vec<Box<dyn EventTrait>> {
    let mut de = serde_json::Deserializer::from_str(json);
    let out = KnownKindsBoxed(kinds).deserialize(&mut de).unwrap();
    de.end().unwrap();
    out
}

#[inline(never)]
pub fn de_presence(json: &str) -> PresenceEvent {
    serde_json::from_str(json).unwrap()
}

#[inline(never)]
pub fn de_vec_presence(json: &str) -> Vec<PresenceEvent> {
    serde_json::from_str(json).unwrap()
}

#[inline(never)]
pub fn de_nested(json: &str) -> NestedEvent {
    serde_json::from_str(json).unwrap()
}

#[inline(never)]
pub fn de_vec_nested(json: &str) -> Vec<NestedEvent> {
    serde_json::from_str(json).unwrap()
}

#[inline(never)]
pub fn de_open(json: &str) -> OpenEvent {
    serde_json::from_str(json).unwrap()
}

#[inline(never)]
pub fn de_vec_open(json: &str) -> Vec<OpenEvent> {
    serde_json::from_str(json).unwrap()
}

#[inline(never)]
pub fn de_value(json: &str) -> serde_json::Value {
    serde_json::from_str(json).unwrap()
}

#[inline(never)]
pub fn de_vec_value(json: &str) -> Vec<serde_json::Value> {
    serde_json::from_str(json).unwrap()
}

/// Writes trait objects through a profile (`profile.serializable`).
pub struct ProfileEvents<'a>(
    pub &'a Profile<dyn EventTrait>,
    pub &'a [Box<dyn EventTrait>],
);

impl Serialize for ProfileEvents<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.1.iter().map(|e| self.0.serializable(&**e)))
    }
}

// ---------------------------------------------------------------------------
// Seeds.

/// A JSON array read element by element with the profile's seed.
pub struct ProfileVec<'p>(pub &'p Profile<dyn EventTrait>);

impl<'de> DeserializeSeed<'de> for ProfileVec<'_> {
    type Value = Vec<Box<dyn EventTrait>>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for ProfileVec<'_> {
    type Value = Vec<Box<dyn EventTrait>>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array of events")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(e) = seq.next_element_seed(self.0.seed())? {
            out.push(e);
        }
        Ok(out)
    }
}

/// `KnownKinds` into boxes: the untagged payloads, each boxed as the trait
/// object it is, with no tag and no dispatch.
pub struct KnownKindsBoxed<'k>(pub &'k [Kind]);

impl<'de> DeserializeSeed<'de> for KnownKindsBoxed<'_> {
    type Value = Vec<Box<dyn EventTrait>>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for KnownKindsBoxed<'_> {
    type Value = Vec<Box<dyn EventTrait>>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array of payloads")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        fn boxed<T: EventTrait + 'static>(v: Option<T>) -> Option<Box<dyn EventTrait>> {
            v.map(|v| Box::new(v) as Box<dyn EventTrait>)
        }
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        for kind in self.0 {
            let event = match kind {
                Kind::Click => boxed(seq.next_element::<Click>()?),
                Kind::Key => boxed(seq.next_element::<Key>()?),
                Kind::Scroll => boxed(seq.next_element::<Scroll>()?),
                Kind::View => boxed(seq.next_element::<View>()?),
            };
            match event {
                Some(e) => out.push(e),
                None => return Err(serde::de::Error::invalid_length(out.len(), &self)),
            }
        }
        if seq.next_element::<serde::de::IgnoredAny>()?.is_some() {
            return Err(serde::de::Error::invalid_length(self.0.len() + 1, &self));
        }
        Ok(out)
    }
}
