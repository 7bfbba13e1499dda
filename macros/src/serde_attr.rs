//! The one reading of serde's own attributes: `#[serde(...)]` lists and the
//! `Serialize`/`Deserialize` of `#[derive(...)]`. The enum's serde code is
//! derived by serde itself on a twin, so most keys only pass through;
//! `SerdeAttrs` is what the checks, the bounds, the lifetimes and the schema
//! need to know of them (`rename`, `bound`, `borrow`, ...) as typed fields,
//! parsed once per enum, variant and field (`ast.rs` holds them). Also the
//! only code that sorts a list of attributes into the user's item and the
//! twin.

use proc_macro2::TokenStream;
use quote::{quote, ToTokens};
use syn::{Attribute, Expr, ExprLit, Lit, LitStr, Meta};

use crate::case::RenameRule;

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Which {
    Both,
    De,
    Ser,
}

macro_rules! keys {
    ($($key:ident = $name:literal,)*) => {
        /// The serde keys the macro acts on; the others pass through to serde.
        #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
        pub enum Key {
            $($key,)*
            PassedThrough,
        }

        impl Key {
            /// The one place a key is spelt.
            fn of(path: &syn::Path) -> Key {
                $(if path.is_ident($name) {
                    return Key::$key;
                })*
                Key::PassedThrough
            }

            /// The key as written.
            pub fn name(self) -> &'static str {
                match self {
                    $(Key::$key => $name,)*
                    Key::PassedThrough => "..",
                }
            }
        }
    };
}

keys! {
    Alias = "alias",
    Borrow = "borrow",
    Bound = "bound",
    Content = "content",
    Crate = "crate",
    Default = "default",
    DenyUnknownFields = "deny_unknown_fields",
    DeserializeWith = "deserialize_with",
    Expecting = "expecting",
    FieldIdentifier = "field_identifier",
    Flatten = "flatten",
    From = "from",
    Into = "into",
    Other = "other",
    Remote = "remote",
    Rename = "rename",
    RenameAll = "rename_all",
    RenameAllFields = "rename_all_fields",
    SerializeWith = "serialize_with",
    Skip = "skip",
    SkipDeserializing = "skip_deserializing",
    SkipSerializing = "skip_serializing",
    SkipSerializingIf = "skip_serializing_if",
    Tag = "tag",
    Transparent = "transparent",
    TryFrom = "try_from",
    Untagged = "untagged",
    VariantIdentifier = "variant_identifier",
    With = "with",
}

/// One key of a `#[serde(...)]` list as it was given: what the checks
/// report on, in order (`rename(serialize = ..., deserialize = ...)` gives
/// two).
#[derive(Clone)]
pub struct Given {
    pub key: Key,
    /// `rename = "a"` is `Both`, `rename(serialize = "a")` is `Ser`.
    pub which: Which,
    /// The key's path, for errors.
    pub path: TokenStream,
}

/// A value for writing and one for reading: `rename = "a"` sets both,
/// `rename(serialize = "a")` one. The last given wins.
pub struct SerDe<T> {
    pub ser: Option<T>,
    pub de: Option<T>,
}

impl<T> Default for SerDe<T> {
    fn default() -> Self {
        SerDe {
            ser: None,
            de: None,
        }
    }
}

impl<T: Clone> SerDe<T> {
    /// The value for writing (`ser`) or for reading.
    pub fn get(&self, ser: bool) -> Option<&T> {
        if ser {
            self.ser.as_ref()
        } else {
            self.de.as_ref()
        }
    }

    fn set(&mut self, which: Which, value: T) {
        if which != Which::De {
            self.ser = Some(value.clone());
        }
        if which != Which::Ser {
            self.de = Some(value);
        }
    }
}

/// `#[serde(default)]` or `#[serde(default = "path")]`.
#[derive(Clone, PartialEq, Eq)]
pub enum DefaultAttr {
    None,
    /// From `Default::default()`: the field's type needs `Default`.
    Default,
    Path,
}

/// A name serde reads or writes a field under: a `rename`, or (`alias`) on
/// read only.
pub struct FieldName {
    pub lit: LitStr,
    pub alias: bool,
}

/// serde's attributes on one item (the enum, a variant or a field), read
/// once from its `#[serde(...)]` lists.
pub struct SerdeAttrs {
    /// Every key in the order given.
    pub given: Vec<Given>,
    pub rename: SerDe<LitStr>,
    /// Every `rename` and `alias` string, in the order given.
    pub names: Vec<FieldName>,
    /// A valid `rename_all` rule.
    pub rename_all: SerDe<RenameRule>,
    /// A valid `rename_all_fields` rule (the enum's own, or ours).
    pub rename_all_fields: SerDe<RenameRule>,
    pub expecting: SerDe<LitStr>,
    pub bound: SerDe<LitStr>,
    /// The first `borrow`, with its lifetimes if it names them.
    pub borrow: Option<Option<LitStr>>,
    pub default: DefaultAttr,
    /// `skip` or `skip_serializing`.
    pub skip_serializing: bool,
    /// `skip` or `skip_deserializing`.
    pub skip_deserializing: bool,
    pub skip_serializing_if: bool,
    pub flatten: bool,
    pub with: bool,
    pub serialize_with: bool,
    pub deserialize_with: bool,
    pub deny_unknown_fields: bool,
}

