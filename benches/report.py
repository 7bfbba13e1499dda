#!/usr/bin/env python3
"""Writes PERFORMANCE.md from one bench run of one commit.

    benches/report.py measure DIR [--no-time]
                                      build once, then count instructions
                                      (valgrind), allocations and time
                                      (criterion) for every row into DIR
    benches/report.py time DIR        the criterion part alone (run it on a
                                      quiet machine; valgrind's counts do
                                      not care)
    benches/report.py render DIR [--compile-cost RESULTS] > PERFORMANCE.md

`measure` builds the benches with one codegen unit (instruction counts then
hold to 0.1% from build to build) into `target/report`, and takes about
25 minutes on two cores. `render` fills `benches/PERFORMANCE.md.in`: each
`{{table NAME}}` becomes the table below of that name, `{{compile_cost}}`
the table of `benches/compile_cost/report.py` for the RESULTS file that
`benches/compile_cost/run.sh --out DIR` leaves in DIR/results.txt.
"""

import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
TARGET = os.path.join(REPO, "target", "report")

# Each table: (title, rows). A row: (label, alloc_count path, criterion
# group, criterion bench). Ratios are to the first row of the table, the
# limit: the plain derived struct reading (writing) the same payload.
TABLES = {
    "enums": [
        ("plain struct (the limit)", "plain", "de_single", "plain"),
        ("ours, tag first", "ours_first", "de_single", "ours_tag_first"),
        ("serde's twin, tag first", "serde_first", "de_single", "serde_tag_first"),
        ("ours, tag last", "ours_last", "de_single", "ours_tag_last"),
        ("serde's twin, tag last", "serde_last", "de_single", "serde_tag_last"),
    ],
    "small": [
        ("plain struct (the limit)", "small_plain", "de_small", "plain"),
        ("hand-written tag-first reader", "small_proto_first", "de_small", "proto_tag_first"),
        ("ours, tag first", "small_ours_first", "de_small", "ours_tag_first"),
        ("serde's twin, tag first", "small_serde_first", "de_small", "serde_tag_first"),
        ("ours, tag last", "small_ours_last", "de_small", "ours_tag_last"),
        ("serde's twin, tag last", "small_serde_last", "de_small", "serde_tag_last"),
    ],
    "vec": [
        ("plain structs (the limit)", "vec_plain", "de_vec1000", "plain"),
        ("ours, tag first", "vec_ours_first", "de_vec1000", "ours_tag_first"),
        ("serde's twin, tag first", "vec_serde_first", "de_vec1000", "serde_tag_first"),
        ("ours, tag last", "vec_ours_last", "de_vec1000", "ours_tag_last"),
        ("serde's twin, tag last", "vec_serde_last", "de_vec1000", "serde_tag_last"),
    ],
    "dyn": [
        ("plain struct, boxed (the limit)", "dyn_plain_boxed", "de_dyn_single", "plain_boxed"),
        ("ours, tag first", "dyn_first", "de_dyn_single", "ours_tag_first"),
        ("ours `compiled`, tag first", "compiled_first", None, None),
        ("typetag, tag first", "typetag_first", "de_dyn_single", "typetag_tag_first"),
        ("ours, tag last", "dyn_last", "de_dyn_single", "ours_tag_last"),
        ("ours `compiled`, tag last", "compiled_last", None, None),
        ("typetag, tag last", "typetag_last", "de_dyn_single", "typetag_tag_last"),
    ],
    "dyn_small": [
        ("plain struct, boxed (the limit)", "small_dyn_plain_boxed", "de_dyn_small", "plain_boxed"),
        ("hand-written tag-first reader, boxed", "small_proto_boxed", "de_dyn_small", "proto_boxed_tag_first"),
        ("hand-written tag-first reader over a run-time table, boxed", "small_proto_open", "de_dyn_small", "proto_open_tag_first"),
        ("ours, tag first", "small_dyn_first", "de_dyn_small", "ours_tag_first"),
        ("ours `compiled`, tag first", "small_compiled_first", "de_dyn_small", "compiled_tag_first"),
        ("typetag, tag first", "small_typetag_first", "de_dyn_small", "typetag_tag_first"),
        ("ours, tag last", "small_dyn_last", "de_dyn_small", "ours_tag_last"),
        ("ours `compiled`, tag last", "small_compiled_last", "de_dyn_small", "compiled_tag_last"),
        ("typetag, tag last", "small_typetag_last", "de_dyn_small", "typetag_tag_last"),
    ],
    "dyn_inputs": [
        ("plain struct, `from_str` (the limit)", "plain", None, None),
        ("`from_slice`: ours, tag first", "slice_dyn_first", None, None),
        ("`from_slice`: typetag, tag first", "slice_typetag_first", None, None),
        ("`from_reader`: plain struct (the limit)", "io_plain", None, None),
        ("`from_reader`: ours, tag first", "io_dyn_first", None, None),
        ("`from_reader`: typetag, tag first", "io_typetag_first", None, None),
    ],
    "profiles": [
        ("plain struct, boxed (the limit)", "dyn_plain_boxed", "de_dyn_single", "plain_boxed"),
        ("profile, tag first", "profile_first", "de_dyn_single", "profile_tag_first"),
        ("profile, tag last", "profile_last", "de_dyn_single", "profile_tag_last"),
    ],
    "writes": [
        ("plain struct (the limit)", "ser_plain", "ser_single", "plain"),
        ("ours, enum", "ser_ours", "ser_single", "ours"),
        ("serde's twin", "ser_serde", "ser_single", "serde"),
        ("ours, `Box<dyn>`", "ser_dyn", "ser_dyn_single", "ours"),
        ("ours, profile", "ser_profile", "ser_dyn_single", "profile"),
        ("typetag", "ser_typetag", "ser_dyn_single", "typetag"),
        ("one field: plain struct (the limit)", "ser_small_plain", "ser_small", "plain"),
        ("one field: ours, enum", "ser_small_ours", "ser_small", "ours"),
        ("one field: serde's twin", "ser_small_serde", "ser_small", "serde"),
        ("one field: ours, `Box<dyn>`", "ser_small_dyn", "ser_dyn_small", "ours"),
        ("one field: ours, profile", "ser_small_profile", "ser_dyn_small", "profile"),
        ("one field: typetag", "ser_small_typetag", "ser_dyn_small", "typetag"),
    ],
    "modes": [
        ("plain struct (the limit)", "plain", "de_modes_single", "plain"),
        ("presence (no tag; fields pick)", "presence", "de_modes_single", "presence"),
        ("`nested`, tag first", "nested_first", "de_modes_single", "nested_tag_first"),
        ("`nested`, tag last", "nested_last", "de_modes_single", "nested_tag_last"),
    ],
    "scale": [
        ("plain struct (the limit)", "scale_plain", None, None),
    ]
    + [
        (f"{n} variants, {k} tags", f"scale_{k}_{n}", None, None)
        for n in (4, 256)
        for k in ("str", "int")
    ]
    + [("plain struct, for tag position (the limit)", "pos_plain", None, None)]
    + [(f"tag after {p} keys", f"pos_{p}", None, None) for p in (0, 8, 16)],
    "depth": [
        (f"depth {d}: {who}", f"deep_{row}_{d}", "de_depth_tag_last", f"{bench}/{d}" if bench else None)
        for d in (200,)
        for who, row, bench in (
            ("plain structs (the limit)", "plain", "plain"),
            ("ours, enum", "ours", "ours"),
            ("serde's twin", "serde", "serde"),
            ("ours, `Box<dyn>`", "ours_dyn", "ours_dyn"),
            ("typetag", "typetag", "typetag"),
        )
    ],
    "forms": [
        ("plain struct (the limit)", "plain", None, None),
        ("external: ours, enum", "ext_ours", None, None),
        ("external: serde's derive", "ext_serde", None, None),
        ("external: ours, `Box<dyn>`", "ext_dyn", None, None),
        ("external: ours, `Box<dyn>` `compiled`", "ext_dyn_compiled", None, None),
        ("external: typetag", "ext_typetag", None, None),
        ("adjacent, tag first: ours, enum", "adj_ours_first", None, None),
        ("adjacent, tag first: serde's derive", "adj_serde_first", None, None),
        ("adjacent, tag first: ours, `Box<dyn>`", "adj_dyn_first", None, None),
        ("adjacent, tag first: ours, `Box<dyn>` `compiled`", "adj_dyn_compiled_first", None, None),
        ("adjacent, tag first: typetag", "adj_typetag_first", None, None),
        ("adjacent, content first: ours, enum", "adj_ours_last", None, None),
        ("adjacent, content first: serde's derive", "adj_serde_last", None, None),
        ("adjacent, content first: ours, `Box<dyn>`", "adj_dyn_last", None, None),
        ("adjacent, content first: ours, `Box<dyn>` `compiled`", "adj_dyn_compiled_last", None, None),
        ("adjacent, content first: typetag", "adj_typetag_last", None, None),
        ("write: plain struct (the limit)", "ser_plain", None, None),
        ("write, external: serde's derive (an enum)", "ser_ext_serde", None, None),
        ("write, external: ours, `Box<dyn>`", "ser_ext_dyn", None, None),
        ("write, external: typetag", "ser_ext_typetag", None, None),
        ("write, adjacent: ours, `Box<dyn>`", "ser_adj_dyn", None, None),
        ("write, adjacent: typetag", "ser_adj_typetag", None, None),
    ],
    "canada": [
        ("plain structs (the limit)", "canada_plain", "de_canada", "plain"),
        ("ours", "canada_ours", "de_canada", "ours"),
        ("serde's twin", "canada_serde", "de_canada", "serde"),
    ],
}


