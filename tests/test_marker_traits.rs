//! Trait objects with auto traits: `dyn Shape + Send`, `+ Sync`,
//! `+ Send + Sync`, for a trait that has neither as a supertrait.

use std::cell::Cell;
use std::marker::PhantomData;
use std::rc::Rc;
use std::sync::MutexGuard;

use json_subtypes::{json_subtypes, Profile, TagPosition, Unknown};
use rstest::rstest;
use serde::{Deserialize, Serialize};

#[json_subtypes(tag = "type")]
trait Shape {
    fn area(&self) -> f64;
}

/// `Send + Sync`.
#[derive(Debug, Serialize, Deserialize)]
struct Circle {
    r: f64,
}

#[json_subtypes(name = "circle")]
impl Shape for Circle {
    fn area(&self) -> f64 {
        3.0 * self.r * self.r
    }
}

/// `Send`, not `Sync`.
#[derive(Debug, Serialize, Deserialize)]
struct Counter {
    n: Cell<f64>,
}

#[json_subtypes(name = "counter")]
impl Shape for Counter {
    fn area(&self) -> f64 {
        self.n.get()
    }
}

/// Neither `Send` nor `Sync`.
#[derive(Debug, Serialize, Deserialize)]
struct Local {
    side: f64,
    #[serde(skip)]
    _rc: PhantomData<Rc<()>>,
}

#[json_subtypes(name = "local")]
impl Shape for Local {
    fn area(&self) -> f64 {
        self.side * self.side
    }
}

/// `Sync`, not `Send`.
#[derive(Debug, Serialize, Deserialize)]
struct Pinned {
    side: f64,
    #[serde(skip)]
    _guard: PhantomData<MutexGuard<'static, ()>>,
}

#[json_subtypes(name = "pinned")]
impl Shape for Pinned {
    fn area(&self) -> f64 {
        self.side
    }
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(transparent)]
struct OtherShape(Unknown);

#[json_subtypes(fallback)]
impl Shape for OtherShape {
    fn area(&self) -> f64 {
        -1.0
    }
}

/// Not annotated: only profiles know it.
#[derive(Debug, Serialize, Deserialize)]
struct Square {
    side: f64,
}

impl Shape for Square {
    fn area(&self) -> f64 {
        self.side * self.side
    }
}

#[derive(Serialize, Deserialize)]
struct Scene {
    name: String,
    shapes: Vec<Box<dyn Shape + Send + Sync>>,
}

#[derive(Serialize, Deserialize)]
struct Workers {
    send: Box<dyn Shape + Send>,
    sync: Option<Box<dyn Shape + Sync>>,
}

#[rstest]
#[case::first(r#"{"type":"circle","r":1.0}"#)]
#[case::last(r#"{"r":1.0,"type":"circle"}"#)]
fn every_marked_box_reads_a_send_sync_type(#[case] text: &str) {
    let plain: Box<dyn Shape> = serde_json::from_str(text).unwrap();
    let send: Box<dyn Shape + Send> = serde_json::from_str(text).unwrap();
    let sync: Box<dyn Shape + Sync> = serde_json::from_str(text).unwrap();
    let both: Box<dyn Shape + Send + Sync> = serde_json::from_str(text).unwrap();
    for area in [plain.area(), send.area(), sync.area(), both.area()] {
        assert_eq!(area, 3.0);
    }
    let expected = r#"{"type":"circle","r":1.0}"#;
    assert_eq!(serde_json::to_string(&send).unwrap(), expected);
    assert_eq!(serde_json::to_string(&sync).unwrap(), expected);
    assert_eq!(serde_json::to_string(&both).unwrap(), expected);
    // Through the type-erased path (another format) too.
    let value = serde_json::to_value(&both).unwrap();
    assert_eq!(value, serde_json::json!({"type": "circle", "r": 1.0}));
    let back: Box<dyn Shape + Send + Sync> = serde_json::from_value(value).unwrap();
    assert_eq!(back.area(), 3.0);
}

