//! `exact_numbers`: entries before the tag recorded from serde_json's text.
//!
//! serde_json (without its `arbitrary_precision` feature) hands a buffering
//! visitor an integer beyond 64 bits as the nearest `f64`: its digits are
//! gone before the tag says which payload reads them, so a `u128` field
//! read with the tag last refuses a value it reads with the tag first.
//! Nothing in serde_json's public API shows a number's text but `RawValue`,
//! so an entry before the tag is taken as raw JSON (serde_json validates
//! and skips it) and recorded here from that text: the same values as
//! serde_json's own reading, except that a number no 64-bit integer holds
//! keeps its text beside its `f64` (`TEXT_NUMBER` in `buffer/mod.rs`).
//!
//! It is opt-in because it costs: serde_json's raw-value protocol and a
//! second pass over each entry (`FEATURES=exact_numbers
//! benches/instructions.sh`). Every
//! other format, and serde_json over an `io::Read`, records as before.

use core::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};

use crate::buffer::{parse_float, without_position, Buffer, Limit, Recorder, RAW_TOKEN};
use crate::compiled::{self, OnJson};

/// The value of a map entry before the tag, recorded under `exact_numbers`.
pub(crate) struct ExactSeed<'b, 'de>(pub(crate) Recorder<'b, 'de>);

impl<'de> DeserializeSeed<'de> for ExactSeed<'_, 'de> {
    type Value = ();

    fn deserialize<D>(self, deserializer: D) -> Result<(), D::Error>
    where
        D: Deserializer<'de>,
    {
        let mut recorder = self.0;
        recorder
            .buffer()
            .note_human_readable(deserializer.is_human_readable());
        // serde_json's `arbitrary_precision` already hands every number over
        // by its digits, which `Number` and `Value` fields keep.
        if cfg!(feature = "arbitrary_precision") {
            return deserializer.deserialize_any(recorder);
        }
        match compiled::with_json(deserializer, RecordText(recorder)) {
            Ok(out) => out,
            Err((deserializer, RecordText(recorder))) => deserializer.deserialize_any(recorder),
        }
    }
}

/// `Buffer::record_value` (and `record_value_within` when `limit` is set)
/// for `exact_numbers`: from serde_json's text where the format is
/// serde_json over borrowed input.
pub(crate) fn record_value<'de, A>(
    buf: &mut Buffer<'de>,
    map: &mut A,
    max_depth: u32,
    limit: Option<Limit>,
) -> Result<(), A::Error>
where
    A: MapAccess<'de>,
{
    buf.within(limit, |buf| {
        map.next_value_seed(ExactSeed(buf.recorder(max_depth)))
    })
}

/// Records the value serde_json holds from its text.
struct RecordText<'b, 'de>(Recorder<'b, 'de>);

impl<'de> OnJson<'de> for RecordText<'_, 'de> {
    fn on<R: serde_json::de::Read<'de>>(
        self,
        json: &mut serde_json::Deserializer<R>,
    ) -> serde_json::Result<()> {
        json.deserialize_newtype_struct(RAW_TOKEN, RawText(self.0))
    }
}

/// Receives serde_json's raw value: a one-entry map whose value is the text.
struct RawText<'b, 'de>(Recorder<'b, 'de>);

impl<'de> Visitor<'de> for RawText<'_, 'de> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        map.next_key::<IgnoredAny>()?;
        let text: &'de str = map.next_value()?;
        let mut reader = Text { text, pos: 0 };
        reader.value(self.0).map_err(de::Error::custom)
    }

    // serde_json without `raw_value` reads the newtype's content: then it is
    // recorded as any other format's.
    fn visit_newtype_struct<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self.0)
    }
}

/// A cursor over JSON text that serde_json has already validated.
struct Text<'de> {
    text: &'de str,
    pos: usize,
}

/// An error of this module: its message only, as the position is the
/// format's to add.
type Message = de::value::Error;

fn message(text: impl fmt::Display) -> Message {
    <Message as de::Error>::custom(text)
}

