//! JSON Schema for `#[json_subtypes]` enums (the `schemars` feature).
//!
//! The macro describes each variant as a [`Part`] (its tags or deciding
//! fields and its payload's schema); [`build`] turns the parts into one
//! `oneOf` with the tag constraints and, for string tags, OpenAPI's
//! `discriminator`. Keeping the assembly here, not in generated code, keeps
//! the expansion small and the rules in one place.
//!
//! Trait objects and profiles go through the same assembly: each registered
//! subtype becomes a part, its payload described by the schema its
//! registration (a trait with `schema`, or `ProfileBuilder::describe`)
//! carries.

use std::borrow::Cow;
use std::marker::PhantomData;

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::Serialize;
use serde_json::{json, Map};

use crate::registry::{intern, Table};
use crate::tag::OwnedLiteral;
use crate::Unknown;

pub use schemars;
pub use serde_json::Value;

/// Implemented by every `#[json_subtypes]` enum: its variants as parts, so
/// that a parent can splice a `nested` child's variants into its own
/// `oneOf`.
pub trait VariantParts {
    /// The tag key; `None` in presence mode.
    const KEY: Option<&'static str>;
    /// Presence mode picks the first declared match.
    const FIRST_MATCH: bool;
    /// How the tag sits beside the payload.
    const FORM: Form = Form::Internal;

    /// The variants in declaration order. `depth` counts `nested` levels so a
    /// cycle of children (an error at run time) cannot recurse forever here.
    fn parts(generator: &mut SchemaGenerator, depth: u32) -> Vec<Part>;
}

/// An enum's representation, for its schema.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// `{"type":"Dog","name":"Rex"}` (or presence mode without a key).
    Internal,
    /// `{"Dog":{"name":"Rex"}}`, a unit variant as `"Fish"`.
    External,
    /// `{"type":"Dog","value":{"name":"Rex"}}`, a unit variant as
    /// `{"type":"Fish"}`; `deny_unknown_fields` refuses other keys.
    Adjacent {
        tag: &'static str,
        content: &'static str,
        deny_unknown_fields: bool,
    },
}

/// One variant.
pub struct Part {
    pub kind: PartKind,
    /// Every tag accepted, the written one first; empty in presence mode.
    pub tags: Vec<Value>,
    /// Presence mode: any of these fields picks the variant.
    pub when_fields: Cow<'static, [&'static str]>,
    pub payload: PartPayload,
    /// The variant's doc comment.
    pub description: Option<&'static str>,
}

pub enum PartKind {
    Subtype,
    Fallback,
    /// A `nested` child's parts; `None` when the child has no schema.
    Nested(Option<Vec<Part>>),
}

pub enum PartPayload {
    Unit,
    /// The payload's schema; `None` when its type has no `JsonSchema`.
    Newtype(Option<Schema>),
    /// A struct variant's fields, built by [`Object`].
    Object(Schema),
    /// A tuple variant's items (the external and adjacent forms only);
    /// `None` for an item whose type has no `JsonSchema`.
    Tuple(Vec<Option<Schema>>),
}

impl PartPayload {
    /// The payload as a value of its own (the external and adjacent
    /// forms' content); `None` for a unit.
    fn content(self) -> Option<Value> {
        match self {
            PartPayload::Unit => None,
            PartPayload::Newtype(None) => Some(Value::Bool(true)),
            PartPayload::Newtype(Some(s)) | PartPayload::Object(s) => Some(s.to_value()),
            PartPayload::Tuple(items) => {
                let n = items.len();
                let items: Vec<Value> = items
                    .into_iter()
                    .map(|s| s.map_or(Value::Bool(true), Schema::to_value))
                    .collect();
                Some(json!({
                    "type": "array",
                    "prefixItems": items,
                    "minItems": n,
                    "maxItems": n,
                }))
            }
        }
    }
}

