//! Shared fixtures for `benches/dispatch.rs` and `benches/alloc_count.rs`:
//! the payload structs, our enums, serde's internally tagged twin, the
//! deterministic inputs, and the "plain" baselines (the same payloads read
//! and written with no tag and no dispatch: the limit).

#![allow(dead_code)]

pub mod canada;
pub mod depth;
pub mod extra;
pub mod repr;
pub mod small;

use std::fmt;

use json_subtypes::json_subtypes;
use serde::de::{DeserializeSeed, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

pub use depth::*;
pub use extra::*;
pub use repr::*;
pub use small::*;

// ---------------------------------------------------------------------------
// Payloads: ordinary serde structs of about eight fields each.

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Click {
    pub id: u64,
    pub user: String,
    pub target: String,
    pub x: i32,
    pub pressure: f64,
    pub double: bool,
    pub buttons: Vec<u32>,
    pub referrer: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Key {
    pub id: u64,
    pub user: String,
    pub code: String,
    pub key_code: u32,
    pub held_ms: f64,
    pub repeat: bool,
    pub modifiers: Vec<u32>,
    pub layout: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Scroll {
    pub id: u64,
    pub user: String,
    pub dx: f64,
    pub dy: f64,
    pub lines: i32,
    pub smooth: bool,
    pub path: Vec<u32>,
    pub source: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct View {
    pub id: u64,
    pub user: String,
    pub url: String,
    pub width: u32,
    pub load_ms: f64,
    pub cached: bool,
    pub tags: Vec<u32>,
    pub referrer: Option<String>,
}

// ---------------------------------------------------------------------------
// The enums under test.

/// Ours, string tags.
#[json_subtypes(tag = "type")]
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    #[json_subtypes(name = "click")]
    Click(Click),
    #[json_subtypes(name = "key")]
    Key(Key),
    #[json_subtypes(name = "scroll")]
    Scroll(Scroll),
    #[json_subtypes(name = "view")]
    View(View),
}

/// Ours, string tags, with `exact_numbers` (entries before the tag read
/// from serde_json's text). Needs the `exact_numbers` feature.
#[cfg(feature = "exact_numbers")]
#[json_subtypes(tag = "type", exact_numbers)]
#[derive(Debug, Clone, PartialEq)]
pub enum ExactEvent {
    #[json_subtypes(name = "click")]
    Click(Click),
    #[json_subtypes(name = "key")]
    Key(Key),
    #[json_subtypes(name = "scroll")]
    Scroll(Scroll),
    #[json_subtypes(name = "view")]
    View(View),
}

/// Ours, int tags.
#[json_subtypes(tag = "type")]
#[derive(Debug, Clone, PartialEq)]
pub enum IntEvent {
    #[json_subtypes(name = 1)]
    Click(Click),
    #[json_subtypes(name = 2)]
    Key(Key),
    #[json_subtypes(name = 3)]
    Scroll(Scroll),
    #[json_subtypes(name = 4)]
    View(View),
}

/// The peer: serde's internally tagged enum, same wire format as `Event`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum SerdeEvent {
    #[serde(rename = "click")]
    Click(Click),
    #[serde(rename = "key")]
    Key(Key),
    #[serde(rename = "scroll")]
    Scroll(Scroll),
    #[serde(rename = "view")]
    View(View),
}

/// Which payload an event holds; the oracle the plain baseline reads by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Click,
    Key,
    Scroll,
    View,
}

impl Event {
    pub fn kind(&self) -> Kind {
        match self {
            Event::Click(_) => Kind::Click,
            Event::Key(_) => Kind::Key,
            Event::Scroll(_) => Kind::Scroll,
            Event::View(_) => Kind::View,
        }
    }

    pub fn str_tag(&self) -> &'static str {
        match self {
            Event::Click(_) => "\"click\"",
            Event::Key(_) => "\"key\"",
            Event::Scroll(_) => "\"scroll\"",
            Event::View(_) => "\"view\"",
        }
    }

    pub fn int_tag(&self) -> &'static str {
        match self {
            Event::Click(_) => "1",
            Event::Key(_) => "2",
            Event::Scroll(_) => "3",
            Event::View(_) => "4",
        }
    }

    /// The payload alone, as JSON without a tag.
    pub fn plain_json(&self) -> String {
        serde_json::to_string(&PlainRef(self)).unwrap()
    }
}

