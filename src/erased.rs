//! The type-erased path from the engine to a trait object's reader.
//!
//! A registered type's reader is compiled once, at its impl, with no
//! knowledge of the caller's format, so the payload reaches it through `dyn`
//! traits. erased-serde hands every result back as a type-erased `Any` that
//! is boxed once the value is over 16 bytes (most strings, vectors and the
//! payload struct itself: ten allocations for our benchmark payload). Here a
//! result is written into a slot on the reading side's stack instead, so a
//! trait object costs the plain struct's allocations plus its one `Box`.
//!
//! Naming: the `Erased*` traits are object safe and implemented by the
//! format's side (generic over the real deserializer); `Erased`,
//! `ErasedMap`, `ErasedSeq` and `ErasedEnum` are serde types over those
//! objects, used by the registered type's side.

// Not public API: generated code reaches it through `__private`.
#![allow(missing_docs)]

use core::fmt;

use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess, VariantAccess, Visitor,
};

/// An error crossing the erased boundary. The engine keeps the original
/// error of the live map, with its position (see `Subtypes::erased`); of an
/// error made on this side only its message survives, except `invalid_type`
/// and `invalid_value`, which are made again by the format's own error type
/// (serde_json writes a float or `null` its own way there).
pub struct Error(Repr);

#[derive(Clone)]
enum Repr {
    Message(Box<str>),
    Invalid(Box<Invalid>),
}

// The size of a `Result` every erased call returns: the same as a message
// (two words: 16 bytes on 64-bit targets, 8 on wasm32).
const _: () = assert!(core::mem::size_of::<Error>() == core::mem::size_of::<Box<str>>());

#[derive(Clone)]
struct Invalid {
    /// `invalid_value`, else `invalid_type`.
    value: bool,
    unexpected: Unexpected,
    expected: String,
}

/// `de::Unexpected`, owned.
#[derive(Clone)]
enum Unexpected {
    Bool(bool),
    Unsigned(u64),
    Signed(i64),
    Float(f64),
    Char(char),
    Str(Box<str>),
    Bytes(Box<[u8]>),
    Unit,
    Option,
    NewtypeStruct,
    Seq,
    Map,
    Enum,
    UnitVariant,
    NewtypeVariant,
    TupleVariant,
    StructVariant,
    Other(Box<str>),
}

impl Unexpected {
    fn new(u: de::Unexpected<'_>) -> Self {
        use de::Unexpected as U;
        match u {
            U::Bool(v) => Unexpected::Bool(v),
            U::Unsigned(v) => Unexpected::Unsigned(v),
            U::Signed(v) => Unexpected::Signed(v),
            U::Float(v) => Unexpected::Float(v),
            U::Char(v) => Unexpected::Char(v),
            U::Str(v) => Unexpected::Str(v.into()),
            U::Bytes(v) => Unexpected::Bytes(v.into()),
            U::Unit => Unexpected::Unit,
            U::Option => Unexpected::Option,
            U::NewtypeStruct => Unexpected::NewtypeStruct,
            U::Seq => Unexpected::Seq,
            U::Map => Unexpected::Map,
            U::Enum => Unexpected::Enum,
            U::UnitVariant => Unexpected::UnitVariant,
            U::NewtypeVariant => Unexpected::NewtypeVariant,
            U::TupleVariant => Unexpected::TupleVariant,
            U::StructVariant => Unexpected::StructVariant,
            U::Other(v) => Unexpected::Other(v.into()),
        }
    }

    fn get(&self) -> de::Unexpected<'_> {
        use de::Unexpected as U;
        match self {
            Unexpected::Bool(v) => U::Bool(*v),
            Unexpected::Unsigned(v) => U::Unsigned(*v),
            Unexpected::Signed(v) => U::Signed(*v),
            Unexpected::Float(v) => U::Float(*v),
            Unexpected::Char(v) => U::Char(*v),
            Unexpected::Str(v) => U::Str(v),
            Unexpected::Bytes(v) => U::Bytes(v),
            Unexpected::Unit => U::Unit,
            Unexpected::Option => U::Option,
            Unexpected::NewtypeStruct => U::NewtypeStruct,
            Unexpected::Seq => U::Seq,
            Unexpected::Map => U::Map,
            Unexpected::Enum => U::Enum,
            Unexpected::UnitVariant => U::UnitVariant,
            Unexpected::NewtypeVariant => U::NewtypeVariant,
            Unexpected::TupleVariant => U::TupleVariant,
            Unexpected::StructVariant => U::StructVariant,
            Unexpected::Other(v) => U::Other(v),
        }
    }
}

impl Error {
    #[cold]
    fn invalid(value: bool, unexpected: de::Unexpected<'_>, expected: &dyn de::Expected) -> Self {
        Error(Repr::Invalid(Box::new(Invalid {
            value,
            unexpected: Unexpected::new(unexpected),
            expected: expected.to_string(),
        })))
    }

    /// The same error as `E`, made by `E`.
    #[cold]
    pub(crate) fn into_error<E: de::Error>(self) -> E {
        match self.0 {
            Repr::Message(m) => E::custom(m),
            Repr::Invalid(i) if i.value => E::invalid_value(i.unexpected.get(), &&*i.expected),
            Repr::Invalid(i) => E::invalid_type(i.unexpected.get(), &&*i.expected),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Repr::Message(m) => f.write_str(m),
            Repr::Invalid(i) => write!(
                f,
                "invalid {}: {}, expected {}",
                if i.value { "value" } else { "type" },
                i.unexpected.get(),
                i.expected
            ),
        }
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.to_string(), f)
    }
}

