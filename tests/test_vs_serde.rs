//! The README's comparison with serde's `#[serde(tag = "...")]`, row by row:
//! what serde's internally tagged enum does, next to ours on the same input.
//! (Memory use, the first row, is in `tests/test_memory.rs`.)

use json_subtypes::{json_subtypes, Unknown};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Big {
    v: u128,
    w: i128,
}

#[json_subtypes(tag = "type", rename_all = "lowercase")]
#[derive(Debug, Clone, PartialEq)]
enum Ours {
    Big(Big),
    Cat {
        lives: u8,
    },
    #[json_subtypes(name = 3)]
    Three,
    #[json_subtypes(fallback)]
    Other(Unknown),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
enum Serde {
    Big(Big),
    Cat {
        lives: u8,
    },
    #[serde(rename = "3")]
    Three,
    #[serde(other)]
    Other,
}

const BIG_LAST: &str = r#"{"v":340282366920938463463374607431768211455,"w":-170141183460469231731687303715884105728,"type":"big"}"#;

fn big() -> Big {
    Big {
        v: u128::MAX,
        w: i128::MIN,
    }
}

/// Row "tag kinds": serde's tags are variant names, so the integer `3` does
/// not pick the variant named `"3"`; ours has integer tags of their own.
#[test]
fn serde_tags_are_names_ours_are_any_kind() {
    let err = serde_json::from_str::<Serde>(r#"{"type":3}"#).unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid type: integer `3`, expected variant identifier at line 1 column 9"
    );
    assert_eq!(
        serde_json::from_str::<Ours>(r#"{"type":3}"#).unwrap(),
        Ours::Three
    );
    assert_eq!(
        serde_json::to_string(&Ours::Three).unwrap(),
        r#"{"type":3}"#
    );
}

/// Row "unknown tag": serde's `other` variant is a unit, so the object's
/// data is gone and it writes back only its own name; ours keeps every entry.
#[test]
fn serde_other_drops_the_data_ours_keeps_it() {
    let text = r#"{"type":"cow","moo":true,"spots":[1,2]}"#;
    let theirs: Serde = serde_json::from_str(text).unwrap();
    assert_eq!(theirs, Serde::Other);
    assert_eq!(
        serde_json::to_string(&theirs).unwrap(),
        r#"{"type":"other"}"#
    );
    let ours: Ours = serde_json::from_str(text).unwrap();
    assert_eq!(serde_json::to_string(&ours).unwrap(), text);
}

/// Row "`u128`/`i128`", tag first: ours streams them into the field exactly;
/// serde buffers the object and fails.
#[test]
fn tag_first_128_bit_integers_serde_fails_ours_keeps_them() {
    let text = r#"{"type":"big","v":340282366920938463463374607431768211455,"w":-170141183460469231731687303715884105728}"#;
    let err = serde_json::from_str::<Serde>(text).unwrap_err();
    assert_eq!(err.to_string(), "u128 is not supported");
    assert_eq!(
        serde_json::from_str::<Ours>(text).unwrap(),
        Ours::Big(big())
    );
}

/// Row "`u128`/`i128`", tag last, in a format that hands them over (CBOR):
/// kept by ours, refused by serde's buffer.
#[test]
fn tag_last_128_bit_integers_in_cbor_serde_fails_ours_keeps_them() {
    // Written as a map with the tag last by a plain struct of the same shape.
    #[derive(Serialize)]
    struct Last {
        v: u128,
        w: i128,
        r#type: &'static str,
    }
    let mut bytes = Vec::new();
    let last = Last {
        v: u128::MAX,
        w: i128::MIN,
        r#type: "big",
    };
    ciborium::into_writer(&last, &mut bytes).unwrap();
    let err = ciborium::from_reader::<Serde, _>(&bytes[..]).unwrap_err();
    assert_eq!(err.to_string(), "Semantic(None, \"invalid type: integer `340282366920938463463374607431768211455` as u128, expected any value\")");
    let ours: Ours = ciborium::from_reader(&bytes[..]).unwrap();
    assert_eq!(ours, Ours::Big(big()));
}

/// Row "`u128`/`i128`", tag last, serde_json without `arbitrary_precision`:
/// serde_json reads a number beyond 64 bits as `f64` when the type is not yet
/// known, so a buffered entry can only be refused, never rounded.
#[test]
#[cfg(not(feature = "arbitrary_precision"))]
fn tag_last_128_bit_integers_in_plain_serde_json_are_an_error() {
    let err = serde_json::from_str::<Ours>(BIG_LAST).unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid type: floating point `3.402823669209385e+38`, expected u128 at line 1 column 103"
    );
    let err = serde_json::from_str::<Serde>(BIG_LAST).unwrap_err();
    assert_eq!(err.to_string(), "u128 is not supported");
    // 2^64: one more than fits.
    let err = serde_json::from_str::<Ours>(r#"{"v":18446744073709551616,"w":0,"type":"big"}"#)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid type: floating point `1.8446744073709552e+19`, expected u128 at line 1 column 45"
    );
}

/// With serde_json's `arbitrary_precision` (this crate's feature of that
/// name switches it on) they are kept in every position.
#[test]
#[cfg(feature = "arbitrary_precision")]
fn tag_last_128_bit_integers_with_arbitrary_precision_are_kept() {
    assert_eq!(
        serde_json::from_str::<Ours>(BIG_LAST).unwrap(),
        Ours::Big(big())
    );
    let text = r#"{"v":18446744073709551616,"w":0,"type":"big"}"#;
    assert_eq!(
        serde_json::from_str::<Ours>(text).unwrap(),
        Ours::Big(Big { v: 1 << 64, w: 0 })
    );
}
