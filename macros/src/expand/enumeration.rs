//! Expansion for `#[json_subtypes(tag = "...")]` on an enum.
//!
//! Two ways to the variants' contents, with the same behaviour:
//! - An enum without generics whose variants carry no serde attribute that
//!   changes how they are read or written (fields at most renamed) gets no
//!   serde derive: `build` and `serialize` are a `match` over its variants
//!   calling the runtime's shared code (`plain_variants.rs`). This is most enums, and
//!   it is what keeps the expansion below serde's own.
//! - Any other enum's serde code is derived by serde itself on a private
//!   twin with `#[serde(remote = "...")]`, so every serde field attribute
//!   (default, with, flatten, borrow...) works unchanged. The twin is
//!   externally tagged; its variant calls are turned into an internally
//!   tagged object by the runtime's `TaggedSerializer` on write, and driven
//!   by variant index from the dispatch engine on read.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::ext::IdentExt;
use syn::spanned::Spanned;
use syn::{Attribute, ItemEnum};

use super::bound::{self, Direction};
use super::private;
use super::tables::{literal_tables, presence_tables, typed_tables, visible_indexes};
use crate::ast::{Container, Style};
use crate::attr::{ContainerAttrs, TagValue};
use crate::check;
use crate::ctx::Ctxt;
use crate::serde_attr::{self, Key, SerdeAttrs, Which};

/// `#[json_subtypes(...)]` on an enum: the enum again, with
/// `#[derive(__JsonSubtypes)]` and the attribute's arguments as its helper
/// attribute. The derive does the work because it receives the enum with
/// `#[cfg]` and `#[cfg_attr]` evaluated, which an attribute macro does not.
pub fn forward(args: TokenStream, item: ItemEnum) -> TokenStream {
    let cx = Ctxt::new();
    check::check_no_serde_derive(&cx, &item.attrs);
    let errors = cx.check().err();
    let mut out = item;
    // A `Serialize` derive beside ours was reported; without it the enum
    // still gets our impls and its uses compile.
    out.attrs = serde_attr::without_serde_derives(&out.attrs);
    serde_attr::ours_to_helper(&mut out.attrs);
    for variant in &mut out.variants {
        serde_attr::ours_to_helper(&mut variant.attrs);
        for field in &mut variant.fields {
            serde_attr::ours_to_helper(&mut field.attrs);
        }
    }
    let private = private();
    quote! {
        #[derive(#private::__JsonSubtypes)]
        #[__json_subtypes(#args)]
        #out
        #errors
    }
}