impl std::error::Error for Error {}

impl de::Error for Error {
    #[cold]
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Error(Repr::Message(msg.to_string().into_boxed_str()))
    }

    #[cold]
    fn invalid_type(unexpected: de::Unexpected<'_>, expected: &dyn de::Expected) -> Self {
        Error::invalid(false, unexpected, expected)
    }

    #[cold]
    fn invalid_value(unexpected: de::Unexpected<'_>, expected: &dyn de::Expected) -> Self {
        Error::invalid(true, unexpected, expected)
    }
}

// An error made on this side goes to the format as the format's own error
// (`unerase`), and at the level above it comes back through the format and
// is erased again. A format whose message wraps the one it was made with
// would wrap it once more per level: ciborium writes its errors with
// `Debug`, escaping the message each time, so 30 nested levels made a
// message of gigabytes (found by the `cbor` fuzz target). So the last error
// handed to the format is remembered with what the format made of it, and
// an error that comes back unchanged is the remembered one again.
std::thread_local! {
    static HANDED_OVER: core::cell::RefCell<Option<(String, Error)>> =
        const { core::cell::RefCell::new(None) };
}

#[cold]
fn erase<E: fmt::Display>(e: E) -> Error {
    let message = e.to_string();
    let kept = HANDED_OVER
        .try_with(|h| {
            let mut h = h.borrow_mut();
            match h.take() {
                Some((made, error)) if made == message => Some(error),
                other => {
                    *h = other;
                    None
                }
            }
        })
        .ok()
        .flatten();
    kept.unwrap_or_else(|| Error(Repr::Message(message.into_boxed_str())))
}

#[cold]
fn unerase<E: de::Error>(e: Error) -> E {
    let kept = Error(e.0.clone());
    let made: E = e.into_error();
    let text = made.to_string();
    let _ = HANDED_OVER.try_with(|h| *h.borrow_mut() = Some((text, kept)));
    made
}

/// A deserializer, visitor or access asked twice. Our own code never does;
/// this keeps a misbehaving `Deserialize` impl from panicking.
#[cold]
fn used() -> Error {
    <Error as de::Error>::custom("a type-erased deserializer was used twice")
}

macro_rules! take {
    ($slot:expr) => {
        match $slot.take() {
            Some(value) => value,
            None => return Err(used()),
        }
    };
}

// ---------------------------------------------------------------------------
// Requests

