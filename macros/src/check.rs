//! One `check_*` per rule. Each records errors in the context and never
//! stops the others from running.

use std::collections::HashMap;

use quote::ToTokens;

use crate::ast::{Container, Impl, Registration, Style, Trait};
use crate::attr::{ContainerAttrs, InstanceAttr, TagValue};
use crate::ctx::Ctxt;
use crate::serde_attr::{self, Key};

pub fn check(cx: &Ctxt, cont: &Container) {
    check_tag_present(cx, cont);
    check_has_variants(cx, cont);
    check_one_fallback(cx, cont);
    check_fallback_has_no_tag(cx, cont);
    check_when_field_needs_presence(cx, cont);
    check_presence_variants(cx, cont);
    check_first_match_needs_presence(cx, cont);
    check_schema_is_for_traits(cx, cont);
    check_compiled_is_for_traits(cx, cont);
    check_nested_variants(cx, cont);
    check_newtype_of_itself(cx, cont);
    check_variant_styles(cx, cont);
    check_unique_tags(cx, cont);
    check_fields_named_like_tag(cx, cont);
    check_visible(cx, cont);
    check_require_tag_first_needs_tag(cx, &cont.attrs, "enum");
    check_one_buffer_limit(cx, &cont.attrs);
    check_exact_numbers_buffers(cx, &cont.attrs);
    check_container_serde_attrs(cx, cont);
    check_variant_serde_attrs(cx, cont);
    check_enum_representation(cx, cont);
    check_as_map(cx, &cont.attrs);
    check_rename_all_fields_once(cx, cont);
}

/// `rename_all_fields` is serde's key, accepted in `#[json_subtypes]` as
/// in `#[serde]`: given in both, one would be dropped.
fn check_rename_all_fields_once(cx: &Ctxt, cont: &Container) {
    let Some(ours) = &cont.attrs.rename_all_fields else {
        return;
    };
    if cont.serde.has(Key::RenameAllFields) {
        cx.error_spanned_by(
            ours,
            "`rename_all_fields` is given twice, here and in `#[serde(...)]`; keep one",
        );
    }
}

/// Without `tag` the enum is in presence mode, which needs `when_field`s;
/// with neither there is nothing to choose by.
fn check_tag_present(cx: &Ctxt, cont: &Container) {
    // A misspelt key (`tga = ...`) was already reported; do not pile on.
    let any_when_field = cont
        .variants
        .iter()
        .any(|v| !v.attrs.when_fields.is_empty());
    // `external` has its own error (`check_representation_on_enum`).
    let external = cont.attrs.external.is_some();
    if cont.attrs.tag.is_none() && !any_when_field && !cont.attrs.had_unknown_key && !external {
        cx.error_spanned_by(
            cont.ident(),
            "missing tag key; write `#[json_subtypes(tag = \"type\")]`, or pick variants by their fields with `#[json_subtypes(when_field = \"...\")]`",
        );
    }
}

/// One place for everything unknown, or the choice would be arbitrary.
fn check_one_fallback(cx: &Ctxt, cont: &Container) {
    let mut fallbacks = cont
        .variants
        .iter()
        .filter_map(|v| v.attrs.fallback.as_ref());
    let Some(_) = fallbacks.next() else { return };
    for extra in fallbacks {
        cx.error_spanned_by(
            extra,
            "a second fallback variant; keep `fallback` on one variant only",
        );
    }
}

/// A fallback is reached by unknown tags, so it has none of its own.
fn check_fallback_has_no_tag(cx: &Ctxt, cont: &Container) {
    for variant in cont.variants.iter().filter(|v| v.is_fallback()) {
        if let Some(name) = &variant.attrs.name {
            cx.error_spanned_by(
                name,
                "a fallback variant has no tag of its own; remove `name`",
            );
        }
        for alias in &variant.attrs.aliases {
            cx.error_spanned_by(
                alias,
                "a fallback variant has no tag of its own; remove `alias`",
            );
        }
        for field in &variant.attrs.when_fields {
            cx.error_spanned_by(
                field,
                "a fallback variant is what matches nothing; remove `when_field`",
            );
        }
    }
}

/// With a tag, the tag decides; mixing in field presence would make two
/// rules for one choice.
fn check_when_field_needs_presence(cx: &Ctxt, cont: &Container) {
    // The external and adjacent forms have their own message.
    if cont.is_presence() || cont.apart_form().is_some() {
        return;
    }
    for variant in &cont.variants {
        for field in &variant.attrs.when_fields {
            cx.error_spanned_by(
                field,
                "`when_field` picks variants of an enum without `tag`; remove it or remove the enum's `tag`",
            );
        }
    }
}

