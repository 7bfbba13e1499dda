//! One `check_*` per rule. Each records errors in the context and never
//! stops the others from running.

use std::collections::HashMap;

use quote::ToTokens;
use proc_macro2::TokenStream;
use syn::ext::IdentExt;
use syn::{Attribute, Expr, ExprLit, Lit, LitStr, Meta};

use crate::ast::{Container, Style};
use crate::attr::TagValue;
use crate::ctx::Ctxt;

pub fn check(cx: &Ctxt, cont: &Container) {
    check_tag_present(cx, cont);
    check_has_variants(cx, cont);
    check_no_serde_derive(cx, cont);
    check_variant_styles(cx, cont);
    check_unique_tags(cx, cont);
    check_fields_named_like_tag(cx, cont);
    check_container_serde_attrs(cx, cont);
    check_variant_serde_attrs(cx, cont);
}

/// An enum without `tag` would need presence detection, which reads the
/// whole object; say what to add.
fn check_tag_present(cx: &Ctxt, cont: &Container) {
    // A misspelt key (`tga = ...`) was already reported; do not pile on.
    if cont.attrs.tag.is_none() && !cont.attrs.had_unknown_key {
        cx.error_spanned_by(
            cont.ident(),
            "missing tag key; write `#[json_subtypes(tag = \"type\")]`",
        );
    }
}

/// Reading needs at least one subtype to pick.
fn check_has_variants(cx: &Ctxt, cont: &Container) {
    if cont.variants.is_empty() {
        cx.error_spanned_by(
            cont.ident(),
            "an enum without variants has no subtypes; add a variant per subtype",
        );
    }
}

/// The attribute generates both impls; a derive beside it would conflict.
fn check_no_serde_derive(cx: &Ctxt, cont: &Container) {
    for path in serde_derives(&cont.item.attrs) {
        let name = path.segments.last().unwrap().ident.to_string();
        cx.error_spanned_by(
            &path,
            format!(
                "`#[json_subtypes]` already implements `{name}`; remove `{name}` from this derive"
            ),
        );
    }
}

/// The paths of `Serialize`/`Deserialize` in `#[derive(...)]` lists.
pub fn serde_derives(attrs: &[Attribute]) -> Vec<syn::Path> {
    let mut out = Vec::new();
    for attr in attrs.iter().filter(|a| a.path().is_ident("derive")) {
        let _ = attr.parse_nested_meta(|meta| {
            if let Some(last) = meta.path.segments.last() {
                if last.ident == "Serialize" || last.ident == "Deserialize" {
                    out.push(meta.path.clone());
                }
            }
            Ok(())
        });
    }
    out
}

/// A tag needs a map to live in: tuple variants with several fields are
/// sequences.
fn check_variant_styles(cx: &Ctxt, cont: &Container) {
    for variant in &cont.variants {
        if variant.style == Style::Tuple {
            cx.error_spanned_by(
                &variant.original.fields,
                "a tagged variant needs named fields or one payload; use a struct variant or a newtype around a struct",
            );
        }
    }
}

/// Every tag value, aliases included, selects exactly one variant.
fn check_unique_tags(cx: &Ctxt, cont: &Container) {
    let mut seen: HashMap<&TagValue, &syn::Ident> = HashMap::new();
    for variant in &cont.variants {
        for tag in &variant.tags {
            match seen.get(&tag.value) {
                Some(owner) => cx.error_spanned_by(
                    tag,
                    format!(
                        "duplicate subtype tag {} (also the tag of `{owner}`); give each variant its own `name` or `alias`",
                        tag.value.display()
                    ),
                ),
                None => {
                    seen.insert(&tag.value, variant.ident());
                }
            }
        }
    }
}