/// Which `deserialize_*` method a reader called, with its arguments. The
/// registered type's side asks for a value with a request; the format's
/// side runs it on the real deserializer. One crossing per value, instead of
/// one to hand over a deserializer and another to learn what it is asked.
#[derive(Clone, Copy)]
pub enum Request {
    Any,
    Bool,
    I8,
    I16,
    I32,
    I64,
    I128,
    U8,
    U16,
    U32,
    U64,
    U128,
    F32,
    F64,
    Char,
    Str,
    String,
    Bytes,
    ByteBuf,
    Option,
    Unit,
    Seq,
    Map,
    Identifier,
    IgnoredAny,
    UnitStruct(&'static str),
    NewtypeStruct(&'static str),
    Tuple(usize),
    TupleStruct(&'static str, usize),
    Struct(&'static str, &'static [&'static str]),
    Enum(&'static str, &'static [&'static str]),
}

/// Runs `request` on the format's deserializer.
#[inline]
fn run<'de, D: Deserializer<'de>>(
    d: D,
    request: Request,
    visitor: &mut dyn ErasedVisitor<'de>,
) -> Result<(), D::Error> {
    let v = Wrap(visitor);
    match request {
        Request::Any => d.deserialize_any(v),
        Request::Bool => d.deserialize_bool(v),
        Request::I8 => d.deserialize_i8(v),
        Request::I16 => d.deserialize_i16(v),
        Request::I32 => d.deserialize_i32(v),
        Request::I64 => d.deserialize_i64(v),
        Request::I128 => d.deserialize_i128(v),
        Request::U8 => d.deserialize_u8(v),
        Request::U16 => d.deserialize_u16(v),
        Request::U32 => d.deserialize_u32(v),
        Request::U64 => d.deserialize_u64(v),
        Request::U128 => d.deserialize_u128(v),
        Request::F32 => d.deserialize_f32(v),
        Request::F64 => d.deserialize_f64(v),
        Request::Char => d.deserialize_char(v),
        Request::Str => d.deserialize_str(v),
        Request::String => d.deserialize_string(v),
        Request::Bytes => d.deserialize_bytes(v),
        Request::ByteBuf => d.deserialize_byte_buf(v),
        Request::Option => d.deserialize_option(v),
        Request::Unit => d.deserialize_unit(v),
        Request::Seq => d.deserialize_seq(v),
        Request::Map => d.deserialize_map(v),
        Request::Identifier => d.deserialize_identifier(v),
        Request::IgnoredAny => d.deserialize_ignored_any(v),
        Request::UnitStruct(name) => d.deserialize_unit_struct(name, v),
        Request::NewtypeStruct(name) => d.deserialize_newtype_struct(name, v),
        Request::Tuple(len) => d.deserialize_tuple(len, v),
        Request::TupleStruct(name, len) => d.deserialize_tuple_struct(name, len, v),
        Request::Struct(name, fields) => d.deserialize_struct(name, fields, v),
        Request::Enum(name, variants) => d.deserialize_enum(name, variants, v),
    }
}

/// A seed on the format's side that runs a request.
struct RequestSeed<'a, 'de> {
    request: Request,
    visitor: &'a mut dyn ErasedVisitor<'de>,
}

impl<'de> DeserializeSeed<'de> for RequestSeed<'_, 'de> {
    type Value = ();

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        run(d, self.request, self.visitor)
    }
}

// ---------------------------------------------------------------------------
// Deserializer

/// An object-safe `Deserializer`.
pub trait ErasedDeserializer<'de> {
    fn erased_deserialize(
        &mut self,
        request: Request,
        visitor: &mut dyn ErasedVisitor<'de>,
    ) -> Result<(), Error>;
    fn erased_is_human_readable(&self) -> bool;
}

/// The format's side: a real deserializer, used once.
impl<'de, D: Deserializer<'de>> ErasedDeserializer<'de> for Option<D> {
    fn erased_deserialize(
        &mut self,
        request: Request,
        visitor: &mut dyn ErasedVisitor<'de>,
    ) -> Result<(), Error> {
        run(take!(self), request, visitor).map_err(erase)
    }

    fn erased_is_human_readable(&self) -> bool {
        self.as_ref().map_or(true, |d| d.is_human_readable())
    }
}

/// Where a probe's request goes: a whole deserializer, the next key or
/// value of a map, the next element of a sequence, or an enum's parts.
trait Source<'de> {
    fn fetch(
        &mut self,
        request: Request,
        visitor: &mut dyn ErasedVisitor<'de>,
    ) -> Result<(), Error>;

    /// `deserialize_identifier`; a borrowed name may come back as the result
    /// instead of being visited on the far side (see `IdentWrap`).
    #[inline]
    fn fetch_identifier(
        &mut self,
        visitor: &mut dyn ErasedVisitor<'de>,
    ) -> Result<Option<&'de str>, Error> {
        self.fetch(Request::Identifier, visitor).map(|()| None)
    }
}

/// The registered type's side: a serde `Deserializer` whose every request
/// crosses once, to its source.
struct Crossing<S> {
    source: S,
    human_readable: bool,
}

impl<S> Crossing<S> {
    #[inline]
    fn new(source: S, human_readable: bool) -> Self {
        Crossing {
            source,
            human_readable,
        }
    }
}

macro_rules! probe_requests {
    ($($method:ident $request:ident)*) => {
        $(
            #[inline]
            fn $method<V: Visitor<'de>>(mut self, visitor: V) -> Result<V::Value, Error> {
                let mut slot = VisitorCell::new(visitor, self.human_readable);
                match self.source.fetch(Request::$request, &mut slot) {
                    Ok(()) => slot.out(),
                    Err(e) => Err(e),
                }
            }
        )*
    };
}

macro_rules! probe_request_with {
    ($method:ident ($($arg:ident: $ty:ty),*) $request:ident) => {
        #[inline]
        fn $method<V: Visitor<'de>>(mut self, $($arg: $ty,)* visitor: V) -> Result<V::Value, Error> {
            let mut slot = VisitorCell::new(visitor, self.human_readable);
            match self.source.fetch(Request::$request($($arg),*), &mut slot) {
                Ok(()) => slot.out(),
                Err(e) => Err(e),
            }
        }
    };
}

