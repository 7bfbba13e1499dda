//! An owned copy of a serialized value, for the one place a value must be
//! held before it is written: a tagged newtype variant whose payload is an
//! externally tagged enum's tuple or struct variant. serde's internally
//! tagged enums write `{"tag":"V","Tuple":[1,1]}` by collecting the
//! variant's fields first (its `Content` is private), since a map entry's
//! value cannot be streamed field by field; this does the same and writes
//! exactly what serde writes.

use core::marker::PhantomData;

use serde::ser::{self, Serialize, Serializer};

pub(crate) enum Content {
    Bool(bool),
    U8(u8),
    U16(u16),
    U32(u32),
    U64(u64),
    U128(u128),
    I8(i8),
    I16(i16),
    I32(i32),
    I64(i64),
    I128(i128),
    F32(f32),
    F64(f64),
    Char(char),
    String(String),
    Bytes(Vec<u8>),
    None,
    Some(Box<Content>),
    Unit,
    UnitStruct(&'static str),
    UnitVariant(&'static str, u32, &'static str),
    NewtypeStruct(&'static str, Box<Content>),
    NewtypeVariant(&'static str, u32, &'static str, Box<Content>),
    Seq(Vec<Content>),
    Tuple(Vec<Content>),
    TupleStruct(&'static str, Vec<Content>),
    TupleVariant(&'static str, u32, &'static str, Vec<Content>),
    Map(Vec<(Content, Content)>),
    Struct(&'static str, Vec<(&'static str, Content)>),
    StructVariant(
        &'static str,
        u32,
        &'static str,
        Vec<(&'static str, Content)>,
    ),
}

impl Serialize for Content {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{
            SerializeMap, SerializeSeq, SerializeStruct, SerializeStructVariant, SerializeTuple,
            SerializeTupleStruct, SerializeTupleVariant,
        };
        match self {
            Content::Bool(v) => s.serialize_bool(*v),
            Content::U8(v) => s.serialize_u8(*v),
            Content::U16(v) => s.serialize_u16(*v),
            Content::U32(v) => s.serialize_u32(*v),
            Content::U64(v) => s.serialize_u64(*v),
            Content::U128(v) => s.serialize_u128(*v),
            Content::I8(v) => s.serialize_i8(*v),
            Content::I16(v) => s.serialize_i16(*v),
            Content::I32(v) => s.serialize_i32(*v),
            Content::I64(v) => s.serialize_i64(*v),
            Content::I128(v) => s.serialize_i128(*v),
            Content::F32(v) => s.serialize_f32(*v),
            Content::F64(v) => s.serialize_f64(*v),
            Content::Char(v) => s.serialize_char(*v),
            Content::String(v) => s.serialize_str(v),
            Content::Bytes(v) => s.serialize_bytes(v),
            Content::None => s.serialize_none(),
            Content::Some(v) => s.serialize_some(&**v),
            Content::Unit => s.serialize_unit(),
            Content::UnitStruct(n) => s.serialize_unit_struct(n),
            Content::UnitVariant(n, i, v) => s.serialize_unit_variant(n, *i, v),
            Content::NewtypeStruct(n, c) => s.serialize_newtype_struct(n, &**c),
            Content::NewtypeVariant(n, i, v, c) => s.serialize_newtype_variant(n, *i, v, &**c),
            Content::Seq(items) => {
                let mut seq = s.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Content::Tuple(items) => {
                let mut tuple = s.serialize_tuple(items.len())?;
                for item in items {
                    tuple.serialize_element(item)?;
                }
                tuple.end()
            }
            Content::TupleStruct(n, items) => {
                let mut tuple = s.serialize_tuple_struct(n, items.len())?;
                for item in items {
                    tuple.serialize_field(item)?;
                }
                tuple.end()
            }
            Content::TupleVariant(n, i, v, items) => {
                let mut tuple = s.serialize_tuple_variant(n, *i, v, items.len())?;
                for item in items {
                    tuple.serialize_field(item)?;
                }
                tuple.end()
            }
            Content::Map(entries) => {
                let mut map = s.serialize_map(Some(entries.len()))?;
                for (k, v) in entries {
                    map.serialize_entry(k, v)?;
                }
                map.end()
            }
            Content::Struct(n, fields) => {
                let mut st = s.serialize_struct(n, fields.len())?;
                for (k, v) in fields {
                    st.serialize_field(k, v)?;
                }
                st.end()
            }
            Content::StructVariant(n, i, v, fields) => {
                let mut st = s.serialize_struct_variant(n, *i, v, fields.len())?;
                for (k, v) in fields {
                    st.serialize_field(k, v)?;
                }
                st.end()
            }
        }
    }
}

/// Serializes a value into a [`Content`], with the errors of the serializer
/// it is written to later. Like serde's, it answers `is_human_readable` with
/// the default (`true`) whatever the format: the bytes stay serde's, and the
/// format is not asked (serde_test refuses the question unconfigured).
pub(crate) struct ContentSerializer<E>(PhantomData<E>);

impl<E> ContentSerializer<E> {
    pub(crate) fn new() -> Self {
        ContentSerializer(PhantomData)
    }
}

/// What a collected sequence or struct becomes.
#[derive(Clone, Copy)]
enum Kind {
    Seq,
    Tuple,
    Named(&'static str),
    Variant(&'static str, u32, &'static str),
}

/// Collects the elements of a sequence-like value.
pub(crate) struct Items<E> {
    kind: Kind,
    items: Vec<Content>,
    error: PhantomData<E>,
}

impl<E: ser::Error> Items<E> {
    fn new(kind: Kind, len: usize) -> Self {
        Items {
            kind,
            items: Vec::with_capacity(len),
            error: PhantomData,
        }
    }

    fn push<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), E> {
        self.items.push(value.serialize(ContentSerializer::new())?);
        Ok(())
    }

    fn done(self) -> Result<Content, E> {
        let items = self.items;
        Ok(match self.kind {
            Kind::Seq => Content::Seq(items),
            Kind::Tuple => Content::Tuple(items),
            Kind::Named(name) => Content::TupleStruct(name, items),
            Kind::Variant(name, index, variant) => {
                Content::TupleVariant(name, index, variant, items)
            }
        })
    }
}

/// What collected fields become.
#[derive(Clone, Copy)]
enum FieldsKind {
    Struct(&'static str),
    Variant(&'static str, u32, &'static str),
}

/// Collects the fields of a struct-like value.
pub(crate) struct Fields<E> {
    kind: FieldsKind,
    fields: Vec<(&'static str, Content)>,
    error: PhantomData<E>,
}

impl<E: ser::Error> Fields<E> {
    fn new(kind: FieldsKind, len: usize) -> Self {
        Fields {
            kind,
            fields: Vec::with_capacity(len),
            error: PhantomData,
        }
    }

    fn push<T: ?Sized + Serialize>(&mut self, key: &'static str, value: &T) -> Result<(), E> {
        self.fields
            .push((key, value.serialize(ContentSerializer::new())?));
        Ok(())
    }

    fn done(self) -> Result<Content, E> {
        let fields = self.fields;
        Ok(match self.kind {
            FieldsKind::Struct(name) => Content::Struct(name, fields),
            FieldsKind::Variant(name, index, variant) => {
                Content::StructVariant(name, index, variant, fields)
            }
        })
    }
}

/// Collects the entries of a map.
pub(crate) struct Entries<E> {
    entries: Vec<(Content, Content)>,
    key: Option<Content>,
    error: PhantomData<E>,
}

macro_rules! scalars {
    ($($method:ident($ty:ty) => $variant:ident;)*) => {
        $(
            fn $method(self, v: $ty) -> Result<Content, E> {
                Ok(Content::$variant(v))
            }
        )*
    };
}

impl<E: ser::Error> Serializer for ContentSerializer<E> {
    type Ok = Content;
    type Error = E;
    type SerializeSeq = Items<E>;
    type SerializeTuple = Items<E>;
    type SerializeTupleStruct = Items<E>;
    type SerializeTupleVariant = Items<E>;
    type SerializeMap = Entries<E>;
    type SerializeStruct = Fields<E>;
    type SerializeStructVariant = Fields<E>;

    scalars! {
        serialize_bool(bool) => Bool;
        serialize_u8(u8) => U8;
        serialize_u16(u16) => U16;
        serialize_u32(u32) => U32;
        serialize_u64(u64) => U64;
        serialize_u128(u128) => U128;
        serialize_i8(i8) => I8;
        serialize_i16(i16) => I16;
        serialize_i32(i32) => I32;
        serialize_i64(i64) => I64;
        serialize_i128(i128) => I128;
        serialize_f32(f32) => F32;
        serialize_f64(f64) => F64;
        serialize_char(char) => Char;
    }

    fn serialize_str(self, v: &str) -> Result<Content, E> {
        Ok(Content::String(v.to_owned()))
    }

    fn serialize_bytes(self, v: &[u8]) -> Result<Content, E> {
        Ok(Content::Bytes(v.to_owned()))
    }

    fn serialize_none(self) -> Result<Content, E> {
        Ok(Content::None)
    }

    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<Content, E> {
        Ok(Content::Some(Box::new(value.serialize(self)?)))
    }

    fn serialize_unit(self) -> Result<Content, E> {
        Ok(Content::Unit)
    }

    fn serialize_unit_struct(self, name: &'static str) -> Result<Content, E> {
        Ok(Content::UnitStruct(name))
    }

    fn serialize_unit_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
    ) -> Result<Content, E> {
        Ok(Content::UnitVariant(name, index, variant))
    }

    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<Content, E> {
        Ok(Content::NewtypeStruct(
            name,
            Box::new(value.serialize(self)?),
        ))
    }

    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<Content, E> {
        let value = Box::new(value.serialize(self)?);
        Ok(Content::NewtypeVariant(name, index, variant, value))
    }

    fn serialize_seq(self, len: Option<usize>) -> Result<Items<E>, E> {
        Ok(Items::new(Kind::Seq, len.unwrap_or(0)))
    }

    fn serialize_tuple(self, len: usize) -> Result<Items<E>, E> {
        Ok(Items::new(Kind::Tuple, len))
    }

    fn serialize_tuple_struct(self, name: &'static str, len: usize) -> Result<Items<E>, E> {
        Ok(Items::new(Kind::Named(name), len))
    }

    fn serialize_tuple_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Items<E>, E> {
        Ok(Items::new(Kind::Variant(name, index, variant), len))
    }

    fn serialize_map(self, len: Option<usize>) -> Result<Entries<E>, E> {
        Ok(Entries {
            entries: Vec::with_capacity(len.unwrap_or(0)),
            key: None,
            error: PhantomData,
        })
    }

    fn serialize_struct(self, name: &'static str, len: usize) -> Result<Fields<E>, E> {
        Ok(Fields::new(FieldsKind::Struct(name), len))
    }

    fn serialize_struct_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Fields<E>, E> {
        Ok(Fields::new(FieldsKind::Variant(name, index, variant), len))
    }
}

macro_rules! items {
    ($($trait:ident $method:ident;)*) => {
        $(
            impl<E: ser::Error> ser::$trait for Items<E> {
                type Ok = Content;
                type Error = E;

                fn $method<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), E> {
                    self.push(value)
                }

                fn end(self) -> Result<Content, E> {
                    self.done()
                }
            }
        )*
    };
}

items! {
    SerializeSeq serialize_element;
    SerializeTuple serialize_element;
    SerializeTupleStruct serialize_field;
    SerializeTupleVariant serialize_field;
}

macro_rules! fields {
    ($($trait:ident;)*) => {
        $(
            impl<E: ser::Error> ser::$trait for Fields<E> {
                type Ok = Content;
                type Error = E;

                fn serialize_field<T: ?Sized + Serialize>(
                    &mut self,
                    key: &'static str,
                    value: &T,
                ) -> Result<(), E> {
                    self.push(key, value)
                }

                fn end(self) -> Result<Content, E> {
                    self.done()
                }
            }
        )*
    };
}

fields! {
    SerializeStruct;
    SerializeStructVariant;
}

impl<E: ser::Error> ser::SerializeMap for Entries<E> {
    type Ok = Content;
    type Error = E;

    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<(), E> {
        self.key = Some(key.serialize(ContentSerializer::new())?);
        Ok(())
    }

    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), E> {
        let key = self
            .key
            .take()
            .ok_or_else(|| E::custom("serialize_value called before serialize_key"))?;
        let value = value.serialize(ContentSerializer::new())?;
        self.entries.push((key, value));
        Ok(())
    }

    fn end(self) -> Result<Content, E> {
        Ok(Content::Map(self.entries))
    }
}
