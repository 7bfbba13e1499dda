//! Replaying a recorded container: a map (`ReplayMap`, with a hoisted entry
//! first), a sequence (`ReplaySeq`) and an enum (`ReplayEnum`).

use super::*;

/// Replays the map at the reader's position; with `hoist`, the entry with
/// that key (if any) comes first.
pub(super) fn replay_map<'de, V, E>(
    reader: &mut Reader<'_, 'de>,
    human_readable: bool,
    visitor: V,
    hoist: Option<&str>,
) -> Result<V::Value, E>
where
    V: Visitor<'de>,
    E: de::Error,
{
    reader.pos += 1;
    let (end, count) = reader.container();
    let first = hoist.and_then(|key| {
        let mut scan = reader.buf.reader_at(Mark(reader.pos));
        (0..count).find_map(|_| {
            let k = scan.step();
            scan.skip();
            (reader.buf.str_at(k) == Some(key)).then_some((k.0, scan.pos))
        })
    });
    let mut map = ReplayMap {
        reader,
        human_readable,
        error: PhantomData,
        end,
        remaining: count,
        first,
        skip: first,
        resume: None,
    };
    let out = visitor.visit_map(&mut map)?;
    if map.remaining != 0 {
        return Err(de::Error::invalid_length(
            count,
            &ExpectedFewer(count - map.remaining),
        ));
    }
    map.reader.pos = end;
    Ok(out)
}

pub(super) struct ExpectedFewer(pub(super) usize);

impl de::Expected for ExpectedFewer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 == 1 {
            f.write_str("1 element")
        } else {
            write!(f, "{} elements", self.0)
        }
    }
}

pub(super) struct ReplaySeq<'r, 'a, 'de, E> {
    pub(super) reader: &'r mut Reader<'a, 'de>,
    pub(super) human_readable: bool,
    pub(super) error: PhantomData<fn() -> E>,
    pub(super) end: usize,
    pub(super) remaining: usize,
}

impl<'de, E: de::Error> SeqAccess<'de> for ReplaySeq<'_, '_, 'de, E> {
    type Error = E;

    fn next_element_seed<T>(&mut self, seed: T) -> Result<Option<T::Value>, Self::Error>
    where
        T: DeserializeSeed<'de>,
    {
        if self.remaining == 0 {
            return Ok(None);
        }
        self.remaining -= 1;
        let out = seed.deserialize(self.reader.next_value(self.human_readable))?;
        if self.remaining == 0 {
            debug_assert_eq!(self.reader.pos, self.end);
        }
        Ok(Some(out))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.remaining)
    }
}

pub(crate) struct ReplayMap<'r, 'a, 'de, E> {
    reader: &'r mut Reader<'a, 'de>,
    human_readable: bool,
    error: PhantomData<fn() -> E>,
    end: usize,
    remaining: usize,
    /// The hoisted entry (key offset, offset past its value), handed out first.
    first: Option<(usize, usize)>,
    /// The same entry, skipped when the in-order walk reaches it.
    skip: Option<(usize, usize)>,
    /// Where the in-order walk continues after the hoisted entry.
    resume: Option<usize>,
}

impl<'de, E: de::Error> MapAccess<'de> for ReplayMap<'_, '_, 'de, E> {
    type Error = E;

    fn next_key_seed<K>(&mut self, seed: K) -> Result<Option<K::Value>, Self::Error>
    where
        K: DeserializeSeed<'de>,
    {
        if self.remaining == 0 {
            return Ok(None);
        }
        self.remaining -= 1;
        if let Some((key, _)) = self.first.take() {
            self.resume = Some(self.reader.pos);
            self.reader.pos = key;
        } else if let Some((key, after)) = self.skip {
            if self.reader.pos == key {
                self.reader.pos = after;
                self.skip = None;
            }
        }
        seed.deserialize(self.reader.next_key(self.human_readable))
            .map(Some)
    }

    fn next_value_seed<V>(&mut self, seed: V) -> Result<V::Value, Self::Error>
    where
        V: DeserializeSeed<'de>,
    {
        let out = seed.deserialize(self.reader.next_value(self.human_readable))?;
        if let Some(resume) = self.resume.take() {
            self.reader.pos = resume;
        }
        if self.remaining == 0 && self.skip.is_none() {
            debug_assert_eq!(self.reader.pos, self.end);
        }
        Ok(out)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.remaining)
    }
}

pub(super) struct ReplayEnum<'r, 'a, 'de, E> {
    pub(super) reader: &'r mut Reader<'a, 'de>,
    pub(super) human_readable: bool,
    pub(super) error: PhantomData<fn() -> E>,
    pub(super) has_value: bool,
}

impl<'r, 'a, 'de, E: de::Error> EnumAccess<'de> for ReplayEnum<'r, 'a, 'de, E> {
    type Error = E;
    type Variant = Self;

    fn variant_seed<V>(self, seed: V) -> Result<(V::Value, Self), Self::Error>
    where
        V: DeserializeSeed<'de>,
    {
        let out = seed.deserialize(self.reader.next_value(self.human_readable))?;
        Ok((out, self))
    }
}

impl<'de, E: de::Error> VariantAccess<'de> for ReplayEnum<'_, '_, 'de, E> {
    type Error = E;

    fn unit_variant(self) -> Result<(), Self::Error> {
        if self.has_value {
            de::Deserialize::deserialize(self.reader.next_value::<E>(self.human_readable))
        } else {
            Ok(())
        }
    }

    fn newtype_variant_seed<T>(self, seed: T) -> Result<T::Value, Self::Error>
    where
        T: DeserializeSeed<'de>,
    {
        if self.has_value {
            seed.deserialize(self.reader.next_value(self.human_readable))
        } else {
            Err(de::Error::invalid_type(
                Unexpected::UnitVariant,
                &"newtype variant",
            ))
        }
    }

    fn tuple_variant<V>(self, _len: usize, visitor: V) -> Result<V::Value, Self::Error>
    where
        V: Visitor<'de>,
    {
        if self.has_value {
            self.reader
                .next_value(self.human_readable)
                .deserialize_any(visitor)
        } else {
            Err(de::Error::invalid_type(
                Unexpected::UnitVariant,
                &"tuple variant",
            ))
        }
    }

    fn struct_variant<V>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error>
    where
        V: Visitor<'de>,
    {
        if self.has_value {
            self.reader
                .next_value(self.human_readable)
                .deserialize_any(visitor)
        } else {
            Err(de::Error::invalid_type(
                Unexpected::UnitVariant,
                &"struct variant",
            ))
        }
    }
}