impl<'de, S: Source<'de>> Deserializer<'de> for Crossing<S> {
    type Error = Error;

    probe_requests! {
        deserialize_any Any
        deserialize_bool Bool
        deserialize_i8 I8
        deserialize_i16 I16
        deserialize_i32 I32
        deserialize_i64 I64
        deserialize_i128 I128
        deserialize_u8 U8
        deserialize_u16 U16
        deserialize_u32 U32
        deserialize_u64 U64
        deserialize_u128 U128
        deserialize_f32 F32
        deserialize_f64 F64
        deserialize_char Char
        deserialize_str Str
        deserialize_string String
        deserialize_bytes Bytes
        deserialize_byte_buf ByteBuf
        deserialize_option Option
        deserialize_unit Unit
        deserialize_seq Seq
        deserialize_map Map
        deserialize_ignored_any IgnoredAny
    }

    #[inline]
    fn deserialize_identifier<V: Visitor<'de>>(mut self, visitor: V) -> Result<V::Value, Error> {
        let mut slot = VisitorCell::new(visitor, self.human_readable);
        match self.source.fetch_identifier(&mut slot) {
            Ok(None) => slot.out(),
            Ok(Some(name)) => match slot.inner.take() {
                Some(visitor) => visitor.visit_borrowed_str(name),
                None => Err(used()),
            },
            Err(e) => Err(e),
        }
    }

    probe_request_with!(deserialize_unit_struct(name: &'static str) UnitStruct);
    probe_request_with!(deserialize_newtype_struct(name: &'static str) NewtypeStruct);
    probe_request_with!(deserialize_tuple(len: usize) Tuple);
    probe_request_with!(deserialize_tuple_struct(name: &'static str, len: usize) TupleStruct);
    probe_request_with!(
        deserialize_struct(name: &'static str, fields: &'static [&'static str]) Struct
    );
    probe_request_with!(deserialize_enum(name: &'static str, variants: &'static [&'static str]) Enum);

    fn is_human_readable(&self) -> bool {
        self.human_readable
    }
}

/// A whole erased deserializer as a source.
struct Whole<'a, 'de>(&'a mut dyn ErasedDeserializer<'de>);

impl<'de> Source<'de> for Whole<'_, 'de> {
    #[inline]
    fn fetch(
        &mut self,
        request: Request,
        visitor: &mut dyn ErasedVisitor<'de>,
    ) -> Result<(), Error> {
        self.0.erased_deserialize(request, visitor)
    }
}

/// A probe over a whole erased deserializer.
#[inline]
fn whole<'a, 'de>(
    d: &'a mut dyn ErasedDeserializer<'de>,
    human_readable: bool,
) -> Crossing<Whole<'a, 'de>> {
    Crossing::new(Whole(d), human_readable)
}

// ---------------------------------------------------------------------------
// Visitor

/// A `visit_*` call and its argument, for every visit but the frequent
/// scalars (which have methods of their own, below). They cross as one enum
/// so that each reader's visitor compiles one method with a `match` for
/// them, instead of one method each with its own prologue and error path:
/// those were most of the code a registered type cost where it is
/// registered. The frequent ones keep their own methods because a shared
/// body costs every call its dispatch and the largest arm's prologue
/// (about a tenth more instructions for a struct read from CBOR).
pub enum Visit<'a, 'de> {
    I8(i8),
    I16(i16),
    I32(i32),
    I128(i128),
    U8(u8),
    U16(u16),
    U32(u32),
    U128(u128),
    F32(f32),
    Char(char),
    Bytes(&'a [u8]),
    BorrowedBytes(&'de [u8]),
    /// Lent and taken (leaving it empty): a `Visit` has no drop glue, so
    /// no path through the reader's `match` keeps drop flags.
    ByteBuf(&'a mut Vec<u8>),
    None,
    Unit,
    Some(&'a mut dyn ErasedDeserializer<'de>),
    NewtypeStruct(&'a mut dyn ErasedDeserializer<'de>),
    Seq(&'a mut dyn ErasedSeqAccess<'de>),
    Map(&'a mut dyn ErasedMapAccess<'de>),
    Enum(&'a mut dyn ErasedEnumAccess<'de>),
}

/// An object-safe `Visitor`; the value it builds stays on its side.
pub trait ErasedVisitor<'de> {
    fn erased_expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result;
    fn erased_visit_bool(&mut self, v: bool) -> Result<(), Error>;
    fn erased_visit_i64(&mut self, v: i64) -> Result<(), Error>;
    fn erased_visit_u64(&mut self, v: u64) -> Result<(), Error>;
    fn erased_visit_f64(&mut self, v: f64) -> Result<(), Error>;
    fn erased_visit_str(&mut self, v: &str) -> Result<(), Error>;
    fn erased_visit_borrowed_str(&mut self, v: &'de str) -> Result<(), Error>;
    /// Lent and taken, as `Visit::ByteBuf`.
    fn erased_visit_string(&mut self, v: &mut String) -> Result<(), Error>;
    fn erased_visit(&mut self, v: Visit<'_, 'de>) -> Result<(), Error>;
}

/// The registered type's visitor (or seed) and, once it has run, its value.
struct VisitorCell<T, O> {
    inner: Option<T>,
    out: Option<O>,
    /// Handed on to the deserializers and accesses the visitor is given.
    human_readable: bool,
}

impl<T, O> VisitorCell<T, O> {
    #[inline]
    fn new(inner: T, human_readable: bool) -> Self {
        VisitorCell {
            inner: Some(inner),
            out: None,
            human_readable,
        }
    }

    #[inline]
    fn out(self) -> Result<O, Error> {
        match self.out {
            Some(out) => Ok(out),
            None => Err(used()),
        }
    }

    /// Keeps the visitor's value: the one error path of every visit.
    #[inline]
    fn put(&mut self, out: Result<O, Error>) -> Result<(), Error> {
        match out {
            Ok(out) => {
                self.out = Some(out);
                Ok(())
            }
            Err(e) => Err(e),
        }
    }
}

macro_rules! visit_scalars {
    ($($erased:ident $visit:ident $ty:ty,)*) => {
        $(
            fn $erased(&mut self, v: $ty) -> Result<(), Error> {
                match self.inner.take() {
                    Some(visitor) => self.put(visitor.$visit(v)),
                    None => Err(used()),
                }
            }
        )*
    };
}

impl<'de, V: Visitor<'de>> ErasedVisitor<'de> for VisitorCell<V, V::Value> {
    fn erased_expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.inner {
            Some(visitor) => visitor.expecting(f),
            None => f.write_str("a value"),
        }
    }

    visit_scalars! {
        erased_visit_bool visit_bool bool,
        erased_visit_i64 visit_i64 i64,
        erased_visit_u64 visit_u64 u64,
        erased_visit_f64 visit_f64 f64,
        erased_visit_str visit_str &str,
        erased_visit_borrowed_str visit_borrowed_str &'de str,
    }

    fn erased_visit_string(&mut self, v: &mut String) -> Result<(), Error> {
        match self.inner.take() {
            Some(visitor) => self.put(visitor.visit_string(core::mem::take(v))),
            None => Err(used()),
        }
    }

    fn erased_visit(&mut self, v: Visit<'_, 'de>) -> Result<(), Error> {
        let Some(visitor) = self.inner.take() else {
            return Err(used());
        };
        let hr = self.human_readable;
        self.put(match v {
            Visit::I8(v) => visitor.visit_i8(v),
            Visit::I16(v) => visitor.visit_i16(v),
            Visit::I32(v) => visitor.visit_i32(v),
            Visit::I128(v) => visitor.visit_i128(v),
            Visit::U8(v) => visitor.visit_u8(v),
            Visit::U16(v) => visitor.visit_u16(v),
            Visit::U32(v) => visitor.visit_u32(v),
            Visit::U128(v) => visitor.visit_u128(v),
            Visit::F32(v) => visitor.visit_f32(v),
            Visit::Char(v) => visitor.visit_char(v),
            Visit::Bytes(v) => visitor.visit_bytes(v),
            Visit::BorrowedBytes(v) => visitor.visit_borrowed_bytes(v),
            Visit::ByteBuf(v) => visitor.visit_byte_buf(core::mem::take(v)),
            Visit::None => visitor.visit_none(),
            Visit::Unit => visitor.visit_unit(),
            Visit::Some(d) => visitor.visit_some(whole(d, hr)),
            Visit::NewtypeStruct(d) => visitor.visit_newtype_struct(whole(d, hr)),
            Visit::Seq(seq) => visitor.visit_seq(ErasedSeq::new(seq, hr)),
            Visit::Map(map) => visitor.visit_map(ErasedMap::new(map, hr)),
            Visit::Enum(data) => visitor.visit_enum(ErasedEnum::new(data, hr)),
        })
    }
}

/// The body of a format-side visitor: every visit is forwarded to the
/// reader's erased visitor at once, and `$done` is the result. Only
/// `visit_borrowed_str` differs between the two visitors below.
macro_rules! forward_visits {
    ($done:expr) => {
        forward_visits! {
            @direct $done;
            visit_bool erased_visit_bool bool,
            visit_i64 erased_visit_i64 i64,
            visit_u64 erased_visit_u64 u64,
            visit_f64 erased_visit_f64 f64,
            visit_str erased_visit_str &str,
        }

        forward_visits! {
            @enum $done;
            visit_i8 I8 i8,
            visit_i16 I16 i16,
            visit_i32 I32 i32,
            visit_i128 I128 i128,
            visit_u8 U8 u8,
            visit_u16 U16 u16,
            visit_u32 U32 u32,
            visit_u128 U128 u128,
            visit_f32 F32 f32,
            visit_char Char char,
            visit_bytes Bytes &[u8],
            visit_borrowed_bytes BorrowedBytes &'de [u8],
        }

        #[inline]
        fn visit_string<E: de::Error>(self, mut v: String) -> Result<Self::Value, E> {
            self.0.erased_visit_string(&mut v).map_err(unerase)?;
            Ok($done)
        }

        #[inline]
        fn visit_byte_buf<E: de::Error>(self, mut v: Vec<u8>) -> Result<Self::Value, E> {
            self.0.erased_visit(Visit::ByteBuf(&mut v)).map_err(unerase)?;
            Ok($done)
        }

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            self.0.erased_expecting(f)
        }

        #[inline]
        fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
            self.0.erased_visit(Visit::None).map_err(unerase)?;
            Ok($done)
        }

        #[inline]
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            self.0.erased_visit(Visit::Unit).map_err(unerase)?;
            Ok($done)
        }

        #[inline]
        fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
            self.0.erased_visit(Visit::Some(&mut Some(d))).map_err(unerase)?;
            Ok($done)
        }

        #[inline]
        fn visit_newtype_struct<D: Deserializer<'de>>(
            self,
            d: D,
        ) -> Result<Self::Value, D::Error> {
            self.0
                .erased_visit(Visit::NewtypeStruct(&mut Some(d)))
                .map_err(unerase)?;
            Ok($done)
        }

        #[inline]
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            self.0.erased_visit(Visit::Seq(&mut seq)).map_err(unerase)?;
            Ok($done)
        }

        #[inline]
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            self.0.erased_visit(Visit::Map(&mut map)).map_err(unerase)?;
            Ok($done)
        }

        #[inline]
        fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<Self::Value, A::Error> {
            let mut data = EnumSlot {
                access: Some(data),
                variant: None,
            };
            self.0.erased_visit(Visit::Enum(&mut data)).map_err(unerase)?;
            Ok($done)
        }
    };
    (@direct $done:expr; $($visit:ident $erased:ident $ty:ty,)*) => {
        $(
            #[inline]
            fn $visit<E: de::Error>(self, v: $ty) -> Result<Self::Value, E> {
                self.0.$erased(v).map_err(unerase)?;
                Ok($done)
            }
        )*
    };
    (@enum $done:expr; $($visit:ident $kind:ident $ty:ty,)*) => {
        $(
            #[inline]
            fn $visit<E: de::Error>(self, v: $ty) -> Result<Self::Value, E> {
                self.0.erased_visit(Visit::$kind(v)).map_err(unerase)?;
                Ok($done)
            }
        )*
    };
}

/// The format's side of a visitor: forwards each visit to the erased one.
struct Wrap<'a, 'de>(&'a mut dyn ErasedVisitor<'de>);

impl<'de> Visitor<'de> for Wrap<'_, 'de> {
    type Value = ();

    #[inline]
    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<(), E> {
        self.0.erased_visit_borrowed_str(v).map_err(unerase)
    }

    forward_visits!(());
}

/// A key read as an identifier on the format's side.
struct IdentSeed<'a, 'de>(&'a mut dyn ErasedVisitor<'de>);

impl<'de> DeserializeSeed<'de> for IdentSeed<'_, 'de> {
    type Value = Option<&'de str>;

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Option<&'de str>, D::Error> {
        d.deserialize_identifier(IdentWrap(self.0))
    }
}

/// The format's side of an identifier visitor: a borrowed name goes back as
/// the result (`Some`); anything else is forwarded to the reader's visitor
/// at once (`None`). Only names come here, so the result stays small.
struct IdentWrap<'a, 'de>(&'a mut dyn ErasedVisitor<'de>);

impl<'de> Visitor<'de> for IdentWrap<'_, 'de> {
    type Value = Option<&'de str>;

    #[inline]
    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Option<&'de str>, E> {
        Ok(Some(v))
    }

    forward_visits!(None);
}

// ---------------------------------------------------------------------------
// Maps and sequences

/// What became of a probe handed to a seed: whether the seed asked for its
/// value at all, and whether the map or sequence had ended.
#[derive(Default)]
struct Probed {
    used: bool,
    ended: bool,
}

/// The error a probe returns at the end of a map or sequence; the caller
/// sees `Probed::ended` and answers `None`. An empty message allocates
/// nothing.
fn end() -> Error {
    Error(Repr::Message(Box::from("")))
}

/// A map's keys or a sequence's elements: what `next_seed` reads next.
trait NextIn<'de> {
    /// Reads the next key or element with `request`; `Ok(false)` at the end.
    fn next(
        &mut self,
        request: Request,
        visitor: &mut dyn ErasedVisitor<'de>,
    ) -> Result<bool, Error>;

    /// Reads the next key or element as an identifier; `Ok(None)` at the
    /// end, `Ok(Some(Some(name)))` for a borrowed name handed back.
    #[inline]
    fn next_identifier(
        &mut self,
        visitor: &mut dyn ErasedVisitor<'de>,
    ) -> Result<Option<Option<&'de str>>, Error> {
        Ok(self.next(Request::Identifier, visitor)?.then_some(None))
    }
}

