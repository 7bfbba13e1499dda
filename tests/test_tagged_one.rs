//! `Tagged`: one subtype written and read on its own, with the tag its
//! hierarchy (a trait's registry, a profile in scope, or an enum) writes
//! for it.

use json_subtypes::{json_subtypes, Profile, Tagged, Unknown};
use rstest::rstest;
use serde::{Deserialize, Serialize};

#[json_subtypes(tag = "type")]
trait Shape {
    fn area(&self) -> f64;
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Circle {
    r: f64,
}

#[json_subtypes(name = "circle", alias = "round")]
impl Shape for Circle {
    fn area(&self) -> f64 {
        3.0 * self.r * self.r
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Square {
    side: f64,
}

#[json_subtypes(name = 4)]
impl Shape for Square {
    fn area(&self) -> f64 {
        self.side * self.side
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Dot {}

#[json_subtypes(name = true)]
impl Shape for Dot {
    fn area(&self) -> f64 {
        0.0
    }
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(transparent)]
struct OtherShape(Unknown);

#[json_subtypes(fallback)]
impl Shape for OtherShape {
    fn area(&self) -> f64 {
        f64::NAN
    }
}

#[test]
fn trait_subtypes_write_their_tag() {
    assert_eq!(
        serde_json::to_string(&Tagged::new(&Circle { r: 1.0 })).unwrap(),
        r#"{"type":"circle","r":1.0}"#
    );
    assert_eq!(
        serde_json::to_string(&Tagged::new(Square { side: 2.0 })).unwrap(),
        r#"{"type":4,"side":2.0}"#
    );
    assert_eq!(
        serde_json::to_string(&Tagged::new(&Dot {})).unwrap(),
        r#"{"type":true}"#
    );
}

#[rstest]
#[case::first(r#"{"type":"circle","r":1.0}"#)]
#[case::last(r#"{"r":1.0,"type":"circle"}"#)]
#[case::alias(r#"{"type":"round","r":1.0}"#)]
fn trait_subtypes_read_with_their_tag(#[case] text: &str) {
    let circle: Tagged<Circle, dyn Shape> = serde_json::from_str(text).unwrap();
    assert_eq!(circle.0.area(), 3.0);
    assert_eq!(circle.into_inner(), Circle { r: 1.0 });
}

#[rstest]
#[case::circle(Circle { r: 2.5 })]
fn trait_subtypes_round_trip(#[case] circle: Circle) {
    let text = serde_json::to_string(&Tagged::new(&circle)).unwrap();
    let back: Tagged<Circle, dyn Shape> = serde_json::from_str(&text).unwrap();
    assert_eq!(back.0, circle);
    let square = Square { side: 3.0 };
    let text = serde_json::to_string(&Tagged::new(&square)).unwrap();
    let back: Tagged<Square, dyn Shape> = serde_json::from_str(&text).unwrap();
    assert_eq!(back.0, square);
}

#[rstest]
#[case::another_subtype(
    r#"{"type":4,"side":2.0}"#,
    r#"expected subtype tag "circle" (Circle), found 4 (Square)"#
)]
#[case::another_kind(
    r#"{"type":true}"#,
    r#"expected subtype tag "circle" (Circle), found true (Dot)"#
)]
#[case::the_fallback_took_it(
    r#"{"type":"hexagon","sides":6}"#,
    r#"expected subtype tag "circle" (Circle), found "hexagon" (OtherShape)"#
)]
#[case::no_tag(
    r#"{"r":1.0}"#,
    r#"expected subtype tag "circle" (Circle), found no tag (OtherShape)"#
)]
#[case::bad_body(
    r#"{"type":"circle","r":"big"}"#,
    r#"invalid type: string "big", expected f64 at line 1 column 26"#
)]
fn trait_subtype_errors_name_both_tags(#[case] text: &str, #[case] message: &str) {
    let err = serde_json::from_str::<Tagged<Circle, dyn Shape>>(text).unwrap_err();
    assert_eq!(err.to_string(), message);
}