def sh(cmd, **kw):
    return subprocess.run(cmd, check=True, text=True, capture_output=True, **kw).stdout


def build_env():
    env = dict(os.environ)
    env.update(
        CARGO_PROFILE_BENCH_CODEGEN_UNITS="1",
        CARGO_TARGET_DIR=TARGET,
        CARGO_INCREMENTAL="0",
    )
    return env


def bench_binary(env, name):
    out = subprocess.run(
        ["cargo", "bench", "--bench", name, "--no-run"],
        cwd=REPO, env=env, text=True, capture_output=True, check=True,
    ).stderr
    m = re.search(r"Executable benches/%s\.rs \((.*)\)" % name, out)
    if not m:
        sys.exit("report.py: no %s bench binary in:\n%s" % (name, out))
    return os.path.join(REPO, m.group(1))


def irefs(binary, path, n):
    out = subprocess.run(
        ["valgrind", "--tool=cachegrind", "--cache-sim=no",
         "--cachegrind-out-file=/dev/null", binary, "--run", path, str(n)],
        text=True, capture_output=True, check=True,
    ).stderr
    m = re.search(r"I\s+refs:\s+([\d,]+)", out)
    return int(m.group(1).replace(",", ""))


def measure(out_dir, timed=True):
    os.makedirs(out_dir, exist_ok=True)
    env = build_env()
    alloc = bench_binary(env, "alloc_count")
    bench_binary(env, "dispatch")
    with open(os.path.join(out_dir, "meta.txt"), "w") as f:
        f.write("commit %s\n" % sh(["git", "rev-parse", "--short=8", "HEAD"], cwd=REPO).strip())
        f.write("dirty %d\n" % bool(sh(["git", "status", "--porcelain", "--untracked-files=no"], cwd=REPO).strip()))
        f.write("rustc %s\n" % sh(["rustc", "--version"]).strip())
        f.write("cpu %s\n" % cpu_model())

    wanted = {row for rows in TABLES.values() for _, row, _, _ in rows}
    listing = [l.split(None, 3) for l in sh([alloc, "--list"]).splitlines()]
    iters = {name: int(n) for name, n, _base, _what in listing}
    missing = wanted - iters.keys()
    if missing:
        sys.exit("report.py: alloc_count has no path %s" % ", ".join(sorted(missing)))
    setup = irefs(alloc, "plain", 0)
    with open(os.path.join(out_dir, "instructions.tsv"), "w") as f:
        for name in sorted(wanted):
            per = (irefs(alloc, name, iters[name]) - setup) / iters[name]
            f.write("%s\t%.0f\n" % (name, per))
            print("instructions %s %.0f" % (name, per), file=sys.stderr)
    with open(os.path.join(out_dir, "allocs.tsv"), "w") as f:
        f.write(sh([alloc, "--allocs"]))

    if timed:
        time(out_dir, env)


