//! Reading serde's own attributes, which the checks and the schema both
//! need to know (`rename`, `alias`, `default`, ...).

use quote::ToTokens;
use syn::{Attribute, Expr, ExprLit, Lit, LitStr, Meta};

#[derive(Clone, Copy)]
pub enum Which {
    Both,
    De,
    Ser,
}

/// `(key, direction, string value)` for each entry of `#[serde(...)]`:
/// `rename = "a"` is `Both`, `rename(serialize = "a")` is `Ser`.
pub fn serde_entries(attrs: &[Attribute]) -> Vec<(String, Which, Option<LitStr>)> {
    let mut out = Vec::new();
    for attr in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        if !matches!(attr.meta, Meta::List(_)) {
            continue;
        }
        let _ = attr.parse_nested_meta(|meta| {
            let key = meta.path.to_token_stream().to_string();
            if meta.input.peek(syn::Token![=]) {
                let expr: Expr = meta.value()?.parse()?;
                out.push((key, Which::Both, string_lit(&expr)));
            } else if meta.input.peek(syn::token::Paren) {
                meta.parse_nested_meta(|inner| {
                    let which = if inner.path.is_ident("serialize") {
                        Which::Ser
                    } else {
                        Which::De
                    };
                    if inner.input.peek(syn::Token![=]) {
                        let expr: Expr = inner.value()?.parse()?;
                        out.push((key.clone(), which, string_lit(&expr)));
                    }
                    Ok(())
                })?;
            } else {
                out.push((key, Which::Both, None));
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