#[test]
fn a_scoped_profile_decides_the_tag() {
    let v2 = Profile::<dyn Shape>::builder_from_registry()
        .tag("kind")
        .subtype::<Circle>("c")
        .build()
        .unwrap();
    v2.scope(|| {
        let text = serde_json::to_string(&Tagged::new(&Circle { r: 1.0 })).unwrap();
        assert_eq!(text, r#"{"kind":"c","r":1.0}"#);
        let back: Tagged<Circle, dyn Shape> = serde_json::from_str(&text).unwrap();
        assert_eq!(back.0, Circle { r: 1.0 });
        let err = serde_json::from_str::<Tagged<Circle, dyn Shape>>(r#"{"kind":4,"side":1.0}"#)
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            r#"expected subtype tag "c" (Circle), found 4 (Square)"#
        );
    });
    let profile_without_circle = Profile::<dyn Shape>::builder()
        .tag("type")
        .subtype::<Square>(4)
        .build()
        .unwrap();
    profile_without_circle.scope(|| {
        let err = serde_json::from_str::<Tagged<Circle, dyn Shape>>(r#"{"type":4,"side":1.0}"#)
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "cannot read Circle: it is not a subtype of profile of dyn Shape; register it on the profile's builder with `.subtype::<Circle>(...)`"
        );
        let err = serde_json::to_string(&Tagged::new(&Circle { r: 1.0 })).unwrap_err();
        assert_eq!(
            err.to_string(),
            "cannot serialize Circle: its type is not a registered subtype of profile of dyn Shape; register it on the profile's builder with `.subtype::<Circle>(...)`"
        );
    });
}

// Enum payloads.

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Dog {
    name: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Cat {
    lives: u8,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Bird {
    wings: u8,
}

#[json_subtypes(tag = "type")]
#[derive(Debug, PartialEq)]
enum Animal {
    #[json_subtypes(name = "dog", alias = "puppy")]
    Dog(Dog),
    #[json_subtypes(name = 7)]
    Cat(Cat),
    Bird(Bird),
    Fish {
        fins: u8,
    },
    #[json_subtypes(fallback)]
    Other(Unknown),
}

#[rstest]
#[case::string(serde_json::to_string(&Tagged::new(&Dog { name: "Rex".into() })), r#"{"type":"dog","name":"Rex"}"#)]
#[case::int(serde_json::to_string(&Tagged::new(Cat { lives: 9 })), r#"{"type":7,"lives":9}"#)]
#[case::default_name(serde_json::to_string(&Tagged::new(&Bird { wings: 2 })), r#"{"type":"Bird","wings":2}"#)]
fn payloads_write_what_the_enum_writes(
    #[case] written: serde_json::Result<String>,
    #[case] text: &str,
) {
    assert_eq!(written.unwrap(), text);
}

#[test]
fn payloads_write_byte_for_byte_as_their_variant() {
    let dog = Dog { name: "Rex".into() };
    assert_eq!(
        serde_json::to_string(&Tagged::new(&dog)).unwrap(),
        serde_json::to_string(&Animal::Dog(dog)).unwrap()
    );
}

#[rstest]
#[case::first(r#"{"type":"dog","name":"Rex"}"#)]
#[case::last(r#"{"name":"Rex","type":"dog"}"#)]
#[case::alias(r#"{"name":"Rex","type":"puppy"}"#)]
fn payloads_read_with_their_tag(#[case] text: &str) {
    let dog: Tagged<Dog, Animal> = serde_json::from_str(text).unwrap();
    assert_eq!(dog.0, Dog { name: "Rex".into() });
}

#[test]
fn payloads_round_trip() {
    let cat = Cat { lives: 3 };
    let text = serde_json::to_string(&Tagged::new(&cat)).unwrap();
    let back: Tagged<Cat, Animal> = serde_json::from_str(&text).unwrap();
    assert_eq!(back, Tagged::new(cat));
}

#[rstest]
#[case::another_variant(
    r#"{"type":7,"lives":9}"#,
    r#"expected subtype tag "dog" (Animal::Dog), found 7"#
)]
#[case::a_struct_variant(
    r#"{"type":"Fish","fins":2}"#,
    r#"expected subtype tag "dog" (Animal::Dog), found "Fish""#
)]
#[case::the_fallback_took_it(
    r#"{"name":"Rex","type":"wolf"}"#,
    r#"expected subtype tag "dog" (Animal::Dog), found "wolf""#
)]
#[case::no_tag(
    r#"{"name":"Rex"}"#,
    r#"expected subtype tag "dog" (Animal::Dog), found no tag"#
)]
fn payload_errors_name_both_tags(#[case] text: &str, #[case] message: &str) {
    let err = serde_json::from_str::<Tagged<Dog, Animal>>(text).unwrap_err();
    assert_eq!(err.to_string(), message);
}

/// One type in two hierarchies names the one meant.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Ring {
    r: f64,
}

#[json_subtypes(name = "ring")]
impl Shape for Ring {
    fn area(&self) -> f64 {
        0.0
    }
}

#[json_subtypes(tag = "figure")]
#[derive(Debug, PartialEq)]
enum Figure {
    #[json_subtypes(name = "round")]
    Round(Ring),
}

