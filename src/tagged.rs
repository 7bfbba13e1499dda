//! The tagged serializer: wraps the real serializer and puts the tag entry
//! in front of the payload's own fields.
//!
//! Generated code serializes the enum through a serde-derived, externally
//! tagged twin; its `serialize_*_variant` calls land here with the variant's
//! index, which selects the tag. The tag is a literal written directly: no
//! allocation, no intermediate value. Output is what serde's internally
//! tagged enums write, so the two are interchangeable on the wire.

use core::marker::PhantomData;

use serde::ser::{
    self, Error as _, Impossible, Serialize, SerializeMap, SerializeStruct, SerializeStructVariant,
    SerializeTupleVariant, Serializer,
};

use crate::content::{Content, ContentSerializer};
use crate::same::Declined;

/// What generated code provides to write an enum's tags.
pub trait Tagging {
    /// The tag key, e.g. `"type"`.
    const KEY: &'static str;
    /// The tag value type (a `Literal` for literal tags).
    type Tag: Serialize;
    /// The tag of variant `index`; `None` for variants written as they are
    /// (fallbacks, presence mode).
    fn tag(index: u32) -> Option<Self::Tag>;

    /// `visible`: whether variant `index`'s payload writes the tag itself,
    /// as its own field named like the tag.
    #[inline]
    fn visible(index: u32) -> bool {
        let _ = index;
        false
    }
}

/// Entry point of a generated `Serialize` impl: `serialize` is the twin's
/// serde-derived function.
pub struct TaggedSerializer<S, T> {
    inner: S,
    marker: PhantomData<T>,
}

impl<S, T> TaggedSerializer<S, T> {
    #[inline]
    pub fn new(inner: S) -> Self {
        TaggedSerializer {
            inner,
            marker: PhantomData,
        }
    }

    #[inline]
    pub(crate) fn into_inner(self) -> S {
        self.inner
    }
}

fn not_a_variant<E: ser::Error>() -> E {
    E::custom("json_subtypes: the generated serializer expects an enum variant")
}

macro_rules! refuse {
    ($($method:ident($($arg:ty),*))*) => {
        $(
            fn $method(self, $(_: $arg),*) -> Result<S::Ok, S::Error> {
                Err(not_a_variant())
            }
        )*
    };
}

impl<S: Serializer, T: Tagging> Serializer for TaggedSerializer<S, T> {
    type Ok = S::Ok;
    type Error = S::Error;
    type SerializeSeq = Impossible<S::Ok, S::Error>;
    type SerializeTuple = Impossible<S::Ok, S::Error>;
    type SerializeTupleStruct = Impossible<S::Ok, S::Error>;
    type SerializeTupleVariant = Impossible<S::Ok, S::Error>;
    type SerializeMap = Impossible<S::Ok, S::Error>;
    type SerializeStruct = Impossible<S::Ok, S::Error>;
    type SerializeStructVariant = Fields<S::SerializeStruct, T::Tag>;

    #[inline]
    fn serialize_unit_variant(
        self,
        name: &'static str,
        index: u32,
        _variant: &'static str,
    ) -> Result<S::Ok, S::Error> {
        write_unit(self.inner, name, T::KEY, T::tag(index))
    }

    #[inline]
    fn serialize_newtype_variant<V: ?Sized + Serialize>(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        value: &V,
    ) -> Result<S::Ok, S::Error> {
        match T::tag(index) {
            Some(tag) => value.serialize(PayloadSerializer {
                inner: self.inner,
                key: T::KEY,
                tag,
                subject: Subject {
                    owner: name,
                    member: variant,
                    of_trait: false,
                },
                last: false,
                visible: T::visible(index),
            }),
            None => value.serialize(self.inner),
        }
    }

    #[inline]
    fn serialize_struct_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Fields<S::SerializeStruct, T::Tag>, S::Error> {
        let tag = T::tag(index);
        let visible = T::visible(index);
        struct_variant(self.inner, name, variant, len, T::KEY, tag, visible)
    }

    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, S::Error> {
        Err(not_a_variant())
    }

