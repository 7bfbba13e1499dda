//! serde_json without the erased boundary.
//!
//! A registered type's reader is compiled at its impl, before any format is
//! known, so a trait object's payload is read through `erased` whatever the
//! format, and every value crosses that boundary twice. serde_json is the
//! format nearly every user reads and writes, and there the crossings cost
//! a share of a read's instructions (PERFORMANCE.md). So every registration
//! carries its type's writer compiled for serde_json's compact writer into
//! a `Vec<u8>` (`to_string`, `to_vec`, `to_writer` into a `&mut Vec<u8>`),
//! for its trait's form (with the tag entry, or without it in the external
//! and adjacent forms): one copy of its `Serialize`, where erased-serde
//! costs a third more per write. A registration that says `compiled` (on
//! the trait or on the impl; `ProfileBuilder::compiled` for a profile) also
//! carries its reader compiled for the payloads the engine builds over
//! serde_json's `&str` and `&[u8]` readers and over our replay of what was
//! buffered from them, for its trait's form: in the internally tagged form
//! ([`compiled`]) the rest of the object after the tag, replayed where an
//! object nested in one whose tag came later is read from, with both
//! writers; in the external and adjacent forms ([`compiled_wrapped`]) the
//! whole value that is the payload there, `ValuePayload` over serde_json's
//! own deserializer, or over our replay of content that came before the
//! adjacent tag, with the writer without a tag. A profile's form is chosen
//! after its subtypes, so `ProfileBuilder::compiled` keeps both and its
//! `build` applies the one of its form. Those three readers were most of
//! what a registration cost to build, which is why they are asked for, not
//! given: [`readers`] (or [`readers_wrapped`]) is the default, [`compiled`]
//! (or [`compiled_wrapped`]) adds them.
//!
//! The engine compares the type it holds with those and calls the compiled
//! code on a match; every other format, reader and writer goes through
//! `erased` as before. Both paths give the same values and the same errors
//! (`tests/test_native.rs` reads and writes every case both ways).
//!
//! Types are compared with `typeid::of`, the `TypeId` of a type with its
//! lifetimes erased: machine code does not depend on lifetimes, so code
//! compiled for one choice of them runs unchanged for another, and the
//! readers are generic over `'de` (a registered type is
//! `DeserializeOwned`), so none of them can keep a borrow. Every cast this
//! takes is in `same_type` below, the module's only `unsafe`.
//!
//! The internal form's payload type names serde_json's private
//! `MapAccess`, which cannot be written here: it is captured by reading
//! `{}` once per registration with a visitor that returns the reader
//! instantiated for the map access it is given (`Capture`). The wrapped
//! forms' payload types are all nameable.

use core::any::{Any, TypeId};
use core::cell::Cell;
use core::fmt;
use core::marker::PhantomData;

use serde::de::{DeserializeOwned, Deserializer, Error as _, MapAccess, Visitor};
use serde::{Serialize, Serializer};

use serde_json::de::{SliceRead, StrRead};

use crate::buffer::{Replay, ReplayMap};
use crate::erased::ErasedDeserializer;
use crate::rest::{Payload, Rest, ValuePayload};
use crate::subtype::{JsonWriter, Subtype, TaggedJson, Upcast};

use same_type::{Compiled, Erased};

/// One registered type's reader compiled for one payload type: `Read`.
type Reader = Erased;

/// Where a read of `Box<T>` puts its value. The engine's walk is the same
/// for every trait: it reads into a slot it sees as `dyn Any`, so it is
/// compiled once per format rather than once per trait and format (the
/// walk was a quarter of a crate's optimized code with ten traits).
pub(crate) type Slot<T> = Cell<Option<Box<T>>>;

/// Reads one registered type through the erased path into a [`Slot`].
type ReadErased = for<'a, 'de> fn(
    &'a mut dyn ErasedDeserializer<'de>,
    &'a dyn Any,
) -> Result<(), crate::erased::Error>;

