//! Trait objects whose registration says `compiled`, read from a `&str` or
//! `&[u8]` with serde_json and written to a `Vec<u8>` with its compact
//! writer, run code compiled for serde_json; every other reader and writer,
//! and every registration without `compiled`, goes through the erased
//! path. Both paths must give the same values and the same errors: each
//! case runs on a trait that says `compiled`, one that does not, and one
//! whose impls choose for themselves.

use std::any::type_name;
use std::borrow::Cow;
use std::cell::RefCell;
use std::fmt::Debug;
use std::io::Cursor;

use json_subtypes::{json_subtypes, Profile, TagPosition, Unknown};
use rstest::rstest;
use serde::de::{DeserializeOwned, Deserializer};
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};

thread_local! {
    /// The reader and writer types `Probe` was handed, in order.
    static SEEN: RefCell<Vec<&'static str>> = const { RefCell::new(Vec::new()) };
}

fn seen() -> Vec<&'static str> {
    SEEN.with(|s| s.borrow_mut().split_off(0))
}

#[derive(Serialize, Deserialize)]
struct ProbeBody {
    text: bool,
}

/// One trait with the same impls, tags and payloads in each module; the
/// attributes of the trait and of each impl are the macro's arguments.
macro_rules! nodes {
    (
        $module:ident,
        trait($($trait_args:tt)*),
        leaf($($leaf_args:tt)*),
        branch($($branch_args:tt)*),
        probe($($probe_args:tt)*),
        native(probe = $probe:literal, in_branch = $in_branch:literal)
    ) => {
        mod $module {
            use super::*;

            #[json_subtypes($($trait_args)*)]
            pub trait Node: Debug {
                fn size(&self) -> usize;
            }

            #[derive(Debug, Serialize, Deserialize)]
            pub struct Leaf {
                value: String,
                n: i64,
            }

            #[json_subtypes($($leaf_args)*)]
            impl Node for Leaf {
                fn size(&self) -> usize {
                    1
                }
            }

            #[derive(Debug, Serialize, Deserialize)]
            pub struct Branch {
                label: Cow<'static, str>,
                kids: Vec<Box<dyn Node>>,
            }

            #[json_subtypes($($branch_args)*)]
            impl Node for Branch {
                fn size(&self) -> usize {
                    1 + self.kids.iter().map(|k| k.size()).sum::<usize>()
                }
            }

            #[derive(Debug, Serialize, Deserialize)]
            pub struct Flag {
                on: bool,
            }

            #[json_subtypes(name = true)]
            impl Node for Flag {
                fn size(&self) -> usize {
                    1
                }
            }

            #[derive(Debug, Serialize, Deserialize)]
            #[serde(transparent)]
            pub struct OtherNode(Unknown);

            #[json_subtypes(fallback)]
            impl Node for OtherNode {
                fn size(&self) -> usize {
                    0
                }
            }

            /// Records the type of the reader or writer it is handed.
            #[derive(Debug)]
            pub struct Probe {
                pub text: bool,
            }

            impl<'de> Deserialize<'de> for Probe {
                fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                    SEEN.with(|s| s.borrow_mut().push(type_name::<D>()));
                    let body = ProbeBody::deserialize(deserializer)?;
                    Ok(Probe { text: body.text })
                }
            }

            impl Serialize for Probe {
                fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                    SEEN.with(|s| s.borrow_mut().push(type_name::<S>()));
                    if self.text {
                        // Not an object: a subtype cannot carry a tag in it.
                        serializer.serialize_str("probe")
                    } else {
                        ProbeBody { text: false }.serialize(serializer)
                    }
                }
            }

            #[json_subtypes($($probe_args)*)]
            impl Node for Probe {
                fn size(&self) -> usize {
                    1
                }
            }

            pub fn profile(position: TagPosition) -> Profile<dyn Node> {
                Profile::<dyn Node>::builder()
                    .tag("kind")
                    .subtype::<Leaf>("l")
                    .subtype::<Flag>(-3)
                    .fallback::<OtherNode>()
                    .tag_position(position)
                    .build()
                    .unwrap()
            }

            pub fn probe_profile(compiled: bool, position: TagPosition) -> Profile<dyn Node> {
                let builder = Profile::<dyn Node>::builder()
                    .tag("kind")
                    .subtype::<Probe>("p")
                    .tag_position(position);
                match compiled {
                    true => builder.compiled::<Probe>(),
                    false => builder,
                }
                .build()
                .unwrap()
            }

            impl super::Nodes for dyn Node {
                const PROBE: bool = $probe;
                const IN_BRANCH: bool = $in_branch;

                fn boxed_probe(text: bool) -> Box<Self> {
                    Box::new(Probe { text })
                }

                fn profile(position: TagPosition) -> Profile<Self> {
                    profile(position)
                }

                fn probe_profile(compiled: bool, position: TagPosition) -> Profile<Self> {
                    probe_profile(compiled, position)
                }
            }
        }
    };
}

/// What the tests need of each module's trait.
trait Nodes: Debug + Serialize + json_subtypes::Subtype + 'static {
    /// Whether `Probe` is read and written by compiled code at the top
    /// level, and inside a `Branch`.
    const PROBE: bool;
    const IN_BRANCH: bool;
    fn boxed_probe(text: bool) -> Box<Self>;
    fn profile(position: TagPosition) -> Profile<Self>;
    fn probe_profile(compiled: bool, position: TagPosition) -> Profile<Self>;
}