    refuse! {
        serialize_bool(bool) serialize_i8(i8) serialize_i16(i16) serialize_i32(i32)
        serialize_i64(i64) serialize_u8(u8) serialize_u16(u16) serialize_u32(u32)
        serialize_u64(u64) serialize_f32(f32) serialize_f64(f64) serialize_char(char)
        serialize_str(&str) serialize_bytes(&[u8]) serialize_none() serialize_unit()
        serialize_unit_struct(&'static str)
    }

    fn serialize_some<V: ?Sized + Serialize>(self, _: &V) -> Result<S::Ok, S::Error> {
        Err(not_a_variant())
    }

    fn serialize_newtype_struct<V: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: &V,
    ) -> Result<S::Ok, S::Error> {
        Err(not_a_variant())
    }

    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, S::Error> {
        Err(not_a_variant())
    }

    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, S::Error> {
        Err(not_a_variant())
    }

    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, S::Error> {
        Err(not_a_variant())
    }

    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, S::Error> {
        Err(not_a_variant())
    }

    fn serialize_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStruct, S::Error> {
        Err(not_a_variant())
    }

    fn is_human_readable(&self) -> bool {
        self.inner.is_human_readable()
    }
}

/// The payload's fields after the tag; a field named like the tag is refused.
pub struct Fields<M, G> {
    state: M,
    key: Option<&'static str>,
    /// A tag written after the fields (`TagPosition::Last`); with
    /// `visible`, the tag the payload's own field must have, written after
    /// the fields only if it has no such field.
    trailing: Option<G>,
    /// `visible`: a field named like the tag is the tag.
    visible: bool,
    /// A map payload: the key just written was the visible tag's.
    value_is_tag: bool,
    subject: Subject,
}

/// A unit variant: its tag alone. Generic over the tag's type, not the
/// enum's table, so that enums share it (issue 15).
pub(crate) fn write_unit<S: Serializer, G: Serialize>(
    inner: S,
    name: &'static str,
    key: &'static str,
    tag: Option<G>,
) -> Result<S::Ok, S::Error> {
    match tag {
        Some(tag) => {
            let mut state = inner.serialize_struct(name, 1)?;
            state.serialize_field(key, &tag)?;
            state.end()
        }
        // A unit fallback kept nothing of what it read.
        None => inner.serialize_map(Some(0))?.end(),
    }
}

/// A struct variant's start: the tag, then its fields. Generic over the
/// tag's type, not the enum's table, as `write_unit`.
pub(crate) fn struct_variant<S: Serializer, G: Serialize>(
    inner: S,
    name: &'static str,
    variant: &'static str,
    len: usize,
    key: &'static str,
    tag: Option<G>,
    visible: bool,
) -> Result<Fields<S::SerializeStruct, G>, S::Error> {
    let (state, key, trailing) = match tag {
        // The variant's own field is the tag.
        Some(tag) if visible => (inner.serialize_struct(name, len)?, Some(key), Some(tag)),
        Some(tag) => {
            let mut state = inner.serialize_struct(name, len + 1)?;
            state.serialize_field(key, &tag)?;
            (state, Some(key), None)
        }
        None => (inner.serialize_struct(name, len)?, None, None),
    };
    Ok(Fields {
        state,
        key,
        visible: trailing.is_some(),
        trailing,
        value_is_tag: false,
        subject: Subject {
            owner: name,
            member: variant,
            of_trait: false,
        },
    })
}

/// What is being written, for messages: a variant of an enum, or a type as
/// a subtype of a trait object or a profile. The caller says which; it is
/// never guessed from the names.
#[derive(Clone, Copy)]
struct Subject {
    /// The enum's name, or the registry's (`dyn Shape`, `profile of dyn Shape`).
    owner: &'static str,
    /// The variant's name, or the subtype's type name.
    member: &'static str,
    of_trait: bool,
}