/// Autoref specialization: `(&Probe::<T>::NEW).schema(g)` is `T`'s schema
/// when `T: JsonSchema` (the impl on `Probe<T>` matches the receiver as it
/// is) and `None` otherwise (the impl on `&Probe<T>`, one autoref later). Generated impls use it instead
/// of `T: JsonSchema` bounds because bounds on concrete payload types either
/// fail to compile (a payload without the trait, or recursion through
/// `Box<Self>` or between two enums) or hide the impl; the feature is
/// switched on for a whole build, so it must never break an enum that was
/// not written with schemas in mind.
pub struct Probe<T: ?Sized>(PhantomData<T>);

impl<T: ?Sized> Probe<T> {
    pub const NEW: Self = Probe(PhantomData);
}

pub trait ViaJsonSchema {
    fn schema(&self, generator: &mut SchemaGenerator) -> Option<Schema>;
}

impl<T: JsonSchema + ?Sized> ViaJsonSchema for Probe<T> {
    fn schema(&self, generator: &mut SchemaGenerator) -> Option<Schema> {
        Some(generator.subschema_for::<T>())
    }
}

pub trait ViaNothing {
    fn schema(&self, generator: &mut SchemaGenerator) -> Option<Schema> {
        let _ = generator;
        None
    }
}

impl<T: ?Sized> ViaNothing for &Probe<T> {}

/// The same for a `nested` child's parts.
pub struct NestedProbe<T: ?Sized>(PhantomData<T>);

impl<T: ?Sized> NestedProbe<T> {
    pub const NEW: Self = NestedProbe(PhantomData);
}

pub trait ViaVariantParts {
    fn parts(&self, generator: &mut SchemaGenerator, depth: u32) -> Option<Vec<Part>>;
}

impl<T: VariantParts + ?Sized> ViaVariantParts for NestedProbe<T> {
    fn parts(&self, generator: &mut SchemaGenerator, depth: u32) -> Option<Vec<Part>> {
        Some(T::parts(generator, depth))
    }
}

pub trait ViaNoVariantParts {
    fn parts(&self, generator: &mut SchemaGenerator, depth: u32) -> Option<Vec<Part>> {
        let _ = (generator, depth);
        None
    }
}

impl<T: ?Sized> ViaNoVariantParts for &NestedProbe<T> {}

/// A `tag_type` constant as JSON, for `const`; `None` if it does not
/// serialize (the tag is then only required).
pub fn typed_tag<T: Serialize + ?Sized>(tag: &T) -> Option<Value> {
    serde_json::to_value(tag).ok()
}

/// A struct variant's object schema, field by field.
pub struct Object {
    properties: Map<String, Value>,
    required: Vec<Value>,
    flattened: Vec<Value>,
    deny_unknown_fields: bool,
}

impl Object {
    pub fn new(deny_unknown_fields: bool) -> Self {
        Object {
            properties: Map::new(),
            required: Vec::new(),
            flattened: Vec::new(),
            deny_unknown_fields,
        }
    }

    /// `schema` is `None` for a field read or written `with` a function,
    /// or whose type has no schema: it then accepts anything.
    pub fn field(
        &mut self,
        name: &str,
        required: bool,
        schema: Option<Schema>,
        description: Option<&str>,
    ) {
        let mut schema = schema.map_or(Value::Bool(true), Schema::to_value);
        if let Some(text) = description {
            schema = describe(schema, text);
        }
        self.properties.insert(name.to_owned(), schema);
        if required {
            self.required.push(name.into());
        }
    }

    /// A `#[serde(flatten)]` field: its fields sit beside ours.
    pub fn flatten(&mut self, schema: Option<Schema>) {
        if let Some(schema) = schema {
            self.flattened.push(schema.to_value());
        }
    }

    pub fn finish(self) -> Schema {
        let mut out = Map::new();
        out.insert("type".into(), "object".into());
        out.insert("properties".into(), self.properties.into());
        if !self.required.is_empty() {
            out.insert("required".into(), self.required.into());
        }
        if !self.flattened.is_empty() {
            out.insert("allOf".into(), self.flattened.into());
        } else if self.deny_unknown_fields {
            // With flattened fields the names are not all listed here, so
            // `additionalProperties` would refuse theirs.
            out.insert("additionalProperties".into(), false.into());
        }
        Schema::from(out)
    }
}

