//! The smallest realistic object: one string field,
//! `{"type":"dog","name":"Rex"}` against the plain derived `{"name":"Rex"}`,
//! where the fixed cost of the tag is not spread over eight fields as in
//! `Click`. Our enum, serde's internally tagged twin, our trait object,
//! typetag's and a profile (tag first, and tag last for writing too).

use std::fmt;

use json_subtypes::{json_subtypes, Profile, TagPosition};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Dog {
    pub name: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Cat {
    pub name: String,
}

#[json_subtypes(tag = "type")]
#[derive(Debug, Clone, PartialEq)]
pub enum Pet {
    #[json_subtypes(name = "dog")]
    Dog(Dog),
    #[json_subtypes(name = "cat")]
    Cat(Cat),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum SerdePet {
    #[serde(rename = "dog")]
    Dog(Dog),
    #[serde(rename = "cat")]
    Cat(Cat),
}

#[json_subtypes(tag = "type")]
pub trait PetTrait: fmt::Debug {
    fn name(&self) -> &str;
}

/// `PetTrait` with `compiled`: each impl also carries its reader and
/// writer compiled for serde_json.
#[json_subtypes(tag = "type", compiled)]
pub trait CompiledPet: fmt::Debug {
    fn name(&self) -> &str;
}

#[typetag::serde(tag = "type")]
pub trait TtPet: fmt::Debug {
    fn name(&self) -> &str;
}

macro_rules! pet_traits {
    ($($ty:ident => $name:literal),*) => {$(
        #[json_subtypes(name = $name)]
        impl PetTrait for $ty {
            fn name(&self) -> &str {
                &self.name
            }
        }

        #[typetag::serde(name = $name)]
        impl TtPet for $ty {
            fn name(&self) -> &str {
                &self.name
            }
        }
    )*};
}

pet_traits!(Dog => "dog", Cat => "cat");

/// `CompiledPet`'s payloads: structs of their own, like the hand-written
/// reader's. Its compiled reader of the rest of an object is the same
/// instantiation as the enum's payload reader (`Dog::deserialize` over
/// `Rest` of serde_json's map): on a shared `Dog` that reader has two
/// callers, and LLVM inlines it into neither. Each path here reads payloads
/// that no other path reads over the same deserializer, as in a program
/// with one of them (PERFORMANCE.md, "Time and instructions").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CompiledDog {
    pub name: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CompiledCat {
    pub name: String,
}

macro_rules! compiled_pets {
    ($($ty:ident => $name:literal),*) => {$(
        #[json_subtypes(name = $name)]
        impl CompiledPet for $ty {
            fn name(&self) -> &str {
                &self.name
            }
        }
    )*};
}

compiled_pets!(CompiledDog => "dog", CompiledCat => "cat");

fn pet_profile(position: TagPosition) -> Profile<dyn PetTrait> {
    Profile::<dyn PetTrait>::builder()
        .tag("type")
        .tag_position(position)
        .subtype::<Dog>("dog")
        .subtype::<Cat>("cat")
        .build()
        .unwrap()
}

/// The one-field scenario's values and texts, built once.
pub struct Small {
    pub dog: Dog,
    pub ours: Pet,
    pub serde: SerdePet,
    pub boxed: Box<dyn PetTrait>,
    pub tt: Box<dyn TtPet>,
    pub compiled: Box<dyn CompiledPet>,
    pub profile: Profile<dyn PetTrait>,
    /// The same registrations with the tag written last.
    pub profile_last: Profile<dyn PetTrait>,
    pub plain: String,
    pub first: String,
    pub last: String,
}

impl Small {
    pub fn new() -> Self {
        let dog = Dog {
            name: "Rex".to_owned(),
        };
        Small {
            ours: Pet::Dog(dog.clone()),
            serde: SerdePet::Dog(dog.clone()),
            boxed: Box::new(dog.clone()),
            tt: Box::new(dog.clone()),
            compiled: Box::new(CompiledDog {
                name: dog.name.clone(),
            }),
            profile: pet_profile(TagPosition::First),
            profile_last: pet_profile(TagPosition::Last),
            plain: r#"{"name":"Rex"}"#.to_owned(),
            first: r#"{"type":"dog","name":"Rex"}"#.to_owned(),
            last: r#"{"name":"Rex","type":"dog"}"#.to_owned(),
            dog,
        }
    }

    /// Every one-field path reads and writes what it should.
    pub fn check(&self) {
        let s = self;
        assert_eq!(de_small_plain(&s.plain), s.dog);
        let rex = ProtoDog {
            name: "Rex".to_owned(),
        };
        assert_eq!(de_small_proto(&s.first), ProtoPet::Dog(rex));
        assert_eq!(de_small_proto_boxed(&s.first).name(), "Rex");
        assert_eq!(de_small_proto_open(&s.first).name(), "Rex");
        for json in [&s.first, &s.last] {
            assert_eq!(de_small_ours(json), s.ours, "ours: {json}");
            assert_eq!(de_small_serde(json), s.serde, "serde: {json}");
            assert_eq!(de_small_trait(json).name(), "Rex", "ours dyn: {json}");
            assert_eq!(de_small_typetag(json).name(), "Rex", "typetag: {json}");
            assert_eq!(de_small_compiled(json).name(), "Rex", "compiled: {json}");
            let p = de_small_profile(&s.profile, json);
            assert_eq!(p.name(), "Rex", "profile: {json}");
        }
        let text = |v: &dyn erased::Text| v.text();
        assert_eq!(text(&s.dog), s.plain);
        assert_eq!(text(&s.ours), s.first);
        assert_eq!(text(&s.serde), s.first);
        assert_eq!(text(&s.boxed), s.first);
        assert_eq!(text(&s.tt), s.first);
        assert_eq!(text(&s.compiled), s.first);
        assert_eq!(text(&s.profile.serializable(&*s.boxed)), s.first);
        assert_eq!(text(&s.profile_last.serializable(&*s.boxed)), s.last);
    }
}

impl Default for Small {
    fn default() -> Self {
        Self::new()
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

#[inline(never)]
pub fn de_small_plain(json: &str) -> Dog {
    serde_json::from_str(json).unwrap()
}

#[inline(never)]
pub fn de_small_ours(json: &str) -> Pet {
    serde_json::from_str(json).unwrap()
}

#[inline(never)]
pub fn de_small_serde(json: &str) -> SerdePet {
    serde_json::from_str(json).unwrap()
}

/// The floor of a tag-first read by hand: the first key must be `"type"`,
/// its value picks the payload, which reads the rest of the map. It checks
/// nothing else (a second `"type"` key goes to the payload, which skips it),
/// so it is not a reader to use, only the limit ours is measured against
/// (a hand-written tag-first prototype). Its payloads are
/// structs of their own, like `Dog` and `Cat`: reading `Dog` here too
/// would give `Dog`'s derived reader a second caller and move the plain
/// row (738 -> 764 instructions, measured).
///
/// Boxed as `dyn PetTrait` (`de_small_proto_boxed`), it is the limit of a
/// trait object's tag-first read: the prototype plus the one `Box`. Its
/// `Serialize` is only what `PetTrait`'s supertrait asks for; it is never
/// written.
#[derive(Debug, PartialEq, Serialize)]
pub enum ProtoPet {
    Dog(ProtoDog),
    Cat(ProtoCat),
}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
pub struct ProtoDog {
    pub name: String,
}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
pub struct ProtoCat {
    pub name: String,
}

/// Not registered: the boxed prototype is built by hand, never read
/// through the registry.
impl PetTrait for ProtoPet {
    fn name(&self) -> &str {
        match self {
            ProtoPet::Dog(d) => &d.name,
            ProtoPet::Cat(c) => &c.name,
        }
    }
}

impl<'de> Deserialize<'de> for ProtoPet {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ProtoVisitor;

        impl<'de> serde::de::Visitor<'de> for ProtoVisitor {
            type Value = ProtoPet;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a pet with its tag first")
            }

            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<ProtoPet, A::Error> {
                use serde::de::{value::MapAccessDeserializer, Error};
                if map.next_key::<&str>()? != Some("type") {
                    return Err(A::Error::missing_field("type"));
                }
                let rest = |map| MapAccessDeserializer::new(map);
                match map.next_value::<&str>()? {
                    "dog" => ProtoDog::deserialize(rest(map)).map(ProtoPet::Dog),
                    "cat" => ProtoCat::deserialize(rest(map)).map(ProtoPet::Cat),
                    other => Err(A::Error::unknown_variant(other, &["dog", "cat"])),
                }
            }
        }

        deserializer.deserialize_map(ProtoVisitor)
    }
}

#[inline(never)]
pub fn de_small_proto(json: &str) -> ProtoPet {
    serde_json::from_str(json).unwrap()
}

/// Through `de_small_proto`: a second `from_str::<ProtoPet>` would give
/// the prototype's reader two call sites and move its own row (1,068 ->
/// 1,082 instructions, measured).
#[inline(never)]
pub fn de_small_proto_boxed(json: &str) -> Box<dyn PetTrait> {
    Box::new(de_small_proto(json))
}

/// The floor of an open set's tag-first read by hand: the prototype, but
/// the tag is looked up in a table the optimizer cannot see into
/// (`black_box`), as a registry's is built at run time, and the chosen
/// entry reads its payload from the rest of the map through a function
/// pointer and boxes it. That is what any open set pays and a `match`
/// does not: a lookup and an indirect call. Like the prototype, it checks
/// nothing else.
pub struct ProtoOpen(pub Box<dyn PetTrait>);

/// The open prototype's payloads: structs of their own, so that the
/// prototype's readers keep one caller each (see `ProtoPet`).
#[derive(Debug, Serialize, Deserialize)]
pub struct OpenDog {
    pub name: String,
}

#[derive(Debug, Serialize, Deserialize)]
pub struct OpenCat {
    pub name: String,
}

impl PetTrait for OpenDog {
    fn name(&self) -> &str {
        &self.name
    }
}

impl PetTrait for OpenCat {
    fn name(&self) -> &str {
        &self.name
    }
}

impl<'de> Deserialize<'de> for ProtoOpen {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        use serde::de::value::MapAccessDeserializer;
        struct OpenVisitor;

        fn boxed<'de, P, A>(rest: MapAccessDeserializer<A>) -> Result<Box<dyn PetTrait>, A::Error>
        where
            P: PetTrait + Deserialize<'de> + 'static,
            A: serde::de::MapAccess<'de>,
        {
            P::deserialize(rest).map(|p| Box::new(p) as Box<dyn PetTrait>)
        }

        impl<'de> serde::de::Visitor<'de> for OpenVisitor {
            type Value = ProtoOpen;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a pet with its tag first")
            }

            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<ProtoOpen, A::Error> {
                use serde::de::Error;
                if map.next_key::<OpenStr>()?.map(|k| k.0) != Some("type") {
                    return Err(A::Error::missing_field("type"));
                }
                let tag = map.next_value::<OpenStr>()?.0;
                #[allow(clippy::type_complexity)]
                let table: [(
                    &str,
                    fn(MapAccessDeserializer<A>) -> Result<Box<dyn PetTrait>, A::Error>,
                ); 2] = [("dog", boxed::<OpenDog, A>), ("cat", boxed::<OpenCat, A>)];
                let table = std::hint::black_box(&table);
                match table.iter().find(|(t, _)| *t == tag) {
                    Some((_, read)) => read(MapAccessDeserializer::new(map)).map(ProtoOpen),
                    None => Err(A::Error::unknown_variant(tag, &["dog", "cat"])),
                }
            }
        }

        deserializer.deserialize_map(OpenVisitor)
    }
}

