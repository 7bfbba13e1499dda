//! `Fields`: a struct or map payload's fields after its tag, refusing a
//! field named like the tag (or, with `visible`, checking that it holds
//! the tag), and the messages that name what is being written.

use serde::ser::{
    self, Impossible, Serialize, SerializeMap, SerializeStruct, SerializeStructVariant, Serializer,
};

use crate::tag::Literal;
use crate::visible::Declined;

/// The payload's fields after the tag; a field named like the tag is refused.
///
/// `E` is the tag entry the fields are written beside: borrowed from the
/// caller for a newtype payload (`&TagEntry`), so that the state the
/// payload's `serialize` holds and moves is the format's state and one
/// pointer (moving a copy of the entry, its tag and its names was about
/// a third of that function's instructions); owned for a struct
/// variant (`Option<TagEntry>`), whose fields the twin's derived code
/// writes after `serialize_struct_variant` has returned.
pub struct Fields<M, E> {
    pub(super) state: M,
    pub(super) entry: E,
    /// The tag is still to be written: after the fields
    /// (`TagPosition::Last`), or with `visible` as the payload's own field
    /// or, if it has none, after the fields.
    pub(super) trailing: bool,
    /// A map payload: the key just written was the visible tag's.
    pub(super) value_is_tag: bool,
}

/// A struct variant's fields: with the tag entry, owned.
pub(crate) type VariantFields<M, G> = Fields<M, Option<TagEntry<G>>>;

/// The tag entry a payload is written with, and what the payload is.
pub struct TagEntry<G> {
    pub(super) key: &'static str,
    pub(super) tag: G,
    pub(super) subject: Subject,
    /// Write the tag after the payload's fields.
    pub(super) last: bool,
    /// `visible`: the payload's own field named like the tag writes it,
    /// holding the tag or one of these aliases (every one reads back to
    /// the same subtype, so the field is written as it is).
    pub(super) visible: Option<&'static [Literal]>,
}

impl<G> TagEntry<G> {
    /// For variant `variant` of the enum `name`; `visible_fix`: whether
    /// `visible` on the enum would make a payload field named like the tag
    /// the tag (for messages).
    pub(super) fn for_variant(
        key: &'static str,
        tag: G,
        name: &'static str,
        variant: &'static str,
        visible: Option<&'static [Literal]>,
        visible_fix: bool,
    ) -> Self {
        TagEntry {
            key,
            tag,
            subject: Subject {
                owner: name,
                member: variant,
                kind: if visible_fix {
                    Owner::Enum
                } else {
                    Owner::EnumOther
                },
            },
            last: false,
            visible,
        }
    }

    /// For a trait object or profile (`kind`, named `name`, e.g. `dyn
    /// Shape` or `profile of dyn Shape`): `type_name` as a subtype of it.
    /// The tag written.
    pub(crate) fn tag(&self) -> &G {
        &self.tag
    }

    /// The same entry with another tag value.
    pub(crate) fn with_tag<H>(&self, tag: H) -> TagEntry<H> {
        TagEntry {
            key: self.key,
            tag,
            subject: self.subject,
            last: self.last,
            visible: self.visible,
        }
    }

    pub(crate) fn for_type(
        key: &'static str,
        tag: G,
        (kind, name): (Owner, &'static str),
        type_name: &'static str,
        last: bool,
        visible: Option<&'static [Literal]>,
    ) -> Self {
        TagEntry {
            key,
            tag,
            subject: Subject {
                owner: name,
                member: type_name,
                kind,
            },
            last,
            visible,
        }
    }
}

/// The tag entry of a `Fields`, if it has one (a fallback's or a presence
/// variant's struct has none).
pub trait Beside {
    type Tag: Serialize;
    fn entry(&self) -> Option<&TagEntry<Self::Tag>>;
}

impl<G: Serialize> Beside for &TagEntry<G> {
    type Tag = G;

    #[inline]
    fn entry(&self) -> Option<&TagEntry<G>> {
        Some(self)
    }
}

impl<G: Serialize> Beside for Option<TagEntry<G>> {
    type Tag = G;

