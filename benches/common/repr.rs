//! The externally and adjacently tagged forms, on the payloads
//! of the single-object rows (`Click` among the four event structs) and of
//! the one-field rows (`Dog`): ours as an enum against serde's derived
//! twin, ours as a trait object against typetag's, and a profile, every one
//! reading and writing the same bytes:
//!
//! - external: `{"click":{...}}`, serde's default and typetag's default;
//! - adjacent: `{"type":"click","value":{...}}`, serde's and typetag's
//!   `tag = "type", content = "value"`, read with the tag first and with
//!   the content first (`{"value":{...},"type":"click"}`).
//!
//! The plain payload struct stays the limit.

use std::fmt;

use json_subtypes::{json_subtypes, Profile};
use serde::{Deserialize, Serialize};

use super::{Cat, Click, Dog, Event, Key, Scroll, View};

// ---------------------------------------------------------------------------
// Enums: ours and serde's derived twins.

/// Ours, externally tagged.
#[json_subtypes(external)]
#[derive(Debug, Clone, PartialEq)]
pub enum ExtEvent {
    #[json_subtypes(name = "click")]
    Click(Click),
    #[json_subtypes(name = "key")]
    Key(Key),
    #[json_subtypes(name = "scroll")]
    Scroll(Scroll),
    #[json_subtypes(name = "view")]
    View(View),
}

/// serde's externally tagged enum (its default), same bytes as `ExtEvent`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum SerdeExtEvent {
    #[serde(rename = "click")]
    Click(Click),
    #[serde(rename = "key")]
    Key(Key),
    #[serde(rename = "scroll")]
    Scroll(Scroll),
    #[serde(rename = "view")]
    View(View),
}

/// Ours, adjacently tagged.
#[json_subtypes(tag = "type", content = "value")]
#[derive(Debug, Clone, PartialEq)]
pub enum AdjEvent {
    #[json_subtypes(name = "click")]
    Click(Click),
    #[json_subtypes(name = "key")]
    Key(Key),
    #[json_subtypes(name = "scroll")]
    Scroll(Scroll),
    #[json_subtypes(name = "view")]
    View(View),
}

/// serde's adjacently tagged enum, same bytes as `AdjEvent`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", content = "value")]
pub enum SerdeAdjEvent {
    #[serde(rename = "click")]
    Click(Click),
    #[serde(rename = "key")]
    Key(Key),
    #[serde(rename = "scroll")]
    Scroll(Scroll),
    #[serde(rename = "view")]
    View(View),
}