/// Writes one registered type with its tag entry to serde_json's compact
/// writer into a `Vec<u8>`.
pub(crate) type WriteTagged = fn(AnyValue<'_>, TaggedJson<'_, '_>) -> serde_json::Result<()>;

/// Writes one registered type without a tag to serde_json's compact writer
/// into a `Vec<u8>`.
pub(crate) type WriteBare = fn(AnyValue<'_>, JsonWriter<'_, '_>) -> serde_json::Result<()>;

/// A value being written, with its type erased: what a registration's
/// writer is handed. Not `&dyn Any`, which would cost a writer two more
/// calls through vtables per value (one to make it, one to ask its type):
/// the type was asked already, to find the registration.
#[derive(Clone, Copy)]
pub(crate) struct AnyValue<'a> {
    /// The value's data pointer.
    ptr: *const (),
    /// The `TypeId` of the value's own type.
    id: TypeId,
    marker: PhantomData<&'a ()>,
}

impl<'a> AnyValue<'a> {
    /// `value`, erased.
    #[inline]
    pub(crate) fn of<V: ?Sized + Subtype>(value: &'a V) -> Self {
        AnyValue {
            ptr: (value as *const V).cast::<()>(),
            // `Subtype` is sealed: its one impl answers `TypeId::of` the
            // value's own type, also through a `dyn Trait`.
            id: value.__json_subtypes_type_id(),
            marker: PhantomData,
        }
    }

    /// The `TypeId` of the value's type.
    #[inline]
    pub(crate) fn type_id(&self) -> TypeId {
        self.id
    }

    /// The value, when it is a `C`.
    #[inline]
    fn downcast<C: 'static>(self) -> Option<&'a C> {
        if self.id != TypeId::of::<C>() {
            return None;
        }
        // SAFETY: `ptr` is the data pointer of a `&'a V` whose value's
        // type has the `TypeId` `id` (see `of`), which is `C`'s: it points
        // to a live `C` for `'a`.
        Some(unsafe { same_type::deref::<C>(self.ptr) })
    }
}

/// A slot that is not the one its reader was made for: cannot happen (a
/// `Registry<T>` holds only readers made for `T`), reported rather than
/// assumed.
const WRONG_SLOT: &str = "json_subtypes: a subtype's reader was handed another trait's slot";

/// A value that is not the one its writer was made for: cannot happen (a
/// registry finds the writer by the value's type), reported rather than
/// assumed.
const WRONG_VALUE: &str = "json_subtypes: a subtype's writer was handed another type";

/// One registered type's readers, boxed as `T`, and its writers: the
/// erased reader for every format, its writer for its trait's form
/// compiled for serde_json's compact writer into a `Vec<u8>`, and when the
/// registration is `compiled`, the readers of that form compiled for
/// serde_json (its `&str` and `&[u8]` readers, and our replay of what was
/// buffered from them), in the internal form with the writer without a tag
/// besides.
pub struct Readers<T: ?Sized> {
    any: AnyReaders,
    marker: PhantomData<fn() -> Box<T>>,
}

impl<T: ?Sized> Clone for Readers<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: ?Sized> Copy for Readers<T> {}

impl<T: ?Sized> Readers<T> {
    /// The readers as the engine holds them, filling a `Slot<T>`.
    pub(crate) fn any(self) -> AnyReaders {
        self.any
    }
}

/// [`Readers`] without their `T`: each fills the `Slot<T>` it is handed.
#[derive(Clone, Copy)]
pub(crate) struct AnyReaders {
    list: [Option<Reader>; 3],
    erased: ReadErased,
    tagged: Option<WriteTagged>,
    bare: Option<WriteBare>,
}

impl AnyReaders {
    /// The writer with the tag compiled for serde_json, when the
    /// registration has it (the internally tagged form's).
    #[inline]
    pub(crate) fn json_tagged(&self) -> Option<WriteTagged> {
        self.tagged
    }

    /// The writer without a tag compiled for serde_json, when the
    /// registration has it (the external and adjacent forms').
    #[inline]
    pub(crate) fn json_bare(&self) -> Option<WriteBare> {
        self.bare
    }
}

/// `C`'s erased reader and the given writers, boxed as `T`.
#[inline]
fn erased<T, C>(tagged: Option<WriteTagged>, bare: Option<WriteBare>) -> Readers<T>
where
    T: ?Sized + Upcast<C> + 'static,
    C: DeserializeOwned + 'static,
{
    Readers {
        any: AnyReaders {
            list: [None; 3],
            erased: read_erased::<T, C>,
            tagged,
            bare,
        },
        marker: PhantomData,
    }
}

/// `C`'s reader through the erased path, boxed as `T`, and its writer
/// with the tag compiled for serde_json's compact writer into a `Vec<u8>`:
/// what a registration of an internally tagged trait carries by default.
/// The writer is kept because it is one copy of `C`'s `Serialize` where
/// the readers were three of its `Deserialize`, and writing through
/// erased-serde costs a third more. Generated registrations hold this
/// function (or [`readers_wrapped`], [`compiled`]); it runs when the
/// registry is built.
pub fn readers<T, C>() -> Readers<T>
where
    T: ?Sized + Upcast<C> + 'static,
    C: Serialize + DeserializeOwned + 'static,
{
    erased::<T, C>(Some(write_tagged::<C>), None)
}

/// [`readers`] for a trait in the external or adjacent form, which writes
/// its payloads without a tag entry.
pub fn readers_wrapped<T, C>() -> Readers<T>
where
    T: ?Sized + Upcast<C> + 'static,
    C: Serialize + DeserializeOwned + 'static,
{
    erased::<T, C>(None, Some(write_bare::<C>))
}

/// A profile's subtype: both writers, since its form is chosen after its
/// subtypes are added.
pub(crate) fn profile_readers<T, C>() -> Readers<T>
where
    T: ?Sized + Upcast<C> + 'static,
    C: Serialize + DeserializeOwned + 'static,
{
    erased::<T, C>(Some(write_tagged::<C>), Some(write_bare::<C>))
}

/// `C`'s readers compiled for serde_json's `&str` and `&[u8]` input
/// besides the erased one, and both writers: what a `compiled`
/// registration of an internally tagged trait carries.
pub fn compiled<T, C>() -> Readers<T>
where
    T: ?Sized + Upcast<C> + 'static,
    C: Serialize + DeserializeOwned + 'static,
{
    let capture = || Capture::<T, C>(PhantomData, PhantomData);
    let from_str = serde_json::Deserializer::from_str("{}").deserialize_map(capture());
    let from_slice = serde_json::Deserializer::from_slice(b"{}").deserialize_map(capture());
    // A value replayed from a buffered prefix (an object inside one whose
    // tag came later) is read through our own map access, nameable here.
    let replayed =
        Erased::of::<Read<'_, '_, T, C, &mut ReplayMap<'_, '_, '_, serde_json::Error>>>();
    Readers {
        any: AnyReaders {
            list: [from_str.ok(), from_slice.ok(), Some(replayed)],
            erased: read_erased::<T, C>,
            tagged: Some(write_tagged::<C>),
            bare: Some(write_bare::<C>),
        },
        marker: PhantomData,
    }
}

/// [`compiled`] for a trait in the external or adjacent form: `C`'s readers
/// compiled for the whole value that is its payload there, over
/// serde_json's `&str` and `&[u8]` readers and over our replay of content
/// buffered before the adjacent form's tag, and the writer without a tag.
/// The internal form's readers would never be used there, but for an
/// adjacent fallback's unknown tag, rare enough to read through the erased
/// path.
pub fn compiled_wrapped<T, C>() -> Readers<T>
where
    T: ?Sized + Upcast<C> + 'static,
    C: Serialize + DeserializeOwned + 'static,
{
    wrapped::<T, C>(None)
}

/// A profile's subtype in the external or adjacent form, `compiled`: both
/// writers, as every profile subtype has.
pub(crate) fn profile_compiled_wrapped<T, C>() -> Readers<T>
where
    T: ?Sized + Upcast<C> + 'static,
    C: Serialize + DeserializeOwned + 'static,
{
    wrapped::<T, C>(Some(write_tagged::<C>))
}

/// [`compiled_wrapped`] with the given writer with the tag.
fn wrapped<T, C>(tagged: Option<WriteTagged>) -> Readers<T>
where
    T: ?Sized + Upcast<C> + 'static,
    C: Serialize + DeserializeOwned + 'static,
{
    type Json<'a, 'de, R> = &'a mut serde_json::Deserializer<R>;
    let from_str = Erased::of::<ReadValue<'_, '_, T, C, Json<'_, '_, StrRead<'_>>>>();
    let from_slice = Erased::of::<ReadValue<'_, '_, T, C, Json<'_, '_, SliceRead<'_>>>>();
    let replayed = Erased::of::<ReadValue<'_, '_, T, C, Replay<'_, '_, '_, serde_json::Error>>>();
    Readers {
        any: AnyReaders {
            list: [Some(from_str), Some(from_slice), Some(replayed)],
            erased: read_erased::<T, C>,
            tagged,
            bare: Some(write_bare::<C>),
        },
        marker: PhantomData,
    }
}

/// Writes `value`, a `C`, with its tag entry to serde_json's compact writer.
fn write_tagged<C: Serialize + 'static>(
    value: AnyValue<'_>,
    out: TaggedJson<'_, '_>,
) -> serde_json::Result<()> {
    match value.downcast::<C>() {
        Some(value) => value.serialize(out),
        None => Err(serde::ser::Error::custom(WRONG_VALUE)),
    }
}

