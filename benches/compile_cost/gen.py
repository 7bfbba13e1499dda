#!/usr/bin/env python3
"""Writes the compile-cost workload (enums and traits) as one cargo workspace.

Usage: gen.py OUT_DIR REPO_DIR [--enums N] [--traits N] [--form FORM]

OUT_DIR gets a workspace (one target directory, one Cargo.lock copied from
the repo so dependency versions are the repo's) with these members:

  enums_serde, enums_ours, enums_base      N enums of 6 variants each: 3
      newtype variants over derived structs of 3-5 fields, 2 struct variants
      of 2-3 fields, 1 unit variant. `serde`: #[derive(Serialize,
      Deserialize)] #[serde(tag = "type")]; `ours`: #[json_subtypes(tag =
      "type")]; `base`: the same enums with no attribute (the structs keep
      their derives in all three). `--form external` gives both sides the
      externally tagged form instead (serde's default, no `#[serde]`
      attribute; `#[json_subtypes(external)]`), `--form adjacent` the
      adjacently tagged one (`tag = "type", content = "value"` on both).
  use_enums_serde, use_enums_ours          `roundtrip_all(inputs)`: one
      serde_json::from_str and one to_string per enum.
  use_enums_base                           the same calls on the 3 payload
      structs of each enum (what the enums' impls instantiate anyway).
  traits_typetag, traits_ours, traits_base N traits with 6 impls each over
      derived structs; #[typetag::serde(tag = "type")] /
      #[json_subtypes(tag = "type")] / no attribute.
  use_traits_typetag, use_traits_ours      from_str and to_string of a
      Box<dyn TraitN> per trait.
  use_traits_base                          the same calls on the 6 structs.

Everything is deterministic: field types come from a fixed LCG, not from
`random`, so the code is the same on every machine and Python version.
"""

import argparse
import os
import shutil

FIELD_TYPES = [
    "String",
    "u32",
    "f64",
    "bool",
    "Option<u32>",
    "Option<String>",
    "Vec<u32>",
    "Vec<String>",
]


class Lcg:
    """Numerical Recipes' 32-bit LCG: fixed, portable, good enough to vary shapes."""

    def __init__(self, seed):
        self.state = seed & 0xFFFFFFFF

    def next(self, n):
        self.state = (self.state * 1664525 + 1013904223) & 0xFFFFFFFF
        return (self.state >> 16) % n


def sample_value(ty, k):
    """A JSON value of type `ty` (k varies it)."""
    return {
        "String": '"s%d"' % k,
        "u32": str(k),
        "f64": "%d.5" % k,
        "bool": "true" if k % 2 else "false",
        "Option<u32>": str(k),
        "Option<String>": "null",
        "Vec<u32>": "[%d,%d]" % (k, k + 1),
        "Vec<String>": '["a%d"]' % k,
    }[ty]


def fields(rng, lo, hi):
    n = lo + rng.next(hi - lo + 1)
    return [("f%d" % i, FIELD_TYPES[rng.next(len(FIELD_TYPES))]) for i in range(n)]


def json_object(tag, flds):
    """Escaped for a Rust string literal (the inputs are written as "...")."""
    parts = []
    if tag is not None:
        parts.append('\\"type\\":\\"%s\\"' % tag)
    for i, (name, ty) in enumerate(flds):
        parts.append('\\"%s\\":%s' % (name, sample_value(ty, i).replace('"', '\\"')))
    return "{" + ",".join(parts) + "}"


def struct_def(name, flds):
    body = "".join("    pub %s: %s,\n" % f for f in flds)
    return "#[derive(Serialize, Deserialize)]\npub struct %s {\n%s}\n" % (name, body)


def enum_model(n_enums):
    """Per enum: [(variant, kind, payload fields, payload struct name or None)]."""
    model = []
    for e in range(n_enums):
        rng = Lcg(0x5EED + e)
        variants = []
        for v in range(3):
            variants.append(("New%d" % v, "newtype", fields(rng, 3, 5), "E%dP%d" % (e, v)))
        for v in range(2):
            variants.append(("Struct%d" % v, "struct", fields(rng, 2, 3), None))
        variants.append(("Unit", "unit", [], None))
        model.append(variants)
    return model


# The enum attributes of each form: serde's, ours.
FORMS = {
    "internal": ('#[serde(tag = "type")]\n', '#[json_subtypes(tag = "type")]\n'),
    "external": ("", "#[json_subtypes(external)]\n"),
    "adjacent": (
        '#[serde(tag = "type", content = "value")]\n',
        '#[json_subtypes(tag = "type", content = "value")]\n',
    ),
}


def enums_lib(model, flavour, form):
    serde_attr, ours_attr = FORMS[form]
    out = ["#![allow(dead_code)]\n"]
    if flavour == "ours":
        out.append("use json_subtypes::json_subtypes;\n")
    out.append("use serde::{Deserialize, Serialize};\n\n")
    for e, variants in enumerate(model):
        for name, kind, flds, struct in variants:
            if kind == "newtype":
                out.append(struct_def(struct, flds))
        if flavour == "serde":
            out.append("#[derive(Serialize, Deserialize)]\n" + serde_attr)
        elif flavour == "ours":
            out.append(ours_attr)
        out.append("pub enum Enum%d {\n" % e)
        for name, kind, flds, struct in variants:
            if kind == "newtype":
                out.append("    %s(%s),\n" % (name, struct))
            elif kind == "struct":
                body = " ".join("%s: %s," % f for f in flds)
                out.append("    %s { %s },\n" % (name, body))
            else:
                out.append("    %s,\n" % name)
        out.append("}\n\n")
    return "".join(out)


