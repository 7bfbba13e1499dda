//! JSON Schema (the `schemars` feature): every kind of variant validates the
//! JSON the enum writes and reads, and wrong or missing tags do not; the
//! key parts of each schema (`oneOf`, `const`, `discriminator`) are pinned.
#![cfg(feature = "schemars")]

mod common;

use common::{one_of, schema_of, validator};
use json_subtypes::{json_subtypes, Unknown};
use rstest::rstest;
use schemars::generate::SchemaSettings;
use schemars::{JsonSchema, SchemaGenerator};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// The `const` (or `enum`) the branch puts on `key`, wherever the branch
/// keeps it.
fn tag_of(branch: &Value, key: &str) -> Value {
    let direct = &branch["properties"][key];
    let tag = if direct.is_null() {
        &branch["allOf"][0]["properties"][key]
    } else {
        direct
    };
    if tag["const"].is_null() {
        tag["enum"].clone()
    } else {
        tag["const"].clone()
    }
}

// ---------------------------------------------------------------------------
// String tags: every variant kind.

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
struct Dog {
    name: String,
    #[serde(default)]
    age: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct Cat {
    lives_left: u8,
}

/// An animal.
///
/// Told apart by its `type`.
#[json_subtypes(tag = "type")]
#[derive(Debug, Clone, PartialEq)]
enum Animal {
    Dog(Dog),
    #[json_subtypes(name = "cat", alias = "kitty")]
    Cat(Cat),
    /// A bird, with its wingspan.
    Bird {
        name: String,
        #[serde(rename = "wingspan")]
        wingspan_cm: f32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ring: Option<u32>,
    },
    Fish,
}

fn animals() -> Vec<Animal> {
    vec![
        Animal::Dog(Dog {
            name: "Rex".into(),
            age: 3,
        }),
        Animal::Cat(Cat { lives_left: 9 }),
        Animal::Bird {
            name: "Tweety".into(),
            wingspan_cm: 20.5,
            ring: Some(7),
        },
        Animal::Bird {
            name: "Zazu".into(),
            wingspan_cm: 1.0,
            ring: None,
        },
        Animal::Fish,
    ]
}

#[test]
fn string_tags_pin_the_key_parts() {
    let schema = schema_of::<Animal>();
    // The enum's doc comment, as schemars' derive gives serde's enums.
    assert_eq!(
        schema["description"],
        "An animal.\n\nTold apart by its `type`."
    );
    let branches = one_of(&schema);
    assert_eq!(branches.len(), 4);
    let tags: Vec<Value> = branches.iter().map(|b| tag_of(b, "type")).collect();
    assert_eq!(
        tags,
        [
            json!("Dog"),
            json!(["cat", "kitty"]),
            json!("Bird"),
            json!("Fish")
        ]
    );
    assert_eq!(
        branches[0]["allOf"][0]["properties"]["type"]["type"],
        "string"
    );
    assert_eq!(branches[0]["allOf"][1], json!({ "$ref": "#/$defs/Dog" }));
    assert_eq!(
        schema["discriminator"],
        json!({
            "propertyName": "type",
            "mapping": {
                "Dog": "#/$defs/Dog",
                "cat": "#/$defs/Cat",
                "kitty": "#/$defs/Cat",
            }
        })
    );
    // The struct variant is an object of its own fields, the tag first.
    let bird = &branches[2];
    assert_eq!(bird["required"], json!(["type", "name", "wingspan"]));
    assert_eq!(
        bird["properties"]["ring"]["type"],
        json!(["integer", "null"])
    );
    assert_eq!(bird["description"], "A bird, with its wingspan.");
    assert_eq!(
        branches[3],
        json!({
            "type": "object",
            "properties": { "type": { "type": "string", "const": "Fish" } },
            "required": ["type"],
        })
    );
}

#[test]
fn everything_the_enum_writes_validates() {
    let valid = validator(&schema_of::<Animal>());
    for animal in animals() {
        let written = serde_json::to_value(&animal).unwrap();
        assert!(valid(&written), "{written}");
    }
    // Aliases and fields in any order, as the reader takes them.
    assert!(valid(&json!({ "livesLeft": 1, "type": "kitty" })));
    assert!(valid(&json!({ "name": "Rex", "type": "Dog" })));
}

#[rstest]
#[case::unknown_tag(json!({ "type": "cow", "name": "x" }))]
#[case::missing_tag(json!({ "name": "Rex" }))]
#[case::null_tag(json!({ "type": null, "name": "Rex" }))]
#[case::tag_of_the_wrong_kind(json!({ "type": 1, "name": "Rex" }))]
#[case::tag_in_the_wrong_case(json!({ "type": "fish" }))]
#[case::known_tag_bad_body(json!({ "type": "Dog", "name": 5 }))]
#[case::known_tag_missing_field(json!({ "type": "cat" }))]
#[case::struct_variant_missing_field(json!({ "type": "Bird", "name": "x" }))]
#[case::struct_variant_field_by_rust_name(json!({ "type": "Bird", "name": "x", "wingspan_cm": 1.0 }))]
#[case::not_an_object(json!("Fish"))]
fn wrong_or_missing_tags_do_not_validate(#[case] instance: Value) {
    let valid = validator(&schema_of::<Animal>());
    assert!(!valid(&instance), "{instance}");
    // And the enum agrees.
    assert!(serde_json::from_value::<Animal>(instance).is_err());
}

#[test]
fn the_enum_is_a_named_schema_inside_other_types() {
    #[derive(Serialize, JsonSchema)]
    struct Zoo {
        animals: Vec<Animal>,
    }
    let schema = schema_of::<Zoo>();
    assert_eq!(
        schema["properties"]["animals"]["items"],
        json!({ "$ref": "#/$defs/Animal" })
    );
    assert_eq!(one_of(&schema["$defs"]["Animal"]).len(), 4);
    let valid = validator(&schema);
    let zoo = Zoo { animals: animals() };
    assert!(valid(&serde_json::to_value(&zoo).unwrap()));
    assert!(!valid(&json!({ "animals": [{ "type": "cow" }] })));
}

#[test]
fn openapi_settings_map_tags_to_component_schemas() {
    let generator = SchemaGenerator::new(SchemaSettings::openapi3());
    let schema = serde_json::to_value(generator.into_root_schema_for::<Animal>()).unwrap();
    assert_eq!(
        schema["discriminator"]["mapping"]["cat"],
        "#/components/schemas/Cat"
    );
}

// ---------------------------------------------------------------------------
// Integer and bool tags: `const` with the JSON type, no discriminator.

#[json_subtypes(tag = "kind")]
#[derive(Debug, Clone, PartialEq)]
enum Shape {
    #[json_subtypes(name = 1)]
    Circle { r: f64 },
    #[json_subtypes(name = -2)]
    Square { side: f64 },
    #[json_subtypes(name = true)]
    Point,
}

#[test]
fn int_and_bool_tags_get_typed_consts_and_no_discriminator() {
    let schema = schema_of::<Shape>();
    let tags: Vec<(Value, Value)> = one_of(&schema)
        .iter()
        .map(|b| {
            let tag = &b["properties"]["kind"];
            (tag["type"].clone(), tag["const"].clone())
        })
        .collect();
    assert_eq!(
        tags,
        [
            (json!("integer"), json!(1)),
            (json!("integer"), json!(-2)),
            (json!("boolean"), json!(true)),
        ]
    );
    assert!(schema.get("discriminator").is_none());

    let valid = validator(&schema);
    for shape in [
        Shape::Circle { r: 1.0 },
        Shape::Square { side: 2.0 },
        Shape::Point,
    ] {
        assert!(valid(&serde_json::to_value(&shape).unwrap()));
    }
    assert!(!valid(&json!({ "kind": "1", "r": 1.0 })));
    assert!(!valid(&json!({ "kind": 1.5, "r": 1.0 })));
    assert!(!valid(&json!({ "kind": false })));
    assert!(!valid(&json!({ "r": 1.0 })));
}

// ---------------------------------------------------------------------------
// Fallback: anything but a known tag.

#[json_subtypes(tag = "type")]
#[derive(Debug, Clone, PartialEq)]
enum Pet {
    #[json_subtypes(name = "dog")]
    Dog(Dog),
    #[json_subtypes(fallback)]
    Other(Unknown),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
struct Named {
    name: String,
}

#[json_subtypes(tag = "type")]
#[derive(Debug, Clone, PartialEq)]
enum Labelled {
    #[json_subtypes(name = "dog")]
    Dog(Dog),
    #[json_subtypes(fallback)]
    Other(Named),
}

#[test]
fn fallback_takes_every_object_without_a_known_tag() {
    let schema = schema_of::<Pet>();
    let branches = one_of(&schema);
    assert_eq!(branches.len(), 2);
    assert_eq!(
        branches[1],
        json!({
            "type": "object",
            "not": { "properties": { "type": { "enum": ["dog"] } }, "required": ["type"] },
        })
    );
    let valid = validator(&schema);
    for instance in [
        json!({ "type": "cow", "moo": true }),
        json!({ "moo": true }),
        json!({ "type": null }),
        json!({ "type": 3 }),
        json!({}),
        json!({ "type": "dog", "name": "Rex" }),
    ] {
        assert!(valid(&instance), "{instance}");
        assert!(serde_json::from_value::<Pet>(instance).is_ok());
    }
    // A known tag with a bad body is the body's error, never the fallback.
    let bad = json!({ "type": "dog", "name": 5 });
    assert!(!valid(&bad));
    assert!(serde_json::from_value::<Pet>(bad).is_err());
    assert!(!valid(&json!("dog")));
}

#[test]
fn a_typed_fallback_payload_keeps_its_own_schema() {
    let valid = validator(&schema_of::<Labelled>());
    assert!(valid(&json!({ "type": "cow", "name": "x" })));
    assert!(!valid(&json!({ "type": "cow" })));
}

// ---------------------------------------------------------------------------
// Hierarchies: a nested child's variants join the parent's oneOf.

#[json_subtypes(tag = "type", rename_all = "lowercase")]
#[derive(Debug, Clone, PartialEq)]
enum Creature {
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
    #[json_subtypes(alias = "orca")]
    Whale {
        tons: u32,
    },
    Dog(Dog),
    #[json_subtypes(nested)]
    Bat(Bat),
    #[json_subtypes(fallback)]
    Unsure(Unknown),
}

#[json_subtypes(tag = "type", rename_all = "lowercase")]
#[derive(Debug, Clone, PartialEq)]
enum Bat {
    Fruit { wingspan: f32 },
    Vampire,
}

#[test]
fn nested_children_are_spliced_in_without_their_fallbacks() {
    let schema = schema_of::<Creature>();
    let branches = one_of(&schema);
    let tags: Vec<Value> = branches.iter().map(|b| tag_of(b, "type")).collect();
    assert_eq!(
        tags,
        [
            json!("fish"),
            json!(["whale", "orca"]),
            json!("dog"),
            json!("fruit"),
            json!("vampire"),
            Value::Null,
        ]
    );
    assert_eq!(
        branches[5]["not"]["properties"]["type"]["enum"],
        json!(["fish", "whale", "orca", "dog", "fruit", "vampire"])
    );
    assert_eq!(
        schema["discriminator"]["mapping"],
        json!({ "dog": "#/$defs/Dog" })
    );

    let valid = validator(&schema);
    for creature in [
        Creature::Fish { fins: 2 },
        Creature::Mammal(Mammal::Whale { tons: 40 }),
        Creature::Mammal(Mammal::Bat(Bat::Fruit { wingspan: 1.5 })),
        Creature::Mammal(Mammal::Bat(Bat::Vampire)),
    ] {
        let written = serde_json::to_value(&creature).unwrap();
        assert!(valid(&written), "{written}");
    }
    assert!(valid(&json!({ "type": "orca", "tons": 1 })));
    assert!(valid(&json!({ "type": "bird" })));
    assert!(!valid(&json!({ "type": "whale" })));
    // The child on its own keeps its fallback.
    let child = schema_of::<Mammal>();
    assert_eq!(one_of(&child).len(), 5);
}

// ---------------------------------------------------------------------------
// Presence mode.

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
struct Developer {
    name: String,
    skill: Option<String>,
}

#[json_subtypes]
#[derive(Debug, Clone, PartialEq)]
enum Employee {
    #[json_subtypes(when_field = "skill")]
    Developer(Developer),
    #[json_subtypes(when_field = "reports", when_field = "team")]
    Manager { name: String, reports: Vec<String> },
}

#[json_subtypes(first_match)]
#[derive(Debug, Clone, PartialEq)]
enum Contact {
    #[json_subtypes(when_field = "email")]
    Email { email: String },
    #[json_subtypes(when_field = "phone")]
    Phone { phone: String },
    #[json_subtypes(fallback)]
    Other(Unknown),
}

#[test]
fn presence_variants_require_their_fields() {
    let schema = schema_of::<Employee>();
    let branches = one_of(&schema);
    assert_eq!(branches.len(), 2);
    assert_eq!(branches[0]["allOf"][0]["required"], json!(["skill"]));
    // A struct variant's own object carries the condition.
    assert_eq!(
        branches[1]["anyOf"],
        json!([{ "required": ["reports"] }, { "required": ["team"] }])
    );
    assert_eq!(branches[1]["required"], json!(["name", "reports"]));
    assert!(schema.get("discriminator").is_none());

    let valid = validator(&schema);
    for instance in [
        json!({ "name": "a", "skill": null }),
        json!({ "name": "m", "reports": [] }),
        json!({ "team": "x", "name": "m", "reports": ["a"] }),
    ] {
        assert!(valid(&instance), "{instance}");
        assert!(serde_json::from_value::<Employee>(instance).is_ok());
    }
    for instance in [
        json!({ "name": "x" }),
        json!({ "name": "x", "skill": null, "reports": [] }),
        json!({ "name": "x", "team": "t" }),
    ] {
        assert!(!valid(&instance), "{instance}");
        assert!(serde_json::from_value::<Employee>(instance).is_err());
    }
}

#[test]
fn first_match_keeps_branches_exclusive() {
    let schema = schema_of::<Contact>();
    let valid = validator(&schema);
    for instance in [
        json!({ "email": "a@b" }),
        json!({ "phone": "1" }),
        // Both: the first declared wins, and exactly one branch says so.
        json!({ "email": "a@b", "phone": "1" }),
        json!({ "fax": "2" }),
    ] {
        assert!(valid(&instance), "{instance}");
        assert!(serde_json::from_value::<Contact>(instance).is_ok());
    }
    assert!(!valid(&json!({ "phone": 1 })));
}

// ---------------------------------------------------------------------------
// `tag_type`: the constant as its type writes it.

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
enum Kind {
    Dog,
    Cat,
}

#[json_subtypes(tag = "kind", tag_type = Kind)]
#[derive(Debug, Clone, PartialEq)]
enum Typed {
    #[json_subtypes(name = Kind::Dog)]
    Dog(Dog),
    #[json_subtypes(name = Kind::Cat)]
    Cat { lives: u8 },
}

#[derive(
    Debug, Clone, Copy, PartialEq, serde_repr::Serialize_repr, serde_repr::Deserialize_repr,
)]
#[repr(u8)]
enum Code {
    One = 1,
    Two = 2,
}

