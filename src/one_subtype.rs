//! One subtype on its own, written and read as its hierarchy writes it:
//! [`Tagged`].
//!
//! The attribute implements [`SubtypeOf`] and [`FromHierarchy`] for each
//! registered impl (`H` = `dyn Trait`) and for each newtype variant's payload
//! (`H` = the enum). Writing goes through the hierarchy's own writer (the
//! registry, or the enum's tagged serializer with the variant's index), so
//! the output is byte for byte what the hierarchy writes; reading reads the
//! hierarchy and keeps the value only when it is of the requested type.

use core::any::TypeId;
use core::fmt;
use core::marker::PhantomData;

use serde::de::{Deserialize, Deserializer};
use serde::ser::{Serialize, Serializer};

use crate::registry::{Registered, Registry};
use crate::subtype::Subtype;
use crate::tag_writer::Tagging;

/// A value of one subtype, written with the tag its hierarchy `H` (a
/// `dyn Trait`, or an enum) writes for it, and read back only with that tag.
///
/// ```
/// use json_subtypes::{json_subtypes, Tagged};
/// use serde::{Deserialize, Serialize};
///
/// #[json_subtypes(tag = "type")]
/// trait Shape {}
///
/// #[derive(Debug, PartialEq, Serialize, Deserialize)]
/// struct Circle {
///     r: f64,
/// }
///
/// #[json_subtypes(name = "circle")]
/// impl Shape for Circle {}
///
/// #[derive(Debug, PartialEq, Serialize, Deserialize)]
/// struct Square {
///     side: f64,
/// }
///
/// #[json_subtypes(name = "square")]
/// impl Shape for Square {}
///
/// let circle = Circle { r: 1.0 };
/// // `dyn Shape` is inferred: Circle belongs to one hierarchy.
/// let json = serde_json::to_string(&Tagged::new(&circle))?;
/// assert_eq!(json, r#"{"type":"circle","r":1.0}"#);
///
/// let back: Tagged<Circle, dyn Shape> = serde_json::from_str(r#"{"r":1.0,"type":"circle"}"#)?;
/// assert_eq!(back.into_inner(), circle);
///
/// let err = serde_json::from_str::<Tagged<Circle, dyn Shape>>(r#"{"type":"square","side":2.0}"#)
///     .unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     r#"expected subtype tag "circle" (Circle), found "square" (Square)"#
/// );
/// # Ok::<(), serde_json::Error>(())
/// ```
///
/// The hierarchy reads the value, so a body of another subtype that is
/// invalid is that body's error; a valid one is the error above, raised
/// once the value is read (without serde_json's position, which only errors
/// raised while reading carry).
///
/// A type in several hierarchies (impls of two traits, payload of two
/// enums) names the one meant: `Tagged::<_, dyn Shape>::new(&circle)`.
pub struct Tagged<T, H: ?Sized>(pub T, PhantomData<fn() -> *const H>);

impl<T, H: ?Sized> Tagged<T, H> {
    /// Wraps `value` (a subtype, or a reference to one) for writing.
    pub fn new(value: T) -> Self
    where
        T: SubtypeOf<H>,
    {
        Tagged(value, PhantomData)
    }

    /// The subtype value.
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<T: Clone, H: ?Sized> Clone for Tagged<T, H> {
    fn clone(&self) -> Self {
        Tagged(self.0.clone(), PhantomData)
    }
}

impl<T: Copy, H: ?Sized> Copy for Tagged<T, H> {}

impl<T: PartialEq, H: ?Sized> PartialEq for Tagged<T, H> {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}

impl<T: Eq, H: ?Sized> Eq for Tagged<T, H> {}

impl<T: fmt::Debug, H: ?Sized> fmt::Debug for Tagged<T, H> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Tagged").field(&self.0).finish()
    }
}

/// A subtype of hierarchy `H`: a type registered with
/// `#[json_subtypes] impl Trait for Type` (`H` = `dyn Trait`), or the
/// payload of a newtype variant of a `#[json_subtypes]` enum (`H` = the
/// enum). Implemented by the attribute; see [`Tagged`].
///
/// Payload types get it when the enum has no generic parameters and the
/// type is the payload of one variant only, a variant that is neither
/// `fallback` nor `nested` and that serde reads and writes as it is (no
/// `skip` or `with`).
pub trait SubtypeOf<H: ?Sized> {
    #[doc(hidden)]
    fn __json_subtypes_write<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error>;
}

impl<C: ?Sized + SubtypeOf<H>, H: ?Sized> SubtypeOf<H> for &C {
    fn __json_subtypes_write<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        (**self).__json_subtypes_write(serializer)
    }
}

