//! `schemars::JsonSchema` for an annotated enum (the runtime's `schemars`
//! feature).
//!
//! Everything is emitted inside `__private::schema_gate! { ... }`, which
//! the runtime defines to keep its input only when its own `schemars`
//! feature is on: the feature lives where the `schemars` dependency does,
//! so the two can never disagree.
//!
//! The generated `VariantParts::parts` describes each variant; the runtime's
//! `schema::build` assembles the `oneOf`. Payload and field schemas go
//! through `schema::Probe` rather than `T: JsonSchema` bounds, so an enum
//! whose payloads have no schema still compiles (see the runtime's docs on
//! `Probe`). Struct variant fields are described here from their serde
//! attributes, not by deriving `JsonSchema` on a twin: the derive would need
//! every field type to implement the trait.

use proc_macro2::{TokenStream, TokenTree};
use quote::{quote, ToTokens};
use syn::ext::IdentExt;
use syn::{Attribute, Expr, ExprLit, Lit, LitStr, Meta};

use super::private;
use crate::ast::{Container, Style, Variant};
use crate::attr::TagValue;
use crate::case::RenameRule;
use crate::serde_attr::DefaultAttr;

pub fn generate(cont: &Container) -> TokenStream {
    let private = private();
    let ident = cont.ident();
    let name = ident.unraw().to_string();
    let generics = with_schema_bounds(cont);
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let key = match cont.tag_key() {
        Some(key) => quote!(::core::option::Option::Some(#key)),
        None => quote!(::core::option::Option::None),
    };
    let first_match = cont.attrs.first_match.is_some();
    let form = match (&cont.attrs.external, &cont.attrs.tag, &cont.attrs.content) {
        (Some(_), _, _) => quote!(#private::schema::Form::External),
        (None, Some(tag), Some(content)) => {
            let (tag, content) = (&tag.value, &content.value);
            let deny = cont.attrs.deny_unknown_fields.is_some() || cont.serde.deny_unknown_fields;
            quote!(#private::schema::Form::Adjacent {
                tag: #tag,
                content: #content,
                deny_unknown_fields: #deny,
            })
        }
        _ => quote!(#private::schema::Form::Internal),
    };
    let description = option_str(docs(&cont.item.attrs));
    let skips = cont
        .variants
        .iter()
        .any(|v| !v.is_readable() || !v.is_writable());
    let parts: Vec<TokenStream> = cont.variants.iter().map(|v| part(cont, v)).collect();
    // A variant serde skips on read (write) is left out of the deserialize
    // (serialize) contract.
    let parts = if skips {
        let pushes = cont.variants.iter().zip(&parts).map(|(v, part)| {
            match (v.is_writable(), v.is_readable()) {
                (true, true) => quote!(__parts.push(#part);),
                (true, false) => quote!(if __ser { __parts.push(#part); }),
                (false, true) => quote!(if !__ser { __parts.push(#part); }),
                (false, false) => quote!(),
            }
        });
        quote! {{
            let mut __parts = ::std::vec::Vec::new();
            #(#pushes)*
            __parts
        }}
    } else {
        quote!(::std::vec![#(#parts),*])
    };
    // A generic enum's name is shared by its instances; the id tells them
    // apart, and schemars numbers the names of distinct ids.
    let id = if cont.item.generics.params.is_empty() {
        quote!(::std::borrow::Cow::Borrowed(
            ::core::concat!(::core::module_path!(), "::", #name)
        ))
    } else {
        quote!(::std::borrow::Cow::Borrowed(
            ::core::any::type_name::<Self>()
        ))
    };

    quote! {
        #private::schema_gate! {
            #[allow(unused_imports)]
            use #private::schema::{
                ViaJsonSchema as _, ViaNoVariantParts as _, ViaNothing as _, ViaVariantParts as _,
            };

            #[automatically_derived]
            impl #impl_generics #private::schema::VariantParts for #ident #ty_generics #where_clause {
                const KEY: ::core::option::Option<&'static str> = #key;
                const FIRST_MATCH: bool = #first_match;
                const FORM: #private::schema::Form = #form;

                #[allow(unused_variables)]
                fn parts(
                    __generator: &mut #private::schema::schemars::SchemaGenerator,
                    __depth: u32,
                ) -> ::std::vec::Vec<#private::schema::Part> {
                    let __ser = __generator.contract().is_serialize();
                    #parts
                }
            }

            #[automatically_derived]
            impl #impl_generics #private::schema::schemars::JsonSchema for #ident #ty_generics #where_clause {
                fn schema_name() -> ::std::borrow::Cow<'static, str> {
                    ::std::borrow::Cow::Borrowed(#name)
                }

                fn schema_id() -> ::std::borrow::Cow<'static, str> {
                    #id
                }

                fn json_schema(
                    __generator: &mut #private::schema::schemars::SchemaGenerator,
                ) -> #private::schema::schemars::Schema {
                    #private::schema::described(#private::schema::build::<Self>(__generator), #description)
                }
            }

            #private::utoipa_gate! {
                #[automatically_derived]
                impl #impl_generics #private::openapi::utoipa::PartialSchema for #ident #ty_generics #where_clause {
                    fn schema() -> #private::openapi::utoipa::openapi::RefOr<#private::openapi::utoipa::openapi::schema::Schema> {
                        #private::openapi::schema::<Self>()
                    }
                }

                #[automatically_derived]
                impl #impl_generics #private::openapi::utoipa::ToSchema for #ident #ty_generics #where_clause {
                    fn name() -> ::std::borrow::Cow<'static, str> {
                        <Self as #private::schema::schemars::JsonSchema>::schema_name()
                    }

                    fn schemas(
                        __schemas: &mut ::std::vec::Vec<(
                            ::std::string::String,
                            #private::openapi::utoipa::openapi::RefOr<#private::openapi::utoipa::openapi::schema::Schema>,
                        )>,
                    ) {
                        #private::openapi::schemas::<Self>(__schemas)
                    }
                }
            }
        }
    }
}

/// Type parameters used in fields need `JsonSchema`, as schemars' derive
/// infers; bounds on parameters never recurse, unlike bounds on field types.
fn with_schema_bounds(cont: &Container) -> syn::Generics {
    let private = private();
    let mut generics = cont.item.generics.clone();
    let used: Vec<TokenStream> = cont
        .variants
        .iter()
        .flat_map(|v| v.original.fields.iter())
        .map(|f| f.ty.to_token_stream())
        .collect();
    let predicates: Vec<syn::WherePredicate> = cont
        .item
        .generics
        .type_params()
        .filter(|p| used.iter().any(|ty| mentions(ty, &p.ident)))
        .map(|p| {
            let ident = &p.ident;
            syn::parse_quote!(#ident: #private::schema::schemars::JsonSchema)
        })
        .collect();
    generics.make_where_clause().predicates.extend(predicates);
    generics
}

fn mentions(tokens: &TokenStream, ident: &syn::Ident) -> bool {
    tokens.clone().into_iter().any(|tt| match tt {
        TokenTree::Ident(i) => i == *ident,
        TokenTree::Group(g) => mentions(&g.stream(), ident),
        _ => false,
    })
}

fn probe(ty: &syn::Type) -> TokenStream {
    let private = private();
    quote!((&#private::schema::Probe::<#ty>::NEW).schema(__generator))
}

fn part(cont: &Container, v: &Variant) -> TokenStream {
    let private = private();
    let kind = if v.is_fallback() {
        quote!(#private::schema::PartKind::Fallback)
    } else if let (true, Some(ty)) = (v.is_nested(), v.payload()) {
        quote! {
            #private::schema::PartKind::Nested(if __depth < #private::MAX_NESTING {
                (&#private::schema::NestedProbe::<#ty>::NEW).parts(__generator, __depth + 1)
            } else {
                ::core::option::Option::None
            })
        }
    } else {
        quote!(#private::schema::PartKind::Subtype)
    };
    let tags = v.tags.iter().map(|t| tag(&t.value, &t.tokens));
    let when_fields = &v.attrs.when_fields;
    let payload = match (v.style, v.payload()) {
        _ if v.is_nested() => quote!(#private::schema::PartPayload::Unit),
        (Style::Newtype, Some(ty)) => {
            let schema = probe(ty);
            quote!(#private::schema::PartPayload::Newtype(#schema))
        }
        (Style::Struct, _) => {
            let object = object(cont, v);
            quote!(#private::schema::PartPayload::Object(#object))
        }
        (Style::Tuple, _) => {
            let items = v.original.fields.iter().map(|f| probe(&f.ty));
            quote!(#private::schema::PartPayload::Tuple(::std::vec![#(#items),*]))
        }
        _ => quote!(#private::schema::PartPayload::Unit),
    };
    let description = option_str(docs(&v.original.attrs));
    quote! {
        #private::schema::Part {
            kind: #kind,
            tags: {
                let __tags: ::std::vec::Vec<::core::option::Option<#private::schema::Value>> =
                    ::std::vec![#(#tags),*];
                __tags.into_iter().flatten().collect()
            },
            when_fields: ::std::borrow::Cow::Borrowed(&[#(#when_fields),*]),
            payload: #payload,
            description: #description,
        }
    }
}

fn tag(value: &TagValue, tokens: &TokenStream) -> TokenStream {
    let private = private();
    let json = |lit: TokenStream| quote!(::core::option::Option::Some(#private::schema::Value::from(#lit)));
    match value {
        TagValue::Str(s) => json(quote!(#s)),
        TagValue::I64(v) => json(quote!(#v)),
        TagValue::U64(v) => json(quote!(#v)),
        TagValue::Bool(v) => json(quote!(#v)),
        // Written through the tag type's own `Serialize`, so that is what
        // the schema holds it to.
        TagValue::Typed(_) => quote!(#private::schema::typed_tag(&(#tokens))),
    }
}

pub fn option_str(text: Option<String>) -> TokenStream {
    match text {
        Some(text) => quote!(::core::option::Option::Some(#text)),
        None => quote!(::core::option::Option::None),
    }
}

/// A struct variant's fields, as serde reads them (and, for a generator
/// with the serialize contract, writes them).
fn object(cont: &Container, v: &Variant) -> TokenStream {
    let private = private();
    let deny = cont.serde.deny_unknown_fields;
    let (rule_de, rule_ser) = (cont.field_rule(v, false), cont.field_rule(v, true));
    let fields = v.fields().filter_map(|(f, serde)| {
        let (skip_de, skip_ser) = (serde.skip_deserializing, serde.skip_serializing);
        if skip_de && skip_ser {
            return None;
        }
        let schema = match (serde.with, serde.deserialize_with, serde.serialize_with) {
            (true, _, _) | (_, true, true) => quote!(::core::option::Option::None),
            (_, true, false) => {
                let probe = probe(&f.ty);
                quote!(if __ser { #probe } else { ::core::option::Option::None })
            }
            (_, false, true) => {
                let probe = probe(&f.ty);
                quote!(if __ser { ::core::option::Option::None } else { #probe })
            }
            (_, false, false) => probe(&f.ty),
        };
        let call = if serde.flatten {
            quote!(__object.flatten(#schema);)
        } else {
            let field = f.ident.as_ref()?.unraw().to_string();
            let name_for = |explicit: Option<&LitStr>, rule: Option<RenameRule>| match explicit {
                Some(lit) => lit.value(),
                None => rule.map_or(field.clone(), |r| r.apply_to_field(&field)),
            };
            let de_name = name_for(serde.rename.get(false), rule_de);
            let ser_name = name_for(serde.rename.get(true), rule_ser);
            let name = if de_name == ser_name {
                quote!(#de_name)
            } else {
                quote!(if __ser { #ser_name } else { #de_name })
            };
            // A missing `Option` is `None` unless a function reads it.
            let optional = is_option(&f.ty) && !serde.with && !serde.deserialize_with;
            // A skipped field is filled from its default.
            let default = serde.default != DefaultAttr::None || skip_de;
            let required_de = !(default || optional);
            let required_ser = !serde.skip_serializing_if;
            let required = if required_de == required_ser {
                quote!(#required_de)
            } else {
                quote!(if __ser { #required_ser } else { #required_de })
            };
            let description = option_str(docs(&f.attrs));
            quote!(__object.field(#name, #required, #schema, #description);)
        };
        Some(match (skip_de, skip_ser) {
            (true, _) => quote!(if __ser { #call }),
            (_, true) => quote!(if !__ser { #call }),
            _ => call,
        })
    });
    quote!({
        let mut __object = #private::schema::Object::new(#deny);
        #(#fields)*
        __object.finish()
    })
}

fn is_option(ty: &syn::Type) -> bool {
    match ty {
        syn::Type::Path(p) if p.qself.is_none() => {
            p.path.segments.last().is_some_and(|s| s.ident == "Option")
        }
        syn::Type::Group(g) => is_option(&g.elem),
        syn::Type::Paren(p) => is_option(&p.elem),
        _ => false,
    }
}

/// The doc comment, one line per `///` line.
pub fn docs(attrs: &[Attribute]) -> Option<String> {
    let lines: Vec<String> = attrs
        .iter()
        .filter(|a| a.path().is_ident("doc"))
        .filter_map(|a| match &a.meta {
            Meta::NameValue(nv) => match &nv.value {
                Expr::Lit(ExprLit {
                    lit: Lit::Str(s), ..
                }) => Some(s.value()),
                _ => None,
            },
            _ => None,
        })
        .map(|line| {
            line.strip_prefix(' ')
                .unwrap_or(&line)
                .trim_end()
                .to_owned()
        })
        .collect();
    let text = lines.join("\n").trim().to_owned();
    (!text.is_empty()).then_some(text)
}
