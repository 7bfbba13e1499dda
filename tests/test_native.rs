//! Trait objects read from a `&str` or `&[u8]` with serde_json, and written
//! to a `Vec<u8>` with its compact writer, run code compiled for serde_json;
//! every other reader and writer goes through the erased path. Both paths
//! must give the same values and the same errors.

use std::any::type_name;
use std::borrow::Cow;
use std::cell::RefCell;
use std::fmt::Debug;
use std::io::Cursor;

use json_subtypes::{json_subtypes, Profile, TagPosition, Unknown};
use rstest::rstest;
use serde::de::Deserializer;
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};

#[json_subtypes(tag = "type")]
trait Node: Debug {
    fn size(&self) -> usize;
}

#[derive(Debug, Serialize, Deserialize)]
struct Leaf {
    value: String,
    n: i64,
}

#[json_subtypes(name = "leaf")]
impl Node for Leaf {
    fn size(&self) -> usize {
        1
    }
}

#[derive(Debug, Serialize, Deserialize)]
struct Branch {
    label: Cow<'static, str>,
    kids: Vec<Box<dyn Node>>,
}

#[json_subtypes(name = 7)]
impl Node for Branch {
    fn size(&self) -> usize {
        1 + self.kids.iter().map(|k| k.size()).sum::<usize>()
    }
}

#[derive(Debug, Serialize, Deserialize)]
struct Flag {
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
struct OtherNode(Unknown);

#[json_subtypes(fallback)]
impl Node for OtherNode {
    fn size(&self) -> usize {
        0
    }
}

thread_local! {
    /// The reader and writer types `Probe` was handed, in order.
    static SEEN: RefCell<Vec<&'static str>> = const { RefCell::new(Vec::new()) };
}

fn seen() -> Vec<&'static str> {
    SEEN.with(|s| s.borrow_mut().split_off(0))
}

/// Records the type of the reader or writer it is handed.
#[derive(Debug)]
struct Probe {
    text: bool,
}

#[derive(Serialize, Deserialize)]
struct ProbeBody {
    text: bool,
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

#[json_subtypes(name = "probe")]
impl Node for Probe {
    fn size(&self) -> usize {
        1
    }
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

fn read_via(input: Input, text: &str) -> Result<Box<dyn Node>, String> {
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
#[case::fallback(r#"{"type":"other","x":[1,2]}"#, r#"{"type":"other","x":[1,2]}"#)]
#[case::no_tag(r#"{"x":{"y":null}}"#, r#"{"x":{"y":null}}"#)]
fn every_reader_and_writer_gives_the_same_value(#[case] text: &str, #[case] written: &str) {
    for input in INPUTS {
        let value = read_via(input, text).unwrap_or_else(|e| panic!("{input:?}: {e}"));
        for output in OUTPUTS {
            assert_eq!(
                write_via(output, &value).as_deref(),
                Ok(written),
                "{input:?} then {output:?}"
            );
        }
        // And what was written reads back the same way.
        let back = read_via(input, written).unwrap();
        assert_eq!(serde_json::to_string(&back).unwrap(), written);
    }
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
#[case::bad_json(
    r#"{"type":"leaf","value":"a","n":1,}"#,
    "trailing comma at line 1 column 34"
)]
#[case::unknown_tag_in_sequence_form(
    r#"[1]"#,
    "unknown subtype tag 1, expected one of 7, true, \"leaf\", \"probe\"; to read a type under this tag, put `#[json_subtypes(name = 1)]` on its `impl Node`, or read it with a `Profile` that registers it at line 1 column 2"
)]
fn every_reader_gives_the_same_error(#[case] text: &str, #[case] message: &str) {
    for input in INPUTS {
        let mut got = read_via(input, text).unwrap_err();
        let mut message = message.to_owned();
        if let Input::Reader = input {
            // serde_json's `io::Read` reader has looked a byte further for
            // some errors, whatever is read: its columns are its own.
            got.truncate(got.rfind(" column ").unwrap());
            message.truncate(message.rfind(" column ").unwrap());
        }
        assert_eq!(got, message, "{input:?}");
    }
}

#[rstest]
#[case::tag_first(r#"{"type":"probe","text":false}"#)]
#[case::tag_last(r#"{"text":false,"type":"probe"}"#)]
#[case::inside_a_tag_first_parent(
    r#"{"type":7,"label":"x","kids":[{"type":"probe","text":false}]}"#
)]
// The child is buffered with the parent's prefix and replayed from there.
#[case::inside_a_tag_last_parent(
    r#"{"label":"x","kids":[{"text":false,"type":"probe"}],"type":7}"#
)]
fn str_and_slice_input_reach_the_payload_without_erasure(#[case] text: &str) {
    for input in INPUTS {
        read_via(input, text).unwrap();
        let seen = seen();
        assert_eq!(seen.len(), 1, "{input:?}: {seen:?}");
        // The compiled reader hands the payload our reader over serde_json's
        // own map access; the erased one a reader that names no format.
        let native = matches!(input, Input::Str | Input::Slice);
        assert_eq!(
            seen[0].contains("serde_json"),
            native,
            "{input:?}: {}",
            seen[0]
        );
    }
}

#[test]
fn a_vec_writer_reaches_the_payload_without_erasure() {
    let value: Box<dyn Node> = Box::new(Probe { text: false });
    for output in OUTPUTS {
        write_via(output, &value).unwrap();
        let seen = seen();
        assert_eq!(seen.len(), 1, "{output:?}: {seen:?}");
        let native = matches!(output, Output::String | Output::Vec | Output::WriterIntoVec);
        assert_eq!(
            seen[0].contains("serde_json::ser::Serializer"),
            native,
            "{output:?}: {}",
            seen[0]
        );
    }
}

#[test]
fn write_errors_are_the_same_on_every_writer() {
    let value: Box<dyn Node> = Box::new(Probe { text: true });
    for output in OUTPUTS {
        assert_eq!(
            write_via(output, &value).unwrap_err(),
            "cannot serialize Probe as a subtype of dyn Node: it is a string, not a map or struct",
            "{output:?}"
        );
    }
    seen();
}

#[test]
fn pretty_output_goes_through_the_erased_path_unchanged() {
    let value = read_via(
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
    let value: Box<dyn Node> = serde_json::from_str(&text).unwrap();
    text.clear();
    text.push_str("overwritten");
    drop(text);
    assert_eq!(value.size(), 1);
    assert_eq!(
        serde_json::to_string(&value).unwrap(),
        r#"{"type":7,"label":"borrowed?","kids":[]}"#
    );
}

fn profile(position: TagPosition) -> Profile<dyn Node> {
    Profile::<dyn Node>::builder()
        .tag("kind")
        .subtype::<Leaf>("l")
        .subtype::<Flag>(-3)
        .fallback::<OtherNode>()
        .tag_position(position)
        .build()
        .unwrap()
}

#[rstest]
#[case(TagPosition::First, r#"{"kind":"l","value":"a","n":1}"#)]
#[case(TagPosition::Last, r#"{"value":"a","n":1,"kind":"l"}"#)]
#[case(TagPosition::Omit, r#"{"value":"a","n":1}"#)]
fn profiles_agree_on_every_path(#[case] position: TagPosition, #[case] written: &str) {
    let profile = profile(position);
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
