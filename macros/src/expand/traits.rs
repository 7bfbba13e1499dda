//! Expansion for `#[json_subtypes(...)]` on a trait (a registry of its
//! implementations) and on `impl Trait for Type` (one registration).
//!
//! As in typetag, the trait gets a hidden supertrait so `dyn Trait` can be
//! written through erased-serde, and each annotated impl submits an entry
//! with `inventory`; the table is built on first use.

use proc_macro2::TokenStream;
use quote::{quote, ToTokens};
use syn::{ItemImpl, ItemTrait};

use crate::ast::{Impl, Trait};
use crate::attr::{ContainerAttrs, TagValue, VariantAttrs};
use crate::check;
use crate::ctx::Ctxt;

pub fn expand_trait(args: TokenStream, mut item: ItemTrait) -> TokenStream {
    let cx = Ctxt::new();
    let attrs = ContainerAttrs::parse(&cx, args);
    let tr = Trait::from_ast(attrs, &item);
    check::check_trait(&cx, &tr);
    if let Err(errors) = cx.check() {
        return quote!(#item #errors);
    }
    if tr.is_generic() {
        return super::instances::expand_trait(tr.attrs, item);
    }
    let key = match tr.tag_key() {
        Some(tag) => quote!(::core::option::Option::Some(#tag)),
        None => quote!(::core::option::Option::None),
    };
    let Settings {
        settings,
        internal,
        exact_numbers_gate,
    } = Settings::of(&tr.attrs);
    let schema = tr.attrs.schema.is_some();
    let says_compiled = tr.attrs.compiled.is_some();
    let wrapped = tr.attrs.external.is_some() || tr.attrs.content.is_some();
    let ident = tr.ident().clone();
    let description = super::schema::option_str(super::schema::docs(&item.attrs));
    item.supertraits
        .push(syn::parse_quote!(::json_subtypes::__private::Subtype));
    let ident = &ident;
    let name = format!("dyn {ident}");
    let private = quote!(::json_subtypes::__private);
    // What a registration carries by default: the erased reader and the
    // serde_json writer of the trait's form, or with `compiled` also the
    // serde_json readers of the trait's form (see the runtime's `compiled`
    // and `compiled_wrapped`). An impl saying `compiled` asks for the
    // latter through `__json_subtypes_register_compiled`.
    let compiled = match wrapped {
        false => quote!(compiled),
        true => quote!(compiled_wrapped),
    };
    let readers = match (says_compiled, wrapped) {
        (true, _) => compiled.clone(),
        (false, false) => quote!(readers),
        (false, true) => quote!(readers_wrapped),
    };
    let send = quote!(::core::marker::Send);
    let sync = quote!(::core::marker::Sync);
    // `dyn Trait + Send` and the other marked objects: written as
    // `dyn Trait`, read as `Box<dyn Trait>` and converted (see the
    // runtime's `marker`), so they add no reader of their own.
    let marked = [quote!(#send), quote!(#sync), quote!(#send + #sync)].map(|m| {
        quote! {
            impl #private::serde::Serialize for dyn #ident + #m {
                fn serialize<__S>(&self, __serializer: __S) -> ::core::result::Result<__S::Ok, __S::Error>
                where
                    __S: #private::serde::Serializer,
                {
                    #private::serialize_marked::<dyn #ident, Self, __S>(self, __serializer)
                }
            }

            impl<'__de> #private::serde::Deserialize<'__de> for ::std::boxed::Box<dyn #ident + #m> {
                fn deserialize<__D>(__deserializer: __D) -> ::core::result::Result<Self, __D::Error>
                where
                    __D: #private::serde::Deserializer<'__de>,
                {
                    #private::deserialize_marked::<dyn #ident, dyn #ident + #m, __D>(__deserializer)
                }
            }

            impl<__C: #ident + #m + 'static> #private::Upcast<__C> for dyn #ident + #m {
                fn __json_subtypes_upcast(value: ::std::boxed::Box<__C>) -> ::std::boxed::Box<Self> {
                    value
                }
            }
        }
    });
    // `schema`: each registration carries its type's schema, which the
    // bound demands at the impl; the schema itself is assembled at run time
    // from the table (see the runtime's `schema::registered`).
    let (schema_bound, described, schema_impl) = match schema {
        false => (quote!(), quote!(::core::option::Option::None), quote!()),
        true => {
            let ident_name = ident.to_string();
            (
                quote!(+ #private::SchemaSubtype<dyn #ident>),
                quote!(::core::option::Option::Some(#private::Described::of::<__C, dyn #ident>())),
                quote! {
                    #private::schema_gate! {
                        #[automatically_derived]
                        impl #private::schema::schemars::JsonSchema for dyn #ident {
                            fn schema_name() -> ::std::borrow::Cow<'static, str> {
                                ::std::borrow::Cow::Borrowed(#ident_name)
                            }

                            fn schema_id() -> ::std::borrow::Cow<'static, str> {
                                ::std::borrow::Cow::Borrowed(
                                    ::core::concat!(::core::module_path!(), "::dyn ", #ident_name)
                                )
                            }

                            fn json_schema(
                                __generator: &mut #private::schema::schemars::SchemaGenerator,
                            ) -> #private::schema::schemars::Schema {
                                #private::schema::described(
                                    #private::schema::registered::<dyn #ident>(__generator),
                                    #description,
                                )
                            }
                        }

                        // On the box: utoipa's traits are for sized types.
                        #private::utoipa_gate! {
                            #[automatically_derived]
                            impl #private::openapi::utoipa::PartialSchema for ::std::boxed::Box<dyn #ident> {
                                fn schema() -> #private::openapi::utoipa::openapi::RefOr<#private::openapi::utoipa::openapi::schema::Schema> {
                                    #private::openapi::schema::<dyn #ident>()
                                }
                            }

                            #[automatically_derived]
                            impl #private::openapi::utoipa::ToSchema for ::std::boxed::Box<dyn #ident> {
                                fn name() -> ::std::borrow::Cow<'static, str> {
                                    ::std::borrow::Cow::Borrowed(#ident_name)
                                }

                                fn schemas(
                                    __schemas: &mut ::std::vec::Vec<(
                                        ::std::string::String,
                                        #private::openapi::utoipa::openapi::RefOr<#private::openapi::utoipa::openapi::schema::Schema>,
                                    )>,
                                ) {
                                    #private::openapi::schemas::<dyn #ident>(__schemas)
                                }
                            }
                        }
                    }
                },
            )
        }
    };
    quote! {
        #item

        #[doc(hidden)]
        #[allow(deprecated, non_upper_case_globals, non_camel_case_types, clippy::all, clippy::pedantic)]
        const _: () = {
            type __Markers = #private::marker::Markers<
                dyn #ident + #send,
                dyn #ident + #sync,
                dyn #ident + #send + #sync,
            >;

            pub struct __Registration(
                #private::Entry,
                fn() -> #private::compiled::Readers<dyn #ident>,
                fn() -> __Markers,
                ::core::option::Option<#private::Described>,
            );

            #private::inventory::collect!(__Registration);
            #exact_numbers_gate

            impl dyn #ident {
                #[doc(hidden)]
                pub const fn __json_subtypes_register<__C>(
                    entry: #private::Entry,
                    markers: fn() -> __Markers,
                ) -> __Registration
                where
                    __C: #ident + #private::serde::Serialize + #private::serde::de::DeserializeOwned + 'static #schema_bound,
                {
                    __Registration(entry, #private::compiled::#readers::<dyn #ident, __C>, markers, #described)
                }

                #[doc(hidden)]
                pub const fn __json_subtypes_register_compiled<__C>(
                    entry: #private::Entry,
                    markers: fn() -> __Markers,
                ) -> __Registration
                where
                    __C: #ident + #private::serde::Serialize + #private::serde::de::DeserializeOwned + 'static #schema_bound,
                {
                    __Registration(entry, #private::compiled::#compiled::<dyn #ident, __C>, markers, #described)
                }
            }

            impl #private::Registered for dyn #ident {
                #internal

                fn registry() -> &'static #private::Registry<Self> {
                    static REGISTRY: ::std::sync::OnceLock<#private::Registry<dyn #ident>> =
                        ::std::sync::OnceLock::new();
                    REGISTRY.get_or_init(|| {
                        #private::Registry::from_entries(
                            #name,
                            #key,
                            #settings,
                            #private::inventory::iter::<__Registration>
                                .into_iter()
                                .map(|__r| (&__r.0, __r.1, #private::marker::Conversions::new((__r.2)()), __r.3)),
                        )
                    })
                }
            }

            impl<__C: #ident + 'static> #private::Upcast<__C> for dyn #ident {
                fn __json_subtypes_upcast(value: ::std::boxed::Box<__C>) -> ::std::boxed::Box<Self> {
                    value
                }
            }

            impl #private::serde::Serialize for dyn #ident {
                fn serialize<__S>(&self, __serializer: __S) -> ::core::result::Result<__S::Ok, __S::Error>
                where
                    __S: #private::serde::Serializer,
                {
                    #private::serialize_registered::<dyn #ident, __S>(self, __serializer)
                }
            }

            impl<'__de> #private::serde::Deserialize<'__de> for ::std::boxed::Box<dyn #ident> {
                fn deserialize<__D>(__deserializer: __D) -> ::core::result::Result<Self, __D::Error>
                where
                    __D: #private::serde::Deserializer<'__de>,
                {
                    #private::deserialize_registered::<dyn #ident, __D>(__deserializer)
                }
            }

            #(#marked)*

            #schema_impl
        };
    }
}

