//! `visible`: a payload field named like the tag is the tag. It receives
//! the tag's value on read, and it is what is written, where it is declared.

use json_subtypes::json_subtypes;
use rstest::rstest;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Dee {
    d: u8,
    #[serde(rename = "type")]
    kind: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct NoField {
    n: u8,
}

#[json_subtypes(tag = "type", visible)]
#[derive(Debug, Clone, PartialEq)]
enum Shape {
    /// typetag's `{"type":"C","c":11}`.
    C {
        r#type: String,
        c: u8,
    },
    /// The field comes where it is declared.
    Late {
        c: u8,
        r#type: String,
    },
    /// A newtype payload with the field.
    D(Dee),
    /// No field named like the tag: the tag is written as usual.
    E {
        e: u8,
    },
    /// A newtype payload without the field: the tag goes after its fields.
    N(NoField),
    Unit,
}

fn c(tag: &str) -> Shape {
    Shape::C {
        r#type: tag.into(),
        c: 11,
    }
}

fn dee(tag: &str) -> Shape {
    Shape::D(Dee {
        d: 4,
        kind: tag.into(),
    })
}

#[rstest]
#[case::struct_variant(c("C"), r#"{"type":"C","c":11}"#)]
#[case::where_declared(Shape::Late { c: 1, r#type: "Late".into() }, r#"{"c":1,"type":"Late"}"#)]
#[case::newtype(dee("D"), r#"{"d":4,"type":"D"}"#)]
#[case::struct_without_the_field(Shape::E { e: 1 }, r#"{"type":"E","e":1}"#)]
#[case::newtype_without_the_field(Shape::N(NoField { n: 2 }), r#"{"n":2,"type":"N"}"#)]
#[case::unit(Shape::Unit, r#"{"type":"Unit"}"#)]
fn writes_the_tag_once_and_round_trips(#[case] value: Shape, #[case] text: &str) {
    assert_eq!(serde_json::to_string(&value).unwrap(), text);
    let back: Shape = serde_json::from_str(text).unwrap();
    assert_eq!(back, value);
    // Through another reader (a `Value`) too.
    let tree = serde_json::to_value(&value).unwrap();
    assert_eq!(serde_json::from_value::<Shape>(tree).unwrap(), value);
}

#[rstest]
#[case::first(r#"{"type":"C","c":11}"#, c("C"))]
#[case::last(r#"{"c":11,"type":"C"}"#, c("C"))]
#[case::newtype_first(r#"{"type":"D","d":4}"#, dee("D"))]
#[case::newtype_last(r#"{"d":4,"type":"D"}"#, dee("D"))]
#[case::where_declared_first(r#"{"type":"Late","c":1}"#, Shape::Late { c: 1, r#type: "Late".into() })]
#[case::without_the_field_last(r#"{"e":1,"type":"E"}"#, Shape::E { e: 1 })]
#[case::newtype_without_the_field_first(r#"{"type":"N","n":2}"#, Shape::N(NoField { n: 2 }))]
#[case::unit_last(r#"{"type":"Unit"}"#, Shape::Unit)]
fn the_payload_receives_the_tag_wherever_it_comes(#[case] text: &str, #[case] expected: Shape) {
    assert_eq!(serde_json::from_str::<Shape>(text).unwrap(), expected);
}

#[rstest]
#[case::first(
    r#"{"type":"C","c":11,"type":"C"}"#,
    "duplicate field `type` at line 1 column 25"
)]
#[case::last(
    r#"{"c":11,"type":"C","type":"C"}"#,
    "duplicate field `type` at line 1 column 25"
)]
#[case::newtype(
    r#"{"d":4,"type":"D","type":"D"}"#,
    "duplicate field `type` at line 1 column 24"
)]
#[case::unknown(
    r#"{"type":"X","c":11}"#,
    r#"unknown subtype tag "X", expected one of "C", "Late", "D", "E", "N", "Unit" at line 1 column 11"#
)]
fn a_second_tag_is_still_a_duplicate(#[case] text: &str, #[case] message: &str) {
    let err = serde_json::from_str::<Shape>(text).unwrap_err();
    assert_eq!(err.to_string(), message);
}

