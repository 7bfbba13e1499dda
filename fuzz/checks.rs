//! The properties the fuzz targets check, shared with the stable test that
//! replays the minimized corpus (`tests/test_fuzz_corpus.rs`). Every check
//! takes arbitrary bytes: it must never panic except on a real violation.

use json_subtypes::{json_subtypes, Profile, Unknown};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Dog {
    pub name: String,
    #[serde(default)]
    pub age: Option<u8>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Cat {
    pub lives: i64,
    #[serde(default)]
    pub tags: Vec<String>,
}

/// An externally tagged enum as a newtype variant's payload:
/// `{"type":"inner","Tuple":[1,2]}`, as serde's internally tagged enums
/// write and read it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Inner {
    Unit,
    Newtype(u8),
    Tuple(u8, u8),
    Struct { f: u8 },
}

impl Inner {
    /// One of each shape, picked by the input, so every input round-trips one.
    pub fn from_input(data: &[u8]) -> Inner {
        let a = data.first().copied().unwrap_or(0);
        let b = data.last().copied().unwrap_or(0);
        match data.len() % 4 {
            0 => Inner::Unit,
            1 => Inner::Newtype(a),
            2 => Inner::Tuple(a, b),
            _ => Inner::Struct { f: b },
        }
    }
}

#[json_subtypes(tag = "type")]
#[derive(Debug, Clone, PartialEq)]
pub enum Animal {
    #[json_subtypes(name = "dog", alias = "d")]
    Dog(Dog),
    #[json_subtypes(name = "inner")]
    Inner(Inner),
    #[json_subtypes(name = 2)]
    Cat(Cat),
    #[json_subtypes(name = true)]
    Bird { wings: u8 },
    #[json_subtypes(name = "fish")]
    Fish,
    #[json_subtypes(fallback)]
    Other(Unknown),
}

/// `Animal` under `max_buffer` and under `require_tag_first`: each reads
/// what `Animal` reads, or refuses it with its limit's error.
#[json_subtypes(tag = "type", max_buffer = 64)]
#[derive(Debug, Clone, PartialEq)]
pub enum BoundedAnimal {
    #[json_subtypes(name = "dog", alias = "d")]
    Dog(Dog),
    #[json_subtypes(name = "inner")]
    Inner(Inner),
    #[json_subtypes(name = 2)]
    Cat(Cat),
    #[json_subtypes(name = true)]
    Bird { wings: u8 },
    #[json_subtypes(name = "fish")]
    Fish,
    #[json_subtypes(fallback)]
    Other(Unknown),
}

#[json_subtypes(tag = "type", require_tag_first)]
#[derive(Debug, Clone, PartialEq)]
pub enum TagFirstAnimal {
    #[json_subtypes(name = "dog", alias = "d")]
    Dog(Dog),
    #[json_subtypes(name = "inner")]
    Inner(Inner),
    #[json_subtypes(name = 2)]
    Cat(Cat),
    #[json_subtypes(name = true)]
    Bird { wings: u8 },
    #[json_subtypes(name = "fish")]
    Fish,
    #[json_subtypes(fallback)]
    Other(Unknown),
}

/// serde's internally tagged twin of the known variants, for the
/// differential check.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum SerdeAnimal {
    #[serde(rename = "dog", alias = "d")]
    Dog(Dog),
    #[serde(rename = "inner")]
    Inner(Inner),
    #[serde(rename = "fish")]
    Fish,
}

#[json_subtypes(tag = "type")]
#[derive(Debug, Clone, PartialEq)]
pub enum StrictAnimal {
    #[json_subtypes(name = "dog", alias = "d")]
    Dog(Dog),
    #[json_subtypes(name = "inner")]
    Inner(Inner),
    #[json_subtypes(name = "fish")]
    Fish,
}

#[json_subtypes(tag = "type")]
pub trait Pet: std::fmt::Debug {
    fn name(&self) -> String;
}

#[json_subtypes(name = "dog")]
impl Pet for Dog {
    fn name(&self) -> String {
        self.name.clone()
    }
}

#[json_subtypes(name = 2)]
impl Pet for Cat {
    fn name(&self) -> String {
        format!("cat with {} lives", self.lives)
    }
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(transparent)]
pub struct OtherPet(pub Unknown);

