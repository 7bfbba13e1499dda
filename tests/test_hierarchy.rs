//! Multi-level hierarchies: `nested` children sharing the parent's tag key,
//! levels with their own keys, mixed tag and presence levels, and recursive
//! types hundreds of levels deep.

use json_subtypes::{json_subtypes, Unknown};
use rstest::rstest;
use serde::{Deserialize, Serialize};

// ---------------------------------------------------------------------------
// Four levels, one key.

#[json_subtypes(tag = "type", rename_all = "lowercase")]
#[derive(Debug, Clone, PartialEq)]
enum Animal {
    Fish {
        fins: u8,
    },
    #[json_subtypes(nested)]
    Mammal(Mammal),
    #[json_subtypes(fallback)]
    Other(Unknown),
}

#[json_subtypes(tag = "type", rename_all = "lowercase")]
#[derive(Debug, Clone, PartialEq)]
enum Mammal {
    Whale {
        tons: u32,
    },
    #[json_subtypes(nested)]
    Bat(Bat),
}

#[json_subtypes(tag = "type", rename_all = "lowercase")]
#[derive(Debug, Clone, PartialEq)]
enum Bat {
    #[json_subtypes(alias = "flying_fox")]
    Fruit { wingspan: f32 },
    #[json_subtypes(nested)]
    Vampire(Vampire),
}

#[json_subtypes(tag = "type", rename_all = "lowercase")]
#[derive(Debug, Clone, PartialEq)]
enum Vampire {
    Common { thirst: u8 },
    Hairy,
}

fn deep_values() -> Vec<(Animal, &'static str)> {
    vec![
        (Animal::Fish { fins: 2 }, r#"{"type":"fish","fins":2}"#),
        (
            Animal::Mammal(Mammal::Whale { tons: 40 }),
            r#"{"type":"whale","tons":40}"#,
        ),
        (
            Animal::Mammal(Mammal::Bat(Bat::Fruit { wingspan: 1.5 })),
            r#"{"type":"fruit","wingspan":1.5}"#,
        ),
        (
            Animal::Mammal(Mammal::Bat(Bat::Vampire(Vampire::Common { thirst: 9 }))),
            r#"{"type":"common","thirst":9}"#,
        ),
        (
            Animal::Mammal(Mammal::Bat(Bat::Vampire(Vampire::Hairy))),
            r#"{"type":"hairy"}"#,
        ),
    ]
}

#[test]
fn same_key_levels_write_the_tag_once() {
    for (value, text) in deep_values() {
        assert_eq!(serde_json::to_string(&value).unwrap(), text);
        assert_eq!(serde_json::from_str::<Animal>(text).unwrap(), value);
    }
}

#[rstest]
#[case::first(r#"{"type":"common","thirst":9,"x":1}"#)]
#[case::middle(r#"{"x":1,"type":"common","thirst":9}"#)]
#[case::last(r#"{"thirst":9,"x":1,"type":"common"}"#)]
fn four_levels_in_any_tag_position(#[case] text: &str) {
    assert_eq!(
        serde_json::from_str::<Animal>(text).unwrap(),
        Animal::Mammal(Mammal::Bat(Bat::Vampire(Vampire::Common { thirst: 9 })))
    );
}

#[test]
fn aliases_of_children_are_accepted_at_the_top() {
    assert_eq!(
        serde_json::from_str::<Animal>(r#"{"wingspan":2.0,"type":"flying_fox"}"#).unwrap(),
        Animal::Mammal(Mammal::Bat(Bat::Fruit { wingspan: 2.0 }))
    );
}

#[test]
fn unknown_tags_go_to_the_top_fallback_and_list_every_level() {
    let text = r#"{"type":"bird","wings":2}"#;
    let Animal::Other(u) = serde_json::from_str(text).unwrap() else {
        panic!()
    };
    assert_eq!(serde_json::to_string(&u).unwrap(), text);
    let err = serde_json::from_str::<Mammal>(r#"{"type":"bird"}"#).unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"unknown subtype tag "bird", expected one of "whale", "fruit", "flying_fox", "common", "hairy" at line 1 column 14"#
    );
}

#[rstest]
#[case::body_error_deep(
    r#"{"type":"common","thirst":"a lot"}"#,
    r#"invalid type: string "a lot", expected u8 at line 1 column 33"#
)]
#[case::duplicate_across_levels(
    r#"{"type":"common","type":"whale"}"#,
    "duplicate field `type` at line 1 column 23"
)]
#[case::duplicate_after_prefix(
    r#"{"thirst":1,"type":"common","type":"common"}"#,
    "duplicate field `type` at line 1 column 34"
)]
fn errors_at_depth(#[case] text: &str, #[case] message: &str) {
    let err = serde_json::from_str::<Animal>(text).unwrap_err();
    assert_eq!(err.to_string(), message);
}