/// In presence mode every variant but the fallback is found by its fields,
/// and written without a tag.
fn check_presence_variants(cx: &Ctxt, cont: &Container) {
    let any_when_field = cont
        .variants
        .iter()
        .any(|v| !v.attrs.when_fields.is_empty());
    if !cont.is_presence() || !any_when_field {
        return;
    }
    if cont.variants.len() > 128 {
        cx.error_spanned_by(
            cont.ident(),
            "presence mode supports at most 128 variants; split the enum",
        );
    }
    if let Some(tag_type) = &cont.attrs.tag_type {
        cx.error_spanned_by(
            tag_type,
            "`tag_type` needs a `tag`; add `tag = \"...\"` or remove `tag_type`",
        );
    }
    for variant in cont.variants.iter().filter(|v| !v.is_fallback()) {
        // A variant serde does not read is never chosen, and needs no field.
        if variant.attrs.when_fields.is_empty() && variant.is_readable() {
            cx.error_spanned_by(
                variant.ident(),
                "this variant can never be chosen: the enum has no `tag`; add `#[json_subtypes(when_field = \"...\")]` or `fallback`",
            );
        } else if variant.style == Style::Unit {
            cx.error_spanned_by(
                variant.ident(),
                "a unit variant has no fields to be found by; give it a payload or make it the `fallback`",
            );
        }
        for tag in variant.attrs.name.iter().chain(&variant.attrs.aliases) {
            cx.error_spanned_by(
                tag,
                "an enum without `tag` writes no tags; remove `name`/`alias`",
            );
        }
    }
}

fn check_first_match_needs_presence(cx: &Ctxt, cont: &Container) {
    if let (Some(first_match), false) = (&cont.attrs.first_match, cont.is_presence()) {
        cx.error_spanned_by(
            first_match,
            "`first_match` settles ties between `when_field` variants; an enum with a `tag` has none, remove it",
        );
    }
}

/// An enum's variants are known at compile time, so their readers are
/// always compiled for the format; only trait objects choose.
fn check_compiled_is_for_traits(cx: &Ctxt, cont: &Container) {
    if let Some(compiled) = &cont.attrs.compiled {
        cx.error_spanned_by(
            compiled,
            "`compiled` is for traits and impls; an enum's variants are always read by compiled code, remove it",
        );
    }
}

/// An enum's variants are known at compile time, so it always has a schema
/// with the `schemars` feature; only a trait, whose impls are not, opts in.
fn check_schema_is_for_traits(cx: &Ctxt, cont: &Container) {
    if let Some(schema) = &cont.attrs.schema {
        cx.error_spanned_by(
            schema,
            "`schema` is for traits; an enum gets its schema from the `schemars` feature, remove it",
        );
    }
}

/// Reading needs at least one subtype to pick.
fn check_has_variants(cx: &Ctxt, cont: &Container) {
    if cont.variants.is_empty() {
        cx.error_spanned_by(
            cont.ident(),
            "an enum without variants has no subtypes; add a variant per subtype",
        );
    }
}

/// The attribute generates both impls; a derive beside it would conflict.
pub fn check_no_serde_derive(cx: &Ctxt, attrs: &[syn::Attribute]) {
    for path in serde_attr::serde_derives(attrs) {
        let name = path.segments.last().unwrap().ident.to_string();
        cx.error_spanned_by(
            &path,
            format!(
                "`#[json_subtypes]` already implements `{name}`; remove `{name}` from this derive"
            ),
        );
    }
}

/// A tag needs a map to live in: tuple variants with several fields are
/// sequences.
fn check_variant_styles(cx: &Ctxt, cont: &Container) {
    // The external and adjacent forms hold a tuple variant's fields apart
    // from the tag, as serde does.
    if cont.apart_form().is_some() {
        return;
    }
    for variant in &cont.variants {
        if variant.style == Style::Tuple {
            cx.error_spanned_by(
                &variant.original.fields,
                "a tagged variant needs named fields or one payload; use a struct variant or a newtype around a struct",
            );
        }
    }
}

/// Every tag value, aliases included, selects exactly one variant.
fn check_unique_tags(cx: &Ctxt, cont: &Container) {
    let mut seen: HashMap<&TagValue, &syn::Ident> = HashMap::new();
    for variant in &cont.variants {
        for tag in &variant.tags {
            match seen.get(&tag.value) {
                Some(owner) => cx.error_spanned_by(
                    tag,
                    format!(
                        "duplicate subtype tag {} (also the tag of `{owner}`); give each variant its own `name` or `alias`",
                        tag.value.display()
                    ),
                ),
                None => {
                    seen.insert(&tag.value, variant.ident());
                }
            }
        }
    }
}

/// A struct variant field serialized under the tag's name would write the
/// key twice, unless the container says `visible` (the field is the tag).
fn check_fields_named_like_tag(cx: &Ctxt, cont: &Container) {
    // In the adjacent form the fields sit under the content key.
    if cont.apart_form().is_some() {
        return;
    }
    let Some(tag) = cont.tag_key() else { return };
    let visible = cont.attrs.visible.is_some();
    for variant in &cont.variants {
        for field in cont.fields_named(variant, tag) {
            if !visible {
                cx.error_spanned_by(
                    field.tokens,
                    format!(
                        "field named like the tag `{tag}`; add `visible` to `#[json_subtypes(tag = {tag:?})]` so that the field is the tag, or rename the field"
                    ),
                );
            } else if field.alias {
                cx.error_spanned_by(
                    field.tokens,
                    format!(
                        "with `visible`, the field that receives the tag must be written as `{tag}` too; use `rename = \"{tag}\"` instead of an alias"
                    ),
                );
            }
        }
    }
}

