//! The prefix buffer: a compact, flat, lossless recording of serde values.
//!
//! serde's own `Content` is private and is a tree of boxed nodes that loses
//! `u128`/`i128`. Ours is one byte vector: every value is a one-byte code
//! followed by its payload, containers record where they end so a visitor
//! that stops early can be skipped past in O(1). Borrowed `&'de str` and
//! `&'de [u8]` stay borrowed, so a payload with borrowed fields still borrows
//! from the input after being replayed. One buffer is one allocation.

use core::cell::Cell;
use core::fmt;
use core::marker::PhantomData;

use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, Error as _, IntoDeserializer, MapAccess,
    SeqAccess, Unexpected, VariantAccess, Visitor,
};

thread_local! {
    /// Set by the dispatch engine just before it hands its visitor to a
    /// deserializer: the tag key it looks for. When that deserializer is a
    /// replay of our own buffer, the replay hands the tag entry over first,
    /// so a nested object whose tag came last is read on the streaming path
    /// instead of being buffered again (which would make recursive types
    /// quadratic, as typetag's are). Only the order of entries changes, and
    /// only for the engine's own visitor, which clears this on its first visit.
    static HOIST: Cell<Option<&'static str>> = const { Cell::new(None) };
}

#[inline]
pub(crate) fn set_hoist(key: Option<&'static str>) {
    HOIST.with(|h| h.set(key));
}

/// Puts the previous hoist key back when dropped, also when a format panics
/// before it visits (and so before the engine's visitor clears the key):
/// a key left behind would reorder the next replay on this thread that is
/// not the engine's own (`Unknown::deserialize_into`, `Unknown::get`).
pub(crate) struct Hoisting(Option<&'static str>);

impl Drop for Hoisting {
    #[inline]
    fn drop(&mut self) {
        set_hoist(self.0);
    }
}

/// Sets the hoist key for the next deserializer until the guard drops.
#[inline]
pub(crate) fn hoist(key: Option<&'static str>) -> Hoisting {
    Hoisting(HOIST.with(|h| h.replace(key)))
}

/// The first block a buffer takes: room for the entries before the tag of a
/// typical object. Never more, whatever size a format announces.
const FIRST_BLOCK: usize = 256;

/// The largest block a dropped buffer leaves for the next one on its thread.
const SPARE_MAX: usize = 16 * FIRST_BLOCK;

thread_local! {
    /// A block a dropped buffer left behind, empty but allocated. Presence
    /// mode and tags that come late buffer every object; reusing one block
    /// saves an allocation and a free per object, which cost about as much
    /// as recording a whole typical object.
    static SPARE: Cell<Vec<u8>> = const { Cell::new(Vec::new()) };
}

/// Default nesting limit, the same as serde_json's.
pub(crate) const DEFAULT_MAX_DEPTH: u32 = 128;

thread_local! {
    /// How deep the dispatch engine is nested on this thread, and the limit
    /// of the innermost level. We count ourselves so that hostile nesting is
    /// an error even where the format sets no limit of its own.
    static NESTING: Cell<(u32, u32)> = const { Cell::new((0, DEFAULT_MAX_DEPTH)) };
}

/// Restores the nesting state of the enclosing level when dropped (also on
/// unwinding).
pub(crate) struct Nested((u32, u32));

impl Drop for Nested {
    #[inline]
    fn drop(&mut self) {
        NESTING.with(|n| n.set(self.0));
    }
}

/// Enters one more level of dispatch with its own `limit`; `None` when that
/// is one level too many.
#[inline]
pub(crate) fn enter(limit: u32) -> Option<Nested> {
    NESTING.with(|n| {
        let outer = n.get();
        let depth = outer.0 + 1;
        if depth > limit {
            return None;
        }
        n.set((depth, limit));
        Some(Nested(outer))
    })
}

/// How many more levels values may nest, for buffering at this level.
#[inline]
pub(crate) fn remaining() -> u32 {
    NESTING.with(|n| {
        let (depth, limit) = n.get();
        limit.saturating_sub(depth).max(1)
    })
}

// One byte per value kind.
const BOOL_FALSE: u8 = 0;
const BOOL_TRUE: u8 = 1;
const U8: u8 = 2;
const U16: u8 = 3;
const U32: u8 = 4;
const U64: u8 = 5;
const I8: u8 = 6;
const I16: u8 = 7;
const I32: u8 = 8;
const I64: u8 = 9;
const U128: u8 = 10;
const I128: u8 = 11;
const F32: u8 = 12;
const F64: u8 = 13;
const CHAR: u8 = 14;
const STR_BORROWED: u8 = 15;
const STR_OWNED: u8 = 16;
const BYTES_BORROWED: u8 = 17;
const BYTES_OWNED: u8 = 18;
const UNIT: u8 = 19;
const NONE: u8 = 20;
const SOME: u8 = 21;
const NEWTYPE: u8 = 22;
const SEQ: u8 = 23;
const MAP: u8 = 24;
/// A number serde_json's `arbitrary_precision` handed over as its digits.
const NUMBER: u8 = 25;
/// A number read from serde_json's text under `exact_numbers` (see
/// `exact.rs`) that no 64-bit integer holds: the `f64` serde_json makes of
/// it, then its text as a `STR_OWNED` entry, for the requests that read it
/// exactly (`u128`, `i128`, `f32`).
const TEXT_NUMBER: u8 = 26;

/// serde_json's `arbitrary_precision` hands numbers over as a one-entry map
/// with this key; its `raw_value` asks for raw JSON with the newtype name.
/// Both are private to serde_json but stable, and serde_json's own `Value`
/// handles them the same way.
pub(crate) const NUMBER_TOKEN: &str = "$serde_json::private::Number";
const RAW_TOKEN: &str = "$serde_json::private::RawValue";
// Containers are followed by `end` (the offset just past their last element)
// and `count`, as fixed `u32`s patched when the container closes.

/// A recorded sequence of serde values borrowing from the input `'de`.
pub(crate) struct Buffer<'de> {
    code: Vec<u8>,
    /// Copies borrowed strings and bytes instead of pointing at them, so the
    /// buffer can outlive the input (see `into_static`).
    owned: bool,
    /// What the format answered when a value was recorded from it; a replay
    /// answers the same. Asked only when something is recorded: serde_test
    /// refuses the question unless a test configures it, and serde's derive
    /// never asks on a tag-first read.
    human_readable: bool,
    /// `max_buffer` while a value before the tag is recorded (see
    /// `record_value_within`). Here rather than in the `Recorder`, which
    /// is passed by value at every level of a recorded value: at three
    /// words instead of two it no longer went in registers, and deep
    /// tag-last reads cost 2% more.
    limit: Option<Limit>,
    marker: PhantomData<&'de [u8]>,
}