    #[inline]
    fn entry(&self) -> Option<&TagEntry<G>> {
        self.as_ref()
    }
}

/// A unit variant: its tag alone. Generic over the tag's type, not the
/// enum's table, so that enums share it.
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
    visible: Option<&'static [Literal]>,
) -> Result<VariantFields<S::SerializeStruct, G>, S::Error> {
    // A field named like the tag among a struct variant's own is a compile
    // error; one met here came from a map it flattens, which `visible`
    // would not make the tag.
    let entry = |tag| TagEntry::for_variant(key, tag, name, variant, visible, false);
    let (state, entry, trailing) = match tag {
        // The variant's own field is the tag.
        Some(tag) if visible.is_some() => {
            (inner.serialize_struct(name, len)?, Some(entry(tag)), true)
        }
        Some(tag) => {
            let mut state = inner.serialize_struct(name, len + 1)?;
            state.serialize_field(key, &tag)?;
            (state, Some(entry(tag)), false)
        }
        None => (inner.serialize_struct(name, len)?, None, false),
    };
    Ok(Fields {
        state,
        entry,
        trailing,
        value_is_tag: false,
    })
}

/// What is being written, for messages: a variant of an enum, or a type as
/// a subtype of a trait object or a profile. The caller says which; it is
/// never guessed from the names.
#[derive(Clone, Copy)]
pub(super) struct Subject {
    /// The enum's name, or the registry's (`dyn Shape`, `profile of dyn Shape`).
    pub(super) owner: &'static str,
    /// The variant's name, or the subtype's type name.
    pub(super) member: &'static str,
    pub(super) kind: Owner,
}

/// Whose payload is written, and so where `visible` would go.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Owner {
    /// A payload of an annotated enum that `visible` would hand the tag
    /// to: a newtype variant's, under literal tags.
    Enum,
    /// Any other payload of an annotated enum: `visible` is no fix there.
    EnumOther,
    /// An annotated trait's registry.
    Trait,
    /// A profile built at run time.
    Profile,
}

impl Subject {
    pub(super) fn of_trait(&self) -> bool {
        matches!(self.kind, Owner::Trait | Owner::Profile)
    }
}

impl core::fmt::Display for Subject {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        if self.of_trait() {
            write!(f, "{} as a subtype of {}", self.member, self.owner)
        } else {
            write!(f, "{}::{}", self.owner, self.member)
        }
    }
}

/// `visible`: the payload's field named like the tag must hold its tag or
/// one of its aliases, each of which reads back to the same subtype.
#[cold]
fn check_visible<E: ser::Error, G: Serialize, V: ?Sized + Serialize>(
    entry: &TagEntry<G>,
    value: &V,
    key: &str,
) -> Result<(), E> {
    let aliases = entry.visible.unwrap_or_default();
    if crate::visible::same_scalar(&entry.tag, value)
        || aliases
            .iter()
            .any(|a| crate::visible::same_scalar(a, value))
    {
        return Ok(());
    }
    let shown = |v: &dyn erased_serde::Serialize| {
        serde_json::to_string(v).unwrap_or_else(|_| "a value that is not a tag".to_owned())
    };
    let (value, tag) = (shown(&value), shown(&entry.tag));
    let subject = entry.subject;
    let aliases = match aliases {
        [] => String::new(),
        [one] => format!(" or its alias {one}"),
        many => format!(" or one of its aliases {}", crate::tag::Expected(many)),
    };
    Err(E::custom(format_args!(
        "cannot serialize {subject}: its field `{key}` is {value}, but its tag is {tag}{aliases}"
    )))
}

/// A payload field named like the tag where the tag is not `visible` (or,
/// with `visible`, a second one): the message names what to change.
#[cold]
pub(super) fn field_is_tag<E: ser::Error, G>(entry: &TagEntry<G>) -> E {
    let (subject, key) = (entry.subject, entry.key);
    if entry.visible.is_some() {
        return E::custom(format_args!(
            "cannot serialize {subject}: it writes a second field `{key}` after the one that holds the tag; write the field once"
        ));
    }
    if subject.kind == Owner::EnumOther {
        return E::custom(format_args!(
            "cannot serialize {subject}: its field `{key}` has the name of the tag"
        ));
    }
    let fix = TagFix {
        kind: subject.kind,
        owner: subject.owner,
        key,
    };
    E::custom(format_args!(
        "cannot serialize {subject}: its field `{key}` has the name of the tag; {fix} so that the field is the tag"
    ))
}