#[rstest]
#[case::struct_variant(
    c("X"),
    r#"cannot serialize Shape::C: its field `type` is "X", but its tag is "C""#
)]
#[case::newtype(
    dee("C"),
    r#"cannot serialize Shape::D: its field `type` is "C", but its tag is "D""#
)]
fn a_field_that_disagrees_with_its_tag_is_an_error_on_write(
    #[case] value: Shape,
    #[case] message: &str,
) {
    let err = serde_json::to_string(&value).unwrap_err();
    assert_eq!(err.to_string(), message);
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Switch {
    on: bool,
    level: u8,
}

#[json_subtypes(tag = "version", visible)]
#[derive(Debug, Clone, PartialEq)]
enum Versioned {
    #[json_subtypes(name = 1)]
    V1 { version: u32, a: u8 },
    #[json_subtypes(name = 2)]
    V2 { b: u8, version: u64 },
}

#[json_subtypes(tag = "on", visible)]
#[derive(Debug, Clone, PartialEq)]
enum Power {
    #[json_subtypes(name = true)]
    On(Switch),
    #[json_subtypes(name = false)]
    Off { on: bool },
}

#[rstest]
#[case::int_first(r#"{"version":1,"a":2}"#, r#"{"version":1,"a":2}"#)]
#[case::int_last(r#"{"a":2,"version":1}"#, r#"{"version":1,"a":2}"#)]
#[case::int_where_declared(r#"{"version":2,"b":3}"#, r#"{"b":3,"version":2}"#)]
fn integer_tags_reach_an_integer_field(#[case] text: &str, #[case] written: &str) {
    let value: Versioned = serde_json::from_str(text).unwrap();
    assert_eq!(serde_json::to_string(&value).unwrap(), written);
    assert_eq!(serde_json::from_str::<Versioned>(written).unwrap(), value);
}

#[rstest]
#[case::bool_first(r#"{"on":true,"level":3}"#, Power::On(Switch { on: true, level: 3 }))]
#[case::bool_last(r#"{"level":3,"on":true}"#, Power::On(Switch { on: true, level: 3 }))]
#[case::bool_false(r#"{"on":false}"#, Power::Off { on: false })]
fn bool_tags_reach_a_bool_field(#[case] text: &str, #[case] expected: Power) {
    let value: Power = serde_json::from_str(text).unwrap();
    assert_eq!(value, expected);
    let written = serde_json::to_string(&value).unwrap();
    assert_eq!(serde_json::from_str::<Power>(&written).unwrap(), expected);
}

#[rstest]
#[case::int(
    serde_json::to_string(&Versioned::V1 { version: 2, a: 0 }),
    "cannot serialize Versioned::V1: its field `version` is 2, but its tag is 1"
)]
#[case::bool(
    serde_json::to_string(&Power::On(Switch { on: false, level: 0 })),
    "cannot serialize Power::On: its field `on` is false, but its tag is true"
)]
fn integer_and_bool_fields_are_checked_on_write(
    #[case] out: serde_json::Result<String>,
    #[case] message: &str,
) {
    assert_eq!(out.unwrap_err().to_string(), message);
}

#[test]
fn without_visible_a_payload_field_named_like_the_tag_stays_an_error() {
    #[json_subtypes(tag = "type")]
    #[derive(Debug)]
    enum Plain {
        D(Dee),
    }
    let err = serde_json::to_string(&Plain::D(Dee {
        d: 1,
        kind: "D".into(),
    }))
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "cannot serialize Plain::D: its field `type` has the name of the tag; add `visible` to Plain's `#[json_subtypes(tag = \"type\")]` so that the field is the tag"
    );
}

