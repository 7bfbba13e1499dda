//! Code generation. Everything generated lives in `const _: () = { ... };`
//! and reaches the runtime through `::json_subtypes::__private`.

mod bound;
mod enumeration;
mod instances;
mod one_subtype;
pub(crate) mod schema;
mod tables;
mod traits;

use proc_macro2::TokenStream;
use quote::quote;
use syn::Item;

use crate::ctx::Ctxt;

/// Where generated code reaches the runtime.
fn private() -> TokenStream {
    quote!(::json_subtypes::__private)
}

pub fn expand(args: TokenStream, item: Item) -> TokenStream {
    match item {
        Item::Enum(item) => enumeration::forward(args, item),
        Item::Trait(item) => traits::expand_trait(args, item),
        Item::Impl(item) => traits::expand_impl(args, item),
        other => {
            let cx = Ctxt::new();
            cx.error_spanned_by(
                item_keyword(&other),
                "`#[json_subtypes]` goes on an enum, a trait or a trait impl; put it on the enum whose variants are the subtypes",
            );
            let errors = cx.check().err();
            quote!(#other #errors)
        }
    }
}

/// The derive `enumeration::forward` hands an enum to.
pub fn derive_enum(item: syn::ItemEnum) -> TokenStream {
    enumeration::expand(item)
}

fn item_keyword(item: &Item) -> TokenStream {
    match item {
        Item::Struct(s) => {
            let t = &s.struct_token;
            quote!(#t)
        }
        Item::Trait(t) => {
            let t = &t.trait_token;
            quote!(#t)
        }
        Item::Impl(i) => {
            let t = &i.impl_token;
            quote!(#t)
        }
        Item::Union(u) => {
            let t = &u.union_token;
            quote!(#t)
        }
        Item::Fn(f) => {
            let t = &f.sig.fn_token;
            quote!(#t)
        }
        other => quote!(#other),
    }
}