impl<'de> NextIn<'de> for dyn ErasedMapAccess<'de> + '_ {
    #[inline]
    fn next(
        &mut self,
        request: Request,
        visitor: &mut dyn ErasedVisitor<'de>,
    ) -> Result<bool, Error> {
        self.erased_next_key(request, visitor)
    }

    #[inline]
    fn next_identifier(
        &mut self,
        visitor: &mut dyn ErasedVisitor<'de>,
    ) -> Result<Option<Option<&'de str>>, Error> {
        self.erased_next_identifier(visitor)
    }
}

impl<'de> NextIn<'de> for dyn ErasedSeqAccess<'de> + '_ {
    #[inline]
    fn next(
        &mut self,
        request: Request,
        visitor: &mut dyn ErasedVisitor<'de>,
    ) -> Result<bool, Error> {
        self.erased_next_element(request, visitor)
    }
}

/// The next key or element as a source: the end is reported through
/// `Probed::ended`.
struct NextSource<'a, N: ?Sized> {
    access: &'a mut N,
    probed: &'a mut Probed,
}

impl<'de, N: ?Sized + NextIn<'de>> Source<'de> for NextSource<'_, N> {
    #[inline]
    fn fetch(
        &mut self,
        request: Request,
        visitor: &mut dyn ErasedVisitor<'de>,
    ) -> Result<(), Error> {
        self.probed.used = true;
        if self.access.next(request, visitor)? {
            Ok(())
        } else {
            self.probed.ended = true;
            Err(end())
        }
    }