impl core::fmt::Display for Subject {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        if self.of_trait {
            write!(f, "{} as a subtype of {}", self.member, self.owner)
        } else {
            write!(f, "{}::{}", self.owner, self.member)
        }
    }
}

/// `visible`: the payload's field named like the tag must hold its tag.
#[cold]
fn check_visible<E: ser::Error, G: Serialize, V: ?Sized + Serialize>(
    tag: &G,
    value: &V,
    subject: Subject,
    key: &str,
) -> Result<(), E> {
    if crate::same::same_scalar(tag, value) {
        return Ok(());
    }
    let shown = |v: &dyn erased_serde::Serialize| {
        serde_json::to_string(v).unwrap_or_else(|_| "a value that is not a tag".to_owned())
    };
    let (value, tag) = (shown(&value), shown(tag));
    Err(E::custom(format_args!(
        "cannot serialize {subject}: its field `{key}` is {value}, but its tag is {tag}"
    )))
}

fn field_is_tag<E: ser::Error>(subject: Subject, key: &str) -> E {
    E::custom(format_args!(
        "cannot serialize {subject}: its field `{key}` has the name of the tag"
    ))
}

impl<M: SerializeStruct, G: Serialize> Fields<M, G> {
    /// A field named like the tag: the tag itself with `visible` (checked,
    /// then written), else an error. Out of line: every other field pays
    /// only the comparison.
    #[cold]
    #[inline(never)]
    fn tag_field<V: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &V,
    ) -> Result<(), M::Error> {
        let Some(tag) = self.trailing.take().filter(|_| self.visible) else {
            return Err(field_is_tag(self.subject, key));
        };
        check_visible(&tag, value, self.subject, key)?;
        self.state.serialize_field(key, value)
    }
}

impl<M: SerializeStruct, G: Serialize> SerializeStructVariant for Fields<M, G> {
    type Ok = M::Ok;
    type Error = M::Error;

    #[inline]
    fn serialize_field<V: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &V,
    ) -> Result<(), M::Error> {
        if Some(key) == self.key {
            return self.tag_field(key, value);
        }
        self.state.serialize_field(key, value)
    }

    fn skip_field(&mut self, key: &'static str) -> Result<(), M::Error> {
        self.state.skip_field(key)
    }

    #[inline]
    fn end(mut self) -> Result<M::Ok, M::Error> {
        // With `visible`, a payload without the field (or skipping it): the
        // tag still goes out, so the value reads back.
        if let (Some(tag), Some(key)) = (self.trailing.take(), self.key) {
            self.state.serialize_field(key, &tag)?;
        }
        self.state.end()
    }
}

impl<M: SerializeStruct, G: Serialize> SerializeStruct for Fields<M, G> {
    type Ok = M::Ok;
    type Error = M::Error;

    #[inline]
    fn serialize_field<V: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &V,
    ) -> Result<(), M::Error> {
        SerializeStructVariant::serialize_field(self, key, value)
    }

    fn skip_field(&mut self, key: &'static str) -> Result<(), M::Error> {
        self.state.skip_field(key)
    }

    #[inline]
    fn end(self) -> Result<M::Ok, M::Error> {
        SerializeStructVariant::end(self)
    }
}

impl<M: SerializeMap, G: Serialize> SerializeMap for Fields<M, G> {
    type Ok = M::Ok;
    type Error = M::Error;

    fn serialize_key<K: ?Sized + Serialize>(&mut self, key: &K) -> Result<(), M::Error> {
        if let Some(tag) = self.key {
            if let Ok(true) = key.serialize(IsKey(tag)) {
                if !self.visible || self.trailing.is_none() {
                    return Err(field_is_tag(self.subject, tag));
                }
                self.value_is_tag = true;
            }
        }
        self.state.serialize_key(key)
    }

    fn serialize_value<V: ?Sized + Serialize>(&mut self, value: &V) -> Result<(), M::Error> {
        if self.value_is_tag {
            self.value_is_tag = false;
            if let (Some(tag), Some(key)) = (self.trailing.take(), self.key) {
                check_visible(&tag, value, self.subject, key)?;
            }
        }
        self.state.serialize_value(value)
    }