#[json_subtypes(tag = "code", tag_type = Code)]
#[derive(Debug, Clone, PartialEq)]
enum Coded {
    #[json_subtypes(name = Code::One)]
    One,
    #[json_subtypes(name = Code::Two)]
    Two { x: i32 },
}

#[test]
fn typed_tags_are_serialized_constants() {
    let schema = schema_of::<Typed>();
    let tags: Vec<Value> = one_of(&schema).iter().map(|b| tag_of(b, "kind")).collect();
    assert_eq!(tags, [json!("DOG"), json!("CAT")]);
    assert_eq!(
        schema["discriminator"]["mapping"],
        json!({ "DOG": "#/$defs/Dog" })
    );
    let valid = validator(&schema);
    assert!(valid(
        &serde_json::to_value(Typed::Cat { lives: 3 }).unwrap()
    ));
    assert!(valid(&json!({ "kind": "DOG", "name": "Rex" })));
    assert!(!valid(&json!({ "kind": "dog", "name": "Rex" })));

    let schema = schema_of::<Coded>();
    assert_eq!(
        one_of(&schema)[0]["properties"]["code"],
        json!({ "type": "integer", "const": 1 })
    );
    assert!(schema.get("discriminator").is_none());
    let valid = validator(&schema);
    assert!(valid(&serde_json::to_value(Coded::Two { x: 1 }).unwrap()));
    assert!(valid(&serde_json::to_value(Coded::One).unwrap()));
    assert!(!valid(&json!({ "code": 3 })));
}

