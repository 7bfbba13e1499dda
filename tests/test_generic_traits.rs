//! Generic traits and generic impls: each instantiation of a generic trait
//! (`dyn Strategy<f64>`, `dyn Strategy<f32>`) has a registry of its own,
//! which impls of that instantiation and the listed instances of generic
//! impls register in; a generic impl of a plain trait registers each
//! instance under its own tag. Read, written and read back for each.

use std::fmt::Debug;
use std::marker::PhantomData;

use json_subtypes::{json_subtypes, verify_registry, Profile, TagPosition, Tagged, Unknown};
use rstest::rstest;
use serde::{Deserialize, Serialize};

// ---------------------------------------------------------------------------
// One trait, two instantiations in one program.

#[json_subtypes(tag = "type")]
trait Strategy<D: 'static>: Debug {
    fn apply(&self, x: D) -> D;
}

/// In `dyn Strategy<f64>` only.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Linear {
    slope: f64,
}

#[json_subtypes(name = "linear", alias = "lin")]
impl Strategy<f64> for Linear {
    fn apply(&self, x: f64) -> f64 {
        self.slope * x
    }
}

/// In `dyn Strategy<f32>` only, with an int tag.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Halve {}

#[json_subtypes(name = 7)]
impl Strategy<f32> for Halve {
    fn apply(&self, x: f32) -> f32 {
        x / 2.0
    }
}

/// One type in both, under one name: two registrations, no collision.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Identity {}

#[json_subtypes(name = "identity")]
impl Strategy<f64> for Identity {
    fn apply(&self, x: f64) -> f64 {
        x
    }
}

#[json_subtypes(name = "identity")]
impl Strategy<f32> for Identity {
    fn apply(&self, x: f32) -> f32 {
        x
    }
}

/// A generic impl, registered for both.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Clamp<D> {
    lo: D,
    hi: D,
}

/// Its bounds need not say `Serialize + 'static`, which registered types
/// are: each instance is checked for it.
#[json_subtypes(name = "clamp", instances(f32, f64))]
impl<D> Strategy<D> for Clamp<D>
where
    D: PartialOrd + Copy + Debug,
{
    fn apply(&self, x: D) -> D {
        if x < self.lo {
            self.lo
        } else if x > self.hi {
            self.hi
        } else {
            x
        }
    }
}

/// `dyn Strategy<f64>`'s fallback; `dyn Strategy<f32>` has none.
#[derive(Debug, Serialize, Deserialize)]
#[serde(transparent)]
struct OtherF64(Unknown);

#[json_subtypes(fallback)]
impl Strategy<f64> for OtherF64 {
    fn apply(&self, x: f64) -> f64 {
        x
    }
}

/// Generic code reads any instantiation.
fn read<D: 'static>(text: &str) -> Box<dyn Strategy<D>> {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[rstest]
#[case::tag_first(r#"{"type":"linear","slope":2.0}"#, 1.5, 3.0)]
#[case::tag_last(r#"{"slope":2.0,"type":"linear"}"#, 1.5, 3.0)]
#[case::alias(r#"{"type":"lin","slope":2.0}"#, 1.5, 3.0)]
#[case::both_instantiations(r#"{"type":"identity"}"#, 1.5, 1.5)]
#[case::clamp(r#"{"type":"clamp","lo":0.0,"hi":1.0}"#, 3.0, 1.0)]
#[case::clamp_tag_last(r#"{"lo":0.0,"hi":1.0,"type":"clamp"}"#, -3.0, 0.0)]
#[case::fallback(r#"{"type":"spline","knots":[1,2]}"#, 1.5, 1.5)]
#[case::fallback_without_tag(r#"{"knots":[1,2]}"#, 1.5, 1.5)]
fn reads_f64_strategies(#[case] text: &str, #[case] x: f64, #[case] y: f64) {
    assert_eq!(read::<f64>(text).apply(x), y);
}

#[rstest]
#[case::int_tag(r#"{"type":7}"#, 3.0, 1.5)]
#[case::both_instantiations(r#"{"type":"identity"}"#, 1.5, 1.5)]
#[case::clamp(r#"{"type":"clamp","lo":0.0,"hi":1.0}"#, 3.0, 1.0)]
#[case::clamp_tag_last(r#"{"hi":1.0,"lo":0.5,"type":"clamp"}"#, 0.0, 0.5)]
fn reads_f32_strategies(#[case] text: &str, #[case] x: f32, #[case] y: f32) {
    assert_eq!(read::<f32>(text).apply(x), y);
}

#[rstest]
#[case(Box::new(Linear { slope: 2.0 }) as Box<dyn Strategy<f64>>, r#"{"type":"linear","slope":2.0}"#)]
#[case(Box::new(Identity {}), r#"{"type":"identity"}"#)]
#[case(Box::new(Clamp { lo: 0.5f64, hi: 1.0 }), r#"{"type":"clamp","lo":0.5,"hi":1.0}"#)]
#[case(Box::new(OtherF64(serde_json::from_str(r#"{"knots":[1],"type":"spline"}"#).unwrap())), r#"{"knots":[1],"type":"spline"}"#)]
fn writes_f64_strategies_and_round_trips(
    #[case] value: Box<dyn Strategy<f64>>,
    #[case] text: &str,
) {
    assert_eq!(serde_json::to_string(&value).unwrap(), text);
    let back = read::<f64>(text);
    assert_eq!(serde_json::to_string(&back).unwrap(), text);
    let by_ref: &dyn Strategy<f64> = &*back;
    assert_eq!(serde_json::to_string(by_ref).unwrap(), text);
}