impl From<Event> for SerdeEvent {
    fn from(e: Event) -> Self {
        match e {
            Event::Click(v) => SerdeEvent::Click(v),
            Event::Key(v) => SerdeEvent::Key(v),
            Event::Scroll(v) => SerdeEvent::Scroll(v),
            Event::View(v) => SerdeEvent::View(v),
        }
    }
}

impl From<Event> for IntEvent {
    fn from(e: Event) -> Self {
        match e {
            Event::Click(v) => IntEvent::Click(v),
            Event::Key(v) => IntEvent::Key(v),
            Event::Scroll(v) => IntEvent::Scroll(v),
            Event::View(v) => IntEvent::View(v),
        }
    }
}

// ---------------------------------------------------------------------------
// Deterministic data.

/// The single object of the single-object scenarios: every field kind set.
pub fn sample_click() -> Click {
    Click {
        id: 1_234_567_890,
        user: "user-00042".to_owned(),
        target: "button#checkout.primary".to_owned(),
        x: -317,
        pressure: 0.734_375,
        double: true,
        buttons: vec![1, 2, 3],
        referrer: Some("https://example.com/cart?step=2".to_owned()),
    }
}

/// Event number `i` of the mixed stream (kinds interleave irregularly).
pub fn make_event(i: usize) -> Event {
    let n = i as u64;
    let h = n.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40;
    let user = format!("user-{:05}", h % 50_000);
    let small = |len: u64| (0..len).map(|k| ((h >> k) & 0xff) as u32).collect();
    let opt = |s: String| if h % 3 == 0 { None } else { Some(s) };
    match h % 4 {
        0 => Event::Click(Click {
            id: n,
            user,
            target: format!("button#item-{}", h % 997),
            x: (h % 2000) as i32 - 1000,
            pressure: (h % 1024) as f64 / 1024.0,
            double: h % 5 == 0,
            buttons: small(1 + h % 3),
            referrer: opt(format!("https://example.com/p/{}", h % 313)),
        }),
        1 => Event::Key(Key {
            id: n,
            user,
            code: format!("Key{}", (b'A' + (h % 26) as u8) as char),
            key_code: 65 + (h % 26) as u32,
            held_ms: (h % 400) as f64 * 0.25,
            repeat: h % 7 == 0,
            modifiers: small(h % 3),
            layout: opt("en-US".to_owned()),
        }),
        2 => Event::Scroll(Scroll {
            id: n,
            user,
            dx: 0.0,
            dy: (h % 600) as f64 * 0.5 - 150.0,
            lines: (h % 9) as i32 - 4,
            smooth: h % 2 == 0,
            path: small(2 + h % 3),
            source: opt("wheel".to_owned()),
        }),
        _ => Event::View(View {
            id: n,
            user,
            url: format!("https://example.com/articles/{}", h % 4099),
            width: 320 + (h % 1600) as u32,
            load_ms: (h % 5000) as f64 / 8.0,
            cached: h % 4 == 0,
            tags: small(h % 4),
            referrer: opt("https://search.example.org/".to_owned()),
        }),
    }
}

pub const VEC_LEN: usize = 1000;

pub fn make_events() -> Vec<Event> {
    (0..VEC_LEN).map(make_event).collect()
}

/// `{"type":<tag>,<fields>}` from the payload's own JSON `{<fields>}`.
pub fn tag_first(plain: &str, tag: &str) -> String {
    debug_assert!(plain.starts_with('{') && plain.len() > 2);
    format!("{{\"type\":{tag},{}", &plain[1..])
}

/// `{<fields>,"type":<tag>}`.
pub fn tag_last(plain: &str, tag: &str) -> String {
    debug_assert!(plain.ends_with('}') && plain.len() > 2);
    format!("{},\"type\":{tag}}}", &plain[..plain.len() - 1])
}

pub fn json_array(items: impl Iterator<Item = String>) -> String {
    let mut out = String::from("[");
    for (i, item) in items.enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&item);
    }
    out.push(']');
    out
}

/// All inputs of one scenario, built once.
pub struct Inputs {
    pub click: Click,
    pub click_ours: Event,
    pub click_serde: SerdeEvent,
    pub single_plain: String,
    pub single_first: String,
    pub single_last: String,
    pub single_int_first: String,
    pub single_int_last: String,
    pub events: Vec<Event>,
    pub serde_events: Vec<SerdeEvent>,
    pub int_events: Vec<IntEvent>,
    pub kinds: Vec<Kind>,
    pub vec_plain: String,
    pub vec_first: String,
    pub vec_last: String,
    pub vec_int_first: String,
    pub vec_int_last: String,
    /// Trait objects, profile, presence, fallback, hierarchy (`extra.rs`).
    pub extra: Extra,
    /// Recursive chains, tag last (`depth.rs`).
    pub chains: Chains,
    /// The one-field object (`small.rs`).
    pub small: Small,
    /// The external and adjacent forms of `Click` and the one-field object
    /// (`repr.rs`).
    pub repr: Repr,
}