impl<'de> Buffer<'de> {
    pub(crate) const fn new() -> Self {
        Buffer {
            code: Vec::new(),
            owned: false,
            human_readable: true,
            limit: None,
            marker: PhantomData,
        }
    }

    pub(crate) const fn new_owned() -> Self {
        Buffer {
            code: Vec::new(),
            owned: true,
            human_readable: true,
            limit: None,
            marker: PhantomData,
        }
    }

    /// An owned buffer holds no borrowed pointers, so no lifetime limits it.
    pub(crate) fn into_static(self) -> Buffer<'static> {
        // The reader trusts recorded addresses for as long as the lifetime
        // says; only a buffer that never recorded one may claim `'static`.
        assert!(self.owned, "json_subtypes: only an owned buffer is 'static");
        let mut this = self;
        Buffer {
            code: core::mem::take(&mut this.code),
            owned: true,
            human_readable: this.human_readable,
            limit: None,
            marker: PhantomData,
        }
    }

    pub(crate) fn truncate(&mut self, len: usize) {
        self.code.truncate(len);
    }

    /// Records the value `deserializer` yields, counting nesting against `max_depth`.
    pub(crate) fn record<D>(&mut self, deserializer: D, max_depth: u32) -> Result<(), D::Error>
    where
        D: Deserializer<'de>,
    {
        // No `first_use` here: every caller has just pushed the key.
        self.human_readable = deserializer.is_human_readable();
        deserializer.deserialize_any(self.recorder(max_depth))
    }

    /// Records the value of the map entry whose key was just read.
    pub(crate) fn record_value<A>(&mut self, map: &mut A, max_depth: u32) -> Result<(), A::Error>
    where
        A: MapAccess<'de>,
    {
        map.next_value_seed(ValueSeed(self.recorder(max_depth)))
    }

    /// `record_value` within `limit`: the key is refused if it took the
    /// buffer past it, and so is the value as soon as it does (see
    /// `Recorder::limit`).
    pub(crate) fn record_value_within<A>(
        &mut self,
        map: &mut A,
        max_depth: u32,
        limit: Limit,
    ) -> Result<(), A::Error>
    where
        A: MapAccess<'de>,
    {
        limit.check(self.len(), 0)?;
        self.limit = Some(limit);
        let out = map.next_value_seed(ValueSeed(self.recorder(max_depth)));
        self.limit = None;
        out?;
        limit.check(self.len(), 0)
    }

    /// `record_value` (and `record_value_within` when `limit` is set) for
    /// `exact_numbers`: from serde_json's text where the format is
    /// serde_json over borrowed input (see `exact.rs`).
    pub(crate) fn record_exact_value<A>(
        &mut self,
        map: &mut A,
        max_depth: u32,
        limit: Option<Limit>,
    ) -> Result<(), A::Error>
    where
        A: MapAccess<'de>,
    {
        if let Some(limit) = limit {
            limit.check(self.len(), 0)?;
            self.limit = Some(limit);
        }
        let out = map.next_value_seed(crate::exact::ExactSeed(self.recorder(max_depth)));
        self.limit = None;
        out?;
        match limit {
            Some(limit) => limit.check(self.len(), 0),
            None => Ok(()),
        }
    }

    /// Notes what the format answers for `is_human_readable` (see
    /// `human_readable`).
    pub(crate) fn note_human_readable(&mut self, human_readable: bool) {
        self.human_readable = human_readable;
    }

    /// What a replay answers for `is_human_readable`: the format's answer if
    /// a value was recorded from it, else serde's default.
    #[inline]
    pub(crate) fn human_readable(&self) -> bool {
        self.human_readable
    }

    /// A visitor that records whatever it is handed.
    pub(crate) fn recorder(&mut self, max_depth: u32) -> Recorder<'_, 'de> {
        Recorder {
            buf: self,
            depth: max_depth,
        }
    }

    /// Starts a map whose entries the caller records; see `end_map`.
    pub(crate) fn begin_map(&mut self) -> usize {
        self.recorder(1).open(MAP)
    }

    pub(crate) fn end_map<E: de::Error>(&mut self, at: usize, count: u64) -> Result<(), E> {
        self.recorder(1).close(at, count)
    }

    /// A buffer starts empty (the tag-first path never touches it) and,
    /// once used, takes one block big enough for a typical prefix, instead of
    /// growing through 8, 16, 32... bytes.
    #[inline]
    pub(crate) fn first_use(&mut self) {
        if self.code.capacity() == 0 {
            self.take_block();
        }
    }

    #[cold]
    fn take_block(&mut self) {
        // An owned buffer may be kept for long (in an `Unknown`): it takes
        // a block of its own, not a spare that may be larger than it needs.
        if !self.owned {
            self.code = SPARE.try_with(Cell::take).unwrap_or_default();
        }
        if self.code.capacity() == 0 {
            self.code.reserve(FIRST_BLOCK);
        }
    }

    /// Records a key that was already read as a string.
    #[inline]
    pub(crate) fn push_str(&mut self, v: &str) {
        self.first_use();
        put_varint_entry(&mut self.code, STR_OWNED, v.len() as u64);
        self.code.extend_from_slice(v.as_bytes());
    }

    #[inline]
    pub(crate) fn push_borrowed_str(&mut self, v: &'de str) {
        self.first_use();
        if self.owned || u32::try_from(v.len()).is_err() {
            return self.push_str(v);
        }
        put_slice_ref(&mut self.code, STR_BORROWED, v.as_bytes());
    }

    pub(crate) fn push_bytes(&mut self, v: &[u8]) {
        self.first_use();
        put_varint_entry(&mut self.code, BYTES_OWNED, v.len() as u64);
        self.code.extend_from_slice(v);
    }

    pub(crate) fn push_borrowed_bytes(&mut self, v: &'de [u8]) {
        self.first_use();
        if self.owned || u32::try_from(v.len()).is_err() {
            return self.push_bytes(v);
        }
        put_slice_ref(&mut self.code, BYTES_BORROWED, v);
    }

    /// An arbitrary-precision number by its digits (see `NUMBER_TOKEN`).
    pub(crate) fn push_number(&mut self, digits: &str) {
        put_varint_entry(&mut self.code, NUMBER, digits.len() as u64);
        self.code.extend_from_slice(digits.as_bytes());
    }

    pub(crate) fn push_u64(&mut self, v: u64) {
        put_varint_entry(&mut self.code, U64, v);
    }

    pub(crate) fn push_i64(&mut self, v: i64) {
        put_varint_entry(&mut self.code, I64, zigzag(v));
    }

    /// A number by the `f64` serde_json makes of it and its text (see
    /// `TEXT_NUMBER`).
    pub(crate) fn push_text_number(&mut self, value: f64, text: &str) {
        self.first_use();
        put_word_entry(&mut self.code, TEXT_NUMBER, value.to_le_bytes());
        put_varint_entry(&mut self.code, STR_OWNED, text.len() as u64);
        self.code.extend_from_slice(text.as_bytes());
    }

    pub(crate) fn push_bool(&mut self, v: bool) {
        self.code.push(if v { BOOL_TRUE } else { BOOL_FALSE });
    }

    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.code.len()
    }

    #[inline]
    pub(crate) fn reader_at(&self, pos: usize) -> Reader<'_, 'de> {
        Reader { buf: self, pos }
    }
}

