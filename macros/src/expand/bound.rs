//! Trait bounds for generic enums, inferred as serde infers them: every type
//! parameter that appears in a field needs the trait, unless the container
//! says otherwise with `#[serde(bound = "...")]` (on the enum, a variant or
//! a field).

use proc_macro2::{TokenStream, TokenTree};
use quote::ToTokens;
use syn::{Generics, WherePredicate};

use crate::ast::Container;
use crate::serde_attr::{DefaultAttr, SerdeAttrs};

pub enum Direction {
    Serialize,
    Deserialize,
}

/// The where-predicates a generated impl needs: the enum's `bound` if it
/// has one, else `bound` on each type parameter used by a field that we
/// (de)serialize, plus each variant's and field's own `bound`, as serde's
/// derive writes them.
pub fn predicates(cont: &Container, dir: Direction, bound: TokenStream) -> Vec<WherePredicate> {
    let ser = matches!(dir, Direction::Serialize);
    let custom = |serde: &SerdeAttrs| serde.bound.get(ser).map(parse_predicates);
    if let Some(custom) = custom(&cont.serde) {
        return custom;
    }
    // serde's derive leaves these fields to a function, a default or nothing.
    // A variant's `skip`/`skip_deserializing` is not among them: the twin
    // reads every variant (see `readable_in_twin`).
    let skipped = |serde: &SerdeAttrs, variant: bool| {
        serde.with
            || match dir {
                Direction::Serialize => serde.skip_serializing || serde.serialize_with,
                Direction::Deserialize => {
                    (!variant && serde.skip_deserializing) || serde.deserialize_with
                }
            }
    };
    let mut own = Vec::new();
    let mut used: Vec<TokenStream> = Vec::new();
    let mut defaulted: Vec<TokenStream> = Vec::new();
    for variant in &cont.variants {
        if let Some(preds) = custom(&variant.serde) {
            own.extend(preds);
            continue;
        }
        if skipped(&variant.serde, true) {
            continue;
        }
        for (field, serde) in variant.fields() {
            if let Some(preds) = custom(serde) {
                own.extend(preds);
            } else if !skipped(serde, false) {
                used.push(field.ty.to_token_stream());
            }
            if matches!(dir, Direction::Deserialize) && serde.default == DefaultAttr::Default {
                defaulted.push(field.ty.to_token_stream());
            }
        }
    }
    let generics = &cont.item.generics;
    let with_bound = |types: &[TokenStream], bound: &TokenStream| -> Vec<WherePredicate> {
        generics
            .type_params()
            .filter(|param| types.iter().any(|ty| mentions(ty, &param.ident)))
            .map(|param| {
                let ident = &param.ident;
                syn::parse_quote!(#ident: #bound)
            })
            .collect()
    };
    let mut out = with_bound(&used, &bound);
    out.extend(with_bound(
        &defaulted,
        &quote::quote!(::core::default::Default),
    ));
    out.extend(own);
    out
}

fn mentions(tokens: &TokenStream, ident: &syn::Ident) -> bool {
    tokens.clone().into_iter().any(|tt| match tt {
        TokenTree::Ident(i) => i == *ident,
        TokenTree::Group(g) => mentions(&g.stream(), ident),
        _ => false,
    })
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

/// `generics` with a leading `'__de` lifetime outliving every lifetime of
/// the type, and `'static` where serde's derive reads from `'static` data
/// (serde writes `Deserialize<'static>` then, and its twin needs it).
pub fn with_de_lifetime(cont: &Container) -> Generics {
    let generics = &cont.item.generics;
    let mut out = generics.clone();
    let mut bounds: Vec<syn::Lifetime> = generics.lifetimes().map(|l| l.lifetime.clone()).collect();
    if borrows_static(cont) {
        bounds.push(syn::parse_quote!('static));
    }
    let de: syn::LifetimeParam = if bounds.is_empty() {
        syn::parse_quote!('__de)
    } else {
        syn::parse_quote!('__de: #(#bounds)+*)
    };
    out.params.insert(0, syn::GenericParam::Lifetime(de));
    out
}

/// Whether a field serde borrows from borrows `'static`: one with
/// `#[serde(borrow)]` (on it or on its newtype variant) naming `'static` or
/// over a type mentioning it, or a `&'static str`/`&'static [u8]` (or an
/// `Option` of one), which serde always borrows.
fn borrows_static(cont: &Container) -> bool {
    cont.variants.iter().any(|variant| {
        variant.fields().any(|(field, serde)| {
            if serde.skip_deserializing {
                return false;
            }
            match serde.borrow.as_ref().or(variant.serde.borrow.as_ref()) {
                Some(lifetimes) => match lifetimes {
                    Some(lifetimes) => lifetimes.value().split('+').any(|l| l.trim() == "'static"),
                    None => mentions_static(&field.ty.to_token_stream()),
                },
                None => implicitly_borrowed(&field.ty).is_some_and(|l| l.ident == "static"),
            }
        })
    })
}

fn mentions_static(tokens: &TokenStream) -> bool {
    let mut after_quote = false;
    tokens.clone().into_iter().any(|tt| {
        let found = match &tt {
            TokenTree::Ident(i) => after_quote && i == "static",
            TokenTree::Group(g) => mentions_static(&g.stream()),
            _ => false,
        };
        after_quote = matches!(&tt, TokenTree::Punct(p) if p.as_char() == '\'');
        found
    })
}

/// The lifetime of `&'a str`, `&'a [u8]` or an `Option` of one: the types
/// serde's derive borrows without being asked, recognized by their spelling
/// as it recognizes them, so that our impl and the twin's agree.
fn implicitly_borrowed(ty: &syn::Type) -> Option<&syn::Lifetime> {
    match ungroup(ty) {
        syn::Type::Reference(r) => {
            let borrowable = match ungroup(&r.elem) {
                syn::Type::Path(p) => p.qself.is_none() && p.path.is_ident("str"),
                syn::Type::Slice(s) => {
                    matches!(ungroup(&s.elem), syn::Type::Path(p) if p.path.is_ident("u8"))
                }
                _ => false,
            };
            if borrowable {
                r.lifetime.as_ref()
            } else {
                None
            }
        }
        syn::Type::Path(p) => {
            let last = p.path.segments.last()?;
            if last.ident != "Option" {
                return None;
            }
            match &last.arguments {
                syn::PathArguments::AngleBracketed(args) if args.args.len() == 1 => {
                    match &args.args[0] {
                        syn::GenericArgument::Type(inner) => match ungroup(inner) {
                            syn::Type::Reference(_) => implicitly_borrowed(inner),
                            _ => None,
                        },
                        _ => None,
                    }
                }
                _ => None,
            }
        }
        _ => None,
    }
}

fn ungroup(ty: &syn::Type) -> &syn::Type {
    match ty {
        syn::Type::Group(g) => ungroup(&g.elem),
        other => other,
    }
}