#[json_subtypes(fallback)]
impl Pet for OtherPet {
    fn name(&self) -> String {
        "?".to_owned()
    }
}

/// Reading, and for what reads, writing and reading back to the same value.
/// Every input also round-trips an enum payload, tag first and tag last.
pub fn check_enum(data: &[u8]) {
    let inner = Animal::Inner(Inner::from_input(data));
    let text = serde_json::to_string(&inner).expect("an enum payload must be writable");
    let back: Animal = serde_json::from_str(&text).expect("what we write must read");
    assert_eq!(back, inner, "round trip of {text}");
    let entry = text
        .strip_prefix(r#"{"type":"inner","#)
        .and_then(|t| t.strip_suffix('}'))
        .expect("the tag is written first");
    let last = format!(r#"{{{entry},"type":"inner"}}"#);
    let back: Animal = serde_json::from_str(&last).expect("the tag last must read");
    assert_eq!(back, inner, "round trip of {last}");
    let loose = serde_json::from_slice::<Animal>(data);
    within_limit::<BoundedAnimal>("BoundedAnimal", data, &loose, |e| {
        e == "more than 64 bytes buffered before the tag `type` of BoundedAnimal (max_buffer = 64)"
    });
    within_limit::<TagFirstAnimal>("TagFirstAnimal", data, &loose, |e| {
        e.starts_with(
            "the tag `type` of TagFirstAnimal must be the first key (require_tag_first), found ",
        )
    });
    if let Ok(value) = loose {
        let text = serde_json::to_vec(&value).expect("a value read must be writable");
        let back: Animal = serde_json::from_slice(&text).expect("what we write must read");
        assert_eq!(
            back,
            value,
            "round trip of {}",
            String::from_utf8_lossy(&text)
        );
    }
}

/// `T`, a limited twin of `Animal`, reads what `Animal` read (the same
/// value, written the same), or fails as it did, or with the limit's error
/// (`is_limit`); and what it writes it reads back under its limit. `name`
/// is `T`'s, which its other errors say instead of `Animal`.
fn within_limit<T>(
    name: &str,
    data: &[u8],
    loose: &serde_json::Result<Animal>,
    is_limit: impl Fn(&str) -> bool,
) where
    T: Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
{
    match (serde_json::from_slice::<T>(data), loose) {
        (Ok(value), Ok(loose)) => {
            let text = serde_json::to_string(&value).expect("a value read must be writable");
            assert_eq!(text, serde_json::to_string(loose).unwrap());
            let back: T = serde_json::from_str(&text).expect("what we write must read");
            assert_eq!(back, value, "round trip of {text}");
        }
        (Ok(value), Err(e)) => {
            panic!("the limited read gave {value:?} where the loose one failed: {e}")
        }
        (Err(e), Ok(_)) => assert!(is_limit(&without_position(&e)), "{e}"),
        (Err(e), Err(loose)) => {
            let e = without_position(&e);
            let same = e.replace(name, "Animal") == without_position(loose);
            assert!(same || is_limit(&e), "{e} / {loose}");
        }
    }
}

pub fn check_trait_object(data: &[u8]) {
    let read = serde_json::from_slice::<Box<dyn Pet>>(data);
    // The same bytes through the erased path (a reader serde_json does not
    // borrow from) give the same value or the same error.
    let erased = serde_json::from_reader::<_, Box<dyn Pet>>(data);
    agree(&read, &erased, |v| serde_json::to_string(v).unwrap());
    if let Ok(value) = read {
        let text = serde_json::to_string(&value).expect("a value read must be writable");
        assert_eq!(
            write_erased(&value),
            text,
            "written through the erased path"
        );
        let back: Box<dyn Pet> = serde_json::from_str(&text).expect("what we write must read");
        assert_eq!(serde_json::to_string(&back).unwrap(), text);
        assert_eq!(back.name(), value.name());
    }
}

/// Both reads gave the same value (as `show` writes it) or the same error.
/// Only the position may differ: serde_json's `io::Read` reader has looked
/// a byte further for some errors (past a newline, too), whatever is read.
fn agree<T>(a: &serde_json::Result<T>, b: &serde_json::Result<T>, show: impl Fn(&T) -> String) {
    match (a, b) {
        (Ok(a), Ok(b)) => assert_eq!(show(a), show(b)),
        (Err(a), Err(b)) => assert_eq!(without_position(a), without_position(b)),
        (Ok(a), Err(b)) => panic!("read {} on one path, {b} on the other", show(a)),
        (Err(a), Ok(b)) => panic!("read {} on one path, {a} on the other", show(b)),
    }
}

fn without_position(e: &serde_json::Error) -> String {
    let mut text = e.to_string();
    if let Some(at) = text.rfind(" at line ") {
        text.truncate(at);
    }
    text
}

/// JSON written to an `io::Write` that is not a `Vec<u8>`: the erased path.
fn write_erased<T: Serialize + ?Sized>(value: &T) -> String {
    let mut out = std::io::Cursor::new(Vec::new());
    serde_json::to_writer(&mut out, value).expect("a value read must be writable");
    String::from_utf8(out.into_inner()).unwrap()
}

pub fn profile() -> Profile<dyn Pet> {
    Profile::<dyn Pet>::builder()
        .tag("kind")
        .subtype::<Dog>("dog")
        .subtype::<Cat>(-2)
        .fallback::<OtherPet>()
        .build()
        .unwrap()
}

pub fn check_profile(profile: &Profile<dyn Pet>, data: &[u8]) {
    let read = profile.from_slice(data);
    let erased = profile.from_reader(data);
    agree(&read, &erased, |v| profile.to_string(&**v).unwrap());
    if let Ok(value) = read {
        let text = profile
            .to_string(&*value)
            .expect("a value read must be writable");
        assert_eq!(write_erased(&profile.serializable(&*value)), text);
        let back = profile.from_str(&text).expect("what we write must read");
        assert_eq!(profile.to_string(&*back).unwrap(), text);
    }
}

/// `Unknown` keeps what it reads: written back, it reads as the same thing,
/// and it agrees with `serde_json::Value` on the content.
pub fn check_unknown(data: &[u8]) {
    if let Ok(unknown) = serde_json::from_slice::<Unknown>(data) {
        let text = serde_json::to_vec(&unknown).expect("an Unknown read must be writable");
        let back: Unknown = serde_json::from_slice(&text).expect("what we write must read");
        assert_eq!(back, unknown);
        let ours: serde_json::Value = serde_json::from_slice(&text).unwrap();
        if let Ok(theirs) = serde_json::from_slice::<serde_json::Value>(data) {
            // Value keeps the last of duplicate keys, Unknown every entry.
            let keys = unknown.keys().collect::<Vec<_>>();
            let unique: std::collections::BTreeSet<_> = keys.iter().collect();
            if unique.len() == keys.len() {
                assert_eq!(ours, theirs);
            }
        }
    }
}

/// Ours against serde's internally tagged enum on the same bytes: both read
/// the same value or both refuse. serde keeps the last of duplicate keys
/// where we refuse a second tag, so inputs with duplicate tags are skipped.
pub fn check_differential(data: &[u8]) {
    // Writing an enum payload: the same bytes as serde's, read back alike.
    let inner = Inner::from_input(data);
    let ours = serde_json::to_string(&StrictAnimal::Inner(inner.clone())).unwrap();
    let theirs = serde_json::to_string(&SerdeAnimal::Inner(inner.clone())).unwrap();
    assert_eq!(ours, theirs);
    assert_eq!(
        serde_json::from_str::<StrictAnimal>(&theirs).unwrap(),
        StrictAnimal::Inner(inner.clone())
    );
    assert_eq!(
        serde_json::from_str::<SerdeAnimal>(&ours).unwrap(),
        SerdeAnimal::Inner(inner)
    );
    let ours = serde_json::from_slice::<StrictAnimal>(data);
    let theirs = serde_json::from_slice::<SerdeAnimal>(data);
    match (&ours, &theirs) {
        (Ok(a), Ok(b)) => {
            let a = serde_json::to_string(a).unwrap();
            let b = serde_json::to_string(b).unwrap();
            assert_eq!(a, b);
        }
        (Err(_), Err(_)) => {}
        (Err(e), Ok(_)) if e.to_string().starts_with("duplicate field") => {}
        // serde reads a key that is not a string (from an escape it cannot
        // decode) or a field twice differently; only ours refusing a
        // duplicate is a known, documented difference.
        _ => panic!(
            "{}: ours {ours:?}, serde {theirs:?}",
            String::from_utf8_lossy(data)
        ),
    }
}
