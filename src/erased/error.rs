//! `Error`: an error crossing the erased boundary, and how it is made
//! from the format's error and back.

use core::fmt;

use serde::de;

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
pub(super) fn erase<E: fmt::Display>(e: E) -> Error {
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
pub(super) fn unerase<E: de::Error>(e: Error) -> E {
    let kept = Error(e.0.clone());
    let made: E = e.into_error();
    let text = made.to_string();
    let _ = HANDED_OVER.try_with(|h| *h.borrow_mut() = Some((text, kept)));
    made
}

/// A deserializer, visitor or access asked twice. Our own code never does;
/// this keeps a misbehaving `Deserialize` impl from panicking.
#[cold]
pub(super) fn used() -> Error {
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
pub(super) use take;

/// The error a probe returns at the end of a map or sequence; the caller
/// sees `Probed::ended` and answers `None`. An empty message allocates
/// nothing. Inline, so that it is made in registers: returned from a call
/// of its own it would be written to memory a word at a time and read back
/// 16 bytes at a time, a load the processor cannot forward from the stores
/// just before it, at the end of every map a registered type reads
/// (PERFORMANCE.md, "Time and instructions").
#[inline]
pub(super) fn end() -> Error {
    Error(Repr::Message(Box::from("")))
}
