//! The tests that need the `exact_numbers` feature.

use json_subtypes::{json_subtypes, Profile};
use rstest::rstest;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Big {
    v: u128,
    w: i128,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Single {
    f: f32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Deep {
    inner: Big,
    list: Vec<u128>,
    label: String,
    none: Option<u8>,
    flag: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Loose {
    any: serde_json::Value,
    n: f64,
    i: i64,
}

macro_rules! events {
    ($name:ident $(, $extra:ident)?) => {
        #[json_subtypes(tag = "type" $(, $extra)?)]
        #[derive(Debug, Clone, PartialEq)]
        pub enum $name {
            #[json_subtypes(name = "big")]
            Big(Big),
            #[json_subtypes(name = "single")]
            Single(Single),
            #[json_subtypes(name = "deep")]
            Deep(Deep),
            #[json_subtypes(name = "loose")]
            Loose(Loose),
        }
    };
}

events!(Exact, exact_numbers);
events!(Plain);

const U128_MAX: &str = "340282366920938463463374607431768211455";
const I128_MIN: &str = "-170141183460469231731687303715884105728";
/// Just above the point halfway between two `f32`s: rounded once it is the
/// upper one, rounded through `f64` first it is the lower (serde_json's
/// `float_roundtrip`, on in this crate's tests, parses an `f32` directly).
const F32_TRICKY: &str = "1.0000000596046447753906251";

fn big_json(v: &str, w: &str, tag_last: bool) -> String {
    if tag_last {
        format!(r#"{{"v":{v},"w":{w},"type":"big"}}"#)
    } else {
        format!(r#"{{"type":"big","v":{v},"w":{w}}}"#)
    }
}

/// What serde_json makes of the same object with the tag first, read as
/// `T`: the reference a tag-last read must match.
fn tag_first<T: serde::de::DeserializeOwned>(tag_last_json: &str, tag: &str) -> Result<T, String> {
    // Move the tag entry to the front by editing the text: a `Value` would
    // lose the very digits under test.
    let entry = format!(r#","type":"{tag}"}}"#);
    let body = tag_last_json.strip_suffix(&entry).expect("tag last");
    let json = format!(r#"{{"type":"{tag}",{}}}"#, &body[1..]);
    serde_json::from_str(&json).map_err(|e| without_position(&e))
}

fn without_position(e: &serde_json::Error) -> String {
    let s = e.to_string();
    match s.find(" at line ") {
        Some(at) => s[..at].to_owned(),
        None => s,
    }
}

#[rstest]
#[case::u128_max_and_i128_min(U128_MAX, I128_MIN, Big { v: u128::MAX, w: i128::MIN })]
#[case::u64_max_plus_one("18446744073709551616", "-9223372036854775809", Big { v: 1 << 64, w: -(1 << 63) - 1 })]
#[case::small("7", "-7", Big { v: 7, w: -7 })]
#[case::zero("0", "-0", Big { v: 0, w: 0 })]
fn wide_integers_read_exactly_with_the_tag_last(
    #[case] v: &str,
    #[case] w: &str,
    #[case] expected: Big,
) {
    let expected = Exact::Big(expected);
    for tag_last in [true, false] {
        let json = big_json(v, w, tag_last);
        let from_str: Exact = serde_json::from_str(&json).unwrap();
        assert_eq!(from_str, expected, "{json}");
        let from_slice: Exact = serde_json::from_slice(json.as_bytes()).unwrap();
        assert_eq!(from_slice, expected, "{json}");
    }
    // Round trip: what we write reads back, and so does its tag-last form.
    let Exact::Big(big) = &expected else {
        unreachable!()
    };
    let (v, w) = (big.v.to_string(), big.w.to_string());
    let written = serde_json::to_string(&expected).unwrap();
    assert_eq!(written, big_json(&v, &w, false));
    assert_eq!(serde_json::from_str::<Exact>(&written).unwrap(), expected);
    assert_eq!(
        serde_json::from_str::<Exact>(&big_json(&v, &w, true)).unwrap(),
        expected
    );
}

#[rstest]
#[case::u128_max(
    U128_MAX,
    "1",
    "invalid type: floating point `3.402823669209385e+38`, expected u128 at line 1 column 64"
)]
#[case::i128_min(
    "1",
    I128_MIN,
    "invalid type: floating point `-1.7014118346046923e+38`, expected i128 at line 1 column 65"
)]
#[case::u64_max_plus_one(
    "18446744073709551616",
    "1",
    "invalid type: floating point `1.8446744073709552e+19`, expected u128 at line 1 column 45"
)]
fn without_exact_numbers_wide_integers_before_the_tag_are_refused(
    #[case] v: &str,
    #[case] w: &str,
    #[case] message: &str,
) {
    let json = big_json(v, w, true);
    let err = serde_json::from_str::<Plain>(&json).unwrap_err();
    assert_eq!(err.to_string(), message);
    // With the tag first they read, exactly.
    let first = big_json(v, w, false);
    assert!(serde_json::from_str::<Plain>(&first).is_ok());
}

/// Out-of-range 128-bit values give serde_json's own message. Where
/// serde_json's in-place reading has its quirks (a float into `u128` reads
/// the integer part and then fails on the `.`), the refusal names the type.
#[rstest]
#[case::beyond_u128(
    "340282366920938463463374607431768211456",
    "1",
    "number out of range",
    true
)]
#[case::beyond_i128(
    "1",
    "-170141183460469231731687303715884105729",
    "number out of range",
    true
)]
#[case::negative_into_u128("-1", "1", "invalid value: integer `-1`, expected u128", false)]
#[case::float_into_u128("1.5", "1", "invalid type: floating point `1.5`, expected u128", false)]
#[case::exponent_into_i128(
    "1",
    "1e3",
    "invalid type: floating point `1000.0`, expected i128",
    false
)]
fn out_of_range_128_bit_values_are_refused(
    #[case] v: &str,
    #[case] w: &str,
    #[case] message: &str,
    #[case] as_tag_first: bool,
) {
    let json = big_json(v, w, true);
    let ours = serde_json::from_str::<Exact>(&json).map_err(|e| without_position(&e));
    assert_eq!(ours, Err(message.to_owned()), "{json}");
    if as_tag_first {
        assert_eq!(ours, tag_first::<Exact>(&json, "big"), "{json}");
    }
}