    fn end(mut self) -> Result<M::Ok, M::Error> {
        if let (Some(tag), Some(key)) = (self.trailing.take(), self.key) {
            self.state.serialize_entry(key, &tag)?;
        }
        self.state.end()
    }
}

/// Serializes a newtype variant's payload with the tag entry first.
pub struct PayloadSerializer<S, G> {
    inner: S,
    key: &'static str,
    tag: G,
    subject: Subject,
    /// Write the tag after the payload's fields.
    last: bool,
    /// `visible`: the payload's own field named like the tag writes it.
    visible: bool,
}

impl<S: Serializer, G: Serialize> PayloadSerializer<S, G> {
    /// For a trait object or profile (named `name`, e.g. `dyn Shape` or
    /// `profile of dyn Shape`): `type_name` as a subtype of it.
    pub(crate) fn for_type(
        inner: S,
        key: &'static str,
        tag: G,
        name: &'static str,
        type_name: &'static str,
        last: bool,
        visible: bool,
    ) -> Self {
        PayloadSerializer {
            inner,
            key,
            tag,
            subject: Subject {
                owner: name,
                member: type_name,
                of_trait: true,
            },
            last,
            visible,
        }
    }

    fn bad_type(&self, what: &str) -> S::Error {
        let subject = self.subject;
        if subject.of_trait {
            S::Error::custom(format_args!(
                "cannot serialize {subject}: it is {what}, not a map or struct"
            ))
        } else {
            // serde's own wording for an internally tagged enum.
            S::Error::custom(format_args!(
                "cannot serialize tagged newtype variant {subject} containing {what}"
            ))
        }
    }

    /// Starts the two-entry map of an enum payload: the tag (unless it goes
    /// last) and the key `inner_variant`, whose value the caller writes.
    fn variant_entry(
        self,
        inner_variant: &'static str,
    ) -> Result<VariantEntry<S::SerializeMap, G>, S::Error> {
        let mut map = self.inner.serialize_map(Some(2))?;
        let trailing = if self.last {
            Some(self.tag)
        } else {
            map.serialize_entry(self.key, &self.tag)?;
            None
        };
        map.serialize_key(inner_variant)?;
        Ok(VariantEntry {
            map,
            key: self.key,
            trailing,
        })
    }

    fn tag_only(self) -> Result<S::Ok, S::Error> {
        let mut map = self.inner.serialize_map(Some(1))?;
        map.serialize_entry(self.key, &self.tag)?;
        map.end()
    }
}

macro_rules! payload_refuses {
    ($($method:ident($($arg:ty),*) => $what:expr;)*) => {
        $(
            fn $method(self, $(_: $arg),*) -> Result<S::Ok, S::Error> {
                Err(self.bad_type($what))
            }
        )*
    };
}

impl<S: Serializer, G: Serialize> Serializer for PayloadSerializer<S, G> {
    type Ok = S::Ok;
    type Error = S::Error;
    type SerializeSeq = Impossible<S::Ok, S::Error>;
    type SerializeTuple = Impossible<S::Ok, S::Error>;
    type SerializeTupleStruct = Impossible<S::Ok, S::Error>;
    type SerializeTupleVariant = VariantValue<S::SerializeMap, G>;
    type SerializeMap = Fields<S::SerializeMap, G>;
    type SerializeStruct = Fields<S::SerializeStruct, G>;
    type SerializeStructVariant = VariantValue<S::SerializeMap, G>;

    payload_refuses! {
        serialize_bool(bool) => "a boolean";
        serialize_i8(i8) => "an integer";
        serialize_i16(i16) => "an integer";
        serialize_i32(i32) => "an integer";
        serialize_i64(i64) => "an integer";
        serialize_i128(i128) => "an integer";
        serialize_u8(u8) => "an integer";
        serialize_u16(u16) => "an integer";
        serialize_u32(u32) => "an integer";
        serialize_u64(u64) => "an integer";
        serialize_u128(u128) => "an integer";
        serialize_f32(f32) => "a float";
        serialize_f64(f64) => "a float";
        serialize_char(char) => "a char";
        serialize_str(&str) => "a string";
        serialize_bytes(&[u8]) => "a byte array";
        serialize_none() => "an optional";
    }