// Every registration compiled, through the trait.
nodes!(
    compiled,
    trait(tag = "type", compiled),
    leaf(name = "leaf"),
    branch(name = 7),
    probe(name = "probe"),
    native(probe = true, in_branch = true)
);
// None: the default.
nodes!(
    erased,
    trait(tag = "type"),
    leaf(name = "leaf"),
    branch(name = 7),
    probe(name = "probe"),
    native(probe = false, in_branch = false)
);
// Some, each through its impl: `Branch` is erased, so what it holds is too.
nodes!(
    mixed,
    trait(tag = "type"),
    leaf(name = "leaf", compiled),
    branch(name = 7),
    probe(name = "probe", compiled),
    native(probe = true, in_branch = false)
);

/// Runs a generic test body on each module's trait.
macro_rules! each_trait {
    ($f:ident $(, $arg:expr)*) => {{
        $f::<dyn compiled::Node>($($arg),*);
        $f::<dyn erased::Node>($($arg),*);
        $f::<dyn mixed::Node>($($arg),*);
    }};
}

/// The ways a user hands JSON to serde_json.
#[derive(Clone, Copy, Debug)]
enum Input {
    Str,
    Slice,
    /// An `io::Read`: erased.
    Reader,
    /// A wrapped deserializer: erased.
    Wrapped,
}

const INPUTS: [Input; 4] = [Input::Str, Input::Slice, Input::Reader, Input::Wrapped];

fn read_via<T>(input: Input, text: &str) -> Result<Box<T>, String>
where
    T: ?Sized,
    Box<T>: DeserializeOwned,
{
    let out = match input {
        Input::Str => serde_json::from_str(text),
        Input::Slice => serde_json::from_slice(text.as_bytes()),
        Input::Reader => serde_json::from_reader(text.as_bytes()),
        Input::Wrapped => {
            let mut de = serde_json::Deserializer::from_str(text);
            serde_path_to_error::deserialize(&mut de)
                .map_err(serde_path_to_error::Error::into_inner)
                .and_then(|v| de.end().map(|()| v))
        }
    };
    out.map_err(|e| e.to_string())
}

/// The ways a user has serde_json write.
#[derive(Clone, Copy, Debug)]
enum Output {
    String,
    Vec,
    WriterIntoVec,
    /// An `io::Write` that is not a `Vec<u8>`: erased.
    Writer,
    /// A `serde_json::Value`, then its text: erased.
    Value,
}

const OUTPUTS: [Output; 5] = [
    Output::String,
    Output::Vec,
    Output::WriterIntoVec,
    Output::Writer,
    Output::Value,
];

fn write_via<T: Serialize + ?Sized>(output: Output, value: &T) -> Result<String, String> {
    let out = match output {
        Output::String => serde_json::to_string(value),
        Output::Vec => serde_json::to_vec(value).map(|v| String::from_utf8(v).unwrap()),
        Output::WriterIntoVec => {
            let mut buf = Vec::new();
            serde_json::to_writer(&mut buf, value).map(|()| String::from_utf8(buf).unwrap())
        }
        Output::Writer => {
            let mut cursor = Cursor::new(Vec::new());
            serde_json::to_writer(&mut cursor, value)
                .map(|()| String::from_utf8(cursor.into_inner()).unwrap())
        }
        Output::Value => serde_json::to_value(value).map(|v| v.to_string()),
    };
    out.map_err(|e| e.to_string())
}

#[rstest]
#[case::tag_first(
    r#"{"type":"leaf","value":"a","n":1}"#,
    r#"{"type":"leaf","value":"a","n":1}"#
)]
#[case::tag_last(
    r#"{"value":"a","n":1,"type":"leaf"}"#,
    r#"{"type":"leaf","value":"a","n":1}"#
)]
#[case::escaped(
    r#"{"type":"le\u0061f","value":"a\nb\u00e9","n":-1}"#,
    r#"{"type":"leaf","value":"a\nbé","n":-1}"#
)]
#[case::nested_first(
    r#"{"type":7,"label":"x","kids":[{"type":"leaf","value":"b","n":2},{"on":true,"type":true}]}"#,
    r#"{"type":7,"label":"x","kids":[{"type":"leaf","value":"b","n":2},{"type":true,"on":true}]}"#
)]
#[case::nested_last(
    r#"{"label":"x","kids":[{"type":7,"label":"y","kids":[]}],"type":7}"#,
    r#"{"type":7,"label":"x","kids":[{"type":7,"label":"y","kids":[]}]}"#
)]
// Each level's payload read through the one before it: on the erased path
// every level hands the next the accesses it was handed (see the runtime's
// `erased::unwrap`).
#[case::nested_three_levels(
    r#"{"kids":[{"type":7,"label":"y","kids":[{"n":3,"type":"leaf","value":"c"},{"type":"other","k":[{"type":true}]}]}],"label":"x","type":7}"#,
    r#"{"type":7,"label":"x","kids":[{"type":7,"label":"y","kids":[{"type":"leaf","value":"c","n":3},{"type":"other","k":[{"type":true}]}]}]}"#
)]
#[case::fallback(r#"{"type":"other","x":[1,2]}"#, r#"{"type":"other","x":[1,2]}"#)]
#[case::no_tag(r#"{"x":{"y":null}}"#, r#"{"x":{"y":null}}"#)]
fn every_reader_and_writer_gives_the_same_value(#[case] text: &str, #[case] written: &str) {
    fn case<T: ?Sized + Nodes>(text: &str, written: &str)
    where
        Box<T>: DeserializeOwned,
    {
        let name = type_name::<T>();
        for input in INPUTS {
            let value =
                read_via::<T>(input, text).unwrap_or_else(|e| panic!("{name} {input:?}: {e}"));
            for output in OUTPUTS {
                assert_eq!(
                    write_via(output, &value).as_deref(),
                    Ok(written),
                    "{name} {input:?} then {output:?}"
                );
            }
            // And what was written reads back the same way.
            let back = read_via::<T>(input, written).unwrap();
            assert_eq!(serde_json::to_string(&back).unwrap(), written);
        }
    }
    each_trait!(case, text, written);
}