/// `visible` hands the tag to a payload field: it needs a tag key, and a
/// literal tag the field's value can be compared with.
fn check_visible(cx: &Ctxt, cont: &Container) {
    let Some(visible) = &cont.attrs.visible else {
        return;
    };
    // The external and adjacent forms have their own message.
    if cont.apart_form().is_some() {
        return;
    }
    if cont.attrs.tag.is_none() && !cont.attrs.had_unknown_key {
        cx.error_spanned_by(
            visible,
            "`visible` hands the tag to a payload field, and this enum has no tag; add `tag = \"...\"` or remove `visible`",
        );
    }
    if let Some(tag_type) = &cont.attrs.tag_type {
        cx.error_spanned_by(
            tag_type,
            "`visible` works with string, integer and bool tags; remove `tag_type` or `visible`",
        );
    }
}

/// `require_tag_first` is about where the tag comes; presence mode has none.
fn check_require_tag_first_needs_tag(cx: &Ctxt, attrs: &ContainerAttrs, what: &str) {
    // The externally tagged form has its own rule (`check_external_buffers_nothing`).
    if attrs.external.is_some() {
        return;
    }
    if let (Some(first), None) = (&attrs.require_tag_first, &attrs.tag) {
        cx.error_spanned_by(
            first,
            format!("`require_tag_first` needs a tag, and this {what} has none (presence mode reads every field to choose); add `tag = \"...\"`, or bound presence mode with `max_buffer` instead"),
        );
    }
}

/// With the tag first nothing is buffered, so a `max_buffer` beside
/// `require_tag_first` would never apply.
fn check_one_buffer_limit(cx: &Ctxt, attrs: &ContainerAttrs) {
    if let (Some(max), Some(_), Some(_)) = (&attrs.max_buffer, &attrs.require_tag_first, &attrs.tag)
    {
        cx.error_spanned_by(
            max,
            "`max_buffer` bounds what is buffered before the tag, and `require_tag_first` lets nothing come before it; remove one",
        );
    }
}

/// `exact_numbers` is about entries buffered before the tag, which
/// `require_tag_first` forbids.
fn check_exact_numbers_buffers(cx: &Ctxt, attrs: &ContainerAttrs) {
    if let (Some(exact), Some(_), Some(_)) =
        (&attrs.exact_numbers, &attrs.require_tag_first, &attrs.tag)
    {
        cx.error_spanned_by(
            exact,
            "`exact_numbers` keeps numbers read before the tag, and `require_tag_first` lets nothing come before it; remove one",
        );
    }
}

/// Container-level serde attributes that would change the enum's wire form
/// conflict with ours; the others pass to serde (see the crate docs' table).
fn check_container_serde_attrs(cx: &Ctxt, cont: &Container) {
    // `rename_all(serialize = ..., deserialize = ...)` is two entries, one mistake.
    let mut reported = std::collections::HashSet::new();
    for entry in &cont.serde.given {
        let key = entry.key;
        if !reported.insert(key) {
            continue;
        }
        let message = match key {
            Key::Tag => conflict(key, "use `#[json_subtypes(tag = \"...\")]`"),
            Key::RenameAll => conflict(key, "use `#[json_subtypes(rename_all = \"...\")]`"),
            Key::Untagged => conflict(
                key,
                "to pick variants by their fields, put `#[json_subtypes(when_field = \"...\")]` on them",
            ),
            Key::Content => conflict(
                key,
                "for the adjacently tagged form write `#[json_subtypes(tag = \"...\", content = \"...\")]`",
            ),
            Key::Remote | Key::From | Key::TryFrom | Key::Into | Key::Transparent | Key::VariantIdentifier
            | Key::FieldIdentifier => {
                conflict(key, "remove it; `#[json_subtypes]` decides the enum's form")
            }
            Key::Default => "`#[serde(default)]` is for structs; put it on the payload struct or on the fields of a struct variant".to_owned(),
            Key::Crate => "`#[serde(crate)]` is not needed: `#[json_subtypes]` reaches serde through `json_subtypes`; remove it".to_owned(),
            _ => continue,
        };
        cx.error_spanned_by(&entry.path, message);
    }
}

fn conflict(key: Key, fix: &str) -> String {
    let key = key.name();
    format!("`#[serde({key})]` conflicts with `#[json_subtypes]`; {fix}")
}

/// Variant-level serde attributes that rename, hide or catch variants
/// would be silently ignored; tags come from `#[json_subtypes(...)]`.
fn check_variant_serde_attrs(cx: &Ctxt, cont: &Container) {
    for variant in &cont.variants {
        // As on the enum: one error per key.
        let mut reported = std::collections::HashSet::new();
        for entry in &variant.serde.given {
            if !reported.insert(entry.key) {
                continue;
            }
            let key = entry.key.name();
            let message = match entry.key {
                Key::Rename => {
                    "`#[serde(rename)]` on a variant; use `#[json_subtypes(name = ...)]`".to_owned()
                }
                Key::Alias => {
                    "`#[serde(alias)]` on a variant; use `#[json_subtypes(alias = ...)]`".to_owned()
                }
                Key::Other | Key::Untagged => format!(
                    "`#[serde({key})]` on a variant; mark the variant that takes what no tag selects `#[json_subtypes(fallback)]`"
                ),
                Key::Skip | Key::SkipDeserializing if variant.is_fallback() => format!(
                    "`#[serde({key})]` on the fallback, which unknown tags read; remove one of the two"
                ),
                Key::Skip | Key::SkipDeserializing if variant.is_nested() => format!(
                    "`#[serde({key})]` on a `nested` variant, whose tags are its child's; remove one of the two"
                ),
                _ => continue,
            };
            cx.error_spanned_by(&entry.path, message);
        }
    }
}

