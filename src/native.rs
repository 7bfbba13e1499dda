//! serde_json without the erased boundary.
//!
//! A registered type's reader is compiled at its impl, before any format is
//! known, so a trait object's payload is read through `erased` whatever the
//! format, and every value crosses that boundary twice. serde_json is the
//! format nearly every user reads and writes, and there the crossings cost
//! about a fifth of a read's instructions and more of its time
//! (PERFORMANCE.md). So each registration also carries its reader compiled
//! for the payloads the engine builds over serde_json's `&str` and `&[u8]`
//! readers and over our replay of a prefix buffered from them (where an
//! object nested in one whose tag came later is read from). Each subtype
//! also has its writer compiled for serde_json's compact writer into a
//! `Vec<u8>` (`to_string`, `to_vec`, `to_writer` into a `&mut Vec<u8>`).
//! The engine compares the type it holds with those and calls the compiled
//! code on a match; every other format, reader and writer goes through
//! `erased` as before. Both paths give the same values and the same errors
//! (`tests/test_native.rs` reads and writes every case both ways).
//!
//! Types are compared with `typeid::of`, the `TypeId` of a type with its
//! lifetimes erased: machine code does not depend on lifetimes, so code
//! compiled for one choice of them runs unchanged for another, and the
//! readers are generic over `'de` (a registered type is
//! `DeserializeOwned`), so none of them can keep a borrow.
//!
//! The payload's type names serde_json's private `MapAccess`, which cannot
//! be written here: it is captured by reading `{}` once per registration
//! with a visitor that returns the reader instantiated for the map access
//! it is given (`Capture`).

use core::any::TypeId;
use core::fmt;
use core::marker::PhantomData;
use core::mem::{ManuallyDrop, MaybeUninit};

use serde::de::{DeserializeOwned, Deserializer, MapAccess, Visitor};
use serde::Serializer;

use crate::buffer::ReplayMap;
use crate::object::{JsonWriter, Upcast};
use crate::rest::{Payload, Rest};

/// Reads one payload type into `Box<T>`: moves the payload out of
/// `payload` (a `*mut P`) and writes the result to `out` (a
/// `*mut Result<Box<T>, <P as Deserializer<'de>>::Error>`).
type ReadFn = unsafe fn(payload: *mut (), out: *mut ());

#[derive(Clone, Copy)]
struct Reader {
    /// `typeid::of` the payload type `read` was compiled for.
    payload: TypeId,
    read: ReadFn,
}

/// One registered type's readers compiled for serde_json (its `&str` and
/// `&[u8]` readers, and our replay of what was buffered from them), as
/// `Box<T>`.
pub struct Readers<T: ?Sized> {
    list: [Option<Reader>; 3],
    marker: PhantomData<fn() -> Box<T>>,
}

impl<T: ?Sized> Clone for Readers<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: ?Sized> Copy for Readers<T> {}

/// `C`'s readers for serde_json's `&str` and `&[u8]` input, boxed as `T`.
/// Generated registrations hold this function; it runs when the registry
/// is built.
pub fn readers<T, C>() -> Readers<T>
where
    T: ?Sized + Upcast<C> + 'static,
    C: DeserializeOwned + 'static,
{
    let capture = || Capture::<T, C>(PhantomData, PhantomData);
    let from_str = serde_json::Deserializer::from_str("{}").deserialize_map(capture());
    let from_slice = serde_json::Deserializer::from_slice(b"{}").deserialize_map(capture());
    // A value replayed from a buffered prefix (an object inside one whose
    // tag came later) is read through our own map access, nameable here.
    let replayed = Reader {
        payload: typeid::of::<Rest<'_, '_, &mut ReplayMap<'_, '_, '_, serde_json::Error>>>(),
        read: read::<T, C, &mut ReplayMap<'_, '_, '_, serde_json::Error>>,
    };
    Readers {
        list: [from_str.ok(), from_slice.ok(), Some(replayed)],
        marker: PhantomData,
    }
}

