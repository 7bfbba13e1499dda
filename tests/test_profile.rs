//! Builder-configured profiles: every option, every refusal, isolation
//! between profiles, and scopes for trait objects inside derived types.

use std::collections::HashMap;

use json_subtypes::{json_subtypes, Profile, TagPosition, Unknown};
use rstest::rstest;
use serde::de::DeserializeSeed;
use serde::{Deserialize, Serialize};

/// Not `Send`/`Sync` on purpose: profiles must be anyway.
#[json_subtypes(tag = "type")]
trait Shape: std::fmt::Debug {
    fn area(&self) -> f64;
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Circle {
    r: f64,
}

#[json_subtypes(name = "circle")]
impl Shape for Circle {
    fn area(&self) -> f64 {
        3.0 * self.r * self.r
    }
}

/// Not registered with the attribute: profiles take it anyway.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Square {
    side: f64,
}

impl Shape for Square {
    fn area(&self) -> f64 {
        self.side * self.side
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Line {
    points: Vec<(f64, f64)>,
}

impl Shape for Line {
    fn area(&self) -> f64 {
        0.0
    }
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(transparent)]
struct UnknownShape(Unknown);

impl Shape for UnknownShape {
    fn area(&self) -> f64 {
        f64::NAN
    }
}

fn v2() -> Profile<dyn Shape> {
    Profile::<dyn Shape>::builder()
        .tag("kind")
        .subtype::<Circle>("circle")
        .subtype::<Square>(2)
        .fallback::<UnknownShape>()
        .build()
        .unwrap()
}

#[test]
fn profiles_are_clone_send_sync() {
    fn check<P: Clone + Send + Sync + 'static>(_: &P) {}
    check(&v2());
}

#[rstest]
#[case(r#"{"kind":"circle","r":1.0}"#, 3.0)]
#[case(r#"{"r":1.0,"kind":"circle"}"#, 3.0)]
#[case(r#"{"kind":2,"side":2.0}"#, 4.0)]
fn reads_through_every_entry_point(#[case] text: &str, #[case] area: f64) {
    let p = v2();
    assert_eq!(p.from_str(text).unwrap().area(), area);
    assert_eq!(p.from_slice(text.as_bytes()).unwrap().area(), area);
    assert_eq!(p.from_reader(text.as_bytes()).unwrap().area(), area);
    let mut de = serde_json::Deserializer::from_str(text);
    assert_eq!(p.deserialize(&mut de).unwrap().area(), area);
    let mut de = serde_json::Deserializer::from_str(text);
    assert_eq!(p.seed().deserialize(&mut de).unwrap().area(), area);
    let value: serde_json::Value = serde_json::from_str(text).unwrap();
    assert_eq!(p.deserialize(value).unwrap().area(), area);
}

#[test]
fn writes_through_every_entry_point() {
    let p = v2();
    let square: Box<dyn Shape> = Box::new(Square { side: 2.0 });
    let text = r#"{"kind":2,"side":2.0}"#;
    assert_eq!(p.to_string(&*square).unwrap(), text);
    assert_eq!(p.to_vec(&*square).unwrap(), text.as_bytes());
    let mut out = Vec::new();
    p.to_writer(&mut out, &*square).unwrap();
    assert_eq!(out, text.as_bytes());
    assert_eq!(
        serde_json::to_string(&p.serializable(&*square)).unwrap(),
        text
    );
}

#[test]
fn unknown_tags_go_to_the_fallback_unchanged() {
    let p = v2();
    let text = r#"{"kind":"hexagon","sides":6}"#;
    let shape = p.from_str(text).unwrap();
    assert!(shape.area().is_nan());
    assert_eq!(p.to_string(&*shape).unwrap(), text);
}

/// Keys and tags of each length that a run-time table compares its own way
/// (up to 3 bytes, 4 to 8, 9 to 16, longer), each beside a near twin of the
/// same length that differs in its last byte or its second: a near twin is
/// never taken for the other, in a profile's few tags or among many
/// (hashed).
#[rstest]
#[case("k", ["ab", "aZ"])]
#[case("kind", ["abc", "abZ"])]
#[case("kind", ["abcdef", "abcdeZ"])]
#[case("tag-key-9", ["abcdefghij", "abcdefghiZ"])]
#[case("a-tag-key-longer-than-16", ["a-tag-longer-than-16", "a-tag-longer-than-1Z"])]
fn near_twin_tags_and_keys_are_told_apart(
    #[case] key: &str,
    #[case] tags: [&str; 2],
    #[values(0, 12)] others: usize,
) {
    let mut builder = Profile::<dyn Shape>::builder()
        .tag(key)
        .subtype::<Circle>(tags[0])
        .subtype::<Square>(tags[1]);
    for i in 0..others {
        builder = builder.alias::<Square>(format!("other-{i}"));
    }
    let p = builder.build().unwrap();
    let circle = format!(r#"{{"{key}":"{}","r":1.0}}"#, tags[0]);
    let square = format!(r#"{{"{key}":"{}","side":2.0}}"#, tags[1]);
    assert_eq!(p.from_str(&circle).unwrap().area(), 3.0);
    assert_eq!(p.from_str(&square).unwrap().area(), 4.0);
    assert_eq!(p.to_string(&Circle { r: 1.0 }).unwrap(), circle);
    assert_eq!(p.to_string(&Square { side: 2.0 }).unwrap(), square);
    // The key's near twin is a field like any other: the tag is missing.
    let twin_key = format!("{}Z", &key[..key.len() - 1]);
    let text = format!(r#"{{"{twin_key}":"{}","r":1.0}}"#, tags[0]);
    let err = p.from_str(&text).unwrap_err();
    let at = text.len();
    assert_eq!(
        err.to_string(),
        format!("missing field `{key}` at line 1 column {at}")
    );
    // The tag's near twin is unknown.
    let twin_tag = format!("{}Y{}", &tags[0][..1], &tags[0][2..]);
    let head = format!(r#"{{"{key}":"{twin_tag}""#);
    let err = p.from_str(&format!(r#"{head},"r":1.0}}"#)).unwrap_err();
    let expected: Vec<String> = tags
        .iter()
        .map(|t| t.to_string())
        .chain((0..others).map(|i| format!("other-{i}")))
        .map(|t| format!("{t:?}"))
        .collect();
    assert_eq!(
        err.to_string(),
        format!(
            "unknown subtype tag {twin_tag:?}, expected one of {}; to read a type under this tag, register it on the profile's builder with `.subtype::<T>({twin_tag:?})` at line 1 column {}",
            expected.join(", "),
            head.len()
        )
    );
}

#[rstest]
#[case(TagPosition::First, r#"{"kind":2,"side":2.0}"#)]
#[case(TagPosition::Last, r#"{"side":2.0,"kind":2}"#)]
#[case(TagPosition::Omit, r#"{"side":2.0}"#)]
fn tag_positions(#[case] position: TagPosition, #[case] text: &str) {
    let p = Profile::<dyn Shape>::builder()
        .tag("kind")
        .subtype::<Square>(2)
        .tag_position(position)
        .build()
        .unwrap();
    assert_eq!(p.to_string(&Square { side: 2.0 }).unwrap(), text);
    if position != TagPosition::Omit {
        assert_eq!(p.from_str(text).unwrap().area(), 4.0);
    }
}

#[test]
fn presence_only_profiles() {
    let p = Profile::<dyn Shape>::builder()
        .when_field::<Line>("points")
        .when_field::<Line>("path")
        .when_field::<Circle>("r")
        .tag_position(TagPosition::Omit)
        .build()
        .unwrap();
    assert_eq!(p.from_str(r#"{"r":1.0}"#).unwrap().area(), 3.0);
    assert_eq!(p.from_str(r#"{"points":[]}"#).unwrap().area(), 0.0);
    assert_eq!(
        p.to_string(&Line {
            points: vec![(1.0, 2.0)]
        })
        .unwrap(),
        r#"{"points":[[1.0,2.0]]}"#
    );
    let err = p.from_str(r#"{"x":1}"#).unwrap_err();
    assert_eq!(
        err.to_string(),
        "no subtype of profile of dyn Shape matches: expected one of the fields `points`, `path`, `r` at line 1 column 7"
    );
}

#[test]
fn writing_an_unknown_type_names_it() {
    let p = Profile::<dyn Shape>::builder()
        .tag("kind")
        .subtype::<Square>(2)
        .build()
        .unwrap();
    let err = p.to_string(&Circle { r: 1.0 }).unwrap_err();
    assert_eq!(
        err.to_string(),
        "cannot serialize Circle: its type is not a registered subtype of profile of dyn Shape; register it on the profile's builder with `.subtype::<Circle>(...)`"
    );
}

#[rstest]
#[case::empty(
    Profile::<dyn Shape>::builder().tag("kind").build(),
    "cannot build the profile: the profile has no subtypes; add `subtype`, `when_field` or `fallback`"
)]
#[case::tag_twice(
    Profile::<dyn Shape>::builder().tag("kind").subtype::<Circle>(1).subtype::<Square>(1).build(),
    "cannot build the profile: subtype::<Square>(1): the tag 1 is already used by Circle"
)]
#[case::type_under_two_written_tags(
    Profile::<dyn Shape>::builder().tag("kind").subtype::<Circle>("c").subtype::<Circle>("round").build(),
    r#"cannot build the profile: subtype::<Circle>("round"): Circle is already registered as "c", and only one tag is written; add the others with `.alias::<Circle>("round")`"#
)]
#[case::alias_of_an_unregistered_type(
    Profile::<dyn Shape>::builder().tag("kind").subtype::<Circle>("c").alias::<Square>("sq").build(),
    r#"cannot build the profile: alias::<Square>("sq"): Square has no tag of its own to add an alias to; register it with `.subtype::<Square>(...)`"#
)]
#[case::alias_of_a_fallback(
    Profile::<dyn Shape>::builder().tag("kind").subtype::<Circle>("c").fallback::<UnknownShape>().alias::<UnknownShape>("u").build(),
    r#"cannot build the profile: alias::<UnknownShape>("u"): UnknownShape has no tag of its own to add an alias to; register it with `.subtype::<UnknownShape>(...)`"#
)]
#[case::alias_that_is_the_types_tag(
    Profile::<dyn Shape>::builder().tag("kind").subtype::<Circle>("c").alias::<Circle>("c").build(),
    r#"cannot build the profile: alias::<Circle>("c"): "c" is already a tag of Circle"#
)]
#[case::alias_given_twice(
    Profile::<dyn Shape>::builder().tag("kind").subtype::<Circle>("c").alias::<Circle>(2).alias::<Circle>(2).build(),
    "cannot build the profile: alias::<Circle>(2): 2 is already a tag of Circle"
)]
#[case::alias_that_is_another_types_tag(
    Profile::<dyn Shape>::builder().tag("kind").subtype::<Circle>("c").subtype::<Square>("s").alias::<Circle>("s").build(),
    r#"cannot build the profile: alias::<Circle>("s"): the tag "s" is already used by Square"#
)]
#[case::alias_that_is_another_types_alias(
    Profile::<dyn Shape>::builder().tag("kind").subtype::<Circle>("c").subtype::<Square>("s").alias::<Square>(true).alias::<Circle>(true).build(),
    "cannot build the profile: alias::<Circle>(true): the tag true is already used by Square"
)]
#[case::two_fallbacks(
    Profile::<dyn Shape>::builder().tag("kind").fallback::<UnknownShape>().fallback::<Line>().build(),
    "cannot build the profile: fallback::<Line>(): the profile already has the fallback UnknownShape"
)]
#[case::tag_value_without_key(
    Profile::<dyn Shape>::builder().subtype::<Circle>("c").build(),
    r#"cannot build the profile: subtype::<Circle>("c"): a tag value needs a tag key; call `.tag("...")`"#
)]
#[case::position_without_key(
    Profile::<dyn Shape>::builder().when_field::<Line>("points").tag_position(TagPosition::Last).build(),
    r#"cannot build the profile: tag_position(Last): a profile without a tag key writes no tag; use TagPosition::Omit or call `.tag("...")`"#
)]
#[case::when_field_with_key(
    Profile::<dyn Shape>::builder().tag("kind").when_field::<Line>("points").build(),
    r#"cannot build the profile: when_field::<Line>("points"): a profile with a tag key picks subtypes by tag; remove `.tag("kind")` or use `subtype`"#
)]
#[case::several(
    Profile::<dyn Shape>::builder().tag("").subtype::<Circle>(1).subtype::<Square>(1).build(),
    "cannot build the profile:\n- tag(\"\"): the tag key cannot be empty\n- subtype::<Square>(1): the tag 1 is already used by Circle"
)]
fn build_refuses_what_it_cannot_honour(
    #[case] built: Result<Profile<dyn Shape>, json_subtypes::BuildError>,
    #[case] message: &str,
) {
    let err = built.unwrap_err();
    assert_eq!(err.to_string(), message);
    let _: &dyn std::error::Error = &err;
}

