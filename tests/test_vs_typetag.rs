//! typetag and ours side by side: a typetag trait in each of its modes,
//! switched to `#[json_subtypes]` with the matching words, reads the bytes
//! typetag wrote and writes the bytes typetag reads, in JSON, postcard and
//! bincode (the internally tagged form with `as_map`, which reads it with
//! `deserialize_map` as typetag does; without it ours starts with
//! `deserialize_any`, which postcard and bincode do not offer). Then
//! typetag's own tests of its external and adjacent modes (its
//! `tests/test.rs`), ported to the attribute.

use rstest::rstest;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

#[derive(Debug, Serialize, Deserialize)]
struct A {
    a: u8,
}

#[derive(Debug, Serialize, Deserialize)]
struct Unit;

#[derive(Debug, Serialize, Deserialize)]
struct Empty {}

#[derive(Debug, Serialize, Deserialize)]
enum Choice {
    Foo,
    Bar(u8),
}

#[derive(Clone, Copy, Debug)]
enum Format {
    Json,
    Postcard,
    Bincode,
}

use Format::{Bincode, Json, Postcard};

fn write<T: ?Sized + Serialize>(format: Format, value: &T) -> Vec<u8> {
    match format {
        Json => serde_json::to_vec(value).unwrap(),
        Postcard => postcard::to_allocvec(value).unwrap(),
        Bincode => bincode::serialize(value).unwrap(),
    }
}

fn read<T: DeserializeOwned>(format: Format, bytes: &[u8]) -> T {
    match format {
        Json => serde_json::from_slice(bytes).unwrap(),
        Postcard => postcard::from_bytes(bytes).unwrap(),
        Bincode => bincode::deserialize(bytes).unwrap(),
    }
}

/// The same value as a typetag object and as ours: both write the same
/// bytes, each reads the other's, and what is read shows the same.
macro_rules! side_by_side {
    ($format:expr, $value:expr, $theirs:path, $ours:path) => {{
        let format = $format;
        let theirs: &dyn $theirs = &$value;
        let ours: &dyn $ours = &$value;
        let bytes = write(format, theirs);
        assert_eq!(write(format, ours), bytes, "{format:?}");
        let from_theirs: Box<dyn $ours> = read(format, &bytes);
        let from_ours: Box<dyn $theirs> = read(format, &write(format, ours));
        assert_eq!(from_theirs.shown(), from_ours.shown());
        assert_eq!(from_theirs.shown(), format!("{:?}", $value));
        bytes
    }};
}

mod external {
    use super::*;

    #[typetag::serde]
    pub trait Theirs {
        fn shown(&self) -> String;
    }

    #[json_subtypes::json_subtypes(external)]
    pub trait Ours {
        fn shown(&self) -> String;
    }

    macro_rules! both {
        ($($ty:ty)*) => {$(
            #[typetag::serde]
            impl Theirs for $ty {
                fn shown(&self) -> String {
                    format!("{self:?}")
                }
            }

            #[json_subtypes::json_subtypes]
            impl Ours for $ty {
                fn shown(&self) -> String {
                    format!("{self:?}")
                }
            }
        )*};
    }

    both!(A Unit Empty Choice);
}

mod adjacent {
    use super::*;

    #[typetag::serde(tag = "type", content = "content")]
    pub trait Theirs {
        fn shown(&self) -> String;
    }

    #[json_subtypes::json_subtypes(tag = "type", content = "content")]
    pub trait Ours {
        fn shown(&self) -> String;
    }

    macro_rules! both {
        ($($ty:ty)*) => {$(
            #[typetag::serde]
            impl Theirs for $ty {
                fn shown(&self) -> String {
                    format!("{self:?}")
                }
            }

            #[json_subtypes::json_subtypes]
            impl Ours for $ty {
                fn shown(&self) -> String {
                    format!("{self:?}")
                }
            }
        )*};
    }

    both!(A Unit Empty Choice);
}

mod internal {
    use super::*;

    #[typetag::serde(tag = "type")]
    pub trait Theirs {
        fn shown(&self) -> String;
    }

    #[json_subtypes::json_subtypes(tag = "type")]
    pub trait Ours {
        fn shown(&self) -> String;
    }