/// A nested variant holds one enum with the same tag key and literal tags,
/// which is not this enum and does not use its type parameters.
fn check_nested_variants(cx: &Ctxt, cont: &Container) {
    for variant in cont.variants.iter().filter(|v| v.is_nested()) {
        let nested = variant.attrs.nested.as_ref().unwrap();
        let Some(payload) = variant.payload() else {
            cx.error_spanned_by(
                nested,
                "`nested` goes on a newtype variant holding the child enum, e.g. `Mammal(Mammal)`",
            );
            continue;
        };
        if cont.is_presence() || cont.attrs.tag_type.is_some() {
            cx.error_spanned_by(
                nested,
                "`nested` needs an enum with a `tag` and literal tags; without `nested`, any payload reads its own tag",
            );
        }
        if variant.is_fallback() {
            cx.error_spanned_by(
                nested,
                "a variant is either `nested` or the `fallback`; remove one",
            );
        }
        for tag in variant.attrs.name.iter().chain(&variant.attrs.aliases) {
            cx.error_spanned_by(
                tag,
                "a `nested` variant's tags are its child's; remove `name`/`alias`",
            );
        }
        let idents = || {
            payload
                .to_token_stream()
                .into_iter()
                .filter_map(|tt| match tt {
                    proc_macro2::TokenTree::Ident(i) => Some(i),
                    _ => None,
                })
        };
        let mentions = |ident: &syn::Ident| idents().any(|i| i == *ident);
        if mentions(cont.ident()) || idents().any(|i| i == "Self") {
            cx.error_spanned_by(payload, "an enum cannot be nested in itself; use a plain newtype variant (e.g. `Box<Self>`) for recursion");
        }
        if let Some(param) = cont
            .item
            .generics
            .type_params()
            .find(|p| mentions(&p.ident))
        {
            cx.error_spanned_by(
                payload,
                format!("a nested enum cannot use the parent's type parameter `{}`; name a concrete type", param.ident),
            );
        }
    }
}

/// A newtype variant holding the enum itself (`Neg(Box<Expr>)`) would write
/// the inner tag into the outer object under the same key: two tags in one
/// object. A struct variant nests it in a field instead.
fn check_newtype_of_itself(cx: &Ctxt, cont: &Container) {
    if cont.is_presence() {
        return;
    }
    for variant in &cont.variants {
        if variant.is_nested() || variant.is_fallback() {
            continue;
        }
        let Some(payload) = variant.payload() else {
            continue;
        };
        if is_self_or_box_of_self(payload, cont.ident()) {
            cx.error_spanned_by(
                payload,
                format!(
                    "a newtype variant holding `{0}` itself would put two tags in one object; use a struct variant such as `{1} {{ arg: Box<{0}> }}`",
                    cont.ident(),
                    variant.ident()
                ),
            );
        }
    }
}

/// `Expr`, `Self`, or `Box`/`Rc`/`Arc` of one of them.
fn is_self_or_box_of_self(ty: &syn::Type, ident: &syn::Ident) -> bool {
    let syn::Type::Path(path) = ty else {
        return false;
    };
    let Some(last) = path.path.segments.last() else {
        return false;
    };
    if last.ident == *ident || last.ident == "Self" {
        return true;
    }
    if !["Box", "Rc", "Arc"].iter().any(|w| last.ident == w) {
        return false;
    }
    match &last.arguments {
        syn::PathArguments::AngleBracketed(args) => args.args.iter().any(|arg| {
            matches!(arg, syn::GenericArgument::Type(inner) if is_self_or_box_of_self(inner, ident))
        }),
        _ => false,
    }
}

/// The rules for `#[json_subtypes(...)]` on a trait: it takes `tag` (or
/// nothing, for presence mode), `content` or `external`, `max_depth`,
/// `max_buffer`, `require_tag_first`, `exact_numbers`, `visible`,
/// `deny_unknown_fields`, `as_map`, `schema` and `compiled`.
pub fn check_trait(cx: &Ctxt, tr: &Trait) {
    check_trait_param_defaults(cx, tr);
    check_trait_assoc_types(cx, tr);
    check_trait_keys(cx, tr);
    check_trait_visible(cx, tr);
    check_external_has_no_tag_key(cx, &tr.attrs);
    check_content_needs_tag(cx, &tr.attrs);
    check_deny_unknown_fields_needs_content(cx, &tr.attrs);
    check_tag_apart_from_payload(cx, &tr.attrs);
    check_external_buffers_nothing(cx, &tr.attrs);
    check_schema_is_internal(cx, &tr.attrs);
    check_require_tag_first_needs_tag(cx, &tr.attrs, "trait");
    check_one_buffer_limit(cx, &tr.attrs);
    check_exact_numbers_buffers(cx, &tr.attrs);
    check_as_map(cx, &tr.attrs);
}

