//! Expansion for generic traits and generic impls.
//!
//! A trait with parameters (type, const or lifetime parameters, associated
//! types) has a registry per instantiation: its impls are generic over the
//! parameters, and the registry of `dyn Strategy<f64>` is found at run time
//! in the runtime's table of instantiations (`instances`), since a `static`
//! in a generic impl would be one for all. `inventory` needs one concrete
//! type per trait, so the registration type carries the instantiation's
//! `TypeId` and its readers without their type.
//!
//! An impl of an instantiation registers there; a generic impl registers
//! each instance it lists, its parameters replaced by the instance's (in
//! the plain trait's one registry, or in each instantiation's). A trait or
//! impl without parameters never comes here: its code is `traits.rs`'s.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::{GenericParam, ItemImpl, ItemTrait, TypeParamBound, WherePredicate};

use crate::ast::{is_self, Impl, Registration, Trait};
use crate::attr::{ContainerAttrs, TagValue};

use super::private;

/// `#[json_subtypes(...)]` on a trait with parameters, checked.
pub fn expand_trait(attrs: ContainerAttrs, mut item: ItemTrait) -> TokenStream {
    let tr = Trait::from_ast(attrs, &item);
    let private = private();
    let ident = tr.ident();
    // The impls' parameters: the trait's type and const parameters (types
    // `'static`, for `TypeId`), one per associated type; lifetimes are
    // bound in the object (`dyn for<'a> Visitor<'a>`).
    let mut params = Vec::new();
    let mut args = Vec::new();
    let mut lifetimes = Vec::new();
    for param in &item.generics.params {
        match param {
            GenericParam::Lifetime(l) => {
                let lifetime = &l.lifetime;
                lifetimes.push(quote!(#lifetime));
                args.push(quote!(#lifetime));
            }
            GenericParam::Type(t) => {
                let name = &t.ident;
                // `D: 'a` holds for every `'a` of a `'static` `D`.
                let bounds = t.bounds.iter().filter(|b| match b {
                    TypeParamBound::Lifetime(l) => l.ident == "static",
                    _ => true,
                });
                params.push(quote!(#name: 'static #(+ #bounds)*));
                args.push(quote!(#name));
            }
            GenericParam::Const(c) => {
                let (name, ty) = (&c.ident, &c.ty);
                params.push(quote!(const #name: #ty));
                args.push(quote!(#name));
            }
        }
    }
    for assoc in tr.assoc_types() {
        let name = &assoc.ident;
        let param = format_ident!("__{}", name);
        let unsized_ = assoc.bounds.iter().any(|b| {
            matches!(b, TypeParamBound::Trait(t) if matches!(t.modifier, syn::TraitBoundModifier::Maybe(_)))
        });
        let unsized_ = unsized_.then(|| quote!(?::core::marker::Sized+));
        params.push(quote!(#param: #unsized_ 'static));
        args.push(quote!(#name = #param));
    }
    let bound = match lifetimes.is_empty() {
        true => quote!(#ident<#(#args),*>),
        false => quote!(for<#(#lifetimes),*> #ident<#(#args),*>),
    };
    let obj = quote!(dyn #bound);
    // The trait's `where` clause, but for what it says of `Self` (its
    // supertraits, which `dyn Trait` has) and of lifetimes (bound in `obj`).
    let predicates: Vec<&WherePredicate> = item
        .generics
        .where_clause
        .iter()
        .flat_map(|w| &w.predicates)
        .filter(|p| match p {
            WherePredicate::Type(t) => !is_self(&t.bounded_ty),
            _ => false,
        })
        .collect();
    let where_clause = quote!(where #(#predicates,)*);

    let key = match tr.tag_key() {
        Some(tag) => quote!(::core::option::Option::Some(#tag)),
        None => quote!(::core::option::Option::None),
    };
    // The same settings as a plain trait's.
    let super::traits::Settings {
        settings,
        internal,
        exact_numbers_gate,
    } = super::traits::Settings::of(&tr.attrs);
    let schema = tr.attrs.schema.is_some();
    let description = super::schema::option_str(super::schema::docs(&item.attrs));

    let send = quote!(::core::marker::Send);
    let sync = quote!(::core::marker::Sync);
    let marked = [quote!(#send), quote!(#sync), quote!(#send + #sync)].map(|m| {
        quote! {
            impl<#(#params),*> #private::serde::Serialize for #obj + #m #where_clause {
                fn serialize<__S>(&self, __serializer: __S) -> ::core::result::Result<__S::Ok, __S::Error>
                where
                    __S: #private::serde::Serializer,
                {
                    #private::serialize_marked::<#obj, Self, __S>(self, __serializer)
                }
            }

            impl<'__de, #(#params),*> #private::serde::Deserialize<'__de> for ::std::boxed::Box<#obj + #m> #where_clause {
                fn deserialize<__D>(__deserializer: __D) -> ::core::result::Result<Self, __D::Error>
                where
                    __D: #private::serde::Deserializer<'__de>,
                {
                    #private::deserialize_marked::<#obj, #obj + #m, __D>(__deserializer)
                }
            }

            impl<#(#params,)* __C: #bound + #m + 'static> #private::Upcast<__C> for #obj + #m #where_clause {
                fn __json_subtypes_upcast(value: ::std::boxed::Box<__C>) -> ::std::boxed::Box<Self> {
                    value
                }
            }
        }
    });
    // As for a plain trait, but the schema's name is the instantiation's
    // (`Strategy_for_f64`): two instantiations are two schemas.
    let (schema_bound, described, schema_impl) = match schema {
        false => (quote!(), quote!(::core::option::Option::None), quote!()),
        true => (
            quote!(+ #private::SchemaSubtype<#obj>),
            quote!(::core::option::Option::Some(#private::Described::of::<__C, #obj>())),
            quote! {
                #private::schema_gate! {
                    #[automatically_derived]
                    impl<#(#params),*> #private::schema::schemars::JsonSchema for #obj #where_clause {
                        fn schema_name() -> ::std::borrow::Cow<'static, str> {
                            ::std::borrow::Cow::Owned(#private::instances::schema_name::<Self>())
                        }

                        fn schema_id() -> ::std::borrow::Cow<'static, str> {
                            ::std::borrow::Cow::Borrowed(::core::any::type_name::<Self>())
                        }

                        fn json_schema(
                            __generator: &mut #private::schema::schemars::SchemaGenerator,
                        ) -> #private::schema::schemars::Schema {
                            #private::schema::described(
                                #private::schema::registered::<Self>(__generator),
                                #description,
                            )
                        }
                    }

                    #private::utoipa_gate! {
                        #[automatically_derived]
                        impl<#(#params),*> #private::openapi::utoipa::PartialSchema for ::std::boxed::Box<#obj> #where_clause {
                            fn schema() -> #private::openapi::utoipa::openapi::RefOr<#private::openapi::utoipa::openapi::schema::Schema> {
                                #private::openapi::schema::<#obj>()
                            }
                        }

                        #[automatically_derived]
                        impl<#(#params),*> #private::openapi::utoipa::ToSchema for ::std::boxed::Box<#obj> #where_clause {
                            fn name() -> ::std::borrow::Cow<'static, str> {
                                ::std::borrow::Cow::Owned(#private::instances::schema_name::<#obj>())
                            }

                            fn schemas(
                                __schemas: &mut ::std::vec::Vec<(
                                    ::std::string::String,
                                    #private::openapi::utoipa::openapi::RefOr<#private::openapi::utoipa::openapi::schema::Schema>,
                                )>,
                            ) {
                                #private::openapi::schemas::<#obj>(__schemas)
                            }
                        }
                    }
                }
            },
        ),
    };

    // As for a plain trait (see `traits.rs`): the erased reader and the
    // writer of the trait's form, or with `compiled` the serde_json readers
    // of the trait's form besides.
    let wrapped = tr.attrs.external.is_some() || tr.attrs.content.is_some();
    let compiled = match wrapped {
        false => quote!(compiled),
        true => quote!(compiled_wrapped),
    };
    let readers = match (tr.attrs.compiled.is_some(), wrapped) {
        (true, _) => compiled.clone(),
        (false, false) => quote!(new),
        (false, true) => quote!(wrapped),
    };
    item.supertraits
        .push(syn::parse_quote!(::json_subtypes::__private::Subtype));
    quote! {
        #item

        #[doc(hidden)]
        #[allow(deprecated, non_upper_case_globals, non_camel_case_types, clippy::all, clippy::pedantic)]
        const _: () = {
            pub struct __Registration(#private::instances::Instance);

            #private::inventory::collect!(__Registration);
            #exact_numbers_gate

            impl<#(#params),*> #obj #where_clause {
                #[doc(hidden)]
                pub const fn __json_subtypes_register_instance<__C>(
                    entry: #private::Entry,
                    markers: fn() -> #private::marker::Conversions,
                ) -> __Registration
                where
                    __C: #bound + #private::serde::Serialize + #private::serde::de::DeserializeOwned + 'static #schema_bound,
                {
                    __Registration(#private::instances::Instance::#readers::<#obj, __C>(entry, markers, #described))
                }

                #[doc(hidden)]
                pub const fn __json_subtypes_register_instance_compiled<__C>(
                    entry: #private::Entry,
                    markers: fn() -> #private::marker::Conversions,
                ) -> __Registration
                where
                    __C: #bound + #private::serde::Serialize + #private::serde::de::DeserializeOwned + 'static #schema_bound,
                {
                    __Registration(#private::instances::Instance::#compiled::<#obj, __C>(entry, markers, #described))
                }
            }

            impl<#(#params),*> #private::Registered for #obj #where_clause {
                #internal

                fn registry() -> &'static #private::Registry<Self> {
                    #private::instances::registry::<Self>(|| {
                        #private::instances::build::<Self>(
                            #key,
                            #settings,
                            #private::inventory::iter::<__Registration>
                                .into_iter()
                                .map(|__r| &__r.0),
                        )
                    })
                }
            }

            impl<#(#params,)* __C: #bound + 'static> #private::Upcast<__C> for #obj #where_clause {
                fn __json_subtypes_upcast(value: ::std::boxed::Box<__C>) -> ::std::boxed::Box<Self> {
                    value
                }
            }

            impl<#(#params),*> #private::serde::Serialize for #obj #where_clause {
                fn serialize<__S>(&self, __serializer: __S) -> ::core::result::Result<__S::Ok, __S::Error>
                where
                    __S: #private::serde::Serializer,
                {
                    #private::serialize_registered::<Self, __S>(self, __serializer)
                }
            }

            impl<'__de, #(#params),*> #private::serde::Deserialize<'__de> for ::std::boxed::Box<#obj> #where_clause {
                fn deserialize<__D>(__deserializer: __D) -> ::core::result::Result<Self, __D::Error>
                where
                    __D: #private::serde::Deserializer<'__de>,
                {
                    #private::deserialize_registered::<#obj, __D>(__deserializer)
                }
            }

            #(#marked)*

            #schema_impl
        };
    }
}

/// `#[json_subtypes(...)]` on an impl of a generic trait's instantiation,
/// or on a generic impl with `instances`, checked: one registration each.
pub fn expand_impl(imp: &Impl, item: &ItemImpl) -> TokenStream {
    let private = private();
    let fallback = imp.is_fallback();
    let fields = &imp.attrs.when_fields;
    let send = quote!(::core::marker::Send);
    let sync = quote!(::core::marker::Sync);
    let mut checks = Vec::new();
    let mut submits = Vec::new();
    for reg in &imp.registrations {
        let Registration {
            self_ty,
            object,
            instance,
            tags,
            span,
            named,
        } = reg;
        let span = *span;
        let type_name = reg.type_name();
        let tag = match tags.first() {
            Some(tag) => {
                let tag = literal(&tag.value);
                quote!(::core::option::Option::Some(#tag))
            }
            None => quote!(::core::option::Option::None),
        };
        let aliases = tags.iter().skip(1).map(|t| literal(&t.value));
        let entry = quote! {
            #private::Entry {
                tag: #tag,
                aliases: &[#(#aliases),*],
                fallback: #fallback,
                when_fields: &[#(#fields),*],
                type_name: #type_name,
                type_id: ::core::any::TypeId::of::<#self_ty>,
            }
        };
        // Which marked objects the type can become is asked where the type
        // is concrete (see the runtime's `marker`). An instantiation's
        // registration keeps them without their types, so they are spelt
        // out; a plain trait takes them as from a plain impl.
        let (register_instance, register) = match imp.attrs.compiled {
            Some(_) => (
                quote!(__json_subtypes_register_instance_compiled),
                quote!(__json_subtypes_register_compiled),
            ),
            None => (
                quote!(__json_subtypes_register_instance),
                quote!(__json_subtypes_register),
            ),
        };
        let submit = match instance {
            true => quote_spanned! {span=>
                #private::inventory::submit! {
                    <#object>::#register_instance::<#self_ty>(#entry, || {
                        use #private::marker::probe::*;
                        let __p = &#private::marker::Probe::<#self_ty>::NEW;
                        #private::marker::Conversions::new(#private::marker::Markers::<
                            #object + #send,
                            #object + #sync,
                            #object + #send + #sync,
                        > {
                            send: __p.send(),
                            sync: __p.sync(),
                            send_sync: __p.send_sync(),
                        })
                    })
                }
            },
            false => quote_spanned! {span=>
                #private::inventory::submit! {
                    <#object>::#register::<#self_ty>(#entry, || {
                        use #private::marker::probe::*;
                        let __p = &#private::marker::Probe::<#self_ty>::NEW;
                        #private::marker::Markers { send: __p.send(), sync: __p.sync(), send_sync: __p.send_sync() }
                    })
                }
            },
        };
        submits.push(submit);
        // `Tagged`: a named type only, as for a plain impl.
        if *named {
            checks.push(quote_spanned! {span=>
                impl #private::SubtypeOf<#object> for #self_ty {
                    fn __json_subtypes_write<__S: #private::serde::Serializer>(&self, __serializer: __S) -> ::core::result::Result<__S::Ok, __S::Error> {
                        #private::one_subtype::write_registered::<#object, Self, __S>(self, __serializer)
                    }
                }

                impl #private::FromHierarchy<#object> for #self_ty {
                    type __Read = ::std::boxed::Box<#object>;

                    fn __json_subtypes_take<__E: #private::serde::de::Error>(__read: Self::__Read) -> ::core::result::Result<Self, __E> {
                        #private::one_subtype::take_registered::<#object, Self>(__read).map_err(__E::custom)
                    }
                }
            });
        }
        checks.push(quote_spanned! {span=>
            let _: fn() = __json_subtypes_assert_registered::<#object>;
        });
    }
    // The trait's supertrait `Subtype` asks `Self: Serialize + 'static`,
    // and a registry is of `'static` types: a generic impl would otherwise
    // spell both out on its parameters. Said here, they are checked for
    // each instance instead, which is all that is registered.
    let mut item = item.clone();
    if !imp.params().is_empty() {
        let types: Vec<syn::Ident> = item
            .generics
            .type_params()
            .map(|t| t.ident.clone())
            .collect();
        let predicates = &mut item.generics.make_where_clause().predicates;
        predicates.push(syn::parse_quote!(Self: ::json_subtypes::__private::Subtype));
        for ty in types {
            predicates.push(syn::parse_quote!(#ty: 'static));
        }
    }
    quote! {
        #item

        #[allow(deprecated, non_upper_case_globals, clippy::all, clippy::pedantic)]
        const _: () = {
            // A clear error when the trait has no `#[json_subtypes]`.
            fn __json_subtypes_assert_registered<__T: ?Sized + #private::Registered>() {}
            #(#checks)*
        };

        #(#submits)*
    }
}

/// A trait's tags are literals: `Typed` needs `tag_type`, refused on traits.
fn literal(value: &TagValue) -> TokenStream {
    let private = private();
    match value {
        TagValue::Str(s) => quote!(#private::Literal::Str(#s)),
        TagValue::U64(v) => quote!(#private::Literal::U64(#v)),
        TagValue::I64(v) => quote!(#private::Literal::I64(#v)),
        TagValue::Bool(v) => quote!(#private::Literal::Bool(#v)),
        TagValue::Typed(_) => unreachable!("a trait's tags are literals"),
    }
}