// Collisions are found on first use, deterministically.

#[json_subtypes(tag = "type")]
#[derive(Debug)]
enum Clashing {
    #[json_subtypes(name = "whale")]
    Whale { tons: u32 },
    #[json_subtypes(nested)]
    Mammal(Mammal),
}

#[json_subtypes(tag = "type")]
#[derive(Debug)]
enum Seabird {
    #[json_subtypes(name = "hairy")]
    Gull,
}

#[json_subtypes(tag = "type")]
#[derive(Debug)]
enum TwoChildren {
    #[json_subtypes(nested)]
    Mammal(Mammal),
    #[json_subtypes(nested)]
    Seabird(Seabird),
}

#[json_subtypes(tag = "kind")]
#[derive(Debug)]
enum OtherKey {
    Thing,
}

#[json_subtypes(tag = "type")]
#[derive(Debug)]
enum WrongKey {
    Fish,
    #[json_subtypes(nested)]
    Other(OtherKey),
}

/// A child in the externally tagged form has no tag key to share.
#[json_subtypes(external)]
#[derive(Debug)]
enum Wrapped {
    Dog { name: String },
}

#[json_subtypes(tag = "type")]
#[derive(Debug)]
enum ExternalChild {
    Fish,
    #[json_subtypes(nested)]
    Pet(Wrapped),
}

/// The wrong key one level further down: found through the child.
#[json_subtypes(tag = "type")]
#[derive(Debug)]
enum WrongGrandchildKey {
    Bird,
    #[json_subtypes(nested)]
    Child(WrongKey),
}

#[rstest]
#[case::tag_of_the_parent_and_a_child(
    serde_json::from_str::<Clashing>(r#"{"type":"whale","tons":1}"#).map(drop),
    r#"subtype tag "whale" is claimed by both Clashing::Whale and Mammal::Whale"#
)]
#[case::even_for_other_tags(
    serde_json::from_str::<Clashing>(r#"{"type":"fruit","wingspan":1}"#).map(drop),
    r#"subtype tag "whale" is claimed by both Clashing::Whale and Mammal::Whale"#
)]
#[case::two_children(
    serde_json::from_str::<TwoChildren>(r#"{"type":"whale","tons":1}"#).map(drop),
    r#"subtype tag "hairy" is claimed by both Vampire::Hairy and Seabird::Gull"#
)]
#[case::child_with_another_key(
    serde_json::from_str::<WrongKey>(r#"{"type":"Fish"}"#).map(drop),
    "nested enum OtherKey has the tag key `kind`, not `type`; a `nested` variant needs the same key (without `nested`, each level keeps its own key)"
)]
#[case::grandchild_with_another_key(
    serde_json::from_str::<WrongGrandchildKey>(r#"{"type":"Thing"}"#).map(drop),
    "nested enum OtherKey has the tag key `kind`, not `type`; a `nested` variant needs the same key (without `nested`, each level keeps its own key)"
)]
#[case::externally_tagged_child(
    serde_json::from_str::<ExternalChild>(r#"{"type":"Dog","name":"Rex"}"#).map(drop),
    "nested enum Wrapped has no tag key (it is externally tagged, or picks variants by their fields), not `type`; a `nested` variant needs the same key (without `nested`, the child is read as an ordinary payload)"
)]
#[case::grandchild_with_another_key_for_other_tags(
    serde_json::from_str::<WrongGrandchildKey>(r#"{"type":"Bird"}"#).map(drop),
    "nested enum OtherKey has the tag key `kind`, not `type`; a `nested` variant needs the same key (without `nested`, each level keeps its own key)"
)]
fn collisions_are_errors_at_use(
    #[case] result: Result<(), serde_json::Error>,
    #[case] message: &str,
) {
    let err = result.unwrap_err();
    assert_eq!(err.to_string().split(" at line").next().unwrap(), message);
}