impl<T: ?Sized> Readers<T> {
    /// Reads `payload` with the compiled reader for its type, or hands it
    /// back when there is none.
    #[inline]
    pub(crate) fn read<'de, P>(
        &self,
        payload: P,
    ) -> Result<Result<Box<T>, <P as Deserializer<'de>>::Error>, P>
    where
        P: Payload<'de>,
    {
        let id = typeid::of::<P>();
        let Some(reader) = self.list.iter().flatten().find(|r| r.payload == id) else {
            return Err(payload);
        };
        let mut payload = ManuallyDrop::new(payload);
        let mut out = MaybeUninit::<Result<Box<T>, <P as Deserializer<'de>>::Error>>::uninit();
        // SAFETY: `reader.read` was compiled for a payload type with the same
        // `typeid` as `P`. `P` is our `Rest` over serde_json's map access (or
        // over our replay of it), which differs from that type in lifetimes
        // at most, and the reader
        // is generic over every lifetime in it (see `read`), so it is the
        // same code. It moves the payload out of the `ManuallyDrop`, which is
        // not touched again, and initializes `out`, whose type matches the
        // one it writes (`Box<T>` by `Readers<T>`, the error by `P`).
        unsafe {
            (reader.read)((&mut *payload as *mut P).cast(), out.as_mut_ptr().cast());
            Ok(out.assume_init())
        }
    }
}

/// Visits serde_json's map access for `{}` and returns `C`'s reader
/// compiled for the payload the engine builds over it.
struct Capture<T: ?Sized, C>(PhantomData<Readers<T>>, PhantomData<fn() -> C>);

impl<'de, T, C> Visitor<'de> for Capture<T, C>
where
    T: ?Sized + Upcast<C> + 'static,
    C: DeserializeOwned + 'static,
{
    type Value = Reader;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an empty map")
    }

    fn visit_map<A: MapAccess<'de>>(self, _map: A) -> Result<Reader, A::Error> {
        Ok(Reader {
            payload: typeid::of::<Rest<'de, '_, A>>(),
            read: read::<T, C, A>,
        })
    }
}

/// The body of a compiled reader.
///
/// # Safety
///
/// `payload` points at a `Rest<'de, '_, A>` the caller gives up, `out` at
/// room for a `Result<Box<T>, A::Error>`.
unsafe fn read<'de, T, C, A>(payload: *mut (), out: *mut ())
where
    T: ?Sized + Upcast<C>,
    C: DeserializeOwned,
    A: MapAccess<'de>,
{
    // SAFETY: as the caller promises.
    let payload = unsafe { payload.cast::<Rest<'de, '_, A>>().read() };
    // Errors reach the engine unflattened here: no stand-ins needed.
    let value = C::deserialize(payload.uncaught()).map(|c| T::__json_subtypes_upcast(Box::new(c)));
    // SAFETY: as the caller promises.
    unsafe { out.cast::<Result<Box<T>, A::Error>>().write(value) };
}

/// Runs `write` on `serializer` when it is a [`JsonWriter`], or hands it back.
#[inline]
pub(crate) fn write_json<S, F>(serializer: S, write: F) -> Result<Result<S::Ok, S::Error>, S>
where
    S: Serializer,
    F: FnOnce(JsonWriter<'_, '_>) -> serde_json::Result<()>,
{
    if typeid::of::<S>() != TypeId::of::<JsonWriter<'static, 'static>>() {
        return Err(serializer);
    }
    let serializer = ManuallyDrop::new(serializer);
    // SAFETY: only `&mut serde_json::Serializer<&mut Vec<u8>>`, whatever its
    // lifetimes, has this `typeid`, so `S` is that reference; it is read out
    // once and the original is not used again. It is used only during this
    // call, which its lifetimes outlive.
    let json: JsonWriter<'_, '_> = unsafe { core::mem::transmute_copy(&*serializer) };
    let result = write(json);
    let mut out = MaybeUninit::<Result<S::Ok, S::Error>>::uninit();
    // SAFETY: for this `S`, `S::Ok` is `()` and `S::Error` is
    // `serde_json::Error`, so `out` has the type written.
    unsafe {
        out.as_mut_ptr()
            .cast::<serde_json::Result<()>>()
            .write(result);
        Ok(out.assume_init())
    }
}