#[json_subtypes(tag = "type", visible)]
trait Widget {
    fn size(&self) -> u8;
}

#[derive(Debug, Serialize, Deserialize)]
struct Button {
    size: u8,
    r#type: String,
}

#[json_subtypes(name = "button")]
impl Widget for Button {
    fn size(&self) -> u8 {
        self.size
    }
}

#[derive(Debug, Serialize, Deserialize)]
struct Label {
    size: u8,
}

#[json_subtypes(name = "label")]
impl Widget for Label {
    fn size(&self) -> u8 {
        self.size
    }
}

#[rstest]
#[case::first(r#"{"type":"button","size":1}"#, r#"{"size":1,"type":"button"}"#)]
#[case::last(r#"{"size":1,"type":"button"}"#, r#"{"size":1,"type":"button"}"#)]
#[case::without_the_field(r#"{"type":"label","size":2}"#, r#"{"size":2,"type":"label"}"#)]
fn a_trait_may_be_visible_too(#[case] text: &str, #[case] written: &str) {
    let widget: Box<dyn Widget> = serde_json::from_str(text).unwrap();
    assert_eq!(serde_json::to_string(&widget).unwrap(), written);
    // The erased path (another writer and reader) does the same.
    let tree = serde_json::to_value(&widget).unwrap();
    assert_eq!(tree.to_string(), written);
    let back: Box<dyn Widget> = serde_json::from_value(tree).unwrap();
    assert_eq!(back.size(), widget.size());
}

