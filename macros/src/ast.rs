//! The typed model of an annotated enum, trait or trait impl. Keeps the
//! original syntax so every error can point at the user's tokens.

use proc_macro2::{Group, Span, TokenStream, TokenTree};
use quote::{quote, ToTokens};
use syn::ext::IdentExt;
use syn::spanned::Spanned as _;
use syn::{
    Fields, GenericArgument, GenericParam, Ident, ItemEnum, ItemImpl, ItemTrait, PathArguments,
};

use crate::attr::{
    tag_value, typed_value, ContainerAttrs, InstanceArg, InstanceAttr, Spanned, TagValue,
    VariantAttrs,
};
use crate::case::RenameRule;
use crate::ctx::Ctxt;
use crate::serde_attr::SerdeAttrs;

pub struct Container<'a> {
    pub item: &'a ItemEnum,
    pub attrs: ContainerAttrs,
    /// The enum's `#[serde(...)]` attributes.
    pub serde: SerdeAttrs,
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
    /// The variant's `#[serde(...)]` attributes.
    pub serde: SerdeAttrs,
    /// Each field's `#[serde(...)]` attributes, in field order.
    pub field_serde: Vec<SerdeAttrs>,
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
        self.is_nested()
            && self.serde.is_empty()
            && self.field_serde.iter().all(SerdeAttrs::is_empty)
    }

    /// Without `#[serde(skip)]` or `#[serde(skip_deserializing)]`: its tags
    /// select it on read.
    pub fn is_readable(&self) -> bool {
        !self.serde.skip_deserializing
    }

    /// Without `#[serde(skip)]` or `#[serde(skip_serializing)]`: it can be
    /// written.
    pub fn is_writable(&self) -> bool {
        !self.serde.skip_serializing
    }

    /// The fields with their serde attributes.
    pub fn fields(&self) -> impl Iterator<Item = (&syn::Field, &SerdeAttrs)> {
        self.original.fields.iter().zip(&self.field_serde)
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
                    serde: SerdeAttrs::parse(&original.attrs),
                    field_serde: original
                        .fields
                        .iter()
                        .map(|f| SerdeAttrs::parse(&f.attrs))
                        .collect(),
                    visible: false,
                }
            })
            .collect::<Vec<Variant>>();
        let mut serde = SerdeAttrs::parse(&item.attrs);
        // Ours means serde's: the model and the twin see one key.
        if let Some(rule) = &attrs.rename_all_fields {
            serde.set_rename_all_fields(&rule.value);
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
        for (field, serde) in variant.fields() {
            let Some(ident) = &field.ident else { continue };
            for name in serde.names.iter().filter(|n| n.lit.value() == key) {
                out.push(TagField {
                    tokens: name.lit.to_token_stream(),
                    alias: name.alias,
                });
            }
            // Without a rename, serde reads and writes the field's own name,
            // after the variant's `rename_all` or the enum's `rename_all_fields`.
            let own = ident.unraw().to_string();
            let unrenamed = |ser: bool| {
                let renamed = serde.rename.get(ser).is_some();
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
        (variant.serde.rename_all.get(ser))
            .or(self.serde.rename_all_fields.get(ser))
            .copied()
    }

    /// The enum's name in messages and to formats: its `#[serde(rename)]`
    /// for reading, else its own.
    pub fn serde_name(&self) -> String {
        match self.serde.rename.get(false) {
            Some(lit) => lit.value(),
            None => self.item.ident.to_string(),
        }
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

/// The type `Self`.
pub fn is_self(ty: &syn::Type) -> bool {
    matches!(ty, syn::Type::Path(p) if p.qself.is_none() && p.path.is_ident("Self"))
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

    /// The associated types, which `dyn Trait` names (`dyn Trait<Out = f64>`):
    /// one instantiation per choice of them, as for type parameters.
    pub fn assoc_types(&self) -> impl Iterator<Item = &syn::TraitItemType> {
        self.item.items.iter().filter_map(|item| match item {
            syn::TraitItem::Type(ty) => Some(ty),
            _ => None,
        })
    }

    /// Whether `dyn Trait` has parameters (type, const or lifetime
    /// parameters, or associated types), so each instantiation has a
    /// registry of its own.
    pub fn is_generic(&self) -> bool {
        !self.item.generics.params.is_empty() || self.assoc_types().next().is_some()
    }
}

/// One registration an annotated impl makes: the impl's own type, or one
/// instance of a generic impl (`instances(...)`), with the impl's
/// parameters replaced by the instance's.
pub struct Registration {
    /// The registered type (`Clamp<f32>`).
    pub self_ty: TokenStream,
    /// The trait object it registers in: a plain trait's (`dyn Shape`), or
    /// an instantiation of a generic one (`dyn Strategy<f32>`).
    pub object: TokenStream,
    /// `dyn Trait` has parameters: the registration goes to the registry
    /// of its instantiation (`__json_subtypes_register_instance`).
    pub instance: bool,
    /// The tag written (first) and every tag accepted: the instance's own,
    /// else the impl's.
    pub tags: Vec<Spanned<TagValue>>,
    /// Where errors about it point: the `instances` entry, or the impl's type.
    pub span: Span,
    /// A path type, which `Tagged` takes.
    pub named: bool,
}

impl Registration {
    /// The registered type's name, for messages.
    pub fn type_name(&self) -> String {
        self.self_ty.to_string().replace(' ', "")
    }

    /// Whether `other` registers in the same registry: the same trait
    /// object type, compared as syntax trees (spacing and spans aside).
    pub fn shares_registry_with(&self, other: &Registration) -> bool {
        let object = |r: &Registration| syn::parse2::<syn::Type>(r.object.clone()).ok();
        match (object(self), object(other)) {
            (Some(a), Some(b)) => a == b,
            _ => false,
        }
    }

    /// The trait object as messages write it: `dyn for<'a> Tr<'a, u8>`.
    pub fn object_text(&self) -> String {
        let mut out = String::new();
        let mut words = false;
        for tree in self.object.clone() {
            let text = tree.to_string();
            let word = matches!(tree, TokenTree::Ident(_) | TokenTree::Literal(_));
            if word && words {
                out.push(' ');
            }
            words = word || text == ">";
            match text.as_str() {
                "," => out.push_str(", "),
                "+" | "=" => out.push_str(&format!(" {text} ")),
                _ => out.push_str(&text),
            }
        }
        out
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
    /// What it registers: its own type, or each of its `instances`.
    pub registrations: Vec<Registration>,
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
        let mut imp = Impl {
            item,
            trait_path: item.trait_.as_ref().map(|(_, path, _)| path),
            attrs,
            tags,
            registrations: Vec::new(),
        };
        imp.registrations = imp.registrations(cx);
        imp
    }

    pub fn self_ty(&self) -> &syn::Type {
        &self.item.self_ty
    }

    pub fn is_fallback(&self) -> bool {
        self.attrs.fallback.is_some()
    }

    /// The impl's type and const parameters, which `instances` entries give.
    pub fn params(&self) -> Vec<&Ident> {
        self.item
            .generics
            .params
            .iter()
            .filter_map(|p| match p {
                GenericParam::Type(t) => Some(&t.ident),
                GenericParam::Const(c) => Some(&c.ident),
                GenericParam::Lifetime(_) => None,
            })
            .collect()
    }

    /// The impl's lifetime parameters.
    pub fn lifetimes(&self) -> impl Iterator<Item = &syn::Lifetime> {
        self.item.generics.lifetimes().map(|l| &l.lifetime)
    }

    /// The associated types the impl sets (`type Out = f64;`), which name
    /// the instantiation it registers in (`dyn Trait<Out = f64>`).
    pub fn assoc_types(&self) -> impl Iterator<Item = &syn::ImplItemType> {
        self.item.items.iter().filter_map(|item| match item {
            syn::ImplItem::Type(ty) => Some(ty),
            _ => None,
        })
    }

    /// The lifetime arguments of the trait (`'a` in `Visitor<'a>`).
    pub fn trait_lifetimes(&self) -> Vec<&syn::Lifetime> {
        let Some(last) = self.trait_path.and_then(|p| p.segments.last()) else {
            return Vec::new();
        };
        match &last.arguments {
            PathArguments::AngleBracketed(args) => args
                .args
                .iter()
                .filter_map(|a| match a {
                    GenericArgument::Lifetime(l) => Some(l),
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        }
    }

    /// Whether the trait has parameters: its path has arguments, or the
    /// impl sets associated types.
    pub fn of_generic_trait(&self) -> bool {
        let trait_args = self
            .trait_path
            .and_then(|p| p.segments.last())
            .is_some_and(|s| !s.arguments.is_empty());
        trait_args || self.assoc_types().next().is_some()
    }

    /// Whether it registers in a generic trait's instantiation or lists
    /// instances: anything but one type in a plain trait's registry.
    pub fn is_generic(&self) -> bool {
        self.of_generic_trait()
            || self.attrs.instances.is_some()
            || !self.item.generics.params.is_empty()
    }

    /// The impl's parameters as one `instances` entry gives them, or `None`
    /// when the entry does not give one per parameter (`check` says so).
    pub fn instance_args<'e>(&self, entry: &'e InstanceAttr) -> Option<Vec<&'e InstanceArg>> {
        match (&entry.args, self.params().len()) {
            (_, 0) => None,
            (one, 1) => Some(vec![one]),
            (InstanceArg::Tuple(args, _), n) if args.len() == n => Some(args.iter().collect()),
            _ => None,
        }
    }

    /// Every registration the impl makes: the impl's type, or each listed
    /// instance with the impl's parameters replaced by its own.
    fn registrations(&self, cx: &Ctxt) -> Vec<Registration> {
        let Some(trait_path) = self.trait_path else {
            return Vec::new();
        };
        let instance = self.of_generic_trait();
        let object =
            |with: &dyn Fn(TokenStream) -> TokenStream| object_type(trait_path, self, with);
        let named = matches!(self.self_ty(), syn::Type::Path(p) if p.qself.is_none());
        let Some(entries) = &self.attrs.instances else {
            let span = self.self_ty().span();
            return vec![Registration {
                self_ty: self.self_ty().to_token_stream(),
                object: object(&|t| t),
                instance,
                tags: self.tags.clone(),
                span,
                named,
            }];
        };
        let params = self.params();
        let mut out = Vec::new();
        for entry in &entries.value {
            let Some(args) = self.instance_args(entry) else {
                continue;
            };
            let span = entry.args.to_token_stream().span();
            let with = |tokens: TokenStream| {
                let replaced = substitute(tokens, &params, &args);
                respan(replaced, span)
            };
            let mut tags = self.tags.clone();
            // An untagged impl's instances take no tag (`check` says so).
            if let (Some(name), Some(first)) = (&entry.name, tags.first_mut()) {
                if let Some(value) = tag_value(cx, &name.value) {
                    *first = Spanned {
                        value,
                        tokens: name.tokens.clone(),
                    };
                }
            }
            out.push(Registration {
                self_ty: with(self.self_ty().to_token_stream()),
                object: object(&with),
                instance,
                tags,
                span,
                named,
            });
        }
        out
    }
}

/// `dyn Trait` of an impl of `trait_path`, its parameters passed through
/// `with`: `dyn Shape`, `dyn Strategy<f64>`, `dyn Model<Out = f64>` (the
/// impl's associated types), `dyn for<'a> Visitor<'a>` (the trait's
/// lifetimes, for which the impl is for every one).
fn object_type(
    trait_path: &syn::Path,
    imp: &Impl,
    with: &dyn Fn(TokenStream) -> TokenStream,
) -> TokenStream {
    let mut path = trait_path.clone();
    let mut bound: Vec<syn::Lifetime> = Vec::new();
    if let Some(last) = path.segments.last_mut() {
        let assoc: Vec<GenericArgument> = imp
            .assoc_types()
            .map(|t| {
                GenericArgument::AssocType(syn::AssocType {
                    ident: t.ident.clone(),
                    generics: None,
                    eq_token: t.eq_token,
                    ty: t.ty.clone(),
                })
            })
            .collect();
        if !assoc.is_empty() && last.arguments.is_empty() {
            last.arguments = PathArguments::AngleBracketed(syn::parse_quote!(<>));
        }
        if let PathArguments::AngleBracketed(args) = &mut last.arguments {
            args.args.extend(assoc);
            // `'_` is a lifetime of the impl's own: named, to bind it.
            for (i, arg) in args.args.iter_mut().enumerate() {
                if let GenericArgument::Lifetime(l) = arg {
                    if l.ident == "_" {
                        *l = syn::Lifetime::new(&format!("'__l{i}"), l.span());
                    }
                    if l.ident != "static" {
                        bound.push(l.clone());
                    }
                }
            }
        }
    }
    let path = with(path.to_token_stream());
    if bound.is_empty() {
        quote!(dyn #path)
    } else {
        quote!(dyn for<#(#bound),*> #path)
    }
}

/// `tokens` with each of `params` replaced by the matching argument's
/// tokens: an identifier, but not one after `::` (a path's segment), `'`
/// (a lifetime) or `.` (a field or method).
fn substitute(tokens: TokenStream, params: &[&Ident], args: &[&InstanceArg]) -> TokenStream {
    let mut out = TokenStream::new();
    // The punctuation just before, `::` counted as one.
    let mut after: Option<&str> = None;
    for tree in tokens {
        match &tree {
            TokenTree::Ident(ident) if !matches!(after, Some("::" | "'" | ".")) => {
                match params.iter().position(|p| *p == ident) {
                    Some(i) => out.extend(args[i].to_token_stream()),
                    None => out.extend([tree.clone()]),
                }
            }
            TokenTree::Group(group) => {
                let mut replaced =
                    Group::new(group.delimiter(), substitute(group.stream(), params, args));
                replaced.set_span(group.span());
                out.extend([TokenTree::Group(replaced)]);
            }
            _ => out.extend([tree.clone()]),
        }
        after = match &tree {
            TokenTree::Punct(p) => match (p.as_char(), after) {
                (':', Some(":")) => Some("::"),
                (':', _) if p.spacing() == proc_macro2::Spacing::Joint => Some(":"),
                ('\'', _) => Some("'"),
                ('.', _) => Some("."),
                _ => Some(""),
            },
            _ => None,
        };
    }
    out
}

/// `tokens` pointing at `span`, so errors about an instance point at its
/// entry in `instances(...)`.
fn respan(tokens: TokenStream, span: Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|mut tree| {
            if let TokenTree::Group(group) = &tree {
                let mut inner = Group::new(group.delimiter(), respan(group.stream(), span));
                inner.set_span(span);
                tree = TokenTree::Group(inner);
            } else {
                tree.set_span(span);
            }
            tree
        })
        .collect()
}