def time(out_dir, env=None):
    env = env or build_env()
    # Criterion writes its estimates under the target directory.
    subprocess.run(
        ["cargo", "bench", "--bench", "dispatch", "--", "--noplot"],
        cwd=REPO, env=env, check=True, stdout=sys.stderr,
    )
    crit = os.path.join(TARGET, "criterion")
    with open(os.path.join(out_dir, "time.tsv"), "w") as f:
        for group, bench in sorted({(g, b) for rows in TABLES.values() for _, _, g, b in rows if g and b}):
            est = os.path.join(crit, group, bench, "new", "estimates.json")
            if not os.path.exists(est):
                continue  # canada.json absent: the group is skipped
            median = json.load(open(est))["median"]["point_estimate"]
            f.write("%s/%s\t%.1f\n" % (group, bench, median))


def cpu_model():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return "%s, %d cores" % (line.split(":", 1)[1].strip(), os.cpu_count())
    except OSError:
        pass
    return "unknown"


def load(path, conv):
    out = {}
    if os.path.exists(path):
        for line in open(path):
            f = line.rstrip("\n").split("\t")
            if len(f) >= 2:
                out[f[0]] = conv(f[1:])
    return out


def fmt_time(ns):
    if ns >= 1e6:
        return "%.2f ms" % (ns / 1e6)
    if ns >= 1e3:
        return "%.2f µs" % (ns / 1e3)
    return "%.0f ns" % ns