#[rstest]
#[case(Box::new(Halve {}) as Box<dyn Strategy<f32>>, r#"{"type":7}"#)]
#[case(Box::new(Identity {}), r#"{"type":"identity"}"#)]
#[case(Box::new(Clamp { lo: 0.5f32, hi: 1.0 }), r#"{"type":"clamp","lo":0.5,"hi":1.0}"#)]
fn writes_f32_strategies_and_round_trips(
    #[case] value: Box<dyn Strategy<f32>>,
    #[case] text: &str,
) {
    assert_eq!(serde_json::to_string(&value).unwrap(), text);
    let back = read::<f32>(text);
    assert_eq!(serde_json::to_string(&back).unwrap(), text);
}

#[test]
fn each_instantiation_has_a_clean_registry_of_its_own() {
    verify_registry::<dyn Strategy<f64>>().unwrap();
    verify_registry::<dyn Strategy<f32>>().unwrap();
}

#[rstest]
#[case::other_instantiations_tag(
    r#"{"type":"linear","slope":2.0}"#,
    r#"unknown subtype tag "linear", expected one of "clamp", 7, "identity"; to read a type under this tag, put `#[json_subtypes(name = "linear")]` on its `impl Strategy<f32>`, or read it with a `Profile` that registers it at line 1 column 16"#
)]
#[case::no_fallback_here(r#"{"by":2.0}"#, r#"missing field `type` at line 1 column 10"#)]
#[case::bad_body(
    r#"{"type":"clamp","lo":"low","hi":1.0}"#,
    r#"invalid type: string "low", expected f32 at line 1 column 26"#
)]
#[case::bad_body_tag_last(
    r#"{"lo":"low","hi":1.0,"type":"clamp"}"#,
    r#"invalid type: string "low", expected f32 at line 1 column 36"#
)]
#[case::duplicate_tag(
    r#"{"type":"identity","type":7}"#,
    "duplicate field `type` at line 1 column 25"
)]
fn f32_errors(#[case] text: &str, #[case] message: &str) {
    let err = serde_json::from_str::<Box<dyn Strategy<f32>>>(text).unwrap_err();
    assert_eq!(err.to_string(), message);
}

#[test]
fn an_instantiation_without_registrations_says_so() {
    let err = serde_json::from_str::<Box<dyn Strategy<u8>>>(r#"{"type":"identity"}"#).unwrap_err();
    assert_eq!(
        err.to_string(),
        "no subtypes are registered for dyn Strategy<u8> (none were found at run time; inventory registers nothing on platforms without static constructors)"
    );
    let err = verify_registry::<dyn Strategy<u8>>().unwrap_err();
    assert_eq!(
        err.to_string(),
        "the registry of dyn Strategy<u8> has problems:\n- no subtypes are registered for dyn Strategy<u8> (none were found at run time; inventory registers nothing on platforms without static constructors)"
    );
}

#[test]
fn unregistered_types_are_an_error_on_write() {
    #[derive(Debug, Serialize)]
    struct Blob;
    impl Strategy<f64> for Blob {
        fn apply(&self, x: f64) -> f64 {
            x
        }
    }
    let blob: Box<dyn Strategy<f64>> = Box::new(Blob);
    let err = serde_json::to_string(&blob).unwrap_err();
    assert_eq!(
        err.to_string(),
        "cannot serialize Blob: its type is not a registered subtype of dyn Strategy<f64>; put `#[json_subtypes(name = ...)]` on `impl Strategy<f64> for Blob`, or write it with a `Profile` that registers it"
    );
}

#[derive(Debug, Serialize, Deserialize)]
struct Pipeline {
    coarse: Vec<Box<dyn Strategy<f32>>>,
    fine: Option<Box<dyn Strategy<f64>>>,
}

/// Generic over the instantiation, as a numeric library would be.
#[derive(Debug, Serialize, Deserialize)]
struct Tuned<D: 'static> {
    name: String,
    strategy: Box<dyn Strategy<D>>,
}

#[test]
fn inside_derived_types() {
    let text = r#"{"coarse":[{"type":7},{"type":"clamp","lo":0.0,"hi":2.0}],"fine":{"type":"linear","slope":0.5}}"#;
    let pipeline: Pipeline = serde_json::from_str(text).unwrap();
    assert_eq!(pipeline.coarse[0].apply(4.0), 2.0);
    assert_eq!(pipeline.coarse[1].apply(4.0), 2.0);
    assert_eq!(pipeline.fine.as_ref().unwrap().apply(4.0), 2.0);
    assert_eq!(serde_json::to_string(&pipeline).unwrap(), text);

    let text = r#"{"name":"f","strategy":{"type":"clamp","lo":1.0,"hi":2.0}}"#;
    let tuned: Tuned<f32> = serde_json::from_str(text).unwrap();
    assert_eq!(tuned.strategy.apply(0.0), 1.0);
    assert_eq!(serde_json::to_string(&tuned).unwrap(), text);
    let tuned: Tuned<f64> = serde_json::from_str(text).unwrap();
    assert_eq!(tuned.strategy.apply(0.0), 1.0);
    assert_eq!(serde_json::to_string(&tuned).unwrap(), text);
}

