//! serde_json's `arbitrary_precision` and `raw_value` features: payload
//! fields of those kinds work with the tag first and later. Run with
//! `cargo test --features arbitrary_precision,raw_value`.
#![cfg(all(feature = "arbitrary_precision", feature = "raw_value"))]

use json_subtypes::{json_subtypes, Unknown};
use rstest::rstest;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

#[derive(Debug, Serialize, Deserialize)]
struct Measure {
    exact: serde_json::Number,
    count: u64,
    raw: Box<RawValue>,
    any: serde_json::Value,
}

#[json_subtypes(tag = "type")]
#[derive(Debug)]
enum Event {
    Measure(Measure),
    #[json_subtypes(fallback)]
    Other(Unknown),
}

const BIG: &str = "123456789012345678901234567890.000000000000000000001";

#[rstest]
#[case::tag_first(format!(r#"{{"type":"Measure","exact":{BIG},"count":7,"raw":{{"a":[1,2]}},"any":{BIG}}}"#))]
#[case::tag_last(format!(r#"{{"exact":{BIG},"count":7,"raw":{{"a":[1,2]}},"any":{BIG},"type":"Measure"}}"#))]
fn arbitrary_precision_and_raw_values(#[case] text: String) {
    let Event::Measure(m) = serde_json::from_str(&text).unwrap() else {
        panic!()
    };
    assert_eq!(m.exact.to_string(), BIG);
    assert_eq!(m.any.to_string(), BIG);
    assert_eq!(m.count, 7);
    assert_eq!(m.raw.get(), r#"{"a":[1,2]}"#);
    let written = serde_json::to_string(&Event::Measure(m)).unwrap();
    assert_eq!(
        written,
        format!(r#"{{"type":"Measure","exact":{BIG},"count":7,"raw":{{"a":[1,2]}},"any":{BIG}}}"#)
    );
}

#[test]
fn unknown_keeps_arbitrary_precision_numbers() {
    let text =
        format!(r#"{{"type":"x","n":{BIG},"m":340282366920938463463374607431768211455,"k":-1}}"#);
    let Event::Other(u) = serde_json::from_str(&text).unwrap() else {
        panic!()
    };
    assert_eq!(serde_json::to_string(&u).unwrap(), text);
    assert_eq!(u.get::<u128>("m").unwrap().unwrap(), u128::MAX);
}

#[json_subtypes(tag = "type")]
trait Reading {
    fn count(&self) -> u64;
}

#[json_subtypes(name = "Measure")]
impl Reading for Measure {
    fn count(&self) -> u64 {
        self.count
    }
}

// Trait objects read from `&str` and `&[u8]` run code compiled for
// serde_json, from an `io::Read` the erased path: both keep the features'
// values.
#[rstest]
#[case::tag_first(format!(r#"{{"type":"Measure","exact":{BIG},"count":7,"raw":{{"a":[1,2]}},"any":{BIG}}}"#))]
#[case::tag_last(format!(r#"{{"exact":{BIG},"count":7,"raw":{{"a":[1,2]}},"any":{BIG},"type":"Measure"}}"#))]
fn trait_objects_keep_them_on_every_reader(#[case] text: String) {
    let read: [Box<dyn Reading>; 3] = [
        serde_json::from_str(&text).unwrap(),
        serde_json::from_slice(text.as_bytes()).unwrap(),
        serde_json::from_reader(text.as_bytes()).unwrap(),
    ];
    for value in read {
        assert_eq!(value.count(), 7);
        assert_eq!(
            serde_json::to_string(&value).unwrap(),
            format!(
                r#"{{"type":"Measure","exact":{BIG},"count":7,"raw":{{"a":[1,2]}},"any":{BIG}}}"#
            )
        );
    }
}