// ---------------------------------------------------------------------------
// A key per level.

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Rock {
    hardness: u8,
}

#[json_subtypes(tag = "species")]
#[derive(Debug, Clone, PartialEq)]
enum Species {
    #[json_subtypes(name = "dog")]
    Dog { name: String },
    #[json_subtypes(name = "cat")]
    Cat,
    #[json_subtypes(fallback)]
    Unknown(Unknown),
}

#[json_subtypes(tag = "kind")]
#[derive(Debug, Clone, PartialEq)]
enum Thing {
    #[json_subtypes(name = "animal")]
    Animal(Species),
    #[json_subtypes(name = "mineral")]
    Mineral(Rock),
    #[json_subtypes(fallback)]
    Other(Unknown),
}

#[rstest]
#[case::kind_then_species(r#"{"kind":"animal","species":"dog","name":"a"}"#)]
#[case::species_then_kind(r#"{"species":"dog","kind":"animal","name":"a"}"#)]
#[case::both_last(r#"{"name":"a","species":"dog","kind":"animal"}"#)]
#[case::kind_last(r#"{"species":"dog","name":"a","kind":"animal"}"#)]
fn levels_with_their_own_keys(#[case] text: &str) {
    let value: Thing = serde_json::from_str(text).unwrap();
    assert_eq!(value, Thing::Animal(Species::Dog { name: "a".into() }));
    assert_eq!(
        serde_json::to_string(&value).unwrap(),
        r#"{"kind":"animal","species":"dog","name":"a"}"#
    );
}

#[test]
fn each_level_keeps_its_own_fallback_and_errors() {
    // An unknown level-2 tag lands in level 2's fallback, not level 1's.
    let text = r#"{"kind":"animal","species":"emu","legs":2}"#;
    let value: Thing = serde_json::from_str(text).unwrap();
    let Thing::Animal(Species::Unknown(u)) = &value else {
        panic!("{value:?}")
    };
    assert_eq!(u.tag::<String>().unwrap().unwrap(), "emu");
    assert_eq!(serde_json::to_string(&value).unwrap(), text);
    // An unknown level-1 tag lands in level 1's.
    let value: Thing = serde_json::from_str(r#"{"kind":"plant","species":"dog"}"#).unwrap();
    assert!(matches!(value, Thing::Other(_)));
    assert_eq!(
        serde_json::to_string(&Thing::Animal(Species::Cat)).unwrap(),
        r#"{"kind":"animal","species":"cat"}"#
    );
}

#[json_subtypes(tag = "species")]
#[derive(Debug, Clone, PartialEq)]
enum StrictSpecies {
    #[json_subtypes(name = "dog")]
    Dog { name: String },
}

#[json_subtypes(tag = "kind")]
#[derive(Debug, Clone, PartialEq)]
enum StrictThing {
    #[json_subtypes(name = "animal")]
    Animal(StrictSpecies),
}

#[rstest]
#[case::missing_level_2_tag(
    r#"{"kind":"animal","name":"a"}"#,
    "missing field `species` at line 1 column 28"
)]
#[case::unknown_level_2_tag(
    r#"{"species":"emu","kind":"animal"}"#,
    r#"unknown subtype tag "emu", expected "dog" at line 1 column 33"#
)]
#[case::duplicate_level_2_tag(
    r#"{"kind":"animal","species":"dog","species":"dog"}"#,
    "duplicate field `species` at line 1 column 42"
)]
#[case::duplicate_level_1_tag(
    r#"{"kind":"animal","species":"dog","kind":"animal"}"#,
    "duplicate field `kind` at line 1 column 39"
)]
fn level_2_errors(#[case] text: &str, #[case] message: &str) {
    let err = serde_json::from_str::<StrictThing>(text).unwrap_err();
    assert_eq!(err.to_string(), message);
}