impl Inputs {
    pub fn new() -> Self {
        let click = sample_click();
        let single_plain = serde_json::to_string(&click).unwrap();
        let events = make_events();
        let plains: Vec<String> = events.iter().map(Event::plain_json).collect();
        let with = |f: fn(&str, &str) -> String, tag: fn(&Event) -> &'static str| {
            json_array(events.iter().zip(&plains).map(|(e, p)| f(p, tag(e))))
        };
        let extra = Extra::new(&click, &single_plain, &events, &plains);
        let small = Small::new();
        Inputs {
            extra,
            chains: Chains::new(),
            repr: Repr::new(&click, &single_plain, &small.dog, &small.plain),
            small,
            single_first: tag_first(&single_plain, "\"click\""),
            single_last: tag_last(&single_plain, "\"click\""),
            single_int_first: tag_first(&single_plain, "1"),
            single_int_last: tag_last(&single_plain, "1"),
            vec_plain: json_array(plains.iter().cloned()),
            vec_first: with(tag_first, Event::str_tag),
            vec_last: with(tag_last, Event::str_tag),
            vec_int_first: with(tag_first, Event::int_tag),
            vec_int_last: with(tag_last, Event::int_tag),
            kinds: events.iter().map(Event::kind).collect(),
            serde_events: events.iter().cloned().map(SerdeEvent::from).collect(),
            int_events: events.iter().cloned().map(IntEvent::from).collect(),
            single_plain,
            click_ours: Event::Click(click.clone()),
            click_serde: SerdeEvent::Click(click.clone()),
            click,
            events,
        }
    }

    /// Every path decodes and encodes what it should; panics otherwise, so a
    /// broken path is never benchmarked.
    pub fn check(&self) {
        let click = &self.click;
        let ev = self.click_ours.clone();
        let sev = self.click_serde.clone();
        let iev = IntEvent::Click(click.clone());

        // Deserialize, single object.
        assert_eq!(&de_plain(&self.single_plain), click, "plain struct");
        assert_eq!(de_ours(&self.single_first), ev, "ours, tag first");
        assert_eq!(de_ours(&self.single_last), ev, "ours, tag last");
        assert_eq!(de_serde(&self.single_first), sev, "serde, tag first");
        assert_eq!(de_serde(&self.single_last), sev, "serde, tag last");
        assert_eq!(de_int(&self.single_int_first), iev, "ours int, tag first");
        assert_eq!(de_int(&self.single_int_last), iev, "ours int, tag last");
        #[cfg(feature = "exact_numbers")]
        {
            let xev = ExactEvent::Click(click.clone());
            assert_eq!(de_exact(&self.single_first), xev, "ours exact, tag first");
            assert_eq!(de_exact(&self.single_last), xev, "ours exact, tag last");
        }

        // Deserialize, 1000 mixed objects.
        assert_eq!(de_vec_plain(&self.vec_plain, &self.kinds), self.events);
        assert_eq!(de_vec_ours(&self.vec_first), self.events);
        assert_eq!(de_vec_ours(&self.vec_last), self.events);
        assert_eq!(de_vec_serde(&self.vec_first), self.serde_events);
        assert_eq!(de_vec_serde(&self.vec_last), self.serde_events);
        assert_eq!(de_vec_int(&self.vec_int_first), self.int_events);
        assert_eq!(de_vec_int(&self.vec_int_last), self.int_events);

        // Serialize: ours writes the tag first, exactly as serde does.
        assert_eq!(serde_json::to_string(click).unwrap(), self.single_plain);
        assert_eq!(serde_json::to_string(&ev).unwrap(), self.single_first);
        assert_eq!(serde_json::to_string(&sev).unwrap(), self.single_first);
        assert_eq!(serde_json::to_string(&iev).unwrap(), self.single_int_first);
        let plain_vec = serde_json::to_string(&PlainEvents(&self.events)).unwrap();
        assert_eq!(plain_vec, self.vec_plain);
        assert_eq!(serde_json::to_string(&self.events).unwrap(), self.vec_first);
        assert_eq!(
            serde_json::to_string(&self.serde_events).unwrap(),
            self.vec_first
        );
        assert_eq!(
            serde_json::to_string(&self.int_events).unwrap(),
            self.vec_int_first
        );

        self.check_extra();
        self.chains.check();
        self.small.check();
        self.repr.check();
    }

    /// The same for trait objects, profile, presence, fallback, hierarchy.
    fn check_extra(&self) {
        let x = &self.extra;
        let p = &x.profile;
        let ev = &self.click_ours;
        let to_events =
            |v: Vec<Box<dyn EventTrait>>| v.iter().map(|e| e.to_event()).collect::<Vec<_>>();

        // Trait objects: ours, typetag, the profile, read with the tag first and last.
        assert_eq!(&de_plain_boxed(&self.single_plain).to_event(), ev);
        for json in [&self.single_first, &self.single_last] {
            assert_eq!(&de_trait(json).to_event(), ev, "ours dyn: {json}");
            assert_eq!(&de_typetag(json).to_event(), ev, "typetag: {json}");
            assert_eq!(&de_compiled(json).to_event(), ev, "compiled: {json}");
            let slice = de_slice::<Box<dyn EventTrait>>(json).to_event();
            assert_eq!(&slice, ev, "ours dyn from_slice: {json}");
            let slice = de_slice::<Box<dyn TtEvent>>(json).to_event();
            assert_eq!(&slice, ev, "typetag from_slice: {json}");
            assert_eq!(&de_profile(p, json).to_event(), ev, "profile: {json}");
            #[cfg(feature = "exact_numbers")]
            {
                let exact = de_profile(&x.exact_profile, json).to_event();
                assert_eq!(&exact, ev, "profile exact_numbers: {json}");
            }
        }
        let plain_boxed = de_vec_plain_boxed(&self.vec_plain, &self.kinds);
        assert_eq!(to_events(plain_boxed), self.events);
        for json in [&self.vec_first, &self.vec_last] {
            assert_eq!(to_events(de_vec_trait(json)), self.events, "ours dyn");
            let tt: Vec<Event> = de_vec_typetag(json).iter().map(|e| e.to_event()).collect();
            assert_eq!(tt, self.events, "typetag");
            assert_eq!(to_events(de_vec_profile(p, json)), self.events, "profile");
            let scoped = de_vec_profile_scope(p, json);
            assert_eq!(to_events(scoped), self.events, "profile scope");
        }
        // From CBOR, through the erased path.
        assert_eq!(&de_cbor::<Click>(&x.cbor_plain), &self.click, "cbor plain");
        for cbor in [&x.cbor_first, &x.cbor_last] {
            let dyn_event = de_cbor::<Box<dyn EventTrait>>(cbor).to_event();
            assert_eq!(&dyn_event, ev, "cbor ours dyn");
        }
        // All three write exactly what the enum writes.
        let text = |v: &dyn erased_text::Text| v.text();
        assert_eq!(text(&x.click_boxed), self.single_first);
        assert_eq!(text(&x.click_tt), self.single_first);
        assert_eq!(text(&x.click_compiled), self.single_first);
        assert_eq!(p.to_string(&*x.click_boxed).unwrap(), self.single_first);
        assert_eq!(text(&x.boxed_events), self.vec_first);
        assert_eq!(text(&x.tt_events), self.vec_first);
        assert_eq!(text(&ProfileEvents(p, &x.boxed_events)), self.vec_first);

        // Presence: the untagged payloads.
        let click = PresenceEvent::Click(self.click.clone());
        assert_eq!(de_presence(&self.single_plain), click);
        assert_eq!(de_vec_presence(&self.vec_plain), x.presence_events);
        assert_eq!(text(&x.presence_events), self.vec_plain);

        // Two levels: every tag belongs to a child.
        let nested = NestedEvent::from(ev.clone());
        assert_eq!(de_nested(&self.single_first), nested);
        assert_eq!(de_nested(&self.single_last), nested);
        assert_eq!(de_vec_nested(&self.vec_first), x.nested_events);
        assert_eq!(de_vec_nested(&self.vec_last), x.nested_events);
        assert_eq!(text(&x.nested_events), self.vec_first);

        // Fallback: unknown tags keep every entry, in order; known tags don't fall back.
        for json in [&x.single_unknown_first, &x.single_unknown_last] {
            let OpenEvent::Other(u) = de_open(json) else {
                panic!("{json} did not land in the fallback")
            };
            assert_eq!(u.tag::<String>().unwrap().unwrap(), "legacy_click");
            assert_eq!(u.len(), 9);
            assert_eq!(&serde_json::to_string(&u).unwrap(), json);
            assert_eq!(u.to_json_value().unwrap(), de_value(json));
        }
        let open = de_vec_open(&x.vec_unknown_first);
        assert!(open.iter().all(|o| matches!(o, OpenEvent::Other(_))));
        assert_eq!(text(&open), x.vec_unknown_first);
        let values = de_vec_value(&x.vec_unknown_first);
        assert_eq!(text(&values), x.vec_unknown_first);
        let known = de_open(&self.single_first);
        assert_eq!(known, OpenEvent::Click(self.click.clone()));
    }
}

