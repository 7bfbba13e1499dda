//! `Tagged` for an enum's payload types: `SubtypeOf<Enum>` and
//! `FromHierarchy<Enum>` for the payload of each newtype variant, emitted
//! inside the enum's `const _` block, where its `__Table` lives. Writing
//! goes through the runtime's `TaggedSerializer` with the variant's index,
//! exactly as the enum writes that variant. Both methods are generic (over
//! the serializer, the error type), so an enum whose payloads are never
//! used with `Tagged` compiles none of them to machine code.

use proc_macro2::TokenStream;
use quote::quote;

use crate::ast::{Container, Variant};
use crate::attr::TagValue;

pub fn generate(cont: &Container) -> TokenStream {
    // A generic enum's impls would be impls for type parameters (refused by
    // the orphan rule) or need its bounds; those get none.
    if !cont.item.generics.params.is_empty() {
        return quote!();
    }
    let private = quote!(::json_subtypes::__private);
    let ident = cont.ident();
    let name = cont.serde_name();
    let payloads: Vec<&syn::Type> = cont.variants.iter().filter_map(|v| v.payload()).collect();
    let impls = cont.variants.iter().enumerate().filter_map(|(index, v)| {
        let ty = v.payload()?;
        // A type two variants hold would get two impls. Types are compared
        // as syntax trees (syn's `PartialEq` ignores spans): a macro sees
        // no names resolved, so two spellings of one type (`Dog` and
        // `self::Dog`, or an alias) are two types here, and rustc reports
        // the impls that then conflict.
        if !eligible(v) || payloads.iter().filter(|p| **p == ty).count() > 1 {
            return None;
        }
        // A named type only: a reference would overlap the runtime's impl
        // for `&C`, and projections or macros cannot take impls.
        if !matches!(ty, syn::Type::Path(p) if p.qself.is_none()) {
            return None;
        }
        let index = index as u32;
        let variant = v.ident();
        let variant_name = variant.to_string();
        let type_name = format!("{ident}::{variant}");
        // In the external and adjacent forms, what serde's derive writes
        // for the variant, with its tag as the variant's name.
        let tag = match v.tags.first().map(|t| &t.value) {
            Some(TagValue::Str(tag)) => tag.clone(),
            _ => variant_name.clone(),
        };
        let write = match (&cont.attrs.external, &cont.attrs.tag, &cont.attrs.content) {
            (Some(_), _, _) => quote! {
                #private::serde::Serializer::serialize_newtype_variant(__serializer, #name, #index, #tag, self)
            },
            (None, Some(key), Some(content)) => {
                let (key, content) = (&key.value, &content.value);
                quote! {
                    let mut __state = #private::serde::Serializer::serialize_struct(__serializer, #name, 2)?;
                    #private::serde::ser::SerializeStruct::serialize_field(
                        &mut __state,
                        #key,
                        &#private::UnitVariant::new(#name, #index, #tag),
                    )?;
                    #private::serde::ser::SerializeStruct::serialize_field(&mut __state, #content, self)?;
                    #private::serde::ser::SerializeStruct::end(__state)
                }
            }
            _ if cont.attrs.as_map.is_some() => quote! {
                #private::serde::Serializer::serialize_newtype_variant(
                    #private::TaggedSerializer::<_, __Table>::new(#private::AsMap(__serializer)),
                    #name,
                    #index,
                    #variant_name,
                    self,
                )
            },
            _ => quote! {
                #private::serde::Serializer::serialize_newtype_variant(
                    #private::TaggedSerializer::<__S, __Table>::new(__serializer),
                    #name,
                    #index,
                    #variant_name,
                    self,
                )
            },
        };
        Some(quote! {
            #[automatically_derived]
            impl #private::SubtypeOf<#ident> for #ty {
                fn __json_subtypes_write<__S: #private::serde::Serializer>(&self, __serializer: __S) -> ::core::result::Result<__S::Ok, __S::Error> {
                    #write
                }
            }

            #[automatically_derived]
            impl #private::FromHierarchy<#ident> for #ty {
                type __Read = #ident;

                #[allow(unreachable_patterns)]
                fn __json_subtypes_take<__E: #private::serde::de::Error>(__read: #ident) -> ::core::result::Result<Self, __E> {
                    match __read {
                        #ident::#variant(__value) => ::core::result::Result::Ok(__value),
                        __other => ::core::result::Result::Err(__E::custom(
                            #private::one_subtype::enum_mismatch::<#ident, __Table>(&__other, #index, #type_name),
                        )),
                    }
                }
            }
        })
    });
    quote!(#(#impls)*)
}

/// A variant serde reads and writes as it is, with a tag of its own.
fn eligible(v: &Variant) -> bool {
    !v.is_fallback() && !v.is_nested() && v.serde.is_empty() && v.is_readable() && v.is_writable()
}