/// The derive: the enum as the compiler configured it.
pub fn expand(item: ItemEnum) -> TokenStream {
    let cx = Ctxt::new();
    let attrs = ContainerAttrs::parse(&cx, serde_attr::helper_args(&item.attrs));
    let cont = Container::from_ast(&cx, attrs, &item);
    check::check(&cx, &cont);
    // A derive only `cfg_attr` gave the enum reaches us here, evaluated.
    check::check_no_serde_derive(&cx, &item.attrs);
    if let Err(errors) = cx.check() {
        let guard = flood_guard(&item);
        return quote!(#errors #guard);
    }
    generate(&cont)
}

/// With its errors, an enum still implements `Serialize` and `Deserialize`
/// (as thiserror keeps `Error` on a failed derive): otherwise every use
/// adds an error whose note suggests serde's derive. The crate does not
/// compile, so these bodies never run.
fn flood_guard(item: &ItemEnum) -> TokenStream {
    let derived: Vec<String> = serde_attr::serde_derives(&item.attrs)
        .iter()
        .filter_map(|p| Some(p.segments.last()?.ident.to_string()))
        .collect();
    let private = private();
    let ident = &item.ident;
    let (impl_generics, ty_generics, where_clause) = item.generics.split_for_impl();
    let mut de_generics = item.generics.clone();
    de_generics.params.insert(0, syn::parse_quote!('__de));
    let (de_impl, _, _) = de_generics.split_for_impl();
    // A derive of the user's own keeps its impl.
    let ser = (!derived.iter().any(|d| d == "Serialize")).then(|| {
        quote! {
            impl #impl_generics #private::serde::Serialize for #ident #ty_generics #where_clause {
                fn serialize<__S>(&self, _: __S) -> ::core::result::Result<__S::Ok, __S::Error>
                where
                    __S: #private::serde::Serializer,
                {
                    ::core::unreachable!()
                }
            }
        }
    });
    let de = (!derived.iter().any(|d| d == "Deserialize")).then(|| {
        quote! {
            impl #de_impl #private::serde::Deserialize<'__de> for #ident #ty_generics #where_clause {
                fn deserialize<__D>(_: __D) -> ::core::result::Result<Self, __D::Error>
                where
                    __D: #private::serde::Deserializer<'__de>,
                {
                    ::core::unreachable!()
                }
            }
        }
    });
    quote! {
        #[doc(hidden)]
        #[allow(unreachable_code, clippy::all, clippy::pedantic)]
        const _: () = {
            #ser
            #de
        };
    }
}

fn generate(cont: &Container) -> TokenStream {
    let private = private();
    let item = cont.item;
    let ident = &item.ident;
    let vis = &item.vis;
    // `#[serde(rename = "...")]` names the enum in messages and to formats.
    let name = cont.serde_name();
    let (_, ty_generics, where_clause) = item.generics.split_for_impl();

    // The twin: the same variants and fields with only their serde attributes.
    let twin = format_ident!("__{}Twin", ident);
    let remote = ident.to_string();
    let serde_path = "::json_subtypes::__private::serde";
    let mut container_serde: Vec<Attribute> = item
        .attrs
        .iter()
        .filter(|a| serde_attr::is_serde(a))
        .cloned()
        .collect();
    // `#[json_subtypes(rename_all_fields = ...)]` is serde's key: the twin
    // gets it as serde's.
    if let Some(rule) = &cont.attrs.rename_all_fields {
        let rule = &rule.value;
        container_serde.push(syn::parse_quote!(#[serde(rename_all_fields = #rule)]));
    }
    let apart = cont.apart_form();
    let twin_variants: Vec<syn::Variant> = item
        .variants
        .iter()
        .zip(&cont.variants)
        .map(|(v, ours)| {
            let mut v = v.clone();
            v.attrs.retain(serde_attr::is_serde);
            v.attrs = v.attrs.iter().map(serde_attr::readable_in_twin).collect();
            // In the external and adjacent forms the twin writes the
            // variant's name: its tag.
            if let (Some(_), Some(TagValue::Str(tag))) =
                (apart, ours.tags.first().map(|t| &t.value))
            {
                v.attrs.push(syn::parse_quote!(#[serde(rename = #tag)]));
            }
            for field in &mut v.fields {
                field.attrs.retain(serde_attr::is_serde);
                field.vis = syn::Visibility::Inherited;
            }
            v
        })
        .collect();
    let generics = &item.generics;

    let tables = match (&cont.attrs.tag_type, cont.is_presence()) {
        (_, true) => presence_tables(cont),
        (Some(ty), false) => typed_tables(cont, &ty.value),
        (None, false) => literal_tables(cont),
    };
    let key = match cont.tag_key() {
        Some(key) => quote!(::core::option::Option::Some(#key)),
        None => quote!(::core::option::Option::None),
    };
    let fallback = match cont.fallback() {
        Some(index) => {
            let index = index as u32;
            quote!(::core::option::Option::Some(#index))
        }
        None => quote!(::core::option::Option::None),
    };
    let twin_rename = if cont.serde.has(Key::Rename) {
        quote!()
    } else {
        quote!(, rename = #name)
    };
    let expecting = (cont.serde.expecting.get(false))
        .map(|text| quote!(expecting: ::core::option::Option::Some(#text),));
    let first_match = cont.attrs.first_match.is_some();
    let has_nested = cont.variants.iter().any(|v| v.is_nested());
    let max_depth = cont.attrs.max_depth.as_ref().map_or(128, |d| d.value);
    // Only what the enum sets: the defaults live in the runtime.
    let max_buffer = cont.attrs.max_buffer.as_ref().map(|m| {
        let bytes = m.value as usize;
        quote!(max_buffer: ::core::option::Option::Some(#bytes),)
    });
    // `as_map`: read with `deserialize_map`, each tag with the one request
    // every tag's kind allows, and written through `AsMap`.
    let as_map = cont.attrs.as_map.as_ref().map(|_| {
        let request = tag_request(cont);
        quote!(
            const AS_MAP: bool = true;
            const TAG_REQUEST: #private::TagRequest = #private::TagRequest::#request;
        )
    });
    let as_map_write = cont
        .attrs
        .as_map
        .as_ref()
        .map(|_| quote!(let __serializer = #private::AsMap(__serializer);));
    // The adjacent form's keys as constants of the enum: its reader then
    // compares each key with constants, as serde's derive does.
    let adjacent = match (&cont.attrs.tag, &cont.attrs.content) {
        (Some(tag), Some(content)) => {
            let (tag, content) = (&tag.value, &content.value);
            let deny = cont.attrs.deny_unknown_fields.is_some() || cont.serde.deny_unknown_fields;
            quote!(const ADJACENT: #private::AdjacentKeys = #private::AdjacentKeys {
                fields: &[#tag, #content],
                deny_unknown_fields: #deny,
            };)
        }
        _ => quote!(),
    };
    let require_tag_first = cont
        .attrs
        .require_tag_first
        .as_ref()
        .map(|_| quote!(require_tag_first: true,));
    // Through the runtime's gate: a compile error at the key unless its
    // `exact_numbers` feature is on.
    let exact_numbers = cont.attrs.exact_numbers.as_ref().map(|key| {
        let span = key.tokens.span();
        quote_spanned!(span=>
            exact_numbers: ::json_subtypes::__private::exact_numbers_gate!(true),
        )
    });
    // Literal tags with nothing to record are read by the walk with the
    // reader every table shares, which calls `__Table`'s lookup.
    let known_tag = (cont.attrs.tag_type.is_none() && !cont.is_presence()).then(|| {
        quote! {
            const KNOWN_TAGS: ::core::option::Option<#private::KnownTags> =
                ::core::option::Option::Some(#private::KnownTags::of::<__Table>());
        }
    });
    let is_nested = has_nested.then(|| {
        quote! {
            #[inline]
            fn is_nested(&self, index: u32) -> bool {
                __is_nested(index)
            }
        }
    });
    // The switches this enum turns off, so that the walk does not compile
    // what it can never need (the defaults are a registry's).
    let mut off = Vec::new();
    if cont.fallback().is_none() && !has_nested && cont.attrs.visible.is_none() {
        off.push(quote!(MAY_KEEP_TAG));
    }
    if cont.tag_key().is_some() {
        off.push(quote!(MAY_BE_PRESENCE));
    }
    if cont.attrs.max_buffer.is_none() {
        off.push(quote!(MAY_LIMIT));
    }
    if cont.attrs.require_tag_first.is_none() {
        off.push(quote!(MAY_REQUIRE_TAG_FIRST));
    }
    if !has_nested {
        off.push(quote!(MAY_NEST));
    }
    let exact = cont.attrs.exact_numbers.as_ref().map(|_| {
        quote!(
            const MAY_BE_EXACT: bool = true;
        )
    });
    // In the external and adjacent forms a variant is named by its string
    // tag, as the twin writes it (see `twin_variants`): the name the format
    // is told when the variant is read back must be the one it was told when
    // written.
    let variant_names =
        cont.variants.iter().map(
            |v| match (cont.apart_form(), v.tags.first().map(|t| &t.value)) {
                (Some(_), Some(TagValue::Str(tag))) => tag.clone(),
                _ => v.ident().to_string(),
            },
        );
    let presence_fields = cont
        .variants
        .iter()
        .flat_map(|v| v.attrs.when_fields.iter())
        .map(|lit| lit.value());

    let ser_generics = bound::with_predicates(
        generics,
        bound::predicates(
            cont,
            Direction::Serialize,
            quote!(#private::serde::Serialize),
        ),
    );
    let (ser_impl, _, ser_where) = ser_generics.split_for_impl();
    let de_generics = bound::with_predicates(
        &bound::with_de_lifetime(cont),
        bound::predicates(
            cont,
            Direction::Deserialize,
            quote!(#private::serde::Deserialize<'__de>),
        ),
    );
    // A plain `nested` variant is built through its child's `Enum`.
    let de_generics = bound::with_predicates(
        &de_generics,
        cont.variants
            .iter()
            .filter(|v| v.is_direct_nested())
            .filter_map(|v| v.payload())
            .map(|ty| syn::parse_quote!(#ty: #private::Enum<'__de>))
            .collect(),
    );
    let (de_impl, _, de_where) = de_generics.split_for_impl();
    let (build_head, build_tagged) = match apart {
        None => resolved_builds(cont),
        Some(_) => (quote!(), quote!()),
    };
    let fallback_check = fallback_check(cont);
    // `visible`: only an enum that says so gets these.
    let visible_indexes = visible_indexes(cont);
    let visible = !visible_indexes.is_empty();
    let visible_dispatch = if visible_indexes.is_empty() {
        quote!()
    } else {
        quote! {
            #[inline]
            fn is_visible(&self, index: u32) -> bool {
                __visible(index)
            }
        }
    };
    // `JsonSchema`, kept only when the runtime's `schemars` feature is on.
    let schema = super::schema::generate(cont);
    let one_subtype = super::one_subtype::generate(cont);

    // Without serde attributes that change how a variant's content is read
    // or written, no twin: variants are built and written by the runtime's
    // shared code (`plain_variants.rs`), which costs far less to compile.
    // The externally and adjacently tagged forms are still written by
    // serde's derive (see `Apart`), but read the same way.
    let lean = Lean::of(cont, &name);
    let serde_twin = |derives: TokenStream| {
        quote! {
            #[derive(#derives)]
            #[serde(crate = #serde_path, remote = #remote #twin_rename)]
            #(#container_serde)*
            #[allow(dead_code, deprecated, non_camel_case_types, clippy::all, clippy::pedantic)]
            enum #twin #generics #where_clause {
                #(#twin_variants,)*
            }
        }
    };
    let (twin_item, write_body, build_body) = match (lean, apart) {
        (Some(lean), None) => {
            let (shapes, metas) = (lean.shapes, lean.metas);
            (quote!(#shapes #metas), lean.write, lean.build)
        }
        (Some(lean), Some(_)) => {
            // Only the external form writes with this twin (the adjacent
            // form has a writer of its own); neither reads with it.
            let writer = match cont.attrs.external {
                Some(_) => serde_twin(quote!(#private::serde::Serialize)),
                None => quote!(),
            };
            let shapes = lean.shapes;
            (quote!(#shapes #writer), quote!(), lean.build)
        }
        (None, _) => (
            serde_twin(quote!(#private::serde::Serialize, #private::serde::Deserialize)),
            quote!(#twin::serialize(self, #private::TaggedSerializer::<_, __Table>::new(__serializer))),
            quote!(#twin::deserialize(#private::VariantDeserializer::new(__index, __payload))),
        ),
    };
    let (twin_item, write_body, read_body) = match apart {
        None => (
            twin_item,
            write_body,
            quote!(#private::deserialize::<Self, __D>(__deserializer)),
        ),
        Some(_) => {
            let apart = Apart::of(cont, &twin, &twin_variants, &container_serde, &twin_rename);
            let writer = apart.writer;
            (quote!(#twin_item #writer), apart.write, apart.read)
        }
    };

    quote! {
        #[doc(hidden)]
        #[allow(deprecated, non_upper_case_globals, unused_attributes, unused_qualifications, clippy::all, clippy::pedantic)]
        const _: () = {
            #twin_item

            #tables

            #[automatically_derived]
            impl #ser_impl #private::serde::Serialize for #ident #ty_generics #ser_where {
                fn serialize<__S>(&self, __serializer: __S) -> ::core::result::Result<__S::Ok, __S::Error>
                where
                    __S: #private::serde::Serializer,
                {
                    #as_map_write
                    #write_body
                }
            }

            #[automatically_derived]
            impl #de_impl #private::serde::Deserialize<'__de> for #ident #ty_generics #de_where {
                fn deserialize<__D>(__deserializer: __D) -> ::core::result::Result<Self, __D::Error>
                where
                    __D: #private::serde::Deserializer<'__de>,
                {
                    #read_body
                }
            }

            const __SETTINGS: #private::Settings = #private::Settings {
                fallback: #fallback,
                first_match: #first_match,
                nested: #has_nested,
                visible: #visible,
                max_depth: #max_depth,
                #max_buffer
                #require_tag_first
                #exact_numbers
                #expecting
                ..#private::Settings::new(#key, #name)
            };

            /// The enum's set of subtypes, as the engine reads it: as
            /// visible as the enum, which names it in `Enum`.
            #vis struct __Subtypes #generics (::core::marker::PhantomData<fn() -> #ident #ty_generics>) #where_clause;

            #[automatically_derived]
            impl #de_impl #private::Enum<'__de> for #ident #ty_generics #de_where {
                type Subtypes = __Subtypes #ty_generics;
                const SUBTYPES: __Subtypes #ty_generics = __Subtypes(::core::marker::PhantomData);
                #build_tagged
            }

            #[automatically_derived]
            impl #de_impl #private::Subtypes<'__de> for __Subtypes #ty_generics #de_where {
                type Value = #ident #ty_generics;
                const VARIANTS: &'static [&'static str] = &[#(#variant_names),*];
                const FIELDS: &'static [&'static str] = &[#(#presence_fields),*];
                const TAG_IS_VARIANT: bool = true;
                #as_map
                #adjacent
                #(const #off: bool = false;)*
                #exact

                #[inline]
                fn settings(&self) -> &#private::Settings {
                    &__SETTINGS
                }

                #is_nested

                #[inline]
                fn read_tag<__D>(
                    &self,
                    __tag: __D,
                    __sink: ::core::option::Option<#private::TagSink<'_, '__de>>,
                ) -> ::core::result::Result<::core::option::Option<u32>, __D::Error>
                where
                    __D: #private::serde::Deserializer<'__de>,
                {
                    __read_tag(__tag, __sink)
                }

                #known_tag

                #[inline]
                fn presence(&self, __field: &str) -> u128 {
                    __presence(__field)
                }

                #[inline]
                fn build<__P>(&self, __index: u32, __payload: __P) -> ::core::result::Result<#ident #ty_generics, <__P as #private::serde::Deserializer<'__de>>::Error>
                where
                    __P: #private::Payload<'__de>,
                {
                    #build_body
                }

                #build_head
                #visible_dispatch
            }

            #schema
            #one_subtype

            #fallback_check
        };
    }
}

/// A fallback's payload receives the whole object: one that serde reads
/// only from a scalar or a sequence is a compile error at the payload's
/// type, decided by the type system (see the runtime's `fallback.rs`).
fn fallback_check(cont: &Container) -> TokenStream {
    let Some(ty) = cont.fallback().and_then(|i| cont.variants[i].payload()) else {
        return quote!();
    };
    let private = private();
    let (impl_generics, _, where_clause) = cont.item.generics.split_for_impl();
    // The error points at the payload type (its first token, on stable).
    let probe = quote_spanned! {ty.span()=>
        #private::fallback_holds::<#ty, _>((&&&#private::FallbackProbe::<#ty>::NEW).holds())
    };
    quote! {
        #[allow(dead_code)]
        fn __fallback_holds_object #impl_generics () #where_clause {
            #[allow(unused_imports)]
            use #private::{ProbeAny as _, ProbeNotAMap as _};
            #probe;
        }
    }
}

/// Literal tags: a tag read by an enclosing level (`Enum::build_tagged`)
/// or by this one for a `nested` child (`Subtypes::build_head`) is resolved
/// down to its variant and built from the same rest of the object, with no
/// second walk.
fn resolved_builds(cont: &Container) -> (TokenStream, TokenStream) {
    if cont.attrs.tag_type.is_some() || cont.is_presence() {
        return (quote!(), quote!());
    }
    let private = private();
    let enum_ident = cont.ident();
    let direct = cont
        .variants
        .iter()
        .enumerate()
        .filter(|(_, v)| v.is_direct_nested())
        .filter_map(|(index, v)| {
            let index = index as u32;
            let ident = v.ident();
            let ty = v.payload()?;
            Some(quote! {
                #index => <#ty as #private::Enum<'__de>>::build_tagged(__head, __payload)
                    .map(#enum_ident::#ident),
            })
        })
        .collect::<Vec<_>>();
    let build_head = if direct.is_empty() {
        quote!()
    } else {
        quote! {
            #[inline]
            fn build_head<__P>(
                &self,
                __index: u32,
                __head: #private::HeadValue<'__de>,
                __payload: __P,
            ) -> ::core::result::Result<Self::Value, <__P as #private::serde::Deserializer<'__de>>::Error>
            where
                __P: #private::Payload<'__de>,
            {
                match __index {
                    #(#direct)*
                    _ => #private::build_head_first(self, __index, __head, __payload),
                }
            }
        }
    };
    if cont.attrs.visible.is_some() {
        // A visible payload reads the tag entry too: the default
        // `build_tagged` hands it over again before the rest.
        return (build_head, quote!());
    }
    let build_tagged = quote! {
        #[inline]
        fn build_tagged<__P>(
            __head: #private::HeadValue<'__de>,
            __payload: __P,
        ) -> ::core::result::Result<Self, <__P as #private::serde::Deserializer<'__de>>::Error>
        where
            __P: #private::Payload<'__de>,
        {
            let __subtypes = <Self as #private::Enum<'__de>>::SUBTYPES;
            match __lookup(__head.found(), 0) {
                ::core::option::Option::Some(__index) if <__Table as #private::LiteralTable>::is_nested(__index) => {
                    #private::Subtypes::build_head(&__subtypes, __index, __head, __payload)
                }
                ::core::option::Option::Some(__index) => {
                    #private::Subtypes::build(&__subtypes, __index, __payload)
                }
                // Only a tag this enum claims reaches it; anything else is
                // read the long way, which reports it.
                ::core::option::Option::None => #private::deserialize::<Self, _>(
                    #private::HeadFirst::new(__head, <Self as #private::Claims>::KEY, __payload),
                ),
            }
        }
    };
    (build_head, build_tagged)
}

/// The longest struct variant the runtime's `FieldTuple` takes (its tuple
/// impls in `plain_variants.rs`); a longer one keeps the twin.
const MAX_FIELDS: usize = 16;

/// The expansion without a twin: a `StructShape` per struct variant (read
/// and written), a `NewtypeVariant` per newtype variant (written), and the
/// bodies of `Serialize::serialize` and `Subtypes::build`.
struct Lean {
    shapes: TokenStream,
    metas: TokenStream,
    write: TokenStream,
    build: TokenStream,
}

impl Lean {
    /// `None` when some serde attribute, a generic parameter or a long
    /// struct variant needs serde's derive.
    fn of(cont: &Container, name: &str) -> Option<Lean> {
        let plain_enum = cont.item.generics.params.is_empty()
            // Ours is serde's `rename_all_fields`.
            && cont.attrs.rename_all_fields.is_none()
            && cont.serde.given.iter().all(|g| {
                (g.key == Key::Rename && g.which == Which::Both)
                    || g.key == Key::Expecting
                    || g.key == Key::DenyUnknownFields
            });
        // A field may only be renamed, the same way both ways.
        let plain_variant = |v: &crate::ast::Variant| {
            v.serde.is_empty()
                && match v.style {
                    Style::Unit | Style::Newtype => v.field_serde.iter().all(SerdeAttrs::is_empty),
                    Style::Struct => {
                        v.field_serde.len() <= MAX_FIELDS
                            && v.field_serde.iter().all(|f| {
                                f.given
                                    .iter()
                                    .all(|g| g.key == Key::Rename && g.which == Which::Both)
                                    && f.given.len() == f.names.len()
                            })
                    }
                    Style::Tuple => false,
                }
        };
        if !plain_enum || !cont.variants.iter().all(plain_variant) {
            return None;
        }
        let private = private();
        let owner_ident = cont.ident();
        let deny = cont.serde.deny_unknown_fields;
        let mut shapes = Vec::new();
        let mut metas = Vec::new();
        let mut writes = Vec::new();
        let mut builds = Vec::new();
        for (index, v) in cont.variants.iter().enumerate() {
            let index = index as u32;
            let ident = v.ident();
            // serde's name of the variant, which the twin would hand over.
            let written = ident.unraw().to_string();
            match v.style {
                Style::Unit => {
                    writes.push(quote!(Self::#ident => __s.unit(#name, #index),));
                    builds.push(
                        quote!(#index => #private::serde::de::VariantAccess::unit_variant(__payload).map(|()| #owner_ident::#ident),),
                    );
                }
                Style::Newtype => {
                    // An element of a constant: a write carries one pointer
                    // for the variant, and its fields its position. The tag
                    // is there if it is a string (for `Tagging::STR_TAGS`).
                    // Unsuffixed: a `u32` in the constant, a `usize` index.
                    let slot = proc_macro2::Literal::usize_unsuffixed(metas.len());
                    let tag = match v.tags.first().map(|t| &t.value) {
                        Some(TagValue::Str(s)) if !v.is_fallback() && !v.is_nested() => s.clone(),
                        _ => String::new(),
                    };
                    metas.push(quote! {
                        #private::NewtypeVariant::new::<__Table>(#name, #index, #slot, #written, #tag)
                    });
                    writes.push(quote! {
                        Self::#ident(__v) => __s.newtype(
                            &__NEWTYPES[#slot],
                            __v,
                        ),
                    });
                    builds.push(
                        quote!(#index => #private::serde::de::VariantAccess::newtype_variant(__payload).map(#owner_ident::#ident),),
                    );
                }
                Style::Struct => {
                    let shape = format_ident!("__SHAPE{}", index);
                    let idents: Vec<&syn::Ident> = v
                        .original
                        .fields
                        .iter()
                        .filter_map(|f| f.ident.as_ref())
                        .collect();
                    let names: Vec<String> = v
                        .fields()
                        .map(|(f, serde)| match serde.names.first() {
                            Some(name) => name.lit.value(),
                            None => f.ident.as_ref().unwrap().unraw().to_string(),
                        })
                        .collect();
                    // Bound under names of ours: a field may be called
                    // like the serializer's variable.
                    let bindings: Vec<syn::Ident> = (0..idents.len())
                        .map(|i| format_ident!("__field{}", i))
                        .collect();
                    let positions = 0..names.len();
                    let unknown = names.len();
                    let owner = cont.ident().to_string();
                    let variant = ident.to_string();
                    // A named function: a closure coerced to a function
                    // pointer is called through a shim. Not `__field{i}`,
                    // the writer's bindings.
                    let field = format_ident!("__key{}", index);
                    shapes.push(quote! {
                        fn #field(__k: &str) -> usize {
                            match __k {
                                #(#names => #positions,)*
                                _ => #unknown,
                            }
                        }
                        const #shape: #private::StructShape =
                            #private::StructShape::new(#owner, #variant, &[#(#names),*], #deny, #field);
                    });
                    writes.push(quote! {
                        Self::#ident { #(#idents: #bindings),* } => __s.fields(#name, #index, #written, &#shape, (#(#bindings,)*)),
                    });
                    builds.push(quote! {
                        #index => #private::fields(__payload, &#shape).map(|(#(#idents,)*)| #owner_ident::#ident { #(#idents),* }),
                    });
                }
                Style::Tuple => unreachable!("tuple variants keep the twin"),
            }
        }
        Some(Lean {
            shapes: quote!(#(#shapes)*),
            metas: if metas.is_empty() {
                quote!()
            } else {
                quote! {
                    const __NEWTYPES: &[#private::NewtypeVariant] = &[#(#metas),*];
                    impl #private::Newtypes for __Table {
                        const NEWTYPES: &'static [#private::NewtypeVariant] = __NEWTYPES;
                    }
                }
            },
            write: quote! {
                let __s = #private::TaggedSerializer::<_, __Table>::new(__serializer);
                match self {
                    #(#writes)*
                }
            },
            build: quote! {
                match __index {
                    #(#builds)*
                    _ => #private::no_variant(__index),
                }
            },
        })
    }
}

/// The externally and adjacently tagged forms: written by serde's derive
/// (the twin in the external form, a second twin with serde's `tag` and
/// `content` in the adjacent one), the fallback's payload written as it
/// is; read by the runtime as serde reads them, the variant's content by
/// the twin.
struct Apart {
    /// The adjacent form's writing twin.
    writer: TokenStream,
    write: TokenStream,
    read: TokenStream,
}

impl Apart {
    fn of(
        cont: &Container,
        twin: &syn::Ident,
        twin_variants: &[syn::Variant],
        container_serde: &[Attribute],
        twin_rename: &TokenStream,
    ) -> Apart {
        let private = private();
        let item = cont.item;
        let generics = &item.generics;
        let where_clause = &generics.where_clause;
        let remote = item.ident.to_string();
        let serde_path = "::json_subtypes::__private::serde";
        let (writer, writer_ident, read) = match (&cont.attrs.tag, &cont.attrs.content) {
            (Some(tag), Some(content)) => {
                let writer_ident = format_ident!("__{}Adjacent", item.ident);
                let (tag, content) = (&tag.value, &content.value);
                (
                    quote! {
                        #[derive(#private::serde::Serialize)]
                        #[serde(crate = #serde_path, remote = #remote #twin_rename, tag = #tag, content = #content)]
                        #(#container_serde)*
                        #[allow(dead_code, deprecated, non_camel_case_types, clippy::all, clippy::pedantic)]
                        enum #writer_ident #generics #where_clause {
                            #(#twin_variants,)*
                        }
                    },
                    writer_ident,
                    quote!(#private::deserialize_adjacent::<Self, __D>(__deserializer)),
                )
            }
            _ => (
                quote!(),
                twin.clone(),
                quote!(#private::deserialize_external::<Self, __D>(__deserializer)),
            ),
        };
        let write = match cont.fallback() {
            Some(index) => {
                let fallback = cont.variants[index].ident();
                quote! {
                    match self {
                        Self::#fallback(__payload) => #private::serde::Serialize::serialize(__payload, __serializer),
                        _ => #writer_ident::serialize(self, __serializer),
                    }
                }
            }
            None => quote!(#writer_ident::serialize(self, __serializer)),
        };
        Apart {
            writer,
            write,
            read,
        }
    }
}

/// The one request every tag and alias of `cont` is read with under
/// `as_map`, as the runtime's `TagRequest::of` finds it for a registry.
pub(super) fn tag_request(cont: &Container) -> proc_macro2::Ident {
    let mut kinds = cont
        .variants
        .iter()
        .flat_map(|v| &v.tags)
        .map(|t| match t.value {
            TagValue::Str(_) => "Str",
            TagValue::U64(_) => "U64",
            TagValue::I64(_) => "I64",
            TagValue::Bool(_) => "Bool",
            TagValue::Typed(_) => "Any",
        });
    let first = kinds.next().unwrap_or("Str");
    let all = kinds.fold(first, |all, kind| match (all, kind) {
        _ if all == kind => all,
        ("U64" | "I64", "U64" | "I64") => "I64",
        _ => "Any",
    });
    proc_macro2::Ident::new(all, proc_macro2::Span::call_site())
}