/// How to make a tag `visible` where it is declared, for messages.
struct TagFix<'a> {
    kind: Owner,
    /// The enum's name (unused for traits and profiles).
    owner: &'a str,
    key: &'a str,
}

impl core::fmt::Display for TagFix<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let key = self.key;
        match self.kind {
            Owner::Enum | Owner::EnumOther => write!(
                f,
                "add `visible` to {}'s `#[json_subtypes(tag = {key:?})]`",
                self.owner
            ),
            Owner::Trait => write!(
                f,
                "add `visible` to the trait's `#[json_subtypes(tag = {key:?})]`"
            ),
            Owner::Profile => f.write_str("call `.visible(true)` on the profile's builder"),
        }
    }
}

/// A field named like the tag: the tag itself with `visible` (checked,
/// then written), else an error. Out of line: every other field pays only
/// the comparison.
#[cold]
#[inline(never)]
fn tag_field<M: SerializeStruct, G: Serialize, V: ?Sized + Serialize>(
    state: &mut M,
    trailing: &mut bool,
    entry: &TagEntry<G>,
    key: &'static str,
    value: &V,
) -> Result<(), M::Error> {
    if !(*trailing && entry.visible.is_some()) {
        return Err(field_is_tag(entry));
    }
    *trailing = false;
    check_visible(entry, value, key)?;
    state.serialize_field(key, value)
}

impl<M: SerializeStruct, E: Beside> SerializeStructVariant for Fields<M, E> {
    type Ok = M::Ok;
    type Error = M::Error;

    #[inline]
    fn serialize_field<V: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &V,
    ) -> Result<(), M::Error> {
        let Fields {
            state,
            entry,
            trailing,
            ..
        } = self;
        if let Some(entry) = entry.entry() {
            if key == entry.key {
                return tag_field(state, trailing, entry, key, value);
            }
        }
        state.serialize_field(key, value)
    }

    fn skip_field(&mut self, key: &'static str) -> Result<(), M::Error> {
        self.state.skip_field(key)
    }

    #[inline]
    fn end(mut self) -> Result<M::Ok, M::Error> {
        // With `visible`, a payload without the field (or skipping it): the
        // tag still goes out, so the value reads back.
        if self.trailing {
            if let Some(entry) = self.entry.entry() {
                self.state.serialize_field(entry.key, &entry.tag)?;
            }
        }
        self.state.end()
    }
}

impl<M: SerializeStruct, E: Beside> SerializeStruct for Fields<M, E> {
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

impl<M: SerializeMap, E: Beside> SerializeMap for Fields<M, E> {
    type Ok = M::Ok;
    type Error = M::Error;

    fn serialize_key<K: ?Sized + Serialize>(&mut self, key: &K) -> Result<(), M::Error> {
        if let Some(entry) = self.entry.entry() {
            if let Ok(true) = key.serialize(IsKey(entry.key)) {
                if entry.visible.is_none() || !self.trailing {
                    return Err(field_is_tag(entry));
                }
                self.value_is_tag = true;
            }
        }
        self.state.serialize_key(key)
    }

    fn serialize_value<V: ?Sized + Serialize>(&mut self, value: &V) -> Result<(), M::Error> {
        if self.value_is_tag {
            self.value_is_tag = false;
            if let (true, Some(entry)) = (self.trailing, self.entry.entry()) {
                self.trailing = false;
                check_visible(entry, value, entry.key)?;
            }
        }
        self.state.serialize_value(value)
    }

    fn end(mut self) -> Result<M::Ok, M::Error> {
        if let (true, Some(entry)) = (self.trailing, self.entry.entry()) {
            self.state.serialize_entry(entry.key, &entry.tag)?;
        }
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

    crate::visible::declines_compounds!();
}