// ---------------------------------------------------------------------------
// Field attributes, generics, recursion and payloads without a schema.

#[json_subtypes(tag = "t")]
#[serde(rename_all_fields = "camelCase", deny_unknown_fields)]
#[derive(Debug, Clone, PartialEq)]
enum Fields {
    A {
        first_name: String,
        #[serde(rename(serialize = "out", deserialize = "in"))]
        renamed: u8,
        #[serde(skip)]
        skipped: u8,
        #[serde(default = "seven")]
        defaulted: u8,
        #[serde(with = "as_text")]
        custom: u8,
    },
    // A variant's own rule wins over the enum's.
    #[serde(rename_all = "SCREAMING_SNAKE_CASE")]
    B { last_name: String },
}

fn seven() -> u8 {
    7
}

mod as_text {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &u8, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&v.to_string())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u8, D::Error> {
        String::deserialize(d)?
            .parse()
            .map_err(serde::de::Error::custom)
    }
}

#[test]
fn struct_variant_fields_follow_their_serde_attributes() {
    let schema = schema_of::<Fields>();
    let a = &one_of(&schema)[0];
    let mut names: Vec<&String> = a["properties"].as_object().unwrap().keys().collect();
    names.sort();
    assert_eq!(names, ["custom", "defaulted", "firstName", "in", "t"]);
    assert_eq!(a["required"], json!(["t", "firstName", "in", "custom"]));
    assert_eq!(a["additionalProperties"], false);
    // A field read `with` a function accepts what the function may take.
    assert_eq!(a["properties"]["custom"], true);

    let valid = validator(&schema);
    let instance = json!({ "t": "A", "firstName": "x", "in": 1, "custom": "5" });
    assert!(valid(&instance));
    assert!(serde_json::from_value::<Fields>(instance).is_ok());
    assert!(!valid(
        &json!({ "t": "A", "firstName": "x", "in": 1, "custom": "5", "extra": 1 })
    ));
    let b = &one_of(&schema)[1];
    let mut names: Vec<&String> = b["properties"].as_object().unwrap().keys().collect();
    names.sort();
    assert_eq!(names, ["LAST_NAME", "t"]);
    let instance = serde_json::to_value(Fields::B {
        last_name: "y".into(),
    })
    .unwrap();
    assert_eq!(instance, json!({ "t": "B", "LAST_NAME": "y" }));
    assert!(valid(&instance));

    // The serialize contract uses the written names.
    let generator = SchemaSettings::draft2020_12()
        .for_serialize()
        .into_generator();
    let schema = serde_json::to_value(generator.into_root_schema_for::<Fields>()).unwrap();
    let written = serde_json::to_value(Fields::A {
        first_name: "x".into(),
        renamed: 1,
        skipped: 0,
        defaulted: 2,
        custom: 3,
    })
    .unwrap();
    assert!(validator(&schema)(&written), "{written}");
}