#[rstest]
#[case::bad_body(
    r#"{"type":"leaf","value":1,"n":1}"#,
    "invalid type: integer `1`, expected a string at line 1 column 24"
)]
#[case::bad_body_last(
    r#"{"value":1,"n":1,"type":"leaf"}"#,
    "invalid type: integer `1`, expected a string at line 1 column 31"
)]
// serde_json writes the float its own way; the erased path has serde_json
// make this error too.
#[case::float_for_an_integer(
    r#"{"type":"leaf","value":"a","n":1e40}"#,
    "invalid type: floating point `1e+40`, expected i64 at line 1 column 35"
)]
#[case::missing_field(
    r#"{"type":"leaf","value":"a"}"#,
    "missing field `n` at line 1 column 27"
)]
#[case::duplicate_tag(
    r#"{"type":"leaf","value":"a","type":"leaf","n":1}"#,
    "duplicate field `type` at line 1 column 33"
)]
#[case::bad_kid(
    r#"{"type":7,"label":"x","kids":[{"type":"leaf","value":"b","n":true}]}"#,
    "invalid type: boolean `true`, expected i64 at line 1 column 65"
)]
#[case::kid_not_an_object(
    r#"{"type":7,"label":"x","kids":[{"type":"leaf","value":"b","n":2},5]}"#,
    "invalid type: integer `5`, expected a map with a `type` tag for dyn Node at line 1 column 65"
)]
#[case::bad_grandkid(
    r#"{"type":7,"label":"x","kids":[{"type":7,"label":"y","kids":[{"type":"leaf","value":[],"n":1}]}]}"#,
    "invalid type: sequence, expected a string at line 1 column 83"
)]
#[case::bad_json(
    r#"{"type":"leaf","value":"a","n":1,}"#,
    "trailing comma at line 1 column 34"
)]
#[case::unknown_tag_in_sequence_form(
    r#"[1]"#,
    "unknown subtype tag 1, expected one of 7, true, \"leaf\", \"probe\"; to read a type under this tag, put `#[json_subtypes(name = 1)]` on its `impl Node`, or read it with a `Profile` that registers it at line 1 column 2"
)]
fn every_reader_gives_the_same_error(#[case] text: &str, #[case] message: &str) {
    fn case<T: ?Sized + Nodes>(text: &str, message: &str)
    where
        Box<T>: DeserializeOwned,
    {
        for input in INPUTS {
            let mut got = read_via::<T>(input, text).unwrap_err();
            let mut message = message.to_owned();
            if let Input::Reader = input {
                // serde_json's `io::Read` reader has looked a byte further for
                // some errors, whatever is read: its columns are its own.
                got.truncate(got.rfind(" column ").unwrap());
                message.truncate(message.rfind(" column ").unwrap());
            }
            assert_eq!(got, message, "{} {input:?}", type_name::<T>());
        }
    }
    each_trait!(case, text, message);
}

#[rstest]
#[case::tag_first(r#"{"type":"probe","text":false}"#, false)]
#[case::tag_last(r#"{"text":false,"type":"probe"}"#, false)]
#[case::inside_a_tag_first_parent(
    r#"{"type":7,"label":"x","kids":[{"type":"probe","text":false}]}"#,
    true
)]
// The child is buffered with the parent's prefix and replayed from there.
#[case::inside_a_tag_last_parent(
    r#"{"label":"x","kids":[{"text":false,"type":"probe"}],"type":7}"#,
    true
)]
fn compiled_registrations_read_str_and_slice_input_without_erasure(
    #[case] text: &str,
    #[case] in_branch: bool,
) {
    fn case<T: ?Sized + Nodes>(text: &str, in_branch: bool)
    where
        Box<T>: DeserializeOwned,
    {
        let compiled = if in_branch { T::IN_BRANCH } else { T::PROBE };
        for input in INPUTS {
            read_via::<T>(input, text).unwrap();
            let seen = seen();
            let name = type_name::<T>();
            assert_eq!(seen.len(), 1, "{name} {input:?}: {seen:?}");
            // The compiled reader hands the payload our reader over
            // serde_json's own map access; the erased one a reader that
            // names no format.
            let native = compiled && matches!(input, Input::Str | Input::Slice);
            assert_eq!(
                seen[0].contains("serde_json"),
                native,
                "{name} {input:?}: {}",
                seen[0]
            );
        }
    }
    each_trait!(case, text, in_branch);
}

/// Every registration carries its writer with the tag compiled for
/// serde_json, `compiled` or not.
#[test]
fn writes_with_the_tag_reach_a_vec_without_erasure() {
    fn case<T: ?Sized + Nodes>() {
        let value = T::boxed_probe(false);
        let name = type_name::<T>();
        for output in OUTPUTS {
            write_via(output, &value).unwrap();
            let seen = seen();
            assert_eq!(seen.len(), 1, "{name} {output:?}: {seen:?}");
            let native = matches!(output, Output::String | Output::Vec | Output::WriterIntoVec);
            assert_eq!(
                seen[0].contains("serde_json::ser::Serializer"),
                native,
                "{name} {output:?}: {}",
                seen[0]
            );
        }
    }
    each_trait!(case);
}