/// Writes `value`, a `C`, without a tag to serde_json's compact writer.
fn write_bare<C: Serialize + 'static>(
    value: AnyValue<'_>,
    out: JsonWriter<'_, '_>,
) -> serde_json::Result<()> {
    match value.downcast::<C>() {
        Some(value) => value.serialize(out),
        None => Err(serde::ser::Error::custom(WRONG_VALUE)),
    }
}

/// Reads `C` through the erased path and boxes it as `T` into `slot`.
fn read_erased<T, C>(
    deserializer: &mut dyn ErasedDeserializer<'_>,
    slot: &dyn Any,
) -> Result<(), crate::erased::Error>
where
    T: ?Sized + Upcast<C> + 'static,
    C: DeserializeOwned,
{
    let Some(slot) = slot.downcast_ref::<Slot<T>>() else {
        return Err(crate::erased::Error::custom(WRONG_SLOT));
    };
    let value = crate::erased::deserialize::<C>(deserializer)?;
    slot.set(Some(T::__json_subtypes_upcast(Box::new(value))));
    Ok(())
}

impl AnyReaders {
    /// Reads `payload` into `slot` with the compiled reader for its type,
    /// or through the erased path when there is none.
    #[inline]
    pub(crate) fn read<'de, P>(
        &self,
        payload: P,
        slot: &dyn Any,
    ) -> Result<(), <P as Deserializer<'de>>::Error>
    where
        P: Payload<'de>,
    {
        type Arg<'a, P> = (P, &'a dyn Any);
        type Out<'de, P> = Result<(), <P as Deserializer<'de>>::Error>;
        let found = self
            .list
            .iter()
            .flatten()
            .find(|r| r.takes::<Arg<'_, P>, Out<'de, P>>());
        let payload = match found {
            // SAFETY: the reader was compiled for a payload over
            // serde_json's readers (or our replay of them) that `P` is but
            // for lifetimes, and it is generic over every lifetime in it
            // (see `Read`, `ReadValue`): it keeps no borrow from `P` or the
            // slot beyond this call (it puts a `Box<T>`, `'static`, in the
            // slot and returns serde_json's error, which borrows nothing).
            Some(reader) => {
                match unsafe { reader.call::<Arg<'_, P>, Out<'de, P>>((payload, slot)) } {
                    Ok(done) => return done,
                    Err((payload, _)) => payload,
                }
            }
            None => payload,
        };
        (self.erased)(&mut Some(payload), slot).map_err(|e| e.into_error())
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
        Ok(Erased::of::<Read<'de, '_, T, C, A>>())
    }
}