#[test]
fn a_trait_checks_the_field_on_write_and_refuses_a_second_tag() {
    let wrong: Box<dyn Widget> = Box::new(Button {
        size: 1,
        r#type: "label".into(),
    });
    let message = "cannot serialize Button as a subtype of dyn Widget: its field `type` is \"label\", but its tag is \"button\"";
    assert_eq!(
        serde_json::to_string(&wrong).unwrap_err().to_string(),
        message
    );
    assert_eq!(
        serde_json::to_value(&wrong).unwrap_err().to_string(),
        message
    );
    let err =
        serde_json::from_str::<Box<dyn Widget>>(r#"{"type":"button","size":1,"type":"button"}"#)
            .err()
            .unwrap();
    assert_eq!(
        err.to_string(),
        "duplicate field `type` at line 1 column 32"
    );
}

#[test]
fn a_profile_says_visible_with_its_builder() {
    let profile = json_subtypes::Profile::<dyn Widget>::builder()
        .tag("type")
        .subtype::<Button>("big")
        .visible(true)
        .build()
        .unwrap();
    let widget = profile.from_str(r#"{"size":3,"type":"big"}"#).unwrap();
    assert_eq!(
        profile.to_string(&*widget).unwrap(),
        r#"{"size":3,"type":"big"}"#
    );
    // Without it the field is refused on write, as for enums.
    let hidden = json_subtypes::Profile::<dyn Widget>::builder_from_registry()
        .visible(false)
        .build()
        .unwrap();
    let button = Button {
        size: 1,
        r#type: "button".into(),
    };
    assert_eq!(
        hidden.to_string(&button).unwrap_err().to_string(),
        "cannot serialize Button as a subtype of profile of dyn Widget: its field `type` has the name of the tag; call `.visible(true)` on the profile's builder so that the field is the tag"
    );
    // `builder_from_registry` keeps the trait's `visible`.
    let kept = json_subtypes::Profile::<dyn Widget>::builder_from_registry()
        .build()
        .unwrap();
    assert_eq!(
        kept.to_string(&button).unwrap(),
        r#"{"size":1,"type":"button"}"#
    );
}

#[cfg(feature = "schemars")]
#[test]
fn the_schema_of_a_visible_enum_holds_the_field_to_the_tag() {
    #[derive(Serialize, Deserialize, schemars::JsonSchema)]
    struct Dog {
        r#type: String,
        name: String,
    }
    #[json_subtypes(tag = "type", visible)]
    enum Animal {
        #[json_subtypes(name = "dog")]
        Dog(Dog),
        #[json_subtypes(name = "cat")]
        Cat { r#type: String, lives: u8 },
    }
    let schema = serde_json::to_value(schemars::schema_for!(Animal)).unwrap();
    assert_eq!(schema["oneOf"][1]["properties"]["type"]["const"], "cat");
    assert_eq!(
        schema["oneOf"][0]["allOf"][0]["properties"]["type"]["const"],
        "dog"
    );
}

#[test]
fn the_sequence_form_gives_the_payload_every_field_after_the_tag() {
    let value: Shape = serde_json::from_str(r#"["C","C",11]"#).unwrap();
    assert_eq!(value, c("C"));
    let err = serde_json::from_str::<Shape>(r#"["C",11]"#).unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid type: integer `11`, expected a string at line 1 column 7"
    );
}

#[json_subtypes(tag = "type", rename_all = "lowercase")]
#[derive(Debug, PartialEq)]
enum Animal {
    Fish {
        fins: u8,
    },
    #[json_subtypes(nested)]
    Mammal(Mammal),
}

#[json_subtypes(tag = "type", rename_all = "lowercase", visible)]
#[derive(Debug, PartialEq)]
enum Mammal {
    Whale { r#type: String, tons: u32 },
    Bat,
}

#[rstest]
#[case::first(r#"{"type":"whale","tons":40}"#)]
#[case::last(r#"{"tons":40,"type":"whale"}"#)]
fn a_visible_child_receives_the_tag_its_parent_read(#[case] text: &str) {
    let expected = Animal::Mammal(Mammal::Whale {
        r#type: "whale".into(),
        tons: 40,
    });
    let animal: Animal = serde_json::from_str(text).unwrap();
    assert_eq!(animal, expected);
    assert_eq!(
        serde_json::to_string(&animal).unwrap(),
        r#"{"type":"whale","tons":40}"#
    );
    let bat: Animal = serde_json::from_str(r#"{"type":"bat"}"#).unwrap();
    assert_eq!(bat, Animal::Mammal(Mammal::Bat));
}

// Write errors name what is written: `Enum::Variant` for an enum, the type
// as a subtype of the trait object or of the profile otherwise. The caller
// says which it is; nothing is guessed from the names.

#[json_subtypes(tag = "type")]
trait Gadget {}

#[json_subtypes(name = "button")]
impl Gadget for Button {}

/// A payload that is a string, not a map.
#[derive(Debug, Serialize, Deserialize)]
struct Name(String);

#[json_subtypes(name = "name")]
impl Gadget for Name {}

#[json_subtypes(tag = "type")]
#[derive(Debug)]
enum Scalar {
    S(String),
}

/// Not `visible`: a field named like the tag is an error.
#[json_subtypes(tag = "type")]
#[derive(Debug)]
enum Hidden {
    D(Dee),
}

/// One payload type in two variants: each write names its own variant.
#[json_subtypes(tag = "type")]
#[derive(Debug)]
enum Twice {
    A(Dee),
    B(Dee),
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
enum Kind {
    D,
}

/// `visible` needs literal tags: its error names no fix it cannot take.
#[json_subtypes(tag = "type", tag_type = Kind)]
#[derive(Debug)]
enum Typed {
    #[json_subtypes(name = Kind::D)]
    D(Dee),
}

fn button(tag: &str) -> Button {
    Button {
        size: 1,
        r#type: tag.into(),
    }
}

fn gadgets() -> json_subtypes::Profile<dyn Gadget> {
    json_subtypes::Profile::<dyn Gadget>::builder()
        .tag("type")
        .subtype::<Button>("big")
        .subtype::<Name>("n")
        .build()
        .unwrap()
}

fn visible_widgets() -> json_subtypes::Profile<dyn Widget> {
    json_subtypes::Profile::<dyn Widget>::builder()
        .tag("type")
        .subtype::<Button>("big")
        .visible(true)
        .build()
        .unwrap()
}

#[rstest]
#[case::enum_field_named_like_the_tag(
    || serde_json::to_string(&Hidden::D(Dee { d: 1, kind: "D".into() })),
    "cannot serialize Hidden::D: its field `type` has the name of the tag; add `visible` to Hidden's `#[json_subtypes(tag = \"type\")]` so that the field is the tag"
)]
#[case::first_of_two_variants_with_one_payload(
    || serde_json::to_string(&Twice::A(Dee { d: 1, kind: "A".into() })),
    "cannot serialize Twice::A: its field `type` has the name of the tag; add `visible` to Twice's `#[json_subtypes(tag = \"type\")]` so that the field is the tag"
)]
#[case::second_of_two_variants_with_one_payload(
    || serde_json::to_string(&Twice::B(Dee { d: 1, kind: "B".into() })),
    "cannot serialize Twice::B: its field `type` has the name of the tag; add `visible` to Twice's `#[json_subtypes(tag = \"type\")]` so that the field is the tag"
)]
#[case::typed_enum_field_named_like_the_tag(
    || serde_json::to_string(&Typed::D(Dee { d: 1, kind: "D".into() })),
    "cannot serialize Typed::D: its field `type` has the name of the tag"
)]
#[case::enum_field_that_disagrees(
    || serde_json::to_string(&dee("X")),
    r#"cannot serialize Shape::D: its field `type` is "X", but its tag is "D""#
)]
#[case::enum_payload_not_a_map(
    || serde_json::to_string(&Scalar::S("s".into())),
    "cannot serialize tagged newtype variant Scalar::S containing a string"
)]
#[case::trait_field_named_like_the_tag(
    || serde_json::to_string(&button("button") as &dyn Gadget),
    "cannot serialize Button as a subtype of dyn Gadget: its field `type` has the name of the tag; add `visible` to the trait's `#[json_subtypes(tag = \"type\")]` so that the field is the tag"
)]
#[case::trait_field_that_disagrees(
    || serde_json::to_string(&button("label") as &dyn Widget),
    r#"cannot serialize Button as a subtype of dyn Widget: its field `type` is "label", but its tag is "button""#
)]
#[case::trait_payload_not_a_map(
    || serde_json::to_string(&Name("n".into()) as &dyn Gadget),
    "cannot serialize Name as a subtype of dyn Gadget: it is a string, not a map or struct"
)]
#[case::profile_field_named_like_the_tag(
    || gadgets().to_string(&button("big")),
    "cannot serialize Button as a subtype of profile of dyn Gadget: its field `type` has the name of the tag; call `.visible(true)` on the profile's builder so that the field is the tag"
)]
#[case::profile_field_that_disagrees(
    || visible_widgets().to_string(&button("small")),
    r#"cannot serialize Button as a subtype of profile of dyn Widget: its field `type` is "small", but its tag is "big""#
)]
#[case::profile_payload_not_a_map(
    || gadgets().to_string(&Name("n".into())),
    "cannot serialize Name as a subtype of profile of dyn Gadget: it is a string, not a map or struct"
)]
fn write_errors_name_the_enum_the_trait_object_or_the_profile(
    #[case] write: fn() -> serde_json::Result<String>,
    #[case] message: &str,
) {
    assert_eq!(write().unwrap_err().to_string(), message);
}