/// The schema of enum `S`: `oneOf` its variants.
pub fn build<S: VariantParts + ?Sized>(generator: &mut SchemaGenerator) -> Schema {
    let mut parts = S::parts(generator, 0);
    match S::FORM {
        Form::Internal => {
            if S::KEY.is_some() {
                inline_closed(&mut parts, generator);
            }
            assemble(S::KEY, S::FIRST_MATCH, parts)
        }
        Form::External => Schema::from(external(parts)),
        Form::Adjacent {
            tag,
            content,
            deny_unknown_fields,
        } => Schema::from(adjacent(tag, content, deny_unknown_fields, parts)),
    }
}

/// The externally tagged form, as schemars describes serde's: a unit
/// variant is one of its tags as a string, any other an object whose one
/// property is its tag, holding the content; the fallback any object of one
/// property no variant claims.
fn external(parts: Vec<Part>) -> Map<String, Value> {
    let mut one_of = Vec::new();
    let mut known = Vec::new();
    let mut fallback = None;
    for part in parts {
        if let PartKind::Fallback = part.kind {
            fallback = Some(part);
            continue;
        }
        known.extend(part.tags.iter().cloned());
        let description = part.description;
        let branch = match part.payload.content() {
            None => json!({ "type": "string", "enum": part.tags }),
            Some(content) => {
                let branches: Vec<Value> = part
                    .tags
                    .iter()
                    .filter_map(Value::as_str)
                    .map(|tag| {
                        json!({
                            "type": "object",
                            "properties": { tag: content },
                            "required": [tag],
                            "additionalProperties": false,
                        })
                    })
                    .collect();
                match <[Value; 1]>::try_from(branches) {
                    Ok([one]) => one,
                    Err(many) => json!({ "oneOf": many }),
                }
            }
        };
        one_of.push(with_description(branch, description));
    }
    if let Some(part) = fallback {
        let mut rest = json!({
            "type": "object",
            "minProperties": 1,
            "maxProperties": 1,
        });
        if !known.is_empty() {
            rest["propertyNames"] = json!({ "not": { "enum": known } });
        }
        one_of.push(with_description(
            fallback_branch(rest, part.payload),
            part.description,
        ));
    }
    let mut out = Map::new();
    out.insert("oneOf".into(), one_of.into());
    out
}

/// The adjacently tagged form: the tag's property and, but for a unit
/// variant, the content's; OpenAPI's discriminator names the tag key.
fn adjacent(
    key: &str,
    content_key: &str,
    deny_unknown_fields: bool,
    parts: Vec<Part>,
) -> Map<String, Value> {
    let mut one_of = Vec::new();
    let mut known = Vec::new();
    let mut fallback = None;
    for part in parts {
        if let PartKind::Fallback = part.kind {
            fallback = Some(part);
            continue;
        }
        known.extend(part.tags.iter().cloned());
        let mut branch = json!({
            "type": "object",
            "properties": { key: tag_schema(&part.tags) },
            "required": [key],
        });
        if let Some(content) = part.payload.content() {
            branch["properties"][content_key] = content;
            branch["required"] = json!([key, content_key]);
        }
        if deny_unknown_fields {
            branch["additionalProperties"] = false.into();
        }
        one_of.push(with_description(branch, part.description));
    }
    if let Some(part) = fallback {
        let mut rest = json!({ "type": "object" });
        if !known.is_empty() {
            rest["not"] = json!({
                "properties": { key: { "enum": known } },
                "required": [key],
            });
        }
        one_of.push(with_description(
            fallback_branch(rest, part.payload),
            part.description,
        ));
    }
    let mut out = Map::new();
    out.insert("oneOf".into(), one_of.into());
    if !known.is_empty() {
        out.insert("discriminator".into(), json!({ "propertyName": key }));
    }
    out
}

/// `schema` with the doc comment of the enum or trait it describes as its
/// `description`, where schemars' derive puts a type's doc comment.
pub fn described(mut schema: Schema, description: Option<&'static str>) -> Schema {
    if let Some(text) = description {
        schema.insert("description".to_owned(), Value::from(text));
    }
    schema
}