    #[inline]
    fn fetch_identifier(
        &mut self,
        visitor: &mut dyn ErasedVisitor<'de>,
    ) -> Result<Option<&'de str>, Error> {
        self.probed.used = true;
        match self.access.next_identifier(visitor)? {
            Some(name) => Ok(name),
            None => {
                self.probed.ended = true;
                Err(end())
            }
        }
    }
}

/// Runs `seed` on the next key or element; `None` at the end.
#[inline]
fn next_seed<'de, T, N>(
    access: &mut N,
    seed: T,
    human_readable: bool,
) -> Result<Option<T::Value>, Error>
where
    T: DeserializeSeed<'de>,
    N: ?Sized + NextIn<'de>,
{
    let mut probed = Probed::default();
    let source = NextSource {
        access: &mut *access,
        probed: &mut probed,
    };
    // Matched, not `?`: each `?` compiles a conversion per value type.
    match seed.deserialize(Crossing::new(source, human_readable)) {
        _ if probed.ended => Ok(None),
        Ok(value) if probed.used => Ok(Some(value)),
        // A seed that never looked at its key or element: it is still unread.
        Ok(value) => match skip_next(access, human_readable) {
            Ok(true) => Ok(Some(value)),
            Ok(false) => Ok(None),
            Err(e) => Err(e),
        },
        Err(e) => Err(e),
    }
}

/// Skips the next key or element; `Ok(false)` at the end. Not generic over
/// the seed, so compiled once per kind of access.
fn skip_next<'de, N: ?Sized + NextIn<'de>>(
    access: &mut N,
    human_readable: bool,
) -> Result<bool, Error> {
    let mut slot = VisitorCell::new(de::IgnoredAny, human_readable);
    access.next(Request::IgnoredAny, &mut slot)
}

/// An object-safe `MapAccess`.
pub trait ErasedMapAccess<'de> {
    /// Reads the next key with `request`; `Ok(false)` at the end of the map.
    fn erased_next_key(
        &mut self,
        request: Request,
        visitor: &mut dyn ErasedVisitor<'de>,
    ) -> Result<bool, Error>;
    fn erased_next_value(
        &mut self,
        request: Request,
        visitor: &mut dyn ErasedVisitor<'de>,
    ) -> Result<(), Error>;
    /// Reads the next key as an identifier: a borrowed name comes back as
    /// the result (one crossing instead of two for a struct's field names).
    fn erased_next_identifier(
        &mut self,
        visitor: &mut dyn ErasedVisitor<'de>,
    ) -> Result<Option<Option<&'de str>>, Error>;
    fn erased_size_hint(&self) -> Option<usize>;
}

