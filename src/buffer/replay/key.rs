//! `ReplayKey`: a recorded map key replayed, read as a number or a bool
//! from its text as serde_json reads a key in place.

use super::*;

/// A recorded map key. serde_json reads a quoted number or bool as a key of
/// that type when asked (`{"7":..}` into a `HashMap<u32, _>`), but only in
/// place: recorded, the key is the string it was. Asked for a number or a
/// bool, a string key is parsed here as serde_json parses keys; anything
/// else replays as recorded.
pub(crate) struct ReplayKey<'r, 'a, 'de, E>(pub(in crate::buffer) Replay<'r, 'a, 'de, E>);

impl<'r, 'a, 'de, E: de::Error> ReplayKey<'r, 'a, 'de, E> {
    /// The key's text when it was recorded as a string; the reader stays put
    /// otherwise.
    fn text(&mut self) -> Option<&'a str> {
        let reader = &mut *self.0.reader;
        match reader.peek() {
            STR_BORROWED => {
                reader.pos += 1;
                Some(reader.borrowed_str())
            }
            STR_OWNED => {
                reader.pos += 1;
                Some(owned_str(reader))
            }
            _ => None,
        }
    }
}

/// serde_json's message for a key that is not a number in quotes.
fn not_a_numeric_key<E: de::Error>() -> E {
    E::custom("invalid value: expected key to be a number in quotes")
}

/// Whether `s` is a JSON number, and an integer (no fraction or exponent).
fn json_number(s: &str) -> Option<bool> {
    let b = s.as_bytes();
    let mut i = usize::from(b.first() == Some(&b'-'));
    let digits = |i: &mut usize| {
        let start = *i;
        while b.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i > start
    };
    let int_start = i;
    if !digits(&mut i) || (b[int_start] == b'0' && i - int_start > 1) {
        return None;
    }
    let mut integer = true;
    if b.get(i) == Some(&b'.') {
        i += 1;
        integer = false;
        if !digits(&mut i) {
            return None;
        }
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        integer = false;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if !digits(&mut i) {
            return None;
        }
    }
    (i == b.len()).then_some(integer)
}

/// A key's text read as serde_json's `deserialize_number` reads the quoted
/// text: non-negative integers as `u64`, negative as `i64`, the rest and
/// overflows as `f64`. Out of the macro below so that its ten methods share
/// one copy.
enum KeyNumber {
    U64(u64),
    I64(i64),
    F64(f64),
}

fn key_number(text: &str) -> Option<KeyNumber> {
    let integer = json_number(text)?;
    let exact = match integer {
        true if text.starts_with('-') => text.parse().ok().map(KeyNumber::I64),
        true => text.parse().ok().map(KeyNumber::U64),
        false => None,
    };
    exact.or_else(|| text.parse().ok().map(KeyNumber::F64))
}

/// A key asked for as a number (see `key_number`).
macro_rules! number_keys {
    ($($method:ident)*) => {
        $(
            fn $method<V: Visitor<'de>>(mut self, visitor: V) -> Result<V::Value, E> {
                let Some(text) = self.text() else {
                    return self.0.$method(visitor);
                };
                match key_number(text) {
                    Some(KeyNumber::U64(v)) => visitor.visit_u64(v),
                    Some(KeyNumber::I64(v)) => visitor.visit_i64(v),
                    Some(KeyNumber::F64(v)) => visitor.visit_f64(v),
                    None => Err(not_a_numeric_key()),
                }
            }
        )*
    };
}

/// 128-bit keys: serde_json reads them as such from the quoted text.
macro_rules! wide_keys {
    ($($method:ident $ty:ty, $visit:ident;)*) => {
        $(
            fn $method<V: Visitor<'de>>(mut self, visitor: V) -> Result<V::Value, E> {
                let Some(text) = self.text() else {
                    return self.0.$method(visitor);
                };
                match json_number(text) {
                    Some(true) => match text.parse::<$ty>() {
                        Ok(v) => visitor.$visit(v),
                        Err(_) => Err(E::invalid_value(Unexpected::Str(text), &visitor)),
                    },
                    _ => Err(not_a_numeric_key()),
                }
            }
        )*
    };
}

/// Every other request goes to the recorded value as it is.
macro_rules! as_recorded {
    ($($method:ident($($arg:ident: $ty:ty),*);)*) => {
        $(
            #[inline]
            fn $method<V: Visitor<'de>>(self, $($arg: $ty,)* visitor: V) -> Result<V::Value, E> {
                self.0.$method($($arg,)* visitor)
            }
        )*
    };
}

impl<'de, E: de::Error> Deserializer<'de> for ReplayKey<'_, '_, 'de, E> {
    type Error = E;

    number_keys! {
        deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
        deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64
        deserialize_f32 deserialize_f64
    }

    wide_keys! {
        deserialize_i128 i128, visit_i128;
        deserialize_u128 u128, visit_u128;
    }

    fn deserialize_bool<V: Visitor<'de>>(mut self, visitor: V) -> Result<V::Value, E> {
        match self.text() {
            None => self.0.deserialize_bool(visitor),
            Some("true") => visitor.visit_bool(true),
            Some("false") => visitor.visit_bool(false),
            Some(text) => Err(E::invalid_type(Unexpected::Str(text), &visitor)),
        }
    }

    as_recorded! {
        deserialize_any();
        deserialize_char();
        deserialize_str();
        deserialize_string();
        deserialize_bytes();
        deserialize_byte_buf();
        deserialize_option();
        deserialize_unit();
        deserialize_unit_struct(name: &'static str);
        deserialize_newtype_struct(name: &'static str);
        deserialize_seq();
        deserialize_tuple(len: usize);
        deserialize_tuple_struct(name: &'static str, len: usize);
        deserialize_map();
        deserialize_struct(name: &'static str, fields: &'static [&'static str]);
        deserialize_enum(name: &'static str, variants: &'static [&'static str]);
        deserialize_identifier();
        deserialize_ignored_any();
    }

    fn is_human_readable(&self) -> bool {
        self.0.human_readable
    }
}