// ---------------------------------------------------------------------------
// Mixed modes.

#[json_subtypes]
#[derive(Debug, Clone, PartialEq)]
enum Payment {
    #[json_subtypes(when_field = "iban")]
    Transfer { iban: String },
    #[json_subtypes(when_field = "card")]
    Card { card: String },
    #[json_subtypes(fallback)]
    Other(Unknown),
}

#[json_subtypes(tag = "event")]
#[derive(Debug, Clone, PartialEq)]
enum Event {
    #[json_subtypes(name = "paid")]
    Paid(Payment),
    #[json_subtypes(name = "refunded")]
    Refunded { amount: u32 },
}

#[rstest]
#[case(r#"{"event":"paid","iban":"DE1"}"#, Event::Paid(Payment::Transfer { iban: "DE1".into() }))]
#[case(r#"{"card":"4111","event":"paid"}"#, Event::Paid(Payment::Card { card: "4111".into() }))]
fn tag_then_presence(#[case] text: &str, #[case] expected: Event) {
    let value: Event = serde_json::from_str(text).unwrap();
    assert_eq!(value, expected);
    let back: Event = serde_json::from_str(&serde_json::to_string(&value).unwrap()).unwrap();
    assert_eq!(back, value);
}

#[test]
fn presence_level_keeps_its_own_fallback() {
    let text = r#"{"event":"paid","voucher":"X"}"#;
    let value: Event = serde_json::from_str(text).unwrap();
    let Event::Paid(Payment::Other(u)) = &value else {
        panic!()
    };
    assert_eq!(u.keys().collect::<Vec<_>>(), ["voucher"]);
    assert_eq!(serde_json::to_string(&value).unwrap(), text);
}

#[json_subtypes]
#[derive(Debug, Clone, PartialEq)]
enum Message {
    #[json_subtypes(when_field = "payload")]
    Data { payload: Event },
    #[json_subtypes(when_field = "event")]
    Bare(Event),
}

#[rstest]
#[case(r#"{"payload":{"amount":3,"event":"refunded"}}"#, Message::Data { payload: Event::Refunded { amount: 3 } })]
#[case(r#"{"amount":3,"event":"refunded"}"#, Message::Bare(Event::Refunded { amount: 3 }))]
fn presence_then_tag(#[case] text: &str, #[case] expected: Message) {
    let value: Message = serde_json::from_str(text).unwrap();
    assert_eq!(value, expected);
    let back: Message = serde_json::from_str(&serde_json::to_string(&value).unwrap()).unwrap();
    assert_eq!(back, value);
}

// ---------------------------------------------------------------------------
// Recursive types.

#[json_subtypes(tag = "op", rename_all = "lowercase")]
#[derive(Debug, Clone, PartialEq)]
enum Expr {
    Num { value: i64 },
    Neg { arg: Box<Expr> },
    Add { args: Vec<Expr> },
}

fn chain(depth: usize) -> Expr {
    let mut e = Expr::Num { value: 1 };
    for i in 0..depth {
        e = if i % 2 == 0 {
            Expr::Neg { arg: Box::new(e) }
        } else {
            Expr::Add {
                args: vec![Expr::Num { value: 2 }, e],
            }
        };
    }
    e
}