def use_fn(calls, inputs):
    out = [
        "/// One read and one write per type: where serde_json, the engine and\n",
        "/// LLVM do their per-type work.\n",
        "pub fn roundtrip_all(inputs: &[&str]) -> Result<usize, serde_json::Error> {\n",
        "    let mut n = 0;\n",
    ]
    for i, ty in enumerate(calls):
        out.append("    let v: %s = serde_json::from_str(inputs[%d])?;\n" % (ty, i))
        out.append("    n += serde_json::to_string(&v)?.len();\n")
    out.append("    Ok(n)\n}\n\n")
    out.append("/// Inputs for `roundtrip_all`, in the same order.\n")
    out.append("pub const INPUTS: &[&str] = &[\n")
    out.extend('    "%s",\n' % s for s in inputs)
    out.append("];\n")
    return "".join(out)


def use_enums(model, flavour):
    calls, inputs = [], []
    for e, variants in enumerate(model):
        if flavour == "base":
            for name, kind, flds, struct in variants:
                if kind == "newtype":
                    calls.append("lib::%s" % struct)
                    inputs.append(json_object(None, flds))
        else:
            name, kind, flds, struct = variants[0]
            calls.append("lib::Enum%d" % e)
            inputs.append(json_object(name, flds))
    return use_fn(calls, inputs)


def trait_model(n_traits):
    model = []
    for t in range(n_traits):
        rng = Lcg(0x7A17 + t)
        model.append([("T%dI%d" % (t, i), fields(rng, 3, 5)) for i in range(6)])
    return model


def traits_lib(model, flavour):
    out = ["#![allow(dead_code)]\n"]
    if flavour == "ours":
        out.append("use json_subtypes::json_subtypes;\n")
    out.append("use serde::{Deserialize, Serialize};\n\n")
    for t, impls in enumerate(model):
        if flavour == "typetag":
            out.append('#[typetag::serde(tag = "type")]\n')
        elif flavour == "ours":
            out.append('#[json_subtypes(tag = "type")]\n')
        out.append("pub trait Trait%d {\n    fn id(&self) -> u32;\n}\n\n" % t)
        for i, (struct, flds) in enumerate(impls):
            out.append(struct_def(struct, flds))
            if flavour == "typetag":
                out.append('#[typetag::serde(name = "%s")]\n' % struct)
            elif flavour == "ours":
                out.append('#[json_subtypes(name = "%s")]\n' % struct)
            out.append(
                "impl Trait%d for %s {\n    fn id(&self) -> u32 {\n        %d\n    }\n}\n\n"
                % (t, struct, i)
            )
    return "".join(out)


def use_traits(model, flavour):
    calls, inputs = [], []
    for t, impls in enumerate(model):
        if flavour == "base":
            for struct, flds in impls:
                calls.append("lib::%s" % struct)
                inputs.append(json_object(None, flds))
        else:
            struct, flds = impls[0]
            calls.append("Box<dyn lib::Trait%d>" % t)
            inputs.append(json_object(struct, flds))
    return use_fn(calls, inputs)


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def crate(out, name, deps, source):
    manifest = (
        '[package]\nname = "%s"\nversion = "0.0.0"\nedition = "2021"\npublish = false\n\n'
        "[lib]\npath = \"lib.rs\"\n\n[dependencies]\n%s" % (name, "".join(d + "\n" for d in deps))
    )
    write(os.path.join(out, name, "Cargo.toml"), manifest)
    write(os.path.join(out, name, "lib.rs"), source)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("out")
    p.add_argument("repo")
    p.add_argument("--enums", type=int, default=50)
    p.add_argument("--traits", type=int, default=50)
    p.add_argument("--form", choices=sorted(FORMS), default="internal")
    a = p.parse_args()
    repo = os.path.abspath(a.repo)
    out = os.path.abspath(a.out)
    if out == repo or out.startswith(repo + os.sep):
        raise SystemExit("gen.py: OUT_DIR must be outside the repo")

    serde = 'serde = { version = "1", features = ["derive"] }'
    serde_json = 'serde_json = "1"'
    ours = 'json_subtypes = { path = "%s" }' % repo
    typetag = 'typetag = "0.2"'
    extra = {"serde": [], "ours": [ours], "base": [], "typetag": [typetag]}

    members = []
    em, tm = enum_model(a.enums), trait_model(a.traits)
    for fl in ("serde", "ours", "base"):
        crate(out, "enums_" + fl, [serde] + extra[fl], enums_lib(em, fl, a.form))
        lib = 'lib = { package = "enums_%s", path = "../enums_%s" }' % (fl, fl)
        crate(out, "use_enums_" + fl, [lib, serde_json], use_enums(em, fl))
        members += ["enums_" + fl, "use_enums_" + fl]
    for fl in ("typetag", "ours", "base"):
        crate(out, "traits_" + fl, [serde] + extra[fl], traits_lib(tm, fl))
        lib = 'lib = { package = "traits_%s", path = "../traits_%s" }' % (fl, fl)
        crate(out, "use_traits_" + fl, [lib, serde_json], use_traits(tm, fl))
        members += ["traits_" + fl, "use_traits_" + fl]

    write(
        os.path.join(out, "Cargo.toml"),
        "[workspace]\nresolver = \"2\"\nmembers = [\n%s]\n"
        % "".join('    "%s",\n' % m for m in members),
    )
    shutil.copy(os.path.join(repo, "Cargo.lock"), os.path.join(out, "Cargo.lock"))


if __name__ == "__main__":
    main()
