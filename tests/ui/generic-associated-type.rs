use json_subtypes::json_subtypes;

#[json_subtypes(tag = "type")]
trait Source {
    type Item<'a>
    where
        Self: 'a;
    fn next(&self) -> Option<Self::Item<'_>>;
}

fn main() {}
