//! Replaying a recorded value into any visitor: the deserializer side of
//! the buffer (`Replay`; its keys in `key`, its maps, sequences and enums
//! in `container`).

use super::*;

mod container;
mod key;

pub(crate) use self::container::ReplayMap;
use self::container::{replay_map, ExpectedFewer, ReplayEnum, ReplaySeq};
pub(crate) use self::key::ReplayKey;

/// Replays one recorded value into a visitor.
pub(crate) struct Replay<'r, 'a, 'de, E> {
    pub(super) reader: &'r mut Reader<'a, 'de>,
    pub(super) human_readable: bool,
    pub(super) error: PhantomData<fn() -> E>,
}

impl<'r, 'a, 'de, E: de::Error> Replay<'r, 'a, 'de, E> {
    /// What the next value is, for error messages.
    fn unexpected(&mut self) -> Unexpected<'a> {
        let start = self.reader.pos;
        let out = match self.reader.byte() {
            BOOL_FALSE => Unexpected::Bool(false),
            BOOL_TRUE => Unexpected::Bool(true),
            U8 | U16 | U32 | U64 => Unexpected::Unsigned(self.reader.varint_after_u8(start)),
            I8 | I16 | I32 | I64 => Unexpected::Signed(self.reader.signed_after(start)),
            U128 | I128 => Unexpected::Other("128-bit integer"),
            F32 => Unexpected::Float(f32::from_le_bytes(self.reader.array()).into()),
            F64 | TEXT_NUMBER => Unexpected::Float(f64::from_le_bytes(self.reader.array())),
            CHAR => Unexpected::Other("char"),
            STR_BORROWED | STR_OWNED => Unexpected::Other("string"),
            BYTES_BORROWED | BYTES_OWNED => Unexpected::Other("bytes"),
            UNIT => Unexpected::Unit,
            NONE | SOME => Unexpected::Option,
            NEWTYPE => Unexpected::NewtypeStruct,
            NUMBER => Unexpected::Other("number"),
            SEQ => Unexpected::Seq,
            MAP => Unexpected::Map,
            code => unreachable_code(code),
        };
        self.reader.pos = start;
        self.reader.skip();
        out
    }
}

impl<'a, 'de> Reader<'a, 'de> {
    /// The next value as a visitor's default method would describe it when
    /// refusing it (`invalid type: string "x", expected u32`), stepping
    /// over it. Typed requests refuse through this instead of offering the
    /// value to every `visit_*` method of their visitor: that compiled each
    /// visitor's whole set of methods, once per visitor type.
    #[cold]
    #[inline(never)]
    fn refused(&mut self) -> Unexpected<'a> {
        let start = self.pos;
        let out = match self.byte() {
            BOOL_FALSE => Unexpected::Bool(false),
            BOOL_TRUE => Unexpected::Bool(true),
            U8 | U16 | U32 | U64 => Unexpected::Unsigned(self.varint_after_u8(start)),
            I8 | I16 | I32 | I64 => Unexpected::Signed(self.signed_after(start)),
            F32 => Unexpected::Float(f32::from_le_bytes(self.array()).into()),
            F64 | TEXT_NUMBER => Unexpected::Float(f64::from_le_bytes(self.array())),
            CHAR => match u32::try_from(self.varint()).ok().and_then(char::from_u32) {
                Some(c) => Unexpected::Char(c),
                None => unreachable_code(CHAR),
            },
            STR_BORROWED => Unexpected::Str(self.borrowed_str()),
            STR_OWNED => Unexpected::Str(owned_str(self)),
            BYTES_BORROWED => Unexpected::Bytes(self.borrowed()),
            BYTES_OWNED => Unexpected::Bytes(self.owned()),
            NUMBER => {
                let digits = owned_str(self);
                if let Ok(v) = digits.parse::<u64>() {
                    Unexpected::Unsigned(v)
                } else if let Ok(v) = digits.parse::<i64>() {
                    Unexpected::Signed(v)
                } else {
                    Unexpected::Float(digits.parse::<f64>().unwrap_or(f64::NAN))
                }
            }
            U128 | I128 => Unexpected::Other("128-bit integer"),
            UNIT => Unexpected::Unit,
            NONE | SOME => Unexpected::Option,
            NEWTYPE => Unexpected::NewtypeStruct,
            SEQ => Unexpected::Seq,
            MAP => Unexpected::Map,
            code => unreachable_code(code),
        };
        self.pos = start;
        self.skip();
        out
    }
}