fn with_aliases(position: TagPosition) -> Profile<dyn Shape> {
    // The calls' order does not matter: `alias` may come first.
    Profile::<dyn Shape>::builder()
        .tag("kind")
        .alias::<Circle>("round")
        .subtype::<Circle>("circle")
        .alias::<Circle>(7)
        .subtype::<Square>("square")
        .alias::<Square>(false)
        .tag_position(position)
        .build()
        .unwrap()
}

#[rstest]
#[case::first_tag(r#"{"kind":"circle","r":1.0}"#, r#"{"kind":"circle","r":1.0}"#)]
#[case::string_alias(r#"{"kind":"round","r":1.0}"#, r#"{"kind":"circle","r":1.0}"#)]
#[case::int_alias_last(r#"{"r":1.0,"kind":7}"#, r#"{"kind":"circle","r":1.0}"#)]
#[case::bool_alias(r#"{"kind":false,"side":2.0}"#, r#"{"kind":"square","side":2.0}"#)]
fn aliases_are_read_and_the_first_tag_is_written(#[case] text: &str, #[case] written: &str) {
    let p = with_aliases(TagPosition::First);
    let shape = p.from_str(text).unwrap();
    assert_eq!(p.to_string(&*shape).unwrap(), written);
    let back = p.from_str(written).unwrap();
    assert_eq!(p.to_string(&*back).unwrap(), written);
    // Through a `Value`, the erased reader and writer.
    let tree = serde_json::to_value(p.serializable(&*shape)).unwrap();
    assert_eq!(tree.to_string(), written);
    assert_eq!(
        p.to_string(&*p.deserialize(tree).unwrap()).unwrap(),
        written
    );
    // The tag last reads back too.
    let last = with_aliases(TagPosition::Last);
    let text = last.to_string(&*last.from_str(text).unwrap()).unwrap();
    assert_eq!(
        last.to_string(&*last.from_str(&text).unwrap()).unwrap(),
        text
    );
}

