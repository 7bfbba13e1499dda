//! Type names as messages show them: `std::any::type_name` spells every
//! path in full (`first_hour::shapes::Square<alloc::string::String>`),
//! where a reader looks for the name they wrote (`Square<String>`).

/// `full` with every path cut to its last segment: `a::b::Circle<c::D>` ->
/// `Circle<D>`, `dyn a::Shape + core::marker::Send` -> `dyn Shape + Send`.
/// A qualified path keeps the segments after its `>` (`<a::B as c::T>::X`
/// -> `<B as T>::X`).
pub(crate) fn short(full: &str) -> String {
    let mut out = String::with_capacity(full.len());
    // Where the path being read started in `out`: a `::` after an
    // identifier drops what was written since.
    let mut start = 0;
    let mut chars = full.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c == ':' && full[i..].starts_with("::") {
            chars.next();
            let after_ident = out[start..]
                .chars()
                .next_back()
                .is_some_and(|p| p.is_alphanumeric() || p == '_');
            if after_ident {
                out.truncate(start);
            } else {
                out.push_str("::");
                start = out.len();
            }
            continue;
        }
        if !(c.is_alphanumeric() || c == '_') {
            out.push(c);
            start = out.len();
            continue;
        }
        out.push(c);
    }
    out
}

/// [`short`] of `T`'s name.
pub(crate) fn short_of<T: ?Sized>() -> String {
    short(core::any::type_name::<T>())
}

#[cfg(test)]
mod tests {
    use super::short;

    #[test]
    fn paths_lose_their_modules() {
        for (full, expected) in [
            ("first_hour::Square", "Square"),
            ("Square", "Square"),
            ("a::b::Circle<c::D>", "Circle<D>"),
            ("alloc::vec::Vec<alloc::string::String>", "Vec<String>"),
            ("dyn a::Shape + core::marker::Send", "dyn Shape + Send"),
            ("(a::B, [c::D; 2], &str)", "(B, [D; 2], &str)"),
            ("<a::B as c::T>::X", "<B as T>::X"),
            ("core::option::Option<&'static a::B>", "Option<&'static B>"),
        ] {
            assert_eq!(short(full), expected, "{full}");
        }
    }
}
