//! The one reading of serde's own `#[serde(...)]` attributes. The enum's
//! serde code is derived by serde itself on a twin, so most keys only pass
//! through; these entries are what the checks, the bounds, the lifetimes and
//! the schema need to know of them (`rename`, `bound`, `borrow`, ...).

use proc_macro2::TokenStream;
use quote::ToTokens;
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
}

/// Every entry of every `#[serde(...)]` in `attrs`, in order.
pub fn serde_entries(attrs: &[Attribute]) -> Vec<SerdeEntry> {
    let mut out = Vec::new();
    for attr in attrs.iter().filter(|a| a.path().is_ident("serde")) {
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
