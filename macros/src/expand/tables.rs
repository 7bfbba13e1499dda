//! The tag tables of an enum: how each variant's tag is found on read
//! (literal, `tag_type` and presence tables) and written (`Tagging::tag`).

use std::collections::BTreeMap;

use proc_macro2::TokenStream;
use quote::quote;

use super::private;
use crate::ast::{Container, Style};
use crate::attr::TagValue;

/// Above this many string tags `__lookup` reads them by length and
/// `u64` chunks (`chunked_strings`); at or below it the plain `&str`
/// match is as fast and its expansion stays as it was.
const CHUNKED_ABOVE: usize = 16;

fn literal(value: &TagValue) -> TokenStream {
    let private = private();
    value_of(quote!(#private::Literal), value)
}

fn found_pattern(value: &TagValue) -> TokenStream {
    let private = private();
    value_of(quote!(#private::Found), value)
}

/// `Literal::Str("dog")`, `Found::I64(3)`, ...: the two tag value types
/// have the same variants.
fn value_of(ty: TokenStream, value: &TagValue) -> TokenStream {
    match value {
        TagValue::Typed(_) => unreachable!("typed tags are not literals"),
        TagValue::Str(s) => quote!(#ty::Str(#s)),
        TagValue::I64(v) => quote!(#ty::I64(#v)),
        TagValue::U64(v) => quote!(#ty::U64(#v)),
        TagValue::Bool(v) => quote!(#ty::Bool(#v)),
    }
}

/// `__private::str_chunk(tag, i)` for every chunk of a tag, computed here so
/// the generated `match` compares constants.
fn chunks(tag: &str) -> Vec<u64> {
    tag.as_bytes()
        .chunks(8)
        .map(|bytes| {
            let mut chunk = [0u8; 8];
            chunk[..bytes.len()].copy_from_slice(bytes);
            u64::from_le_bytes(chunk)
        })
        .collect()
}

/// The variant of string `__s` among `tags` (tag, variant index), as an
/// `Option<u32>` expression: a `match` on the length, then, within a
/// length, on the tuple of the string's `u64` chunks. rustc compiles a
/// `&str` match into one length-and-`memcmp` test per arm, passed in turn;
/// integer matches become jump tables or binary searches, so the cost no
/// longer grows with the number of tags.
fn chunked_strings(tags: &[(&str, u32)]) -> TokenStream {
    let private = private();
    let mut by_len: BTreeMap<usize, Vec<(&str, u32)>> = BTreeMap::new();
    for &(tag, index) in tags {
        let same_len = by_len.entry(tag.len()).or_default();
        // `check_unique_tags` reports a duplicate; the first still wins, as
        // in the plain match, and no pattern is unreachable.
        if same_len.iter().all(|(t, _)| *t != tag) {
            same_len.push((tag, index));
        }
    }
    let len_arms = by_len.iter().map(|(len, same_len)| {
        let body = if *len == 0 {
            let index = same_len[0].1;
            quote!(::core::option::Option::Some(#index))
        } else {
            let reads = (0..len.div_ceil(8)).map(|i| quote!(#private::str_chunk(__s, #i)));
            let arms = same_len.iter().map(|(tag, index)| {
                let chunks = chunks(tag).into_iter().map(|c| {
                    syn::LitInt::new(&format!("{c:#018x}"), proc_macro2::Span::call_site())
                });
                quote!((#(#chunks,)*) => ::core::option::Option::Some(#index),)
            });
            quote! {
                match (#(#reads,)*) {
                    #(#arms)*
                    _ => ::core::option::Option::None,
                }
            }
        };
        quote!(#len => #body,)
    });
    quote! {
        match __s.len() {
            #(#len_arms)*
            _ => ::core::option::Option::None,
        }
    }
}

/// `__read_tag`, which the generated `Subtypes` impl calls to read a tag's
/// value: the signature every kind of tag table shares, around `body`.
fn read_tag_fn(attrs: TokenStream, body: TokenStream) -> TokenStream {
    let private = private();
    quote! {
        #attrs
        fn __read_tag<'__de, __D>(
            __tag: __D,
            __sink: ::core::option::Option<#private::TagSink<'_, '__de>>,
        ) -> ::core::result::Result<::core::option::Option<u32>, __D::Error>
        where
            __D: #private::serde::Deserializer<'__de>,
        {
            #body
        }
    }
}

/// `Tagging::tag`: the tag of each variant, `None` for the fallback.
fn tag_arms(cont: &Container, value: impl Fn(&crate::ast::Variant) -> TokenStream) -> TokenStream {
    let arms = cont.variants.iter().enumerate().map(|(index, v)| {
        let index = index as u32;
        if v.is_fallback() || v.is_nested() {
            // Written as they are: a nested child writes its own tag.
            quote!(#index => ::core::option::Option::None,)
        } else {
            let value = value(v);
            quote!(#index => ::core::option::Option::Some(#value),)
        }
    });
    // The twin only ever passes indexes of real variants.
    quote! {
        match index {
            #(#arms)*
            _ => ::core::option::Option::None,
        }
    }
}

/// Literal tags: a `match` for lookup and for writing. Every such enum also
/// implements `Claims`, so it can be a `nested` child.
pub(super) fn literal_tables(cont: &Container) -> TokenStream {
    let private = private();
    let key = cont.tag_key().unwrap_or_default();
    let name = cont.ident().to_string();
    let all_tags = cont
        .variants
        .iter()
        .filter(|v| v.is_readable())
        .flat_map(|v| v.tags.iter().map(|t| literal(&t.value)));
    let tagged: Vec<(u32, &crate::ast::Variant)> = cont
        .variants
        .iter()
        .enumerate()
        .filter(|(_, v)| !v.tags.is_empty() && v.is_readable())
        .map(|(index, v)| (index as u32, v))
        .collect();
    let strings: Vec<(&str, u32)> = tagged
        .iter()
        .flat_map(|(index, v)| {
            v.tags.iter().filter_map(move |t| match &t.value {
                TagValue::Str(s) => Some((s.as_str(), *index)),
                _ => None,
            })
        })
        .collect();
    let chunked = strings.len() > CHUNKED_ABOVE;
    // Chunked, the string tags are looked up before this match; only the
    // other kinds stay in it.
    let arms = tagged.iter().filter_map(|(index, v)| {
        let patterns: Vec<TokenStream> = v
            .tags
            .iter()
            .filter(|t| !(chunked && matches!(t.value, TagValue::Str(_))))
            .map(|t| found_pattern(&t.value))
            .collect();
        if patterns.is_empty() {
            return None;
        }
        Some(quote!(#(#patterns)|* => ::core::option::Option::Some(#index),))
    });
    let nested: Vec<(u32, &syn::Type)> = cont
        .variants
        .iter()
        .enumerate()
        .filter(|(_, v)| v.is_nested())
        .filter_map(|(index, v)| Some((index as u32, v.payload()?)))
        .collect();
    // A level resolves its own tags first; only a tag it does not own is
    // offered to its nested children, in declaration order.
    let nested_arms = nested.iter().map(|(index, ty)| {
        quote! {
            __found if <#ty as #private::Claims>::claims(__found, __depth) => {
                ::core::option::Option::Some(#index)
            }
        }
    });
    let owned: Vec<TokenStream> = cont
        .variants
        .iter()
        .filter(|v| v.is_readable())
        .flat_map(|v| {
            let owner = format!("{}::{}", name, v.ident());
            v.tags.iter().map(move |t| {
                let lit = literal(&t.value);
                quote!((#lit, ::std::string::String::from(#owner)))
            })
        })
        .collect();
    let child_tags: Vec<TokenStream> = nested
        .iter()
        .map(|(_, ty)| quote!(<#ty as #private::Claims>::tags(__out, __depth + 1);))
        .collect();
    // `as_map` with negative and positive int tags reads every tag with
    // `deserialize_i64`: each is written as an `i64`, or postcard's and
    // bincode's encodings of the two would differ.
    let signed = cont.attrs.as_map.is_some() && super::enumeration::tag_request(cont) == "I64";
    let tag = tag_arms(cont, |v| match v.tags[0].value {
        TagValue::U64(u) if signed && i64::try_from(u).is_ok() => {
            let i = u as i64;
            quote!(#private::Literal::I64(#i))
        }
        ref value => literal(value),
    });
    // Every written tag a string: each newtype variant's constant holds
    // its tag as `&str` (`NewtypeVariant`).
    let str_tags = cont
        .variants
        .iter()
        .filter(|v| !v.is_fallback() && !v.is_nested() && !v.tags.is_empty())
        .all(|v| matches!(v.tags[0].value, TagValue::Str(_)));
    let tag_str = quote! {
        const STR_TAGS: bool = #str_tags;
    };
    let visible = visible_indexes(cont);
    // A visible field may hold an alias too: it reads back to its variant.
    let alias_arms: Vec<TokenStream> = visible
        .iter()
        .filter_map(|&index| {
            let v = &cont.variants[index as usize];
            let aliases: Vec<TokenStream> =
                v.tags.iter().skip(1).map(|t| literal(&t.value)).collect();
            (!aliases.is_empty()).then(|| quote!(#index => &[#(#aliases),*],))
        })
        .collect();
    let aliases_fn = if alias_arms.is_empty() {
        quote!()
    } else {
        quote! {
            #[inline]
            fn aliases(index: u32) -> &'static [#private::Literal] {
                match index {
                    #(#alias_arms)*
                    _ => &[],
                }
            }
        }
    };
    let (visible_fn, visible_tagging) = if visible.is_empty() {
        (quote!(), quote!())
    } else {
        (
            quote! {
                #[inline]
                fn __visible(index: u32) -> bool {
                    ::core::matches!(index, #(#visible)|*)
                }
            },
            quote! {
                const ANY_VISIBLE: bool = true;

                #[inline]
                fn visible(index: u32) -> bool {
                    __visible(index)
                }

                #aliases_fn
            },
        )
    };
    // serde writes a struct variant that flattens a field as a newtype
    // variant: a key named like the tag there is no field `visible` fixes.
    let flattening: Vec<u32> = cont
        .variants
        .iter()
        .enumerate()
        .filter(|(_, v)| v.style == Style::Struct)
        .filter(|(_, v)| v.field_serde.iter().any(|f| f.flatten))
        .map(|(index, _)| index as u32)
        .collect();
    let flattens_fn = if flattening.is_empty() {
        quote!()
    } else {
        quote! {
            #[inline]
            fn flattens(index: u32) -> bool {
                ::core::matches!(index, #(#flattening)|*)
            }
        }
    };
    let (impl_generics, ty_generics, where_clause) = cont.item.generics.split_for_impl();
    let ident = cont.ident();

    // With nested children, the tag table is checked once, on first use.
    let (nested_items, first_use_check) = if nested.is_empty() {
        (quote!(), quote!())
    } else {
        let indexes = nested.iter().map(|(index, _)| index);
        let child_types = nested.iter().map(|(_, ty)| ty);
        let children = nested.iter().map(
            |(_, ty)| quote!((<#ty as #private::Claims>::KEY, <#ty as #private::Claims>::NAME)),
        );
        let items = quote! {
            fn __is_nested(index: u32) -> bool {
                ::core::matches!(index, #(#indexes)|*)
            }

            /// Tags claimed twice or a child with another key are found once,
            /// on first use, and reported at every use after.
            fn __verify() -> ::core::result::Result<(), ::std::string::String> {
                #(<#child_types as #private::Claims>::verify()?;)*
                let mut __tags = ::std::vec![#(#owned),*];
                __child_tags(&mut __tags, 0);
                #private::check_nested(#key, &[#(#children),*], &__tags)
            }
        };
        let items = quote! {
            #items

            fn __checked() -> &'static ::core::result::Result<(), ::std::string::String> {
                static __CHECKED: ::std::sync::OnceLock<::core::result::Result<(), ::std::string::String>> =
                    ::std::sync::OnceLock::new();
                __CHECKED.get_or_init(__verify)
            }
        };
        let check = quote! {
            if let ::core::result::Result::Err(__e) = __checked() {
                return ::core::result::Result::Err(
                    <__D::Error as #private::serde::de::Error>::custom(__e),
                );
            }
        };
        (items, check)
    };
    let read_tag = read_tag_fn(
        quote!(#[inline]),
        quote! {
            #first_use_check
            #private::read_literal_tag::<__Table, __D>(__tag, __sink)
        },
    );
    let nested_items = quote! {
        #nested_items

        #read_tag
    };
    let claims_verify = if nested.is_empty() {
        quote!()
    } else {
        quote! {
            fn verify() -> ::core::result::Result<(), ::std::string::String> {
                __checked().clone()
            }
        }
    };
    let is_nested_fn = if nested.is_empty() {
        quote!()
    } else {
        quote! {
            #[inline]
            fn is_nested(index: u32) -> bool {
                __is_nested(index)
            }

            fn expected() -> ::std::vec::Vec<#private::Literal> {
                let mut __tags = ::std::vec::Vec::new();
                __child_tags(&mut __tags, 0);
                let mut __out = <Self as #private::LiteralTable>::TAGS.to_vec();
                __out.extend(__tags.into_iter().map(|(__t, _)| __t));
                __out
            }
        }
    };

    let matched = quote! {
        match __found {
            #(#arms)*
            #(#nested_arms)*
            _ => ::core::option::Option::None,
        }
    };
    // A level resolves its own tags, strings included, before any nested
    // child sees the tag: a string it does not own falls through to them.
    let lookup = if chunked {
        let strings = chunked_strings(&strings);
        quote! {
            if let #private::Found::Str(__s) = __found {
                if let ::core::option::Option::Some(__index) = #strings {
                    return ::core::option::Option::Some(__index);
                }
            }
            #matched
        }
    } else {
        matched
    };

    quote! {
        struct __Table;

        #[inline]
        fn __lookup(__found: #private::Found<'_>, __depth: u32) -> ::core::option::Option<u32> {
            #lookup
        }

        #[allow(unused_variables)]
        fn __child_tags(__out: &mut ::std::vec::Vec<(#private::Literal, ::std::string::String)>, __depth: u32) {
            if __depth < #private::MAX_NESTING {
                #(#child_tags)*
            }
        }

        impl #private::LiteralTable for __Table {
            const TAGS: &'static [#private::Literal] = &[#(#all_tags),*];
            const KEY: &'static str = #key;

            #[inline]
            fn lookup(found: #private::Found<'_>) -> ::core::option::Option<u32> {
                __lookup(found, 0)
            }

            #is_nested_fn
        }

        impl #private::Tagging for __Table {
            const KEY: &'static str = #key;
            type Tag = #private::Literal;
            const VISIBLE_FIX: bool = true;

            #[inline]
            fn tag(index: u32) -> ::core::option::Option<#private::Literal> {
                #tag
            }

            #tag_str

            #visible_tagging

            #flattens_fn
        }

        #visible_fn

        impl #impl_generics #private::Claims for #ident #ty_generics #where_clause {
            const KEY: &'static str = #key;
            const NAME: &'static str = #name;

            fn claims(found: #private::Found<'_>, depth: u32) -> bool {
                depth < #private::MAX_NESTING && __lookup(found, depth + 1).is_some()
            }

            fn tags(out: &mut ::std::vec::Vec<(#private::Literal, ::std::string::String)>, depth: u32) {
                out.extend([#(#owned),*]);
                __child_tags(out, depth);
            }

            #claims_verify
        }

        #nested_items

        #[inline]
        fn __presence(_: &str) -> u128 {
            0
        }
    }
}

/// `tag_type` tags: read through the type's `Deserialize`, compared with
/// `PartialEq` in declaration order, written through its `Serialize`.
pub(super) fn typed_tables(cont: &Container, ty: &syn::Type) -> TokenStream {
    let private = private();
    let key = cont.tag_key().unwrap_or_default();
    let checks = cont
        .variants
        .iter()
        .enumerate()
        .filter(|(_, v)| v.is_readable())
        .flat_map(|(index, v)| {
            let index = index as u32;
            v.tags.iter().map(move |t| {
                let value = &t.tokens;
                quote! {
                    if *__found == (#value) {
                        return ::core::option::Option::Some(#index);
                    }
                }
            })
        });
    let all_tags = cont
        .variants
        .iter()
        .filter(|v| v.is_readable())
        .flat_map(|v| v.tags.iter().map(|t| &t.tokens));
    let tag = tag_arms(cont, |v| v.tags[0].tokens.clone());
    let read_tag = read_tag_fn(
        quote!(),
        quote! {
            #private::read_typed_tag::<#ty, __D>(
                __tag,
                __sink,
                |__found: &#ty| {
                    #(#checks)*
                    ::core::option::Option::None
                },
                || ::std::vec![#(#all_tags),*],
            )
        },
    );
    quote! {
        struct __Table;

        impl #private::Tagging for __Table {
            const KEY: &'static str = #key;
            type Tag = #ty;

            #[inline]
            fn tag(index: u32) -> ::core::option::Option<#ty> {
                #tag
            }
        }

        #read_tag

        #[inline]
        fn __presence(_: &str) -> u128 {
            0
        }
    }
}

/// Presence mode: a `match` from field name to the set of variants that
/// list it; nothing is ever tagged.
pub(super) fn presence_tables(cont: &Container) -> TokenStream {
    let private = private();
    let mut owners: Vec<(String, u128)> = Vec::new();
    for (index, variant) in cont.variants.iter().enumerate() {
        if !variant.is_readable() {
            continue;
        }
        for field in &variant.attrs.when_fields {
            let bit = 1u128 << (index as u32 % 128);
            match owners.iter_mut().find(|(f, _)| *f == field.value()) {
                Some((_, set)) => *set |= bit,
                None => owners.push((field.value(), bit)),
            }
        }
    }
    let arms = owners.iter().map(|(field, set)| quote!(#field => #set,));
    quote! {
        struct __Table;

        impl #private::Tagging for __Table {
            const KEY: &'static str = "";
            type Tag = ();

            #[inline]
            fn tag(_: u32) -> ::core::option::Option<()> {
                ::core::option::Option::None
            }
        }

        fn __read_tag<'__de, __D>(
            _: __D,
            _: ::core::option::Option<#private::TagSink<'_, '__de>>,
        ) -> ::core::result::Result<::core::option::Option<u32>, __D::Error>
        where
            __D: #private::serde::Deserializer<'__de>,
        {
            // Presence mode never sees a tag key.
            ::core::result::Result::Ok(::core::option::Option::None)
        }

        #[inline]
        fn __presence(field: &str) -> u128 {
            match field {
                #(#arms)*
                _ => 0,
            }
        }
    }
}

/// The indexes of the variants whose payload reads and writes the tag
/// (`visible`).
pub(super) fn visible_indexes(cont: &Container) -> Vec<u32> {
    cont.variants
        .iter()
        .enumerate()
        .filter(|(_, v)| v.visible)
        .map(|(index, _)| index as u32)
        .collect()
}

#[cfg(test)]
mod tests {
    use quote::{format_ident, quote};

    /// The expansion of an enum with `tags` string tags.
    fn expansion(tags: usize) -> String {
        let variants = (0..tags).map(|i| {
            let name = format!("kind_{i:03}");
            let variant = format_ident!("V{i}");
            quote!(#[json_subtypes(name = #name)] #variant(Dog),)
        });
        let item = syn::parse2(quote!(enum E { #(#variants)* })).unwrap();
        // The attribute forwards the enum to the derive, which expands it.
        let forwarded = crate::expand::expand(quote!(tag = "type"), item);
        crate::expand::derive_enum(syn::parse2(forwarded).unwrap()).to_string()
    }

    #[test]
    fn up_to_sixteen_string_tags_keep_the_str_match() {
        let out = expansion(super::CHUNKED_ABOVE);
        assert!(out.contains(r#"Found :: Str ("kind_015") =>"#), "{out}");
        assert!(!out.contains("str_chunk"), "{out}");
    }

    #[test]
    fn more_string_tags_match_length_then_chunks() {
        let out = expansion(super::CHUNKED_ABOVE + 1);
        assert!(!out.contains(r#"Found :: Str ("kind_"#), "{out}");
        // "kind_016" is one chunk: the bytes little-endian.
        let chunk = format!("{:#018x}", u64::from_le_bytes(*b"kind_016"));
        assert!(out.contains(&format!("({chunk} ,) =>")), "{out}");
        assert!(out.contains("match __s . len () { 8usize =>"), "{out}");
    }
}