#[test]
fn marked_objects() {
    let text = r#"{"type":"clamp","lo":0.0,"hi":1.0}"#;
    let value: Box<dyn Strategy<f64> + Send + Sync> = serde_json::from_str(text).unwrap();
    assert_eq!(value.apply(2.0), 1.0);
    assert_eq!(serde_json::to_string(&value).unwrap(), text);
    let value: Box<dyn Strategy<f32> + Send> = serde_json::from_str(text).unwrap();
    assert_eq!(serde_json::to_string(&value).unwrap(), text);
}

/// Not annotated: a profile takes any implementation.
#[derive(Debug, Serialize, Deserialize)]
struct Offset {
    by: f64,
}

impl Strategy<f64> for Offset {
    fn apply(&self, x: f64) -> f64 {
        x + self.by
    }
}

#[rstest]
#[case(TagPosition::First, r#"{"kind":2,"lo":0.0,"hi":1.0}"#)]
#[case(TagPosition::Last, r#"{"lo":0.0,"hi":1.0,"kind":2}"#)]
fn profiles_of_one_instantiation(#[case] position: TagPosition, #[case] text: &str) {
    let profile = Profile::<dyn Strategy<f64>>::builder()
        .tag("kind")
        .subtype::<Offset>(1)
        .subtype::<Clamp<f64>>(2)
        .tag_position(position)
        .build()
        .unwrap();
    let value = profile.from_str(r#"{"hi":1.0,"kind":2,"lo":0.0}"#).unwrap();
    assert_eq!(value.apply(3.0), 1.0);
    assert_eq!(profile.to_string(&*value).unwrap(), text);
    let back = profile.from_str(text).unwrap();
    assert_eq!(profile.to_string(&*back).unwrap(), text);
    let offset = profile.from_str(r#"{"kind":1,"by":1.0}"#).unwrap();
    assert_eq!(offset.apply(1.0), 2.0);
}

#[test]
fn a_profile_scopes_its_instantiation_only() {
    let profile = Profile::<dyn Strategy<f32>>::builder_from_registry()
        .tag("kind")
        .build()
        .unwrap();
    let text = r#"{"coarse":[{"kind":7}],"fine":{"type":"identity"}}"#;
    let pipeline: Pipeline = profile.scope(|| serde_json::from_str(text)).unwrap();
    assert_eq!(pipeline.coarse[0].apply(1.0), 0.5);
    assert_eq!(
        profile.scope(|| serde_json::to_string(&pipeline)).unwrap(),
        text
    );
    // Outside the scope, the registry again.
    assert_eq!(
        serde_json::to_string(&pipeline).unwrap(),
        r#"{"coarse":[{"type":7}],"fine":{"type":"identity"}}"#
    );
}

#[test]
fn tagged_names_its_instantiation() {
    let clamp = Clamp {
        lo: 0.5f32,
        hi: 1.0,
    };
    // `Clamp<f32>` belongs to one hierarchy, `Identity` to two.
    let text = serde_json::to_string(&Tagged::new(&clamp)).unwrap();
    assert_eq!(text, r#"{"type":"clamp","lo":0.5,"hi":1.0}"#);
    let back: Tagged<Clamp<f32>, dyn Strategy<f32>> = serde_json::from_str(&text).unwrap();
    assert_eq!(back.into_inner(), clamp);
    let text = serde_json::to_string(&Tagged::<_, dyn Strategy<f64>>::new(&Identity {})).unwrap();
    assert_eq!(text, r#"{"type":"identity"}"#);
}

// ---------------------------------------------------------------------------
// Generic impls of a plain trait: one registry, a tag per instance.

#[json_subtypes(tag = "type")]
trait Shape: Debug {
    fn describe(&self) -> String;
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Wrapper<T> {
    inner: T,
}

#[json_subtypes(instances(u32 = "w_u32", String = "w_str"))]
impl<T: Debug> Shape for Wrapper<T> {
    fn describe(&self) -> String {
        format!("{:?}", self.inner)
    }
}

/// Several parameters: a tuple per instance, in the impl's order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Pair<A, B> {
    a: A,
    b: B,
}

#[json_subtypes(instances((u8, bool) = "pair", (String, i64) = 9))]
impl<A, B> Shape for Pair<A, B>
where
    A: Debug + Serialize + 'static,
    B: Debug + Serialize + 'static,
{
    fn describe(&self) -> String {
        format!("{:?}/{:?}", self.a, self.b)
    }
}

#[rstest]
#[case(r#"{"type":"w_u32","inner":3}"#, "3")]
#[case(r#"{"inner":3,"type":"w_u32"}"#, "3")]
#[case(r#"{"type":"w_str","inner":"x"}"#, r#""x""#)]
#[case(r#"{"inner":"x","type":"w_str"}"#, r#""x""#)]
#[case(r#"{"type":"pair","a":1,"b":true}"#, "1/true")]
#[case(r#"{"b":-2,"a":"x","type":9}"#, r#""x"/-2"#)]
fn reads_each_instance_by_its_tag(#[case] text: &str, #[case] description: &str) {
    let shape: Box<dyn Shape> = serde_json::from_str(text).unwrap();
    assert_eq!(shape.describe(), description);
}

#[rstest]
#[case(Box::new(Wrapper { inner: 3u32 }) as Box<dyn Shape>, r#"{"type":"w_u32","inner":3}"#)]
#[case(Box::new(Wrapper { inner: "x".to_owned() }), r#"{"type":"w_str","inner":"x"}"#)]
#[case(Box::new(Pair { a: 1u8, b: true }), r#"{"type":"pair","a":1,"b":true}"#)]
#[case(Box::new(Pair { a: "x".to_owned(), b: -2i64 }), r#"{"type":9,"a":"x","b":-2}"#)]
fn writes_each_instance_with_its_tag_and_round_trips(
    #[case] shape: Box<dyn Shape>,
    #[case] text: &str,
) {
    assert_eq!(serde_json::to_string(&shape).unwrap(), text);
    let back: Box<dyn Shape> = serde_json::from_str(text).unwrap();
    assert_eq!(serde_json::to_string(&back).unwrap(), text);
}

#[test]
fn generic_impls_verify_and_list_their_tags() {
    verify_registry::<dyn Shape>().unwrap();
    let err = serde_json::from_str::<Box<dyn Shape>>(r#"{"type":"w_u8"}"#).unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"unknown subtype tag "w_u8", expected one of 9, "pair", "w_str", "w_u32"; to read a type under this tag, put `#[json_subtypes(name = "w_u8")]` on its `impl Shape`, or read it with a `Profile` that registers it at line 1 column 14"#
    );
    let read: Tagged<Wrapper<u32>, dyn Shape> =
        serde_json::from_str(r#"{"type":"w_u32","inner":1}"#).unwrap();
    assert_eq!(read.into_inner(), Wrapper { inner: 1 });
}

/// The same tag twice is a collision, as for any two impls.
#[json_subtypes(tag = "type")]
trait Labeled {}

#[derive(Serialize, Deserialize)]
struct Label<T> {
    text: T,
}

#[json_subtypes(instances(u8 = "dup", u16 = "dup", i8 = "one"))]
impl<T: Serialize + 'static> Labeled for Label<T> {}

#[test]
fn the_same_tag_twice_is_a_collision() {
    let err = verify_registry::<dyn Labeled>().unwrap_err();
    assert_eq!(
        err.to_string(),
        "the registry of dyn Labeled has problems:\n- subtype tag \"dup\" is claimed by both Label<u16> and Label<u8>"
    );
    let err = serde_json::from_str::<Box<dyn Labeled>>(r#"{"type":"dup","text":1}"#)
        .err()
        .unwrap();
    assert_eq!(
        err.to_string(),
        r#"subtype tag "dup" is claimed by both Label<u16> and Label<u8>; see json_subtypes::verify_registry at line 1 column 13"#
    );
    assert!(serde_json::from_str::<Box<dyn Labeled>>(r#"{"type":"one","text":1}"#).is_ok());
}

// ---------------------------------------------------------------------------
// Generic impls of a generic trait with several parameters, and a
// generic fallback.

#[json_subtypes(tag = "op")]
trait Convert<I: 'static, O: 'static> {
    fn convert(&self, input: I) -> O;
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(bound(serialize = "O: Serialize", deserialize = "O: Deserialize<'de>"))]
struct Constant<I, O> {
    value: O,
    #[serde(skip)]
    input: PhantomData<fn(I)>,
}

#[json_subtypes(name = "constant", instances((f32, String), (f64, String), (f64, u8)))]
impl<I: 'static, O: Clone + Serialize + 'static> Convert<I, O> for Constant<I, O> {
    fn convert(&self, _: I) -> O {
        self.value.clone()
    }
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(transparent, bound = "")]
struct Unconverted<I, O> {
    kept: Unknown,
    #[serde(skip)]
    types: PhantomData<fn(I) -> O>,
}

#[json_subtypes(fallback, instances((f32, String), (f64, String)))]
impl<I: 'static, O: Default + 'static> Convert<I, O> for Unconverted<I, O> {
    fn convert(&self, _: I) -> O {
        O::default()
    }
}

#[rstest]
#[case::registered(
    r#"{"op":"constant","value":"c"}"#,
    "c",
    r#"{"op":"constant","value":"c"}"#
)]
#[case::tag_last(
    r#"{"value":"c","op":"constant"}"#,
    "c",
    r#"{"op":"constant","value":"c"}"#
)]
#[case::fallback(r#"{"op":"round","digits":2}"#, "", r#"{"op":"round","digits":2}"#)]
#[case::fallback_tag_last(r#"{"digits":2,"op":"round"}"#, "", r#"{"digits":2,"op":"round"}"#)]
fn reads_instances_given_as_tuples(#[case] text: &str, #[case] out: &str, #[case] written: &str) {
    let f32s: Box<dyn Convert<f32, String>> = serde_json::from_str(text).unwrap();
    assert_eq!(f32s.convert(1.0), out);
    assert_eq!(serde_json::to_string(&f32s).unwrap(), written);
    let f64s: Box<dyn Convert<f64, String>> = serde_json::from_str(written).unwrap();
    assert_eq!(f64s.convert(1.0), out);
    assert_eq!(serde_json::to_string(&f64s).unwrap(), written);
}

#[test]
fn each_tuple_is_its_own_instantiation() {
    let text = r#"{"op":"constant","value":4}"#;
    let bytes: Box<dyn Convert<f64, u8>> = serde_json::from_str(text).unwrap();
    assert_eq!(bytes.convert(0.0), 4);
    assert_eq!(serde_json::to_string(&bytes).unwrap(), text);
    // No fallback listed for `(f64, u8)`.
    let err = serde_json::from_str::<Box<dyn Convert<f64, u8>>>(r#"{"op":"round"}"#)
        .err()
        .unwrap();
    assert_eq!(
        err.to_string(),
        r#"unknown subtype tag "round", expected "constant"; to read a type under this tag, put `#[json_subtypes(name = "round")]` on its `impl Convert<f64, u8>`, or read it with a `Profile` that registers it at line 1 column 13"#
    );
    verify_registry::<dyn Convert<f32, String>>().unwrap();
    verify_registry::<dyn Convert<f64, String>>().unwrap();
    verify_registry::<dyn Convert<f64, u8>>().unwrap();
}

// ---------------------------------------------------------------------------
// Const parameters.

#[json_subtypes(tag = "type")]
trait Filter<const TAPS: usize> {
    fn taps(&self) -> usize {
        TAPS
    }
}

#[derive(Debug, Serialize, Deserialize)]
struct Window<const N: usize> {
    weights: Vec<f64>,
}

#[json_subtypes(name = "window", instances(2, 3))]
impl<const N: usize> Filter<N> for Window<N> {}

#[test]
fn const_parameters_are_instantiations_too() {
    let text = r#"{"type":"window","weights":[0.5,0.5]}"#;
    let two: Box<dyn Filter<2>> = serde_json::from_str(text).unwrap();
    assert_eq!(two.taps(), 2);
    assert_eq!(serde_json::to_string(&two).unwrap(), text);
    let three: Box<dyn Filter<3>> = serde_json::from_str(text).unwrap();
    assert_eq!(three.taps(), 3);
    assert_eq!(serde_json::to_string(&three).unwrap(), text);
}

// ---------------------------------------------------------------------------
// Associated types: `dyn Model<Value = f64>` is an instantiation, which an
// impl's `type Value = f64;` names.

#[json_subtypes(tag = "type")]
trait Model: Debug {
    type Value;
    fn eval(&self) -> Self::Value;
}

#[derive(Debug, Serialize, Deserialize)]
struct Fixed {
    value: f64,
}

#[json_subtypes(name = "fixed")]
impl Model for Fixed {
    type Value = f64;
    fn eval(&self) -> f64 {
        self.value
    }
}

#[derive(Debug, Serialize, Deserialize)]
struct Echo<V> {
    value: V,
}

#[json_subtypes(name = "echo", instances(f64, String))]
impl<V: Clone + Debug + Serialize + 'static> Model for Echo<V> {
    type Value = V;
    fn eval(&self) -> V {
        self.value.clone()
    }
}

#[rstest]
#[case::fixed(
    r#"{"type":"fixed","value":2.0}"#,
    r#"{"type":"fixed","value":2.0}"#,
    2.0
)]
#[case::echo(
    r#"{"value":3.0,"type":"echo"}"#,
    r#"{"type":"echo","value":3.0}"#,
    3.0
)]
fn associated_types_pick_the_instantiation(
    #[case] text: &str,
    #[case] written: &str,
    #[case] value: f64,
) {
    let model: Box<dyn Model<Value = f64>> = serde_json::from_str(text).unwrap();
    assert_eq!(model.eval(), value);
    assert_eq!(serde_json::to_string(&model).unwrap(), written);
    let back: Box<dyn Model<Value = f64>> = serde_json::from_str(written).unwrap();
    assert_eq!(serde_json::to_string(&back).unwrap(), written);
}