impl Drop for Buffer<'_> {
    #[inline]
    fn drop(&mut self) {
        let capacity = self.code.capacity();
        if capacity != 0 && capacity <= SPARE_MAX {
            self.leave_block();
        }
    }
}

impl Buffer<'_> {
    fn leave_block(&mut self) {
        let mut block = core::mem::take(&mut self.code);
        block.clear();
        // Only into an empty slot: a buffer nested in another's lifetime
        // leaves its block, and the outer one's is then freed. During the
        // thread's teardown the slot may be gone; the block is then freed.
        let _ = SPARE.try_with(|spare| {
            let old = spare.replace(block);
            if old.capacity() != 0 {
                spare.set(old);
            }
        });
    }
}

impl Clone for Buffer<'_> {
    fn clone(&self) -> Self {
        Buffer {
            code: self.code.clone(),
            owned: self.owned,
            human_readable: self.human_readable,
            limit: None,
            marker: PhantomData,
        }
    }
}

/// Equal values, whatever width or signedness a format used for an integer
/// (`1u8` from one format equals `1i64` from another) and whether a string
/// was borrowed; floats compare as `f64` does.
impl PartialEq for Buffer<'_> {
    fn eq(&self, other: &Self) -> bool {
        let (mut a, mut b) = (self.reader_at(0), other.reader_at(0));
        loop {
            match (a.pos >= self.code.len(), b.pos >= other.code.len()) {
                (true, true) => return true,
                (false, false) if a.value_eq(&mut b) => {}
                _ => return false,
            }
        }
    }
}