// Aliases: a visible field holds whichever of its variant's tags was read,
// the first or an alias. It is the user's data and reads back to the same
// variant, so it is written as it is.

#[json_subtypes(tag = "version", visible)]
#[derive(Debug, Clone, PartialEq)]
enum Doc {
    #[json_subtypes(name = 1)]
    One { version: u32, title: String },
    #[json_subtypes(name = 2, alias = 20, alias = 21)]
    Two { version: u32, title: String },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Disc {
    r#type: String,
    r: u8,
}

#[json_subtypes(tag = "type", visible)]
#[derive(Debug, Clone, PartialEq)]
enum Round {
    #[json_subtypes(name = "circle", alias = "round")]
    Circle { r#type: String, r: u8 },
    #[json_subtypes(name = "disc", alias = "disk")]
    Disc(Disc),
    /// No field named like the tag: the first tag is written.
    #[json_subtypes(alias = "sq")]
    Square { side: u8 },
}

fn doc(version: u32) -> Doc {
    Doc::Two {
        version,
        title: "t".into(),
    }
}

fn round(tag: &str) -> Round {
    Round::Circle {
        r#type: tag.into(),
        r: 1,
    }
}

fn disc(tag: &str) -> Round {
    Round::Disc(Disc {
        r#type: tag.into(),
        r: 2,
    })
}

#[rstest]
#[case::int_alias_first(
    r#"{"version":20,"title":"t"}"#,
    doc(20),
    r#"{"version":20,"title":"t"}"#
)]
#[case::int_alias_last(
    r#"{"title":"t","version":21}"#,
    doc(21),
    r#"{"version":21,"title":"t"}"#
)]
#[case::int_first_tag(r#"{"title":"t","version":2}"#, doc(2), r#"{"version":2,"title":"t"}"#)]
fn an_integer_alias_read_is_written_as_it_is(
    #[case] text: &str,
    #[case] expected: Doc,
    #[case] written: &str,
) {
    let value: Doc = serde_json::from_str(text).unwrap();
    assert_eq!(value, expected);
    assert_eq!(serde_json::to_string(&value).unwrap(), written);
    assert_eq!(serde_json::from_str::<Doc>(written).unwrap(), value);
    let tree = serde_json::to_value(&value).unwrap();
    assert_eq!(serde_json::from_value::<Doc>(tree).unwrap(), value);
}