/// Each impl names the instantiation it registers in (`impl Strategy<f64>
/// for Linear`), which a default would let it leave out.
fn check_trait_param_defaults(cx: &Ctxt, tr: &Trait) {
    for param in &tr.item.generics.params {
        let default = match param {
            syn::GenericParam::Type(t) => t.default.as_ref().map(ToTokens::to_token_stream),
            syn::GenericParam::Const(c) => c.default.as_ref().map(ToTokens::to_token_stream),
            syn::GenericParam::Lifetime(_) => None,
        };
        if let Some(default) = default {
            let text = default.to_string().replace(' ', "");
            cx.error_spanned_by(
                &default,
                format!("a parameter of a registry trait takes no default: each impl names the instantiation it registers in (`impl {}<...> for Type`); remove `= {text}`", tr.ident()),
            );
        }
    }
}

/// `dyn Trait` names each associated type (`dyn Trait<Out = f64>`), one
/// registry per choice: a generic one or one with a `where` clause cannot
/// be named there.
fn check_trait_assoc_types(cx: &Ctxt, tr: &Trait) {
    let ident = tr.ident();
    for ty in tr.assoc_types() {
        let name = &ty.ident;
        if !ty.generics.params.is_empty() {
            cx.error_spanned_by(
                &ty.generics,
                format!("a generic associated type leaves the trait without `dyn {ident}`, so without a registry; make `{name}` a type parameter of the trait (`trait {ident}<{name}>`)"),
            );
        } else if let Some(clause) = &ty.generics.where_clause {
            cx.error_spanned_by(
                clause,
                format!("an associated type with a `where` clause cannot be named in `dyn {ident}<{name} = ...>`, which picks the registry; remove the clause, or make `{name}` a type parameter of the trait"),
            );
        }
    }
}

/// The enum-only container keys.
fn check_trait_keys(cx: &Ctxt, tr: &Trait) {
    if let Some(tag_type) = &tr.attrs.tag_type {
        cx.error_spanned_by(
            tag_type,
            "`tag_type` is for enums; a trait's tags are strings, integers or bools",
        );
    }
    if let Some(rule) = &tr.attrs.rename_all {
        cx.error_spanned_by(rule, "`rename_all` is for enums; give each impl its `name`");
    }
    if let Some(rule) = &tr.attrs.rename_all_fields {
        cx.error_spanned_by(
            rule,
            "`rename_all_fields` is for enums, whose struct variants have fields; put `#[serde(rename_all = \"...\")]` on each payload struct",
        );
    }
    if let Some(first_match) = &tr.attrs.first_match {
        cx.error_spanned_by(
            first_match,
            "`first_match` is for enums; a trait's presence matches must be unambiguous",
        );
    }
}

/// `visible` hands the tag to a payload field: it needs a tag.
fn check_trait_visible(cx: &Ctxt, tr: &Trait) {
    if let (Some(visible), None, None) = (&tr.attrs.visible, &tr.attrs.tag, &tr.attrs.external) {
        cx.error_spanned_by(
            visible,
            "`visible` hands the tag to a payload field, and this trait has no tag; add `tag = \"...\"` or remove `visible`",
        );
    }
}

/// The rules for `#[json_subtypes(...)]` on `impl Trait for Type`.
pub fn check_impl(cx: &Ctxt, imp: &Impl) {
    if !check_impl_of_trait(cx, imp) {
        return;
    }
    check_impl_lists_instances(cx, imp);
    check_instances_need_parameters(cx, imp);
    check_instance_arity(cx, imp);
    check_impl_lifetimes(cx, imp);
    check_impl_fallback_has_no_tag(cx, imp);
    check_impl_alias_needs_tag(cx, imp);
    check_instance_tags_need_a_tagged_impl(cx, imp);
    check_name_is_used_by_an_instance(cx, imp);
    check_instances_sharing_a_registry(cx, imp);
}

/// A registration is of a trait's implementation; an inherent impl has
/// nothing to register under (and the other rules do not apply to it).
fn check_impl_of_trait(cx: &Ctxt, imp: &Impl) -> bool {
    if imp.trait_path.is_none() {
        cx.error_spanned_by(
            imp.self_ty(),
            "`#[json_subtypes]` on an impl registers a trait implementation; this impl has no trait (write `impl Trait for Type`)",
        );
    }
    imp.trait_path.is_some()
}

