//! Presence mode: an enum without `tag` picks the variant whose
//! `when_field`s appear in the object, whatever their order.

use json_subtypes::{json_subtypes, Unknown};
use rstest::rstest;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Developer {
    name: String,
    skill: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Manager {
    name: String,
    reports: Vec<String>,
}

#[json_subtypes]
#[derive(Debug, Clone, PartialEq)]
enum Employee {
    #[json_subtypes(when_field = "skill")]
    Developer(Developer),
    #[json_subtypes(when_field = "reports", when_field = "team")]
    Manager(Manager),
    #[json_subtypes(when_field = "budget_eur")]
    Director { name: String, budget_eur: u64 },
    #[json_subtypes(fallback)]
    Other(Unknown),
}

#[rstest]
#[case::first(r#"{"skill":"rust","name":"a"}"#, Employee::Developer(Developer { name: "a".into(), skill: Some("rust".into()) }))]
#[case::last(r#"{"name":"a","skill":"rust"}"#, Employee::Developer(Developer { name: "a".into(), skill: Some("rust".into()) }))]
#[case::null_counts_as_present(r#"{"name":"a","skill":null}"#, Employee::Developer(Developer { name: "a".into(), skill: None }))]
#[case::second_field(r#"{"name":"m","team":"x","reports":["a"]}"#, Employee::Manager(Manager { name: "m".into(), reports: vec!["a".into()] }))]
#[case::struct_variant(r#"{"budget_eur":5,"name":"d"}"#, Employee::Director { name: "d".into(), budget_eur: 5 })]
fn picks_by_present_fields(#[case] text: &str, #[case] expected: Employee) {
    assert_eq!(serde_json::from_str::<Employee>(text).unwrap(), expected);
}

#[test]
fn no_match_lands_in_the_fallback() {
    let text = r#"{"name":"x","title":"intern"}"#;
    let Employee::Other(u) = serde_json::from_str(text).unwrap() else {
        panic!()
    };
    assert_eq!(u.tag_key(), None);
    assert_eq!(serde_json::to_string(&Employee::Other(u)).unwrap(), text);
}

#[test]
fn writes_payloads_as_they_are() {
    let values = [
        Employee::Developer(Developer {
            name: "a".into(),
            skill: None,
        }),
        Employee::Manager(Manager {
            name: "m".into(),
            reports: vec![],
        }),
        Employee::Director {
            name: "d".into(),
            budget_eur: 1,
        },
    ];
    let texts = [
        r#"{"name":"a","skill":null}"#,
        r#"{"name":"m","reports":[]}"#,
        r#"{"name":"d","budget_eur":1}"#,
    ];
    for (value, text) in values.iter().zip(texts) {
        assert_eq!(serde_json::to_string(value).unwrap(), text);
        assert_eq!(&serde_json::from_str::<Employee>(text).unwrap(), value);
    }
}

#[test]
fn ambiguity_is_an_error_naming_the_candidates() {
    let err =
        serde_json::from_str::<Employee>(r#"{"skill":"x","reports":[],"name":"a"}"#).unwrap_err();
    assert_eq!(
        err.to_string(),
        "ambiguous subtype of Employee: the fields match both Developer and Manager at line 1 column 37"
    );
}

#[test]
fn a_known_shape_with_a_bad_body_reports_the_body() {
    let err = serde_json::from_str::<Employee>(r#"{"skill":"x"}"#).unwrap_err();
    assert_eq!(err.to_string(), "missing field `name` at line 1 column 13");
}

#[json_subtypes]
#[derive(Debug, Clone, PartialEq)]
enum Strict {
    #[json_subtypes(when_field = "a")]
    A { a: u8 },
    #[json_subtypes(when_field = "b")]
    B { b: u8 },
}

#[test]
fn without_fallback_no_match_is_an_error_listing_the_fields() {
    let err = serde_json::from_str::<Strict>(r#"{"c":1}"#).unwrap_err();
    assert_eq!(
        err.to_string(),
        "no subtype of Strict matches: expected one of the fields `a`, `b` at line 1 column 7"
    );
}

#[json_subtypes(first_match)]
#[derive(Debug, Clone, PartialEq)]
enum FirstMatch {
    #[json_subtypes(when_field = "a")]
    A {
        a: u8,
        #[serde(default)]
        b: u8,
    },
    #[json_subtypes(when_field = "b")]
    B { b: u8 },
}

#[rstest]
#[case(r#"{"a":1,"b":2}"#)]
#[case(r#"{"b":2,"a":1}"#)]
fn first_match_takes_the_first_declared(#[case] text: &str) {
    assert_eq!(
        serde_json::from_str::<FirstMatch>(text).unwrap(),
        FirstMatch::A { a: 1, b: 2 }
    );
}

/// Every permutation of the keys of many objects gives the same verdict.
#[test]
fn the_decision_does_not_depend_on_key_order() {
    let objects: &[&[(&str, &str)]] = &[
        &[("name", r#""a""#), ("skill", r#""rust""#), ("x", "[1,{}]")],
        &[
            ("name", r#""m""#),
            ("team", "1"),
            ("reports", "[]"),
            ("y", "null"),
        ],
        &[
            ("budget_eur", "7"),
            ("name", r#""d""#),
            ("z", r#"{"skill":1}"#),
        ],
        &[("skill", "null"), ("reports", "[]"), ("name", r#""q""#)],
        &[("name", r#""o""#), ("other", "true"), ("more", "2")],
    ];
    for entries in objects {
        let mut verdicts = Vec::new();
        permute(entries.to_vec(), 0, &mut |perm| {
            let body: Vec<String> = perm.iter().map(|(k, v)| format!(r#""{k}":{v}"#)).collect();
            let text = format!("{{{}}}", body.join(","));
            let verdict = match serde_json::from_str::<Employee>(&text) {
                Ok(Employee::Other(u)) => format!("other {}", u.len()),
                Ok(value) => format!("{value:?}"),
                Err(e) => e.to_string().split(" at line").next().unwrap().to_owned(),
            };
            verdicts.push(verdict);
        });
        assert!(verdicts.len() > 1);
        assert!(verdicts.iter().all(|v| v == &verdicts[0]), "{verdicts:?}");
    }
}

fn permute<T: Clone>(mut items: Vec<T>, k: usize, f: &mut impl FnMut(&[T])) {
    if k == items.len() {
        return f(&items);
    }
    for i in k..items.len() {
        items.swap(k, i);
        permute(items.clone(), k + 1, f);
        items.swap(k, i);
    }
}