#[rstest]
#[case::struct_alias_first(
    r#"{"type":"round","r":1}"#,
    round("round"),
    r#"{"type":"round","r":1}"#
)]
#[case::struct_alias_last(
    r#"{"r":1,"type":"round"}"#,
    round("round"),
    r#"{"type":"round","r":1}"#
)]
#[case::newtype_alias_first(r#"{"type":"disk","r":2}"#, disc("disk"), r#"{"type":"disk","r":2}"#)]
#[case::newtype_alias_last(r#"{"r":2,"type":"disk"}"#, disc("disk"), r#"{"type":"disk","r":2}"#)]
#[case::newtype_first_tag(r#"{"r":2,"type":"disc"}"#, disc("disc"), r#"{"type":"disc","r":2}"#)]
#[case::without_the_field(r#"{"side":3,"type":"sq"}"#, Round::Square { side: 3 }, r#"{"type":"Square","side":3}"#)]
fn a_string_alias_read_is_written_as_it_is(
    #[case] text: &str,
    #[case] expected: Round,
    #[case] written: &str,
) {
    let value: Round = serde_json::from_str(text).unwrap();
    assert_eq!(value, expected);
    assert_eq!(serde_json::to_string(&value).unwrap(), written);
    assert_eq!(serde_json::from_str::<Round>(written).unwrap(), value);
    let tree = serde_json::to_value(&value).unwrap();
    assert_eq!(serde_json::from_value::<Round>(tree).unwrap(), value);
}

#[rstest]
#[case::int_aliases(
    serde_json::to_string(&doc(1)),
    "cannot serialize Doc::Two: its field `version` is 1, but its tag is 2 or one of its aliases 20, 21"
)]
#[case::string_alias(
    serde_json::to_string(&round("disc")),
    r#"cannot serialize Round::Circle: its field `type` is "disc", but its tag is "circle" or its alias "round""#
)]
#[case::newtype_alias(
    serde_json::to_string(&disc("round")),
    r#"cannot serialize Round::Disc: its field `type` is "round", but its tag is "disc" or its alias "disk""#
)]
fn a_field_holding_no_tag_of_its_variant_is_an_error_on_write(
    #[case] out: serde_json::Result<String>,
    #[case] message: &str,
) {
    assert_eq!(out.unwrap_err().to_string(), message);
}

