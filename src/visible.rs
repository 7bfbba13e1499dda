//! Whether a payload's field holds its variant's tag (`visible`): the tag
//! and the field are serialized into each other, so nothing is allocated
//! and any integer width or a `&str`, `String`, `char` or unit enum
//! variant compares with a literal tag.

use core::fmt;

use serde::ser::{self, Impossible, Serialize, Serializer};

/// Whether `value` serializes as the same string, integer or bool as `tag`.
pub(crate) fn same_scalar<G: ?Sized + Serialize, V: ?Sized + Serialize>(
    tag: &G,
    value: &V,
) -> bool {
    tag.serialize(TagSide(value)).unwrap_or(false)
}

#[derive(Clone, Copy, PartialEq)]
enum Scalar<'a> {
    Str(&'a str),
    Int(i128),
    Bool(bool),
}

/// The error of the probing serializers here and in `tag_writer/fields.rs`: they
/// answer a yes/no question, so a value they cannot take is a "no", never
/// shown.
#[derive(Debug)]
pub(crate) struct Declined;

impl fmt::Display for Declined {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not what was asked")
    }
}

impl std::error::Error for Declined {}

impl ser::Error for Declined {
    fn custom<T: fmt::Display>(_: T) -> Self {
        Declined
    }
}

type No = Impossible<bool, Declined>;

/// The compound methods of a yes/no probing serializer (here and in
/// `tag_writer/fields.rs`): no sequence or map is what was asked.
macro_rules! declines_compounds {
    () => {
        crate::visible::declines_compounds!(but_struct);
        fn serialize_struct(
            self,
            _: &'static str,
            _: usize,
        ) -> Result<serde::ser::Impossible<bool, crate::visible::Declined>, crate::visible::Declined> {
            Err(crate::visible::Declined)
        }
    };
    (but_struct) => {
        fn serialize_seq(
            self,
            _: Option<usize>,
        ) -> Result<serde::ser::Impossible<bool, crate::visible::Declined>, crate::visible::Declined> {
            Err(crate::visible::Declined)
        }
        fn serialize_tuple(
            self,
            _: usize,
        ) -> Result<serde::ser::Impossible<bool, crate::visible::Declined>, crate::visible::Declined> {
            Err(crate::visible::Declined)
        }
        fn serialize_tuple_struct(
            self,
            _: &'static str,
            _: usize,
        ) -> Result<serde::ser::Impossible<bool, crate::visible::Declined>, crate::visible::Declined> {
            Err(crate::visible::Declined)
        }
        fn serialize_tuple_variant(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: usize,
        ) -> Result<serde::ser::Impossible<bool, crate::visible::Declined>, crate::visible::Declined> {
            Err(crate::visible::Declined)
        }
        fn serialize_map(
            self,
            _: Option<usize>,
        ) -> Result<serde::ser::Impossible<bool, crate::visible::Declined>, crate::visible::Declined> {
            Err(crate::visible::Declined)
        }
        fn serialize_struct_variant(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: usize,
        ) -> Result<serde::ser::Impossible<bool, crate::visible::Declined>, crate::visible::Declined> {
            Err(crate::visible::Declined)
        }
    };
}
pub(crate) use declines_compounds;

/// The methods that never make a scalar: `false`. `but_struct`: all but
/// `serialize_struct`, which the caller writes.
macro_rules! not_scalar {
    () => {
        not_scalar!(but_struct);
        fn serialize_struct(self, _: &'static str, _: usize) -> Result<No, Declined> {
            Err(Declined)
        }
    };
    (but_struct) => {
        fn serialize_f32(self, _: f32) -> Result<bool, Declined> {
            Ok(false)
        }
        fn serialize_f64(self, _: f64) -> Result<bool, Declined> {
            Ok(false)
        }
        fn serialize_bytes(self, _: &[u8]) -> Result<bool, Declined> {
            Ok(false)
        }
        fn serialize_none(self) -> Result<bool, Declined> {
            Ok(false)
        }
        fn serialize_unit(self) -> Result<bool, Declined> {
            Ok(false)
        }
        fn serialize_unit_struct(self, _: &'static str) -> Result<bool, Declined> {
            Ok(false)
        }
        fn serialize_newtype_variant<T: ?Sized + Serialize>(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: &T,
        ) -> Result<bool, Declined> {
            Ok(false)
        }
        crate::visible::declines_compounds!(but_struct);
    };
}