impl Reader<'_, '_> {
    fn varint_after_u8(&mut self, start: usize) -> u64 {
        if self.buf.code[start] == U8 {
            u64::from(self.byte())
        } else {
            self.varint()
        }
    }

    fn signed_after(&mut self, start: usize) -> i64 {
        if self.buf.code[start] == I8 {
            i64::from(self.byte() as i8)
        } else {
            unzigzag(self.varint())
        }
    }
}

impl<'de, E: de::Error> Deserializer<'de> for Replay<'_, '_, 'de, E> {
    type Error = E;

    fn deserialize_any<V>(self, visitor: V) -> Result<V::Value, Self::Error>
    where
        V: Visitor<'de>,
    {
        // Read before writing: nearly every replay finds nothing to take.
        let hoist = crate::state::take_hoist();
        if let Some(key) = hoist {
            if self.reader.peek() == MAP {
                return replay_map(self.reader, self.human_readable, visitor, Some(key));
            }
        }
        replay_any(self.reader, self.human_readable, visitor)
    }

    fn deserialize_option<V>(self, visitor: V) -> Result<V::Value, Self::Error>
    where
        V: Visitor<'de>,
    {
        match self.reader.peek() {
            NONE => {
                self.reader.pos += 1;
                visitor.visit_none()
            }
            SOME => {
                self.reader.pos += 1;
                visitor.visit_some(self)
            }
            UNIT => {
                self.reader.pos += 1;
                visitor.visit_unit()
            }
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_newtype_struct<V>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Self::Error>
    where
        V: Visitor<'de>,
    {
        if name == RAW_TOKEN {
            // serde_json's `RawValue`: the buffered value written back as
            // JSON text (owned: a borrowed `&RawValue` cannot be had once
            // buffered, as with serde's own buffering).
            let start = self.reader.step();
            let text = serde_json::to_string(&self.reader.buf.emit_at(start))
                .map_err(de::Error::custom)?;
            let entry = core::iter::once((RAW_TOKEN, text));
            return visitor.visit_map(de::value::MapDeserializer::<_, E>::new(entry));
        }
        if self.reader.peek() == NEWTYPE {
            self.reader.pos += 1;
        }
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V>(
        mut self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error>
    where
        V: Visitor<'de>,
    {
        match self.reader.peek() {
            STR_BORROWED | STR_OWNED => visitor.visit_enum(ReplayEnum {
                reader: self.reader,
                human_readable: self.human_readable,
                error: PhantomData,
                has_value: false,
            }),
            MAP => {
                let start = self.reader.pos;
                self.reader.pos += 1;
                let (end, count) = self.reader.container();
                if count != 1 {
                    self.reader.pos = start;
                    return Err(de::Error::invalid_value(
                        self.unexpected(),
                        &"map with a single key",
                    ));
                }
                let out = visitor.visit_enum(ReplayEnum {
                    reader: &mut *self.reader,
                    human_readable: self.human_readable,
                    error: PhantomData,
                    has_value: true,
                })?;
                self.reader.pos = end;
                Ok(out)
            }
            _ => Err(de::Error::invalid_type(self.unexpected(), &"string or map")),
        }
    }

    fn deserialize_ignored_any<V>(self, visitor: V) -> Result<V::Value, Self::Error>
    where
        V: Visitor<'de>,
    {
        self.reader.skip();
        visitor.visit_unit()
    }

    fn is_human_readable(&self) -> bool {
        self.human_readable
    }

    numbers! {
        deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
        deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64
    }

    fn deserialize_u128<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        if self.reader.peek() == TEXT_NUMBER && self.reader.text_is_integer() {
            return match text_number(self.reader).parse::<u128>() {
                Ok(v) => visitor.visit_u128(v),
                Err(_) => Err(wide_refused()),
            };
        }
        self.deserialize_u64(visitor)
    }

    fn deserialize_i128<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        if self.reader.peek() == TEXT_NUMBER && self.reader.text_is_integer() {
            return match text_number(self.reader).parse::<i128>() {
                Ok(v) => visitor.visit_i128(v),
                Err(_) => Err(wide_refused()),
            };
        }
        self.deserialize_u64(visitor)
    }

    floats! {
        deserialize_f32 f32, visit_f32;
        deserialize_f64 f64, visit_f64;
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        visitor: V,
    ) -> Result<V::Value, E> {
        replay_any(self.reader, self.human_readable, visitor)
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _: usize, visitor: V) -> Result<V::Value, E> {
        replay_any(self.reader, self.human_readable, visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: usize,
        visitor: V,
    ) -> Result<V::Value, E> {
        replay_any(self.reader, self.human_readable, visitor)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, E> {
        replay_any(self.reader, self.human_readable, visitor)
    }

    // Only the engine's own visitor asks for "any" value and may want the
    // tag entry first; typed requests go straight to the recording.
    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        match self.reader.peek() {
            BOOL_FALSE | BOOL_TRUE => visitor.visit_bool(self.reader.byte() == BOOL_TRUE),
            _ => refuse(self.reader, visitor),
        }
    }

    fn deserialize_char<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        match self.reader.peek() {
            CHAR | STR_BORROWED | STR_OWNED => {
                replay_any(self.reader, self.human_readable, visitor)
            }
            _ => refuse(self.reader, visitor),
        }
    }

    typed! {
        deserialize_bytes deserialize_byte_buf deserialize_unit deserialize_seq deserialize_map
    }

    // Keys replay through these: a borrowed string, the common case, skips
    // the dispatch over every code.
    // A field name may be a key's text (see below); a string may not.
    strings! {
        deserialize_str false, deserialize_string false, deserialize_identifier true,
    }
}

macro_rules! typed {
    ($($method:ident)*) => {
        $(
            #[inline]
            fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
                replay_any(self.reader, self.human_readable, visitor)
            }
        )*
    };
}
use typed;