/// The schema of a registry's table (a trait's, or a profile's): one part
/// per subtype, in the table's order.
pub(crate) fn registry_schema(registry: &Table, generator: &mut SchemaGenerator) -> Schema {
    let mut parts: Vec<Part> = registry
        .subtypes()
        .iter()
        .map(|s| Part {
            kind: if s.fallback {
                PartKind::Fallback
            } else {
                PartKind::Subtype
            },
            tags: s.tag.iter().chain(&s.aliases).map(literal).collect(),
            when_fields: Cow::Owned(s.when_fields.iter().map(|f| intern(f)).collect()),
            payload: PartPayload::Newtype(s.schema.map(|d| (d.schema)(generator))),
            description: None,
        })
        .collect();
    if registry.tag_key().is_some() {
        inline_closed(&mut parts, generator);
    }
    assemble(registry.tag_key(), false, parts)
}

/// A newtype payload that refuses unknown fields (`additionalProperties:
/// false`, serde's `deny_unknown_fields`) would refuse the tag beside its
/// fields under `allOf`, although the reader hands it the object without
/// the tag. Such a payload's object is copied into its branch with the
/// tag's property added, as schemars describes serde's own internally
/// tagged enums. It then has no named schema for OpenAPI's mapping, like a
/// struct variant.
fn inline_closed(parts: &mut [Part], generator: &SchemaGenerator) {
    for part in parts {
        match &mut part.kind {
            PartKind::Nested(Some(children)) => inline_closed(children, generator),
            PartKind::Subtype => {
                let PartPayload::Newtype(Some(schema)) = &part.payload else {
                    continue;
                };
                if let Some(object) = closed_object(schema, generator) {
                    part.payload = PartPayload::Object(object);
                }
            }
            _ => {}
        }
    }
}

/// `schema`, or the definition it refers to, when it is an object schema
/// with `additionalProperties: false`.
fn closed_object(schema: &Schema, generator: &SchemaGenerator) -> Option<Schema> {
    let value = match schema.get("$ref").and_then(Value::as_str) {
        Some(reference) => {
            let name = reference.rsplit('/').next()?;
            let name = name.replace("~1", "/").replace("~0", "~");
            generator.definitions().get(&name)?
        }
        None => schema.as_value(),
    };
    let object = value.as_object()?;
    let closed = object.get("additionalProperties") == Some(&Value::Bool(false))
        && object.get("type") == Some(&Value::from("object"));
    closed.then(|| Schema::try_from(value.clone()).ok())?
}

fn literal(tag: &OwnedLiteral) -> Value {
    match tag {
        OwnedLiteral::Str(s) => Value::from(&**s),
        OwnedLiteral::I64(v) => Value::from(*v),
        OwnedLiteral::U64(v) => Value::from(*v),
        OwnedLiteral::Bool(v) => Value::from(*v),
    }
}

/// A root schema (draft 2020-12, or `generator`'s settings) titled `title`,
/// with the definitions `schema` used.
pub(crate) fn root_schema(
    title: &str,
    schema: impl FnOnce(&mut SchemaGenerator) -> Schema,
) -> Schema {
    let mut generator = SchemaGenerator::default();
    let mut root = schema(&mut generator).to_value();
    let definitions = generator.take_definitions(true);
    if let Value::Object(object) = &mut root {
        if let Some(meta) = generator.settings().meta_schema.as_deref() {
            object.insert("$schema".into(), meta.into());
        }
        object.insert("title".into(), title.into());
        if !definitions.is_empty() {
            object.insert("$defs".into(), definitions.into());
        }
    }
    Schema::try_from(root).unwrap_or_default()
}

fn assemble(key: Option<&str>, first_match: bool, parts: Vec<Part>) -> Schema {
    let mut subtypes = Vec::new();
    let mut fallback = None;
    for part in parts {
        match part.kind {
            PartKind::Fallback => fallback = Some(part),
            _ => flatten_into(part, &mut subtypes),
        }
    }
    let schema = match key {
        Some(key) => tagged(key, subtypes, fallback),
        None => presence(first_match, subtypes, fallback),
    };
    Schema::from(schema)
}