#[test]
fn each_associated_type_has_its_registry() {
    let text = r#"{"type":"echo","value":"x"}"#;
    let model: Box<dyn Model<Value = String>> = serde_json::from_str(text).unwrap();
    assert_eq!(model.eval(), "x");
    assert_eq!(serde_json::to_string(&model).unwrap(), text);
    let err =
        serde_json::from_str::<Box<dyn Model<Value = String>>>(r#"{"type":"fixed","value":2.0}"#)
            .err()
            .unwrap();
    assert_eq!(
        err.to_string(),
        r#"unknown subtype tag "fixed", expected "echo"; to read a type under this tag, put `#[json_subtypes(name = "fixed")]` on its `impl Model<Value = String>`, or read it with a `Profile` that registers it at line 1 column 15"#
    );
    verify_registry::<dyn Model<Value = f64>>().unwrap();
    verify_registry::<dyn Model<Value = String>>().unwrap();
}

// ---------------------------------------------------------------------------
// Lifetimes: one registry for `dyn for<'a> Matcher<'a>`, which takes the
// impls for every lifetime.

#[json_subtypes(tag = "type")]
trait Matcher<'a>: Debug {
    fn find(&self, haystack: &'a str) -> Option<&'a str>;
}

#[derive(Debug, Serialize, Deserialize)]
struct Prefix {
    prefix: String,
}

#[json_subtypes(name = "prefix")]
impl<'a> Matcher<'a> for Prefix {
    fn find(&self, haystack: &'a str) -> Option<&'a str> {
        haystack.strip_prefix(self.prefix.as_str())
    }
}

#[derive(Debug, Serialize, Deserialize)]
struct Whole {}

#[json_subtypes(name = "whole")]
impl Matcher<'_> for Whole {
    fn find<'h>(&self, haystack: &'h str) -> Option<&'h str> {
        Some(haystack)
    }
}