macro_rules! strings {
    ($($method:ident $field_name:literal,)*) => {
        $(
            #[inline]
            fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
                let reader = self.reader;
                match reader.peek() {
                    STR_BORROWED => {
                        reader.pos += 1;
                        visitor.visit_borrowed_str(reader.borrowed_str())
                    }
                    STR_OWNED => {
                        reader.pos += 1;
                        visitor.visit_str(owned_str(reader))
                    }
                    // Out of line: inlined, the rarer arms made every key
                    // visitor's read too big to inline into its map's loop.
                    _ => not_text(reader, $field_name && self.human_readable, visitor),
                }
            }
        )*
    };
}
use strings;

/// Numbers recorded from serde_json's `arbitrary_precision` are parsed when
/// a primitive is asked for; everything else replays as recorded.
macro_rules! numbers {
    ($($method:ident)*) => {
        $(
            #[inline]
            fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
                // What serde_json records, straight to the visitor: the same
                // calls `replay_any` makes, without its dispatch over every code.
                match self.reader.peek() {
                    U64 => {
                        self.reader.pos += 1;
                        visitor.visit_u64(self.reader.varint())
                    }
                    I64 => {
                        self.reader.pos += 1;
                        visitor.visit_i64(unzigzag(self.reader.varint()))
                    }
                    F64 => {
                        self.reader.pos += 1;
                        visitor.visit_f64(f64::from_le_bytes(self.reader.array()))
                    }
                    NUMBER => {
                        self.reader.pos += 1;
                        let digits = owned_str(self.reader);
                        replay_number(digits, visitor)
                    }
                    // What serde_json hands any request but `u128` and
                    // `i128` for such a number.
                    TEXT_NUMBER => {
                        self.reader.pos += 1;
                        let value = f64::from_le_bytes(self.reader.array());
                        self.reader.skip();
                        visitor.visit_f64(value)
                    }
                    _ => replay_number_code(self.reader, visitor),
                }
            }
        )*
    };
}
use numbers;