#[json_subtypes(tag = "type")]
#[derive(Debug, Clone, PartialEq)]
enum Wrapper<T> {
    Item { value: T },
    List(Page<T>),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
struct Page<T> {
    items: Vec<T>,
}

#[test]
fn generic_enums_use_their_parameters_schemas() {
    let schema = schema_of::<Wrapper<u8>>();
    let valid = validator(&schema);
    assert!(valid(
        &serde_json::to_value(Wrapper::Item { value: 3u8 }).unwrap()
    ));
    assert!(valid(
        &serde_json::to_value(Wrapper::List(Page { items: vec![1u8] })).unwrap()
    ));
    assert!(!valid(&json!({ "type": "Item", "value": "x" })));
    // Two instances get two definitions.
    #[derive(JsonSchema)]
    #[allow(dead_code)]
    struct Both {
        a: Wrapper<u8>,
        b: Wrapper<String>,
    }
    let both = schema_of::<Both>();
    assert_eq!(both["$defs"].as_object().unwrap().len(), 4);
}

#[json_subtypes(tag = "op")]
#[derive(Debug, Clone, PartialEq)]
enum Expr {
    Num { value: i64 },
    Neg { arg: Box<Expr> },
    Sum { terms: Vec<Expr> },
}

#[test]
fn recursive_enums_refer_to_themselves() {
    let schema = schema_of::<Expr>();
    let valid = validator(&schema);
    let expr = Expr::Sum {
        terms: vec![
            Expr::Neg {
                arg: Box::new(Expr::Num { value: 1 }),
            },
            Expr::Sum { terms: vec![] },
        ],
    };
    assert!(valid(&serde_json::to_value(&expr).unwrap()));
    assert!(!valid(&json!({ "op": "Sum", "terms": [{ "op": "Num" }] })));
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct NoSchema {
    x: u8,
}

#[json_subtypes(tag = "type")]
#[derive(Debug, Clone, PartialEq)]
enum Partly {
    Known(Dog),
    Opaque(NoSchema),
    Field { inner: NoSchema },
}

#[test]
fn payloads_without_a_schema_are_described_as_anything() {
    let schema = schema_of::<Partly>();
    let branches = one_of(&schema);
    assert_eq!(
        branches[1],
        json!({
            "type": "object",
            "properties": { "type": { "type": "string", "const": "Opaque" } },
            "required": ["type"],
        })
    );
    assert_eq!(branches[2]["properties"]["inner"], true);
    let valid = validator(&schema);
    assert!(valid(&json!({ "type": "Opaque", "anything": [1] })));
    assert!(!valid(&json!({ "type": "Missing" })));
}

// ---------------------------------------------------------------------------
// Variants serde skips on one side are left out of that contract.

#[json_subtypes(tag = "type")]
#[derive(Debug, Clone, PartialEq)]
enum Sided {
    Both {
        a: u8,
    },
    #[serde(skip_deserializing)]
    WriteOnly {
        b: u8,
    },
    #[serde(skip_serializing)]
    ReadOnly {
        c: u8,
    },
}

#[test]
fn skipped_variants_leave_their_contract() {
    let tags = |schema: &Value| -> Vec<Value> {
        one_of(schema).iter().map(|b| tag_of(b, "type")).collect()
    };
    let read = schema_of::<Sided>();
    assert_eq!(tags(&read), [json!("Both"), json!("ReadOnly")]);
    assert!(!validator(&read)(&json!({ "type": "WriteOnly", "b": 1 })));
    assert!(validator(&read)(&json!({ "type": "ReadOnly", "c": 1 })));

    let generator = SchemaSettings::draft2020_12()
        .for_serialize()
        .into_generator();
    let written = serde_json::to_value(generator.into_root_schema_for::<Sided>()).unwrap();
    assert_eq!(tags(&written), [json!("Both"), json!("WriteOnly")]);
    let value = serde_json::to_value(Sided::WriteOnly { b: 1 }).unwrap();
    assert!(validator(&written)(&value), "{value}");
}

/// Variants behind `cfg` and attributes behind `cfg_attr` are in the
/// schema exactly when their predicate holds (`all()` holds, `any()` not).
#[json_subtypes(tag = "type")]
enum Gated {
    #[cfg_attr(all(), json_subtypes(name = "a"))]
    A {
        #[cfg_attr(all(), serde(rename = "x"))]
        a: u8,
        #[cfg(any())]
        debug: u8,
    },
    #[cfg(any())]
    B { b: u8 },
    #[cfg_attr(any(), json_subtypes(name = "never"))]
    C,
}

#[test]
fn gated_variants_and_fields_follow_their_predicates() {
    let schema = schema_of::<Gated>();
    assert_eq!(
        schema["description"],
        "Variants behind `cfg` and attributes behind `cfg_attr` are in the\nschema exactly when their predicate holds (`all()` holds, `any()` not)."
    );
    let branches = one_of(&schema);
    let tags: Vec<Value> = branches.iter().map(|b| tag_of(b, "type")).collect();
    assert_eq!(tags, [json!("a"), json!("C")]);
    assert_eq!(branches[0]["required"], json!(["type", "x"]));
    let valid = validator(&schema);
    assert!(valid(&json!({"type": "a", "x": 1})));
    assert!(!valid(&json!({"type": "B", "b": 1})));
}

// ---------------------------------------------------------------------------
// The externally and adjacently tagged forms: what the enum writes (serde's
// bytes) validates, and so does what it reads besides; a wrong tag or shape
// does not. The fallback takes what no variant claims.

#[json_subtypes(external)]
#[derive(Debug, Clone, PartialEq)]
enum Wrapped {
    Dog(Dog),
    #[json_subtypes(alias = "Kitty")]
    Cat {
        lives: u8,
    },
    Fish,
    Pair(u8, String),
}

#[json_subtypes(tag = "type", content = "value", deny_unknown_fields)]
#[derive(Debug, Clone, PartialEq)]
enum Beside {
    Dog(Dog),
    #[json_subtypes(alias = "Kitty")]
    Cat {
        lives: u8,
    },
    Fish,
    Pair(u8, String),
    #[json_subtypes(fallback)]
    Other(Unknown),
}

#[json_subtypes(external)]
#[derive(Debug, Clone, PartialEq)]
enum WrappedOpen {
    Fish,
    Cat {
        lives: u8,
    },
    #[json_subtypes(fallback)]
    Other(Unknown),
}

fn dog() -> Dog {
    Dog {
        name: "Rex".to_owned(),
        age: 3,
    }
}

#[test]
fn external_form_schema_validates_what_it_writes() {
    let schema = schema_of::<Wrapped>();
    let valid = validator(&schema);
    for value in [
        Wrapped::Dog(dog()),
        Wrapped::Cat { lives: 9 },
        Wrapped::Fish,
        Wrapped::Pair(1, "one".to_owned()),
    ] {
        let written = serde_json::to_value(&value).unwrap();
        assert!(valid(&written), "{written}");
    }
    assert_eq!(
        one_of(&schema)[2],
        json!({ "type": "string", "enum": ["Fish"] })
    );
    assert!(valid(&json!({ "Kitty": { "lives": 9 } })));
    assert!(!valid(&json!("Bird")));
    assert!(!valid(&json!({ "Bird": {} })));
    assert!(!valid(&json!({ "Dog": { "name": "Rex" }, "Fish": null })));
    assert!(!valid(&json!({ "Pair": [1] })));
    assert!(!valid(&json!({ "Cat": { "lives": "nine" } })));
    assert!(schema.get("discriminator").is_none());
}

#[test]
fn external_form_fallback_takes_one_unclaimed_key() {
    let schema = schema_of::<WrappedOpen>();
    let valid = validator(&schema);
    assert!(valid(&json!({ "Bird": { "wings": 2 } })));
    assert!(valid(&json!("Fish")));
    assert!(valid(&json!({ "Cat": { "lives": 9 } })));
    assert!(!valid(&json!({ "Cat": { "lives": "nine" } })));
    assert!(!valid(&json!({ "Bird": 1, "Crow": 2 })));
    assert!(!valid(&json!({})));
}

#[test]
fn adjacent_form_schema_validates_what_it_writes() {
    let schema = schema_of::<Beside>();
    let valid = validator(&schema);
    for value in [
        Beside::Dog(dog()),
        Beside::Cat { lives: 9 },
        Beside::Fish,
        Beside::Pair(1, "one".to_owned()),
    ] {
        let written = serde_json::to_value(&value).unwrap();
        assert!(valid(&written), "{written}");
    }
    assert_eq!(tag_of(&one_of(&schema)[1], "type"), json!(["Cat", "Kitty"]));
    assert_eq!(schema["discriminator"], json!({ "propertyName": "type" }));
    assert!(valid(&json!({ "type": "Kitty", "value": { "lives": 9 } })));
    // The fallback: a tag nobody claims, or none.
    assert!(valid(&json!({ "type": "Bird", "value": [1] })));
    assert!(valid(&json!({ "id": 1 })));
    // A known tag holds its variant's content, and nothing beside.
    assert!(!valid(
        &json!({ "type": "Cat", "value": { "lives": "nine" } })
    ));
    assert!(!valid(&json!({ "type": "Cat" })));
    assert!(!valid(&json!({ "type": "Fish", "id": 1 })));
    assert!(!valid(&json!({ "type": "Pair", "value": [1, "one", 2] })));
}

// ---------------------------------------------------------------------------
// A newtype payload that refuses unknown fields: its branch holds its own
// object with the tag added, so the schema accepts what the reader accepts.

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Strict {
    level: u8,
}

#[json_subtypes(tag = "kind")]
#[derive(Debug, Clone, PartialEq)]
enum Guarded {
    Strict(Strict),
    Dog(Dog),
}

#[test]
fn closed_newtype_payload_accepts_its_tag() {
    let schema = schema_of::<Guarded>();
    let valid = validator(&schema);
    let written = serde_json::to_value(Guarded::Strict(Strict { level: 3 })).unwrap();
    assert_eq!(written, json!({"kind": "Strict", "level": 3}));
    assert!(valid(&written));
    assert_eq!(
        serde_json::from_value::<Guarded>(written).unwrap(),
        Guarded::Strict(Strict { level: 3 })
    );
    // What the reader refuses, the schema refuses.
    let extra = json!({"kind": "Strict", "level": 3, "more": 1});
    assert!(!valid(&extra));
    assert_eq!(
        serde_json::from_value::<Guarded>(extra)
            .unwrap_err()
            .to_string(),
        "unknown field `more`, expected `level`"
    );
    assert!(!valid(&json!({"kind": "Strict"})));
    // The closed payload's branch is its object with the tag, not `allOf`;
    // an open one keeps its `$ref` under `allOf` (and OpenAPI's mapping).
    let branches = one_of(&schema);
    assert_eq!(
        branches[0],
        json!({
            "type": "object",
            "properties": {"kind": {"type": "string", "const": "Strict"}, "level": {"type": "integer", "format": "uint8", "minimum": 0, "maximum": 255}},
            "required": ["kind", "level"],
            "additionalProperties": false,
        })
    );
    assert_eq!(branches[1]["allOf"][1], json!({"$ref": "#/$defs/Dog"}));
    assert!(valid(&json!({"kind": "Dog", "name": "Rex", "extra": true})));
}