    macro_rules! both {
        ($($ty:ty)*) => {$(
            #[typetag::serde]
            impl Theirs for $ty {
                fn shown(&self) -> String {
                    format!("{self:?}")
                }
            }

            #[json_subtypes::json_subtypes]
            impl Ours for $ty {
                fn shown(&self) -> String {
                    format!("{self:?}")
                }
            }
        )*};
    }

    both!(A Unit Empty);
}

/// typetag's internally tagged form, `as_map` on ours: a map with the tag
/// entry first.
mod internal_map {
    use super::*;

    #[typetag::serde(tag = "type")]
    pub trait Theirs {
        fn shown(&self) -> String;
    }

    #[json_subtypes::json_subtypes(tag = "type", as_map)]
    pub trait Ours {
        fn shown(&self) -> String;
    }

    macro_rules! both {
        ($($ty:ty)*) => {$(
            #[typetag::serde]
            impl Theirs for $ty {
                fn shown(&self) -> String {
                    format!("{self:?}")
                }
            }

            #[json_subtypes::json_subtypes]
            impl Ours for $ty {
                fn shown(&self) -> String {
                    format!("{self:?}")
                }
            }
        )*};
    }

    both!(A Unit Empty Choice);
}

#[rstest]
fn external_is_typetags_default(#[values(Json, Postcard, Bincode)] format: Format) {
    let bytes = side_by_side!(format, A { a: 11 }, external::Theirs, external::Ours);
    if let Json = format {
        assert_eq!(bytes, br#"{"A":{"a":11}}"#);
    }
    let bytes = side_by_side!(format, Unit, external::Theirs, external::Ours);
    if let Json = format {
        assert_eq!(bytes, br#"{"Unit":null}"#);
    }
    let bytes = side_by_side!(format, Empty {}, external::Theirs, external::Ours);
    if let Json = format {
        assert_eq!(bytes, br#"{"Empty":{}}"#);
    }
    let bytes = side_by_side!(format, Choice::Foo, external::Theirs, external::Ours);
    if let Json = format {
        assert_eq!(bytes, br#"{"Choice":"Foo"}"#);
    }
    side_by_side!(format, Choice::Bar(3), external::Theirs, external::Ours);
}

#[rstest]
fn adjacent_is_typetags_tag_and_content(#[values(Json, Postcard, Bincode)] format: Format) {
    let bytes = side_by_side!(format, A { a: 11 }, adjacent::Theirs, adjacent::Ours);
    if let Json = format {
        assert_eq!(bytes, br#"{"type":"A","content":{"a":11}}"#);
    }
    let bytes = side_by_side!(format, Unit, adjacent::Theirs, adjacent::Ours);
    if let Json = format {
        assert_eq!(bytes, br#"{"type":"Unit","content":null}"#);
    }
    side_by_side!(format, Empty {}, adjacent::Theirs, adjacent::Ours);
    side_by_side!(format, Choice::Foo, adjacent::Theirs, adjacent::Ours);
    side_by_side!(format, Choice::Bar(3), adjacent::Theirs, adjacent::Ours);
}

#[rstest]
fn internal_is_typetags_tag(#[values(Json)] format: Format) {
    let bytes = side_by_side!(format, A { a: 11 }, internal::Theirs, internal::Ours);
    assert_eq!(bytes, br#"{"type":"A","a":11}"#);
    let bytes = side_by_side!(format, Unit, internal::Theirs, internal::Ours);
    assert_eq!(bytes, br#"{"type":"Unit"}"#);
    side_by_side!(format, Empty {}, internal::Theirs, internal::Ours);
}

#[rstest]
fn internal_as_map_is_typetags_tag(#[values(Json, Postcard, Bincode)] format: Format) {
    let bytes = side_by_side!(
        format,
        A { a: 11 },
        internal_map::Theirs,
        internal_map::Ours
    );
    match format {
        Json => assert_eq!(bytes, br#"{"type":"A","a":11}"#),
        // A map of two entries: the tag's, then the field's.
        Postcard => assert_eq!(bytes, b"\x02\x04type\x01A\x01a\x0b"),
        Bincode => assert_eq!(bytes.len(), 8 + (8 + 4) + (8 + 1) + (8 + 1) + 1),
    }
    let bytes = side_by_side!(format, Unit, internal_map::Theirs, internal_map::Ours);
    if let Postcard = format {
        assert_eq!(bytes, b"\x01\x04type\x04Unit");
    }
    side_by_side!(format, Empty {}, internal_map::Theirs, internal_map::Ours);
    // An enum payload: the same bytes, which ours reads back in every
    // format; typetag reads its own back only in JSON (in postcard and
    // bincode it asks for the variant with `deserialize_identifier`).
    for value in [Choice::Foo, Choice::Bar(3)] {
        let theirs: &dyn internal_map::Theirs = &value;
        let ours: &dyn internal_map::Ours = &value;
        let bytes = write(format, theirs);
        assert_eq!(write(format, ours), bytes, "{format:?}");
        let back: Box<dyn internal_map::Ours> = read(format, &bytes);
        assert_eq!(back.shown(), format!("{value:?}"));
        let theirs_back: Result<Box<dyn internal_map::Theirs>, String> = match format {
            Json => serde_json::from_slice(&bytes).map_err(|e| e.to_string()),
            Postcard => postcard::from_bytes(&bytes).map_err(|e| e.to_string()),
            Bincode => bincode::deserialize(&bytes).map_err(|e| e.to_string()),
        };
        match format {
            Json => assert_eq!(theirs_back.unwrap().shown(), format!("{value:?}")),
            _ => assert!(theirs_back.is_err(), "{format:?}"),
        }
        if let (Json, Choice::Foo) = (format, &value) {
            assert_eq!(bytes, br#"{"type":"Choice","Foo":null}"#);
        }
    }
}

/// `{"a": 11, "type": "A"}` as a map in bincode: the tag after a field.
fn bincode_tag_last() -> Vec<u8> {
    let mut bytes = 2u64.to_le_bytes().to_vec();
    bytes.extend(1u64.to_le_bytes());
    bytes.extend(b"a\x0b");
    bytes.extend(4u64.to_le_bytes());
    bytes.extend(b"type");
    bytes.extend(1u64.to_le_bytes());
    bytes.extend(b"A");
    bytes
}

/// In a format that does not describe itself the tag must come first: a
/// key before it is an error that says so, for typetag and for ours.
#[test]
fn internal_as_map_needs_the_tag_first_in_bincode() {
    let bytes = bincode_tag_last();
    let err = bincode::deserialize::<Box<dyn internal_map::Theirs>>(&bytes).err();
    assert_eq!(
        err.map(|e| e.to_string()).as_deref(),
        Some("Bincode does not support the serde::Deserializer::deserialize_any method")
    );
    let err = bincode::deserialize::<Box<dyn internal_map::Ours>>(&bytes).err();
    assert_eq!(
        err.map(|e| e.to_string()).as_deref(),
        Some(
            "Bincode does not support the serde::Deserializer::deserialize_any method: a key came before the tag `type` of dyn Ours, and a format that does not describe itself (postcard, bincode) reads an `as_map` value only with its tag first"
        )
    );
    // postcard keeps no message: ours arrives as its `SerdeDeCustom`.
    let bytes = b"\x02\x01a\x0b\x04type\x01A";
    let err = postcard::from_bytes::<Box<dyn internal_map::Ours>>(bytes).err();
    assert_eq!(err, Some(postcard::Error::SerdeDeCustom));
}

/// With the tag last, JSON (which describes itself) reads `as_map` as it
/// reads the internal form, and so does typetag.
#[rstest]
#[case::tag_last(r#"{"a":11,"type":"A"}"#)]
#[case::tag_first(r#"{"type":"A","a":11}"#)]
fn internal_as_map_reads_json_as_typetag_does(#[case] text: &str) {
    let theirs: Box<dyn internal_map::Theirs> = serde_json::from_str(text).unwrap();
    let ours: Box<dyn internal_map::Ours> = serde_json::from_str(text).unwrap();
    assert_eq!(ours.shown(), theirs.shown());
    assert_eq!(ours.shown(), "A { a: 11 }");
}

/// Errors name the field and what was expected, in bincode as in JSON.
#[rstest]
#[case::unknown_tag(
    Json,
    br#"{"type":"Z","a":1}"#.to_vec(),
    r#"unknown subtype tag "Z", expected one of "A", "Choice", "Empty", "Unit"; to read a type under this tag, put `#[json_subtypes(name = "Z")]` on its `impl Ours`, or read it with a `Profile` that registers it at line 1 column 11"#
)]
#[case::missing_tag(Json, br#"{"a":1}"#.to_vec(), "missing field `type` at line 1 column 7")]
#[case::wrong_field_type(Json, br#"{"type":"A","a":"x"}"#.to_vec(), r#"invalid type: string "x", expected u8 at line 1 column 19"#)]
#[case::bincode_unknown_tag(
    Bincode,
    [&1u64.to_le_bytes()[..], &4u64.to_le_bytes(), b"type", &1u64.to_le_bytes(), b"Z"].concat(),
    r#"unknown subtype tag "Z", expected one of "A", "Choice", "Empty", "Unit"; to read a type under this tag, put `#[json_subtypes(name = "Z")]` on its `impl Ours`, or read it with a `Profile` that registers it"#
)]
#[case::bincode_missing_field(
    Bincode,
    [&1u64.to_le_bytes()[..], &4u64.to_le_bytes(), b"type", &1u64.to_le_bytes(), b"A"].concat(),
    "missing field `a`"
)]
fn internal_as_map_errors(#[case] format: Format, #[case] bytes: Vec<u8>, #[case] expected: &str) {
    let err = match format {
        Json => serde_json::from_slice::<Box<dyn internal_map::Ours>>(&bytes)
            .err()
            .map(|e| e.to_string()),
        _ => bincode::deserialize::<Box<dyn internal_map::Ours>>(&bytes)
            .err()
            .map(|e| e.to_string()),
    };
    assert_eq!(err.as_deref(), Some(expected));
}

/// What typetag reads and we read alike, beyond what either writes.
#[rstest]
#[case::content_first(r#"{"content":{"a":11},"type":"A"}"#)]
#[case::unknown_keys(r#"{"x":[1],"type":"A","y":{},"content":{"a":11},"z":null}"#)]
#[case::unit_without_content(r#"{"type":"Unit"}"#)]
#[case::sequence(r#"["A",{"a":11}]"#)]
fn adjacent_reads_what_typetag_reads(#[case] text: &str) {
    let theirs: Box<dyn adjacent::Theirs> = serde_json::from_str(text).unwrap();
    let ours: Box<dyn adjacent::Ours> = serde_json::from_str(text).unwrap();
    assert_eq!(ours.shown(), theirs.shown());
}

/// Both refuse, with the messages each gives.
#[rstest]
#[case::unknown_tag(
    r#"{"type":"Z","content":{}}"#,
    "unknown variant `Z`, expected one of `A`, `Choice`, `Empty`, `Unit` at line 1 column 11",
    r#"unknown subtype tag "Z", expected one of "A", "Choice", "Empty", "Unit"; to read a type under this tag, put `#[json_subtypes(name = "Z")]` on its `impl Ours`, or read it with a `Profile` that registers it at line 1 column 11"#
)]
#[case::missing_tag(
    r#"{"content":{}}"#,
    "missing field `type` at line 1 column 14",
    "missing field `type` at line 1 column 14"
)]
#[case::tag_twice(
    r#"{"type":"A","type":"A","content":{"a":1}}"#,
    "duplicate field `type` at line 1 column 18",
    "duplicate field `type` at line 1 column 18"
)]
fn adjacent_refuses_what_typetag_refuses(
    #[case] text: &str,
    #[case] theirs: &str,
    #[case] ours: &str,
) {
    let err = serde_json::from_str::<Box<dyn adjacent::Theirs>>(text).err();
    assert_eq!(err.map(|e| e.to_string()).as_deref(), Some(theirs));
    let err = serde_json::from_str::<Box<dyn adjacent::Ours>>(text).err();
    assert_eq!(err.map(|e| e.to_string()).as_deref(), Some(ours));
}