/// `f32` and `f64` fields read what was recorded as the format reads it with
/// the tag first: an integer beyond 64 bits (binary formats, and serde_json's
/// `arbitrary_precision` digits) is rounded to the nearest float, where
/// serde's float visitors would refuse a 128-bit integer, and digits are
/// parsed straight to the field's type (no rounding through `f64` for
/// `f32`). Everything else replays as for the other numbers.
macro_rules! floats {
    ($($method:ident $ty:ty, $visit:ident;)*) => {
        $(
            #[inline]
            fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
                match self.reader.peek() {
                    U128 => {
                        self.reader.pos += 1;
                        visitor.$visit(u128::from_le_bytes(self.reader.array()) as $ty)
                    }
                    I128 => {
                        self.reader.pos += 1;
                        visitor.$visit(i128::from_le_bytes(self.reader.array()) as $ty)
                    }
                    NUMBER => {
                        self.reader.pos += 1;
                        let digits = owned_str(self.reader);
                        match digits.parse::<$ty>() {
                            Ok(v) => visitor.$visit(v),
                            Err(_) => replay_number(digits, visitor),
                        }
                    }
                    // serde_json's own parse of the text, to the field's
                    // type (an `f32` is not rounded through `f64`).
                    TEXT_NUMBER => {
                        let text = text_number(self.reader);
                        match parse_float::<$ty>(text) {
                            Ok(v) => visitor.$visit(v),
                            Err(message) => Err(E::custom(message)),
                        }
                    }
                    // The other numbers' replay: their bodies are all the same.
                    _ => self.deserialize_u64(visitor),
                }
            }
        )*
    };
}
use floats;

fn replay_any<'de, V, E>(
    reader: &mut Reader<'_, 'de>,
    human_readable: bool,
    visitor: V,
) -> Result<V::Value, E>
where
    V: Visitor<'de>,
    E: de::Error,
{
    match reader.byte() {
        BOOL_FALSE => visitor.visit_bool(false),
        BOOL_TRUE => visitor.visit_bool(true),
        U8 => visitor.visit_u8(reader.byte()),
        U16 => visitor.visit_u16(reader.varint() as u16),
        U32 => visitor.visit_u32(reader.varint() as u32),
        U64 => visitor.visit_u64(reader.varint()),
        I8 => visitor.visit_i8(reader.byte() as i8),
        I16 => visitor.visit_i16(unzigzag(reader.varint()) as i16),
        I32 => visitor.visit_i32(unzigzag(reader.varint()) as i32),
        I64 => visitor.visit_i64(unzigzag(reader.varint())),
        U128 => visitor.visit_u128(u128::from_le_bytes(reader.array())),
        I128 => visitor.visit_i128(i128::from_le_bytes(reader.array())),
        F32 => visitor.visit_f32(f32::from_le_bytes(reader.array())),
        F64 => visitor.visit_f64(f64::from_le_bytes(reader.array())),
        TEXT_NUMBER => {
            let value = f64::from_le_bytes(reader.array());
            reader.skip();
            visitor.visit_f64(value)
        }
        CHAR => {
            let v = reader.varint();
            match u32::try_from(v).ok().and_then(char::from_u32) {
                Some(c) => visitor.visit_char(c),
                None => unreachable_code(CHAR),
            }
        }
        STR_BORROWED => visitor.visit_borrowed_str(reader.borrowed_str()),
        STR_OWNED => {
            let bytes = reader.owned();
            match core::str::from_utf8(bytes) {
                Ok(s) => visitor.visit_str(s),
                Err(_) => unreachable_code(STR_OWNED),
            }
        }
        BYTES_BORROWED => visitor.visit_borrowed_bytes(reader.borrowed()),
        BYTES_OWNED => visitor.visit_bytes(reader.owned()),
        UNIT => visitor.visit_unit(),
        NONE => visitor.visit_none(),
        SOME => visitor.visit_some(Replay {
            reader,
            human_readable,
            error: PhantomData,
        }),
        NEWTYPE => visitor.visit_newtype_struct(Replay {
            reader,
            human_readable,
            error: PhantomData,
        }),
        SEQ => {
            let (end, count) = reader.container();
            let mut seq = ReplaySeq {
                reader,
                human_readable,
                error: PhantomData,
                end,
                remaining: count,
            };
            let out = visitor.visit_seq(&mut seq)?;
            if seq.remaining != 0 {
                return Err(de::Error::invalid_length(
                    count,
                    &ExpectedFewer(count - seq.remaining),
                ));
            }
            Ok(out)
        }
        MAP => {
            reader.pos -= 1;
            replay_map(reader, human_readable, visitor, None)
        }
        NUMBER => {
            // As serde_json hands it over, so `Number` and `Value` keep it.
            let digits = owned_str(reader);
            let entry = core::iter::once((NUMBER_TOKEN, digits));
            visitor.visit_map(de::value::MapDeserializer::<_, E>::new(entry))
        }
        code => unreachable_code(code),
    }
}

