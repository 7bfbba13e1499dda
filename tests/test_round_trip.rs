//! Whatever reads successfully writes successfully and reads back equal,
//! for enums, trait objects and profiles with aliases and `visible`: every
//! object built from a set of tag values (each tag, each alias, tags of
//! other subtypes, unknown ones, other kinds), payload fields, and the
//! tag's position among them is read; each value read is written, read
//! again and compared, through text and through `serde_json::Value`.

use std::fmt::Debug;

use json_subtypes::{json_subtypes, Profile, TagPosition, Unknown};
use rstest::rstest;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// `visible`, integer tags with aliases.
#[json_subtypes(tag = "version", visible)]
#[derive(Debug, Clone, PartialEq)]
enum Doc {
    #[json_subtypes(name = 1)]
    One { version: u32, title: String },
    #[json_subtypes(name = 2, alias = 20, alias = 21)]
    Two { version: u32, title: String },
    /// Without the field: the first tag is written.
    #[json_subtypes(name = 3, alias = 30)]
    Three { title: String },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Disc {
    r#type: String,
    r: u8,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Side {
    side: u8,
}

/// `visible`, string tags with aliases, every kind of variant, a fallback.
#[json_subtypes(tag = "type", visible)]
#[derive(Debug, Clone, PartialEq)]
enum Round {
    #[json_subtypes(name = "circle", alias = "round")]
    Circle { r#type: String, r: u8 },
    #[json_subtypes(name = "disc", alias = "disk")]
    Disc(Disc),
    #[json_subtypes(alias = "sq")]
    Square(Side),
    #[json_subtypes(alias = "nothing")]
    Unit,
    #[json_subtypes(fallback)]
    Other(Unknown),
}

/// `visible` over tags of three kinds, held by a field of any kind.
#[json_subtypes(tag = "kind", visible)]
#[derive(Debug, Clone, PartialEq)]
enum Mixed {
    #[json_subtypes(name = "a", alias = 1, alias = true)]
    A { kind: Value, n: u8 },
    #[json_subtypes(name = -1, alias = "minus")]
    B { n: u8 },
}

/// Aliases without `visible`: the first tag is written.
#[json_subtypes(tag = "type", rename_all = "lowercase")]
#[derive(Debug, Clone, PartialEq)]
enum Plain {
    #[json_subtypes(alias = "round", alias = 0)]
    Circle { r: u8 },
    #[json_subtypes(alias = "sq")]
    Square(Side),
}

#[json_subtypes(tag = "type", visible)]
trait Widget: Debug {}

#[derive(Debug, Serialize, Deserialize)]
struct Slider {
    r#type: String,
    size: u8,
}

#[json_subtypes(name = "slider", alias = "range", alias = 9)]
impl Widget for Slider {}

#[derive(Debug, Serialize, Deserialize)]
struct Label {
    size: u8,
}

#[json_subtypes(name = "label", alias = "text")]
impl Widget for Label {}

/// Aliases without `visible`, and a fallback.
#[json_subtypes(tag = "type")]
trait Gadget: Debug {}

#[json_subtypes(name = "label", alias = "text", alias = false)]
impl Gadget for Label {}

#[derive(Debug, Serialize, Deserialize)]
#[serde(transparent)]
struct OtherGadget(Unknown);

#[json_subtypes(fallback)]
impl Gadget for OtherGadget {}

fn visible_profile(position: TagPosition) -> Profile<dyn Widget> {
    Profile::<dyn Widget>::builder()
        .tag("type")
        .subtype::<Slider>("big")
        .alias::<Slider>("large")
        .alias::<Slider>(9)
        .subtype::<Label>("label")
        .alias::<Label>("text")
        .visible(true)
        .tag_position(position)
        .build()
        .unwrap()
}

fn gadget_profile(position: TagPosition) -> Profile<dyn Gadget> {
    Profile::<dyn Gadget>::builder_from_registry()
        .alias::<Label>(4)
        .tag_position(position)
        .build()
        .unwrap()
}

/// Every object with the tag `key` set to one of `tags`, beside one of
/// `fields` (each a list of entries), at every position among them; and
/// each list of fields without the tag. Some do not read (an alias that a
/// `String` field cannot hold, as `9`): those only must not panic.
fn objects(key: &str, tags: &[Value], fields: &[Value]) -> Vec<(Option<Value>, String)> {
    let mut out = Vec::new();
    for entries in fields {
        let entries = entries.as_object().unwrap();
        out.push((None, Value::Object(entries.clone()).to_string()));
        for tag in tags {
            for at in 0..=entries.len() {
                let mut object = serde_json::Map::new();
                for (i, (k, v)) in entries.iter().enumerate() {
                    if i == at {
                        object.insert(key.to_owned(), tag.clone());
                    }
                    object.insert(k.clone(), v.clone());
                }
                if at == entries.len() {
                    object.insert(key.to_owned(), tag.clone());
                }
                out.push((Some(tag.clone()), Value::Object(object).to_string()));
            }
        }
    }
    out
}

/// One input through `T`: `true` if it reads, and then it must write and
/// read back equal, through text and through a `Value`.
fn enum_holds<T>(text: &str) -> bool
where
    T: Serialize + DeserializeOwned + PartialEq + Debug,
{
    let Ok(value) = serde_json::from_str::<T>(text) else {
        return false;
    };
    let written = serde_json::to_string(&value)
        .unwrap_or_else(|e| panic!("{text} reads as {value:?}, which does not write: {e}"));
    let back: T = serde_json::from_str(&written)
        .unwrap_or_else(|e| panic!("{text} is written as {written}, which does not read: {e}"));
    assert_eq!(back, value, "{text} is written as {written}");
    let tree = serde_json::to_value(&value)
        .unwrap_or_else(|e| panic!("{text} reads as {value:?}, which does not write a Value: {e}"));
    assert_eq!(serde_json::from_value::<T>(tree).unwrap(), value, "{text}");
    true
}

/// `enum_holds` for a trait object or a profile, whose values are compared
/// by what they write.
fn object_holds<B: Debug>(
    text: &str,
    read: impl Fn(&str) -> serde_json::Result<B>,
    from_value: impl Fn(Value) -> serde_json::Result<B>,
    write: impl Fn(&B) -> serde_json::Result<String>,
    to_value: impl Fn(&B) -> serde_json::Result<Value>,
) -> bool {
    let Ok(value) = read(text) else {
        return false;
    };
    let written = write(&value)
        .unwrap_or_else(|e| panic!("{text} reads as {value:?}, which does not write: {e}"));
    let back = read(&written)
        .unwrap_or_else(|e| panic!("{text} is written as {written}, which does not read: {e}"));
    assert_eq!(write(&back).unwrap(), written, "{text}");
    let tree = to_value(&value).unwrap();
    assert_eq!(tree.to_string(), written, "{text}");
    assert_eq!(
        write(&from_value(tree).unwrap()).unwrap(),
        written,
        "{text}"
    );
    true
}

fn widget_holds(text: &str) -> bool {
    object_holds(
        text,
        |t| serde_json::from_str::<Box<dyn Widget>>(t),
        serde_json::from_value::<Box<dyn Widget>>,
        serde_json::to_string,
        |b| serde_json::to_value(b),
    )
}

fn gadget_holds(text: &str) -> bool {
    object_holds(
        text,
        |t| serde_json::from_str::<Box<dyn Gadget>>(t),
        serde_json::from_value::<Box<dyn Gadget>>,
        serde_json::to_string,
        |b| serde_json::to_value(b),
    )
}

fn profile_holds<T: ?Sized + json_subtypes::Subtype + Debug>(
    profile: &Profile<T>,
    text: &str,
) -> bool {
    object_holds(
        text,
        |t| profile.from_str(t),
        |v| profile.deserialize(v),
        |b| profile.to_string(&**b),
        |b| serde_json::to_value(profile.serializable(&**b)),
    )
}

fn visible_first(text: &str) -> bool {
    profile_holds(&visible_profile(TagPosition::First), text)
}

fn visible_last(text: &str) -> bool {
    profile_holds(&visible_profile(TagPosition::Last), text)
}

fn gadgets_first(text: &str) -> bool {
    profile_holds(&gadget_profile(TagPosition::First), text)
}

fn gadgets_last(text: &str) -> bool {
    profile_holds(&gadget_profile(TagPosition::Last), text)
}

fn int_tags() -> Vec<Value> {
    [1, 2, 20, 21, 3, 30, 4, -1]
        .into_iter()
        .map(Value::from)
        .chain([json!("2"), json!(true), json!(null), json!(2.0)])
        .collect()
}

fn string_tags() -> Vec<Value> {
    [
        "circle", "round", "disc", "disk", "Square", "square", "sq", "Unit", "nothing", "label",
        "text", "slider", "range", "big", "large", "x",
    ]
    .into_iter()
    .map(Value::from)
    .chain([json!(0), json!(4), json!(9), json!(false), json!(null)])
    .collect()
}

fn mixed_tags() -> Vec<Value> {
    vec![
        json!("a"),
        json!(1),
        json!(true),
        json!(-1),
        json!("minus"),
        json!(false),
        json!("1"),
    ]
}

fn doc_fields() -> Vec<Value> {
    vec![
        json!({}),
        json!({"title": "t"}),
        json!({"title": "t", "extra": [1]}),
    ]
}

fn shape_fields() -> Vec<Value> {
    vec![
        json!({}),
        json!({"r": 1}),
        json!({"side": 3}),
        json!({"size": 2}),
        json!({"r": 1, "side": 3, "size": 2}),
    ]
}

fn mixed_fields() -> Vec<Value> {
    vec![json!({}), json!({"n": 1})]
}

#[rstest]
#[case::visible_int_enum(enum_holds::<Doc>, "version", int_tags(), doc_fields(), &[json!(1), json!(2), json!(20), json!(21), json!(3), json!(30)])]
#[case::visible_string_enum(enum_holds::<Round>, "type", string_tags(), shape_fields(), &[json!("circle"), json!("round"), json!("disc"), json!("disk"), json!("Square"), json!("sq"), json!("Unit"), json!("nothing"), json!("x")])]
#[case::visible_mixed_enum(enum_holds::<Mixed>, "kind", mixed_tags(), mixed_fields(), &[json!("a"), json!(1), json!(true), json!(-1), json!("minus")])]
#[case::hidden_enum(enum_holds::<Plain>, "type", string_tags(), shape_fields(), &[json!("circle"), json!("round"), json!(0), json!("square"), json!("sq")])]
#[case::visible_trait(widget_holds, "type", string_tags(), shape_fields(), &[json!("slider"), json!("range"), json!("label"), json!("text")])]
#[case::hidden_trait(gadget_holds, "type", string_tags(), shape_fields(), &[json!("label"), json!("text"), json!(false), json!("x")])]
#[case::visible_profile_tag_first(visible_first, "type", string_tags(), shape_fields(), &[json!("big"), json!("large"), json!("label"), json!("text")])]
#[case::visible_profile_tag_last(visible_last, "type", string_tags(), shape_fields(), &[json!("big"), json!("large"), json!("label"), json!("text")])]
#[case::hidden_profile_tag_first(gadgets_first, "type", string_tags(), shape_fields(), &[json!("label"), json!("text"), json!(false), json!(4), json!("x")])]
#[case::hidden_profile_tag_last(gadgets_last, "type", string_tags(), shape_fields(), &[json!("label"), json!("text"), json!(false), json!(4), json!("x")])]
fn what_reads_writes_and_reads_back_equal(
    #[case] holds: fn(&str) -> bool,
    #[case] key: &str,
    #[case] tags: Vec<Value>,
    #[case] fields: Vec<Value>,
    #[case] read_somewhere: &[Value],
) {
    let mut read = Vec::new();
    for (tag, text) in objects(key, &tags, &fields) {
        if holds(&text) {
            read.extend(tag);
        }
    }
    // Not vacuous: every tag, alias and fallback case was read at least once.
    for tag in read_somewhere {
        assert!(read.contains(tag), "no object with the tag {tag} read");
    }
}