    fn serialize_some<V: ?Sized + Serialize>(self, _: &V) -> Result<S::Ok, S::Error> {
        Err(self.bad_type("an optional"))
    }

    fn serialize_unit(self) -> Result<S::Ok, S::Error> {
        self.tag_only()
    }

    fn serialize_unit_struct(self, _: &'static str) -> Result<S::Ok, S::Error> {
        self.tag_only()
    }

    // An externally tagged enum as the payload: its variant becomes the one
    // entry beside the tag, as serde's internally tagged enums write it.
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        inner_variant: &'static str,
    ) -> Result<S::Ok, S::Error> {
        let mut state = self.variant_entry(inner_variant)?;
        state.map.serialize_value(&())?;
        state.end()
    }

    fn serialize_newtype_struct<V: ?Sized + Serialize>(
        self,
        _: &'static str,
        value: &V,
    ) -> Result<S::Ok, S::Error> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<V: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        inner_variant: &'static str,
        value: &V,
    ) -> Result<S::Ok, S::Error> {
        let mut state = self.variant_entry(inner_variant)?;
        state.map.serialize_value(value)?;
        state.end()
    }

    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, S::Error> {
        Err(self.bad_type("a sequence"))
    }

    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, S::Error> {
        Err(self.bad_type("a tuple"))
    }

    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, S::Error> {
        Err(self.bad_type("a tuple struct"))
    }

    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        inner_variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeTupleVariant, S::Error> {
        let state = self.variant_entry(inner_variant)?;
        Ok(VariantValue {
            state,
            name: inner_variant,
            items: Vec::with_capacity(len),
            fields: Vec::new(),
        })
    }

    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        inner_variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeStructVariant, S::Error> {
        let state = self.variant_entry(inner_variant)?;
        Ok(VariantValue {
            state,
            name: inner_variant,
            items: Vec::new(),
            fields: Vec::with_capacity(len),
        })
    }

    #[inline]
    fn serialize_map(self, len: Option<usize>) -> Result<Self::SerializeMap, S::Error> {
        // With `visible` the payload's own entry is the tag.
        let extra = usize::from(!self.visible);
        let mut map = self.inner.serialize_map(len.map(|len| len + extra))?;
        let trailing = if self.last || self.visible {
            Some(self.tag)
        } else {
            map.serialize_entry(self.key, &self.tag)?;
            None
        };
        Ok(Fields {
            state: map,
            key: Some(self.key),
            trailing,
            visible: self.visible,
            value_is_tag: false,
            subject: self.subject,
        })
    }

    #[inline]
    fn serialize_struct(
        self,
        name: &'static str,
        len: usize,
    ) -> Result<Self::SerializeStruct, S::Error> {
        // With `visible` the payload's own field is the tag: `len` counts it.
        let extra = usize::from(!self.visible);
        let mut state = self.inner.serialize_struct(name, len + extra)?;
        let trailing = if self.last || self.visible {
            Some(self.tag)
        } else {
            state.serialize_field(self.key, &self.tag)?;
            None
        };
        Ok(Fields {
            state,
            key: Some(self.key),
            trailing,
            visible: self.visible,
            value_is_tag: false,
            subject: self.subject,
        })
    }

    fn is_human_readable(&self) -> bool {
        self.inner.is_human_readable()
    }
}

/// The map of an enum payload once its variant's key is written.
pub struct VariantEntry<M, G> {
    map: M,
    key: &'static str,
    /// A tag written after the entry (`TagPosition::Last`).
    trailing: Option<G>,
}

impl<M: SerializeMap, G: Serialize> VariantEntry<M, G> {
    fn end(mut self) -> Result<M::Ok, M::Error> {
        if let Some(tag) = self.trailing.take() {
            self.map.serialize_entry(self.key, &tag)?;
        }
        self.map.end()
    }
}

