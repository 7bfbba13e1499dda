//! Proc-macro implementation of `json_subtypes`. Not for direct use: depend
//! on `json_subtypes` and write `#[json_subtypes(...)]`.
//!
//! The crate reads as a pipeline, the same for enums, traits and impls:
//! `attr` parses the attribute forms, `ast` builds the typed model, `check`
//! applies one rule per function, and `expand` writes the code. Errors are
//! collected in a `Ctxt` so a user sees every mistake in one compile; it
//! panics if dropped before `check` took them.

mod ast;
mod attr;
mod case;
mod check;
mod ctx;
mod expand;
mod serde_attr;

use proc_macro::TokenStream;

/// Polymorphic subtype discriminators for serde. See the `json_subtypes`
/// crate for the full documentation.
#[proc_macro_attribute]
pub fn json_subtypes(args: TokenStream, input: TokenStream) -> TokenStream {
    let item = match syn::parse::<syn::Item>(input) {
        Ok(item) => item,
        Err(e) => return e.to_compile_error().into(),
    };
    expand::expand(args.into(), item).into()
}

/// Not public API. `#[json_subtypes]` on an enum re-emits the enum with
/// this derive, because a derive, unlike an attribute macro, receives its
/// item with `#[cfg]` and `#[cfg_attr]` already evaluated: variants, fields
/// and attributes behind a feature then work exactly as under serde's derive.
#[doc(hidden)]
#[proc_macro_derive(__JsonSubtypes, attributes(__json_subtypes, serde))]
pub fn derive(input: TokenStream) -> TokenStream {
    let item = match syn::parse::<syn::ItemEnum>(input) {
        Ok(item) => item,
        Err(e) => return e.to_compile_error().into(),
    };
    expand::derive_enum(item).into()
}
