//! Trait bounds for generic enums, inferred as serde infers them: every type
//! parameter that appears in a field needs the trait, unless the container
//! says otherwise with `#[serde(bound = "...")]`.

use proc_macro2::{TokenStream, TokenTree};
use quote::ToTokens;
use syn::{Generics, WherePredicate};

use crate::ast::Container;

pub enum Direction {
    Serialize,
    Deserialize,
}

/// The where-predicates a generated impl needs.
pub fn predicates(cont: &Container, dir: Direction, bound: TokenStream) -> Vec<WherePredicate> {
    if let Some(custom) = custom_bound(cont, &dir) {
        return custom;
    }
    let generics = &cont.item.generics;
    let used: Vec<TokenStream> = cont
        .variants
        .iter()
        .flat_map(|v| v.original.fields.iter())
        .map(|f| f.ty.to_token_stream())
        .collect();
    generics
        .type_params()
        .filter(|param| used.iter().any(|ty| mentions(ty, &param.ident)))
        .map(|param| {
            let ident = &param.ident;
            syn::parse_quote!(#ident: #bound)
        })
        .collect()
}

fn mentions(tokens: &TokenStream, ident: &syn::Ident) -> bool {
    tokens.clone().into_iter().any(|tt| match tt {
        TokenTree::Ident(i) => i == *ident,
        TokenTree::Group(g) => mentions(&g.stream(), ident),
        _ => false,
    })
}

/// `#[serde(bound = "T: Trait")]` or `#[serde(bound(serialize = "...", deserialize = "..."))]`.
fn custom_bound(cont: &Container, dir: &Direction) -> Option<Vec<WherePredicate>> {
    let mut found: Option<Vec<WherePredicate>> = None;
    for attr in cont
        .item
        .attrs
        .iter()
        .filter(|a| a.path().is_ident("serde"))
    {
        let _ = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("bound") {
                if meta.input.peek(syn::Token![=]) {
                    let lit: syn::LitStr = meta.value()?.parse()?;
                    found = Some(parse_predicates(&lit));
                } else {
                    meta.parse_nested_meta(|inner| {
                        let lit: syn::LitStr = inner.value()?.parse()?;
                        let wanted = match dir {
                            Direction::Serialize => inner.path.is_ident("serialize"),
                            Direction::Deserialize => inner.path.is_ident("deserialize"),
                        };
                        if wanted {
                            found = Some(parse_predicates(&lit));
                        }
                        Ok(())
                    })?;
                }
            } else if meta.input.peek(syn::Token![=]) {
                let _: syn::Expr = meta.value()?.parse()?;
            } else if meta.input.peek(syn::token::Paren) {
                let content;
                syn::parenthesized!(content in meta.input);
                let _: TokenStream = content.parse()?;
            }
            Ok(())
        });
    }
    found
}

fn parse_predicates(lit: &syn::LitStr) -> Vec<WherePredicate> {
    let text = lit.value();
    if text.trim().is_empty() {
        return Vec::new();
    }
    let parsed: syn::Result<syn::WhereClause> = syn::parse_str(&format!("where {text}"));
    // serde reports a malformed bound on the twin; keep ours empty.
    parsed
        .map(|w| w.predicates.into_iter().collect())
        .unwrap_or_default()
}

/// `generics` with `extra` predicates appended to its where clause.
pub fn with_predicates(generics: &Generics, extra: Vec<WherePredicate>) -> Generics {
    let mut out = generics.clone();
    out.make_where_clause().predicates.extend(extra);
    out
}

/// `generics` with a leading `'__de` lifetime outliving every lifetime of the type.
pub fn with_de_lifetime(generics: &Generics) -> Generics {
    let mut out = generics.clone();
    let bounds: Vec<_> = generics.lifetimes().map(|l| l.lifetime.clone()).collect();
    let de: syn::LifetimeParam = if bounds.is_empty() {
        syn::parse_quote!('__de)
    } else {
        syn::parse_quote!('__de: #(#bounds)+*)
    };
    out.params.insert(0, syn::GenericParam::Lifetime(de));
    out
}
