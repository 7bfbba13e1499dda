//! The adjacently tagged form, `{"type":"Circle","value":{"r":1.0}}`: the
//! tag and the payload under two keys of one map (serde's and typetag's
//! `tag` + `content`). Formats that write a struct as a sequence (postcard,
//! bincode) hold `[tag, content]`.
//!
//! With the tag first nothing is buffered; content that comes before the
//! tag is recorded, as serde does, within `max_buffer`. Other keys are
//! ignored (parsed, as the internal form parses them) or, with
//! `deny_unknown_fields`, refused. A set with a fallback records every entry
//! before the tag, so an unknown tag lands there with the whole object.

use core::cell::Cell;
use core::fmt;
use core::marker::PhantomData;
use std::sync::OnceLock;

use serde::de::{
    self, DeserializeSeed, Deserializer, Error as _, IgnoredAny, IntoDeserializer, MapAccess,
    SeqAccess, Visitor,
};
use serde::ser::{SerializeStruct, Serializer};

use super::{build_from, Bare, BuildSeed, TagSeed, TagValue};
use crate::buffer::{Buffer, Limit, Mark};
use crate::dispatch::{Enum, Subtypes};
use crate::rest::{duplicate_field, missing_field, RestState, Stretch};
use crate::subtype::Subtype;
use crate::tag::{OwnedLiteral, TagSink};

/// The two keys of the adjacent form, as serde's struct requests want
/// them: `[tag, content]`, interned once per pair (profiles are built at
/// run time), so memory is bounded by the distinct pairs.
pub(crate) fn fields(tag: &str, content: &str) -> &'static [&'static str] {
    type Pairs = parking_lot::Mutex<Vec<&'static [&'static str]>>;
    static PAIRS: OnceLock<Pairs> = OnceLock::new();
    let mut pairs = PAIRS.get_or_init(Default::default).lock();
    if let Some(found) = pairs.iter().find(|p| p[0] == tag && p[1] == content) {
        return found;
    }
    let tag: &'static str = Box::leak(Box::<str>::from(tag));
    let content: &'static str = Box::leak(Box::<str>::from(content));
    let leaked: &'static [&'static str] = Box::leak(Box::new([tag, content]));
    pairs.push(leaked);
    leaked
}

/// The form's settings: its struct name and keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Adjacent {
    /// The name a struct request tells the format (the trait's name).
    pub(crate) name: &'static str,
    /// `[tag, content]`, from [`fields`].
    pub(crate) fields: &'static [&'static str],
    pub(crate) deny_unknown_fields: bool,
}

impl Adjacent {
    /// The form for a set named `name` (`dyn Shape`, `profile of dyn
    /// Shape`): its struct is named for the trait (`Shape`), as typetag's is.
    pub(crate) fn new(
        name: &'static str,
        tag: &str,
        content: &str,
        deny_unknown_fields: bool,
    ) -> Self {
        Adjacent {
            name: name.rsplit("dyn ").next().unwrap_or(name),
            fields: fields(tag, content),
            deny_unknown_fields,
        }
    }

    pub(crate) fn tag(&self) -> &'static str {
        self.fields[0]
    }

    pub(crate) fn content(&self) -> &'static str {
        self.fields[1]
    }
}

/// Where a reader finds the form: an enum's constants, so that each key
/// is compared with constants as in serde's derive (a call to `bcmp` and
/// the spills around it otherwise), or a trait's or profile's table.
pub(crate) trait Form: Copy {
    fn get(self) -> Adjacent;
}

impl Form for Adjacent {
    #[inline]
    fn get(self) -> Adjacent {
        self
    }
}

/// The form of enum `T`, from the constants of its set.
pub(crate) struct EnumForm<'de, T>(PhantomData<fn(&'de ()) -> T>);

impl<T> Clone for EnumForm<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for EnumForm<'_, T> {}

impl<'de, T: Enum<'de>> Form for EnumForm<'de, T> {
    #[inline]
    fn get(self) -> Adjacent {
        let keys = T::Subtypes::ADJACENT;
        Adjacent {
            name: T::SUBTYPES.settings().name,
            fields: keys.fields,
            deny_unknown_fields: keys.deny_unknown_fields,
        }
    }
}

impl<T> EnumForm<'_, T> {
    pub(crate) fn new() -> Self {
        EnumForm(PhantomData)
    }
}