/// A struct variant field serialized under the tag's name would write the
/// key twice.
fn check_fields_named_like_tag(cx: &Ctxt, cont: &Container) {
    let Some(tag) = cont.tag_key() else { return };
    for variant in &cont.variants {
        if variant.style != Style::Struct {
            continue;
        }
        for field in &variant.original.fields {
            let Some(ident) = &field.ident else { continue };
            let entries = serde_entries(&field.attrs);
            let mut offenders: Vec<TokenStream> = entries
                .iter()
                .filter(|(key, _)| key == "rename" || key == "alias")
                .filter_map(|(_, value)| value.as_ref())
                .filter(|lit| lit.value() == tag)
                .map(|lit| lit.to_token_stream())
                .collect();
            // Without a rename, serde reads and writes the field's own name.
            let renamed = entries.iter().any(|(key, _)| key == "rename");
            if !renamed && ident.unraw() == tag {
                offenders.push(ident.to_token_stream());
            }
            for tokens in offenders {
                cx.error_spanned_by(
                    tokens,
                    format!(
                        "field named like the tag `{tag}`; rename the field or choose another tag key"
                    ),
                );
            }
        }
    }
}

/// Container-level serde attributes that would change the enum's wire form
/// conflict with ours.
fn check_container_serde_attrs(cx: &Ctxt, cont: &Container) {
    for attr in cont.item.attrs.iter().filter(|a| a.path().is_ident("serde")) {
        let _ = attr.parse_nested_meta(|meta| {
            let key = meta.path.to_token_stream().to_string();
            let fix = match key.as_str() {
                "tag" => Some("use `#[json_subtypes(tag = \"...\")]`"),
                "rename_all" => Some("use `#[json_subtypes(rename_all = \"...\")]`"),
                "content" | "untagged" | "remote" | "from" | "try_from" | "into" | "transparent" => {
                    Some("remove it; `#[json_subtypes]` decides the enum's form")
                }
                _ => None,
            };
            if let Some(fix) = fix {
                cx.error_spanned_by(
                    &meta.path,
                    format!("`#[serde({key})]` conflicts with `#[json_subtypes]`; {fix}"),
                );
            }
            skip_value(&meta)
        });
    }
}

/// Variant-level serde attributes that rename or hide variants would be
/// silently ignored; tags come from `#[json_subtypes(name, alias)]`.
fn check_variant_serde_attrs(cx: &Ctxt, cont: &Container) {
    for variant in &cont.variants {
        for attr in variant
            .original
            .attrs
            .iter()
            .filter(|a| a.path().is_ident("serde"))
        {
            let _ = attr.parse_nested_meta(|meta| {
                let key = meta.path.to_token_stream().to_string();
                let fix = match key.as_str() {
                    "rename" => Some("use `#[json_subtypes(name = ...)]`"),
                    "alias" => Some("use `#[json_subtypes(alias = ...)]`"),
                    "skip" | "skip_serializing" | "skip_deserializing" | "other" | "untagged"
                    | "serialize_with" | "deserialize_with" | "with" => {
                        Some("it is not supported on the variants of a `#[json_subtypes]` enum")
                    }
                    _ => None,
                };
                if let Some(fix) = fix {
                    cx.error_spanned_by(
                        &meta.path,
                        format!("`#[serde({key})]` on a variant; {fix}"),
                    );
                }
                skip_value(&meta)
            });
        }
    }
}

fn skip_value(meta: &syn::meta::ParseNestedMeta) -> syn::Result<()> {
    if meta.input.peek(syn::Token![=]) {
        let _: Expr = meta.value()?.parse()?;
    } else if meta.input.peek(syn::token::Paren) {
        let content;
        syn::parenthesized!(content in meta.input);
        let _: proc_macro2::TokenStream = content.parse()?;
    }
    Ok(())
}

/// `(key, string value)` for each entry of `#[serde(...)]` attributes,
/// flattening `rename(serialize = "a", deserialize = "b")` into two entries.
fn serde_entries(attrs: &[Attribute]) -> Vec<(String, Option<LitStr>)> {
    let mut out = Vec::new();
    for attr in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        if !matches!(attr.meta, Meta::List(_)) {
            continue;
        }
        let _ = attr.parse_nested_meta(|meta| {
            let key = meta.path.to_token_stream().to_string();
            if meta.input.peek(syn::Token![=]) {
                let expr: Expr = meta.value()?.parse()?;
                out.push((key, string_lit(&expr)));
            } else if meta.input.peek(syn::token::Paren) {
                meta.parse_nested_meta(|inner| {
                    if inner.input.peek(syn::Token![=]) {
                        let expr: Expr = inner.value()?.parse()?;
                        out.push((key.clone(), string_lit(&expr)));
                    }
                    Ok(())
                })?;
            } else {
                out.push((key, None));
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
