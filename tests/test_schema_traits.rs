//! JSON Schema for trait objects (`#[json_subtypes(tag = "...", schema)]`)
//! and profiles (the `schemars` feature): the schema validates what the
//! registry or profile writes and reads, tag last too, and refuses wrong or
//! missing tags; two profiles give two schemas.
#![cfg(feature = "schemars")]

mod common;

use common::{one_of, schema_of, validator};
use json_subtypes::{json_subtypes, Profile, Unknown};
use rstest::rstest;
use schemars::generate::SchemaSettings;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

// ---------------------------------------------------------------------------
// String tags, an alias and a fallback.

/// A shape, told apart by its `type`.
#[json_subtypes(tag = "type", schema)]
trait Shape {
    fn area(&self) -> f64;
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
struct Circle {
    r: f64,
}

#[json_subtypes(name = "circle", alias = "round")]
impl Shape for Circle {
    fn area(&self) -> f64 {
        3.0 * self.r * self.r
    }
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
struct Square {
    side: f64,
}

#[json_subtypes(name = "square")]
impl Shape for Square {
    fn area(&self) -> f64 {
        self.side * self.side
    }
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(transparent)]
struct OtherShape(Unknown);

#[json_subtypes(fallback)]
impl Shape for OtherShape {
    fn area(&self) -> f64 {
        f64::NAN
    }
}

#[test]
fn trait_objects_get_one_of_their_registered_subtypes() {
    let schema = schema_of::<dyn Shape>();
    // The trait's doc comment, as schemars' derive gives a type's.
    assert_eq!(schema["description"], "A shape, told apart by its `type`.");
    let branches = one_of(&schema);
    assert_eq!(branches.len(), 3);
    // Registrations in type-name order, the fallback last.
    assert_eq!(
        branches[0],
        json!({"allOf": [
            {"type": "object", "properties": {"type": {"type": "string", "enum": ["circle", "round"]}}, "required": ["type"]},
            {"$ref": "#/$defs/Circle"},
        ]})
    );
    assert_eq!(
        branches[1]["allOf"][0]["properties"]["type"],
        json!({"type": "string", "const": "square"})
    );
    assert_eq!(
        branches[2],
        json!({"type": "object", "not": {"properties": {"type": {"enum": ["circle", "round", "square"]}}, "required": ["type"]}})
    );
    assert_eq!(
        schema["discriminator"],
        json!({"propertyName": "type", "mapping": {
            "circle": "#/$defs/Circle", "round": "#/$defs/Circle", "square": "#/$defs/Square",
        }})
    );
    assert_eq!(schema["title"], "Shape");
    assert!(schema["$defs"]["Circle"].is_object());
}

#[rstest]
#[case::written(serde_json::to_value(&(Box::new(Circle { r: 1.0 }) as Box<dyn Shape>)).unwrap())]
#[case::written_square(serde_json::to_value(&(Box::new(Square { side: 1.0 }) as Box<dyn Shape>)).unwrap())]
#[case::tag_last(json!({"r": 1.0, "type": "circle"}))]
#[case::alias(json!({"type": "round", "r": 1.0}))]
#[case::unknown_tag_to_the_fallback(json!({"type": "hexagon", "sides": 6}))]
#[case::no_tag_to_the_fallback(json!({"sides": 6}))]
fn what_the_registry_reads_validates(#[case] instance: Value) {
    let valid = validator(&schema_of::<dyn Shape>());
    assert!(valid(&instance), "{instance}");
    // And the registry reads it.
    let shape: Box<dyn Shape> = serde_json::from_value(instance).unwrap();
    let _ = shape.area();
}

#[rstest]
#[case::bad_body(json!({"type": "circle", "r": "big"}))]
#[case::known_tag_wrong_body(json!({"type": "square", "r": 1.0}))]
#[case::not_an_object(json!([1, 2]))]
fn what_the_registry_refuses_does_not_validate(#[case] instance: Value) {
    let valid = validator(&schema_of::<dyn Shape>());
    assert!(!valid(&instance), "{instance}");
    assert!(serde_json::from_value::<Box<dyn Shape>>(instance).is_err());
}

#[derive(Serialize, Deserialize, JsonSchema)]
struct Drawing {
    shapes: Vec<Box<dyn Shape>>,
}

#[test]
fn boxed_trait_objects_are_a_named_schema_inside_other_types() {
    let schema = schema_of::<Drawing>();
    assert_eq!(
        schema["properties"]["shapes"]["items"],
        json!({"$ref": "#/$defs/Shape"})
    );
    let valid = validator(&schema);
    let drawing =
        json!({"shapes": [{"type": "circle", "r": 1.0}, {"side": 2.0, "type": "square"}]});
    assert!(valid(&drawing));
    assert!(!valid(
        &json!({"shapes": [{"type": "square", "side": "x"}]})
    ));
}

#[test]
fn openapi_settings_map_tags_to_component_schemas() {
    let generator = SchemaSettings::openapi3().into_generator();
    let schema = serde_json::to_value(generator.into_root_schema_for::<dyn Shape>()).unwrap();
    assert_eq!(
        schema["discriminator"]["mapping"]["circle"],
        "#/components/schemas/Circle"
    );
}

// ---------------------------------------------------------------------------
// Integer and bool tags, no fallback.

#[json_subtypes(tag = "op", schema)]
trait Token {}

#[derive(Serialize, Deserialize, JsonSchema)]
struct Add {
    n: i64,
}

#[json_subtypes(name = 1)]
impl Token for Add {}

#[derive(Serialize, Deserialize, JsonSchema)]
struct Neg {}

#[json_subtypes(name = -1)]
impl Token for Neg {}

#[derive(Serialize, Deserialize, JsonSchema)]
struct Stop {}

#[json_subtypes(name = true)]
impl Token for Stop {}

#[test]
fn int_and_bool_tags_get_typed_consts_and_no_discriminator() {
    let schema = schema_of::<dyn Token>();
    let tags: Vec<&Value> = one_of(&schema)
        .iter()
        .map(|b| &b["allOf"][0]["properties"]["op"])
        .collect();
    assert_eq!(
        tags,
        [
            &json!({"type": "integer", "const": 1}),
            &json!({"type": "integer", "const": -1}),
            &json!({"type": "boolean", "const": true}),
        ]
    );
    assert!(schema.get("discriminator").is_none());
    let valid = validator(&schema);
    for ok in [
        json!({"op": 1, "n": 2}),
        json!({"n": 2, "op": 1}),
        json!({"op": -1}),
        json!({"op": true}),
    ] {
        assert!(valid(&ok), "{ok}");
    }
    for bad in [
        json!({"op": "1", "n": 2}),
        json!({"op": 1.5}),
        json!({"op": false}),
        json!({"n": 2}),
    ] {
        assert!(!valid(&bad), "{bad}");
        assert!(serde_json::from_value::<Box<dyn Token>>(bad).is_err());
    }
}

// ---------------------------------------------------------------------------
// Presence mode.

#[json_subtypes(schema)]
trait Person {}

#[derive(Serialize, Deserialize, JsonSchema)]
struct Developer {
    name: String,
    skill: Option<String>,
}

#[json_subtypes(when_field = "skill")]
impl Person for Developer {}

#[derive(Serialize, Deserialize, JsonSchema)]
struct Manager {
    name: String,
    #[serde(default)]
    reports: Vec<String>,
    #[serde(default)]
    team: Option<String>,
}

#[json_subtypes(when_field = "reports", when_field = "team")]
impl Person for Manager {}

#[test]
fn presence_subtypes_require_their_fields() {
    let schema = schema_of::<dyn Person>();
    let branches = one_of(&schema);
    assert_eq!(
        branches[0]["allOf"][0],
        json!({"type": "object", "required": ["skill"]})
    );
    assert_eq!(
        branches[1]["allOf"][0],
        json!({"type": "object", "anyOf": [{"required": ["reports"]}, {"required": ["team"]}]})
    );
    let valid = validator(&schema);
    for ok in [
        json!({"name": "a", "skill": null}),
        json!({"name": "m", "team": "t"}),
    ] {
        assert!(valid(&ok), "{ok}");
        assert!(serde_json::from_value::<Box<dyn Person>>(ok).is_ok());
    }
    // Neither, or both (ambiguous): refused by both.
    for bad in [
        json!({"name": "x"}),
        json!({"name": "x", "skill": "s", "team": "t"}),
    ] {
        assert!(!valid(&bad), "{bad}");
        assert!(serde_json::from_value::<Box<dyn Person>>(bad).is_err());
    }
}

// ---------------------------------------------------------------------------
// Profiles: each has the schema of its own table.

/// Not registered with the attribute: a profile adds it.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
struct Triangle {
    base: f64,
}

impl Shape for Triangle {
    fn area(&self) -> f64 {
        self.base
    }
}

#[test]
fn two_profiles_give_two_schemas() {
    let v1 = Profile::<dyn Shape>::builder()
        .tag("kind")
        .subtype::<Circle>("c")
        .subtype::<Triangle>(3)
        .describe::<Circle>()
        .describe::<Triangle>()
        .build()
        .unwrap();
    let v2 = Profile::<dyn Shape>::builder_from_registry()
        .tag("shape")
        .subtype::<Circle>("disc")
        .build()
        .unwrap();
    let one = serde_json::to_value(v1.root_schema()).unwrap();
    let two = serde_json::to_value(v2.root_schema()).unwrap();
    assert_eq!(one["title"], "profile of dyn Shape");
    assert_eq!(
        one["oneOf"][0]["allOf"][0]["properties"],
        json!({"kind": {"type": "string", "const": "c"}})
    );
    assert_eq!(
        one["oneOf"][1]["allOf"][0]["properties"],
        json!({"kind": {"type": "integer", "const": 3}})
    );
    assert_eq!(
        one["oneOf"][1]["allOf"][1],
        json!({"$ref": "#/$defs/Triangle"})
    );
    // A mixed table gets no discriminator.
    assert!(one.get("discriminator").is_none());
    assert_eq!(
        two["discriminator"],
        json!({"propertyName": "shape", "mapping": {"disc": "#/$defs/Circle", "square": "#/$defs/Square"}})
    );

    let (valid_one, valid_two) = (validator(&one), validator(&two));
    let triangle = v1.to_string(&Triangle { base: 2.0 }).unwrap();
    let triangle: Value = serde_json::from_str(&triangle).unwrap();
    assert_eq!(triangle, json!({"kind": 3, "base": 2.0}));
    let disc = json!({"r": 1.0, "shape": "disc"});
    assert!(valid_one(&triangle) && !valid_one(&disc));
    assert!(valid_two(&disc));
    // A known tag of v2 with another subtype's body.
    assert!(!valid_two(&json!({"shape": "disc", "side": 1.0})));
    assert!(v2.from_str(&disc.to_string()).is_ok());
    // The registry's key means nothing to v1 (no fallback there).
    assert!(!valid_one(&json!({"type": "circle", "r": 1.0})));
    // v2 kept the registry's fallback: any other tag is its.
    assert!(valid_two(&json!({"shape": "blob"})));
}

#[test]
fn a_subtype_without_a_schema_is_its_tag_on_any_object() {
    #[derive(Serialize, Deserialize)]
    struct Blob {}
    impl Shape for Blob {
        fn area(&self) -> f64 {
            0.0
        }
    }
    let profile = Profile::<dyn Shape>::builder()
        .tag("type")
        .subtype::<Blob>("blob")
        .build()
        .unwrap();
    let schema = serde_json::to_value(profile.root_schema()).unwrap();
    assert_eq!(
        schema["oneOf"],
        json!([{"type": "object", "properties": {"type": {"type": "string", "const": "blob"}}, "required": ["type"]}])
    );
    assert_eq!(schema["discriminator"], json!({"propertyName": "type"}));
}

#[test]
fn a_scoped_profile_is_the_schema_of_its_trait_objects() {
    let profile = Profile::<dyn Shape>::builder()
        .tag("kind")
        .subtype::<Square>("sq")
        .describe::<Square>()
        .build()
        .unwrap();
    let scoped = profile.scope(schema_of::<Drawing>);
    assert_eq!(
        scoped["$defs"]["Shape"]["oneOf"][0]["allOf"][0]["properties"],
        json!({"kind": {"type": "string", "const": "sq"}})
    );
    // Outside the scope: the registry again.
    let plain = schema_of::<Drawing>();
    assert_eq!(
        plain["$defs"]["Shape"]["discriminator"]["propertyName"],
        "type"
    );
}

// ---------------------------------------------------------------------------
// A registered type that refuses unknown fields: its branch holds its own
// object with the tag added, so the schema accepts what the reader accepts.

#[json_subtypes(tag = "op", schema)]
trait Step {}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Halt {
    code: u8,
}

#[json_subtypes(name = "halt")]
impl Step for Halt {}

#[test]
fn closed_payload_accepts_its_tag() {
    let schema = schema_of::<dyn Step>();
    let valid = validator(&schema);
    let step: Box<dyn Step> = Box::new(Halt { code: 2 });
    let written = serde_json::to_value(&step).unwrap();
    assert_eq!(written, json!({"op": "halt", "code": 2}));
    assert!(valid(&written));
    assert!(serde_json::from_value::<Box<dyn Step>>(written).is_ok());
    let extra = json!({"op": "halt", "code": 2, "more": 1});
    assert!(!valid(&extra));
    assert_eq!(
        serde_json::from_value::<Box<dyn Step>>(extra)
            .err()
            .unwrap()
            .to_string(),
        "unknown field `more`, expected `code`"
    );
    assert!(one_of(&schema)[0].get("allOf").is_none());
}