/// Ours, externally tagged, one field.
#[json_subtypes(external)]
#[derive(Debug, Clone, PartialEq)]
pub enum ExtPet {
    #[json_subtypes(name = "dog")]
    Dog(Dog),
    #[json_subtypes(name = "cat")]
    Cat(Cat),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum SerdeExtPet {
    #[serde(rename = "dog")]
    Dog(Dog),
    #[serde(rename = "cat")]
    Cat(Cat),
}

/// Ours, adjacently tagged, one field.
#[json_subtypes(tag = "type", content = "value")]
#[derive(Debug, Clone, PartialEq)]
pub enum AdjPet {
    #[json_subtypes(name = "dog")]
    Dog(Dog),
    #[json_subtypes(name = "cat")]
    Cat(Cat),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", content = "value")]
pub enum SerdeAdjPet {
    #[serde(rename = "dog")]
    Dog(Dog),
    #[serde(rename = "cat")]
    Cat(Cat),
}

// ---------------------------------------------------------------------------
// Trait objects: ours and typetag's, in both forms.

#[json_subtypes(external)]
pub trait ExtEventTrait: fmt::Debug {
    fn to_event(&self) -> Event;
}

#[typetag::serde]
pub trait TtExtEvent: fmt::Debug {
    fn to_event(&self) -> Event;
}

#[json_subtypes(tag = "type", content = "value")]
pub trait AdjEventTrait: fmt::Debug {
    fn to_event(&self) -> Event;
}

#[typetag::serde(tag = "type", content = "value")]
pub trait TtAdjEvent: fmt::Debug {
    fn to_event(&self) -> Event;
}

/// `ExtEventTrait` with `compiled`: each impl also carries its reader
/// compiled for serde_json's payloads of the external form.
#[json_subtypes(external, compiled)]
pub trait ExtEventCompiled: fmt::Debug {
    fn to_event(&self) -> Event;
}

/// `AdjEventTrait` with `compiled`.
#[json_subtypes(tag = "type", content = "value", compiled)]
pub trait AdjEventCompiled: fmt::Debug {
    fn to_event(&self) -> Event;
}

macro_rules! event_traits {
    ($($ty:ident => $name:literal),* $(,)?) => {$(
        #[json_subtypes(name = $name)]
        impl ExtEventTrait for $ty {
            fn to_event(&self) -> Event {
                Event::$ty(self.clone())
            }
        }

        #[typetag::serde(name = $name)]
        impl TtExtEvent for $ty {
            fn to_event(&self) -> Event {
                Event::$ty(self.clone())
            }
        }

        #[json_subtypes(name = $name)]
        impl AdjEventTrait for $ty {
            fn to_event(&self) -> Event {
                Event::$ty(self.clone())
            }
        }

        #[typetag::serde(name = $name)]
        impl TtAdjEvent for $ty {
            fn to_event(&self) -> Event {
                Event::$ty(self.clone())
            }
        }

        #[json_subtypes(name = $name)]
        impl ExtEventCompiled for $ty {
            fn to_event(&self) -> Event {
                Event::$ty(self.clone())
            }
        }

        #[json_subtypes(name = $name)]
        impl AdjEventCompiled for $ty {
            fn to_event(&self) -> Event {
                Event::$ty(self.clone())
            }
        }
    )*};
}

event_traits!(Click => "click", Key => "key", Scroll => "scroll", View => "view");

#[json_subtypes(external)]
pub trait ExtPetTrait: fmt::Debug {
    fn name(&self) -> &str;
}

#[typetag::serde]
pub trait TtExtPet: fmt::Debug {
    fn name(&self) -> &str;
}

#[json_subtypes(tag = "type", content = "value")]
pub trait AdjPetTrait: fmt::Debug {
    fn name(&self) -> &str;
}

#[typetag::serde(tag = "type", content = "value")]
pub trait TtAdjPet: fmt::Debug {
    fn name(&self) -> &str;
}

#[json_subtypes(external, compiled)]
pub trait ExtPetCompiled: fmt::Debug {
    fn name(&self) -> &str;
}

#[json_subtypes(tag = "type", content = "value", compiled)]
pub trait AdjPetCompiled: fmt::Debug {
    fn name(&self) -> &str;
}

macro_rules! pet_traits {
    ($($ty:ident => $name:literal),*) => {$(
        #[json_subtypes(name = $name)]
        impl ExtPetTrait for $ty {
            fn name(&self) -> &str {
                &self.name
            }
        }

        #[typetag::serde(name = $name)]
        impl TtExtPet for $ty {
            fn name(&self) -> &str {
                &self.name
            }
        }

        #[json_subtypes(name = $name)]
        impl AdjPetTrait for $ty {
            fn name(&self) -> &str {
                &self.name
            }
        }

        #[typetag::serde(name = $name)]
        impl TtAdjPet for $ty {
            fn name(&self) -> &str {
                &self.name
            }
        }

        #[json_subtypes(name = $name)]
        impl ExtPetCompiled for $ty {
            fn name(&self) -> &str {
                &self.name
            }
        }

        #[json_subtypes(name = $name)]
        impl AdjPetCompiled for $ty {
            fn name(&self) -> &str {
                &self.name
            }
        }
    )*};
}

pet_traits!(Dog => "dog", Cat => "cat");

/// The builder-configured twins of the attribute registries.
fn ext_event_profile() -> Profile<dyn ExtEventTrait> {
    Profile::<dyn ExtEventTrait>::builder()
        .external()
        .subtype::<Click>("click")
        .subtype::<Key>("key")
        .subtype::<Scroll>("scroll")
        .subtype::<View>("view")
        .build()
        .unwrap()
}

fn adj_event_profile() -> Profile<dyn AdjEventTrait> {
    Profile::<dyn AdjEventTrait>::builder()
        .tag("type")
        .content("value")
        .subtype::<Click>("click")
        .subtype::<Key>("key")
        .subtype::<Scroll>("scroll")
        .subtype::<View>("view")
        .build()
        .unwrap()
}

fn ext_pet_profile() -> Profile<dyn ExtPetTrait> {
    Profile::<dyn ExtPetTrait>::builder()
        .external()
        .subtype::<Dog>("dog")
        .subtype::<Cat>("cat")
        .build()
        .unwrap()
}

fn adj_pet_profile() -> Profile<dyn AdjPetTrait> {
    Profile::<dyn AdjPetTrait>::builder()
        .tag("type")
        .content("value")
        .subtype::<Dog>("dog")
        .subtype::<Cat>("cat")
        .build()
        .unwrap()
}

// ---------------------------------------------------------------------------
// Values and texts.

/// `{"<tag>":<plain>}`.
fn external(plain: &str, tag: &str) -> String {
    format!("{{\"{tag}\":{plain}}}")
}

/// `{"type":"<tag>","value":<plain>}`.
fn adjacent_tag_first(plain: &str, tag: &str) -> String {
    format!("{{\"type\":\"{tag}\",\"value\":{plain}}}")
}

/// `{"value":<plain>,"type":"<tag>"}`.
fn adjacent_content_first(plain: &str, tag: &str) -> String {
    format!("{{\"value\":{plain},\"type\":\"{tag}\"}}")
}

/// Both forms' values and texts for the `Click` payload and the one-field
/// `Dog`, built once.
pub struct Repr {
    pub ext: ExtEvent,
    pub ext_serde: SerdeExtEvent,
    pub ext_boxed: Box<dyn ExtEventTrait>,
    pub ext_tt: Box<dyn TtExtEvent>,
    pub ext_profile: Profile<dyn ExtEventTrait>,
    pub adj: AdjEvent,
    pub adj_serde: SerdeAdjEvent,
    pub adj_boxed: Box<dyn AdjEventTrait>,
    pub adj_tt: Box<dyn TtAdjEvent>,
    pub adj_profile: Profile<dyn AdjEventTrait>,
    /// `{"click":{...}}`.
    pub ext_text: String,
    /// `{"type":"click","value":{...}}`.
    pub adj_first: String,
    /// `{"value":{...},"type":"click"}`.
    pub adj_last: String,
    pub small_ext: ExtPet,
    pub small_ext_serde: SerdeExtPet,
    pub small_ext_boxed: Box<dyn ExtPetTrait>,
    pub small_ext_tt: Box<dyn TtExtPet>,
    pub small_ext_profile: Profile<dyn ExtPetTrait>,
    pub small_adj: AdjPet,
    pub small_adj_serde: SerdeAdjPet,
    pub small_adj_boxed: Box<dyn AdjPetTrait>,
    pub small_adj_tt: Box<dyn TtAdjPet>,
    pub small_adj_profile: Profile<dyn AdjPetTrait>,
    pub small_ext_text: String,
    pub small_adj_first: String,
    pub small_adj_last: String,
}

impl Repr {
    pub fn new(click: &Click, plain: &str, dog: &Dog, small_plain: &str) -> Self {
        Repr {
            ext: ExtEvent::Click(click.clone()),
            ext_serde: SerdeExtEvent::Click(click.clone()),
            ext_boxed: Box::new(click.clone()),
            ext_tt: Box::new(click.clone()),
            ext_profile: ext_event_profile(),
            adj: AdjEvent::Click(click.clone()),
            adj_serde: SerdeAdjEvent::Click(click.clone()),
            adj_boxed: Box::new(click.clone()),
            adj_tt: Box::new(click.clone()),
            adj_profile: adj_event_profile(),
            ext_text: external(plain, "click"),
            adj_first: adjacent_tag_first(plain, "click"),
            adj_last: adjacent_content_first(plain, "click"),
            small_ext: ExtPet::Dog(dog.clone()),
            small_ext_serde: SerdeExtPet::Dog(dog.clone()),
            small_ext_boxed: Box::new(dog.clone()),
            small_ext_tt: Box::new(dog.clone()),
            small_ext_profile: ext_pet_profile(),
            small_adj: AdjPet::Dog(dog.clone()),
            small_adj_serde: SerdeAdjPet::Dog(dog.clone()),
            small_adj_boxed: Box::new(dog.clone()),
            small_adj_tt: Box::new(dog.clone()),
            small_adj_profile: adj_pet_profile(),
            small_ext_text: external(small_plain, "dog"),
            small_adj_first: adjacent_tag_first(small_plain, "dog"),
            small_adj_last: adjacent_content_first(small_plain, "dog"),
        }
    }

