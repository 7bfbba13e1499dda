//! Recording: the visitor that writes any serde value into a buffer, and
//! the `max_buffer` limit it enforces.

use super::*;

/// `max_buffer`: how many bytes a set of subtypes lets the engine buffer
/// before the tag (or, in presence mode, of the whole object), and whose
/// limit it is, for the error.
#[derive(Clone, Copy)]
pub(crate) struct Limit {
    pub(crate) max: usize,
    pub(crate) name: &'static str,
    pub(crate) tag: Option<&'static str>,
}

impl Limit {
    /// An error when `len` bytes and `more` to come are over the limit.
    #[inline]
    pub(crate) fn check<E: de::Error>(&self, len: usize, more: usize) -> Result<(), E> {
        if len.saturating_add(more) > self.max {
            return Err(self.exceeded());
        }
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn exceeded<E: de::Error>(&self) -> E {
        let (max, name) = (self.max, self.name);
        match self.tag {
            Some(tag) => E::custom(format_args!(
                "more than {max} bytes buffered before the tag `{tag}` of {name} (max_buffer = {max})"
            )),
            None => E::custom(format_args!(
                "more than {max} bytes buffered to pick the subtype of {name} (max_buffer = {max})"
            )),
        }
    }
}

/// Recording visitor. `depth` counts down; at zero the input is too deep.
pub(crate) struct Recorder<'b, 'de> {
    pub(super) buf: &'b mut Buffer<'de>,
    pub(super) depth: u32,
}

impl<'b, 'de> Recorder<'b, 'de> {
    fn code(&mut self) -> &mut Vec<u8> {
        &mut self.buf.code
    }

    pub(crate) fn buffer(&mut self) -> &mut Buffer<'de> {
        self.buf
    }

    pub(crate) fn nested<E: de::Error>(&mut self) -> Result<Recorder<'_, 'de>, E> {
        match self.depth.checked_sub(1) {
            Some(depth) if depth > 0 => Ok(Recorder {
                buf: self.buf,
                depth,
            }),
            _ => Err(too_deep()),
        }
    }

    /// `Limit::check` for the buffer so far and `more` bytes to copy:
    /// after each element of a container and before a string is copied,
    /// so that one huge value is refused as it comes, not after it was held
    /// whole.
    #[inline]
    pub(crate) fn within<E: de::Error>(&self, more: usize) -> Result<(), E> {
        match self.buf.limit {
            Some(limit) => limit.check(self.buf.code.len(), more),
            None => Ok(()),
        }
    }

    /// Starts a sequence (`map` false) or a map whose elements the caller
    /// records with `nested`; see `close`.
    pub(crate) fn open_container(&mut self, map: bool) -> Mark {
        self.open(if map { MAP } else { SEQ })
    }

    pub(super) fn open(&mut self, kind: u8) -> Mark {
        let at = self.buf.mark();
        self.code().push(kind);
        // `end` and `count`, filled in by `close`.
        self.code().extend_from_slice(&[0; CONTAINER_HEADER - 1]);
        at
    }

    /// Records an arbitrary-precision number by its digits.
    pub(crate) fn number(self, digits: &str) {
        self.buf.push_number(digits);
    }

    /// Turns the map recorded at `at` into a `NUMBER` if it is serde_json's
    /// arbitrary-precision number, so it replays as a number.
    fn as_number(&mut self, at: Mark) {
        let key = Mark(at.0 + CONTAINER_HEADER);
        if self.buf.str_at(key) != Some(NUMBER_TOKEN) {
            return;
        }
        let mut r = self.buf.reader_at(key);
        r.skip();
        let Some(digits) = self.buf.str_at(r.position()).map(str::to_owned) else {
            return;
        };
        self.buf.truncate(at);
        put_varint_entry(self.code(), NUMBER, digits.len() as u64);
        self.code().extend_from_slice(digits.as_bytes());
    }

    pub(crate) fn close<E: de::Error>(&mut self, at: Mark, count: u64) -> Result<(), E> {
        let at = at.0;
        let end = self.code().len();
        let (end, count) = match (u32::try_from(end), u32::try_from(count)) {
            (Ok(end), Ok(count)) => (end, count),
            _ => return Err(E::custom("value too large to buffer (over 4 GiB)")),
        };
        self.code()[at + 1..at + 5].copy_from_slice(&end.to_le_bytes());
        self.code()[at + 5..at + CONTAINER_HEADER].copy_from_slice(&count.to_le_bytes());
        Ok(())
    }
}

/// A container's header: its code, then its `end` (where its elements
/// stop) and `count` (of elements), a little-endian `u32` each; its first
/// element follows.
const CONTAINER_HEADER: usize = 1 + 4 + 4;

pub(crate) fn too_deep<E: de::Error>() -> E {
    E::custom("recursion limit exceeded")
}