#[derive(Debug, Serialize, Deserialize)]
struct Slider {
    r#type: String,
    size: u8,
}

#[json_subtypes(name = "slider", alias = "range")]
impl Widget for Slider {
    fn size(&self) -> u8 {
        self.size
    }
}

fn large_widgets() -> json_subtypes::Profile<dyn Widget> {
    json_subtypes::Profile::<dyn Widget>::builder()
        .tag("type")
        .subtype::<Button>("big")
        .alias::<Button>("large")
        .visible(true)
        .build()
        .unwrap()
}

#[rstest]
#[case::alias_first(r#"{"type":"range","size":1}"#, r#"{"type":"range","size":1}"#)]
#[case::alias_last(r#"{"size":1,"type":"range"}"#, r#"{"type":"range","size":1}"#)]
#[case::first_tag(r#"{"size":1,"type":"slider"}"#, r#"{"type":"slider","size":1}"#)]
fn a_trait_writes_an_alias_its_field_holds(#[case] text: &str, #[case] written: &str) {
    let widget: Box<dyn Widget> = serde_json::from_str(text).unwrap();
    assert_eq!(serde_json::to_string(&widget).unwrap(), written);
    // The erased writer and reader (a `Value`) do the same.
    let tree = serde_json::to_value(&widget).unwrap();
    assert_eq!(tree.to_string(), written);
    let back: Box<dyn Widget> = serde_json::from_value(tree).unwrap();
    assert_eq!(serde_json::to_string(&back).unwrap(), written);
}

#[rstest]
#[case::alias(r#"{"type":"large","size":3}"#, r#"{"size":3,"type":"large"}"#)]
#[case::alias_last(r#"{"size":3,"type":"large"}"#, r#"{"size":3,"type":"large"}"#)]
#[case::first_tag(r#"{"size":3,"type":"big"}"#, r#"{"size":3,"type":"big"}"#)]
fn a_profile_writes_an_alias_its_field_holds(#[case] text: &str, #[case] written: &str) {
    let profile = large_widgets();
    let widget = profile.from_str(text).unwrap();
    assert_eq!(profile.to_string(&*widget).unwrap(), written);
    let tree = serde_json::to_value(profile.serializable(&*widget)).unwrap();
    assert_eq!(tree.to_string(), written);
    let back = profile.deserialize(tree).unwrap();
    assert_eq!(profile.to_string(&*back).unwrap(), written);
}

#[rstest]
#[case::trait_alias(
    || serde_json::to_string(&Slider { r#type: "big".into(), size: 1 } as &dyn Widget),
    r#"cannot serialize Slider as a subtype of dyn Widget: its field `type` is "big", but its tag is "slider" or its alias "range""#
)]
#[case::profile_alias(
    || large_widgets().to_string(&button("range")),
    r#"cannot serialize Button as a subtype of profile of dyn Widget: its field `type` is "range", but its tag is "big" or its alias "large""#
)]
fn trait_and_profile_fields_are_checked_against_every_tag(
    #[case] write: fn() -> serde_json::Result<String>,
    #[case] message: &str,
) {
    assert_eq!(write().unwrap_err().to_string(), message);
}

// The typetag habit: a payload with a field of its own named like the tag,
// under a tag that is not `visible`. Every message names `visible`.

#[json_subtypes(tag = "type")]
trait Figure {
    fn area(&self) -> f64;
}

#[derive(Debug, Serialize, Deserialize)]
struct Circle {
    r#type: String,
    r: f64,
}

#[json_subtypes(name = "circle")]
impl Figure for Circle {
    fn area(&self) -> f64 {
        3.0 * self.r * self.r
    }
}

