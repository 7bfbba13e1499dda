//! A macro for wrapping deserializers (the live rest's `NotTag` and
//! `ParseIgnored`, `as_map`'s `StringKey`): every request forwarded to the
//! deserializer they wrap.

/// Forwards every request of a wrapping deserializer to the one it wraps,
/// with the visitor that its `split` gives (wrapped or not).
macro_rules! forward_requests {
    ($($method:ident)*) => {
        $(
            #[inline]
            fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
                let (inner, visitor) = self.split(visitor);
                inner.$method(visitor)
            }
        )*

        #[inline]
        fn deserialize_unit_struct<V: Visitor<'de>>(
            self,
            name: &'static str,
            visitor: V,
        ) -> Result<V::Value, D::Error> {
            let (inner, visitor) = self.split(visitor);
            inner.deserialize_unit_struct(name, visitor)
        }

        #[inline]
        fn deserialize_newtype_struct<V: Visitor<'de>>(
            self,
            name: &'static str,
            visitor: V,
        ) -> Result<V::Value, D::Error> {
            let (inner, visitor) = self.split(visitor);
            inner.deserialize_newtype_struct(name, visitor)
        }

        #[inline]
        fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, D::Error> {
            let (inner, visitor) = self.split(visitor);
            inner.deserialize_tuple(len, visitor)
        }

        #[inline]
        fn deserialize_tuple_struct<V: Visitor<'de>>(
            self,
            name: &'static str,
            len: usize,
            visitor: V,
        ) -> Result<V::Value, D::Error> {
            let (inner, visitor) = self.split(visitor);
            inner.deserialize_tuple_struct(name, len, visitor)
        }

        #[inline]
        fn deserialize_struct<V: Visitor<'de>>(
            self,
            name: &'static str,
            fields: &'static [&'static str],
            visitor: V,
        ) -> Result<V::Value, D::Error> {
            let (inner, visitor) = self.split(visitor);
            inner.deserialize_struct(name, fields, visitor)
        }

        #[inline]
        fn deserialize_enum<V: Visitor<'de>>(
            self,
            name: &'static str,
            variants: &'static [&'static str],
            visitor: V,
        ) -> Result<V::Value, D::Error> {
            let (inner, visitor) = self.split(visitor);
            inner.deserialize_enum(name, variants, visitor)
        }
    };
}
pub(crate) use forward_requests;