#[test]
fn f32_is_parsed_from_the_text_as_with_the_tag_first() {
    let last = format!(r#"{{"f":{F32_TRICKY},"type":"single"}}"#);
    let expected = tag_first::<Exact>(&last, "single").unwrap();
    assert_eq!(expected, Exact::Single(Single { f: 1.000_000_1 }));
    assert_eq!(serde_json::from_str::<Exact>(&last).unwrap(), expected);
    // Without `exact_numbers` the buffered `f64` is rounded again.
    assert_eq!(
        serde_json::from_str::<Plain>(&last).unwrap(),
        Plain::Single(Single { f: 1.0 })
    );
    // Round trip.
    let written = serde_json::to_string(&expected).unwrap();
    assert_eq!(written, r#"{"type":"single","f":1.0000001}"#);
    assert_eq!(serde_json::from_str::<Exact>(&written).unwrap(), expected);
}

#[test]
fn nested_values_before_the_tag_keep_their_numbers() {
    let json = format!(
        "{{ \"inner\" : {{\"v\":{U128_MAX}, \"w\" :{I128_MIN}}},\n  \"list\": [ {U128_MAX}, 0, 18446744073709551616 ],\
         \"label\": \"tab\\there \\u00e9 \\\"q\\\"\", \"none\": null, \"flag\": true, \"type\": \"deep\" }}"
    );
    let expected = Exact::Deep(Deep {
        inner: Big {
            v: u128::MAX,
            w: i128::MIN,
        },
        list: vec![u128::MAX, 0, 1 << 64],
        label: "tab\there é \"q\"".to_owned(),
        none: None,
        flag: true,
    });
    assert_eq!(serde_json::from_str::<Exact>(&json).unwrap(), expected);
    assert_eq!(
        serde_json::from_slice::<Exact>(json.as_bytes()).unwrap(),
        expected
    );
    let written = serde_json::to_string(&expected).unwrap();
    assert_eq!(serde_json::from_str::<Exact>(&written).unwrap(), expected);
}

#[rstest]
#[case::wide_int(r#"{"any":340282366920938463463374607431768211455,"n":18446744073709551616,"i":-5,"type":"loose"}"#)]
#[case::floats(r#"{"any":[1.5,-0,1e2,0.1],"n":2.5e-3,"i":9223372036854775807,"type":"loose"}"#)]
#[case::objects(r#"{"any":{"a":{"b":[true,false,null,"x"]},"c":{}},"n":-0.0,"i":-9223372036854775808,"type":"loose"}"#)]
fn other_requests_see_what_serde_json_hands_over(#[case] json: &str) {
    // `Value`, `f64` and `i64` fields: the same values as with the tag first.
    let ours = serde_json::from_str::<Exact>(json).unwrap();
    assert_eq!(Ok(ours.clone()), tag_first::<Exact>(json, "loose"));
    assert_eq!(
        Ok(ours),
        tag_first::<Plain>(json, "loose").map(|p| match p {
            Plain::Loose(l) => Exact::Loose(l),
            _ => unreachable!(),
        })
    );
}

#[rstest]
#[case::string_into_int(
    r#"{"i":"7","any":1,"n":1,"type":"loose"}"#,
    "invalid type: string \"7\", expected i64"
)]
#[case::wide_into_int(
    r#"{"i":18446744073709551616,"any":1,"n":1,"type":"loose"}"#,
    "invalid type: floating point `1.8446744073709552e+19`, expected i64"
)]
#[case::lone_surrogate(
    r#"{"any":"\ud800","i":1,"n":1,"type":"loose"}"#,
    "unexpected end of hex escape"
)]
fn errors_name_what_was_expected(#[case] json: &str, #[case] message: &str) {
    let err = serde_json::from_str::<Exact>(json).unwrap_err();
    assert_eq!(without_position(&err), message);
    // The same message as without `exact_numbers`, and as the tag first.
    let plain = serde_json::from_str::<Plain>(json).unwrap_err();
    assert_eq!(without_position(&plain), message);
    assert_eq!(tag_first::<Exact>(json, "loose"), Err(message.to_owned()));
}

