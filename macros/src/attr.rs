//! The accepted forms of `#[json_subtypes(...)]`, parsed into plain values.
//! Every form keeps the tokens it came from so errors can point at them.

use proc_macro2::TokenStream;
use quote::ToTokens;
use syn::meta::ParseNestedMeta;
use syn::parse::Parse;
use syn::{Expr, ExprLit, ExprUnary, Lit, LitStr, UnOp};

use crate::case::{RenameRule, RULES};
use crate::ctx::Ctxt;

const CONTAINER_KEYS: &str = "`tag`, `content`, `external`, `tag_type`, `rename_all`, `rename_all_fields`, `first_match`, `max_depth`, `max_buffer`, `require_tag_first`, `exact_numbers`, `visible`, `deny_unknown_fields`, `as_map`, `schema`, `compiled`";
const VARIANT_KEYS: &str = "`name`, `alias`, `fallback`, `when_field`, `nested`";
const IMPL_KEYS: &str = "`name`, `alias`, `fallback`, `when_field`, `instances`, `compiled`";

/// A tag value written in an attribute.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TagValue {
    Str(String),
    /// Negative integers; non-negative ones are `U64` so `3` has one spelling.
    I64(i64),
    U64(u64),
    Bool(bool),
    /// With `tag_type`: a constant expression of that type. Two tags are
    /// the same when their syntax trees are (spacing and spans aside).
    Typed(Box<Expr>),
}

impl TagValue {
    /// How the value reads in messages: `"cat"`, `3`, `true`.
    pub fn display(&self) -> String {
        match self {
            TagValue::Str(s) => format!("{s:?}"),
            TagValue::I64(v) => v.to_string(),
            TagValue::U64(v) => v.to_string(),
            TagValue::Bool(v) => v.to_string(),
            TagValue::Typed(expr) => expr.to_token_stream().to_string().replace(' ', ""),
        }
    }
}

#[derive(Clone)]
pub struct Spanned<T> {
    pub value: T,
    pub tokens: TokenStream,
}

impl<T> ToTokens for Spanned<T> {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        self.tokens.to_tokens(tokens);
    }
}

/// Container forms, from the attribute's arguments.
#[derive(Default)]
pub struct ContainerAttrs {
    /// `tag = "type"`: the key whose value picks the variant.
    pub tag: Option<Spanned<String>>,
    /// `rename_all = "snake_case"`: default tag values from variant names,
    /// with serde's rules.
    pub rename_all: Option<Spanned<RenameRule>>,
    /// `rename_all_fields = "camelCase"`: serde's container key of that
    /// name, the fields of every struct variant renamed (a variant's
    /// `#[serde(rename_all)]` wins), given where `rename_all` is.
    pub rename_all_fields: Option<Spanned<LitStr>>,
    /// `tag_type = Kind`: tags are values of `Kind`, read and written through
    /// its own Serialize/Deserialize; variants say `name = Kind::Dog`.
    pub tag_type: Option<Spanned<syn::Type>>,
    /// `first_match`: in presence mode, when several variants match, the
    /// first declared wins instead of an ambiguity error.
    pub first_match: Option<Spanned<()>>,
    /// `max_depth = 500`: how deeply values may nest (default 128, as
    /// serde_json); deeper input is an error, never a stack overflow.
    pub max_depth: Option<Spanned<u32>>,
    /// `max_buffer = 4096`: how many bytes of an object may be buffered
    /// before its tag (in presence mode, of the whole object); more is an
    /// error. Unlimited without it.
    pub max_buffer: Option<Spanned<u32>>,
    /// `require_tag_first`: the tag must be an object's first key; a key
    /// before it is an error and nothing is ever buffered.
    pub require_tag_first: Option<Spanned<()>>,
    /// `exact_numbers`: with serde_json, entries before the tag keep
    /// numbers no 64-bit integer holds (read from their text).
    pub exact_numbers: Option<Spanned<()>>,
    /// `visible`: a payload field named like the tag is the tag: it
    /// receives the tag's value on read and is what is written.
    pub visible: Option<Spanned<()>>,
    /// `schema` (traits): `dyn Trait` gets a JSON Schema, so every
    /// registered impl must implement `JsonSchema`.
    pub schema: Option<Spanned<()>>,
    /// `external`: the tag is the one key of a map and the payload its
    /// value (`{"Circle":{"r":1.0}}`); there is no tag key.
    pub external: Option<Spanned<()>>,
    /// `content = "value"`: with `tag`, the payload sits under this key
    /// beside the tag (`{"type":"Circle","value":{"r":1.0}}`).
    pub content: Option<Spanned<String>>,
    /// `deny_unknown_fields`: with `content`, a key other than the tag and
    /// content keys is refused instead of ignored.
    pub deny_unknown_fields: Option<Spanned<()>>,
    /// `as_map`: the internally tagged form written as a map with the tag
    /// entry first and read with `deserialize_map`, as typetag's internally
    /// tagged form, so postcard and bincode read it back.
    pub as_map: Option<Spanned<()>>,
    /// `compiled` (traits): every registered impl also carries its reader
    /// and writer compiled for serde_json, not only the erased reader.
    pub compiled: Option<Spanned<()>>,
    /// Whether an unknown key was reported, so checks of missing keys stay quiet.
    pub had_unknown_key: bool,
}