impl<'de, A: MapAccess<'de>> ErasedMapAccess<'de> for A {
    fn erased_next_key(
        &mut self,
        request: Request,
        visitor: &mut dyn ErasedVisitor<'de>,
    ) -> Result<bool, Error> {
        match self.next_key_seed(RequestSeed { request, visitor }) {
            Ok(key) => Ok(key.is_some()),
            Err(e) => Err(erase(e)),
        }
    }

    fn erased_next_value(
        &mut self,
        request: Request,
        visitor: &mut dyn ErasedVisitor<'de>,
    ) -> Result<(), Error> {
        self.next_value_seed(RequestSeed { request, visitor })
            .map_err(erase)
    }

    fn erased_next_identifier(
        &mut self,
        visitor: &mut dyn ErasedVisitor<'de>,
    ) -> Result<Option<Option<&'de str>>, Error> {
        self.next_key_seed(IdentSeed(visitor)).map_err(erase)
    }

    fn erased_size_hint(&self) -> Option<usize> {
        self.size_hint()
    }
}

/// The registered type's side of a map.
struct ErasedMap<'a, 'de> {
    map: &'a mut dyn ErasedMapAccess<'de>,
    human_readable: bool,
}

impl<'a, 'de> ErasedMap<'a, 'de> {
    fn new(map: &'a mut dyn ErasedMapAccess<'de>, human_readable: bool) -> Self {
        ErasedMap {
            map,
            human_readable,
        }
    }
}

struct ValueSource<'a, 'de> {
    map: &'a mut dyn ErasedMapAccess<'de>,
    probed: &'a mut Probed,
}

impl<'de> Source<'de> for ValueSource<'_, 'de> {
    #[inline]
    fn fetch(
        &mut self,
        request: Request,
        visitor: &mut dyn ErasedVisitor<'de>,
    ) -> Result<(), Error> {
        self.probed.used = true;
        self.map.erased_next_value(request, visitor)
    }
}

/// Skips a value its seed never looked at.
fn skip_value(map: &mut dyn ErasedMapAccess<'_>, human_readable: bool) -> Result<(), Error> {
    let mut slot = VisitorCell::new(de::IgnoredAny, human_readable);
    map.erased_next_value(Request::IgnoredAny, &mut slot)
}

impl<'de> MapAccess<'de> for ErasedMap<'_, 'de> {
    type Error = Error;

    #[inline]
    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        next_seed(&mut *self.map, seed, self.human_readable)
    }

    #[inline]
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        let mut probed = Probed::default();
        let source = ValueSource {
            map: &mut *self.map,
            probed: &mut probed,
        };
        match seed.deserialize(Crossing::new(source, self.human_readable)) {
            Ok(value) if probed.used => Ok(value),
            Ok(value) => match skip_value(self.map, self.human_readable) {
                Ok(()) => Ok(value),
                Err(e) => Err(e),
            },
            Err(e) => Err(e),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        self.map.erased_size_hint()
    }
}

/// An object-safe `SeqAccess`.
pub trait ErasedSeqAccess<'de> {
    /// Reads the next element with `request`; `Ok(false)` at the end.
    fn erased_next_element(
        &mut self,
        request: Request,
        visitor: &mut dyn ErasedVisitor<'de>,
    ) -> Result<bool, Error>;
    fn erased_size_hint(&self) -> Option<usize>;
}

impl<'de, A: SeqAccess<'de>> ErasedSeqAccess<'de> for A {
    fn erased_next_element(
        &mut self,
        request: Request,
        visitor: &mut dyn ErasedVisitor<'de>,
    ) -> Result<bool, Error> {
        match self.next_element_seed(RequestSeed { request, visitor }) {
            Ok(element) => Ok(element.is_some()),
            Err(e) => Err(erase(e)),
        }
    }

    fn erased_size_hint(&self) -> Option<usize> {
        self.size_hint()
    }
}

/// The registered type's side of a sequence.
struct ErasedSeq<'a, 'de> {
    seq: &'a mut dyn ErasedSeqAccess<'de>,
    human_readable: bool,
}

impl<'a, 'de> ErasedSeq<'a, 'de> {
    fn new(seq: &'a mut dyn ErasedSeqAccess<'de>, human_readable: bool) -> Self {
        ErasedSeq {
            seq,
            human_readable,
        }
    }
}

impl<'de> SeqAccess<'de> for ErasedSeq<'_, 'de> {
    type Error = Error;

    #[inline]
    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        next_seed(&mut *self.seq, seed, self.human_readable)
    }

    fn size_hint(&self) -> Option<usize> {
        self.seq.erased_size_hint()
    }
}

// ---------------------------------------------------------------------------
// Enums

