//! Writing a recorded value back through any serializer, exactly as read
//! (an `Unknown` fallback's data).

use super::*;

/// Writes a recorded value back through any serializer, exactly as read.
pub(crate) struct Emit<'a, 'de> {
    buf: &'a Buffer<'de>,
    pos: Mark,
}

impl<'de> Buffer<'de> {
    pub(crate) fn emit_at(&self, at: Mark) -> Emit<'_, 'de> {
        Emit { buf: self, pos: at }
    }
}

impl Reader<'_, '_> {
    /// Skips one value and returns where it started.
    pub(crate) fn step(&mut self) -> Mark {
        let start = self.position();
        self.skip();
        start
    }

    /// The entries of the map at the current position, as value offsets.
    pub(crate) fn map_entries(&mut self) -> Option<Vec<(Mark, Mark)>> {
        if self.peek() != MAP {
            return None;
        }
        self.pos += 1;
        let (_, count) = self.container();
        Some(
            (0..count)
                .map(|_| {
                    let key = self.step();
                    (key, self.step())
                })
                .collect(),
        )
    }
}

impl<'de> Buffer<'de> {
    /// The string recorded at `pos`, if it is one.
    pub(crate) fn str_at(&self, at: Mark) -> Option<&str> {
        let mut r = self.reader_at(at);
        match r.byte() {
            STR_BORROWED => Some(r.borrowed_str()),
            STR_OWNED => core::str::from_utf8(r.owned()).ok(),
            _ => None,
        }
    }
}

impl serde::Serialize for Emit<'_, '_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{Error as _, SerializeMap, SerializeSeq};
        let mut r = self.buf.reader_at(self.pos);
        let child = |r: &mut Reader<'_, '_>| Emit {
            buf: self.buf,
            pos: r.step(),
        };
        match r.byte() {
            BOOL_FALSE => s.serialize_bool(false),
            BOOL_TRUE => s.serialize_bool(true),
            U8 => s.serialize_u8(r.byte()),
            U16 => s.serialize_u16(r.varint() as u16),
            U32 => s.serialize_u32(r.varint() as u32),
            U64 => s.serialize_u64(r.varint()),
            I8 => s.serialize_i8(r.byte() as i8),
            I16 => s.serialize_i16(unzigzag(r.varint()) as i16),
            I32 => s.serialize_i32(unzigzag(r.varint()) as i32),
            I64 => s.serialize_i64(unzigzag(r.varint())),
            U128 => s.serialize_u128(u128::from_le_bytes(r.array())),
            I128 => s.serialize_i128(i128::from_le_bytes(r.array())),
            F32 => s.serialize_f32(f32::from_le_bytes(r.array())),
            F64 => s.serialize_f64(f64::from_le_bytes(r.array())),
            TEXT_NUMBER => {
                let value = f64::from_le_bytes(r.array());
                r.skip();
                s.serialize_f64(value)
            }
            CHAR => match u32::try_from(r.varint()).ok().and_then(char::from_u32) {
                Some(c) => s.serialize_char(c),
                None => unreachable_code(CHAR),
            },
            STR_BORROWED => s.serialize_str(r.borrowed_str()),
            STR_OWNED => match core::str::from_utf8(r.owned()) {
                Ok(v) => s.serialize_str(v),
                Err(_) => Err(S::Error::custom("corrupt buffered string")),
            },
            BYTES_BORROWED => s.serialize_bytes(r.borrowed()),
            BYTES_OWNED => s.serialize_bytes(r.owned()),
            NUMBER => {
                let digits = owned_str(&mut r);
                // Plain integers as integers, for every format; anything
                // else (`-0`, `1.50`, beyond 64 bits) exactly as read.
                let exact = |v: &dyn fmt::Display| v.to_string() == digits;
                if let Some(v) = digits.parse::<u64>().ok().filter(|v| exact(v)) {
                    s.serialize_u64(v)
                } else if let Some(v) = digits.parse::<i64>().ok().filter(|v| exact(v)) {
                    s.serialize_i64(v)
                } else {
                    // serde_json (with `arbitrary_precision`) writes the
                    // digits as they were.
                    use serde::ser::SerializeStruct;
                    let mut number = s.serialize_struct(NUMBER_TOKEN, 1)?;
                    number.serialize_field(NUMBER_TOKEN, digits)?;
                    number.end()
                }
            }
            UNIT => s.serialize_unit(),
            NONE => s.serialize_none(),
            SOME => s.serialize_some(&child(&mut r)),
            NEWTYPE => s.serialize_newtype_struct("", &child(&mut r)),
            SEQ => {
                let (_, count) = r.container();
                let mut seq = s.serialize_seq(Some(count))?;
                for _ in 0..count {
                    seq.serialize_element(&child(&mut r))?;
                }
                seq.end()
            }
            MAP => {
                let (_, count) = r.container();
                let mut map = s.serialize_map(Some(count))?;
                for _ in 0..count {
                    let key = child(&mut r);
                    map.serialize_entry(&key, &child(&mut r))?;
                }
                map.end()
            }
            code => unreachable_code(code),
        }
    }
}