#[rstest]
#[case::named_lifetime(r#"{"type":"prefix","prefix":"ab"}"#, Some("c"))]
#[case::named_lifetime_tag_last(r#"{"prefix":"abc","type":"prefix"}"#, Some(""))]
#[case::elided_lifetime(r#"{"type":"whole"}"#, Some("abc"))]
fn lifetimes_are_for_every_lifetime(#[case] text: &str, #[case] found: Option<&str>) {
    let matcher: Box<dyn for<'a> Matcher<'a>> = serde_json::from_str(text).unwrap();
    let haystack = String::from("abc");
    assert_eq!(matcher.find(&haystack), found);
    let written = serde_json::to_string(&matcher).unwrap();
    let back: Box<dyn for<'a> Matcher<'a>> = serde_json::from_str(&written).unwrap();
    assert_eq!(back.find(&haystack), found);
    assert_eq!(serde_json::to_string(&back).unwrap(), written);
    verify_registry::<dyn for<'a> Matcher<'a>>().unwrap();
}

// ---------------------------------------------------------------------------
// Limits: each instantiation's registry has the trait's, named after it.

#[json_subtypes(tag = "type", max_buffer = 24, max_depth = 3)]
trait Bounded<D: 'static>: Debug {}

#[derive(Debug, Serialize, Deserialize)]
struct Sample<D> {
    value: D,
    note: serde_json::Value,
}

