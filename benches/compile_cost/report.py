#!/usr/bin/env python3
"""Turns run.sh's results file into the markdown table (see README.md)."""

import statistics
import sys
from collections import defaultdict

SETS = [
    ("enum", "enums_", "serde", "use_enums_"),
    ("trait", "traits_", "typetag", "use_traits_"),
]


def main():
    expanded, instr, ir = {}, {}, {}
    times = defaultdict(list)
    meta = {}
    for line in open(sys.argv[1]):
        f = line.split()
        if not f:
            continue
        if f[0] in ("rustc", "nightly", "commit", "form"):
            meta[f[0]] = line.split(None, 1)[1].strip()
        elif f[0] == "n":
            meta["n"] = int(f[1])
        elif f[0] == "expanded":
            expanded[f[1]] = (int(f[2]), int(f[3]))
        elif f[0] == "instr":
            instr[f[1]] = int(f[2])
        elif f[0] == "ir":
            ir[f[1]] = (int(f[2]), int(f[3]))
        elif f[0] == "time":
            wall, user, sys_ = map(float, f[3:6])
            times[(f[1], f[2])].append((wall, user + sys_))
    n = meta["n"]

    def ratio(a, b):
        return "%.2fx" % (a / b) if a is not None and b else "-"

    def num(x):
        return "-" if x is None else "{:,}".format(x)

    def secs(samples, which):
        if not samples:
            return "-", None
        xs = [s[which] for s in samples]
        med = statistics.median(xs)
        if len(xs) == 1:
            return "%.1f s" % med, med
        return "%.1f s (%.1f-%.1f)" % (med, min(xs), max(xs)), med

    print(
        "| figure | enums: base | serde | ours | ours/serde "
        "| traits: base | typetag | ours | ours/typetag |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")

    def row(label, cells):
        out = ["| " + label]
        for base, peer, ours, fmt in cells:
            out.append(fmt(base) if base is not None else "-")
            out.append(fmt(peer))
            out.append(fmt(ours))
            out.append(ratio(ours, peer))
        print(" | ".join(out) + " |")

    def per_item(kind, idx):
        cells = []
        for _, lib, peer, _ in SETS:
            base = expanded[lib + "base"][idx]
            cells.append(
                (
                    None,
                    round((expanded[lib + peer][idx] - base) / n),
                    round((expanded[lib + "ours"][idx] - base) / n),
                    num,
                )
            )
        return cells

    row("expanded tokens per enum / trait+6 impls, minus base", per_item("tokens", 0))
    row("expanded lines per enum / trait+6 impls, minus base", per_item("lines", 1))

    # run.sh counts the enum set only (the slow part); a set without counts
    # shows dashes.
    def giga(x):
        return "-" if x is None else "%.2f G" % (x / 1e9)

    part, whole = [], []
    for _, lib, peer, _ in SETS:
        b, p, o = (instr.get(lib + fl) for fl in ("base", peer, "ours"))
        if None in (b, p, o):
            part.append((None, None, None, giga))
            whole.append((None, None, None, giga))
        else:
            part.append((None, p - b, o - b, giga))
            whole.append((b, p, o, giga))
    row("rustc instructions, lib crate, debug, minus base (all %d)" % n, part)
    row("rustc instructions, lib crate, debug, whole crate", whole)

    for idx, label in ((0, "functions"), (1, "lines")):
        cells = []
        for _, _, peer, use in SETS:
            cells.append((ir[use + "base"][idx], ir[use + peer][idx], ir[use + "ours"][idx], num))
        row("unoptimized LLVM IR of the use crate: %s" % label, cells)

    # The trait set's registered impls are compiled in the lib crate.
    if "traits_ours" in ir:
        for idx, label in ((0, "functions"), (1, "lines")):
            out = ["| unoptimized LLVM IR of the trait lib crate: %s" % label, "-", "-", "-", "-"]
            b, p, o = (ir.get("traits_" + fl, (None, None))[idx] for fl in ("base", "typetag", "ours"))
            out += [num(b), num(p), num(o), ratio(o, p)]
            print(" | ".join(out) + " |")

    for profile in ("debug", "release"):
        for which, label in ((0, "wall"), (1, "CPU (user+sys)")):
            cells = []
            have = False
            for _, _, peer, use in SETS:
                b = secs(times[(profile, use + "base")], which)
                p = secs(times[(profile, use + peer)], which)
                o = secs(times[(profile, use + "ours")], which)
                have = have or p[1] is not None
                cells.append((b, p, o))
            if not have:
                continue
            out = ["| use crate, %s build, %s (median, range)" % (profile, label)]
            for b, p, o in cells:
                out += [b[0] if b[1] is not None else "-", p[0], o[0],
                        ratio(o[1], p[1])]
            print(" | ".join(out) + " |")

    # The crate that registers the impls, timed like the use crates.
    for profile in ("debug", "release"):
        for which, label in ((0, "wall"), (1, "CPU (user+sys)")):
            b, p, o = (
                secs(times[(profile, "traits_" + fl)], which)
                for fl in ("base", "typetag", "ours")
            )
            if p[1] is None:
                continue
            out = ["| trait lib crate, %s build, %s (median, range)" % (profile, label),
                   "-", "-", "-", "-"]
            out += [b[0] if b[1] is not None else "-", p[0], o[0], ratio(o[1], p[1])]
            print(" | ".join(out) + " |")

    print()
    print(
        "%d enums (%s form) / %d traits; json_subtypes at %s; %s; expansion by %s."
        % (n, meta.get("form", "internal"), n, meta.get("commit", "unknown"), meta["rustc"],
           meta["nightly"])
    )


if __name__ == "__main__":
    main()