/// A borrowed string read with a visitor of its own: reading `&str` here
/// would give serde_json's readers of keys and strings a second caller
/// and move the prototype's rows (1,068 -> 1,079 instructions, measured).
struct OpenStr<'de>(&'de str);

impl<'de> Deserialize<'de> for OpenStr<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct StrVisitor;

        impl<'de> serde::de::Visitor<'de> for StrVisitor {
            type Value = OpenStr<'de>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a borrowed string")
            }

            fn visit_borrowed_str<E: serde::de::Error>(
                self,
                v: &'de str,
            ) -> Result<Self::Value, E> {
                Ok(OpenStr(v))
            }
        }

        deserializer.deserialize_str(StrVisitor)
    }
}

#[inline(never)]
pub fn de_small_proto_open(json: &str) -> Box<dyn PetTrait> {
    serde_json::from_str::<ProtoOpen>(json).unwrap().0
}

#[inline(never)]
pub fn de_small_plain_boxed(json: &str) -> Box<dyn PetTrait> {
    Box::new(serde_json::from_str::<Dog>(json).unwrap())
}

#[inline(never)]
pub fn de_small_trait(json: &str) -> Box<dyn PetTrait> {
    serde_json::from_str(json).unwrap()
}

#[inline(never)]
pub fn de_small_typetag(json: &str) -> Box<dyn TtPet> {
    serde_json::from_str(json).unwrap()
}

#[inline(never)]
pub fn de_small_compiled(json: &str) -> Box<dyn CompiledPet> {
    serde_json::from_str(json).unwrap()
}

#[inline(never)]
pub fn de_small_profile(profile: &Profile<dyn PetTrait>, json: &str) -> Box<dyn PetTrait> {
    profile.from_str(json).unwrap()
}