#[rstest]
#[case::send_first(r#"{"type":"counter","n":2.0}"#)]
#[case::send_last(r#"{"n":2.0,"type":"counter"}"#)]
fn a_send_type_becomes_a_send_box(#[case] text: &str) {
    let send: Box<dyn Shape + Send> = serde_json::from_str(text).unwrap();
    assert_eq!(send.area(), 2.0);
    assert_eq!(
        serde_json::to_string(&send).unwrap(),
        r#"{"type":"counter","n":2.0}"#
    );
    // It can move to another thread, as the type says.
    let area = std::thread::spawn(move || send.area()).join().unwrap();
    assert_eq!(area, 2.0);
}

#[test]
fn a_sync_type_becomes_a_sync_box() {
    let text = r#"{"side":2.0,"type":"pinned"}"#;
    let sync: Box<dyn Shape + Sync> = serde_json::from_str(text).unwrap();
    assert_eq!(sync.area(), 2.0);
    assert_eq!(
        serde_json::to_string(&sync).unwrap(),
        r#"{"type":"pinned","side":2.0}"#
    );
}

#[rstest]
#[case::not_send(
    "local",
    "send",
    "cannot read Local as Box<dyn Shape + Send>: Local is not Send"
)]
#[case::not_sync(
    "counter",
    "sync",
    "cannot read Counter as Box<dyn Shape + Sync>: Counter is not Sync"
)]
#[case::not_send_sync(
    "pinned",
    "both",
    "cannot read Pinned as Box<dyn Shape + Send + Sync>: Pinned is not Send + Sync"
)]
#[case::local_not_send_sync(
    "local",
    "both",
    "cannot read Local as Box<dyn Shape + Send + Sync>: Local is not Send + Sync"
)]
fn a_type_without_the_marker_is_refused(
    #[case] tag: &str,
    #[case] object: &str,
    #[case] message: &str,
) {
    let field = match tag {
        "counter" => "n",
        _ => "side",
    };
    let text = format!(r#"{{"type":"{tag}","{field}":1.0}}"#);
    let err = match object {
        "send" => serde_json::from_str::<Box<dyn Shape + Send>>(&text).map(|_| ()),
        "sync" => serde_json::from_str::<Box<dyn Shape + Sync>>(&text).map(|_| ()),
        _ => serde_json::from_str::<Box<dyn Shape + Send + Sync>>(&text).map(|_| ()),
    }
    .unwrap_err();
    assert_eq!(err.to_string(), message);
    // The plain box takes it.
    let plain: Box<dyn Shape> = serde_json::from_str(&text).unwrap();
    assert_eq!(plain.area(), 1.0);
}

#[test]
fn the_fallback_keeps_its_data_in_a_marked_box() {
    let text = r#"{"sides":6,"type":"hexagon"}"#;
    let shape: Box<dyn Shape + Send + Sync> = serde_json::from_str(text).unwrap();
    assert_eq!(shape.area(), -1.0);
    assert_eq!(serde_json::to_string(&shape).unwrap(), text);
}

#[test]
fn a_vec_of_marked_boxes_in_a_derived_struct_round_trips() {
    let text = r#"{"name":"s","shapes":[{"type":"circle","r":1.0},{"r":2.0,"type":"circle"},{"type":"hexagon"}]}"#;
    let scene: Scene = serde_json::from_str(text).unwrap();
    let areas: Vec<f64> = scene.shapes.iter().map(|s| s.area()).collect();
    assert_eq!(areas, [3.0, 12.0, -1.0]);
    let written = serde_json::to_string(&scene).unwrap();
    assert_eq!(
        written,
        r#"{"name":"s","shapes":[{"type":"circle","r":1.0},{"type":"circle","r":2.0},{"type":"hexagon"}]}"#
    );
    let again: Scene = serde_json::from_str(&written).unwrap();
    assert_eq!(serde_json::to_string(&again).unwrap(), written);
    // The scene is Send + Sync itself.
    let handle = std::thread::spawn(move || again.shapes.len());
    assert_eq!(handle.join().unwrap(), 3);

    let workers: Workers = serde_json::from_str(
        r#"{"send":{"n":1.0,"type":"counter"},"sync":{"type":"pinned","side":1.0}}"#,
    )
    .unwrap();
    assert_eq!(
        serde_json::to_string(&workers).unwrap(),
        r#"{"send":{"type":"counter","n":1.0},"sync":{"type":"pinned","side":1.0}}"#
    );
}

#[test]
fn a_profile_of_the_plain_trait_reads_marked_boxes_in_its_scope() {
    let v2 = Profile::<dyn Shape>::builder_from_registry()
        .tag("kind")
        .subtype::<Circle>("round")
        .tag_position(TagPosition::Last)
        .build()
        .unwrap();
    let text = r#"{"name":"s","shapes":[{"kind":"round","r":1.0},{"r":2.0,"kind":"round"}]}"#;
    let scene: Scene = v2.scope(|| serde_json::from_str(text)).unwrap();
    let areas: Vec<f64> = scene.shapes.iter().map(|s| s.area()).collect();
    assert_eq!(areas, [3.0, 12.0]);
    let written = v2.scope(|| serde_json::to_string(&scene)).unwrap();
    assert_eq!(
        written,
        r#"{"name":"s","shapes":[{"r":1.0,"kind":"round"},{"r":2.0,"kind":"round"}]}"#
    );
    // Still only what is Send + Sync.
    let err = v2
        .scope(|| {
            serde_json::from_str::<Scene>(r#"{"name":"s","shapes":[{"kind":"local","side":1.0}]}"#)
        })
        .err()
        .unwrap();
    assert_eq!(
        err.to_string(),
        "cannot read Local as Box<dyn Shape + Send + Sync>: Local is not Send + Sync at line 1 column 50"
    );
}

#[test]
fn a_profile_of_the_plain_trait_cannot_vouch_for_its_own_subtypes() {
    let profile = Profile::<dyn Shape>::builder()
        .tag("type")
        .subtype::<Square>("square")
        .build()
        .unwrap();
    let text = r#"{"type":"square","side":2.0}"#;
    assert_eq!(profile.from_str(text).unwrap().area(), 4.0);
    let err = profile
        .scope(|| serde_json::from_str::<Box<dyn Shape + Send>>(text))
        .err()
        .unwrap();
    assert_eq!(
        err.to_string(),
        "cannot read Square as Box<dyn Shape + Send>: the profile of dyn Shape cannot tell whether Square is Send; build a Profile<dyn Shape + Send> for it"
    );
}

#[test]
fn a_profile_of_the_marked_object_reads_it_directly_and_in_its_scope() {
    let profile = Profile::<dyn Shape + Send + Sync>::builder()
        .tag("kind")
        .subtype::<Square>("square")
        .subtype::<Circle>(2)
        .build()
        .unwrap();
    let square = profile.from_str(r#"{"side":3.0,"kind":"square"}"#).unwrap();
    assert_eq!(square.area(), 9.0);
    assert_eq!(
        profile.to_string(&*square).unwrap(),
        r#"{"kind":"square","side":3.0}"#
    );
    let text = r#"{"name":"s","shapes":[{"kind":"square","side":1.0},{"kind":2,"r":1.0}]}"#;
    let scene: Scene = profile.scope(|| serde_json::from_str(text)).unwrap();
    let areas: Vec<f64> = scene.shapes.iter().map(|s| s.area()).collect();
    assert_eq!(areas, [1.0, 3.0]);
    assert_eq!(
        profile.scope(|| serde_json::to_string(&scene)).unwrap(),
        text
    );
    // Outside the scope the registry is in charge again: no `type`, so
    // its fallback takes both.
    let scene: Scene = serde_json::from_str(text).unwrap();
    let areas: Vec<f64> = scene.shapes.iter().map(|s| s.area()).collect();
    assert_eq!(areas, [-1.0, -1.0]);
}