/// A [`SubtypeOf`] `H` that can be taken out of what `H` reads: what
/// [`Tagged`] needs to deserialize.
pub trait FromHierarchy<H: ?Sized>: SubtypeOf<H> + Sized {
    #[doc(hidden)]
    type __Read;
    /// The value if it is of this type, else the error naming both tags.
    /// Generic, so that nothing of it is compiled for a type never read
    /// with [`Tagged`].
    #[doc(hidden)]
    fn __json_subtypes_take<E: serde::de::Error>(read: Self::__Read) -> Result<Self, E>;
}

impl<T: SubtypeOf<H>, H: ?Sized> Serialize for Tagged<T, H> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.__json_subtypes_write(serializer)
    }
}

impl<'de, T, H: ?Sized> Deserialize<'de> for Tagged<T, H>
where
    T: FromHierarchy<H>,
    T::__Read: Deserialize<'de>,
{
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let read = T::__Read::deserialize(deserializer)?;
        T::__json_subtypes_take::<D::Error>(read).map(|value| Tagged(value, PhantomData))
    }
}

/// `C` written as a `dyn Trait` (`H`) writes it: with the profile scoped for
/// `H`, else with its registry.
pub fn write_registered<H, C, S>(value: &C, serializer: S) -> Result<S::Ok, S::Error>
where
    H: ?Sized + Registered + 'static,
    C: Subtype,
    S: Serializer,
{
    match crate::profile::scoped::<H>() {
        Some(profile) => profile.serialize(value, serializer),
        None if H::__JSON_SUBTYPES_INTERNAL => {
            H::registry().write::<false, S, C>(value, serializer)
        }
        None => H::registry().write::<true, S, C>(value, serializer),
    }
}

/// `C` out of a `Box<H>` read by the registry (or the scoped profile).
pub fn take_registered<H, C>(read: Box<H>) -> Result<C, String>
where
    H: ?Sized + Registered + Subtype + 'static,
    C: 'static,
{
    match crate::profile::scoped::<H>() {
        Some(profile) => take_from::<H, C>(&profile, read),
        None => take_from::<H, C>(H::registry(), read),
    }
}

fn take_from<H, C>(registry: &Registry<H>, read: Box<H>) -> Result<C, String>
where
    H: ?Sized + Subtype + 'static,
    C: 'static,
{
    let found = read.__json_subtypes_type_id();
    let wanted = TypeId::of::<C>();
    if found == wanted {
        return match read.__json_subtypes_into_any().downcast::<C>() {
            Ok(value) => Ok(*value),
            Err(_) => Err(format!(
                "json_subtypes: {} is not the type its id says",
                crate::names::short_of::<C>()
            )),
        };
    }
    let Some(expected) = registry.subtype_by_type(wanted) else {
        let type_name = crate::names::short_of::<C>();
        return Err(format!(
            "cannot read {type_name}: it is not a subtype of {}; {}",
            registry.name(),
            registry.how_to_register(&type_name, "read")
        ));
    };
    let expected_name = expected.type_name;
    let found_entry = registry.subtype_by_type(found);
    let found_name = found_entry.map_or("?", |e| e.type_name);
    let Some(key) = registry.tag_key() else {
        return Err(format!("expected {expected_name}, found {found_name}"));
    };
    let expected_tag = expected
        .tag
        .as_ref()
        .map_or_else(|| "no tag".to_owned(), |t| t.to_string());
    let found_tag = match found_entry.and_then(|e| e.tag.as_ref()) {
        Some(tag) => tag.to_string(),
        // The fallback took it: its tag is whatever it read.
        None => written_tag(&Written(registry, &*read), key),
    };
    Err(format!(
        "expected subtype tag {expected_tag} ({expected_name}), found {found_tag} ({found_name})"
    ))
}

/// A trait object written by one registry.
struct Written<'a, H: ?Sized + 'static>(&'a Registry<H>, &'a H);

impl<H: ?Sized + Subtype + 'static> Serialize for Written<'_, H> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(self.1, serializer)
    }
}

/// The message when an enum read another variant than `index`'s.
pub fn enum_mismatch<H, T>(read: &H, index: u32, expected_name: &str) -> String
where
    H: Serialize,
    T: Tagging,
{
    if T::KEY.is_empty() {
        return format!("expected {expected_name}, found another subtype");
    }
    let expected = T::tag(index).map_or_else(|| "no tag".to_owned(), |t| json_text(&t));
    let found = written_tag(read, T::KEY);
    format!("expected subtype tag {expected} ({expected_name}), found {found}")
}

/// The tag `value` writes under `key`, as JSON text.
fn written_tag<V: Serialize + ?Sized>(value: &V, key: &str) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::Object(map)) => match map.get(key) {
            Some(tag) => tag.to_string(),
            None => "no tag".to_owned(),
        },
        _ => "a value that cannot be written".to_owned(),
    }
}

fn json_text<V: Serialize + ?Sized>(value: &V) -> String {
    serde_json::to_string(value).unwrap_or_else(|_| "?".to_owned())
}
