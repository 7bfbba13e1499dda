//! The prefix buffer: a compact, flat, lossless recording of serde values.
//!
//! serde's own `Content` is private and is a tree of boxed nodes that loses
//! `u128`/`i128`. Ours is one byte vector: every value is a one-byte code
//! followed by its payload, containers record where they end so a visitor
//! that stops early can be skipped past in O(1). Borrowed `&'de str` and
//! `&'de [u8]` stay borrowed, so a payload with borrowed fields still borrows
//! from the input after being replayed. One buffer is one allocation.
//!
//! A borrowed slice is its code, its pointer (written as a pointer, so it
//! keeps its provenance) and its length. Reading one back is sound only at
//! the start of a value, which is why positions are [`Mark`]s: only the
//! buffer makes them (see ARCHITECTURE.md, "Invariants"). Two slower
//! designs with no `unsafe` here were measured and not merged
//! (RELIABILITY.md, "Undefined behaviour").

use core::cell::Cell;
use core::fmt;
use core::marker::PhantomData;

use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, Error as _, IntoDeserializer, MapAccess,
    SeqAccess, Unexpected, VariantAccess, Visitor,
};

mod emit;
mod record;
mod replay;

use record::ValueSeed;
pub(crate) use record::{too_deep, Limit, RecordSeed, Recorder};
use replay::{owned_str, text_number};
pub(crate) use replay::{parse_float, without_position, Replay, ReplayKey, ReplayMap};

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
/// with this key (`NUMBER_TOKEN`); its `raw_value` asks for raw JSON with
/// the newtype name. Both are private to serde_json but stable, and
/// serde_json's own `Value` handles them the same way.
pub(crate) use crate::visible::NUMBER_TOKEN;
pub(crate) const RAW_TOKEN: &str = "$serde_json::private::RawValue";
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

    /// Drops every value recorded after `mark`.
    pub(crate) fn truncate(&mut self, mark: Mark) {
        self.code.truncate(mark.0);
    }

    /// Where the next value recorded will start.
    #[inline]
    pub(crate) fn mark(&self) -> Mark {
        Mark(self.code.len())
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
        self.within(Some(limit), |buf| {
            map.next_value_seed(ValueSeed(buf.recorder(max_depth)))
        })
    }

    /// Runs `record` with the buffer held to `limit`, if any: checked
    /// before (the key just pushed), while recording, and after.
    #[inline]
    pub(crate) fn within<E: de::Error>(
        &mut self,
        limit: Option<Limit>,
        record: impl FnOnce(&mut Self) -> Result<(), E>,
    ) -> Result<(), E> {
        if let Some(limit) = limit {
            limit.check(self.len(), 0)?;
            self.limit = Some(limit);
        }
        let out = record(self);
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
    pub(crate) fn begin_map(&mut self) -> Mark {
        self.recorder(1).open(MAP)
    }

    pub(crate) fn end_map<E: de::Error>(&mut self, at: Mark, count: u64) -> Result<(), E> {
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
    pub(crate) fn reader_at(&self, at: Mark) -> Reader<'_, 'de> {
        Reader {
            buf: self,
            pos: at.0,
        }
    }

    /// The digits, when the buffer holds one entry, `NUMBER_TOKEN` and a
    /// string: the map serde_json's `arbitrary_precision` makes of a bare
    /// number (as recorded by the engine's key loop).
    pub(crate) fn lone_number(&self) -> Option<&str> {
        if self.code.is_empty() || self.str_at(Mark::START) != Some(NUMBER_TOKEN) {
            return None;
        }
        let mut r = self.reader_at(Mark::START);
        r.skip();
        if r.pos >= self.len() {
            return None;
        }
        let digits = self.str_at(r.position())?;
        r.skip();
        (r.pos == self.len()).then_some(digits)
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
    /// Whether the buffer never took memory (nothing was recorded).
    pub(crate) fn is_empty_unallocated(&self) -> bool {
        self.code.capacity() == 0
    }

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
        let (mut a, mut b) = (self.reader_at(Mark::START), other.reader_at(Mark::START));
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

/// Bytes after the code of a borrowed slice: its pointer, then its length
/// as a `u32` (callers keep it within).
const SLICE_REF: usize = PTR + 4;
const PTR: usize = core::mem::size_of::<*const u8>();

/// Records a borrowed slice as its code, pointer and length.
///
/// The pointer goes into the stream as a pointer, not as the integer of its
/// address: its bytes keep their provenance, so the reader gets back a
/// pointer it may use (an address turned back into a pointer has none, and
/// Miri's strict provenance refuses it).
#[inline]
fn put_slice_ref(code: &mut Vec<u8>, kind: u8, v: &[u8]) {
    let len = (v.len() as u32).to_le_bytes();
    code.reserve(1 + SLICE_REF);
    let at = code.len();
    // SAFETY: `reserve` made room for the `1 + SLICE_REF` bytes written from
    // `at`, each write is unaligned, and all of them are written before
    // `set_len` takes them in.
    unsafe {
        let dst = code.as_mut_ptr().add(at);
        dst.write(kind);
        dst.add(1).cast::<*const u8>().write_unaligned(v.as_ptr());
        dst.add(1 + PTR).cast::<[u8; 4]>().write_unaligned(len);
        code.set_len(at + 1 + SLICE_REF);
    }
}

/// A position in a buffer: where a recorded value starts, or where the
/// buffer ends. Only the buffer makes one (its field is private to this
/// module), and a [`Reader`] moves by whole values, so a read never starts
/// inside a value, where a string's bytes could be taken for a pointer.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Mark(usize);

impl Mark {
    /// The first value of every buffer.
    pub(crate) const START: Mark = Mark(0);

    /// How far into the buffer, in bytes (to compare with `Buffer::len`).
    #[inline]
    pub(crate) fn offset(self) -> usize {
        self.0
    }
}

/// A cursor over a [`Buffer`]; each value is read at most once.
pub(crate) struct Reader<'a, 'de> {
    buf: &'a Buffer<'de>,
    pos: usize,
}

impl<'a, 'de> Reader<'a, 'de> {
    #[inline]
    pub(crate) fn position(&self) -> Mark {
        Mark(self.pos)
    }

    /// Moves to `at`, a mark of the same buffer.
    #[inline]
    pub(crate) fn seek(&mut self, at: Mark) {
        self.pos = at.0;
    }

    /// The buffer read.
    #[inline]
    pub(crate) fn buffer(&self) -> &'a Buffer<'de> {
        self.buf
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
        let entry = &self.buf.code[self.pos..self.pos + SLICE_REF];
        let mut len = [0; 4];
        len.copy_from_slice(&entry[PTR..]);
        self.pos += SLICE_REF;
        // SAFETY: a reader starts at a `Mark` and moves by whole values, and
        // the code before `entry` is a borrowed slice's, so `put_slice_ref`
        // wrote these bytes from a `&'de [u8]` (or a `&'de str`'s bytes),
        // the pointer as a pointer: read back as one, it keeps its
        // provenance. `Buffer<'de>` cannot outlive `'de`, so the memory is
        // still borrowed, and an owned buffer (the one that may be
        // `'static`) records none.
        unsafe {
            let ptr = entry.as_ptr().cast::<*const u8>().read_unaligned();
            core::slice::from_raw_parts(ptr, u32::from_le_bytes(len) as usize)
        }
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
            STR_BORROWED | BYTES_BORROWED => self.pos += SLICE_REF,
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