/// A scalar read for comparison.
#[derive(PartialEq)]
enum Scalar<'a> {
    Int(i128),
    BigUnsigned(u128),
    Float(f64),
    Text(&'a [u8]),
    Bytes(&'a [u8]),
    Code(u8),
}

impl<'a> Reader<'a, '_> {
    fn scalar(&mut self, code: u8) -> Scalar<'a> {
        match code {
            U8 => Scalar::Int(self.byte().into()),
            U16 | U32 | U64 => Scalar::Int(self.varint().into()),
            I8 => Scalar::Int((self.byte() as i8).into()),
            I16 | I32 | I64 => Scalar::Int(unzigzag(self.varint()).into()),
            U128 => {
                let v = u128::from_le_bytes(self.array());
                match i128::try_from(v) {
                    Ok(v) => Scalar::Int(v),
                    Err(_) => Scalar::BigUnsigned(v),
                }
            }
            I128 => Scalar::Int(i128::from_le_bytes(self.array())),
            F32 => Scalar::Float(f32::from_le_bytes(self.array()).into()),
            F64 => Scalar::Float(f64::from_le_bytes(self.array())),
            TEXT_NUMBER => {
                let value = f64::from_le_bytes(self.array());
                self.skip();
                Scalar::Float(value)
            }
            STR_BORROWED => Scalar::Text(self.borrowed_str().as_bytes()),
            STR_OWNED | NUMBER => Scalar::Text(self.owned()),
            BYTES_BORROWED => Scalar::Bytes(self.borrowed()),
            BYTES_OWNED => Scalar::Bytes(self.owned()),
            CHAR => {
                self.varint();
                Scalar::Code(code)
            }
            other => Scalar::Code(other),
        }
    }

    /// Compares the next value here with the next value of `other`.
    fn value_eq(&mut self, other: &mut Reader<'_, '_>) -> bool {
        let (ca, cb) = (self.byte(), other.byte());
        match (ca, cb) {
            (SEQ, SEQ) | (MAP, MAP) => {
                let (_, na) = self.container();
                let (_, nb) = other.container();
                let items = if ca == MAP { na * 2 } else { na };
                na == nb && (0..items).all(|_| self.value_eq(other))
            }
            (SOME, SOME) | (NEWTYPE, NEWTYPE) => self.value_eq(other),
            (CHAR, CHAR) => self.varint() == other.varint(),
            _ => {
                let (sa, sb) = (self.scalar(ca), other.scalar(cb));
                match (&sa, &sb) {
                    (Scalar::Code(x), Scalar::Code(y)) => {
                        x == y && !matches!(*x, SEQ | MAP | SOME | NEWTYPE)
                    }
                    _ => sa == sb,
                }
            }
        }
    }
}