#[test]
fn write_errors_are_the_same_on_every_writer() {
    fn case<T: ?Sized + Nodes>() {
        let value = T::boxed_probe(true);
        for output in OUTPUTS {
            assert_eq!(
                write_via(output, &value).unwrap_err(),
                "cannot serialize Probe as a subtype of dyn Node: it is a string, not a map or struct",
                "{} {output:?}",
                type_name::<T>()
            );
        }
        seen();
    }
    each_trait!(case);
}

#[test]
fn pretty_output_goes_through_the_erased_path_unchanged() {
    let value = read_via::<dyn compiled::Node>(
        Input::Str,
        r#"{"type":7,"label":"x","kids":[{"type":"leaf","value":"b","n":2}]}"#,
    )
    .unwrap();
    let pretty = serde_json::to_string_pretty(&value).unwrap();
    let compact: serde_json::Value =
        serde_json::from_str(&serde_json::to_string(&value).unwrap()).unwrap();
    assert_eq!(pretty, serde_json::to_string_pretty(&compact).unwrap());
}

#[test]
fn values_keep_nothing_of_the_input() {
    let mut text = String::from(r#"{"type":7,"label":"borrowed?","kids":[]}"#);
    let value: Box<dyn compiled::Node> = serde_json::from_str(&text).unwrap();
    text.clear();
    text.push_str("overwritten");
    drop(text);
    assert_eq!(value.size(), 1);
    assert_eq!(
        serde_json::to_string(&value).unwrap(),
        r#"{"type":7,"label":"borrowed?","kids":[]}"#
    );
}

#[rstest]
#[case(TagPosition::First, r#"{"kind":"l","value":"a","n":1}"#)]
#[case(TagPosition::Last, r#"{"value":"a","n":1,"kind":"l"}"#)]
#[case(TagPosition::Omit, r#"{"value":"a","n":1}"#)]
fn profiles_agree_on_every_path(#[case] position: TagPosition, #[case] written: &str) {
    each_trait!(profile_case, position, written);
}

fn profile_case<T: ?Sized + Nodes>(position: TagPosition, written: &str) {
    let profile = T::profile(position);
    let text = r#"{"value":"a","n":1,"kind":"l"}"#;
    let read = [
        profile.from_str(text),
        profile.from_slice(text.as_bytes()),
        profile.from_reader(text.as_bytes()),
    ];
    for value in read {
        let value = value.unwrap();
        assert_eq!(profile.to_string(&*value).unwrap(), written);
        for output in OUTPUTS {
            assert_eq!(
                write_via(output, &profile.serializable(&*value)).as_deref(),
                Ok(written),
                "{output:?}"
            );
        }
    }
    let bad = r#"{"kind":-3,"on":"yes"}"#;
    let errors = [
        profile.from_str(bad).unwrap_err().to_string(),
        profile.from_slice(bad.as_bytes()).unwrap_err().to_string(),
        profile.from_reader(bad.as_bytes()).unwrap_err().to_string(),
    ];
    assert_eq!(
        errors,
        ["invalid type: string \"yes\", expected a boolean at line 1 column 21"; 3]
    );
}

/// A profile reads a type by compiled code only if told `compiled`, and
/// writes it so always, with the tag and without it (`TagPosition::Omit`):
/// its form is chosen after its subtypes, so each keeps both writers.
#[test]
fn a_profile_reads_and_writes_compiled_only_the_types_it_is_told() {
    fn case<T: ?Sized + Nodes>() {
        for compiled in [false, true] {
            let name = type_name::<T>();
            let profile = T::probe_profile(compiled, TagPosition::First);
            let text = r#"{"kind":"p","text":false}"#;
            let read = [
                profile.from_str(text),
                profile.from_slice(text.as_bytes()),
                profile.from_reader(text.as_bytes()),
            ];
            let seen_reading = seen();
            assert_eq!(seen_reading.len(), 3, "{seen_reading:?}");
            let omit = T::probe_profile(compiled, TagPosition::Omit);
            for (value, (seen, native)) in read
                .iter()
                .zip(seen_reading.iter().zip([true, true, false]))
            {
                assert_eq!(
                    seen.contains("serde_json"),
                    compiled && native,
                    "{name} compiled: {compiled}, {seen}"
                );
                let value = value.as_ref().unwrap();
                assert_eq!(profile.to_string(value).unwrap(), text);
                assert_eq!(omit.to_string(value).unwrap(), r#"{"text":false}"#);
                let seen = self::seen();
                assert_eq!(seen.len(), 2, "{seen:?}");
                for seen in seen {
                    let json = seen.contains("serde_json::ser::Serializer");
                    assert!(json, "{name} compiled: {compiled}, {seen}");
                }
            }
        }
    }
    each_trait!(case);
}

// Generic traits: `compiled` on the trait, on an impl of an instantiation,
// and on a generic impl's instances, as on a plain trait.

#[json_subtypes(tag = "type", compiled)]
trait Hot<D: 'static>: Debug {}

#[json_subtypes(tag = "type")]
trait Cold<D: 'static>: Debug {}

/// Records the reader it is handed, as `Probe` does.
#[derive(Debug)]
struct GenericProbe<D>(std::marker::PhantomData<D>);

impl<'de, D> Deserialize<'de> for GenericProbe<D> {
    fn deserialize<De: Deserializer<'de>>(deserializer: De) -> Result<Self, De::Error> {
        SEEN.with(|s| s.borrow_mut().push(type_name::<De>()));
        ProbeBody::deserialize(deserializer)?;
        Ok(GenericProbe(std::marker::PhantomData))
    }
}

impl<D> Serialize for GenericProbe<D> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        ProbeBody { text: false }.serialize(serializer)
    }
}

