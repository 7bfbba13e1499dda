//! `Unknown`: a lossless recording of an object whose subtype is not known.

use core::cell::Cell;
use core::fmt;

use serde::de::{self, Deserialize, DeserializeOwned, Deserializer, MapAccess, Visitor};
use serde::ser::{Serialize, Serializer};

use crate::buffer::{Buffer, Mark, RecordSeed};

thread_local! {
    /// Set while an `Unknown` hands its visitor to a deserializer: if that
    /// deserializer is the engine's fallback payload, it tells which key is
    /// the tag (see `TOLD`). Any other deserializer just sees a request for
    /// any value, so every self-describing format reads an `Unknown` from
    /// its own map syntax.
    static WANTS_HINT: Cell<bool> = const { Cell::new(false) };

    /// The engine's answer: the tag key of the object it hands over, taken
    /// by the `Unknown` visitor first thing.
    static TOLD: Cell<Option<String>> = const { Cell::new(None) };
}

/// Whether an `Unknown` is asking, clearing the request.
pub(crate) fn take_wants_hint() -> bool {
    WANTS_HINT.with(|w| w.replace(false))
}

/// Tells the asking `Unknown` which key is the tag, until the guard drops
/// (also on unwind), so an answer nobody took never reaches a later read.
pub(crate) fn tell_tag_key(key: &str) -> Told {
    Told(TOLD.with(|t| t.replace(Some(key.to_owned()))))
}

pub(crate) struct Told(Option<String>);

impl Drop for Told {
    fn drop(&mut self) {
        let previous = self.0.take();
        TOLD.with(|t| t.set(previous));
    }
}

/// Puts the previous request back when dropped, also when a format panics
/// before it visits: a request left behind would hand the tag hint to the
/// next fallback payload on this thread that is not an `Unknown`.
struct Asking(bool);

impl Drop for Asking {
    fn drop(&mut self) {
        WANTS_HINT.with(|w| w.set(self.0));
    }
}

/// An object kept exactly as it was read: every entry in its original order,
/// the tag (if any) in its place, every value lossless (all integer widths
/// including `u128`/`i128`, floats as read, strings, nested objects and
/// arrays, null).
///
/// It is the natural payload of a fallback variant: a service that forwards
/// subtypes it does not know loses nothing, because `Unknown` serializes back
/// to what was read.
///
/// ```
/// use json_subtypes::{json_subtypes, Unknown};
///
/// #[json_subtypes(tag = "type")]
/// enum Shape {
///     Circle { r: f64 },
///     #[json_subtypes(fallback)]
///     Other(Unknown),
/// }
///
/// let text = r#"{"sides":6,"type":"hexagon","id":18446744073709551615}"#;
/// let Shape::Other(shape) = serde_json::from_str(text)? else { unreachable!() };
/// assert_eq!(shape.tag::<String>().unwrap()?, "hexagon");
/// assert_eq!(shape.get::<u8>("sides").unwrap()?, 6);
/// assert_eq!(shape.keys().collect::<Vec<_>>(), ["sides", "type", "id"]);
/// // Written back exactly, tag in its place.
/// assert_eq!(serde_json::to_string(&Shape::Other(shape))?, text);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// On its own (not as a fallback payload) it reads any map from any
/// self-describing format; it then knows no tag key.
///
/// "Lossless" means: everything the format hands over. serde_json itself
/// reads a number beyond the 64-bit range as `f64` when asked for "any"
/// value (unless its `arbitrary_precision` feature is on), before `Unknown`
/// sees it; binary formats hand over `u128`/`i128` and those are kept.
#[derive(Clone, PartialEq)]
pub struct Unknown {
    tag_key: Option<String>,
    /// One recorded map.
    map: Buffer<'static>,
}

impl Unknown {
    /// The key that held (or would have held) the tag, when the object was
    /// read as the fallback of a tagged enum.
    pub fn tag_key(&self) -> Option<&str> {
        self.tag_key.as_deref()
    }

    /// The tag's value read as `T` (an owned type such as `String`), if the
    /// object had a tag entry.
    pub fn tag<T: DeserializeOwned>(&self) -> Option<Result<T, de::value::Error>> {
        self.get(self.tag_key.as_deref()?)
    }

    /// The value of the entry `key` (the first one, if repeated) read as `T`
    /// (an owned type such as `String`).
    pub fn get<T: DeserializeOwned>(&self, key: &str) -> Option<Result<T, de::value::Error>> {
        let (_, value) = self.entries().find(|&(k, _)| self.key_at(k) == Some(key))?;
        let mut reader = self.map.reader_at(value);
        Some(T::deserialize(reader.next_value(true)))
    }

    /// The keys in their original order (keys that are not strings, which
    /// some formats allow, are left out).
    pub fn keys(&self) -> impl Iterator<Item = &str> + '_ {
        self.entries().filter_map(move |(k, _)| self.key_at(k))
    }

    /// The number of entries, the tag entry included.
    pub fn len(&self) -> usize {
        self.entries().count()
    }

    /// Whether the object had no entries at all.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Reads the whole object, tag entry included, into `T`.
    pub fn deserialize_into<T: DeserializeOwned>(&self) -> Result<T, de::value::Error> {
        let mut reader = self.map.reader_at(Mark::START);
        T::deserialize(reader.next_value(true))
    }

    /// The object as a `serde_json::Value`. Fails where JSON cannot hold a
    /// value (a non-string key from another format); integers beyond 64 bits
    /// need serde_json's `arbitrary_precision` feature to stay exact.
    pub fn to_json_value(&self) -> Result<serde_json::Value, serde_json::Error> {
        serde_json::to_value(self)
    }

    fn entries(&self) -> impl Iterator<Item = (Mark, Mark)> {
        self.map
            .reader_at(Mark::START)
            .map_entries()
            .unwrap_or_default()
            .into_iter()
    }

    fn key_at(&self, pos: Mark) -> Option<&str> {
        self.map.str_at(pos)
    }
}

impl Serialize for Unknown {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.map.emit_at(Mark::START).serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Unknown {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let _asking = Asking(WANTS_HINT.with(|w| w.replace(true)));
        deserializer.deserialize_any(UnknownVisitor)
    }
}

struct UnknownVisitor;

impl<'de> Visitor<'de> for UnknownVisitor {
    type Value = Unknown;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a map")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Unknown, A::Error> {
        WANTS_HINT.with(|w| w.set(false));
        let tag_key = TOLD.with(|t| t.take());
        let mut buf = Buffer::new_owned();
        let at = buf.begin_map();
        let mut count = 0u64;
        loop {
            let seed = RecordSeed(buf.recorder(crate::state::remaining()));
            if map.next_key_seed(seed)?.is_none() {
                break;
            }
            map.next_value_seed(RecordSeed(buf.recorder(crate::state::remaining())))?;
            count += 1;
        }
        buf.end_map(at, count)?;
        Ok(Unknown {
            tag_key,
            map: buf.into_static(),
        })
    }
}

impl fmt::Debug for Unknown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        struct Fields<'a>(&'a Unknown);
        impl fmt::Debug for Fields<'_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                match serde_json::to_string(self.0) {
                    Ok(text) => f.write_str(&text),
                    Err(_) => write!(f, "<{} entries>", self.0.len()),
                }
            }
        }
        f.debug_struct("Unknown")
            .field("tag_key", &self.tag_key)
            .field("fields", &Fields(self))
            .finish()
    }
}
