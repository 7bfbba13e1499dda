//! `utoipa::ToSchema` for `#[json_subtypes]` enums and for `Box<dyn Trait>`
//! of traits with `schema` (the `utoipa` feature, which needs `schemars`).
//!
//! One source of truth: the schema is the one the `schemars` feature
//! builds, generated with OpenAPI 3.1's dialect (JSON Schema 2020-12) and
//! references into `#/components/schemas/`, then carried over into utoipa's
//! model. utoipa's model has no field for some keywords the schema needs
//! (`const`, `not`, `additionalProperties: false`...): those travel as the
//! model's flattened extensions, which utoipa writes as they are, so the
//! document holds exactly the schema schemars built.

use schemars::generate::SchemaSettings;
use schemars::{JsonSchema, SchemaGenerator};
use serde_json::{Map, Value};
use utoipa::openapi::extensions::Extensions;
use utoipa::openapi::schema::{
    AllOf, AnyOf, Discriminator, Object, OneOf, Ref, Schema, SchemaType, Type,
};
use utoipa::openapi::RefOr;

pub use utoipa;

/// Where OpenAPI keeps named schemas.
const COMPONENTS: &str = "/components/schemas";

fn generator() -> SchemaGenerator {
    let mut settings = SchemaSettings::draft2020_12();
    settings.definitions_path = COMPONENTS.into();
    settings.meta_schema = None;
    settings.into_generator()
}

/// `PartialSchema::schema`: `T`'s own schema, its payloads as references.
pub fn schema<T: JsonSchema + ?Sized>() -> RefOr<Schema> {
    let mut generator = generator();
    convert(T::json_schema(&mut generator).to_value())
}

/// `ToSchema::schemas`: the named schemas `T`'s schema refers to, for the
/// document's components.
pub fn schemas<T: JsonSchema + ?Sized>(out: &mut Vec<(String, RefOr<Schema>)>) {
    let mut generator = generator();
    let _ = T::json_schema(&mut generator);
    for (name, schema) in generator.take_definitions(true) {
        out.push((name, convert(schema)));
    }
}

/// A JSON Schema value in utoipa's model, keyword for keyword.
fn convert(value: Value) -> RefOr<Schema> {
    let mut map = match value {
        Value::Object(map) => map,
        // `false`: nothing is valid.
        Value::Bool(false) => {
            let mut object = Object::new();
            object.schema_type = SchemaType::AnyValue;
            object.extensions = Some(extensions(
                [("not".to_owned(), Value::Object(Map::new()))]
                    .into_iter()
                    .collect(),
            ));
            return RefOr::T(Schema::Object(object));
        }
        // `true`: anything.
        _ => {
            let mut object = Object::new();
            object.schema_type = SchemaType::AnyValue;
            return RefOr::T(Schema::Object(object));
        }
    };
    if map.len() == 1 {
        if let Some(Value::String(reference)) = map.get("$ref") {
            return RefOr::Ref(Ref::new(reference.clone()));
        }
    }
    let items = |map: &mut Map<String, Value>, keyword: &str| match map.remove(keyword) {
        Some(Value::Array(items)) => Some(items.into_iter().map(convert).collect::<Vec<_>>()),
        Some(other) => {
            // Not an array: not ours to interpret, kept as it is.
            map.insert(keyword.to_owned(), other);
            None
        }
        None => None,
    };
    if let Some(items) = items(&mut map, "oneOf") {
        let mut one_of = OneOf::new();
        one_of.items = items;
        one_of.discriminator = discriminator(&mut map);
        one_of.extensions = rest(map);
        return RefOr::T(Schema::OneOf(one_of));
    }
    if let Some(items) = items(&mut map, "allOf") {
        let mut all_of = AllOf::new();
        all_of.items = items;
        all_of.discriminator = discriminator(&mut map);
        all_of.extensions = rest(map);
        return RefOr::T(Schema::AllOf(all_of));
    }
    if let Some(items) = items(&mut map, "anyOf") {
        let mut any_of = AnyOf::new();
        any_of.items = items;
        any_of.discriminator = discriminator(&mut map);
        any_of.extensions = rest(map);
        return RefOr::T(Schema::AnyOf(any_of));
    }
    let mut object = Object::new();
    object.schema_type = match map.get("type").and_then(Value::as_str).and_then(json_type) {
        Some(ty) => {
            map.remove("type");
            SchemaType::Type(ty)
        }
        // No type, or a list: kept as it is.
        None => SchemaType::AnyValue,
    };
    if let Some(Value::Object(properties)) = map.remove("properties") {
        object.properties = properties
            .into_iter()
            .map(|(name, schema)| (name, convert(schema)))
            .collect();
    }
    match map.remove("required") {
        Some(Value::Array(names)) if names.iter().all(Value::is_string) => {
            object.required = names
                .into_iter()
                .filter_map(|n| n.as_str().map(str::to_owned))
                .collect();
        }
        Some(other) => {
            map.insert("required".to_owned(), other);
        }
        None => {}
    }
    object.extensions = rest(map);
    RefOr::T(Schema::Object(object))
}

fn json_type(name: &str) -> Option<Type> {
    Some(match name {
        "object" => Type::Object,
        "string" => Type::String,
        "integer" => Type::Integer,
        "number" => Type::Number,
        "boolean" => Type::Boolean,
        "array" => Type::Array,
        "null" => Type::Null,
        _ => return None,
    })
}

/// OpenAPI's `discriminator`, when it has the shape this crate writes;
/// anything else stays among the other keywords.
fn discriminator(map: &mut Map<String, Value>) -> Option<Discriminator> {
    let Some(Value::Object(found)) = map.get("discriminator") else {
        return None;
    };
    let name = found.get("propertyName")?.as_str()?;
    let mut out = Discriminator::new(name);
    match found.get("mapping") {
        None => {}
        Some(Value::Object(mapping)) => {
            for (tag, target) in mapping {
                out.mapping.insert(tag.clone(), target.as_str()?.to_owned());
            }
        }
        Some(_) => return None,
    }
    if found.keys().any(|k| k != "propertyName" && k != "mapping") {
        return None;
    }
    map.remove("discriminator");
    Some(out)
}

/// The keywords utoipa's model has no field for, written as they are.
fn rest(map: Map<String, Value>) -> Option<Extensions> {
    (!map.is_empty()).then(|| extensions(map))
}

fn extensions(map: Map<String, Value>) -> Extensions {
    let mut out = Extensions::default();
    out.extend(map);
    out
}