#[json_subtypes(name = "probe", instances(u8, u16))]
impl<D: Debug> Hot<D> for GenericProbe<D> {}

#[json_subtypes(name = "probe", instances(u16), compiled)]
impl<D: Debug> Cold<D> for GenericProbe<D> {}

/// `GenericProbe` by another name, for an impl of one instantiation.
#[derive(Debug, Serialize, Deserialize)]
#[serde(transparent)]
struct ProbeU8(GenericProbe<u8>);

#[json_subtypes(name = "probe", compiled)]
impl Cold<u8> for ProbeU8 {}

/// In `dyn Cold<u32>`, without `compiled`.
#[derive(Debug, Serialize, Deserialize)]
#[serde(transparent)]
struct ProbeU32(GenericProbe<u32>);

#[json_subtypes(name = "probe")]
impl Cold<u32> for ProbeU32 {}

/// Whether `Box<T>` read from `text` by `from_str` reached its payload by
/// compiled code; `from_reader` never does.
fn compiled_read<T: ?Sized>(text: &str) -> bool
where
    Box<T>: serde::de::DeserializeOwned,
{
    drop(serde_json::from_reader::<_, Box<T>>(text.as_bytes()).unwrap());
    let erased = seen();
    assert!(!erased[0].contains("serde_json"), "{}", erased[0]);
    drop(serde_json::from_str::<Box<T>>(text).unwrap());
    let seen = seen();
    assert_eq!(seen.len(), 1, "{seen:?}");
    seen[0].contains("serde_json")
}

#[test]
fn compiled_applies_to_generic_traits_and_impls() {
    let text = r#"{"type":"probe","text":false}"#;
    assert!(compiled_read::<dyn Hot<u8>>(text));
    assert!(compiled_read::<dyn Hot<u16>>(text));
    assert!(compiled_read::<dyn Cold<u8>>(text));
    assert!(compiled_read::<dyn Cold<u16>>(text));
    assert!(!compiled_read::<dyn Cold<u32>>(text));
}

// The external and adjacent forms: a `compiled` registration there reads
// the whole value that is its payload with code compiled for serde_json's
// `&str` and `&[u8]` readers (and, for content before the adjacent tag,
// for our replay of it); the same values and errors as the erased path.

/// [`nodes`] for a trait in the external or adjacent form; `fallback`
/// adds a fallback subtype.
macro_rules! wrapped_nodes {
    (
        $module:ident,
        trait($($trait_args:tt)*),
        leaf($($leaf_args:tt)*),
        branch($($branch_args:tt)*),
        probe($($probe_args:tt)*),
        native(probe = $probe:literal, in_branch = $in_branch:literal)
        $(, $fallback:ident)?
    ) => {
        mod $module {
            use super::*;

            #[json_subtypes($($trait_args)*)]
            pub trait Node: Debug {}

            #[derive(Debug, Serialize, Deserialize)]
            pub struct Leaf {
                value: String,
                n: i64,
            }

            #[json_subtypes($($leaf_args)*)]
            impl Node for Leaf {}

            #[derive(Debug, Serialize, Deserialize)]
            pub struct Branch {
                label: String,
                kids: Vec<Box<dyn Node>>,
            }

            #[json_subtypes($($branch_args)*)]
            impl Node for Branch {}

            #[derive(Debug, Serialize, Deserialize)]
            pub struct Unit;

            #[json_subtypes(name = "unit")]
            impl Node for Unit {}

            $(
                #[derive(Debug, Serialize, Deserialize)]
                #[serde(transparent)]
                pub struct OtherNode(Unknown);

                #[json_subtypes($fallback)]
                impl Node for OtherNode {}
            )?

            #[derive(Debug)]
            pub struct Probe;

            impl<'de> Deserialize<'de> for Probe {
                fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                    SEEN.with(|s| s.borrow_mut().push(type_name::<D>()));
                    ProbeBody::deserialize(deserializer)?;
                    Ok(Probe)
                }
            }

            impl Serialize for Probe {
                fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                    SEEN.with(|s| s.borrow_mut().push(type_name::<S>()));
                    ProbeBody { text: false }.serialize(serializer)
                }
            }

            #[json_subtypes($($probe_args)*)]
            impl Node for Probe {}

            impl super::WrappedNodes for dyn Node {
                const PROBE: bool = $probe;
                const IN_BRANCH: bool = $in_branch;

                fn probe_profile(compiled: bool, external: bool) -> Profile<Self> {
                    let builder = Profile::<dyn Node>::builder().subtype::<Probe>("p");
                    let builder = match external {
                        true => builder.external(),
                        false => builder.tag("kind").content("body"),
                    };
                    match compiled {
                        true => builder.compiled::<Probe>(),
                        false => builder,
                    }
                    .build()
                    .unwrap()
                }
            }
        }
    };
}

/// What the tests need of each wrapped module's trait.
trait WrappedNodes: Debug + Serialize + json_subtypes::Subtype + 'static {
    /// Whether `Probe` is read by compiled code at the top level, and
    /// inside a `Branch`.
    const PROBE: bool;
    const IN_BRANCH: bool;
    /// A profile of `Probe` alone, external or adjacent (`kind`, `body`).
    fn probe_profile(compiled: bool, external: bool) -> Profile<Self>;
}