#[json_subtypes(name = "sample", instances(u8, i64))]
impl<D: Debug + Serialize + 'static> Bounded<D> for Sample<D> {}

#[json_subtypes(tag = "type", require_tag_first)]
trait Strict<D: 'static>: Debug {}

#[json_subtypes(name = "sample", instances(u8))]
impl<D: Debug + Serialize + 'static> Strict<D> for Sample<D> {}

#[rstest]
#[case::tag_first(r#"{"type":"sample","note":"a long note that the tag came before","value":1}"#)]
#[case::small_prefix(r#"{"value":1,"type":"sample","note":null}"#)]
fn limited_instantiations_read_what_fits(#[case] text: &str) {
    let value: Box<dyn Bounded<u8>> = serde_json::from_str(text).unwrap();
    let written = serde_json::to_string(&value).unwrap();
    let back: Box<dyn Bounded<u8>> = serde_json::from_str(&written).unwrap();
    assert_eq!(serde_json::to_string(&back).unwrap(), written);
    assert!(serde_json::from_str::<Box<dyn Bounded<i64>>>(text).is_ok());
}

#[rstest]
#[case::large_prefix(
    r#"{"note":"a long note before the tag","value":1,"type":"sample"}"#,
    "more than 24 bytes buffered before the tag `type` of dyn Bounded<i64> (max_buffer = 24) at line 1 column 36"
)]
#[case::too_deep(
    r#"{"note":[[[[1]]]],"type":"sample","value":1}"#,
    "recursion limit exceeded at line 1 column 10"
)]
fn limits_name_the_instantiation(#[case] text: &str, #[case] message: &str) {
    let err = serde_json::from_str::<Box<dyn Bounded<i64>>>(text)
        .err()
        .unwrap();
    assert_eq!(err.to_string(), message);
}