impl<'de> Text<'de> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    fn skip_whitespace(&mut self) {
        while let Some(b' ' | b'\n' | b'\t' | b'\r') = self.peek() {
            self.pos += 1;
        }
    }

    /// Steps over `byte`, which validated JSON has here.
    fn expect(&mut self, byte: u8) -> Result<(), Message> {
        self.skip_whitespace();
        if self.peek() != Some(byte) {
            return Err(malformed());
        }
        self.pos += 1;
        Ok(())
    }

    /// Records one value, as serde_json's `deserialize_any` would hand it
    /// over, but for numbers beyond 64 bits.
    fn value(&mut self, mut recorder: Recorder<'_, 'de>) -> Result<(), Message> {
        self.skip_whitespace();
        match self.peek() {
            Some(b'{') => {
                self.pos += 1;
                let at = recorder.open_container(true);
                let mut count = 0u64;
                self.skip_whitespace();
                if self.peek() == Some(b'}') {
                    self.pos += 1;
                } else {
                    loop {
                        self.skip_whitespace();
                        self.string(recorder.nested()?)?;
                        recorder.within(0)?;
                        self.expect(b':')?;
                        self.value(recorder.nested()?)?;
                        recorder.within(0)?;
                        count += 1;
                        if !self.more(b'}')? {
                            break;
                        }
                    }
                }
                recorder.close(at, count)
            }
            Some(b'[') => {
                self.pos += 1;
                let at = recorder.open_container(false);
                let mut count = 0u64;
                self.skip_whitespace();
                if self.peek() == Some(b']') {
                    self.pos += 1;
                } else {
                    loop {
                        self.value(recorder.nested()?)?;
                        recorder.within(0)?;
                        count += 1;
                        if !self.more(b']')? {
                            break;
                        }
                    }
                }
                recorder.close(at, count)
            }
            Some(b'"') => self.string(recorder),
            Some(b't') => {
                self.pos += 4;
                recorder.visit_bool(true)
            }
            Some(b'f') => {
                self.pos += 5;
                recorder.visit_bool(false)
            }
            Some(b'n') => {
                self.pos += 4;
                recorder.visit_unit()
            }
            Some(b'-' | b'0'..=b'9') => self.number(recorder),
            _ => Err(malformed()),
        }
    }

    /// After an element: `true` at a comma, `false` at the closing `end`.
    fn more(&mut self, end: u8) -> Result<bool, Message> {
        self.skip_whitespace();
        match self.peek() {
            Some(b',') => {
                self.pos += 1;
                Ok(true)
            }
            Some(b) if b == end => {
                self.pos += 1;
                Ok(false)
            }
            _ => Err(malformed()),
        }
    }

    /// A string at the cursor: borrowed when it has no escapes (as
    /// serde_json lends it), else unescaped by serde_json itself.
    fn string(&mut self, recorder: Recorder<'_, 'de>) -> Result<(), Message> {
        let bytes = self.text.as_bytes();
        if bytes.get(self.pos) != Some(&b'"') {
            return Err(malformed());
        }
        let start = self.pos + 1;
        let rest = bytes.get(start..).ok_or_else(malformed)?;
        let stop = quote_or_escape(rest);
        if let Some(len) = stop.filter(|&len| rest[len] == b'"') {
            self.pos = start + len + 1;
            let inner = self.text.get(start..start + len).ok_or_else(malformed)?;
            return recorder.visit_borrowed_str(inner);
        }
        let mut at = start + stop.ok_or_else(malformed)?;
        loop {
            match bytes.get(at) {
                Some(b'"') => break,
                Some(b'\\') => at += 2,
                Some(_) => at += 1,
                None => return Err(malformed()),
            }
        }
        self.pos = at + 1;
        let literal = self.text.get(start - 1..at + 1).ok_or_else(malformed)?;
        let unescaped: String =
            serde_json::from_str(literal).map_err(|e| message(without_position(e)))?;
        recorder.visit_str(&unescaped)
    }

    /// A number at the cursor: a 64-bit integer as serde_json hands it
    /// over; anything else as the `f64` serde_json makes of it, with its
    /// text.
    fn number(&mut self, mut recorder: Recorder<'_, 'de>) -> Result<(), Message> {
        let bytes = self.text.as_bytes();
        let start = self.pos;
        let negative = bytes.get(start) == Some(&b'-');
        let mut at = start + usize::from(negative);
        let mut value: u64 = 0;
        let mut wide = false;
        while let Some(&digit @ b'0'..=b'9') = bytes.get(at) {
            match value
                .checked_mul(10)
                .and_then(|v| v.checked_add(u64::from(digit - b'0')))
            {
                Some(v) => value = v,
                None => wide = true,
            }
            at += 1;
        }
        if !wide && !matches!(bytes.get(at), Some(b'.' | b'e' | b'E')) {
            self.pos = at;
            if !negative {
                return recorder.visit_u64(value);
            }
            // serde_json reads `-0` as a float, and `-2^63` is the last
            // negative `i64`.
            if value != 0 && value <= 1 << 63 {
                return recorder.visit_i64((value as i64).wrapping_neg());
            }
        }
        while let Some(b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E') = bytes.get(at) {
            at += 1;
        }
        self.pos = at;
        let text = self.text.get(start..at).ok_or_else(malformed)?;
        let value = parse_float::<f64>(text).map_err(message)?;
        recorder.within(text.len())?;
        recorder.buffer().push_text_number(value, text);
        Ok(())
    }
}

/// Where the first `"` or `\\` of `bytes` is, eight bytes at a time (as
/// serde_json's own string scan; the text has no control characters left,
/// serde_json checked).
fn quote_or_escape(bytes: &[u8]) -> Option<usize> {
    const ONES: u64 = u64::from_ne_bytes([1; 8]);
    const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);
    let has_zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGH;
    let mut chunks = bytes.chunks_exact(8);
    let mut at = 0;
    for chunk in &mut chunks {
        let mut word = [0; 8];
        word.copy_from_slice(chunk);
        let word = u64::from_le_bytes(word);
        let found =
            has_zero(word ^ (ONES * u64::from(b'"'))) | has_zero(word ^ (ONES * u64::from(b'\\')));
        if found != 0 {
            // The lowest flagged byte is exact (borrows only run upwards).
            return Some(at + (found.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    let tail = chunks.remainder();
    tail.iter()
        .position(|&b| b == b'"' || b == b'\\')
        .map(|i| at + i)
}

#[cold]
fn malformed() -> Message {
    message("json_subtypes: serde_json handed over malformed raw JSON")
}