impl ContainerAttrs {
    pub fn parse(cx: &Ctxt, args: TokenStream) -> Self {
        let mut out = ContainerAttrs::default();
        let parser = syn::meta::parser(|meta| {
            if meta.path.is_ident("tag") {
                let lit: LitStr = meta.value()?.parse()?;
                if lit.value().is_empty() {
                    cx.error_spanned_by(
                        &lit,
                        "the tag key cannot be empty; write e.g. `tag = \"type\"`",
                    );
                }
                set_once(cx, &meta, &mut out.tag, lit.value(), lit.to_token_stream());
            } else if meta.path.is_ident("content") {
                let lit: LitStr = meta.value()?.parse()?;
                if lit.value().is_empty() {
                    cx.error_spanned_by(
                        &lit,
                        "the content key cannot be empty; write e.g. `content = \"value\"`",
                    );
                }
                set_once(
                    cx,
                    &meta,
                    &mut out.content,
                    lit.value(),
                    lit.to_token_stream(),
                );
            } else if meta.path.is_ident("external") {
                let tokens = meta.path.to_token_stream();
                set_once(cx, &meta, &mut out.external, (), tokens);
            } else if meta.path.is_ident("deny_unknown_fields") {
                let tokens = meta.path.to_token_stream();
                set_once(cx, &meta, &mut out.deny_unknown_fields, (), tokens);
            } else if meta.path.is_ident("as_map") {
                let tokens = meta.path.to_token_stream();
                set_once(cx, &meta, &mut out.as_map, (), tokens);
            } else if meta.path.is_ident("tag_type") {
                let ty: syn::Type = meta.value()?.parse()?;
                let tokens = ty.to_token_stream();
                set_once(cx, &meta, &mut out.tag_type, ty, tokens);
            } else if meta.path.is_ident("max_depth") {
                let lit: syn::LitInt = meta.value()?.parse()?;
                match lit.base10_parse::<u32>() {
                    Ok(n) if n > 0 => {
                        set_once(cx, &meta, &mut out.max_depth, n, lit.to_token_stream())
                    }
                    _ => cx.error_spanned_by(
                        &lit,
                        "`max_depth` takes a whole number from 1 to 4294967295; e.g. `max_depth = 500`",
                    ),
                }
            } else if meta.path.is_ident("max_buffer") {
                let lit: syn::LitInt = meta.value()?.parse()?;
                match lit.base10_parse::<u32>() {
                    Ok(n) if n > 0 => {
                        set_once(cx, &meta, &mut out.max_buffer, n, lit.to_token_stream())
                    }
                    Ok(_) => cx.error_spanned_by(
                        &lit,
                        "`max_buffer = 0` lets no key come before the tag; write `require_tag_first` instead",
                    ),
                    Err(_) => cx.error_spanned_by(
                        &lit,
                        "`max_buffer` takes a number of bytes from 1 to 4294967295; e.g. `max_buffer = 4096`",
                    ),
                }
            } else if meta.path.is_ident("require_tag_first") {
                let tokens = meta.path.to_token_stream();
                set_once(cx, &meta, &mut out.require_tag_first, (), tokens);
            } else if meta.path.is_ident("exact_numbers") {
                let tokens = meta.path.to_token_stream();
                set_once(cx, &meta, &mut out.exact_numbers, (), tokens);
            } else if meta.path.is_ident("visible") {
                let tokens = meta.path.to_token_stream();
                set_once(cx, &meta, &mut out.visible, (), tokens);
            } else if meta.path.is_ident("schema") {
                let tokens = meta.path.to_token_stream();
                set_once(cx, &meta, &mut out.schema, (), tokens);
            } else if meta.path.is_ident("compiled") {
                let tokens = meta.path.to_token_stream();
                set_once(cx, &meta, &mut out.compiled, (), tokens);
            } else if meta.path.is_ident("first_match") {
                let tokens = meta.path.to_token_stream();
                set_once(cx, &meta, &mut out.first_match, (), tokens);
            } else if meta.path.is_ident("rename_all") {
                let lit: LitStr = meta.value()?.parse()?;
                if let Some(rule) = rename_rule(cx, &lit) {
                    set_once(cx, &meta, &mut out.rename_all, rule, lit.to_token_stream())
                }
            } else if meta.path.is_ident("rename_all_fields") {
                let lit: LitStr = meta.value()?.parse()?;
                if rename_rule(cx, &lit).is_some() {
                    let tokens = lit.to_token_stream();
                    set_once(cx, &meta, &mut out.rename_all_fields, lit, tokens)
                }
            } else {
                out.had_unknown_key = true;
                unknown_key(cx, &meta, CONTAINER_KEYS)?;
            }
            Ok(())
        });
        if let Err(e) = syn::parse::Parser::parse2(parser, args) {
            cx.syn_error(e);
        }
        out
    }
}