/// `serde_json::to_string` through a trait object, so the checks above can
/// take values of different types in one closure.
mod erased_text {
    pub trait Text {
        fn text(&self) -> String;
    }

    impl<T: serde::Serialize + ?Sized> Text for T {
        fn text(&self) -> String {
            serde_json::to_string(self).unwrap()
        }
    }
}

impl Default for Inputs {
    fn default() -> Self {
        Self::new()
    }
}

// ---------------------------------------------------------------------------
// The measured operations (borrowed input, `serde_json::from_str`).

#[inline(never)]
pub fn de_plain(json: &str) -> Click {
    serde_json::from_str(json).unwrap()
}

#[inline(never)]
pub fn de_ours(json: &str) -> Event {
    serde_json::from_str(json).unwrap()
}

#[cfg(feature = "exact_numbers")]
#[inline(never)]
pub fn de_exact(json: &str) -> ExactEvent {
    serde_json::from_str(json).unwrap()
}

#[inline(never)]
pub fn de_serde(json: &str) -> SerdeEvent {
    serde_json::from_str(json).unwrap()
}

#[inline(never)]
pub fn de_int(json: &str) -> IntEvent {
    serde_json::from_str(json).unwrap()
}

#[inline(never)]
pub fn de_vec_plain(json: &str, kinds: &[Kind]) -> Vec<Event> {
    let mut de = serde_json::Deserializer::from_str(json);
    let out = KnownKinds(kinds).deserialize(&mut de).unwrap();
    de.end().unwrap();
    out
}