/// What generated code tells the runtime of a trait's attribute, for a
/// plain trait and for each instantiation of a generic one alike.
pub(super) struct Settings {
    /// The `TraitSettings` value.
    pub settings: TokenStream,
    /// `Registered::__JSON_SUBTYPES_INTERNAL`, set where it is not the
    /// default: reads and writes of the external and adjacent forms ask
    /// the registry which form it has; the internal form's go straight there.
    pub internal: TokenStream,
    /// As for enums: a compile error at `exact_numbers` without the
    /// runtime feature.
    pub exact_numbers_gate: TokenStream,
}

impl Settings {
    pub(super) fn of(attrs: &ContainerAttrs) -> Self {
        let private = quote!(::json_subtypes::__private);
        let max_depth = attrs.max_depth.as_ref().map_or(128, |d| d.value);
        let max_buffer = match &attrs.max_buffer {
            Some(m) => {
                let bytes = m.value as usize;
                quote!(::core::option::Option::Some(#bytes))
            }
            None => quote!(::core::option::Option::None),
        };
        let require_tag_first = attrs.require_tag_first.is_some();
        let exact_numbers = attrs.exact_numbers.is_some();
        let visible = attrs.visible.is_some();
        let external = attrs.external.is_some();
        let content = match &attrs.content {
            Some(content) => {
                let content = &content.value;
                quote!(::core::option::Option::Some(#content))
            }
            None => quote!(::core::option::Option::None),
        };
        let deny_unknown_fields = attrs.deny_unknown_fields.is_some();
        let as_map = attrs.as_map.is_some();
        let internal = match external || attrs.content.is_some() || as_map {
            true => quote!(
                const __JSON_SUBTYPES_INTERNAL: bool = false;
            ),
            false => quote!(),
        };
        let exact_numbers_gate = match &attrs.exact_numbers {
            Some(key) => {
                let span = syn::spanned::Spanned::span(&key.tokens);
                quote::quote_spanned!(span=> ::json_subtypes::__private::exact_numbers_gate! {})
            }
            None => quote!(),
        };
        Settings {
            settings: quote! {
                #private::TraitSettings {
                    max_depth: #max_depth,
                    max_buffer: #max_buffer,
                    require_tag_first: #require_tag_first,
                    exact_numbers: #exact_numbers,
                    visible: #visible,
                    external: #external,
                    content: #content,
                    deny_unknown_fields: #deny_unknown_fields,
                    as_map: #as_map,
                }
            },
            internal,
            exact_numbers_gate,
        }
    }
}

pub fn expand_impl(args: TokenStream, item: ItemImpl) -> TokenStream {
    let cx = Ctxt::new();
    let attrs = VariantAttrs::parse_args(&cx, args);
    let imp = Impl::from_ast(&cx, attrs, &item);
    check::check_impl(&cx, &imp);
    if let Err(errors) = cx.check() {
        return quote!(#item #errors);
    }
    if imp.is_generic() {
        return super::instances::expand_impl(&imp, &item);
    }
    let Some(trait_path) = imp.trait_path else {
        unreachable!("check_impl refuses an impl without a trait")
    };
    let self_ty = imp.self_ty();
    let type_name = self_ty.to_token_stream().to_string().replace(' ', "");
    let private = quote!(::json_subtypes::__private);
    // A trait's tags are literals: `Typed` needs `tag_type`, refused on traits.
    let literal = |value: &TagValue| match value {
        TagValue::Str(s) => quote!(#private::Literal::Str(#s)),
        TagValue::U64(v) => quote!(#private::Literal::U64(#v)),
        TagValue::I64(v) => quote!(#private::Literal::I64(#v)),
        TagValue::Bool(v) => quote!(#private::Literal::Bool(#v)),
        TagValue::Typed(_) => unreachable!("a trait's tags are literals"),
    };
    let tag = match imp.tags.first() {
        Some(tag) => {
            let tag = literal(&tag.value);
            quote!(::core::option::Option::Some(#tag))
        }
        None => quote!(::core::option::Option::None),
    };
    let fallback = imp.is_fallback();
    let fields = imp.attrs.when_fields.iter();
    let aliases = imp.tags.iter().skip(1).map(|t| literal(&t.value));
    // `Tagged`: the type written and read alone as `dyn Trait` would.
    // A named type only, as for enum payloads (see `expand::one_subtype`).
    let one_subtype = match self_ty {
        syn::Type::Path(p) if p.qself.is_none() => quote! {
            impl #private::SubtypeOf<dyn #trait_path> for #self_ty {
                fn __json_subtypes_write<__S: #private::serde::Serializer>(&self, __serializer: __S) -> ::core::result::Result<__S::Ok, __S::Error> {
                    #private::one_subtype::write_registered::<dyn #trait_path, Self, __S>(self, __serializer)
                }
            }

            impl #private::FromHierarchy<dyn #trait_path> for #self_ty {
                type __Read = ::std::boxed::Box<dyn #trait_path>;

                fn __json_subtypes_take<__E: #private::serde::de::Error>(__read: Self::__Read) -> ::core::result::Result<Self, __E> {
                    #private::one_subtype::take_registered::<dyn #trait_path, Self>(__read).map_err(__E::custom)
                }
            }
        },
        _ => quote!(),
    };
    let register = match imp.attrs.compiled {
        Some(_) => quote!(__json_subtypes_register_compiled),
        None => quote!(__json_subtypes_register),
    };
    quote! {
        #item

        #[allow(deprecated, non_upper_case_globals, clippy::all, clippy::pedantic)]
        const _: () = {
            #one_subtype

            // A clear error when the trait has no `#[json_subtypes]`.
            fn __json_subtypes_assert_registered<__T: ?Sized + #private::Registered>() {}
            let _: fn() = __json_subtypes_assert_registered::<dyn #trait_path>;
        };

        #private::inventory::submit! {
            <dyn #trait_path>::#register::<#self_ty>(#private::Entry {
                tag: #tag,
                aliases: &[#(#aliases),*],
                fallback: #fallback,
                when_fields: &[#(#fields),*],
                type_name: #type_name,
                type_id: ::core::any::TypeId::of::<#self_ty>,
            }, || {
                // Which of `dyn Trait + Send`... this type can become: asked
                // here, where the type is concrete (see the runtime's `marker`).
                use #private::marker::probe::*;
                let __p = &#private::marker::Probe::<#self_ty>::NEW;
                #private::marker::Markers { send: __p.send(), sync: __p.sync(), send_sync: __p.send_sync() }
            })
        }
    }
}