const NOT_RECEIVED: &str = "missing field `type` in Circle: its own field named like the tag does not receive the tag; add `visible` to the `#[json_subtypes(tag = \"type\")]` that declares the tag, or call `.visible(true)` on the profile's builder";

fn figures() -> json_subtypes::Profile<dyn Figure> {
    json_subtypes::Profile::<dyn Figure>::builder_from_registry()
        .build()
        .unwrap()
}

#[rstest]
#[case::tag_first(
    || serde_json::from_str::<Box<dyn Figure>>(r#"{"type":"circle","r":1}"#).map(|_| ()),
    format!("{NOT_RECEIVED} at line 1 column 23")
)]
#[case::tag_last(
    || serde_json::from_str::<Box<dyn Figure>>(r#"{"r":1,"type":"circle"}"#).map(|_| ()),
    format!("{NOT_RECEIVED} at line 1 column 23")
)]
#[case::erased(
    || serde_json::from_value::<Box<dyn Figure>>(serde_json::json!({"type": "circle", "r": 1})).map(|_| ()),
    NOT_RECEIVED.to_owned()
)]
#[case::profile(
    || figures().from_str(r#"{"type":"circle","r":1}"#).map(|_| ()),
    format!("{NOT_RECEIVED} at line 1 column 23")
)]
#[case::enum_newtype(
    || serde_json::from_str::<Hidden>(r#"{"d":1,"type":"D"}"#).map(|_| ()),
    "missing field `type` in Dee: its own field named like the tag does not receive the tag; add `visible` to the `#[json_subtypes(tag = \"type\")]` that declares the tag, or call `.visible(true)` on the profile's builder at line 1 column 18".to_owned()
)]
fn a_payload_field_named_like_a_hidden_tag_names_visible_on_read(
    #[case] read: fn() -> serde_json::Result<()>,
    #[case] message: String,
) {
    assert_eq!(read().unwrap_err().to_string(), message);
}

#[test]
fn a_payload_field_named_like_a_hidden_tag_names_visible_on_write() {
    let circle = Circle {
        r#type: "circle".into(),
        r: 1.0,
    };
    assert_eq!(
        serde_json::to_string(&circle as &dyn Figure).unwrap_err().to_string(),
        "cannot serialize Circle as a subtype of dyn Figure: its field `type` has the name of the tag; add `visible` to the trait's `#[json_subtypes(tag = \"type\")]` so that the field is the tag"
    );
    assert_eq!(
        figures().to_string(&circle).unwrap_err().to_string(),
        "cannot serialize Circle as a subtype of profile of dyn Figure: its field `type` has the name of the tag; call `.visible(true)` on the profile's builder so that the field is the tag"
    );
}

/// With the fix the same types read, write and read back.
#[test]
fn visible_is_the_fix_the_messages_name() {
    let profile = json_subtypes::Profile::<dyn Figure>::builder_from_registry()
        .visible(true)
        .build()
        .unwrap();
    let text = r#"{"type":"circle","r":1.0}"#;
    let figure = profile.from_str(text).unwrap();
    assert_eq!(figure.area(), 3.0);
    assert_eq!(profile.to_string(&*figure).unwrap(), text);
}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Inner {
    r#type: String,
}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Holder {
    inner: Inner,
}

#[json_subtypes(tag = "type")]
#[derive(Debug, PartialEq)]
enum Held {
    H(Holder),
}

#[rstest]
#[case::nested_struct_first(
    r#"{"type":"H","inner":{}}"#,
    "missing field `type` at line 1 column 22"
)]
#[case::nested_struct_last(
    r#"{"inner":{},"type":"H"}"#,
    "missing field `type` at line 1 column 23"
)]
fn a_field_really_missing_keeps_serdes_message(#[case] text: &str, #[case] message: &str) {
    let err = serde_json::from_str::<Held>(text).unwrap_err();
    assert_eq!(err.to_string(), message);
}