/// A tuple or struct variant of an enum payload: its fields are collected
/// and written as the entry's value when it ends (see `crate::content`).
pub struct VariantValue<M, G> {
    state: VariantEntry<M, G>,
    name: &'static str,
    items: Vec<Content>,
    fields: Vec<(&'static str, Content)>,
}

impl<M: SerializeMap, G: Serialize> SerializeTupleVariant for VariantValue<M, G> {
    type Ok = M::Ok;
    type Error = M::Error;

    fn serialize_field<V: ?Sized + Serialize>(&mut self, value: &V) -> Result<(), M::Error> {
        self.items.push(value.serialize(ContentSerializer::new())?);
        Ok(())
    }

    fn end(mut self) -> Result<M::Ok, M::Error> {
        let items = core::mem::take(&mut self.items);
        // serde's `SerializeTupleVariantAsMapValue` writes a tuple struct
        // named after the variant.
        let value = Content::TupleStruct(self.name, items);
        self.state.map.serialize_value(&value)?;
        self.state.end()
    }
}

impl<M: SerializeMap, G: Serialize> SerializeStructVariant for VariantValue<M, G> {
    type Ok = M::Ok;
    type Error = M::Error;

    fn serialize_field<V: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &V,
    ) -> Result<(), M::Error> {
        let value = value.serialize(ContentSerializer::new())?;
        self.fields.push((key, value));
        Ok(())
    }

    fn end(mut self) -> Result<M::Ok, M::Error> {
        let fields = core::mem::take(&mut self.fields);
        let value = Content::Struct(self.name, fields);
        self.state.map.serialize_value(&value)?;
        self.state.end()
    }
}

/// Answers whether a map key serializes as the string `self.0`.
struct IsKey(&'static str);

macro_rules! not_a_string {
    ($($method:ident($($arg:ty),*))*) => {
        $(
            fn $method(self, $(_: $arg),*) -> Result<bool, Declined> {
                Ok(false)
            }
        )*
    };
}

impl Serializer for IsKey {
    type Ok = bool;
    type Error = Declined;
    type SerializeSeq = Impossible<bool, Declined>;
    type SerializeTuple = Impossible<bool, Declined>;
    type SerializeTupleStruct = Impossible<bool, Declined>;
    type SerializeTupleVariant = Impossible<bool, Declined>;
    type SerializeMap = Impossible<bool, Declined>;
    type SerializeStruct = Impossible<bool, Declined>;
    type SerializeStructVariant = Impossible<bool, Declined>;

    fn serialize_str(self, v: &str) -> Result<bool, Declined> {
        Ok(v == self.0)
    }

    fn serialize_char(self, v: char) -> Result<bool, Declined> {
        Ok(v.encode_utf8(&mut [0; 4]) == self.0)
    }

    fn serialize_bytes(self, v: &[u8]) -> Result<bool, Declined> {
        Ok(v == self.0.as_bytes())
    }

    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        v: &'static str,
    ) -> Result<bool, Declined> {
        Ok(v == self.0)
    }

    fn serialize_newtype_struct<V: ?Sized + Serialize>(
        self,
        _: &'static str,
        value: &V,
    ) -> Result<bool, Declined> {
        value.serialize(self)
    }

    not_a_string! {
        serialize_bool(bool) serialize_i8(i8) serialize_i16(i16) serialize_i32(i32)
        serialize_i64(i64) serialize_u8(u8) serialize_u16(u16) serialize_u32(u32)
        serialize_u64(u64) serialize_f32(f32) serialize_f64(f64) serialize_none()
        serialize_unit() serialize_unit_struct(&'static str)
    }

    fn serialize_some<V: ?Sized + Serialize>(self, _: &V) -> Result<bool, Declined> {
        Ok(false)
    }

    fn serialize_newtype_variant<V: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &V,
    ) -> Result<bool, Declined> {
        Ok(false)
    }

    crate::same::declines_compounds!();
}