    /// Every path reads and writes what it should; panics otherwise.
    pub fn check(&self) {
        let r = self;
        let text = |v: &dyn erased::Text| v.text();
        let event = r.ext_boxed.to_event();

        // External.
        assert_eq!(de_ext(&r.ext_text), r.ext, "ours external");
        assert_eq!(de_ext_serde(&r.ext_text), r.ext_serde, "serde external");
        assert_eq!(de_ext_trait(&r.ext_text).to_event(), event);
        assert_eq!(de_ext_typetag(&r.ext_text).to_event(), event);
        assert_eq!(de_ext_compiled(&r.ext_text).to_event(), event);
        let profiled = de_ext_profile(&r.ext_profile, &r.ext_text);
        assert_eq!(profiled.to_event(), event);
        for written in [
            text(&r.ext),
            text(&r.ext_serde),
            text(&r.ext_boxed),
            text(&r.ext_tt),
            r.ext_profile.to_string(&*r.ext_boxed).unwrap(),
        ] {
            assert_eq!(written, r.ext_text);
        }

        // Adjacent, tag first and content first.
        for json in [&r.adj_first, &r.adj_last] {
            assert_eq!(de_adj(json), r.adj, "ours adjacent: {json}");
            assert_eq!(de_adj_serde(json), r.adj_serde, "serde adjacent: {json}");
            assert_eq!(de_adj_trait(json).to_event(), event, "{json}");
            assert_eq!(de_adj_typetag(json).to_event(), event, "{json}");
            assert_eq!(de_adj_compiled(json).to_event(), event, "{json}");
            let profiled = de_adj_profile(&r.adj_profile, json);
            assert_eq!(profiled.to_event(), event, "{json}");
        }
        for written in [
            text(&r.adj),
            text(&r.adj_serde),
            text(&r.adj_boxed),
            text(&r.adj_tt),
            r.adj_profile.to_string(&*r.adj_boxed).unwrap(),
        ] {
            assert_eq!(written, r.adj_first);
        }

        // One field.
        let t = &r.small_ext_text;
        assert_eq!(de_small_ext(t), r.small_ext);
        assert_eq!(de_small_ext_serde(t), r.small_ext_serde);
        assert_eq!(de_small_ext_trait(t).name(), "Rex");
        assert_eq!(de_small_ext_typetag(t).name(), "Rex");
        assert_eq!(de_small_ext_compiled(t).name(), "Rex");
        assert_eq!(de_small_ext_profile(&r.small_ext_profile, t).name(), "Rex");
        for written in [
            text(&r.small_ext),
            text(&r.small_ext_serde),
            text(&r.small_ext_boxed),
            text(&r.small_ext_tt),
            r.small_ext_profile.to_string(&*r.small_ext_boxed).unwrap(),
        ] {
            assert_eq!(&written, t);
        }
        for json in [&r.small_adj_first, &r.small_adj_last] {
            assert_eq!(de_small_adj(json), r.small_adj, "{json}");
            assert_eq!(de_small_adj_serde(json), r.small_adj_serde, "{json}");
            assert_eq!(de_small_adj_trait(json).name(), "Rex", "{json}");
            assert_eq!(de_small_adj_typetag(json).name(), "Rex", "{json}");
            assert_eq!(de_small_adj_compiled(json).name(), "Rex", "{json}");
            let profiled = de_small_adj_profile(&r.small_adj_profile, json);
            assert_eq!(profiled.name(), "Rex", "{json}");
        }
        for written in [
            text(&r.small_adj),
            text(&r.small_adj_serde),
            text(&r.small_adj_boxed),
            text(&r.small_adj_tt),
            r.small_adj_profile.to_string(&*r.small_adj_boxed).unwrap(),
        ] {
            assert_eq!(written, r.small_adj_first);
        }
    }
}

mod erased {
    pub trait Text {
        fn text(&self) -> String;
    }