def table(rows, instr, allocs, times):
    out = [
        "| path | instructions | x limit | time | x limit | allocations (bytes) |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    base_i = base_t = None
    for k, (label, row, group, bench) in enumerate(rows):
        i = instr.get(row)
        t = times.get("%s/%s" % (group, bench)) if group and bench else None
        if k == 0 or label.endswith("(the limit)"):
            base_i, base_t = i, t
        a = allocs.get(row)
        out.append(
            "| %s | %s | %s | %s | %s | %s |"
            % (
                label,
                "{:,}".format(int(i)) if i is not None else "-",
                "%.2f" % (i / base_i) if i is not None and base_i else "-",
                fmt_time(t) if t is not None else "-",
                "%.2f" % (t / base_t) if t is not None and base_t else "-",
                "{:,.0f} ({:,.0f})".format(*a) if a is not None else "-",
            )
        )
    return "\n".join(out)


def render(out_dir, compile_cost):
    instr = load(os.path.join(out_dir, "instructions.tsv"), lambda f: float(f[0]))
    times = load(os.path.join(out_dir, "time.tsv"), lambda f: float(f[0]))
    allocs = load(os.path.join(out_dir, "allocs.tsv"), lambda f: (float(f[0]), float(f[1])))
    meta = dict(l.rstrip("\n").split(" ", 1) for l in open(os.path.join(out_dir, "meta.txt")))
    text = open(os.path.join(HERE, "PERFORMANCE.md.in")).read()

    def sub(m):
        what = m.group(1).split()
        if what[0] == "table":
            return table(TABLES[what[1]], instr, allocs, times)
        if what[0] == "compile_cost":
            if not compile_cost:
                sys.exit("report.py: the template wants --compile-cost RESULTS")
            text = sh([sys.executable, os.path.join(HERE, "compile_cost", "report.py"), compile_cost])
            # The rows a reader of this page needs least, for its length.
            drop = ("expanded lines per", "whole crate")
            return "\n".join(l for l in text.strip().splitlines() if not any(d in l for d in drop))
        if what[0] == "ratio":
            # {{ratio A B}}: instructions of row A over row B
            return "%.2f" % (instr[what[1]] / instr[what[2]])
        if what[0] == "time_ratio":
            return "%.2f" % (times[what[1]] / times[what[2]])
        if what[0] in meta:
            return meta[what[0]]
        sys.exit("report.py: unknown placeholder {{%s}}" % m.group(1))

    sys.stdout.write(re.sub(r"\{\{([^}]*)\}\}", sub, text))


def main(argv):
    if len(argv) >= 2 and argv[0] == "measure":
        measure(argv[1], timed="--no-time" not in argv)
    elif len(argv) >= 2 and argv[0] == "time":
        time(argv[1])
    elif len(argv) >= 2 and argv[0] == "render":
        cc = argv[argv.index("--compile-cost") + 1] if "--compile-cost" in argv else None
        render(argv[1], cc)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