#[test]
fn unknown_tags_list_the_aliases() {
    let err = with_aliases(TagPosition::First)
        .from_str(r#"{"kind":"disc"}"#)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"unknown subtype tag "disc", expected one of "circle", "round", 7, "square", false; to read a type under this tag, register it on the profile's builder with `.subtype::<T>("disc")` at line 1 column 14"#
    );
}

#[test]
fn an_alias_adds_to_the_tags_from_the_registry() {
    let p = Profile::<dyn Shape>::builder_from_registry()
        .alias::<Circle>("disc")
        .build()
        .unwrap();
    let shape = p.from_str(r#"{"type":"disc","r":1.0}"#).unwrap();
    assert_eq!(
        p.to_string(&*shape).unwrap(),
        r#"{"type":"circle","r":1.0}"#
    );
    assert_eq!(
        p.from_str(r#"{"type":"circle","r":1.0}"#).unwrap().area(),
        3.0
    );
}

#[test]
fn read_only_aliases_with_omitted_tags() {
    let p = Profile::<dyn Shape>::builder()
        .tag("kind")
        .subtype::<Circle>("c")
        .subtype::<Circle>("round")
        .tag_position(TagPosition::Omit)
        .build()
        .unwrap();
    assert_eq!(
        p.from_str(r#"{"kind":"round","r":1.0}"#).unwrap().area(),
        3.0
    );
    assert_eq!(p.from_str(r#"{"kind":"c","r":1.0}"#).unwrap().area(), 3.0);
}

#[test]
fn builder_from_registry_starts_from_the_attributes() {
    let p = Profile::<dyn Shape>::builder_from_registry()
        .tag("shape")
        .subtype::<Square>("square")
        .build()
        .unwrap();
    assert_eq!(
        p.from_str(r#"{"shape":"circle","r":1.0}"#).unwrap().area(),
        3.0
    );
    assert_eq!(
        p.to_string(&Circle { r: 1.0 }).unwrap(),
        r#"{"shape":"circle","r":1.0}"#
    );
    // Re-registering a type gives it the new tag.
    let p = Profile::<dyn Shape>::builder_from_registry()
        .subtype::<Circle>("round")
        .build()
        .unwrap();
    assert_eq!(
        p.to_string(&Circle { r: 1.0 }).unwrap(),
        r#"{"type":"round","r":1.0}"#
    );
}

// ---------------------------------------------------------------------------
// The public bounds, and the names renamed in 0.1.0.

/// A user's helpers, generic over what the builder and the writers need.
fn tagged_with<C>(tag: &str) -> Profile<dyn Shape>
where
    C: Serialize + serde::de::DeserializeOwned + 'static,
    dyn Shape: json_subtypes::Upcast<C>,
{
    Profile::<dyn Shape>::builder()
        .tag("kind")
        .subtype::<C>(tag)
        .build()
        .unwrap()
}

fn written<T: ?Sized + json_subtypes::Subtype>(profile: &Profile<T>, value: &T) -> String {
    profile.to_string(value).unwrap()
}

fn registry_is_clean<T: ?Sized + json_subtypes::Registered + 'static>() -> bool {
    json_subtypes::verify_registry::<T>().is_ok()
}

#[test]
fn the_public_bounds_can_be_named_in_generic_code() {
    let p = tagged_with::<Square>("sq");
    let square = p.from_str(r#"{"kind":"sq","side":2.0}"#).unwrap();
    assert_eq!(square.area(), 4.0);
    assert_eq!(written(&p, &*square), r#"{"kind":"sq","side":2.0}"#);
    assert!(registry_is_clean::<dyn Shape>());
    // `serializable` returns a `Profiled`, which serializes with the profile.
    let profiled: json_subtypes::Profiled<'_, dyn Shape> = p.serializable(&*square);
    assert_eq!(
        serde_json::to_value(&profiled).unwrap(),
        serde_json::json!({"kind": "sq", "side": 2.0})
    );
}

// ---------------------------------------------------------------------------
// Isolation.

fn other_key() -> Profile<dyn Shape> {
    Profile::<dyn Shape>::builder()
        .tag("t")
        .subtype::<Square>("circle")
        .subtype::<Circle>("square")
        .build()
        .unwrap()
}

fn same_key_swapped() -> Profile<dyn Shape> {
    Profile::<dyn Shape>::builder()
        .tag("kind")
        .subtype::<Square>("circle")
        .subtype::<Circle>(2)
        .build()
        .unwrap()
}

fn check_isolation(a: &Profile<dyn Shape>, b: &Profile<dyn Shape>, c: &Profile<dyn Shape>, i: u32) {
    let side = f64::from(i % 7 + 1);
    // Same text, three readings.
    let text = format!(r#"{{"kind":"circle","r":{side},"side":{side}}}"#);
    assert_eq!(a.from_str(&text).unwrap().area(), 3.0 * side * side);
    assert_eq!(c.from_str(&text).unwrap().area(), side * side);
    assert!(b.from_str(&text).is_err(), "b has no `kind` tag");
    let text = format!(r#"{{"t":"circle","side":{side}}}"#);
    assert_eq!(b.from_str(&text).unwrap().area(), side * side);
    // Writing: each its own tags.
    let square = Square { side };
    assert_eq!(
        a.to_string(&square).unwrap(),
        format!(r#"{{"kind":2,"side":{side:?}}}"#)
    );
    assert_eq!(
        b.to_string(&square).unwrap(),
        format!(r#"{{"t":"circle","side":{side:?}}}"#)
    );
    assert_eq!(
        c.to_string(&square).unwrap(),
        format!(r#"{{"kind":"circle","side":{side:?}}}"#)
    );
    // The attribute registry is untouched.
    let shape: Box<dyn Shape> = serde_json::from_str(r#"{"type":"circle","r":1.0}"#).unwrap();
    assert_eq!(shape.area(), 3.0);
}

#[test]
fn profiles_never_see_each_other_in_one_thread() {
    let (a, b, c) = (v2(), other_key(), same_key_swapped());
    for i in 0..100 {
        check_isolation(&a, &b, &c, i);
    }
}

#[test]
#[cfg_attr(
    miri,
    ignore = "thousands of reads on many threads: too slow under Miri"
)]
fn profiles_never_see_each_other_across_threads() {
    let (a, b, c) = (v2(), other_key(), same_key_swapped());
    std::thread::scope(|s| {
        for t in 0..8 {
            let (a, b, c) = (a.clone(), b.clone(), c.clone());
            s.spawn(move || {
                for i in 0..1000 {
                    check_isolation(&a, &b, &c, i + t);
                }
            });
        }
    });
}

// ---------------------------------------------------------------------------
// Scopes.

#[derive(Debug, Serialize, Deserialize)]
struct Drawing {
    main: Box<dyn Shape>,
    shapes: Vec<Box<dyn Shape>>,
    maybe: Option<Box<dyn Shape>>,
    named: HashMap<String, Box<dyn Shape>>,
}

#[test]
fn scope_reaches_inside_derived_types() {
    let text = r#"{"main":{"kind":2,"side":1.0},"shapes":[{"r":1.0,"kind":"circle"}],"maybe":null,"named":{"a":{"kind":2,"side":3.0}}}"#;
    let p = v2();
    let drawing: Drawing = p.scope(|| serde_json::from_str(text)).unwrap();
    assert_eq!(drawing.main.area(), 1.0);
    assert_eq!(drawing.shapes[0].area(), 3.0);
    assert_eq!(drawing.named["a"].area(), 9.0);
    let written = p.scope(|| serde_json::to_string(&drawing)).unwrap();
    assert!(written
        .starts_with(r#"{"main":{"kind":2,"side":1.0},"shapes":[{"kind":"circle","r":1.0}]"#));
    // Outside the scope, the attribute registry is back.
    assert!(serde_json::from_str::<Drawing>(text).is_err());
}

#[test]
fn scopes_nest_and_restore() {
    let (a, b) = (v2(), other_key());
    let read = |text: &str| serde_json::from_str::<Box<dyn Shape>>(text).map(|s| s.area());
    a.scope(|| {
        assert_eq!(read(r#"{"kind":2,"side":2.0}"#).unwrap(), 4.0);
        b.scope(|| {
            assert_eq!(read(r#"{"t":"circle","side":2.0}"#).unwrap(), 4.0);
            assert!(read(r#"{"kind":2,"side":2.0}"#).is_err());
        });
        assert_eq!(read(r#"{"kind":2,"side":2.0}"#).unwrap(), 4.0);
    });
    assert_eq!(read(r#"{"type":"circle","r":1.0}"#).unwrap(), 3.0);
}

#[test]
fn scopes_restore_after_a_panic() {
    let p = v2();
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        p.scope(|| panic!("inside the scope"));
    }));
    assert!(caught.is_err());
    let shape: Box<dyn Shape> = serde_json::from_str(r#"{"type":"circle","r":1.0}"#).unwrap();
    assert_eq!(shape.area(), 3.0);
}

#[json_subtypes(tag = "type")]
trait Pen: std::fmt::Debug {
    fn width(&self) -> u8;
}

#[derive(Debug, Serialize, Deserialize)]
struct Thin {}

impl Pen for Thin {
    fn width(&self) -> u8 {
        1
    }
}

#[derive(Debug, Serialize, Deserialize)]
struct Sketch {
    pen: Box<dyn Pen>,
    shape: Box<dyn Shape>,
}

#[test]
fn scopes_of_several_traits_combine() {
    let pens = Profile::<dyn Pen>::builder()
        .tag("pen")
        .subtype::<Thin>("thin")
        .build()
        .unwrap();
    let shapes = v2();
    let sketch: Sketch = pens
        .scope(|| {
            shapes.scope(|| {
                serde_json::from_str(r#"{"pen":{"pen":"thin"},"shape":{"kind":2,"side":1.0}}"#)
            })
        })
        .unwrap();
    assert_eq!(sketch.pen.width(), 1);
    assert_eq!(sketch.shape.area(), 1.0);
}