#[inline(never)]
pub fn de_vec_ours(json: &str) -> Vec<Event> {
    serde_json::from_str(json).unwrap()
}

#[inline(never)]
pub fn de_vec_serde(json: &str) -> Vec<SerdeEvent> {
    serde_json::from_str(json).unwrap()
}

#[inline(never)]
pub fn de_vec_int(json: &str) -> Vec<IntEvent> {
    serde_json::from_str(json).unwrap()
}

/// Serializes into a reused buffer.
#[inline(never)]
pub fn ser_into<T: Serialize + ?Sized>(buf: &mut Vec<u8>, value: &T) {
    buf.clear();
    serde_json::to_writer(&mut *buf, value).unwrap();
}

// ---------------------------------------------------------------------------
// Plain baselines for the mixed stream.

/// Reads a JSON array of untagged payloads whose kinds are known in advance:
/// the same output as `Vec<Event>` with no tag read and no dispatch.
pub struct KnownKinds<'k>(pub &'k [Kind]);

impl<'de> DeserializeSeed<'de> for KnownKinds<'_> {
    type Value = Vec<Event>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Vec<Event>, D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for KnownKinds<'_> {
    type Value = Vec<Event>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array of payloads")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<Event>, A::Error> {
        // Same growth as serde's Vec<T> impl (serde_json gives no size hint).
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        for kind in self.0 {
            let event = match kind {
                Kind::Click => seq.next_element::<Click>()?.map(Event::Click),
                Kind::Key => seq.next_element::<Key>()?.map(Event::Key),
                Kind::Scroll => seq.next_element::<Scroll>()?.map(Event::Scroll),
                Kind::View => seq.next_element::<View>()?.map(Event::View),
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

/// Writes an event's payload alone, without a tag.
pub struct PlainRef<'a>(pub &'a Event);

impl Serialize for PlainRef<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Event::Click(v) => v.serialize(s),
            Event::Key(v) => v.serialize(s),
            Event::Scroll(v) => v.serialize(s),
            Event::View(v) => v.serialize(s),
        }
    }
}

/// Writes a slice of events as untagged payloads: the plain baseline.
pub struct PlainEvents<'a>(pub &'a [Event]);

impl Serialize for PlainEvents<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(PlainRef))
    }
}