/// A recorded key or string that is not text (see `strings!`): bytes, a
/// field index of a binary format, or a YAML boolean or integer key taken
/// as its text when `field_name`. The reading is in `read_not_text`,
/// compiled once per error type: this part is compiled once per visitor
/// (a payload's field visitor each), so it only hands the value over.
#[inline(never)]
fn not_text<'de, V: Visitor<'de>, E: de::Error>(
    reader: &mut Reader<'_, 'de>,
    field_name: bool,
    visitor: V,
) -> Result<V::Value, E> {
    match read_not_text::<E>(reader, field_name)? {
        NotText::Borrowed(bytes) => visitor.visit_borrowed_bytes(bytes),
        NotText::Owned(bytes) => visitor.visit_bytes(bytes),
        NotText::Text(text) => visitor.visit_str(&text),
        NotText::Index(index) => visitor.visit_u64(index),
        NotText::Refused(unexpected) => Err(E::invalid_type(unexpected, &visitor)),
    }
}

/// What `not_text` hands its visitor.
enum NotText<'a, 'de> {
    Borrowed(&'de [u8]),
    Owned(&'a [u8]),
    Text(String),
    Index(u64),
    Refused(Unexpected<'a>),
}

#[inline(never)]
fn read_not_text<'a, 'de, E: de::Error>(
    reader: &mut Reader<'a, 'de>,
    field_name: bool,
) -> Result<NotText<'a, 'de>, E> {
    Ok(match reader.peek() {
        BYTES_BORROWED => {
            reader.pos += 1;
            NotText::Borrowed(reader.borrowed())
        }
        BYTES_OWNED => {
            reader.pos += 1;
            NotText::Owned(reader.owned())
        }
        // A boolean or integer key of a human-readable format
        // (YAML) is its text, as that format names it when
        // asked, not a number, which serde's derive takes for a
        // field's index. serde_json's keys are strings: only
        // keys of other formats, before the tag, reach here.
        BOOL_FALSE..=I64 if field_name => NotText::Text(key_text::<E>(reader)?),
        // Variant and field indexes of binary formats.
        U8 | U16 | U32 | U64 => {
            let start = reader.pos;
            reader.pos += 1;
            NotText::Index(reader.varint_after_u8(start))
        }
        _ => NotText::Refused(reader.refused()),
    })
}

/// A typed request's answer to a value of another type (see `refused`).
#[inline]
fn refuse<'de, V: Visitor<'de>, E: de::Error>(
    reader: &mut Reader<'_, 'de>,
    visitor: V,
) -> Result<V::Value, E> {
    Err(E::invalid_type(reader.refused(), &visitor))
}

/// A recorded number of any width, for a request of a number type.
#[inline]
fn replay_number_code<'de, V: Visitor<'de>, E: de::Error>(
    reader: &mut Reader<'_, 'de>,
    visitor: V,
) -> Result<V::Value, E> {
    match reader.peek() {
        U8 => {
            reader.pos += 1;
            visitor.visit_u8(reader.byte())
        }
        U16 => {
            reader.pos += 1;
            visitor.visit_u16(reader.varint() as u16)
        }
        U32 => {
            reader.pos += 1;
            visitor.visit_u32(reader.varint() as u32)
        }
        I8 => {
            reader.pos += 1;
            visitor.visit_i8(reader.byte() as i8)
        }
        I16 => {
            reader.pos += 1;
            visitor.visit_i16(unzigzag(reader.varint()) as i16)
        }
        I32 => {
            reader.pos += 1;
            visitor.visit_i32(unzigzag(reader.varint()) as i32)
        }
        U128 => {
            reader.pos += 1;
            visitor.visit_u128(u128::from_le_bytes(reader.array()))
        }
        I128 => {
            reader.pos += 1;
            visitor.visit_i128(i128::from_le_bytes(reader.array()))
        }
        F32 => {
            reader.pos += 1;
            visitor.visit_f32(f32::from_le_bytes(reader.array()))
        }
        _ => refuse(reader, visitor),
    }
}

/// The text of the `TEXT_NUMBER` at the reader, stepping over it.
pub(super) fn text_number<'a>(reader: &mut Reader<'a, '_>) -> &'a str {
    // Its code byte and the f64, then the text's own `STR_OWNED` code byte.
    reader.pos += 1 + 8 + 1;
    owned_str(reader)
}

/// A `TEXT_NUMBER` too wide for a 128-bit request (or not an integer),
/// refused as serde_json refuses it in place: its `number out of range`,
/// without the position, which serde_json adds where the object ends.
#[cold]
fn wide_refused<E: de::Error>() -> E {
    E::custom("number out of range")
}

pub(super) fn owned_str<'a>(reader: &mut Reader<'a, '_>) -> &'a str {
    match core::str::from_utf8(reader.owned()) {
        Ok(s) => s,
        Err(_) => unreachable_code(STR_OWNED),
    }
}

/// A recorded arbitrary-precision number asked for as a primitive: parsed
/// as serde_json itself would.
fn replay_number<'de, V: Visitor<'de>, E: de::Error>(
    digits: &str,
    visitor: V,
) -> Result<V::Value, E> {
    if let Ok(v) = digits.parse::<u64>() {
        visitor.visit_u64(v)
    } else if let Ok(v) = digits.parse::<i64>() {
        visitor.visit_i64(v)
    } else if let Ok(v) = digits.parse::<u128>() {
        visitor.visit_u128(v)
    } else if let Ok(v) = digits.parse::<i128>() {
        visitor.visit_i128(v)
    } else {
        match digits.parse::<f64>() {
            Ok(v) => visitor.visit_f64(v),
            Err(_) => Err(E::invalid_value(Unexpected::Str(digits), &"a number")),
        }
    }
}
impl<'de, E: de::Error> IntoDeserializer<'de, E> for Replay<'_, '_, 'de, E> {
    type Deserializer = Self;

    fn into_deserializer(self) -> Self {
        self
    }
}

/// `text`, a JSON number, parsed by serde_json to `T` as it parses it in
/// place (`float_roundtrip` and all); the error's message without its
/// position.
pub(crate) fn parse_float<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, String> {
    serde_json::from_str(text).map_err(without_position)
}

/// serde_json's message without ` at line L column C`, which would point
/// into a recorded entry's text instead of the input.
pub(crate) fn without_position(error: serde_json::Error) -> String {
    let message = error.to_string();
    if error.line() == 0 {
        return message;
    }
    let suffix = format!(" at line {} column {}", error.line(), error.column());
    match message.strip_suffix(&suffix) {
        Some(text) => text.to_owned(),
        None => message,
    }
}

/// The text of the boolean or integer at the reader's position.
#[cold]
#[inline(never)]
fn key_text<E: de::Error>(reader: &mut Reader<'_, '_>) -> Result<String, E> {
    replay_any(reader, true, KeyText)
}

/// A boolean or integer key's text.
struct KeyText;

impl Visitor<'_> for KeyText {
    type Value = String;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a boolean or an integer")
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<String, E> {
        Ok(v.to_string())
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<String, E> {
        Ok(v.to_string())
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<String, E> {
        Ok(v.to_string())
    }
}