#[test]
fn limits_still_apply() {
    #[json_subtypes(tag = "type", exact_numbers, max_buffer = 16)]
    #[derive(Debug, PartialEq)]
    enum Bounded {
        #[json_subtypes(name = "big")]
        Big(Big),
    }
    let json = big_json(U128_MAX, "1", true);
    let err = serde_json::from_str::<Bounded>(&json).unwrap_err();
    assert_eq!(
        without_position(&err),
        "more than 16 bytes buffered before the tag `type` of Bounded (max_buffer = 16)"
    );
    let deep = format!(
        "{{\"any\":{}1{},\"type\":\"loose\"}}",
        "[".repeat(200),
        "]".repeat(200)
    );
    let err = serde_json::from_str::<Exact>(&deep).unwrap_err();
    assert_eq!(without_position(&err), "recursion limit exceeded");
}

#[test]
fn other_readers_and_formats_are_unaffected() {
    // serde_json over an `io::Read` hands numbers over as before.
    let json = big_json(U128_MAX, "1", true);
    let err = serde_json::from_reader::<_, Exact>(json.as_bytes()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid type: floating point `3.402823669209385e+38`, expected u128 at line 1 column 64"
    );
    // CBOR keeps 128-bit integers in any position.
    let value = Exact::Big(Big {
        v: u128::MAX,
        w: i128::MIN,
    });
    let mut cbor = Vec::new();
    ciborium::into_writer(&value, &mut cbor).unwrap();
    assert_eq!(
        ciborium::from_reader::<Exact, _>(cbor.as_slice()).unwrap(),
        value
    );
}

#[json_subtypes(tag = "kind", exact_numbers)]
pub trait Ledger {
    fn total(&self) -> u128;
}