impl SerdeAttrs {
    /// Every entry of every `#[serde(...)]` in `attrs`.
    pub fn parse(attrs: &[Attribute]) -> Self {
        let mut out = SerdeAttrs {
            given: Vec::new(),
            rename: SerDe::default(),
            names: Vec::new(),
            rename_all: SerDe::default(),
            rename_all_fields: SerDe::default(),
            expecting: SerDe::default(),
            bound: SerDe::default(),
            borrow: None,
            default: DefaultAttr::None,
            skip_serializing: false,
            skip_deserializing: false,
            skip_serializing_if: false,
            flatten: false,
            with: false,
            serialize_with: false,
            deserialize_with: false,
            deny_unknown_fields: false,
        };
        for attr in attrs.iter().filter(|a| is_serde(a)) {
            if !matches!(attr.meta, Meta::List(_)) {
                continue;
            }
            // A malformed list is serde's to report, on the twin.
            let _ = attr.parse_nested_meta(|meta| {
                let key = Key::of(&meta.path);
                let path = meta.path.to_token_stream();
                if meta.input.peek(syn::Token![=]) {
                    let expr: Expr = meta.value()?.parse()?;
                    out.add(key, Which::Both, string_lit(&expr), &path);
                } else if meta.input.peek(syn::token::Paren) {
                    meta.parse_nested_meta(|inner| {
                        let which = if inner.path.is_ident("serialize") {
                            Which::Ser
                        } else {
                            Which::De
                        };
                        if inner.input.peek(syn::Token![=]) {
                            let expr: Expr = inner.value()?.parse()?;
                            out.add(key, which, string_lit(&expr), &path);
                        }
                        Ok(())
                    })?;
                } else {
                    out.add(key, Which::Both, None, &path);
                }
                Ok(())
            });
        }
        out
    }

    fn add(&mut self, key: Key, which: Which, value: Option<LitStr>, path: &TokenStream) {
        self.given.push(Given {
            key,
            which,
            path: path.clone(),
        });
        let rule = |value: &Option<LitStr>| RenameRule::from_str(&value.as_ref()?.value());
        match key {
            Key::Rename | Key::Alias => {
                if let Some(lit) = &value {
                    self.names.push(FieldName {
                        lit: lit.clone(),
                        alias: key == Key::Alias,
                    });
                    if key == Key::Rename {
                        self.rename.set(which, lit.clone());
                    }
                }
            }
            Key::RenameAll => {
                if let Some(rule) = rule(&value) {
                    self.rename_all.set(which, rule);
                }
            }
            Key::RenameAllFields => {
                if let Some(rule) = rule(&value) {
                    self.rename_all_fields.set(which, rule);
                }
            }
            Key::Expecting => {
                if let Some(lit) = value {
                    self.expecting.set(which, lit);
                }
            }
            Key::Bound => {
                if let Some(lit) = value {
                    self.bound.set(which, lit);
                }
            }
            Key::Borrow if self.borrow.is_none() => self.borrow = Some(value),
            Key::Default => match value {
                None => self.default = DefaultAttr::Default,
                Some(_) if self.default == DefaultAttr::None => self.default = DefaultAttr::Path,
                Some(_) => {}
            },
            Key::Skip => {
                self.skip_serializing = true;
                self.skip_deserializing = true;
            }
            Key::SkipSerializing => self.skip_serializing = true,
            Key::SkipDeserializing => self.skip_deserializing = true,
            Key::SkipSerializingIf => self.skip_serializing_if = true,
            Key::Flatten => self.flatten = true,
            Key::With => self.with = true,
            Key::SerializeWith => self.serialize_with = true,
            Key::DeserializeWith => self.deserialize_with = true,
            Key::DenyUnknownFields => self.deny_unknown_fields = true,
            _ => {}
        }
    }

    /// No `#[serde(...)]` key at all.
    pub fn is_empty(&self) -> bool {
        self.given.is_empty()
    }

    pub fn has(&self, key: Key) -> bool {
        self.given.iter().any(|g| g.key == key)
    }

    /// `#[json_subtypes(rename_all_fields = ...)]`, which is serde's key:
    /// the model sees it as serde's (the checks do not: it is not given).
    pub fn set_rename_all_fields(&mut self, lit: &LitStr) {
        if let Some(rule) = RenameRule::from_str(&lit.value()) {
            self.rename_all_fields.set(Which::Both, rule);
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
    let is = |m: &syn::Meta, key: Key| matches!(m, syn::Meta::Path(p) if Key::of(p) == key);
    if !metas
        .iter()
        .any(|m| is(m, Key::Skip) || is(m, Key::SkipDeserializing))
    {
        return attr.clone();
    }
    let kept = metas
        .iter()
        .filter(|m| !is(m, Key::SkipDeserializing))
        .map(|m| {
            if is(m, Key::Skip) {
                let span = syn::spanned::Spanned::span(m);
                quote::quote_spanned!(span=> skip_serializing)
            } else {
                quote!(#m)
            }
        });
    syn::parse_quote!(#[serde(#(#kept),*)])
}