/// Writes `value` as a struct of two fields, `tag` and the content (the
/// content first when `last`).
pub(crate) fn serialize<S, V>(
    serializer: S,
    form: Adjacent,
    tag: &OwnedLiteral,
    value: Bare<'_, V>,
    last: bool,
) -> Result<S::Ok, S::Error>
where
    S: Serializer,
    V: ?Sized + Subtype,
{
    let mut out = serializer.serialize_struct(form.name, 2)?;
    if last {
        out.serialize_field(form.content(), &value)?;
        out.serialize_field(form.tag(), &TagValue(tag))?;
    } else {
        out.serialize_field(form.tag(), &TagValue(tag))?;
        out.serialize_field(form.content(), &value)?;
    }
    out.end()
}

/// Reads one value of `subtypes` in the adjacently tagged form.
pub(crate) fn deserialize<'de, S, F, D>(
    subtypes: S,
    form: F,
    deserializer: D,
) -> Result<S::Value, D::Error>
where
    S: Subtypes<'de>,
    F: Form,
    D: Deserializer<'de>,
{
    // Entering with no hoist key clears it: a replay of our buffer hands
    // this form's entries over in their order.
    let Some(_level) = crate::state::enter(subtypes.settings().max_depth, None) else {
        return Err(D::Error::custom("recursion limit exceeded"));
    };
    // Asked up front only for a fallback, which may be handed the object
    // with nothing of it recorded from the format. Content before the tag
    // is replayed as the format answered while it was recorded (see
    // `Buffer`); any other value is read from the format itself.
    let human_readable = match S::MAY_KEEP_TAG {
        true => (subtypes.settings().fallback).map(|_| deserializer.is_human_readable()),
        false => None,
    };
    deserializer.deserialize_struct(
        form.get().name,
        form.get().fields,
        AdjacentVisitor {
            subtypes,
            form,
            human_readable,
            marker: PhantomData,
        },
    )
}

struct AdjacentVisitor<'de, S, F> {
    subtypes: S,
    form: F,
    /// The format's `is_human_readable`, with a fallback.
    human_readable: Option<bool>,
    marker: PhantomData<&'de ()>,
}

impl<'de, S: Subtypes<'de>, F: Form> AdjacentVisitor<'de, S, F> {
    /// Records the value of the entry whose key was just read, within the
    /// set's limit.
    fn record<A: MapAccess<'de>>(
        &self,
        buf: &mut Buffer<'de>,
        map: &mut A,
        limit: Option<Limit>,
    ) -> Result<(), A::Error> {
        let s = &self.subtypes;
        let depth = crate::state::remaining();
        if S::MAY_BE_EXACT && s.settings().exact_numbers {
            return crate::exact::record_value(buf, map, depth, limit);
        }
        match limit {
            Some(limit) => buf.record_value_within(map, depth, limit),
            None => buf.record_value(map, depth),
        }
    }

    /// Reads the keys after the tag and the content: only others may come.
    #[inline]
    fn finish<A: MapAccess<'de>>(&self, map: &mut A) -> Result<(), A::Error> {
        let form = self.form;
        while let Some(field) = map.next_key_seed(FieldSeed {
            form,
            record: None,
            before_tag: None,
        })? {
            match field {
                Field::Tag => return Err(duplicate_field(form.get().tag())),
                Field::Content => return Err(duplicate_field(form.get().content())),
                Field::Other => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(())
    }
}