/// Every method that makes a scalar, handed to `$scalar`; `Some` and
/// newtype structs look inside.
macro_rules! scalars {
    ($scalar:ident) => {
        fn serialize_bool(self, v: bool) -> Result<bool, Declined> {
            self.$scalar(Scalar::Bool(v))
        }
        fn serialize_i8(self, v: i8) -> Result<bool, Declined> {
            self.$scalar(Scalar::Int(v.into()))
        }
        fn serialize_i16(self, v: i16) -> Result<bool, Declined> {
            self.$scalar(Scalar::Int(v.into()))
        }
        fn serialize_i32(self, v: i32) -> Result<bool, Declined> {
            self.$scalar(Scalar::Int(v.into()))
        }
        fn serialize_i64(self, v: i64) -> Result<bool, Declined> {
            self.$scalar(Scalar::Int(v.into()))
        }
        fn serialize_i128(self, v: i128) -> Result<bool, Declined> {
            self.$scalar(Scalar::Int(v))
        }
        fn serialize_u8(self, v: u8) -> Result<bool, Declined> {
            self.$scalar(Scalar::Int(v.into()))
        }
        fn serialize_u16(self, v: u16) -> Result<bool, Declined> {
            self.$scalar(Scalar::Int(v.into()))
        }
        fn serialize_u32(self, v: u32) -> Result<bool, Declined> {
            self.$scalar(Scalar::Int(v.into()))
        }
        fn serialize_u64(self, v: u64) -> Result<bool, Declined> {
            self.$scalar(Scalar::Int(v.into()))
        }
        fn serialize_u128(self, v: u128) -> Result<bool, Declined> {
            match i128::try_from(v) {
                Ok(v) => self.$scalar(Scalar::Int(v)),
                Err(_) => Ok(false),
            }
        }
        fn serialize_char(self, v: char) -> Result<bool, Declined> {
            self.$scalar(Scalar::Str(v.encode_utf8(&mut [0; 4])))
        }
        fn serialize_str(self, v: &str) -> Result<bool, Declined> {
            self.$scalar(Scalar::Str(v))
        }
        fn serialize_unit_variant(
            self,
            _: &'static str,
            _: u32,
            v: &'static str,
        ) -> Result<bool, Declined> {
            self.$scalar(Scalar::Str(v))
        }
        fn serialize_some<T: ?Sized + Serialize>(self, v: &T) -> Result<bool, Declined> {
            v.serialize(self)
        }
        fn serialize_newtype_struct<T: ?Sized + Serialize>(
            self,
            _: &'static str,
            v: &T,
        ) -> Result<bool, Declined> {
            v.serialize(self)
        }
    };
}

/// Takes the tag apart, then the value against it.
struct TagSide<'v, V: ?Sized>(&'v V);

impl<V: ?Sized + Serialize> TagSide<'_, V> {
    fn against(self, tag: Scalar<'_>) -> Result<bool, Declined> {
        self.0.serialize(ValueSide(tag))
    }
}

impl<V: ?Sized + Serialize> Serializer for TagSide<'_, V> {
    type Ok = bool;
    type Error = Declined;
    type SerializeSeq = No;
    type SerializeTuple = No;
    type SerializeTupleStruct = No;
    type SerializeTupleVariant = No;
    type SerializeMap = No;
    type SerializeStruct = No;
    type SerializeStructVariant = No;

    scalars!(against);
    not_scalar!();
}

/// Compares a value with the tag taken apart.
struct ValueSide<'t>(Scalar<'t>);

impl ValueSide<'_> {
    fn equals(self, value: Scalar<'_>) -> Result<bool, Declined> {
        Ok(self.0 == value)
    }
}

impl<'t> Serializer for ValueSide<'t> {
    type Ok = bool;
    type Error = Declined;
    type SerializeSeq = No;
    type SerializeTuple = No;
    type SerializeTupleStruct = No;
    type SerializeTupleVariant = No;
    type SerializeMap = No;
    type SerializeStruct = Digits<'t>;
    type SerializeStructVariant = No;

    scalars!(equals);
    not_scalar!(but_struct);

    /// A `serde_json::Number` under `arbitrary_precision` (a `Value` field
    /// holding an integer tag) is a struct of its digits.
    fn serialize_struct(self, name: &'static str, _: usize) -> Result<Digits<'t>, Declined> {
        if name != NUMBER_TOKEN {
            return Err(Declined);
        }
        Ok(Digits {
            tag: self.0,
            same: false,
        })
    }
}

/// serde_json's `arbitrary_precision` writes a `Number` as a struct of this
/// name with one field of the same name, its digits. Private to serde_json
/// but stable, and its own `Value` reads it so.
pub(crate) const NUMBER_TOKEN: &str = "$serde_json::private::Number";

/// The digits of an `arbitrary_precision` number, compared with the tag.
struct Digits<'t> {
    tag: Scalar<'t>,
    same: bool,
}

impl ser::SerializeStruct for Digits<'_> {
    type Ok = bool;
    type Error = Declined;

    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        _: &'static str,
        digits: &T,
    ) -> Result<(), Declined> {
        self.same = digits.serialize(DigitsSide(self.tag))?;
        Ok(())
    }

    fn end(self) -> Result<bool, Declined> {
        Ok(self.same)
    }
}

/// The digits' string, read as the integer the tag reader makes of them.
struct DigitsSide<'t>(Scalar<'t>);

impl DigitsSide<'_> {
    fn digits(self, value: Scalar<'_>) -> Result<bool, Declined> {
        match value {
            Scalar::Str(digits) => Ok(digits
                .parse::<i128>()
                .is_ok_and(|v| self.0 == Scalar::Int(v))),
            _ => Ok(false),
        }
    }
}

impl Serializer for DigitsSide<'_> {
    type Ok = bool;
    type Error = Declined;
    type SerializeSeq = No;
    type SerializeTuple = No;
    type SerializeTupleStruct = No;
    type SerializeTupleVariant = No;
    type SerializeMap = No;
    type SerializeStruct = No;
    type SerializeStructVariant = No;

    scalars!(digits);
    not_scalar!();
}