/// A compiled reader: `C` read from the payload the engine builds over `A`,
/// boxed as `T` into the slot.
struct Read<'de, 's, T: ?Sized, C, A>(PhantomData<ReadFn<'de, 's, T, C, A>>)
where
    A: MapAccess<'de>;

type ReadFn<'de, 's, T, C, A> = fn(Rest<'de, 's, A>, &'s dyn Any) -> (Box<T>, C);

impl<'de, 's, T, C, A> Compiled for Read<'de, 's, T, C, A>
where
    T: ?Sized + Upcast<C> + 'static,
    C: DeserializeOwned,
    A: MapAccess<'de>,
{
    type Arg = (Rest<'de, 's, A>, &'s dyn Any);
    type Out = Result<(), A::Error>;

    // Into `same_type::call`, the function the registration points at.
    #[inline(always)]
    fn run((payload, slot): Self::Arg) -> Self::Out {
        // Errors reach the engine unflattened here: no stand-ins needed.
        let c = C::deserialize(payload.uncaught())?;
        // The slot is asked for after the read, which then gets the payload
        // where it lies (asked before, the payload is kept across the call:
        // +40 instructions per read).
        fill::<T, C, A::Error>(slot, c)
    }
}

/// Boxes `c` as `T` into `slot`. Matched rather than mapped: a closure and
/// `Option::map` would be compiled once more for every reader.
#[inline(always)]
fn fill<T, C, E>(slot: &dyn Any, c: C) -> Result<(), E>
where
    T: ?Sized + Upcast<C> + 'static,
    E: serde::de::Error,
{
    match slot.downcast_ref::<Slot<T>>() {
        Some(slot) => {
            slot.set(Some(T::__json_subtypes_upcast(Box::new(c))));
            Ok(())
        }
        None => Err(E::custom(WRONG_SLOT)),
    }
}

/// A compiled reader of the external and adjacent forms: `C` read from the
/// whole value `D` holds, boxed as `T` into the slot.
struct ReadValue<'de, 's, T: ?Sized, C, D>(PhantomData<ReadValueFn<'de, 's, T, C, D>>)
where
    D: Deserializer<'de>;

type ReadValueFn<'de, 's, T, C, D> = fn(ValuePayload<'s, 'de, D>, &'s dyn Any) -> (Box<T>, C);

impl<'de, 's, T, C, D> Compiled for ReadValue<'de, 's, T, C, D>
where
    T: ?Sized + Upcast<C> + 'static,
    C: DeserializeOwned,
    D: Deserializer<'de>,
{
    type Arg = (ValuePayload<'s, 'de, D>, &'s dyn Any);
    type Out = Result<(), D::Error>;

    // As `Read::run`.
    #[inline(always)]
    fn run((payload, slot): Self::Arg) -> Self::Out {
        // The format's own deserializer: its errors need no stand-ins.
        let c = C::deserialize(payload.into_inner())?;
        fill::<T, C, D::Error>(slot, c)
    }
}

/// Runs `write` on `serializer` when it is a [`JsonWriter`], or hands it back.
#[inline]
pub(crate) fn write_json<S, F>(serializer: S, write: F) -> Result<Result<S::Ok, S::Error>, S>
where
    S: Serializer,
    F: FnOnce(JsonWriter<'_, '_>) -> serde_json::Result<()>,
{
    // SAFETY: `S` would be `&'a mut serde_json::Serializer<&'b mut Vec<u8>>`
    // for some `'a` and `'b`, which outlive this call; `write` takes any
    // lifetimes and is done with the writer when it returns.
    let json: JsonWriter<'_, '_> = unsafe { same_type::cast(serializer) }?;
    let result = write(json);
    // SAFETY: for that `S`, `S::Ok` is `()` and `S::Error` is
    // `serde_json::Error`: no lifetimes at all.
    match unsafe { same_type::cast::<_, Result<S::Ok, S::Error>>(result) } {
        Ok(out) => Ok(out),
        Err(_) => unreachable!("a serde_json::Serializer with other Ok or Error types"),
    }
}

/// What a caller does with serde_json's own deserializer, when that is the
/// format (see `with_json`).
pub(crate) trait OnJson<'de> {
    fn on<R: serde_json::de::Read<'de>>(
        self,
        json: &mut serde_json::Deserializer<R>,
    ) -> serde_json::Result<()>;
}

/// Runs `f` on `deserializer` as serde_json's own when it is serde_json's
/// over a `&str` or a `&[u8]`; hands both back otherwise.
#[inline]
pub(crate) fn with_json<'de, D, F>(deserializer: D, f: F) -> Result<Result<(), D::Error>, (D, F)>
where
    D: Deserializer<'de>,
    F: OnJson<'de>,
{
    type Json<'a, R> = &'a mut serde_json::Deserializer<R>;
    // SAFETY: the cast reference is used only within this call, while the
    // borrow `deserializer` held lives, and keeps nothing beyond `'de`.
    let deserializer = match unsafe { same_type::cast::<D, Json<'_, StrRead<'de>>>(deserializer) } {
        Ok(json) => return Ok(json_result::<D>(f.on(json))),
        Err(deserializer) => deserializer,
    };
    // SAFETY: as above.
    match unsafe { same_type::cast::<D, Json<'_, SliceRead<'de>>>(deserializer) } {
        Ok(json) => Ok(json_result::<D>(f.on(json))),
        Err(deserializer) => Err((deserializer, f)),
    }
}

/// serde_json's result as `D`'s, `D` being serde_json's deserializer.
fn json_result<'de, D: Deserializer<'de>>(result: serde_json::Result<()>) -> Result<(), D::Error> {
    // SAFETY: `D::Error` is `serde_json::Error`, which borrows nothing.
    match unsafe { same_type::cast::<serde_json::Result<()>, Result<(), D::Error>>(result) } {
        Ok(result) => result,
        Err(_) => unreachable!("a serde_json::Deserializer with another Error type"),
    }
}

/// The type-identity casts of this module, in one place: values moved from
/// a type to the type that `typeid::of` says is the same. `typeid` compares
/// types with their lifetimes erased (which `TypeId` cannot do for types
/// that are not `'static`), so the casts are `unsafe` for one reason only,
/// the lifetimes, which each caller vouches for.
mod same_type {
    use core::any::TypeId;
    use core::mem::{ManuallyDrop, MaybeUninit};

    /// `value` as a `B` when `A` and `B` are the same type but for
    /// lifetimes; `value` back otherwise.
    ///
    /// # Safety
    ///
    /// The caller makes sure that the result is used only while every
    /// lifetime in `B` holds for `value`.
    #[inline(always)]
    pub(super) unsafe fn cast<A, B>(value: A) -> Result<B, A> {
        if typeid::of::<A>() != typeid::of::<B>() {
            return Err(value);
        }
        let value = ManuallyDrop::new(value);
        // SAFETY: one type but for lifetimes, which change neither layout
        // nor validity (the caller answers for them); the original is never
        // dropped or used again, so the value moves.
        Ok(unsafe { core::mem::transmute_copy::<ManuallyDrop<A>, B>(&value) })
    }

    /// The `T` that `ptr` points to.
    ///
    /// # Safety
    ///
    /// `ptr` points to a live `T` for `'a` (the data pointer of a `&'a T`,
    /// or of a `&'a dyn Trait` whose value is a `T`).
    #[inline(always)]
    pub(super) unsafe fn deref<'a, T>(ptr: *const ()) -> &'a T {
        // SAFETY: as the caller promises.
        unsafe { &*ptr.cast::<T>() }
    }

    /// A function compiled for one argument and result type (`run`).
    pub(crate) trait Compiled {
        type Arg;
        type Out;
        fn run(arg: Self::Arg) -> Self::Out;
    }

    /// A `Compiled` function with its types erased: called with values of
    /// the caller's types, which must be its own but for lifetimes.
    #[derive(Clone, Copy)]
    pub(crate) struct Erased {
        /// `typeid::of` the pair (argument, result) that `call` was compiled for.
        types: TypeId,
        call: unsafe fn(arg: *mut (), out: *mut ()),
    }

    impl Erased {
        pub(super) fn of<K: Compiled>() -> Self {
            Erased {
                types: typeid::of::<(K::Arg, K::Out)>(),
                call: call::<K>,
            }
        }

        /// Whether this was compiled for `A` and `R` (lifetimes aside).
        #[inline(always)]
        pub(super) fn takes<A, R>(&self) -> bool {
            self.types == typeid::of::<(A, R)>()
        }

        /// Runs the function on `arg`, or hands `arg` back when it was
        /// compiled for other types.
        ///
        /// # Safety
        ///
        /// As for `cast`: the function was compiled for `A` and `R` with
        /// other lifetimes; the caller makes sure that, run with these, it
        /// keeps no borrow beyond theirs.
        #[inline(always)]
        pub(super) unsafe fn call<A, R>(&self, arg: A) -> Result<R, A> {
            if !self.takes::<A, R>() {
                return Err(arg);
            }
            let mut arg = ManuallyDrop::new(arg);
            let mut out = MaybeUninit::<R>::uninit();
            // SAFETY: `call` is `call::<K>` for a `K` whose argument and
            // result are `A` and `R` but for lifetimes (checked above); it
            // moves the argument out of the `ManuallyDrop`, which is not
            // used again, and initializes `out`.
            unsafe {
                (self.call)((&mut *arg as *mut A).cast(), out.as_mut_ptr().cast());
                Ok(out.assume_init())
            }
        }
    }

    /// # Safety
    ///
    /// `arg` points at a `K::Arg` the caller gives up and `out` at room for
    /// a `K::Out` (as `Erased::call` passes them).
    unsafe fn call<K: Compiled>(arg: *mut (), out: *mut ()) {
        // SAFETY: as the caller promises.
        let arg = unsafe { arg.cast::<K::Arg>().read() };
        let result = K::run(arg);
        // SAFETY: as the caller promises.
        unsafe { out.cast::<K::Out>().write(result) };
    }
}
