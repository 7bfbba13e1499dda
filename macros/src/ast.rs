//! The typed model of an annotated enum, trait or trait impl. Keeps the
//! original syntax so every error can point at the user's tokens.

use quote::ToTokens;
use syn::ext::IdentExt;
use syn::{Fields, Ident, ItemEnum, ItemImpl, ItemTrait};

use crate::attr::{tag_value, typed_value, ContainerAttrs, Spanned, TagValue, VariantAttrs};
use crate::case::RenameRule;
use crate::ctx::Ctxt;
use crate::serde_attr::{serde_entries, SerdeEntry, Which};

pub struct Container<'a> {
    pub item: &'a ItemEnum,
    pub attrs: ContainerAttrs,
    /// The enum's `#[serde(...)]` entries.
    pub serde: Vec<SerdeEntry>,
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
    /// The variant's `#[serde(...)]` entries.
    pub serde: Vec<SerdeEntry>,
    /// Each field's `#[serde(...)]` entries, in field order.
    pub field_serde: Vec<Vec<SerdeEntry>>,
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

    /// A `nested` variant the parent may build straight from the child's
    /// resolution: no serde attribute changes how its payload is read.
    pub fn is_direct_nested(&self) -> bool {
        self.is_nested() && self.serde.is_empty() && self.field_serde.iter().all(Vec::is_empty)
    }

    /// Without `#[serde(skip)]` or `#[serde(skip_deserializing)]`: its tags
    /// select it on read.
    pub fn is_readable(&self) -> bool {
        !self
            .serde
            .iter()
            .any(|e| e.is("skip") || e.is("skip_deserializing"))
    }

    /// Without `#[serde(skip)]` or `#[serde(skip_serializing)]`: it can be
    /// written.
    pub fn is_writable(&self) -> bool {
        !self
            .serde
            .iter()
            .any(|e| e.is("skip") || e.is("skip_serializing"))
    }

    /// The fields with their serde entries.
    pub fn fields(&self) -> impl Iterator<Item = (&syn::Field, &[SerdeEntry])> {
        self.original
            .fields
            .iter()
            .zip(self.field_serde.iter().map(Vec::as_slice))
    }

    /// The payload type of a newtype variant.
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
        // The external form's tags are the map's keys: it has no tag key.
        let tagged = attrs.tag.is_some() || attrs.external.is_some();
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
                    serde: serde_entries(&original.attrs),
                    field_serde: original
                        .fields
                        .iter()
                        .map(|f| serde_entries(&f.attrs))
                        .collect(),
                    visible: false,
                }
            })
            .collect::<Vec<Variant>>();
        let mut serde = serde_entries(&item.attrs);
        // Ours means serde's: the model, the checks and the twin see one key.
        if let Some(rule) = &attrs.rename_all_fields {
            serde.push(SerdeEntry {
                key: "rename_all_fields".to_owned(),
                which: Which::Both,
                value: Some(rule.value.clone()),
                path: rule.tokens.clone(),
            });
        }
        let mut cont = Container {
            item,
            attrs,
            serde,
            variants,
        };
        if let (Some(_), Some(key)) = (&cont.attrs.visible, cont.tag_key()) {
            let visible: Vec<bool> = cont
                .variants
                .iter()
                .map(|v| {
                    !v.tags.is_empty()
                        && match v.style {
                            Style::Newtype => true,
                            Style::Struct => cont.fields_named(v, key).iter().any(|f| !f.alias),
                            Style::Unit | Style::Tuple => false,
                        }
                })
                .collect();
            for (v, visible) in cont.variants.iter_mut().zip(visible) {
                v.visible = visible;
            }
        }
        cont
    }

    /// The fields of a struct variant that serde reads or writes under the
    /// name `key`: a `rename` or `alias` to it, or the field's own name
    /// after the variant's `rename_all` or the enum's `rename_all_fields`.
    pub fn fields_named(&self, variant: &Variant, key: &str) -> Vec<TagField> {
        let mut out = Vec::new();
        if variant.style != Style::Struct {
            return out;
        }
        for (field, entries) in variant.fields() {
            let Some(ident) = &field.ident else { continue };
            for e in entries.iter().filter(|e| e.is("rename") || e.is("alias")) {
                if let Some(lit) = e.value.as_ref().filter(|lit| lit.value() == key) {
                    out.push(TagField {
                        tokens: lit.to_token_stream(),
                        alias: e.is("alias"),
                    });
                }
            }
            // Without a rename, serde reads and writes the field's own name,
            // after the variant's `rename_all` or the enum's `rename_all_fields`.
            let own = ident.unraw().to_string();
            let unrenamed = |ser: bool| {
                let renamed = entries.iter().any(|e| e.is("rename") && e.applies(ser));
                let name = match self.field_rule(variant, ser) {
                    Some(rule) => rule.apply_to_field(&own),
                    None => own.clone(),
                };
                !renamed && name == key
            };
            if unrenamed(false) || unrenamed(true) {
                out.push(TagField {
                    tokens: ident.to_token_stream(),
                    alias: false,
                });
            }
        }
        out
    }

    pub fn ident(&self) -> &Ident {
        &self.item.ident
    }

    /// serde's rule for a struct variant's field names, for writing (`ser`)
    /// or reading: the variant's `rename_all`, else the enum's
    /// `rename_all_fields`.
    pub fn field_rule(&self, variant: &Variant, ser: bool) -> Option<RenameRule> {
        let rule = |entries: &[SerdeEntry], key: &str| {
            entries
                .iter()
                .filter(|e| e.is(key) && e.applies(ser))
                .filter_map(|e| RenameRule::from_str(&e.value.as_ref()?.value()))
                .next_back()
        };
        rule(&variant.serde, "rename_all").or_else(|| rule(&self.serde, "rename_all_fields"))
    }

    /// The string of the enum's `#[serde(key = "...")]`, for writing (`ser`)
    /// or reading.
    pub fn serde_value(&self, key: &str, ser: bool) -> Option<String> {
        self.serde
            .iter()
            .filter(|e| e.is(key) && e.applies(ser))
            .filter_map(|e| Some(e.value.as_ref()?.value()))
            .next_back()
    }

    pub fn tag_key(&self) -> Option<&str> {
        self.attrs.tag.as_ref().map(|t| t.value.as_str())
    }

    /// No tag key: variants are told apart by the fields present.
    pub fn is_presence(&self) -> bool {
        self.attrs.tag.is_none() && self.attrs.external.is_none()
    }

    /// The externally or adjacently tagged form, named by its key
    /// (`external`, `content`); `None` for the internally tagged form.
    pub fn apart_form(&self) -> Option<&'static str> {
        match (&self.attrs.external, &self.attrs.content) {
            (Some(_), _) => Some("external"),
            (None, Some(_)) => Some("content"),
            (None, None) => None,
        }
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