#[rstest]
#[case::unknown_tag(
    r#"{"Z":{}}"#,
    "unknown variant `Z`, expected one of `A`, `Choice`, `Empty`, `Unit` at line 1 column 4",
    r#"unknown subtype tag "Z", expected one of "A", "Choice", "Empty", "Unit"; to read a type under this tag, put `#[json_subtypes(name = "Z")]` on its `impl Ours`, or read it with a `Profile` that registers it at line 1 column 4"#
)]
fn external_refuses_what_typetag_refuses(
    #[case] text: &str,
    #[case] theirs: &str,
    #[case] ours: &str,
) {
    let err = serde_json::from_str::<Box<dyn external::Theirs>>(text).err();
    assert_eq!(err.map(|e| e.to_string()).as_deref(), Some(theirs));
    let err = serde_json::from_str::<Box<dyn external::Ours>>(text).err();
    assert_eq!(err.map(|e| e.to_string()).as_deref(), Some(ours));
}

/// typetag's `tests/test.rs`, its modules for the external and adjacent
/// modes, with `#[typetag::serde(...)]` switched to `#[json_subtypes(...)]`
/// (`external` for typetag's default). They pass unchanged; typetag's
/// `default_variant` has no counterpart (a fallback receives the whole
/// object instead), so `adjacent_with_default` is not ported.
mod typetag_tests {
    use serde::{Deserialize, Serialize};