/// Variant forms, from `#[json_subtypes(...)]` on a variant.
#[derive(Default)]
pub struct VariantAttrs {
    /// `name = "cat"` / `name = 3` / `name = -1` / `name = true`, or with
    /// `tag_type`, `name = Kind::Cat`: the tag written and read.
    pub name: Option<Spanned<Expr>>,
    /// `alias = "kitty"` (repeatable): further tags accepted on read.
    pub aliases: Vec<Spanned<Expr>>,
    /// `fallback`: an unknown or missing tag (or, in presence mode, no
    /// match) lands here.
    pub fallback: Option<Spanned<()>>,
    /// `when_field = "skill"` (repeatable, and several in one attribute):
    /// in presence mode, the variant is chosen when any of these is present.
    pub when_fields: Vec<LitStr>,
    /// `nested`: the newtype payload is another `#[json_subtypes]` enum with
    /// the same tag key; its tags are accepted here and it reads the tag.
    pub nested: Option<Spanned<()>>,
    /// `instances(f32, f64)` (impls): the instances of a generic impl to
    /// register, each the impl's parameters in order, a tuple for several
    /// (`instances((u32, f32), (u64, f64))`), each with its own tag where
    /// they share a registry (`instances(u32 = "w_u32", String = "w_str")`).
    pub instances: Option<Spanned<Vec<InstanceAttr>>>,
    /// `compiled` (impls): this registration also carries its reader and
    /// writer compiled for serde_json, not only the erased reader.
    pub compiled: Option<Spanned<()>>,
}

/// One entry of `instances(...)`.
pub struct InstanceAttr {
    pub args: InstanceArg,
    /// `= "w_u32"`: this instance's tag, in place of `name`.
    pub name: Option<Spanned<Expr>>,
}

/// The parameters an `instances` entry gives: a type, a const generic's
/// value (a literal or a block), or several of them as a tuple.
pub enum InstanceArg {
    Type(syn::Type),
    Const(Expr),
    Tuple(Vec<InstanceArg>, TokenStream),
}

impl ToTokens for InstanceArg {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        match self {
            InstanceArg::Type(ty) => ty.to_tokens(tokens),
            InstanceArg::Const(expr) => expr.to_tokens(tokens),
            InstanceArg::Tuple(_, all) => all.to_tokens(tokens),
        }
    }
}

