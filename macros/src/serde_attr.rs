//! The one reading of serde's own attributes: `#[serde(...)]` lists and the
//! `Serialize`/`Deserialize` of `#[derive(...)]`. The enum's serde code is
//! derived by serde itself on a twin, so most keys only pass through; these
//! entries are what the checks, the bounds, the lifetimes and the schema
//! need to know of them (`rename`, `bound`, `borrow`, ...), and the only
//! code that sorts a list of attributes into the user's item and the twin.

use proc_macro2::TokenStream;
use quote::{quote, ToTokens};
use syn::{Attribute, Expr, ExprLit, Lit, LitStr, Meta};

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Which {
    Both,
    De,
    Ser,
}

/// One key of a `#[serde(...)]` list.
#[derive(Clone)]
pub struct SerdeEntry {
    /// `rename`, `bound`, `borrow`, ...
    pub key: String,
    /// `rename = "a"` is `Both`, `rename(serialize = "a")` is `Ser`.
    pub which: Which,
    /// The string value, if the key has one.
    pub value: Option<LitStr>,
    /// The key's path, for errors.
    pub path: TokenStream,
}

impl SerdeEntry {
    pub fn is(&self, key: &str) -> bool {
        self.key == key
    }

    pub fn applies_to_de(&self) -> bool {
        self.which != Which::Ser
    }

    pub fn applies_to_ser(&self) -> bool {
        self.which != Which::De
    }

    /// Whether the entry applies to writing (`ser`) or to reading.
    pub fn applies(&self, ser: bool) -> bool {
        if ser {
            self.applies_to_ser()
        } else {
            self.applies_to_de()
        }
    }
}

pub fn is_serde(attr: &Attribute) -> bool {
    attr.path().is_ident("serde")
}

/// The name `#[json_subtypes(...)]` takes on the enum handed to the
/// derive: a helper attribute may not share the attribute macro's name.
pub const HELPER: &str = "__json_subtypes";

/// `#[json_subtypes(...)]`, or the helper it became.
pub fn is_ours(attr: &Attribute) -> bool {
    attr.path().is_ident("json_subtypes") || attr.path().is_ident(HELPER)
}

/// Renames `#[json_subtypes(...)]` to the helper, also inside
/// `#[cfg_attr(pred, ...)]` (at any depth), so each applies exactly when
/// its predicate holds once the compiler hands the enum to the derive.
pub fn ours_to_helper(attrs: &mut [Attribute]) {
    for attr in attrs {
        let path = attr.path().clone();
        if is_json_subtypes(&path) {
            let span = path
                .segments
                .last()
                .map_or_else(proc_macro2::Span::call_site, |s| s.ident.span());
            set_path(&mut attr.meta, helper_path(span));
        } else if path.is_ident("cfg_attr") {
            if let Meta::List(list) = &mut attr.meta {
                if let Some(tokens) = cfg_attr_to_helper(list.tokens.clone()) {
                    list.tokens = tokens;
                }
            }
        }
    }
}

/// `json_subtypes` or `json_subtypes::json_subtypes`.
fn is_json_subtypes(path: &syn::Path) -> bool {
    path.segments
        .last()
        .is_some_and(|last| last.ident == "json_subtypes")
        && path.segments.len() <= 2
        && path.segments.iter().all(|s| s.ident == "json_subtypes")
}

fn helper_path(span: proc_macro2::Span) -> syn::Path {
    syn::Ident::new(HELPER, span).into()
}

fn set_path(meta: &mut Meta, path: syn::Path) {
    match meta {
        Meta::Path(p) => *p = path,
        Meta::List(l) => l.path = path,
        Meta::NameValue(nv) => nv.path = path,
    }
}

/// The arguments of `cfg_attr` (`pred, attr, attr...`) with ours renamed;
/// `None` when they do not parse (the compiler reports those).
fn cfg_attr_to_helper(tokens: TokenStream) -> Option<TokenStream> {
    type Metas = syn::punctuated::Punctuated<Meta, syn::Token![,]>;
    let mut metas = syn::parse::Parser::parse2(Metas::parse_terminated, tokens).ok()?;
    for meta in metas.iter_mut().skip(1) {
        let path = meta.path().clone();
        if is_json_subtypes(&path) {
            let span = path.segments.last()?.ident.span();
            set_path(meta, helper_path(span));
        } else if path.is_ident("cfg_attr") {
            if let Meta::List(list) = meta {
                list.tokens = cfg_attr_to_helper(list.tokens.clone())?;
            }
        }
    }
    Some(metas.to_token_stream())
}

/// The container's arguments: every helper attribute on the enum in order
/// (the attribute's own first, then any `cfg_attr` that held), as one list.
pub fn helper_args(attrs: &[Attribute]) -> TokenStream {
    let lists = attrs
        .iter()
        .filter(|a| a.path().is_ident(HELPER))
        .filter_map(|a| match &a.meta {
            Meta::List(list) if !list.tokens.is_empty() => Some(list.tokens.clone()),
            _ => None,
        });
    let mut out = TokenStream::new();
    for (i, list) in lists.enumerate() {
        if i > 0 {
            out.extend(quote!(,));
        }
        out.extend(list);
    }
    out
}