    #[derive(Serialize, Deserialize)]
    struct A {
        a: u8,
    }

    #[derive(Serialize, Deserialize)]
    struct B {
        b: u8,
    }

    mod externally_tagged {
        use super::{A, B};
        use json_subtypes::json_subtypes;

        #[json_subtypes(external)]
        trait Trait {
            fn assert_a_is_11(&self);
            fn assert_b_is_11(&self);
        }

        #[json_subtypes]
        impl Trait for A {
            fn assert_a_is_11(&self) {
                assert_eq!(self.a, 11);
            }
            fn assert_b_is_11(&self) {
                panic!("is not B!");
            }
        }

        #[json_subtypes]
        impl Trait for B {
            fn assert_a_is_11(&self) {
                panic!("is not A!");
            }
            fn assert_b_is_11(&self) {
                assert_eq!(self.b, 11);
            }
        }

        #[test]
        fn test_json_serialize() {
            let trait_object = &A { a: 11 } as &dyn Trait;
            let json = serde_json::to_string(trait_object).unwrap();
            let expected = r#"{"A":{"a":11}}"#;
            assert_eq!(json, expected);
        }

        #[test]
        fn test_json_deserialize() {
            let json = r#"{"B":{"b":11}}"#;
            let trait_object: Box<dyn Trait> = serde_json::from_str(json).unwrap();
            trait_object.assert_b_is_11();
        }