impl<'de, S: Subtypes<'de>, F: Form> Visitor<'de> for AdjacentVisitor<'de, S, F> {
    type Value = S::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // `#[serde(expecting = "...")]`, as serde's adjacent enums use it.
        if let Some(expecting) = self.subtypes.settings().expecting {
            return f.write_str(expecting);
        }
        write!(
            f,
            "a map with the subtype tag of {} in `{}` and its content in `{}`",
            self.subtypes.settings().name,
            self.form.get().tag(),
            self.form.get().content()
        )
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<S::Value, A::Error> {
        let s = &self.subtypes;
        let form = self.form;
        let fallback = if S::MAY_KEEP_TAG {
            s.settings().fallback
        } else {
            None
        };
        let limit = if S::MAY_LIMIT {
            s.settings().limit()
        } else {
            None
        };
        let tag_first = S::MAY_REQUIRE_TAG_FIRST && s.settings().require_tag_first;
        // Before the tag: the content recorded (and, for a fallback, every
        // entry with its key).
        let mut buf = Buffer::new();
        if let Some(human_readable) = self.human_readable {
            buf.note_human_readable(human_readable);
        }
        let mut content: Option<Mark> = None;
        let index = loop {
            let seed = FieldSeed {
                form,
                record: fallback.map(|_| &mut buf),
                before_tag: tag_first.then(|| s.settings().name),
            };
            match map.next_key_seed(seed)? {
                Some(Field::Tag) => {
                    let sink = fallback.map(|_| TagSink {
                        buf: &mut buf,
                        key: Some(form.get().tag()),
                        fallback: true,
                        visible: false,
                        head: None,
                    });
                    break map.next_value_seed(TagSeed {
                        subtypes: s,
                        sink,
                        in_seq: false,
                    })?;
                }
                Some(Field::Content) => {
                    if content.is_some() {
                        return Err(duplicate_field(form.get().content()));
                    }
                    if fallback.is_none() {
                        // The key was not recorded; the content starts here.
                        buf.first_use();
                    }
                    content = Some(buf.mark());
                    self.record(&mut buf, &mut map, limit)?;
                }
                Some(Field::Other) if fallback.is_some() => {
                    self.record(&mut buf, &mut map, limit)?;
                }
                Some(Field::Other) => {
                    map.next_value::<IgnoredAny>()?;
                }
                None => {
                    return match fallback {
                        // No tag: the fallback reads the whole object.
                        Some(fallback) => {
                            self.rest(fallback, buf.prefix_reader(Stretch::Ended), map)
                        }
                        None => Err(missing_field(form.get().tag())),
                    };
                }
            }
        };
        let Some(index) = index else {
            // An unknown tag, recorded with its key: the fallback reads the
            // object from its start, the rest live.
            let fallback = fallback.unwrap_or_default();
            return self.rest(fallback, buf.prefix_reader(Stretch::All), map);
        };
        let value = match content {
            Some(at) => {
                let human_readable = buf.human_readable();
                let mut reader = buf.reader_at(at);
                build_from(s, index, reader.next_value::<A::Error>(human_readable))?
            }
            None => {
                if fallback.is_none() {
                    // Nothing was recorded, so the buffer holds no memory:
                    // skipping its drop (a call) is free.
                    debug_assert!(buf.is_empty_unallocated());
                    core::mem::forget(buf);
                }
                loop {
                    match map.next_key_seed(FieldSeed {
                        form,
                        record: None,
                        before_tag: None,
                    })? {
                        Some(Field::Tag) => return Err(duplicate_field(form.get().tag())),
                        Some(Field::Content) => {
                            break map.next_value_seed(BuildSeed { subtypes: s, index })?;
                        }
                        Some(Field::Other) => {
                            map.next_value::<IgnoredAny>()?;
                        }
                        // No content: a unit, as serde and typetag read it.
                        None => return build_from(s, index, ().into_deserializer()),
                    }
                }
            }
        };
        self.finish(&mut map)?;
        Ok(value)
    }

    /// `[tag, content]`, as formats that write a struct as a sequence hold
    /// it. Such a format cannot skip what it does not know, so an unknown
    /// tag is an error there, fallback or not.
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<S::Value, A::Error> {
        let s = &self.subtypes;
        let index = match seq.next_element_seed(TagSeed {
            subtypes: s,
            sink: None,
            in_seq: true,
        })? {
            Some(index) => index.unwrap_or_default(),
            None => return Err(A::Error::invalid_length(0, &self)),
        };
        match seq.next_element_seed(BuildSeed { subtypes: s, index })? {
            Some(value) => Ok(value),
            // No content (serde writes a unit variant's struct so): a unit,
            // as in a map.
            None => build_from(s, index, ().into_deserializer()),
        }
    }
}