impl fmt::Debug for Buffer<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Buffer")
            .field("bytes", &self.code.len())
            .finish()
    }
}

/// Writes `kind` and then `v` as a varint, in one copy of a fixed size:
/// that compiles to a few moves, where a copy of the varint's own length
/// would be a call to `memcpy`. The unused tail is cut off again.
#[inline]
fn put_varint_entry(code: &mut Vec<u8>, kind: u8, mut v: u64) {
    let mut entry = [0u8; 11];
    entry[0] = kind;
    let mut n = 1;
    while v >= 0x80 {
        entry[n] = (v as u8) | 0x80;
        v >>= 7;
        n += 1;
    }
    entry[n] = v as u8;
    let len = code.len() + n + 1;
    code.extend_from_slice(&entry);
    code.truncate(len);
}

/// Writes `kind` and eight bytes in one copy.
#[inline]
fn put_word_entry(code: &mut Vec<u8>, kind: u8, bytes: [u8; 8]) {
    let mut entry = [0u8; 9];
    entry[0] = kind;
    entry[1..].copy_from_slice(&bytes);
    code.extend_from_slice(&entry);
}

fn zigzag(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

fn unzigzag(v: u64) -> i64 {
    ((v >> 1) as i64) ^ -((v & 1) as i64)
}

/// Records a borrowed slice as its address and length.
/// Records a borrowed slice as its code, address and length (a fixed 13
/// bytes, written at once; callers keep `len` within `u32`).
#[inline]
fn put_slice_ref(code: &mut Vec<u8>, kind: u8, v: &[u8]) {
    let mut entry = [0u8; 1 + 8 + 4];
    entry[0] = kind;
    entry[1..9].copy_from_slice(&(v.as_ptr() as usize as u64).to_le_bytes());
    entry[9..].copy_from_slice(&(v.len() as u32).to_le_bytes());
    code.extend_from_slice(&entry);
}

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
    buf: &'b mut Buffer<'de>,
    depth: u32,
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
    pub(crate) fn open_container(&mut self, map: bool) -> usize {
        self.open(if map { MAP } else { SEQ })
    }

    fn open(&mut self, kind: u8) -> usize {
        let at = self.code().len();
        self.code().push(kind);
        self.code().extend_from_slice(&[0; 8]);
        at
    }

    /// Records an arbitrary-precision number by its digits.
    pub(crate) fn number(self, digits: &str) {
        self.buf.push_number(digits);
    }

    /// Turns the map recorded at `at` into a `NUMBER` if it is serde_json's
    /// arbitrary-precision number, so it replays as a number.
    fn as_number(&mut self, at: usize) {
        let key = at + 9;
        if self.buf.str_at(key) != Some(NUMBER_TOKEN) {
            return;
        }
        let mut r = self.buf.reader_at(key);
        r.skip();
        let Some(digits) = self.buf.str_at(r.pos).map(str::to_owned) else {
            return;
        };
        self.buf.code.truncate(at);
        put_varint_entry(self.code(), NUMBER, digits.len() as u64);
        self.code().extend_from_slice(digits.as_bytes());
    }

    pub(crate) fn close<E: de::Error>(&mut self, at: usize, count: u64) -> Result<(), E> {
        let end = self.code().len();
        let (end, count) = match (u32::try_from(end), u32::try_from(count)) {
            (Ok(end), Ok(count)) => (end, count),
            _ => return Err(E::custom("value too large to buffer (over 4 GiB)")),
        };
        self.code()[at + 1..at + 5].copy_from_slice(&end.to_le_bytes());
        self.code()[at + 5..at + 9].copy_from_slice(&count.to_le_bytes());
        Ok(())
    }
}

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
struct ValueSeed<'b, 'de>(Recorder<'b, 'de>);

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