/// A `nested` child's variants join the parent's; its fallback does not,
/// since a tag nobody claims goes to the parent's fallback.
fn flatten_into(part: Part, out: &mut Vec<Part>) {
    match part.kind {
        PartKind::Subtype => out.push(part),
        PartKind::Fallback => {}
        PartKind::Nested(children) => {
            for child in children.into_iter().flatten() {
                flatten_into(child, out);
            }
        }
    }
}

fn tagged(key: &str, subtypes: Vec<Part>, fallback: Option<Part>) -> Map<String, Value> {
    let known: Vec<Value> = subtypes.iter().flat_map(|p| p.tags.clone()).collect();
    let mut one_of = Vec::new();
    let mut mapping = Map::new();
    for part in subtypes {
        let tag = json!({
            "type": "object",
            "properties": { key: tag_schema(&part.tags) },
            "required": [key],
        });
        let branch = match part.payload {
            // A tuple variant is refused in the internal form.
            PartPayload::Unit | PartPayload::Newtype(None) | PartPayload::Tuple(_) => tag,
            PartPayload::Object(object) => merge(object, tag),
            PartPayload::Newtype(Some(payload)) => {
                // OpenAPI maps a tag to the payload's named schema; a
                // struct or unit variant has none, so it is left out.
                if let Some(reference) = payload.get("$ref").and_then(Value::as_str) {
                    for t in part.tags.iter().filter_map(Value::as_str) {
                        mapping.insert(t.to_owned(), reference.into());
                    }
                }
                json!({ "allOf": [tag, payload.to_value()] })
            }
        };
        one_of.push(with_description(branch, part.description));
    }
    if let Some(part) = fallback {
        let mut rest = json!({ "type": "object" });
        if !known.is_empty() {
            // Only tags nobody claims (or none at all) land here, which
            // keeps the `oneOf` branches exclusive.
            rest["not"] = json!({
                "properties": { key: { "enum": known } },
                "required": [key],
            });
        }
        one_of.push(with_description(
            fallback_branch(rest, part.payload),
            part.description,
        ));
    }
    let mut out = Map::new();
    out.insert("oneOf".into(), one_of.into());
    // OpenAPI's discriminator values are strings: integer or bool tags get
    // `const` only.
    if !known.is_empty() && known.iter().all(Value::is_string) {
        let mut discriminator = Map::new();
        discriminator.insert("propertyName".into(), key.into());
        if !mapping.is_empty() {
            discriminator.insert("mapping".into(), mapping.into());
        }
        out.insert("discriminator".into(), discriminator.into());
    }
    out
}

fn presence(first_match: bool, subtypes: Vec<Part>, fallback: Option<Part>) -> Map<String, Value> {
    let mut one_of = Vec::new();
    let mut earlier: Vec<&'static str> = Vec::new();
    for part in subtypes {
        let mut constraint = Map::new();
        constraint.insert("type".into(), "object".into());
        match &*part.when_fields {
            [] => {}
            [one] => {
                constraint.insert("required".into(), json!([one]));
            }
            many => {
                constraint.insert("anyOf".into(), any_present(many));
            }
        }
        // With `first_match` an earlier variant wins, so this one holds
        // only without the earlier variants' fields; that keeps `oneOf`
        // exclusive. Without it two matches are an error, which `oneOf`
        // already says.
        let exclude: Vec<&str> = earlier
            .iter()
            .copied()
            .filter(|f| !part.when_fields.contains(f))
            .collect();
        if first_match && !exclude.is_empty() {
            constraint.insert("not".into(), json!({ "anyOf": any_present(&exclude) }));
        }
        earlier.extend(part.when_fields.iter().copied());
        let constraint = Value::Object(constraint);
        let branch = match part.payload {
            PartPayload::Unit | PartPayload::Newtype(None) | PartPayload::Tuple(_) => constraint,
            PartPayload::Newtype(Some(payload)) => {
                json!({ "allOf": [constraint, payload.to_value()] })
            }
            PartPayload::Object(object) => merge(object, constraint),
        };
        one_of.push(with_description(branch, part.description));
    }
    if let Some(part) = fallback {
        let mut rest = json!({ "type": "object" });
        if !earlier.is_empty() {
            rest["not"] = json!({ "anyOf": any_present(&earlier) });
        }
        one_of.push(with_description(
            fallback_branch(rest, part.payload),
            part.description,
        ));
    }
    let mut out = Map::new();
    out.insert("oneOf".into(), one_of.into());
    out
}