impl<'de, S: Subtypes<'de>, F: Form> AdjacentVisitor<'de, S, F> {
    /// The fallback, reading the entries recorded before (`prefix`) and
    /// the live rest of the object.
    fn rest<A: MapAccess<'de>>(
        &self,
        fallback: u32,
        prefix: crate::rest::PrefixReader<'_, 'de>,
        live: A,
    ) -> Result<S::Value, A::Error> {
        // A constant condition: a set without a fallback, which never gets
        // here, does not compile its subtypes' readers over `Rest`.
        if !S::MAY_KEEP_TAG {
            return Err(super::no_fallback());
        }
        let slot = Cell::new(None);
        let human_readable = match self.human_readable {
            Some(answer) => answer,
            None => prefix.buf().human_readable(),
        };
        let mut state = RestState {
            prefix,
            live,
            tag: Some(&self.form.get().fields[0]),
            hint: Some(&self.form.get().fields[0]),
            catch: self.subtypes.settings().erased.then_some(&slot),
            human_readable,
        };
        let out = self.subtypes.build(fallback, state.rest());
        out.map_err(|e| slot.take().unwrap_or(e))
    }
}

/// A key of the adjacent form.
enum Field {
    Tag,
    Content,
    Other,
}

/// Reads a key as a string, as serde's and typetag's readers of the form
/// do, or as its field's index, as serde's does; with `record`, the key is
/// recorded too (for the fallback).
struct FieldSeed<'a, 'de, F> {
    form: F,
    record: Option<&'a mut Buffer<'de>>,
    /// `require_tag_first`, before the tag: the set's name, for the error
    /// any other key is.
    before_tag: Option<&'a str>,
}

impl<'de, F: Form> DeserializeSeed<'de> for FieldSeed<'_, 'de, F> {
    type Value = Field;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Field, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de, F: Form> FieldSeed<'_, 'de, F> {
    #[inline]
    fn field<E: de::Error>(&self, key: &str) -> Result<Field, E> {
        let form = self.form.get();
        if key == form.tag() {
            Ok(Field::Tag)
        } else if let Some(name) = self.before_tag {
            Err(not_first(form, name, key))
        } else if key == form.content() {
            Ok(Field::Content)
        } else if form.deny_unknown_fields {
            Err(E::custom(format_args!(
                "unknown field `{key}`, expected `{}` or `{}`",
                form.tag(),
                form.content()
            )))
        } else {
            Ok(Field::Other)
        }
    }
}

#[cold]
fn not_first<E: de::Error>(form: Adjacent, name: &str, key: impl fmt::Display) -> E {
    E::custom(format_args!(
        "the tag `{}` of {name} must be the first key (require_tag_first), found `{key}`",
        form.tag()
    ))
}

impl<'de, F: Form> Visitor<'de> for FieldSeed<'_, 'de, F> {
    type Value = Field;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let form = self.form.get();
        match form.deny_unknown_fields {
            true => write!(f, "`{}` or `{}`", form.tag(), form.content()),
            false => write!(f, "`{}`, `{}` or another key", form.tag(), form.content()),
        }
    }

    fn visit_str<E: de::Error>(self, key: &str) -> Result<Field, E> {
        let field = self.field(key)?;
        if let (Some(buf), Field::Content | Field::Other) = (self.record, &field) {
            buf.push_str(key);
        }
        Ok(field)
    }

    fn visit_borrowed_str<E: de::Error>(self, key: &'de str) -> Result<Field, E> {
        let field = self.field(key)?;
        if let (Some(buf), Field::Content | Field::Other) = (self.record, &field) {
            buf.push_borrowed_str(key);
        }
        Ok(field)
    }

    fn visit_bytes<E: de::Error>(self, key: &[u8]) -> Result<Field, E> {
        match core::str::from_utf8(key) {
            Ok(key) => self.visit_str(key),
            Err(_) => Err(E::invalid_value(de::Unexpected::Bytes(key), &self)),
        }
    }

    /// A key given as its field's index, as serde's derive takes it: 0 the
    /// tag, 1 the content.
    fn visit_u64<E: de::Error>(self, index: u64) -> Result<Field, E> {
        let form = self.form.get();
        let field = match (index, self.before_tag) {
            (0, _) => Field::Tag,
            (_, Some(name)) => return Err(not_first(form, name, index)),
            (1, None) => Field::Content,
            _ if form.deny_unknown_fields => {
                return Err(E::invalid_value(de::Unexpected::Unsigned(index), &self))
            }
            _ => Field::Other,
        };
        if let (Some(buf), Field::Content | Field::Other) = (self.record, &field) {
            buf.first_use();
            buf.push_u64(index);
        }
        Ok(field)
    }
}