/// A cursor over a [`Buffer`]; each value is read at most once.
pub(crate) struct Reader<'a, 'de> {
    buf: &'a Buffer<'de>,
    pos: usize,
}

impl<'a, 'de> Reader<'a, 'de> {
    #[inline]
    pub(crate) fn position(&self) -> usize {
        self.pos
    }

    /// The next value as a deserializer; advances past it.
    #[inline]
    pub(crate) fn next_value<E>(&mut self, human_readable: bool) -> Replay<'_, 'a, 'de, E> {
        Replay {
            reader: self,
            human_readable,
            error: PhantomData,
        }
    }

    /// The next value as a map key (see [`ReplayKey`]); advances past it.
    #[inline]
    pub(crate) fn next_key<E>(&mut self, human_readable: bool) -> ReplayKey<'_, 'a, 'de, E> {
        ReplayKey(self.next_value(human_readable))
    }

    #[inline]
    fn byte(&mut self) -> u8 {
        let b = self.buf.code[self.pos];
        self.pos += 1;
        b
    }

    #[inline]
    fn array<const N: usize>(&mut self) -> [u8; N] {
        let mut out = [0; N];
        out.copy_from_slice(&self.buf.code[self.pos..self.pos + N]);
        self.pos += N;
        out
    }

    #[inline]
    fn varint(&mut self) -> u64 {
        let mut out = 0u64;
        let mut shift = 0;
        loop {
            let b = self.byte();
            out |= u64::from(b & 0x7f) << shift;
            if b < 0x80 {
                return out;
            }
            shift += 7;
        }
    }

    #[inline]
    fn owned(&mut self) -> &'a [u8] {
        let len = self.varint() as usize;
        let code: &'a [u8] = &self.buf.code;
        let out = &code[self.pos..self.pos + len];
        self.pos += len;
        out
    }

    #[inline]
    fn borrowed(&mut self) -> &'de [u8] {
        let addr = u64::from_le_bytes(self.array()) as usize;
        let len = u32::from_le_bytes(self.array()) as usize;
        // SAFETY: `addr` and `len` were written by `put_slice_ref` from a
        // `&'de [u8]` (or the bytes of a `&'de str`) at exactly this offset:
        // the code byte before them says so and only `Buffer` writes `code`.
        // `Buffer<'de>` cannot outlive `'de`, so the memory is still borrowed.
        unsafe { core::slice::from_raw_parts(addr as *const u8, len) }
    }

    #[inline]
    fn borrowed_str(&mut self) -> &'de str {
        let bytes = self.borrowed();
        // SAFETY: recorded by `push_borrowed_str` from a `&'de str`, so the
        // bytes are valid UTF-8 (see `borrowed` for the address itself).
        unsafe { core::str::from_utf8_unchecked(bytes) }
    }

    #[inline]
    fn container(&mut self) -> (usize, usize) {
        let end = u32::from_le_bytes(self.array()) as usize;
        let count = u32::from_le_bytes(self.array()) as usize;
        (end, count)
    }

    /// Skips one whole value.
    fn skip(&mut self) {
        match self.byte() {
            BOOL_FALSE | BOOL_TRUE | UNIT | NONE => {}
            U8 | I8 => self.pos += 1,
            U16 | U32 | U64 | I16 | I32 | I64 | CHAR => {
                self.varint();
            }
            U128 | I128 => self.pos += 16,
            F32 => self.pos += 4,
            F64 => self.pos += 8,
            TEXT_NUMBER => {
                self.pos += 8;
                self.skip();
            }
            STR_BORROWED | BYTES_BORROWED => {
                self.borrowed();
            }
            STR_OWNED | BYTES_OWNED | NUMBER => {
                self.owned();
            }
            SOME | NEWTYPE => self.skip(),
            SEQ | MAP => self.pos = self.container().0,
            code => unreachable_code(code),
        }
    }

    #[inline]
    fn peek(&self) -> u8 {
        self.buf.code[self.pos]
    }

    /// Whether the `TEXT_NUMBER` here was written as an integer (a float
    /// is refused by 128-bit requests as any float is).
    fn text_is_integer(&self) -> bool {
        let mut r = Reader {
            buf: self.buf,
            pos: self.pos,
        };
        let text = text_number(&mut r);
        !text.bytes().any(|b| matches!(b, b'.' | b'e' | b'E'))
    }
}

#[cold]
fn unreachable_code(code: u8) -> ! {
    // Only `Buffer` writes codes and every writer above uses a known one.
    panic!("json_subtypes: corrupt buffer code {code}")
}