#[test]
fn require_tag_first_holds_for_each_instantiation() {
    let text = r#"{"type":"sample","value":1,"note":{"a":[1,2]}}"#;
    let value: Box<dyn Strict<u8>> = serde_json::from_str(text).unwrap();
    assert_eq!(serde_json::to_string(&value).unwrap(), text);
    let err = serde_json::from_str::<Box<dyn Strict<u8>>>(r#"{"value":1,"type":"sample"}"#)
        .err()
        .unwrap();
    assert_eq!(
        err.to_string(),
        "the tag `type` of dyn Strict<u8> must be the first key (require_tag_first), found `value` at line 1 column 8"
    );
}

/// `visible`: a payload field named like the tag is the tag.
#[json_subtypes(tag = "kind", visible)]
trait Labelled<D: 'static>: Debug {}

#[derive(Debug, Serialize, Deserialize)]
struct Marked<D> {
    kind: String,
    at: D,
}

#[json_subtypes(name = "mark", instances(u8, f32))]
impl<D: Debug + Serialize + 'static> Labelled<D> for Marked<D> {}

#[rstest]
#[case::first(r#"{"kind":"mark","at":1}"#, r#"{"kind":"mark","at":1}"#)]
#[case::last(r#"{"at":1,"kind":"mark"}"#, r#"{"kind":"mark","at":1}"#)]
fn visible_instantiations(#[case] text: &str, #[case] written: &str) {
    let value: Box<dyn Labelled<u8>> = serde_json::from_str(text).unwrap();
    assert_eq!(serde_json::to_string(&value).unwrap(), written);
    let wrong: Box<dyn Labelled<f32>> = Box::new(Marked {
        kind: "other".to_owned(),
        at: 1.0,
    });
    assert_eq!(
        serde_json::to_string(&wrong).unwrap_err().to_string(),
        "cannot serialize Marked<f32> as a subtype of dyn Labelled<f32>: its field `kind` is \"other\", but its tag is \"mark\""
    );
}

/// `exact_numbers`: integers beyond 64 bits before the tag keep their digits.
#[cfg(feature = "exact_numbers")]
#[json_subtypes(tag = "type", exact_numbers)]
trait Exact<D: 'static>: Debug {}

#[cfg(feature = "exact_numbers")]
#[derive(Debug, Serialize, Deserialize)]
struct Wide<D> {
    value: D,
}

#[cfg(feature = "exact_numbers")]
#[json_subtypes(name = "wide", instances(u128, i128))]
impl<D: Debug + Serialize + 'static> Exact<D> for Wide<D> {}

#[cfg(feature = "exact_numbers")]
#[test]
fn exact_numbers_instantiations() {
    let text = r#"{"value":340282366920938463463374607431768211455,"type":"wide"}"#;
    let value: Box<dyn Exact<u128>> = serde_json::from_str(text).unwrap();
    let written = r#"{"type":"wide","value":340282366920938463463374607431768211455}"#;
    assert_eq!(serde_json::to_string(&value).unwrap(), written);
    let text = r#"{"value":-170141183460469231731687303715884105728,"type":"wide"}"#;
    let value: Box<dyn Exact<i128>> = serde_json::from_str(text).unwrap();
    let written = r#"{"type":"wide","value":-170141183460469231731687303715884105728}"#;
    assert_eq!(serde_json::to_string(&value).unwrap(), written);
}

// ---------------------------------------------------------------------------
// JSON Schema: each instantiation has its own, under its own name.

#[cfg(feature = "schemars")]
mod schemas {
    use super::*;
    use schemars::{schema_for, JsonSchema};
    use serde_json::{json, Value};

    /// A smoothing kernel.
    #[json_subtypes(tag = "type", schema)]
    trait Kernel<D: 'static> {
        fn weight(&self, x: D) -> D;
    }

    #[derive(Debug, Serialize, Deserialize, JsonSchema)]
    struct Gaussian<D> {
        sigma: D,
    }

    #[json_subtypes(name = "gaussian", instances(f32, f64))]
    impl<D: Copy + Serialize + JsonSchema + 'static> Kernel<D> for Gaussian<D> {
        fn weight(&self, _: D) -> D {
            self.sigma
        }
    }

    #[derive(Debug, Serialize, Deserialize, JsonSchema)]
    struct Flat {
        width: f64,
    }

    #[json_subtypes(name = "flat")]
    impl Kernel<f64> for Flat {
        fn weight(&self, _: f64) -> f64 {
            self.width
        }
    }

    #[derive(Serialize, Deserialize, JsonSchema)]
    struct Smoother {
        coarse: Box<dyn Kernel<f32>>,
        fine: Vec<Box<dyn Kernel<f64>>>,
    }

    fn valid(schema: &Value, instance: &Value) -> bool {
        let mut schemas = boon::Schemas::new();
        let mut compiler = boon::Compiler::new();
        compiler
            .add_resource("urn:json-subtypes:test", schema.clone())
            .unwrap();
        let index = compiler
            .compile("urn:json-subtypes:test", &mut schemas)
            .unwrap_or_else(|e| panic!("{e:#}\n{schema:#}"));
        schemas.validate(instance, index).is_ok()
    }

    #[test]
    fn each_instantiation_has_its_schema() {
        let schema = serde_json::to_value(schema_for!(dyn Kernel<f64>)).unwrap();
        assert_eq!(schema["title"], "Kernel_for_f64");
        assert_eq!(schema["description"], "A smoothing kernel.");
        assert_eq!(
            schema["discriminator"],
            json!({"propertyName": "type", "mapping": {
                "flat": "#/$defs/Flat", "gaussian": "#/$defs/Gaussian",
            }})
        );
        let schema = serde_json::to_value(schema_for!(dyn Kernel<f32>)).unwrap();
        assert_eq!(schema["title"], "Kernel_for_f32");
        assert_eq!(
            schema["oneOf"],
            json!([{"allOf": [
                {"type": "object", "properties": {"type": {"type": "string", "const": "gaussian"}}, "required": ["type"]},
                {"$ref": "#/$defs/Gaussian"},
            ]}])
        );
    }

    #[rstest]
    #[case::both(json!({"coarse": {"type": "gaussian", "sigma": 1.0}, "fine": [{"type": "flat", "width": 2.0}, {"sigma": 0.5, "type": "gaussian"}]}), true)]
    #[case::other_instantiations_tag(json!({"coarse": {"type": "flat", "width": 2.0}, "fine": []}), false)]
    #[case::bad_body(json!({"coarse": {"type": "gaussian", "sigma": "wide"}, "fine": []}), false)]
    fn what_validates_is_what_reads(#[case] instance: Value, #[case] reads: bool) {
        let schema = serde_json::to_value(schema_for!(Smoother)).unwrap();
        assert!(schema["$defs"]["Kernel_for_f32"].is_object(), "{schema:#}");
        assert!(schema["$defs"]["Kernel_for_f64"].is_object(), "{schema:#}");
        assert_eq!(valid(&schema, &instance), reads, "{instance}");
        let read = serde_json::from_value::<Smoother>(instance.clone());
        assert_eq!(read.is_ok(), reads);
        if let Ok(smoother) = read {
            assert_eq!(smoother.coarse.weight(0.0), 1.0);
            let written = serde_json::to_value(&smoother).unwrap();
            assert!(valid(&schema, &written), "{written}");
        }
    }

    /// Lifetimes leave the name as it is: the registry is for every one.
    #[json_subtypes(tag = "type", schema)]
    trait Pattern<'a> {
        fn matches(&self, text: &'a str) -> bool;
    }

    #[derive(Serialize, Deserialize, JsonSchema)]
    struct Exactly {
        text: String,
    }

    #[json_subtypes(name = "exactly")]
    impl Pattern<'_> for Exactly {
        fn matches(&self, text: &str) -> bool {
            self.text == text
        }
    }

    #[test]
    fn schema_names_of_instantiations() {
        let title =
            |schema: schemars::Schema| serde_json::to_value(schema).unwrap()["title"].clone();
        assert_eq!(title(schema_for!(dyn for<'a> Pattern<'a>)), "Pattern");
        assert_eq!(title(schema_for!(dyn Kernel<f32>)), "Kernel_for_f32");
        let pattern: Box<dyn for<'a> Pattern<'a>> =
            serde_json::from_str(r#"{"type":"exactly","text":"a"}"#).unwrap();
        assert!(pattern.matches("a"));
    }

    #[cfg(feature = "utoipa")]
    #[test]
    fn openapi_components_are_named_after_the_instantiation() {
        use utoipa::{PartialSchema, ToSchema};
        assert_eq!(<Box<dyn Kernel<f64>>>::name(), "Kernel_for_f64");
        assert_eq!(<Box<dyn Kernel<f32>>>::name(), "Kernel_for_f32");
        let mut components = Vec::new();
        <Box<dyn Kernel<f64>>>::schemas(&mut components);
        let names: Vec<&str> = components.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["Flat", "Gaussian"]);
        let schema = serde_json::to_value(<Box<dyn Kernel<f32>>>::schema()).unwrap();
        assert_eq!(
            schema["discriminator"],
            json!({"propertyName": "type", "mapping": {"gaussian": "#/components/schemas/Gaussian"}})
        );
    }

    #[test]
    fn profiles_of_an_instantiation_have_their_schema() {
        let profile = Profile::<dyn Kernel<f64>>::builder_from_registry()
            .tag("kind")
            .subtype::<Flat>("box")
            .build()
            .unwrap();
        let schema = serde_json::to_value(profile.root_schema()).unwrap();
        assert_eq!(schema["title"], "profile of dyn Kernel<f64>");
        assert_eq!(
            schema["discriminator"],
            json!({"propertyName": "kind", "mapping": {"box": "#/$defs/Flat", "gaussian": "#/$defs/Gaussian"}})
        );
        assert_eq!(
            schema["$defs"]["Gaussian"]["properties"]["sigma"]["format"],
            "double"
        );
    }
}