/// The chain written with the tag of every object after its fields.
fn tag_last(e: &Expr) -> String {
    match e {
        Expr::Num { value } => format!(r#"{{"value":{value},"op":"num"}}"#),
        Expr::Neg { arg } => format!(r#"{{"arg":{},"op":"neg"}}"#, tag_last(arg)),
        Expr::Add { args } => {
            let args: Vec<String> = args.iter().map(tag_last).collect();
            format!(r#"{{"args":[{}],"op":"add"}}"#, args.join(","))
        }
    }
}

fn eval(e: &Expr) -> i64 {
    match e {
        Expr::Num { value } => *value,
        Expr::Neg { arg } => -eval(arg),
        Expr::Add { args } => args.iter().map(eval).sum(),
    }
}

#[rstest]
#[case::tag_first(false)]
#[case::tag_last(true)]
fn recursive_types_a_hundred_levels_deep_on_a_small_stack(#[case] last: bool) {
    // serde_json's own nesting limit (128) counts objects and arrays: a
    // chain of 80 here is 120 levels of JSON.
    let handle = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || {
            let expr = chain(80);
            let text = if last {
                tag_last(&expr)
            } else {
                serde_json::to_string(&expr).unwrap()
            };
            let back: Expr = serde_json::from_str(&text).unwrap();
            assert_eq!(back, expr);
            assert_eq!(eval(&back), eval(&expr));
        })
        .unwrap();
    handle.join().unwrap();
}

#[test]
fn too_deep_input_is_an_error() {
    let text = tag_last(&chain(200));
    let err = serde_json::from_str::<Expr>(&text).unwrap_err();
    assert!(
        err.to_string().starts_with("recursion limit exceeded"),
        "{err}"
    );
}

// ---------------------------------------------------------------------------
// A `nested` variant with serde attributes of its own is read through them:
// the child is handed its tag entry again instead of being built directly.

static COUNTED_READS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

fn counted<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Mammal, D::Error> {
    COUNTED_READS.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    Mammal::deserialize(deserializer)
}

#[json_subtypes(tag = "type", rename_all = "lowercase")]
#[derive(Debug, Clone, PartialEq)]
enum Counted {
    Fish,
    #[json_subtypes(nested)]
    Mammal(#[serde(deserialize_with = "counted")] Mammal),
}

#[rstest]
#[case::tag_first(r#"{"type":"whale","tons":3}"#, Mammal::Whale { tons: 3 })]
#[case::tag_last(r#"{"tons":3,"type":"whale"}"#, Mammal::Whale { tons: 3 })]
#[case::escaped_tag(r#"{"type":"wh\u0061le","tons":3}"#, Mammal::Whale { tons: 3 })]
#[case::two_levels_down(
    r#"{"type":"common","thirst":7}"#,
    Mammal::Bat(Bat::Vampire(Vampire::Common { thirst: 7 }))
)]
fn nested_variant_with_serde_attributes(#[case] json: &str, #[case] expected: Mammal) {
    let before = COUNTED_READS.load(std::sync::atomic::Ordering::SeqCst);
    let value: Counted = serde_json::from_str(json).unwrap();
    assert_eq!(value, Counted::Mammal(expected));
    assert!(COUNTED_READS.load(std::sync::atomic::Ordering::SeqCst) > before);
    let back = serde_json::to_string(&value).unwrap();
    assert_eq!(serde_json::from_str::<Counted>(&back).unwrap(), value);
}

#[rstest]
#[case::duplicate_tag(
    r#"{"type":"whale","type":"whale","tons":3}"#,
    "duplicate field `type` at line 1 column 22"
)]
#[case::bad_body(
    r#"{"type":"whale","tons":"x"}"#,
    "invalid type: string \"x\", expected u32 at line 1 column 26"
)]
fn nested_variant_with_serde_attributes_errors(#[case] json: &str, #[case] message: &str) {
    let err = serde_json::from_str::<Counted>(json).unwrap_err();
    assert_eq!(err.to_string(), message);
}
