//! `exact_numbers`: with serde_json, entries before the tag keep numbers that
//! no 64-bit integer holds, so a payload reads the same whether the tag comes
//! first or last. Without it, serde_json (no `arbitrary_precision`) hands such
//! a number over as an `f64` before the tag is known: those cases are pinned
//! here too, with their messages. The attribute and the builder method need
//! the crate's `exact_numbers` feature; without it only that is checked.

// serde_json's `arbitrary_precision` keeps digits anyway (`exact_numbers`
// then changes nothing), and changes messages these tests pin.
#[cfg(all(feature = "exact_numbers", not(feature = "arbitrary_precision")))]
#[path = "test_exact_numbers/exact.rs"]
mod exact;

#[cfg(all(feature = "exact_numbers", feature = "arbitrary_precision"))]
#[test]
fn with_arbitrary_precision_digits_are_kept_as_serde_json_keeps_them() {
    use json_subtypes::json_subtypes;
    use serde::{Deserialize, Serialize};

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    pub struct Big {
        v: u128,
        n: serde_json::Number,
    }

    #[json_subtypes(tag = "type", exact_numbers)]
    #[derive(Debug, PartialEq)]
    enum Exact {
        #[json_subtypes(name = "big")]
        Big(Big),
    }

    let digits = "340282366920938463463374607431768211455";
    let json = format!(r#"{{"v":{digits},"n":{digits}.5,"type":"big"}}"#);
    let Exact::Big(big) = serde_json::from_str::<Exact>(&json).unwrap();
    assert_eq!(big.v, u128::MAX);
    assert_eq!(big.n.to_string(), format!("{digits}.5"));
}

#[cfg(not(feature = "exact_numbers"))]
#[test]
fn profiles_need_the_feature() {
    use json_subtypes::{json_subtypes, Profile};
    use serde::{Deserialize, Serialize};

    #[json_subtypes(tag = "kind")]
    pub trait Ledger {}

    #[derive(Serialize, Deserialize)]
    pub struct Account {}

    #[json_subtypes(name = "account")]
    impl Ledger for Account {}

    let err = Profile::<dyn Ledger>::builder()
        .tag("t")
        .subtype::<Account>("a")
        .exact_numbers(true)
        .build()
        .err()
        .unwrap();
    assert_eq!(
        err.to_string(),
        "cannot build the profile: exact_numbers(true) needs the `exact_numbers` feature of json_subtypes (it turns on serde_json's `raw_value`); add `features = [\"exact_numbers\"]` to the json_subtypes dependency"
    );
}