    impl<T: serde::Serialize + ?Sized> Text for T {
        fn text(&self) -> String {
            serde_json::to_string(self).unwrap()
        }
    }
}

// ---------------------------------------------------------------------------
// The measured reads (borrowed input, `serde_json::from_str`).

macro_rules! readers {
    ($($name:ident -> $ty:ty;)*) => {$(
        #[inline(never)]
        pub fn $name(json: &str) -> $ty {
            serde_json::from_str(json).unwrap()
        }
    )*};
}

readers! {
    de_ext -> ExtEvent;
    de_ext_serde -> SerdeExtEvent;
    de_ext_trait -> Box<dyn ExtEventTrait>;
    de_ext_typetag -> Box<dyn TtExtEvent>;
    de_adj -> AdjEvent;
    de_adj_serde -> SerdeAdjEvent;
    de_adj_trait -> Box<dyn AdjEventTrait>;
    de_adj_typetag -> Box<dyn TtAdjEvent>;
    de_small_ext -> ExtPet;
    de_small_ext_serde -> SerdeExtPet;
    de_small_ext_trait -> Box<dyn ExtPetTrait>;
    de_small_ext_typetag -> Box<dyn TtExtPet>;
    de_small_adj -> AdjPet;
    de_small_adj_serde -> SerdeAdjPet;
    de_small_adj_trait -> Box<dyn AdjPetTrait>;
    de_small_adj_typetag -> Box<dyn TtAdjPet>;
    de_ext_compiled -> Box<dyn ExtEventCompiled>;
    de_adj_compiled -> Box<dyn AdjEventCompiled>;
    de_small_ext_compiled -> Box<dyn ExtPetCompiled>;
    de_small_adj_compiled -> Box<dyn AdjPetCompiled>;
}

#[inline(never)]
pub fn de_ext_profile(p: &Profile<dyn ExtEventTrait>, json: &str) -> Box<dyn ExtEventTrait> {
    p.from_str(json).unwrap()
}

#[inline(never)]
pub fn de_adj_profile(p: &Profile<dyn AdjEventTrait>, json: &str) -> Box<dyn AdjEventTrait> {
    p.from_str(json).unwrap()
}

#[inline(never)]
pub fn de_small_ext_profile(p: &Profile<dyn ExtPetTrait>, json: &str) -> Box<dyn ExtPetTrait> {
    p.from_str(json).unwrap()
}

#[inline(never)]
pub fn de_small_adj_profile(p: &Profile<dyn AdjPetTrait>, json: &str) -> Box<dyn AdjPetTrait> {
    p.from_str(json).unwrap()
}