/// Replays one recorded value into a visitor.
pub(crate) struct Replay<'r, 'a, 'de, E> {
    reader: &'r mut Reader<'a, 'de>,
    human_readable: bool,
    error: PhantomData<fn() -> E>,
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
        let hoist = HOIST.with(|h| h.get().and_then(|_| h.take()));
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
    strings! {
        deserialize_str deserialize_string deserialize_identifier
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
    ($($method:ident)*) => {
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
                    BYTES_BORROWED => {
                        reader.pos += 1;
                        visitor.visit_borrowed_bytes(reader.borrowed())
                    }
                    BYTES_OWNED => {
                        reader.pos += 1;
                        visitor.visit_bytes(reader.owned())
                    }
                    // Variant and field indexes of binary formats.
                    U8 | U16 | U32 | U64 => {
                        let start = reader.pos;
                        reader.pos += 1;
                        visitor.visit_u64(reader.varint_after_u8(start))
                    }
                    _ => refuse(reader, visitor),
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
                        match crate::exact::parse_float::<$ty>(text) {
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
fn text_number<'a>(reader: &mut Reader<'a, '_>) -> &'a str {
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

fn owned_str<'a>(reader: &mut Reader<'a, '_>) -> &'a str {
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

/// A recorded map key. serde_json reads a quoted number or bool as a key of
/// that type when asked (`{"7":..}` into a `HashMap<u32, _>`), but only in
/// place: recorded, the key is the string it was. Asked for a number or a
/// bool, a string key is parsed here as serde_json parses keys; anything
/// else replays as recorded.
pub(crate) struct ReplayKey<'r, 'a, 'de, E>(Replay<'r, 'a, 'de, E>);

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

/// Replays the map at the reader's position; with `hoist`, the entry with
/// that key (if any) comes first.
fn replay_map<'de, V, E>(
    reader: &mut Reader<'_, 'de>,
    human_readable: bool,
    visitor: V,
    hoist: Option<&str>,
) -> Result<V::Value, E>
where
    V: Visitor<'de>,
    E: de::Error,
{
    reader.pos += 1;
    let (end, count) = reader.container();
    let first = hoist.and_then(|key| {
        let mut scan = reader.buf.reader_at(reader.pos);
        (0..count).find_map(|_| {
            let k = scan.step();
            scan.skip();
            (reader.buf.str_at(k) == Some(key)).then_some((k, scan.pos))
        })
    });
    let mut map = ReplayMap {
        reader,
        human_readable,
        error: PhantomData,
        end,
        remaining: count,
        first,
        skip: first,
        resume: None,
    };
    let out = visitor.visit_map(&mut map)?;
    if map.remaining != 0 {
        return Err(de::Error::invalid_length(
            count,
            &ExpectedFewer(count - map.remaining),
        ));
    }
    map.reader.pos = end;
    Ok(out)
}

struct ExpectedFewer(usize);

impl de::Expected for ExpectedFewer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 == 1 {
            f.write_str("1 element")
        } else {
            write!(f, "{} elements", self.0)
        }
    }
}

struct ReplaySeq<'r, 'a, 'de, E> {
    reader: &'r mut Reader<'a, 'de>,
    human_readable: bool,
    error: PhantomData<fn() -> E>,
    end: usize,
    remaining: usize,
}

impl<'de, E: de::Error> SeqAccess<'de> for ReplaySeq<'_, '_, 'de, E> {
    type Error = E;

    fn next_element_seed<T>(&mut self, seed: T) -> Result<Option<T::Value>, Self::Error>
    where
        T: DeserializeSeed<'de>,
    {
        if self.remaining == 0 {
            return Ok(None);
        }
        self.remaining -= 1;
        let out = seed.deserialize(self.reader.next_value(self.human_readable))?;
        if self.remaining == 0 {
            debug_assert_eq!(self.reader.pos, self.end);
        }
        Ok(Some(out))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.remaining)
    }
}

pub(crate) struct ReplayMap<'r, 'a, 'de, E> {
    reader: &'r mut Reader<'a, 'de>,
    human_readable: bool,
    error: PhantomData<fn() -> E>,
    end: usize,
    remaining: usize,
    /// The hoisted entry (key offset, offset past its value), handed out first.
    first: Option<(usize, usize)>,
    /// The same entry, skipped when the in-order walk reaches it.
    skip: Option<(usize, usize)>,
    /// Where the in-order walk continues after the hoisted entry.
    resume: Option<usize>,
}