#[test]
fn a_type_in_two_hierarchies_names_the_one_meant() {
    let ring = Ring { r: 1.0 };
    assert_eq!(
        serde_json::to_string(&Tagged::<_, Figure>::new(&ring)).unwrap(),
        r#"{"figure":"round","r":1.0}"#
    );
    assert_eq!(
        serde_json::to_string(&Tagged::<_, dyn Shape>::new(&ring)).unwrap(),
        r#"{"type":"ring","r":1.0}"#
    );
    let back: Tagged<Ring, Figure> = serde_json::from_str(r#"{"r":1.0,"figure":"round"}"#).unwrap();
    assert_eq!(back.0, ring);
    let back: Tagged<Ring, dyn Shape> = serde_json::from_str(r#"{"r":1.0,"type":"ring"}"#).unwrap();
    assert_eq!(back.0, ring);
}

/// `tag_type` tags and `visible` payloads write what their enum writes.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
enum Species {
    GoldenRetriever,
    HouseCat,
}

#[json_subtypes(tag = "species", tag_type = Species)]
#[derive(Debug, PartialEq)]
enum Pet {
    #[json_subtypes(name = Species::GoldenRetriever)]
    Dog(Retriever),
    #[json_subtypes(name = Species::HouseCat)]
    Cat(HouseCat),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Retriever {
    name: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct HouseCat {
    lives: u8,
}

#[test]
fn typed_tags() {
    let dog = Retriever { name: "Rex".into() };
    let text = serde_json::to_string(&Tagged::new(&dog)).unwrap();
    assert_eq!(text, r#"{"species":"GOLDEN_RETRIEVER","name":"Rex"}"#);
    let back: Tagged<Retriever, Pet> = serde_json::from_str(&text).unwrap();
    assert_eq!(back.0, dog);
    let err =
        serde_json::from_str::<Tagged<Retriever, Pet>>(r#"{"lives":1,"species":"HOUSE_CAT"}"#)
            .unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"expected subtype tag "GOLDEN_RETRIEVER" (Pet::Dog), found "HOUSE_CAT""#
    );
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Labelled {
    kind: String,
    n: u8,
}

#[json_subtypes(tag = "kind", visible)]
#[derive(Debug, PartialEq)]
enum Visible {
    #[json_subtypes(name = "l")]
    L(Labelled),
}

#[test]
fn visible_payloads_write_their_own_field() {
    let ok = Labelled {
        kind: "l".into(),
        n: 1,
    };
    let text = serde_json::to_string(&Tagged::new(&ok)).unwrap();
    assert_eq!(text, r#"{"kind":"l","n":1}"#);
    let back: Tagged<Labelled, Visible> = serde_json::from_str(r#"{"n":1,"kind":"l"}"#).unwrap();
    assert_eq!(back.0, ok);
    let wrong = Labelled {
        kind: "m".into(),
        n: 1,
    };
    assert_eq!(
        serde_json::to_string(&Tagged::new(&wrong))
            .unwrap_err()
            .to_string(),
        r#"cannot serialize Visible::L: its field `kind` is "m", but its tag is "l""#
    );
}

/// Presence mode: no tag to write, the payload alone.
#[json_subtypes]
#[derive(Debug, PartialEq)]
enum Found {
    #[json_subtypes(when_field = "name")]
    Dog(Named),
    #[json_subtypes(when_field = "lives")]
    Cat(Lives),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Named {
    name: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Lives {
    lives: u8,
}

#[test]
fn presence_payloads() {
    let dog = Named { name: "Rex".into() };
    let text = serde_json::to_string(&Tagged::new(&dog)).unwrap();
    assert_eq!(text, r#"{"name":"Rex"}"#);
    let back: Tagged<Named, Found> = serde_json::from_str(&text).unwrap();
    assert_eq!(back.0, dog);
    let err = serde_json::from_str::<Tagged<Named, Found>>(r#"{"lives":1}"#).unwrap_err();
    assert_eq!(
        err.to_string(),
        "expected Found::Dog, found another subtype"
    );
}

/// Other formats: the hierarchy's writer and reader, so YAML works alike.
#[test]
fn yaml() {
    let circle = Circle { r: 1.5 };
    let text = serde_norway::to_string(&Tagged::new(&circle)).unwrap();
    assert_eq!(text, "type: circle\nr: 1.5\n");
    let back: Tagged<Circle, dyn Shape> = serde_norway::from_str(&text).unwrap();
    assert_eq!(back.0, circle);
}