// The three modules of each form: every registration compiled through
// the trait, none, and some through their impls (`Branch` erased).
wrapped_nodes!(
    ext_compiled,
    trait(external, compiled),
    leaf(name = "leaf"),
    branch(name = "branch"),
    probe(name = "probe"),
    native(probe = true, in_branch = true)
);
wrapped_nodes!(
    ext_erased,
    trait(external),
    leaf(name = "leaf"),
    branch(name = "branch"),
    probe(name = "probe"),
    native(probe = false, in_branch = false)
);
wrapped_nodes!(
    ext_mixed,
    trait(external),
    leaf(name = "leaf", compiled),
    branch(name = "branch"),
    probe(name = "probe", compiled),
    native(probe = true, in_branch = false)
);
wrapped_nodes!(
    adj_compiled,
    trait(tag = "type", content = "value", compiled),
    leaf(name = "leaf"),
    branch(name = "branch"),
    probe(name = "probe"),
    native(probe = true, in_branch = true),
    fallback
);
wrapped_nodes!(
    adj_erased,
    trait(tag = "type", content = "value"),
    leaf(name = "leaf"),
    branch(name = "branch"),
    probe(name = "probe"),
    native(probe = false, in_branch = false),
    fallback
);
wrapped_nodes!(
    adj_mixed,
    trait(tag = "type", content = "value"),
    leaf(name = "leaf", compiled),
    branch(name = "branch"),
    probe(name = "probe", compiled),
    native(probe = true, in_branch = false),
    fallback
);
// The external form with a fallback, which reads the unknown
// entry through the erased path even when `compiled`.
wrapped_nodes!(
    ext_fallback_compiled,
    trait(external, compiled),
    leaf(name = "leaf"),
    branch(name = "branch"),
    probe(name = "probe"),
    native(probe = true, in_branch = true),
    fallback
);
wrapped_nodes!(
    ext_fallback_erased,
    trait(external),
    leaf(name = "leaf"),
    branch(name = "branch"),
    probe(name = "probe"),
    native(probe = false, in_branch = false),
    fallback
);

/// Runs a generic test body on each module's trait of one form.
macro_rules! each_wrapped {
    (external, $f:ident $(, $arg:expr)*) => {{
        $f::<dyn ext_compiled::Node>($($arg),*);
        $f::<dyn ext_erased::Node>($($arg),*);
        $f::<dyn ext_mixed::Node>($($arg),*);
    }};
    (external_fallback, $f:ident $(, $arg:expr)*) => {{
        $f::<dyn ext_fallback_compiled::Node>($($arg),*);
        $f::<dyn ext_fallback_erased::Node>($($arg),*);
    }};
    (adjacent, $f:ident $(, $arg:expr)*) => {{
        $f::<dyn adj_compiled::Node>($($arg),*);
        $f::<dyn adj_erased::Node>($($arg),*);
        $f::<dyn adj_mixed::Node>($($arg),*);
    }};
}

/// Reads `text` every way, writes each value every way, and reads what
/// was written back.
fn same_value<T>(text: &str, written: &str)
where
    T: ?Sized + WrappedNodes,
    Box<T>: DeserializeOwned,
{
    let name = type_name::<T>();
    for input in INPUTS {
        let value = read_via::<T>(input, text).unwrap_or_else(|e| panic!("{name} {input:?}: {e}"));
        for output in OUTPUTS {
            assert_eq!(
                write_via(output, &value).as_deref(),
                Ok(written),
                "{name} {input:?} then {output:?}"
            );
        }
        let back = read_via::<T>(input, written).unwrap();
        assert_eq!(serde_json::to_string(&back).unwrap(), written);
    }
    seen();
}

/// Reads `text` every way: the same error each time.
fn same_error<T>(text: &str, message: &str)
where
    T: ?Sized + WrappedNodes,
    Box<T>: DeserializeOwned,
{
    for input in INPUTS {
        let mut got = read_via::<T>(input, text).unwrap_err();
        let mut message = message.to_owned();
        if let Input::Reader = input {
            // As in `every_reader_gives_the_same_error`.
            got.truncate(got.rfind(" column ").unwrap());
            message.truncate(message.rfind(" column ").unwrap());
        }
        assert_eq!(got, message, "{} {input:?}", type_name::<T>());
    }
    seen();
}

#[rstest]
#[case::leaf(r#"{"leaf":{"value":"a","n":1}}"#, r#"{"leaf":{"value":"a","n":1}}"#)]
#[case::escaped(
    r#"{"le\u0061f":{"value":"a\nb\u00e9","n":-1}}"#,
    r#"{"leaf":{"value":"a\nbé","n":-1}}"#
)]
#[case::unit(r#"{"unit":null}"#, r#"{"unit":null}"#)]
#[case::nested(
    r#"{"branch":{"label":"x","kids":[{"leaf":{"value":"b","n":2}},{"branch":{"label":"y","kids":[{"probe":{"text":false}}]}}]}}"#,
    r#"{"branch":{"label":"x","kids":[{"leaf":{"value":"b","n":2}},{"branch":{"label":"y","kids":[{"probe":{"text":false}}]}}]}}"#
)]
fn external_readers_give_the_same_value(#[case] text: &str, #[case] written: &str) {
    each_wrapped!(external, same_value, text, written);
    each_wrapped!(external_fallback, same_value, text, written);
}