impl<'de, E: de::Error> MapAccess<'de> for ReplayMap<'_, '_, 'de, E> {
    type Error = E;

    fn next_key_seed<K>(&mut self, seed: K) -> Result<Option<K::Value>, Self::Error>
    where
        K: DeserializeSeed<'de>,
    {
        if self.remaining == 0 {
            return Ok(None);
        }
        self.remaining -= 1;
        if let Some((key, _)) = self.first.take() {
            self.resume = Some(self.reader.pos);
            self.reader.pos = key;
        } else if let Some((key, after)) = self.skip {
            if self.reader.pos == key {
                self.reader.pos = after;
                self.skip = None;
            }
        }
        seed.deserialize(self.reader.next_key(self.human_readable))
            .map(Some)
    }

    fn next_value_seed<V>(&mut self, seed: V) -> Result<V::Value, Self::Error>
    where
        V: DeserializeSeed<'de>,
    {
        let out = seed.deserialize(self.reader.next_value(self.human_readable))?;
        if let Some(resume) = self.resume.take() {
            self.reader.pos = resume;
        }
        if self.remaining == 0 && self.skip.is_none() {
            debug_assert_eq!(self.reader.pos, self.end);
        }
        Ok(out)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.remaining)
    }
}

struct ReplayEnum<'r, 'a, 'de, E> {
    reader: &'r mut Reader<'a, 'de>,
    human_readable: bool,
    error: PhantomData<fn() -> E>,
    has_value: bool,
}

impl<'r, 'a, 'de, E: de::Error> EnumAccess<'de> for ReplayEnum<'r, 'a, 'de, E> {
    type Error = E;
    type Variant = Self;

    fn variant_seed<V>(self, seed: V) -> Result<(V::Value, Self), Self::Error>
    where
        V: DeserializeSeed<'de>,
    {
        let out = seed.deserialize(self.reader.next_value(self.human_readable))?;
        Ok((out, self))
    }
}

impl<'de, E: de::Error> VariantAccess<'de> for ReplayEnum<'_, '_, 'de, E> {
    type Error = E;

    fn unit_variant(self) -> Result<(), Self::Error> {
        if self.has_value {
            de::Deserialize::deserialize(self.reader.next_value::<E>(self.human_readable))
        } else {
            Ok(())
        }
    }

    fn newtype_variant_seed<T>(self, seed: T) -> Result<T::Value, Self::Error>
    where
        T: DeserializeSeed<'de>,
    {
        if self.has_value {
            seed.deserialize(self.reader.next_value(self.human_readable))
        } else {
            Err(de::Error::invalid_type(
                Unexpected::UnitVariant,
                &"newtype variant",
            ))
        }
    }

    fn tuple_variant<V>(self, _len: usize, visitor: V) -> Result<V::Value, Self::Error>
    where
        V: Visitor<'de>,
    {
        if self.has_value {
            self.reader
                .next_value(self.human_readable)
                .deserialize_any(visitor)
        } else {
            Err(de::Error::invalid_type(
                Unexpected::UnitVariant,
                &"tuple variant",
            ))
        }
    }

    fn struct_variant<V>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error>
    where
        V: Visitor<'de>,
    {
        if self.has_value {
            self.reader
                .next_value(self.human_readable)
                .deserialize_any(visitor)
        } else {
            Err(de::Error::invalid_type(
                Unexpected::UnitVariant,
                &"struct variant",
            ))
        }
    }
}

impl<'de, E: de::Error> IntoDeserializer<'de, E> for Replay<'_, '_, 'de, E> {
    type Deserializer = Self;

    fn into_deserializer(self) -> Self {
        self
    }
}

/// Writes a recorded value back through any serializer, exactly as read.
pub(crate) struct Emit<'a, 'de> {
    buf: &'a Buffer<'de>,
    pos: usize,
}

impl<'de> Buffer<'de> {
    pub(crate) fn emit_at(&self, pos: usize) -> Emit<'_, 'de> {
        Emit { buf: self, pos }
    }
}

impl Reader<'_, '_> {
    /// Skips one value and returns where it started.
    pub(crate) fn step(&mut self) -> usize {
        let start = self.pos;
        self.skip();
        start
    }

    /// The entries of the map at the current position, as value offsets.
    pub(crate) fn map_entries(&mut self) -> Option<Vec<(usize, usize)>> {
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
    pub(crate) fn str_at(&self, pos: usize) -> Option<&str> {
        let mut r = Reader { buf: self, pos };
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