#[derive(Debug, Serialize, Deserialize)]
pub struct Account {
    balance: u128,
}

#[json_subtypes(name = "account")]
impl Ledger for Account {
    fn total(&self) -> u128 {
        self.balance
    }
}

#[test]
fn trait_objects_and_profiles() {
    let json = format!(r#"{{"balance":{U128_MAX},"kind":"account"}}"#);
    let ledger: Box<dyn Ledger> = serde_json::from_str(&json).unwrap();
    assert_eq!(ledger.total(), u128::MAX);
    let written = serde_json::to_string(&ledger).unwrap();
    assert_eq!(
        written,
        format!(r#"{{"kind":"account","balance":{U128_MAX}}}"#)
    );
    let back: Box<dyn Ledger> = serde_json::from_str(&written).unwrap();
    assert_eq!(back.total(), u128::MAX);

    let exact = Profile::<dyn Ledger>::builder()
        .tag("t")
        .subtype::<Account>("a")
        .exact_numbers(true)
        .build()
        .unwrap();
    let plain = Profile::<dyn Ledger>::builder()
        .tag("t")
        .subtype::<Account>("a")
        .build()
        .unwrap();
    let json = format!(r#"{{"balance":{U128_MAX},"t":"a"}}"#);
    assert_eq!(exact.from_str(&json).unwrap().total(), u128::MAX);
    assert_eq!(
        plain
            .from_str(&json)
            .map(|l| l.total())
            .unwrap_err()
            .to_string(),
        "invalid type: floating point `3.402823669209385e+38`, expected u128 at line 1 column 59"
    );
    // A profile built from the registry keeps the setting.
    let inherited = Profile::<dyn Ledger>::builder_from_registry()
        .build()
        .unwrap();
    let json = format!(r#"{{"balance":{U128_MAX},"kind":"account"}}"#);
    assert_eq!(inherited.from_str(&json).unwrap().total(), u128::MAX);
}

#[test]
fn strings_of_every_length_and_escape_position() {
    // Strings are scanned eight bytes at a time: every length and every
    // place of an escape around those steps.
    for len in 0..40 {
        for escape in [None, Some(0), Some(len / 2), Some(len)] {
            let mut text = "é".repeat(len / 3) + &"a".repeat(len - len / 3);
            let mut json_text = text.clone();
            if let Some(at) = escape {
                let at = text.char_indices().nth(at).map_or(text.len(), |(i, _)| i);
                text.insert(at, '"');
                json_text.insert_str(at, "\\\"");
            }
            let json = format!(r#"{{"any":"{json_text}","i":1,"n":2,"type":"loose"}}"#);
            let read = serde_json::from_str::<Exact>(&json).unwrap();
            assert_eq!(
                read,
                Exact::Loose(Loose {
                    any: serde_json::Value::String(text.clone()),
                    n: 2.0,
                    i: 1,
                }),
                "{json}"
            );
        }
    }
}

#[test]
fn presence_mode_reads_the_whole_object_from_its_text() {
    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    pub struct Transfer {
        amount: u128,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    pub struct Refund {
        refunded: i128,
    }

    #[json_subtypes(exact_numbers)]
    #[derive(Debug, PartialEq)]
    enum Movement {
        #[json_subtypes(when_field = "amount")]
        Transfer(Transfer),
        #[json_subtypes(when_field = "refunded")]
        Refund(Refund),
    }

    let json = format!(r#"{{"amount":{U128_MAX}}}"#);
    let read = serde_json::from_str::<Movement>(&json).unwrap();
    assert_eq!(read, Movement::Transfer(Transfer { amount: u128::MAX }));
    assert_eq!(serde_json::to_string(&read).unwrap(), json);
    let json = format!(r#"{{"refunded":{I128_MIN}}}"#);
    let read = serde_json::from_slice::<Movement>(json.as_bytes()).unwrap();
    assert_eq!(
        read,
        Movement::Refund(Refund {
            refunded: i128::MIN
        })
    );
    assert_eq!(serde_json::to_string(&read).unwrap(), json);
}