        #[test]
        fn test_postcard_round_trip() {
            let trait_object = &A { a: 11 } as &dyn Trait;
            let bytes = postcard::to_stdvec(trait_object).unwrap();
            let trait_object: Box<dyn Trait> = postcard::from_bytes(&bytes).unwrap();
            trait_object.assert_a_is_11();
        }
    }

    mod adjacently_tagged {
        use super::{A, B};
        use json_subtypes::json_subtypes;

        #[json_subtypes(tag = "type", content = "content")]
        trait Trait {
            fn assert_a_is_11(&self);
            fn assert_b_is_11(&self);
        }

        #[json_subtypes]
        impl Trait for A {
            fn assert_a_is_11(&self) {
                assert_eq!(self.a, 11);
            }
            fn assert_b_is_11(&self) {
                panic!("is not B!");
            }
        }

        #[json_subtypes]
        impl Trait for B {
            fn assert_a_is_11(&self) {
                panic!("is not A!");
            }
            fn assert_b_is_11(&self) {
                assert_eq!(self.b, 11);
            }
        }

        #[test]
        fn test_json_serialize() {
            let trait_object = &A { a: 11 } as &dyn Trait;
            let json = serde_json::to_string(trait_object).unwrap();
            let expected = r#"{"type":"A","content":{"a":11}}"#;
            assert_eq!(json, expected);
        }

        #[test]
        fn test_json_deserialize() {
            let json = r#"{"type":"B","content":{"b":11}}"#;
            let trait_object: Box<dyn Trait> = serde_json::from_str(json).unwrap();
            trait_object.assert_b_is_11();

            let json = r#"{"type":"B","content":{"b":11},"unknown":null}"#;
            let trait_object: Box<dyn Trait> = serde_json::from_str(json).unwrap();
            trait_object.assert_b_is_11();
        }