/// A registration reads one concrete type: a generic impl registers the
/// instances it lists.
fn check_impl_lists_instances(cx: &Ctxt, imp: &Impl) {
    let params = imp.params();
    if params.is_empty() || imp.attrs.instances.is_some() {
        return;
    }
    // The instances of a plain trait's impl share its one registry, so
    // each needs its own tag.
    let shared = !imp.of_generic_trait();
    let entry = |ty: &str, tag: &str| {
        let args = match params.len() {
            1 => ty.to_owned(),
            n => format!("({})", vec![ty; n].join(", ")),
        };
        match shared {
            true => format!("{args} = \"{tag}\""),
            false => args,
        }
    };
    cx.error_spanned_by(
        &imp.item.generics,
        format!(
            "a generic impl cannot be registered as it is, there is no single type to read; list the instances to register{}, e.g. `#[json_subtypes(instances({}, {}))]`",
            if shared { ", each with its own tag" } else { "" },
            entry("u32", "a"),
            entry("String", "b"),
        ),
    );
}

/// `instances` replaces the parameters of a generic impl.
fn check_instances_need_parameters(cx: &Ctxt, imp: &Impl) {
    if let (Some(instances), true) = (&imp.attrs.instances, imp.params().is_empty()) {
        cx.error_spanned_by(
            instances,
            "`instances` lists the instances of a generic impl, and this impl has no type parameters; remove `instances`",
        );
    }
}

/// Each entry gives every parameter of the impl, in order.
fn check_instance_arity(cx: &Ctxt, imp: &Impl) {
    let params = imp.params();
    let Some(instances) = imp.attrs.instances.as_ref().filter(|_| !params.is_empty()) else {
        return;
    };
    if instances.value.is_empty() {
        cx.error_spanned_by(
            instances,
            format!("`instances` lists no instance; give one entry per choice of `{}`, e.g. `instances(f32, f64)`", names(&params)),
        );
    }
    for entry in &instances.value {
        if imp.instance_args(entry).is_none() {
            let n = params.len();
            cx.error_spanned_by(
                &entry.args,
                format!("the impl has {n} parameters: give each instance as a tuple in their order, `({})` with a type for each", names(&params)),
            );
        }
    }
}