#[rstest]
#[case::unknown_tag(r#"{"other":{"x":[1,2]}}"#)]
#[case::empty("{}")]
fn external_fallback_gives_the_same_value(#[case] text: &str) {
    each_wrapped!(external_fallback, same_value, text, text);
}

#[rstest]
#[case::bad_body(
    r#"{"leaf":{"value":1,"n":1}}"#,
    "invalid type: integer `1`, expected a string at line 1 column 18"
)]
#[case::float_for_an_integer(
    r#"{"leaf":{"value":"a","n":1e40}}"#,
    "invalid type: floating point `1e+40`, expected i64 at line 1 column 29"
)]
#[case::missing_field(r#"{"leaf":{"value":"a"}}"#, "missing field `n` at line 1 column 21")]
#[case::bad_kid(
    r#"{"branch":{"label":"x","kids":[{"leaf":{"value":"b","n":true}}]}}"#,
    "invalid type: boolean `true`, expected i64 at line 1 column 60"
)]
#[case::kid_not_an_object(
    r#"{"branch":{"label":"x","kids":[5]}}"#,
    "invalid type: integer `5`, expected a map with a single key, the subtype tag of dyn Node at line 1 column 32"
)]
#[case::bad_json(
    r#"{"leaf":{"value":"a","n":1,}}"#,
    "trailing comma at line 1 column 28"
)]
#[case::second_entry(
    r#"{"leaf":{"value":"a","n":1},"x":1}"#,
    "invalid value: map, expected a map with a single key, the subtype tag of dyn Node at line 1 column 31"
)]
#[case::unknown_tag(
    r#"{"other":{}}"#,
    "unknown subtype tag \"other\", expected one of \"branch\", \"leaf\", \"probe\", \"unit\"; to read a type under this tag, put `#[json_subtypes(name = \"other\")]` on its `impl Node`, or read it with a `Profile` that registers it at line 1 column 8"
)]
fn external_readers_give_the_same_error(#[case] text: &str, #[case] message: &str) {
    each_wrapped!(external, same_error, text, message);
}

#[rstest]
#[case::tag_first(
    r#"{"type":"leaf","value":{"value":"a","n":1}}"#,
    r#"{"type":"leaf","value":{"value":"a","n":1}}"#
)]
#[case::content_first(
    r#"{"value":{"value":"a","n":1},"type":"leaf"}"#,
    r#"{"type":"leaf","value":{"value":"a","n":1}}"#
)]
#[case::unit_without_content(r#"{"type":"unit"}"#, r#"{"type":"unit","value":null}"#)]
#[case::nested_content_first(
    r#"{"value":{"label":"x","kids":[{"value":{"text":false},"type":"probe"},{"type":"leaf","value":{"value":"b","n":2}}]},"type":"branch"}"#,
    r#"{"type":"branch","value":{"label":"x","kids":[{"type":"probe","value":{"text":false}},{"type":"leaf","value":{"value":"b","n":2}}]}}"#
)]
#[case::unknown_tag_first(
    r#"{"type":"other","value":[1,2]}"#,
    r#"{"type":"other","value":[1,2]}"#
)]
#[case::unknown_tag_last(
    r#"{"value":[1,2],"type":"other"}"#,
    r#"{"value":[1,2],"type":"other"}"#
)]
#[case::no_tag(r#"{"value":{"n":1}}"#, r#"{"value":{"n":1}}"#)]
fn adjacent_readers_give_the_same_value(#[case] text: &str, #[case] written: &str) {
    each_wrapped!(adjacent, same_value, text, written);
}

#[rstest]
#[case::bad_body_first(
    r#"{"type":"leaf","value":{"value":1,"n":1}}"#,
    "invalid type: integer `1`, expected a string at line 1 column 33"
)]
#[case::bad_body_last(
    r#"{"value":{"value":1,"n":1},"type":"leaf"}"#,
    "invalid type: integer `1`, expected a string at line 1 column 41"
)]
#[case::float_for_an_integer_last(
    r#"{"value":{"value":"a","n":1e40},"type":"leaf"}"#,
    "invalid type: floating point `1e+40`, expected i64 at line 1 column 46"
)]
#[case::missing_field_first(
    r#"{"type":"leaf","value":{"value":"a"}}"#,
    "missing field `n` at line 1 column 36"
)]
#[case::missing_field_last(
    r#"{"value":{"value":"a"},"type":"leaf"}"#,
    "missing field `n` at line 1 column 37"
)]
#[case::duplicate_tag(
    r#"{"type":"leaf","value":{"value":"a","n":1},"type":"leaf"}"#,
    "duplicate field `type` at line 1 column 49"
)]
#[case::bad_kid(
    r#"{"type":"branch","value":{"label":"x","kids":[{"value":{"value":"b","n":true},"type":"leaf"}]}}"#,
    "invalid type: boolean `true`, expected i64 at line 1 column 92"
)]
#[case::bad_json(
    r#"{"type":"leaf","value":{"value":"a","n":1,}}"#,
    "trailing comma at line 1 column 43"
)]
#[case::unknown_tag_in_sequence_form(
    r#"["other",{}]"#,
    "unknown subtype tag \"other\", expected one of \"branch\", \"leaf\", \"probe\", \"unit\"; to read a type under this tag, put `#[json_subtypes(name = \"other\")]` on its `impl Node`, or read it with a `Profile` that registers it at line 1 column 8"
)]
fn adjacent_readers_give_the_same_error(#[case] text: &str, #[case] message: &str) {
    each_wrapped!(adjacent, same_error, text, message);
}

