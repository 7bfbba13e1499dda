//! The typed model of an annotated enum. Keeps the original syntax so every
//! error can point at the user's tokens.

use quote::ToTokens;
use syn::ext::IdentExt;
use syn::{Fields, Ident, ItemEnum};

use crate::attr::{tag_value, typed_value, ContainerAttrs, Spanned, TagValue, VariantAttrs};
use crate::case::RenameRule;
use crate::ctx::Ctxt;
use crate::serde_attr::serde_entries;

pub struct Container<'a> {
    pub item: &'a ItemEnum,
    pub attrs: ContainerAttrs,
    pub variants: Vec<Variant<'a>>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Style {
    Unit,
    Newtype,
    Struct,
    Tuple,
}

pub struct Variant<'a> {
    pub original: &'a syn::Variant,
    pub style: Style,
    /// The tag written (first) and every tag accepted, aliases included;
    /// empty for a fallback and in presence mode.
    pub tags: Vec<Spanned<TagValue>>,
    pub attrs: VariantAttrs,
    /// `visible`: the payload reads the tag entry and writes the tag itself
    /// (a tagged newtype variant, or a struct variant with a field named
    /// like the tag).
    pub visible: bool,
}

/// A struct variant's field that serde reads or writes under the tag's
/// name: by its own name, a `rename`, or (`alias`) on read only.
pub struct TagField {
    pub tokens: proc_macro2::TokenStream,
    pub alias: bool,
}

impl Variant<'_> {
    pub fn is_fallback(&self) -> bool {
        self.attrs.fallback.is_some()
    }

    pub fn is_nested(&self) -> bool {
        self.attrs.nested.is_some()
    }

    /// The payload type of a newtype variant.
    /// A `nested` variant the parent may build straight from the child's
    /// resolution: no serde attribute changes how its payload is read.
    pub fn is_direct_nested(&self) -> bool {
        let is_serde = |a: &syn::Attribute| a.path().is_ident("serde");
        self.is_nested()
            && !self.original.attrs.iter().any(is_serde)
            && !self
                .original
                .fields
                .iter()
                .any(|f| f.attrs.iter().any(is_serde))
    }

    /// The fields named like the tag `key`.
    pub fn fields_named(&self, key: &str) -> Vec<TagField> {
        let mut out = Vec::new();
        if self.style != Style::Struct {
            return out;
        }
        for field in &self.original.fields {
            let Some(ident) = &field.ident else { continue };
            let entries = serde_entries(&field.attrs);
            for (name, _, value) in &entries {
                if let Some(lit) = value.as_ref().filter(|lit| lit.value() == key) {
                    if name == "rename" || name == "alias" {
                        out.push(TagField {
                            tokens: lit.to_token_stream(),
                            alias: name == "alias",
                        });
                    }
                }
            }
            // Without a rename, serde reads and writes the field's own name.
            let renamed = entries.iter().any(|(name, _, _)| name == "rename");
            if !renamed && ident.unraw() == key {
                out.push(TagField {
                    tokens: ident.to_token_stream(),
                    alias: false,
                });
            }
        }
        out
    }

    pub fn payload(&self) -> Option<&syn::Type> {
        match (&self.original.fields, self.style) {
            (Fields::Unnamed(f), Style::Newtype) => f.unnamed.first().map(|f| &f.ty),
            _ => None,
        }
    }
}

impl<'a> Container<'a> {
    pub fn from_ast(cx: &Ctxt, attrs: ContainerAttrs, item: &'a ItemEnum) -> Self {
        let rule = attrs.rename_all.as_ref().map(|r| r.value);
        let tag_type = attrs.tag_type.clone();
        let tagged = attrs.tag.is_some();
        let variants = item
            .variants
            .iter()
            .map(|original| {
                let attrs = VariantAttrs::parse(cx, &original.attrs);
                let style = match &original.fields {
                    Fields::Unit => Style::Unit,
                    Fields::Named(_) => Style::Struct,
                    Fields::Unnamed(f) if f.unnamed.len() == 1 => Style::Newtype,
                    Fields::Unnamed(_) => Style::Tuple,
                };
                let convert = |expr: &Spanned<syn::Expr>| {
                    let value = match &tag_type {
                        Some(ty) => typed_value(cx, &expr.value, &ty.value),
                        None => tag_value(cx, &expr.value),
                    };
                    value.map(|value| Spanned {
                        value,
                        tokens: expr.tokens.clone(),
                    })
                };
                let untagged = attrs.fallback.is_some() || attrs.nested.is_some() || !tagged;
                let primary = match (&attrs.name, &tag_type) {
                    _ if untagged => None,
                    (Some(name), _) => convert(name),
                    (None, None) => Some(Spanned {
                        value: TagValue::Str(default_name(&original.ident, rule)),
                        tokens: original.ident.to_token_stream(),
                    }),
                    (None, Some(ty)) => {
                        let ty = ty.tokens.to_string().replace(' ', "");
                        cx.error_spanned_by(
                            &original.ident,
                            format!("missing `name`; with `tag_type` every variant says which `{ty}` it is, e.g. `#[json_subtypes(name = {ty}::{})]`", original.ident),
                        );
                        None
                    }
                };
                let mut tags: Vec<Spanned<TagValue>> = primary.into_iter().collect();
                if !untagged {
                    tags.extend(attrs.aliases.iter().filter_map(convert));
                }
                Variant {
                    original,
                    style,
                    tags,
                    attrs,
                    visible: false,
                }
            })
            .collect::<Vec<Variant>>();
        let mut variants = variants;
        if let (Some(_), Some(key)) = (&attrs.visible, &attrs.tag) {
            for v in &mut variants {
                v.visible = !v.tags.is_empty()
                    && match v.style {
                        Style::Newtype => true,
                        Style::Struct => v.fields_named(&key.value).iter().any(|f| !f.alias),
                        Style::Unit | Style::Tuple => false,
                    };
            }
        }
        Container {
            item,
            attrs,
            variants,
        }
    }

    pub fn ident(&self) -> &Ident {
        &self.item.ident
    }

    pub fn tag_key(&self) -> Option<&str> {
        self.attrs.tag.as_ref().map(|t| t.value.as_str())
    }

    /// No tag key: variants are told apart by the fields present.
    pub fn is_presence(&self) -> bool {
        self.attrs.tag.is_none()
    }

    pub fn fallback(&self) -> Option<usize> {
        self.variants.iter().position(|v| v.is_fallback())
    }
}

impl Variant<'_> {
    pub fn ident(&self) -> &Ident {
        &self.original.ident
    }
}

fn default_name(ident: &Ident, rule: Option<RenameRule>) -> String {
    let name = ident.unraw().to_string();
    match rule {
        Some(rule) => rule.apply_to_variant(&name),
        None => name,
    }
}
