//! The entry points of trait objects: what a `Box<dyn Trait>`'s generated
//! `Deserialize` and a `dyn Trait`'s `Serialize` call. Each chooses between
//! the profile scoped on this thread (`Profile::scope`) and the trait's
//! registry, so it sits above both.

use serde::de::{self, Deserializer};
use serde::ser::Serializer;

use crate::profile::scoped;
use crate::registry::Registered;
use crate::subtype::Subtype;

/// Reads a `Box<dyn Trait>` with the trait's registry.
pub fn deserialize_registered<'de, T, D>(deserializer: D) -> Result<Box<T>, D::Error>
where
    T: ?Sized + Registered + 'static,
    D: Deserializer<'de>,
{
    if let Some(profile) = scoped::<T>() {
        return profile.read(deserializer);
    }
    let registry = T::registry();
    if let Some(problem) = &registry.fatal {
        return Err(de::Error::custom(problem));
    }
    if T::__JSON_SUBTYPES_INTERNAL {
        return registry.read_internal(deserializer);
    }
    registry.read(deserializer)
}

/// Reads a `Box<dyn Trait + Send>` (`U`, or another of the marked objects)
/// through the registry of `dyn Trait` (`T`): a profile scoped for `U` reads
/// it directly; else the box is read as `T` and converted, which only a type
/// proven to be `Send` allows.
pub fn deserialize_marked<'de, T, U, D>(deserializer: D) -> Result<Box<U>, D::Error>
where
    T: ?Sized + Registered + Subtype + 'static,
    U: ?Sized + 'static,
    D: Deserializer<'de>,
{
    if let Some(profile) = scoped::<U>() {
        return profile.read(deserializer);
    }
    let value = deserialize_registered::<T, D>(deserializer)?;
    match scoped::<T>() {
        Some(profile) => profile.convert(value),
        None => T::registry().convert(value),
    }
}

/// Writes a `dyn Trait + Send` (`U`, given as the `dyn Trait` it also is):
/// with a profile scoped for `U`, else as a `dyn Trait`.
pub fn serialize_marked<T, U, S>(value: &T, serializer: S) -> Result<S::Ok, S::Error>
where
    T: ?Sized + Registered + Subtype + 'static,
    U: ?Sized + 'static,
    S: Serializer,
{
    match scoped::<U>() {
        Some(profile) => profile.serialize(value, serializer),
        None => serialize_registered::<T, S>(value, serializer),
    }
}

/// Writes a `dyn Trait` with the trait's registry.
pub fn serialize_registered<T, S>(value: &T, serializer: S) -> Result<S::Ok, S::Error>
where
    T: ?Sized + Registered + Subtype + 'static,
    S: Serializer,
{
    match scoped::<T>() {
        Some(profile) => profile.serialize(value, serializer),
        // A constant: a trait in the internal form writes without asking.
        None if T::__JSON_SUBTYPES_INTERNAL => {
            T::registry().write::<false, S, T>(value, serializer)
        }
        None => T::registry().write::<true, S, T>(value, serializer),
    }
}

/// `dyn Trait`'s JSON Schema: the profile scoped for it, else its registry.
#[cfg(feature = "schemars")]
pub fn registered_schema<T: ?Sized + Registered + 'static>(
    generator: &mut schemars::SchemaGenerator,
) -> schemars::Schema {
    match scoped::<T>() {
        Some(profile) => crate::schema::registry_schema(&profile, generator),
        None => crate::schema::registry_schema(T::registry(), generator),
    }
}