impl syn::parse::Parse for InstanceArg {
    fn parse(input: syn::parse::ParseStream) -> syn::Result<Self> {
        if input.peek(syn::token::Paren) {
            let all: TokenStream = input.fork().parse::<proc_macro2::TokenTree>()?.into();
            let content;
            syn::parenthesized!(content in input);
            let args = content.parse_terminated(InstanceArg::parse, syn::Token![,])?;
            Ok(InstanceArg::Tuple(args.into_iter().collect(), all))
        } else if input.peek(Lit) || input.peek(syn::Token![-]) {
            let neg: Option<syn::Token![-]> = input.parse()?;
            let lit: Lit = input.parse()?;
            let lit = Expr::Lit(ExprLit {
                attrs: Vec::new(),
                lit,
            });
            Ok(InstanceArg::Const(match neg {
                Some(op) => Expr::Unary(ExprUnary {
                    attrs: Vec::new(),
                    op: UnOp::Neg(op),
                    expr: Box::new(lit),
                }),
                None => lit,
            }))
        } else if input.peek(syn::token::Brace) {
            Ok(InstanceArg::Const(Expr::Block(input.parse()?)))
        } else {
            Ok(InstanceArg::Type(input.parse()?))
        }
    }
}

impl syn::parse::Parse for InstanceAttr {
    fn parse(input: syn::parse::ParseStream) -> syn::Result<Self> {
        let args: InstanceArg = input.parse()?;
        let name = match input.parse::<Option<syn::Token![=]>>()? {
            Some(_) => {
                let expr: Expr = input.parse()?;
                let tokens = expr.to_token_stream();
                Some(Spanned {
                    value: expr,
                    tokens,
                })
            }
            None => None,
        };
        Ok(InstanceAttr { args, name })
    }
}

impl VariantAttrs {
    pub fn parse(cx: &Ctxt, attrs: &[syn::Attribute]) -> Self {
        let mut out = VariantAttrs::default();
        for attr in attrs.iter().filter(|a| crate::serde_attr::is_ours(a)) {
            let result = attr.parse_nested_meta(|meta| out.parse_one(cx, meta, VARIANT_KEYS));
            if let Err(e) = result {
                cx.syn_error(e);
            }
        }
        out
    }

    /// The same forms given as the arguments of `#[json_subtypes(...)]` on
    /// a trait impl (`nested` and `alias` excluded there by `check`).
    pub fn parse_args(cx: &Ctxt, args: TokenStream) -> Self {
        let mut out = VariantAttrs::default();
        let parser = syn::meta::parser(|meta| out.parse_one(cx, meta, IMPL_KEYS));
        if let Err(e) = syn::parse::Parser::parse2(parser, args) {
            cx.syn_error(e);
        }
        out
    }

    fn parse_one(&mut self, cx: &Ctxt, meta: ParseNestedMeta, keys: &str) -> syn::Result<()> {
        if meta.path.is_ident("name") {
            let expr: Expr = meta.value()?.parse()?;
            let tokens = expr.to_token_stream();
            set_once(cx, &meta, &mut self.name, expr, tokens);
        } else if meta.path.is_ident("alias") {
            let expr: Expr = meta.value()?.parse()?;
            let tokens = expr.to_token_stream();
            self.aliases.push(Spanned {
                value: expr,
                tokens,
            });
        } else if meta.path.is_ident("fallback") {
            let tokens = meta.path.to_token_stream();
            set_once(cx, &meta, &mut self.fallback, (), tokens);
        } else if meta.path.is_ident("nested") && keys == VARIANT_KEYS {
            let tokens = meta.path.to_token_stream();
            set_once(cx, &meta, &mut self.nested, (), tokens);
        } else if meta.path.is_ident("compiled") && keys == IMPL_KEYS {
            let tokens = meta.path.to_token_stream();
            set_once(cx, &meta, &mut self.compiled, (), tokens);
        } else if meta.path.is_ident("when_field") {
            let lit: LitStr = meta.value()?.parse()?;
            self.when_fields.push(lit);
        } else if meta.path.is_ident("instances") && keys == IMPL_KEYS {
            let content;
            syn::parenthesized!(content in meta.input);
            let entries = content.parse_terminated(InstanceAttr::parse, syn::Token![,])?;
            let tokens = meta.path.to_token_stream();
            set_once(
                cx,
                &meta,
                &mut self.instances,
                entries.into_iter().collect(),
                tokens,
            );
        } else {
            unknown_key(cx, &meta, keys)?;
        }
        Ok(())
    }
}

/// serde's rule named by `lit`, or an error listing them.
fn rename_rule(cx: &Ctxt, lit: &LitStr) -> Option<RenameRule> {
    let rule = RenameRule::from_str(&lit.value());
    if rule.is_none() {
        let names: Vec<String> = RULES.iter().map(|(n, _)| format!("{n:?}")).collect();
        cx.error_spanned_by(
            lit,
            format!(
                "unknown rename rule {:?}; expected one of {}",
                lit.value(),
                names.join(", ")
            ),
        );
    }
    rule
}