#[rstest]
#[case::external(r#"{"probe":{"text":false}}"#, false)]
#[case::external_in_a_branch(r#"{"branch":{"label":"x","kids":[{"probe":{"text":false}}]}}"#, true)]
fn compiled_external_registrations_read_without_erasure(
    #[case] text: &str,
    #[case] in_branch: bool,
) {
    each_wrapped!(external, native_read, text, in_branch, false);
}

// Content before the tag is replayed from our buffer, by a reader compiled
// for that replay.
#[rstest]
#[case::tag_first(r#"{"type":"probe","value":{"text":false}}"#, false, false)]
#[case::content_first(r#"{"value":{"text":false},"type":"probe"}"#, false, true)]
#[case::tag_first_in_a_branch(
    r#"{"type":"branch","value":{"label":"x","kids":[{"type":"probe","value":{"text":false}}]}}"#,
    true,
    false
)]
#[case::content_first_in_a_content_first_branch(
    r#"{"value":{"label":"x","kids":[{"value":{"text":false},"type":"probe"}]},"type":"branch"}"#,
    true,
    true
)]
fn compiled_adjacent_registrations_read_without_erasure(
    #[case] text: &str,
    #[case] in_branch: bool,
    #[case] replayed: bool,
) {
    each_wrapped!(adjacent, native_read, text, in_branch, replayed);
}

/// Whether `Probe` in `text` was handed a reader naming serde_json (the
/// compiled one) for each input: from a `&str` or `&[u8]`, or from any
/// input when `replayed` (our replay of what serde_json gave, whose
/// reader names serde_json's error whichever way serde_json read).
fn native_read<T>(text: &str, in_branch: bool, replayed: bool)
where
    T: ?Sized + WrappedNodes,
    Box<T>: DeserializeOwned,
{
    let compiled = if in_branch { T::IN_BRANCH } else { T::PROBE };
    for input in INPUTS {
        read_via::<T>(input, text).unwrap();
        let seen = seen();
        let name = type_name::<T>();
        assert_eq!(seen.len(), 1, "{name} {input:?}: {seen:?}");
        let native = compiled && (replayed || matches!(input, Input::Str | Input::Slice));
        assert_eq!(
            seen[0].contains("serde_json"),
            native,
            "{name} {input:?}: {}",
            seen[0]
        );
    }
}

/// A wrapped profile reads `Probe` by compiled code only when told
/// `compiled`, with the readers of its form (which it learns at `build`).
#[rstest]
#[case::external(true, r#"{"p":{"text":false}}"#, false)]
#[case::adjacent_tag_first(false, r#"{"kind":"p","body":{"text":false}}"#, false)]
#[case::adjacent_content_first(false, r#"{"body":{"text":false},"kind":"p"}"#, true)]
fn wrapped_profiles_read_compiled_only_the_types_they_are_told(
    #[case] external: bool,
    #[case] text: &str,
    #[case] replayed: bool,
) {
    fn case<T: ?Sized + WrappedNodes>(external: bool, text: &str, replayed: bool) {
        let canonical = match external {
            true => r#"{"p":{"text":false}}"#,
            false => r#"{"kind":"p","body":{"text":false}}"#,
        };
        for compiled in [false, true] {
            let name = type_name::<T>();
            let profile = T::probe_profile(compiled, external);
            let read = [
                profile.from_str(text),
                profile.from_slice(text.as_bytes()),
                profile.from_reader(text.as_bytes()),
            ];
            let seen_reading = seen();
            assert_eq!(seen_reading.len(), 3, "{seen_reading:?}");
            for (value, (seen, native)) in read
                .iter()
                .zip(seen_reading.iter().zip([true, true, replayed]))
            {
                assert_eq!(
                    seen.contains("serde_json"),
                    compiled && native,
                    "{name} compiled: {compiled}, {seen}"
                );
                // Every profile subtype has its writer without a tag
                // compiled for serde_json.
                let written = profile.to_string(value.as_ref().unwrap()).unwrap();
                assert_eq!(written, canonical);
                let seen = self::seen();
                assert_eq!(seen.len(), 1, "{seen:?}");
                assert!(seen[0].contains("serde_json::ser::Serializer"), "{seen:?}");
            }
        }
    }
    each_wrapped!(external, case, external, text, replayed);
    each_wrapped!(adjacent, case, external, text, replayed);
}

// Generic traits in the wrapped forms: `compiled` on the trait and on a
// generic impl's instances gives them the readers of their form.

#[json_subtypes(external, compiled)]
trait HotExternal<D: 'static>: Debug {}

#[json_subtypes(tag = "type", content = "value")]
trait ColdAdjacent<D: 'static>: Debug {}

#[json_subtypes(name = "probe", instances(u8))]
impl<D: Debug> HotExternal<D> for GenericProbe<D> {}

#[json_subtypes(name = "probe", instances(u8), compiled)]
impl<D: Debug> ColdAdjacent<D> for GenericProbe<D> {}

#[json_subtypes(name = "probe")]
impl ColdAdjacent<u32> for ProbeU32 {}

#[test]
fn compiled_applies_to_generic_traits_in_the_wrapped_forms() {
    let external = r#"{"probe":{"text":false}}"#;
    let adjacent = r#"{"type":"probe","value":{"text":false}}"#;
    assert!(compiled_read::<dyn HotExternal<u8>>(external));
    assert!(compiled_read::<dyn ColdAdjacent<u8>>(adjacent));
    assert!(!compiled_read::<dyn ColdAdjacent<u32>>(adjacent));
}
