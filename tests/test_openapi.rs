//! utoipa (the `utoipa` feature): `ToSchema` for annotated enums and for
//! `Box<dyn Trait>` of traits with `schema`, in `#[derive(OpenApi)]`
//! documents. The document's schemas are the `schemars` ones keyword for
//! keyword, its discriminator mappings point at components it holds, and
//! instances validate against it as the types read them.
#![cfg(feature = "utoipa")]

mod common;

use json_subtypes::{json_subtypes, Unknown};
use rstest::rstest;
use schemars::generate::SchemaSettings;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use utoipa::{OpenApi, PartialSchema, ToSchema};

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
struct Dog {
    name: String,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
struct Cat {
    lives: u8,
}

#[json_subtypes(tag = "petType", rename_all = "lowercase")]
#[derive(Debug)]
enum Pet {
    #[json_subtypes(alias = "puppy")]
    Dog(Dog),
    Cat(Cat),
    Fish {
        fins: u8,
    },
    #[json_subtypes(fallback)]
    Other(Unknown),
}

/// Integer tags: `const` only, OpenAPI's mapping keys are strings.
#[json_subtypes(tag = "v")]
#[derive(Debug)]
enum Versioned {
    #[json_subtypes(name = 1)]
    One(Dog),
    #[json_subtypes(name = 2)]
    Two(Cat),
}

#[json_subtypes(tag = "kind", schema)]
trait Toy {}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
struct Ball {
    diameter: f64,
}

#[json_subtypes(name = "ball")]
impl Toy for Ball {}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
struct Rope {
    length: f64,
}

#[json_subtypes(name = "rope")]
impl Toy for Rope {}

type AnyToy = Box<dyn Toy>;

#[derive(OpenApi)]
#[openapi(components(schemas(Pet, Versioned, AnyToy)))]
struct Api;

fn document() -> Value {
    serde_json::to_value(Api::openapi()).unwrap()
}

/// Validates instances against `#/components/schemas/{name}` of the
/// document, references resolved inside it.
fn validator(document: &Value, name: &str) -> impl Fn(&Value) -> bool {
    common::validator_at(document, &format!("/components/schemas/{name}"))
}

/// What the `schemars` feature builds, with OpenAPI's component paths.
fn schemars_schema<T: JsonSchema + ?Sized>() -> Value {
    let mut settings = SchemaSettings::draft2020_12();
    settings.definitions_path = "/components/schemas".into();
    let mut generator = settings.into_generator();
    T::json_schema(&mut generator).to_value()
}

#[test]
fn the_document_is_openapi_3_1_with_every_component() {
    let document = document();
    assert_eq!(document["openapi"], "3.1.0");
    let components = document["components"]["schemas"].as_object().unwrap();
    let mut names: Vec<&str> = components.keys().map(String::as_str).collect();
    names.sort_unstable();
    assert_eq!(
        names,
        ["Ball", "Cat", "Dog", "Pet", "Rope", "Toy", "Versioned"]
    );
    assert_eq!(<Pet as ToSchema>::name(), "Pet");
    assert_eq!(<AnyToy as ToSchema>::name(), "Toy");
}

#[rstest]
#[case::enum_("Pet", schemars_schema::<Pet>())]
#[case::int_tags("Versioned", schemars_schema::<Versioned>())]
#[case::trait_object("Toy", schemars_schema::<dyn Toy>())]
fn component_schemas_are_the_schemars_ones(#[case] name: &str, #[case] expected: Value) {
    let document = document();
    assert_eq!(document["components"]["schemas"][name], expected);
    // The same through `PartialSchema` directly.
    let direct = match name {
        "Pet" => serde_json::to_value(Pet::schema()).unwrap(),
        "Versioned" => serde_json::to_value(Versioned::schema()).unwrap(),
        _ => serde_json::to_value(AnyToy::schema()).unwrap(),
    };
    assert_eq!(direct, expected);
}

#[test]
fn discriminators_map_tags_to_components() {
    let document = document();
    let components = &document["components"]["schemas"];
    assert_eq!(
        components["Pet"]["discriminator"],
        json!({"propertyName": "petType", "mapping": {
            "dog": "#/components/schemas/Dog",
            "puppy": "#/components/schemas/Dog",
            "cat": "#/components/schemas/Cat",
        }})
    );
    assert_eq!(
        components["Toy"]["discriminator"],
        json!({"propertyName": "kind", "mapping": {
            "ball": "#/components/schemas/Ball",
            "rope": "#/components/schemas/Rope",
        }})
    );
    assert!(components["Versioned"].get("discriminator").is_none());
    for pointer in ["/components/schemas/Pet", "/components/schemas/Toy"] {
        for target in document.pointer(pointer).unwrap()["discriminator"]["mapping"]
            .as_object()
            .unwrap()
            .values()
        {
            let target = target.as_str().unwrap().trim_start_matches('#');
            assert!(document.pointer(target).is_some(), "{target}");
        }
    }
    // The fallback's branch keeps its `not`, which utoipa's model has no field for.
    assert_eq!(
        components["Pet"]["oneOf"][3]["not"]["properties"]["petType"]["enum"],
        json!(["dog", "puppy", "cat", "fish"])
    );
}

#[rstest]
#[case::written(serde_json::to_value(Pet::Dog(Dog { name: "Rex".into() })).unwrap(), true)]
#[case::tag_last(json!({"name": "Rex", "petType": "dog"}), true)]
#[case::alias(json!({"petType": "puppy", "name": "Rex"}), true)]
#[case::struct_variant(json!({"fins": 2, "petType": "fish"}), true)]
#[case::fallback(json!({"petType": "parrot", "words": 3}), true)]
#[case::bad_body(json!({"petType": "cat", "lives": "nine"}), false)]
#[case::another_subtypes_body(json!({"petType": "cat", "name": "Rex"}), false)]
fn pets_validate_as_they_read(#[case] instance: Value, #[case] valid: bool) {
    let validate = validator(&document(), "Pet");
    assert_eq!(validate(&instance), valid, "{instance}");
    assert_eq!(serde_json::from_value::<Pet>(instance).is_ok(), valid);
}

#[rstest]
#[case::written(serde_json::to_value(&(Box::new(Ball { diameter: 3.0 }) as AnyToy)).unwrap(), true)]
#[case::tag_last(json!({"length": 2.0, "kind": "rope"}), true)]
#[case::unknown_tag(json!({"kind": "kite"}), false)]
#[case::no_tag(json!({"length": 2.0}), false)]
#[case::int_tag(json!({"kind": 1, "length": 2.0}), false)]
fn toys_validate_as_they_read(#[case] instance: Value, #[case] valid: bool) {
    let validate = validator(&document(), "Toy");
    assert_eq!(validate(&instance), valid, "{instance}");
    assert_eq!(serde_json::from_value::<AnyToy>(instance).is_ok(), valid);
}

#[rstest]
#[case::one(json!({"v": 1, "name": "Rex"}), true)]
#[case::two_last(json!({"lives": 9, "v": 2}), true)]
#[case::string_tag(json!({"v": "1", "name": "Rex"}), false)]
fn int_tags_validate_as_they_read(#[case] instance: Value, #[case] valid: bool) {
    let validate = validator(&document(), "Versioned");
    assert_eq!(validate(&instance), valid, "{instance}");
    assert_eq!(serde_json::from_value::<Versioned>(instance).is_ok(), valid);
}