/// An object-safe `EnumAccess` and, once the variant is read, its
/// `VariantAccess`.
pub trait ErasedEnumAccess<'de> {
    fn erased_variant(
        &mut self,
        request: Request,
        visitor: &mut dyn ErasedVisitor<'de>,
    ) -> Result<(), Error>;
    fn erased_unit_variant(&mut self) -> Result<(), Error>;
    fn erased_newtype_variant(
        &mut self,
        request: Request,
        visitor: &mut dyn ErasedVisitor<'de>,
    ) -> Result<(), Error>;
    fn erased_tuple_variant(
        &mut self,
        len: usize,
        visitor: &mut dyn ErasedVisitor<'de>,
    ) -> Result<(), Error>;
    fn erased_struct_variant(
        &mut self,
        fields: &'static [&'static str],
        visitor: &mut dyn ErasedVisitor<'de>,
    ) -> Result<(), Error>;
}

/// The format's side of an enum: its access, then its variant.
struct EnumSlot<A, V> {
    access: Option<A>,
    variant: Option<V>,
}

impl<'de, A: EnumAccess<'de>> ErasedEnumAccess<'de> for EnumSlot<A, A::Variant> {
    fn erased_variant(
        &mut self,
        request: Request,
        visitor: &mut dyn ErasedVisitor<'de>,
    ) -> Result<(), Error> {
        let ((), variant) = take!(self.access)
            .variant_seed(RequestSeed { request, visitor })
            .map_err(erase)?;
        self.variant = Some(variant);
        Ok(())
    }

    fn erased_unit_variant(&mut self) -> Result<(), Error> {
        take!(self.variant).unit_variant().map_err(erase)
    }

    fn erased_newtype_variant(
        &mut self,
        request: Request,
        visitor: &mut dyn ErasedVisitor<'de>,
    ) -> Result<(), Error> {
        take!(self.variant)
            .newtype_variant_seed(RequestSeed { request, visitor })
            .map_err(erase)
    }

    fn erased_tuple_variant(
        &mut self,
        len: usize,
        visitor: &mut dyn ErasedVisitor<'de>,
    ) -> Result<(), Error> {
        take!(self.variant)
            .tuple_variant(len, Wrap(visitor))
            .map_err(erase)
    }

    fn erased_struct_variant(
        &mut self,
        fields: &'static [&'static str],
        visitor: &mut dyn ErasedVisitor<'de>,
    ) -> Result<(), Error> {
        take!(self.variant)
            .struct_variant(fields, Wrap(visitor))
            .map_err(erase)
    }
}

/// The registered type's side of an enum.
struct ErasedEnum<'a, 'de> {
    data: &'a mut dyn ErasedEnumAccess<'de>,
    human_readable: bool,
}

impl<'a, 'de> ErasedEnum<'a, 'de> {
    fn new(data: &'a mut dyn ErasedEnumAccess<'de>, human_readable: bool) -> Self {
        ErasedEnum {
            data,
            human_readable,
        }
    }
}

struct VariantSource<'a, 'de> {
    data: &'a mut dyn ErasedEnumAccess<'de>,
    probed: &'a mut Probed,
}

impl<'de> Source<'de> for VariantSource<'_, 'de> {
    fn fetch(
        &mut self,
        request: Request,
        visitor: &mut dyn ErasedVisitor<'de>,
    ) -> Result<(), Error> {
        self.probed.used = true;
        self.data.erased_variant(request, visitor)
    }
}

struct NewtypeSource<'a, 'de> {
    data: &'a mut dyn ErasedEnumAccess<'de>,
    probed: &'a mut Probed,
}

impl<'de> Source<'de> for NewtypeSource<'_, 'de> {
    fn fetch(
        &mut self,
        request: Request,
        visitor: &mut dyn ErasedVisitor<'de>,
    ) -> Result<(), Error> {
        self.probed.used = true;
        self.data.erased_newtype_variant(request, visitor)
    }
}

impl<'de> EnumAccess<'de> for ErasedEnum<'_, 'de> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self), Error> {
        let mut probed = Probed::default();
        let source = VariantSource {
            data: &mut *self.data,
            probed: &mut probed,
        };
        let variant = seed.deserialize(Crossing::new(source, self.human_readable))?;
        if !probed.used {
            let mut slot = VisitorCell::new(de::IgnoredAny, self.human_readable);
            self.data.erased_variant(Request::IgnoredAny, &mut slot)?;
        }
        Ok((variant, self))
    }
}

impl<'de> VariantAccess<'de> for ErasedEnum<'_, 'de> {
    type Error = Error;

    fn unit_variant(self) -> Result<(), Error> {
        self.data.erased_unit_variant()
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, Error> {
        let mut probed = Probed::default();
        let source = NewtypeSource {
            data: &mut *self.data,
            probed: &mut probed,
        };
        let value = seed.deserialize(Crossing::new(source, self.human_readable))?;
        if !probed.used {
            let mut slot = VisitorCell::new(de::IgnoredAny, self.human_readable);
            self.data
                .erased_newtype_variant(Request::IgnoredAny, &mut slot)?;
        }
        Ok(value)
    }

    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, Error> {
        let mut slot = VisitorCell::new(visitor, self.human_readable);
        self.data.erased_tuple_variant(len, &mut slot)?;
        slot.out()
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        let mut slot = VisitorCell::new(visitor, self.human_readable);
        self.data.erased_struct_variant(fields, &mut slot)?;
        slot.out()
    }
}

/// Reads a `T` through an erased deserializer: the body of every registered
/// type's reader.
#[inline]
pub fn deserialize<'de, T: de::Deserialize<'de>>(
    deserializer: &mut dyn ErasedDeserializer<'de>,
) -> Result<T, Error> {
    let human_readable = deserializer.erased_is_human_readable();
    T::deserialize(whole(deserializer, human_readable))
}