fn names(params: &[&syn::Ident]) -> String {
    params
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// A registered type owns what it reads: it borrows nothing, and an impl's
/// lifetimes are the trait's, for which it is registered for every one
/// (`impl<'a> Visitor<'a> for Type` registers in `dyn for<'a> Visitor<'a>`).
fn check_impl_lifetimes(cx: &Ctxt, imp: &Impl) {
    let borrowed = borrowed_lifetime(imp.self_ty().to_token_stream());
    if let Some(borrowed) = &borrowed {
        let ty = imp.self_ty().to_token_stream().to_string().replace(' ', "");
        cx.error_spanned_by(
            imp.self_ty(),
            format!("`{ty}` borrows for `'{borrowed}`, and a registered type is read as an owned value; register a type that owns its data (e.g. with `String` in place of `&str`)"),
        );
    }
    let of_trait = imp.trait_lifetimes();
    for lifetime in imp.lifetimes() {
        let in_trait = of_trait.iter().any(|l| l.ident == lifetime.ident);
        if !in_trait && borrowed.is_none() {
            cx.error_spanned_by(
                lifetime,
                format!("`{lifetime}` is not a lifetime of the trait, and a registered type borrows nothing; remove `{lifetime}`"),
            );
        }
    }
    if let (Some(path), true) = (imp.trait_path, of_trait.iter().any(|l| l.ident == "static")) {
        let every = path.to_token_stream().to_string().replace("'static", "'a");
        let every = every
            .replace(" < ", "<")
            .replace(" >", ">")
            .replace(" ,", ",");
        let ty = imp.self_ty().to_token_stream().to_string().replace(' ', "");
        cx.error_spanned_by(
            path,
            format!("the trait's registry is for every lifetime (`dyn for<'a> ...`), so a registered impl is too; write `impl<'a> {every} for {ty}`"),
        );
    }
}

/// A lifetime other than `'static` in `tokens`.
fn borrowed_lifetime(tokens: proc_macro2::TokenStream) -> Option<String> {
    let mut apostrophe = false;
    for tree in tokens {
        match &tree {
            proc_macro2::TokenTree::Ident(ident) if apostrophe && ident != "static" => {
                return Some(ident.to_string())
            }
            proc_macro2::TokenTree::Group(group) => {
                if let Some(found) = borrowed_lifetime(group.stream()) {
                    return Some(found);
                }
            }
            _ => {}
        }
        apostrophe = matches!(&tree, proc_macro2::TokenTree::Punct(p) if p.as_char() == '\'');
    }
    None
}

/// A fallback is reached by unknown tags, so it has none of its own.
fn check_impl_fallback_has_no_tag(cx: &Ctxt, imp: &Impl) {
    if let (Some(name), true) = (&imp.attrs.name, imp.is_fallback()) {
        cx.error_spanned_by(name, "a fallback has no tag of its own; remove `name`");
    }
}

/// Aliases are further tags: only an impl chosen by its tag has them.
fn check_impl_alias_needs_tag(cx: &Ctxt, imp: &Impl) {
    if imp.is_fallback() || !imp.attrs.when_fields.is_empty() {
        for alias in &imp.attrs.aliases {
            cx.error_spanned_by(alias, "only a tagged impl takes `alias`; remove it");
        }
    }
}

/// The external form's tag is the map's one key: there is no tag key, and
/// no content key beside it.
fn check_external_has_no_tag_key(cx: &Ctxt, attrs: &ContainerAttrs) {
    let Some(external) = &attrs.external else {
        return;
    };
    if attrs.tag.is_some() {
        cx.error_spanned_by(
            external,
            "`external` writes each tag as the one key of a map, so there is no tag key; remove `tag = \"...\"`, or remove `external` for the internally tagged form",
        );
    }
    if let Some(content) = &attrs.content {
        cx.error_spanned_by(
            content,
            "`content` names the payload's key beside a tag key, and an externally tagged value has no keys of its own; remove `content`",
        );
    }
}

/// `as_map` writes the internally tagged form as a map with its tag entry
/// first: it needs a tag key, and the external and adjacent forms are maps
/// already.
fn check_as_map(cx: &Ctxt, attrs: &ContainerAttrs) {
    let Some(as_map) = &attrs.as_map else {
        return;
    };
    let problem = if attrs.external.is_some() {
        "`as_map` writes the internally tagged form as a map, and `external` writes a map already (postcard and bincode read it back); remove `as_map`"
    } else if attrs.content.is_some() {
        "`as_map` writes the internally tagged form as a map, and `content` writes a map already (postcard and bincode read it back); remove `as_map`"
    } else if attrs.tag.is_none() {
        "`as_map` writes the tag entry first, and there is no tag key; add `tag = \"type\"`"
    } else {
        return;
    };
    cx.error_spanned_by(as_map, problem);
}

/// `content` is the adjacent form's second key, beside the tag key.
fn check_content_needs_tag(cx: &Ctxt, attrs: &ContainerAttrs) {
    let Some(content) = &attrs.content else {
        return;
    };
    match &attrs.tag {
        None if attrs.external.is_none() => cx.error_spanned_by(
            content,
            "`content` names the payload's key beside the tag key, and there is no tag key; add `tag = \"type\"`",
        ),
        Some(tag) if tag.value == content.value => cx.error_spanned_by(
            content,
            "`content` and `tag` name the same key; give the payload a key of its own, e.g. `content = \"value\"`",
        ),
        _ => {}
    }
}

/// `deny_unknown_fields` refuses keys beside the adjacent form's two.
fn check_deny_unknown_fields_needs_content(cx: &Ctxt, attrs: &ContainerAttrs) {
    if let (Some(deny), None) = (&attrs.deny_unknown_fields, &attrs.content) {
        cx.error_spanned_by(
            deny,
            "`deny_unknown_fields` refuses keys beside the tag and content keys, and there is no `content`; add `content = \"...\"`, or put `#[serde(deny_unknown_fields)]` on the payloads",
        );
    }
}

/// `visible` hands the tag to a payload field, which the external and
/// adjacent forms keep apart from the tag.
fn check_tag_apart_from_payload(cx: &Ctxt, attrs: &ContainerAttrs) {
    let form = match (&attrs.external, &attrs.content) {
        (Some(_), _) => "external",
        (None, Some(_)) => "content",
        (None, None) => return,
    };
    if let Some(visible) = &attrs.visible {
        cx.error_spanned_by(
            visible,
            format!("`visible` hands the tag to a payload field, and with `{form}` the payload sits apart from the tag; remove `visible`"),
        );
    }
}

/// An externally tagged value's tag is its first key, so nothing is ever
/// buffered: the buffer's settings would never apply.
fn check_external_buffers_nothing(cx: &Ctxt, attrs: &ContainerAttrs) {
    if attrs.external.is_none() {
        return;
    }
    let keys = [
        attrs
            .max_buffer
            .as_ref()
            .map(|k| (k.tokens.clone(), "max_buffer")),
        attrs
            .require_tag_first
            .as_ref()
            .map(|k| (k.tokens.clone(), "require_tag_first")),
        attrs
            .exact_numbers
            .as_ref()
            .map(|k| (k.tokens.clone(), "exact_numbers")),
    ];
    for (tokens, key) in keys.into_iter().flatten() {
        cx.error_spanned_by(
            tokens,
            format!("`{key}` is about what comes before the tag, and an externally tagged value's tag is its first key, so nothing is buffered; remove `{key}`"),
        );
    }
}

/// A trait's JSON Schema describes the internally tagged form.
fn check_schema_is_internal(cx: &Ctxt, attrs: &ContainerAttrs) {
    let form = match (&attrs.external, &attrs.content) {
        (Some(_), _) => "external",
        (None, Some(_)) => "content",
        (None, None) => return,
    };
    if let Some(schema) = &attrs.schema {
        cx.error_spanned_by(
            schema,
            format!("`schema` describes the internally tagged form only, not yet `{form}`; remove `schema`, or remove `{form}`"),
        );
    }
}

/// An enum in the externally or adjacently tagged form is written by
/// serde's derive and read as serde reads it: a variant's tag is its name
/// (its index in postcard and bincode), so the tags are strings, and the
/// payload sits apart from the tag.
fn check_enum_representation(cx: &Ctxt, cont: &Container) {
    let attrs = &cont.attrs;
    check_external_has_no_tag_key(cx, attrs);
    check_content_needs_tag(cx, attrs);
    check_deny_unknown_fields_needs_content(cx, attrs);
    check_tag_apart_from_payload(cx, attrs);
    check_external_buffers_nothing(cx, attrs);
    let Some(form) = cont.apart_form() else {
        return;
    };
    let why = "serde writes an enum's variant as its name (its index in postcard and bincode), and reads it back so";
    if let Some(tag_type) = &attrs.tag_type {
        cx.error_spanned_by(
            tag_type,
            format!("`tag_type` with `{form}` on an enum: {why}, so its tags are strings; remove `tag_type`, or remove `{form}` for the internally tagged form"),
        );
    }
    for variant in &cont.variants {
        if attrs.tag_type.is_none() {
            for tag in variant
                .tags
                .iter()
                .filter(|t| !matches!(t.value, TagValue::Str(_)))
            {
                cx.error_spanned_by(
                    tag,
                    format!("a tag that is not a string with `{form}` on an enum: {why}; give the variant a string tag, or remove `{form}` for the internally tagged form"),
                );
            }
        }
        if let Some(nested) = &variant.attrs.nested {
            cx.error_spanned_by(
                nested,
                format!("`nested` reads the child's tag from the parent's object, and with `{form}` the payload sits apart from the tag; remove `nested` (the child is then read as an ordinary payload), or remove `{form}`"),
            );
        }
        for field in &variant.attrs.when_fields {
            cx.error_spanned_by(
                field,
                format!("`when_field` picks variants by their fields, which only the internally tagged form does; remove it, or remove `{form}`"),
            );
        }
        if let (Some(fallback), false) = (&variant.attrs.fallback, variant.style == Style::Newtype)
        {
            cx.error_spanned_by(
                fallback,
                format!("with `{form}`, the fallback receives the whole object, so it holds one value: make it a newtype variant, e.g. `Other(json_subtypes::Unknown)`"),
            );
        }
    }
}

/// An untagged impl (a fallback, or one picked by `when_field`) gives its
/// instances no tag either.
fn check_instance_tags_need_a_tagged_impl(cx: &Ctxt, imp: &Impl) {
    let Some(instances) = &imp.attrs.instances else {
        return;
    };
    for name in instances.value.iter().filter_map(|e| e.name.as_ref()) {
        if imp.is_fallback() {
            cx.error_spanned_by(name, "a fallback has no tag of its own; remove `= ...`");
        } else if imp.tags.is_empty() {
            cx.error_spanned_by(
                name,
                "an impl picked by `when_field` has no tag; remove `= ...`",
            );
        }
    }
}

/// `name` is the tag of the instances without their own.
fn check_name_is_used_by_an_instance(cx: &Ctxt, imp: &Impl) {
    let (Some(name), Some(instances)) = (&imp.attrs.name, &imp.attrs.instances) else {
        return;
    };
    if !instances.value.is_empty() && instances.value.iter().all(|e| e.name.is_some()) {
        cx.error_spanned_by(
            name,
            "every instance has its own tag, so `name` names none; remove `name`",
        );
    }
}

/// Instances that land in one registry are told apart by their tags: each
/// needs its own, and no alias common to all; a registry has one fallback,
/// and instances picked by the same fields cannot be told apart.
fn check_instances_sharing_a_registry(cx: &Ctxt, imp: &Impl) {
    let Some(instances) = &imp.attrs.instances else {
        return;
    };
    // Registrations in entry order, each beside its entry (entries whose
    // arity is wrong made none), grouped by the registry they land in.
    let entries = instances
        .value
        .iter()
        .filter(|e| imp.instance_args(e).is_some());
    let mut groups: Vec<Vec<(&Registration, &InstanceAttr)>> = Vec::new();
    for (reg, entry) in imp.registrations.iter().zip(entries) {
        match groups.iter_mut().find(|g| g[0].0.shares_registry_with(reg)) {
            Some(group) => group.push((reg, entry)),
            None => groups.push(vec![(reg, entry)]),
        }
    }
    let untagged = imp.tags.is_empty();
    for group in groups.iter().filter(|g| g.len() > 1) {
        let object = group[0].0.object_text();
        let (first, _) = group[0];
        for (reg, entry) in &group[1..] {
            let (this, other) = (reg.type_name(), first.type_name());
            if imp.is_fallback() {
                cx.error_spanned_by(
                    &entry.args,
                    format!("`{this}` and `{other}` would both be the fallback of `{object}`, which has one; list one instance per registry"),
                );
            } else if untagged {
                cx.error_spanned_by(
                    &entry.args,
                    format!("`{this}` and `{other}` share the registry of `{object}` and would be picked by the same fields; list one instance per registry"),
                );
            }
        }
        if untagged {
            continue;
        }
        for (reg, entry) in group.iter().filter(|(_, e)| e.name.is_none()) {
            let args = entry.args.to_token_stream().to_string().replace(' ', "");
            cx.error_spanned_by(
                &entry.args,
                format!("`{}` shares the registry of `{object}` with other instances, so each needs its own tag; write `{args} = \"...\"`", reg.type_name()),
            );
        }
        for alias in &imp.attrs.aliases {
            cx.error_spanned_by(
                alias,
                format!("an alias is a tag of every instance, and several instances share the registry of `{object}`; remove `alias`"),
            );
        }
    }
}