/// The paths of `Serialize`/`Deserialize` in `#[derive(...)]` lists.
pub fn serde_derives(attrs: &[Attribute]) -> Vec<syn::Path> {
    let mut out = Vec::new();
    for attr in attrs.iter().filter(|a| a.path().is_ident("derive")) {
        let _ = attr.parse_nested_meta(|meta| {
            if is_serde_derive(&meta.path) {
                out.push(meta.path.clone());
            }
            Ok(())
        });
    }
    out
}

fn is_serde_derive(path: &syn::Path) -> bool {
    path.segments
        .last()
        .is_some_and(|last| last.ident == "Serialize" || last.ident == "Deserialize")
}

/// `#[derive(Debug, Serialize)]` as `#[derive(Debug)]`: the user's enum
/// after the error about the derive, so it compiles without a second impl.
pub fn without_serde_derives(attrs: &[Attribute]) -> Vec<Attribute> {
    attrs
        .iter()
        .filter_map(|a| {
            if a.path().is_ident("derive") && !serde_derives(std::slice::from_ref(a)).is_empty() {
                strip_serde_derives(a)
            } else {
                Some(a.clone())
            }
        })
        .collect()
}

fn strip_serde_derives(attr: &Attribute) -> Option<Attribute> {
    let mut kept: Vec<syn::Path> = Vec::new();
    let _ = attr.parse_nested_meta(|meta| {
        if !is_serde_derive(&meta.path) {
            kept.push(meta.path.clone());
        }
        Ok(())
    });
    if kept.is_empty() {
        None
    } else {
        Some(syn::parse_quote!(#[derive(#(#kept),*)]))
    }
}

/// Every entry of every `#[serde(...)]` in `attrs`, in order.
pub fn serde_entries(attrs: &[Attribute]) -> Vec<SerdeEntry> {
    let mut out = Vec::new();
    for attr in attrs.iter().filter(|a| is_serde(a)) {
        if !matches!(attr.meta, Meta::List(_)) {
            continue;
        }
        // A malformed list is serde's to report, on the twin.
        let _ = attr.parse_nested_meta(|meta| {
            let key = meta.path.to_token_stream().to_string();
            let path = meta.path.to_token_stream();
            if meta.input.peek(syn::Token![=]) {
                let expr: Expr = meta.value()?.parse()?;
                out.push(SerdeEntry {
                    key,
                    which: Which::Both,
                    value: string_lit(&expr),
                    path,
                });
            } else if meta.input.peek(syn::token::Paren) {
                meta.parse_nested_meta(|inner| {
                    let which = if inner.path.is_ident("serialize") {
                        Which::Ser
                    } else {
                        Which::De
                    };
                    if inner.input.peek(syn::Token![=]) {
                        let expr: Expr = inner.value()?.parse()?;
                        out.push(SerdeEntry {
                            key: key.clone(),
                            which,
                            value: string_lit(&expr),
                            path: path.clone(),
                        });
                    }
                    Ok(())
                })?;
            } else {
                out.push(SerdeEntry {
                    key,
                    which: Which::Both,
                    value: None,
                    path,
                });
            }
            Ok(())
        });
    }
    out
}

fn string_lit(expr: &Expr) -> Option<LitStr> {
    match expr {
        Expr::Lit(ExprLit {
            lit: Lit::Str(s), ..
        }) => Some(s.clone()),
        _ => None,
    }
}

/// A variant's `#[serde(...)]` for the twin, which must read every variant:
/// serde numbers only the variants it reads, and the engine builds by
/// declaration index. `skip_deserializing` is honoured by leaving the
/// variant's tags out of the tables instead; `skip` keeps its half for
/// writing.
pub fn readable_in_twin(attr: &Attribute) -> Attribute {
    type Metas = syn::punctuated::Punctuated<syn::Meta, syn::Token![,]>;
    let Ok(metas) = attr.parse_args_with(Metas::parse_terminated) else {
        // serde reports it.
        return attr.clone();
    };
    let is = |m: &syn::Meta, key: &str| matches!(m, syn::Meta::Path(p) if p.is_ident(key));
    if !metas
        .iter()
        .any(|m| is(m, "skip") || is(m, "skip_deserializing"))
    {
        return attr.clone();
    }
    let kept = metas
        .iter()
        .filter(|m| !is(m, "skip_deserializing"))
        .map(|m| {
            if is(m, "skip") {
                let span = syn::spanned::Spanned::span(m);
                quote::quote_spanned!(span=> skip_serializing)
            } else {
                quote!(#m)
            }
        });
    syn::parse_quote!(#[serde(#(#kept),*)])
}