/// A generic trait in the externally and adjacently tagged forms: each
/// instantiation reads and writes its registry's form.
mod forms {
    use json_subtypes::json_subtypes;
    use serde::{Deserialize, Serialize};

    #[json_subtypes(external)]
    trait Ext<D: 'static> {
        fn get(&self) -> D;
    }

    #[json_subtypes(tag = "type", content = "value")]
    trait Adj<D: 'static> {
        fn get(&self) -> D;
    }

    #[derive(Serialize, Deserialize)]
    struct Keep<D> {
        v: D,
    }

    #[json_subtypes(name = "keep", instances(f32, f64))]
    impl<D: Copy + 'static> Ext<D> for Keep<D> {
        fn get(&self) -> D {
            self.v
        }
    }

    #[json_subtypes(name = "keep", instances(f32, f64))]
    impl<D: Copy + 'static> Adj<D> for Keep<D> {
        fn get(&self) -> D {
            self.v
        }
    }

    #[test]
    fn each_instantiation_reads_and_writes_its_form() {
        let e: Box<dyn Ext<f64>> = serde_json::from_str(r#"{"keep":{"v":1.5}}"#).unwrap();
        assert!((e.get() - 1.5).abs() < f64::EPSILON);
        assert_eq!(serde_json::to_string(&e).unwrap(), r#"{"keep":{"v":1.5}}"#);
        let e: Box<dyn Ext<f32>> = serde_json::from_str(r#"{"keep":{"v":2.0}}"#).unwrap();
        assert_eq!(serde_json::to_string(&e).unwrap(), r#"{"keep":{"v":2.0}}"#);

        let a: Box<dyn Adj<f64>> =
            serde_json::from_str(r#"{"value":{"v":0.5},"type":"keep"}"#).unwrap();
        assert!((a.get() - 0.5).abs() < f64::EPSILON);
        assert_eq!(
            serde_json::to_string(&a).unwrap(),
            r#"{"type":"keep","value":{"v":0.5}}"#
        );
        let Err(err) = serde_json::from_str::<Box<dyn Ext<f32>>>(r#"{"lose":{"v":1.0}}"#) else {
            panic!("an unknown tag read");
        };
        let err = err.to_string();
        assert!(err.starts_with(r#"unknown subtype tag "lose""#), "{err}");
    }
}
