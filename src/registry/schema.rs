//! What a registered type says of itself for the trait's JSON Schema (the
//! `schemars` feature; empty without it).

/// How a registered type describes itself in the trait's JSON Schema (the
/// `schemars` feature; empty without it). Set by the registration of a
/// trait with `schema`, and by `ProfileBuilder::describe`.
#[derive(Clone, Copy)]
pub struct Described {
    #[cfg(feature = "schemars")]
    pub(crate) schema: fn(&mut schemars::SchemaGenerator) -> schemars::Schema,
}

impl Described {
    /// `C`'s schema, for the registry of `H`.
    pub const fn of<C: SchemaSubtype<H>, H: ?Sized>() -> Self {
        Described {
            #[cfg(feature = "schemars")]
            schema: schema_of::<C>,
        }
    }
}

/// A registered type's schema, as its `Described` holds it.
#[cfg(feature = "schemars")]
fn schema_of<C: schemars::JsonSchema + ?Sized>(
    generator: &mut schemars::SchemaGenerator,
) -> schemars::Schema {
    generator.subschema_for::<C>()
}

/// The bound a trait with `schema` puts on its registered impls: with the
/// `schemars` feature, `JsonSchema`; without it, nothing.
#[cfg(feature = "schemars")]
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no JSON Schema, and `{H}` needs one for each of its subtypes",
    label = "`{Self}` does not implement `schemars::JsonSchema`",
    note = "the trait says `#[json_subtypes(schema)]`: derive `schemars::JsonSchema` for `{Self}`, or remove `schema` from the trait"
)]
pub trait SchemaSubtype<H: ?Sized>: schemars::JsonSchema {}

#[cfg(feature = "schemars")]
impl<T: schemars::JsonSchema + ?Sized, H: ?Sized> SchemaSubtype<H> for T {}

/// The bound a trait with `schema` puts on its registered impls: with the
/// `schemars` feature, `JsonSchema`; without it, nothing.
#[cfg(not(feature = "schemars"))]
pub trait SchemaSubtype<H: ?Sized> {}

#[cfg(not(feature = "schemars"))]
impl<T: ?Sized, H: ?Sized> SchemaSubtype<H> for T {}