fn set_once<T>(
    cx: &Ctxt,
    meta: &ParseNestedMeta,
    slot: &mut Option<Spanned<T>>,
    value: T,
    tokens: TokenStream,
) {
    if slot.is_some() {
        let key = meta.path.to_token_stream().to_string();
        cx.error_spanned_by(&meta.path, format!("duplicate `{key}`; give it once"));
        return;
    }
    *slot = Some(Spanned { value, tokens });
}

fn unknown_key(cx: &Ctxt, meta: &ParseNestedMeta, expected: &str) -> syn::Result<()> {
    let key = meta.path.to_token_stream().to_string().replace(' ', "");
    cx.error_spanned_by(
        &meta.path,
        format!("unknown json_subtypes attribute `{key}`; expected one of {expected}"),
    );
    // Skip the value so the next key still parses.
    if meta.input.peek(syn::Token![=]) {
        let _: Expr = meta.value()?.parse()?;
    } else if meta.input.peek(syn::token::Paren) {
        let content;
        syn::parenthesized!(content in meta.input);
        let _: TokenStream = content.parse()?;
    }
    Ok(())
}

/// `"cat"`, `3`, `-3`, `true`; anything else is refused with the reason.
pub fn tag_value(cx: &Ctxt, expr: &Expr) -> Option<TagValue> {
    match expr {
        Expr::Lit(ExprLit { lit, .. }) => match lit {
            Lit::Str(s) => Some(TagValue::Str(s.value())),
            Lit::Bool(b) => Some(TagValue::Bool(b.value)),
            Lit::Int(i) => match i.base10_parse::<u64>() {
                Ok(v) => Some(TagValue::U64(v)),
                Err(_) => {
                    cx.error_spanned_by(i, "integer tag out of range; tags are i64 or u64 values");
                    None
                }
            },
            Lit::Float(_) => {
                cx.error_spanned_by(
                    lit,
                    "a float cannot be a tag; use an integer, a string or a bool",
                );
                None
            }
            _ => {
                cx.error_spanned_by(
                    lit,
                    "unsupported tag literal; use a string, an integer or a bool",
                );
                None
            }
        },
        Expr::Unary(ExprUnary {
            op: UnOp::Neg(_),
            expr: inner,
            ..
        }) => match &**inner {
            Expr::Lit(ExprLit {
                lit: Lit::Int(i), ..
            }) => {
                let text = format!("-{}", i.base10_digits());
                match text.parse::<i64>() {
                    Ok(0) => Some(TagValue::U64(0)),
                    Ok(v) => Some(TagValue::I64(v)),
                    Err(_) => {
                        cx.error_spanned_by(
                            expr,
                            "integer tag out of range; tags are i64 or u64 values",
                        );
                        None
                    }
                }
            }
            Expr::Lit(ExprLit {
                lit: Lit::Float(_), ..
            }) => {
                cx.error_spanned_by(
                    expr,
                    "a float cannot be a tag; use an integer, a string or a bool",
                );
                None
            }
            _ => {
                cx.error_spanned_by(
                    expr,
                    "unsupported tag value; use a string, an integer or a bool literal",
                );
                None
            }
        },
        Expr::Group(g) => tag_value(cx, &g.expr),
        _ => {
            cx.error_spanned_by(
                expr,
                "unsupported tag value; use a string, an integer or a bool literal, or declare the tag's type with `tag_type = ...` on the enum",
            );
            None
        }
    }
}

/// With `tag_type`, a tag is a constant expression of that type.
pub fn typed_value(cx: &Ctxt, expr: &Expr, ty: &syn::Type) -> Option<TagValue> {
    match expr {
        Expr::Lit(_) | Expr::Unary(_) => {
            cx.error_spanned_by(
                expr,
                format!(
                    "with `tag_type`, `name` takes a value of type `{}`; write a constant such as `{}::Variant`",
                    ty.to_token_stream().to_string().replace(' ', ""),
                    ty.to_token_stream().to_string().replace(' ', "")
                ),
            );
            None
        }
        _ => Some(TagValue::Typed(Box::new(expr.clone()))),
    }
}