/// An annotated trait: the container of a registry of its implementations.
pub struct Trait<'a> {
    pub item: &'a ItemTrait,
    pub attrs: ContainerAttrs,
}

impl<'a> Trait<'a> {
    pub fn from_ast(attrs: ContainerAttrs, item: &'a ItemTrait) -> Self {
        Trait { item, attrs }
    }

    pub fn ident(&self) -> &Ident {
        &self.item.ident
    }

    pub fn tag_key(&self) -> Option<&str> {
        self.attrs.tag.as_ref().map(|t| t.value.as_str())
    }
}

/// An annotated `impl Trait for Type`: one registration, the trait-object
/// counterpart of a variant.
pub struct Impl<'a> {
    pub item: &'a ItemImpl,
    /// `Trait` of `impl Trait for Type`; `None` for an inherent impl.
    pub trait_path: Option<&'a syn::Path>,
    pub attrs: VariantAttrs,
    /// The tag written (first) and every tag accepted, aliases included;
    /// empty for a fallback and for an impl found by `when_field` alone.
    pub tags: Vec<Spanned<TagValue>>,
}

impl<'a> Impl<'a> {
    pub fn from_ast(cx: &Ctxt, attrs: VariantAttrs, item: &'a ItemImpl) -> Self {
        let untagged =
            attrs.fallback.is_some() || (attrs.name.is_none() && !attrs.when_fields.is_empty());
        let convert = |expr: &Spanned<syn::Expr>| {
            tag_value(cx, &expr.value).map(|value| Spanned {
                value,
                tokens: expr.tokens.clone(),
            })
        };
        let mut tags = Vec::new();
        if !untagged {
            match &attrs.name {
                Some(name) => tags.extend(convert(name)),
                // The type's own name: `Circle` for `Circle` or `shapes::Circle`,
                // also from a `macro_rules!` fragment (an invisible group).
                None => {
                    let mut ty = &*item.self_ty;
                    while let syn::Type::Group(group) = ty {
                        ty = &group.elem;
                    }
                    if let syn::Type::Path(p) = ty {
                        if let Some(last) = p.path.segments.last() {
                            tags.push(Spanned {
                                value: TagValue::Str(last.ident.to_string()),
                                tokens: item.self_ty.to_token_stream(),
                            });
                        }
                    }
                }
            }
            tags.extend(attrs.aliases.iter().filter_map(convert));
        }
        Impl {
            item,
            trait_path: item.trait_.as_ref().map(|(_, path, _)| path),
            attrs,
            tags,
        }
    }

    pub fn self_ty(&self) -> &syn::Type {
        &self.item.self_ty
    }

    pub fn is_fallback(&self) -> bool {
        self.attrs.fallback.is_some()
    }
}