        #[test]
        fn test_postcard_round_trip() {
            let trait_object = &A { a: 11 } as &dyn Trait;
            let bytes = postcard::to_stdvec(trait_object).unwrap();
            let trait_object: Box<dyn Trait> = postcard::from_bytes(&bytes).unwrap();
            trait_object.assert_a_is_11();
        }
    }

    mod other_types {
        use json_subtypes::json_subtypes;
        use serde::{Deserialize, Serialize};

        #[derive(Serialize, Deserialize)]
        struct A {}

        #[derive(Serialize, Deserialize)]
        struct B;

        #[derive(Serialize, Deserialize)]
        enum C {
            Foo,
        }

        #[json_subtypes(external)]
        trait Trait {
            fn assert_is_a(&self);
            fn assert_is_b(&self);
            fn assert_is_c(&self);
        }

        #[json_subtypes]
        impl Trait for A {
            fn assert_is_a(&self) {}
            fn assert_is_b(&self) {
                panic!("is A");
            }
            fn assert_is_c(&self) {
                panic!("is A");
            }
        }

        #[json_subtypes]
        impl Trait for B {
            fn assert_is_a(&self) {
                panic!("is B");
            }
            fn assert_is_b(&self) {}
            fn assert_is_c(&self) {
                panic!("is B");
            }
        }

        #[json_subtypes]
        impl Trait for C {
            fn assert_is_a(&self) {
                panic!("is C");
            }
            fn assert_is_b(&self) {
                panic!("is C");
            }
            fn assert_is_c(&self) {}
        }

        #[test]
        fn test_json_round_trip() {
            let trait_object = &A {} as &dyn Trait;
            let json = serde_json::to_string(trait_object).unwrap();
            let expected = r#"{"A":{}}"#;
            assert_eq!(json, expected);
            let round_trip_object: Box<dyn Trait> = serde_json::from_str(&json).unwrap();
            round_trip_object.assert_is_a();

            let trait_object = &B as &dyn Trait;
            let json = serde_json::to_string(trait_object).unwrap();
            let expected = r#"{"B":null}"#;
            assert_eq!(json, expected);
            let round_trip_object: Box<dyn Trait> = serde_json::from_str(&json).unwrap();
            round_trip_object.assert_is_b();

            let trait_object = &C::Foo as &dyn Trait;
            let json = serde_json::to_string(trait_object).unwrap();
            let expected = r#"{"C":"Foo"}"#;
            assert_eq!(json, expected);
            let round_trip_object: Box<dyn Trait> = serde_json::from_str(&json).unwrap();
            round_trip_object.assert_is_c();
        }

        #[test]
        fn test_postcard_round_trip() {
            let trait_object = &A {} as &dyn Trait;
            let bytes = postcard::to_stdvec(trait_object).unwrap();
            let trait_object: Box<dyn Trait> = postcard::from_bytes(&bytes).unwrap();
            trait_object.assert_is_a();

            let trait_object = &B as &dyn Trait;
            let bytes = postcard::to_stdvec(trait_object).unwrap();
            let trait_object: Box<dyn Trait> = postcard::from_bytes(&bytes).unwrap();
            trait_object.assert_is_b();

            let trait_object = &C::Foo as &dyn Trait;
            let bytes = postcard::to_stdvec(trait_object).unwrap();
            let trait_object: Box<dyn Trait> = postcard::from_bytes(&bytes).unwrap();
            trait_object.assert_is_c();
        }
    }

    mod adjacent_deny_unknown {
        use super::{A, B};
        use json_subtypes::json_subtypes;

        #[json_subtypes(tag = "type", content = "content", deny_unknown_fields)]
        trait Trait {}

        #[json_subtypes]
        impl Trait for A {}

        #[json_subtypes]
        impl Trait for B {}

        #[test]
        fn test_json_deserialize_deny_unknown() {
            let json = r#"{"type":"B","content":{"b":11},"unknown":null}"#;
            match serde_json::from_str::<Box<dyn Trait>>(json) {
                Ok(_) => panic!("unexpectedly deserialized successfully despite unknown field"),
                Err(err) => {
                    let expected =
                        "unknown field `unknown`, expected `type` or `content` at line 1 column 40";
                    assert_eq!(err.to_string(), expected);
                }
            }
        }
    }
}