/// A struct variant's object with `constraint`'s keywords added: the tag's
/// property goes first, required names are joined. The object comes from
/// [`Object`], which sets neither `anyOf` nor `not`, so nothing is
/// overwritten.
fn merge(object: Schema, constraint: Value) -> Value {
    let (Value::Object(mut object), Value::Object(constraint)) = (object.to_value(), constraint)
    else {
        unreachable!("both are built as objects here");
    };
    for (keyword, value) in constraint {
        match (keyword.as_str(), value) {
            ("type", _) => {}
            ("properties", Value::Object(mut props)) => {
                if let Some(Value::Object(own)) = object.remove("properties") {
                    // A `visible` field named like the tag keeps the tag's
                    // constraint, which is the stricter.
                    for (name, schema) in own {
                        props.entry(name).or_insert(schema);
                    }
                }
                object.insert(keyword, props.into());
            }
            ("required", Value::Array(mut names)) => {
                if let Some(Value::Array(own)) = object.remove("required") {
                    names.extend(
                        own.into_iter()
                            .filter(|n| !names.contains(n))
                            .collect::<Vec<_>>(),
                    );
                }
                object.insert(keyword, names.into());
            }
            (_, value) => {
                object.insert(keyword, value);
            }
        }
    }
    Value::Object(object)
}

/// `anyOf` entries, one per field: the object has at least one of them.
fn any_present(fields: &[&str]) -> Value {
    fields.iter().map(|f| json!({ "required": [f] })).collect()
}

/// A fallback gets the whole object; its payload's own schema applies too,
/// unless it says nothing more than "an object" (as [`Unknown`]'s does).
fn fallback_branch(rest: Value, payload: PartPayload) -> Value {
    let payload = match payload {
        PartPayload::Newtype(Some(s)) | PartPayload::Object(s) => s.to_value(),
        PartPayload::Unit | PartPayload::Newtype(None) | PartPayload::Tuple(_) => return rest,
    };
    let says_nothing = payload == Value::Bool(true)
        || payload == json!({})
        || payload == json!({ "type": "object" });
    if says_nothing {
        rest
    } else {
        json!({ "allOf": [rest, payload] })
    }
}

/// `const` for one tag, `enum` with aliases; `type` when they share one.
fn tag_schema(tags: &[Value]) -> Value {
    let mut out = Map::new();
    let mut types: Vec<&str> = tags.iter().map(json_type).collect();
    types.dedup();
    if let [ty] = types[..] {
        out.insert("type".into(), ty.into());
    }
    match tags {
        [] => {}
        [one] => {
            out.insert("const".into(), one.clone());
        }
        many => {
            out.insert("enum".into(), many.to_vec().into());
        }
    }
    Value::Object(out)
}

fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

fn with_description(schema: Value, description: Option<&str>) -> Value {
    match description {
        Some(text) => describe(schema, text),
        None => schema,
    }
}

fn describe(schema: Value, text: &str) -> Value {
    match schema {
        Value::Object(mut map) => {
            map.entry("description").or_insert_with(|| text.into());
            Value::Object(map)
        }
        // `true` cannot carry keywords; `{}` means the same and can.
        Value::Bool(true) => json!({ "description": text }),
        other => other,
    }
}

/// Any object: [`Unknown`] keeps whatever it is given.
impl JsonSchema for Unknown {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Unknown".into()
    }

    fn schema_id() -> std::borrow::Cow<'static, str> {
        "json_subtypes::Unknown".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        schemars::json_schema!({ "type": "object" })
    }
}