impl<'de> Visitor<'de> for Recorder<'_, 'de> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any value")
    }

    fn visit_bool<E>(mut self, v: bool) -> Result<(), E> {
        self.code().push(if v { BOOL_TRUE } else { BOOL_FALSE });
        Ok(())
    }

    fn visit_u8<E>(mut self, v: u8) -> Result<(), E> {
        self.code().extend_from_slice(&[U8, v]);
        Ok(())
    }

    fn visit_u16<E>(mut self, v: u16) -> Result<(), E> {
        put_varint_entry(self.code(), U16, v.into());
        Ok(())
    }

    fn visit_u32<E>(mut self, v: u32) -> Result<(), E> {
        put_varint_entry(self.code(), U32, v.into());
        Ok(())
    }

    fn visit_u64<E>(mut self, v: u64) -> Result<(), E> {
        put_varint_entry(self.code(), U64, v);
        Ok(())
    }

    fn visit_i8<E>(mut self, v: i8) -> Result<(), E> {
        self.code().extend_from_slice(&[I8, v as u8]);
        Ok(())
    }

    fn visit_i16<E>(mut self, v: i16) -> Result<(), E> {
        put_varint_entry(self.code(), I16, zigzag(v.into()));
        Ok(())
    }

    fn visit_i32<E>(mut self, v: i32) -> Result<(), E> {
        put_varint_entry(self.code(), I32, zigzag(v.into()));
        Ok(())
    }

    fn visit_i64<E>(mut self, v: i64) -> Result<(), E> {
        put_varint_entry(self.code(), I64, zigzag(v));
        Ok(())
    }

    fn visit_u128<E>(mut self, v: u128) -> Result<(), E> {
        self.code().push(U128);
        self.code().extend_from_slice(&v.to_le_bytes());
        Ok(())
    }

    fn visit_i128<E>(mut self, v: i128) -> Result<(), E> {
        self.code().push(I128);
        self.code().extend_from_slice(&v.to_le_bytes());
        Ok(())
    }

    fn visit_f32<E>(mut self, v: f32) -> Result<(), E> {
        self.code().push(F32);
        self.code().extend_from_slice(&v.to_le_bytes());
        Ok(())
    }

    fn visit_f64<E>(mut self, v: f64) -> Result<(), E> {
        put_word_entry(self.code(), F64, v.to_le_bytes());
        Ok(())
    }

    fn visit_char<E>(mut self, v: char) -> Result<(), E> {
        put_varint_entry(self.code(), CHAR, u64::from(v));
        Ok(())
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<(), E> {
        self.within(v.len())?;
        self.buf.push_str(v);
        Ok(())
    }

    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<(), E> {
        self.buf.push_borrowed_str(v);
        Ok(())
    }

    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<(), E> {
        self.within(v.len())?;
        self.buf.push_bytes(v);
        Ok(())
    }

    fn visit_borrowed_bytes<E>(self, v: &'de [u8]) -> Result<(), E> {
        self.buf.push_borrowed_bytes(v);
        Ok(())
    }

    fn visit_unit<E>(mut self) -> Result<(), E> {
        self.code().push(UNIT);
        Ok(())
    }

    fn visit_none<E>(mut self) -> Result<(), E> {
        self.code().push(NONE);
        Ok(())
    }

    fn visit_some<D>(mut self, deserializer: D) -> Result<(), D::Error>
    where
        D: Deserializer<'de>,
    {
        self.code().push(SOME);
        deserializer.deserialize_any(self.nested()?)
    }

    fn visit_newtype_struct<D>(mut self, deserializer: D) -> Result<(), D::Error>
    where
        D: Deserializer<'de>,
    {
        self.code().push(NEWTYPE);
        deserializer.deserialize_any(self.nested()?)
    }

    fn visit_seq<A>(mut self, mut seq: A) -> Result<(), A::Error>
    where
        A: SeqAccess<'de>,
    {
        let at = self.open(SEQ);
        let mut count = 0u64;
        while seq.next_element_seed(RecordSeed(self.nested()?))?.is_some() {
            self.within(0)?;
            count += 1;
        }
        self.close(at, count)
    }

    fn visit_map<A>(mut self, mut map: A) -> Result<(), A::Error>
    where
        A: MapAccess<'de>,
    {
        let at = self.open(MAP);
        let mut count = 0u64;
        while map.next_key_seed(RecordSeed(self.nested()?))?.is_some() {
            self.within(0)?;
            map.next_value_seed(RecordSeed(self.nested()?))?;
            self.within(0)?;
            count += 1;
        }
        self.close(at, count)?;
        if count == 1 {
            self.as_number(at);
        }
        Ok(())
    }

    fn visit_enum<A>(self, data: A) -> Result<(), A::Error>
    where
        A: EnumAccess<'de>,
    {
        // Buffering an enum would need to know its variant's shape before the
        // visitor asks for it, which serde does not tell; serde's own buffer
        // refuses these too.
        let _ = data;
        Err(A::Error::invalid_type(Unexpected::Enum, &self))
    }
}

pub(crate) struct RecordSeed<'b, 'de>(pub(crate) Recorder<'b, 'de>);

/// `RecordSeed` for a top-level value: also notes the format's
/// `is_human_readable` (see `Buffer::human_readable`).
pub(super) struct ValueSeed<'b, 'de>(pub(super) Recorder<'b, 'de>);

impl<'de> DeserializeSeed<'de> for ValueSeed<'_, 'de> {
    type Value = ();

    #[inline]
    fn deserialize<D>(self, deserializer: D) -> Result<(), D::Error>
    where
        D: Deserializer<'de>,
    {
        self.0.buf.human_readable = deserializer.is_human_readable();
        deserializer.deserialize_any(self.0)
    }
}

impl<'de> DeserializeSeed<'de> for RecordSeed<'_, 'de> {
    type Value = ();

    fn deserialize<D>(self, deserializer: D) -> Result<(), D::Error>
    where
        D: Deserializer<'de>,
    {
        deserializer.deserialize_any(self.0)
    }
}
