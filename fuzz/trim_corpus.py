#!/usr/bin/env python3
"""Cuts fuzz/corpus/TARGET down to the inputs that add the most coverage.

    python3 fuzz/trim_corpus.py TARGET [MIN_NEW_EDGES]    (from the repository root)

Needs the target built first: `cd fuzz && cargo +nightly fuzz build -O -s none`.
Runs libFuzzer's merge over the corpus and fuzz/regressions/TARGET with
`-set_cover_merge=1 -use_counters=0` (edges only, not hit counts), which
records every input's edges. Then, starting from what the regressions cover
(they are always kept, in their own folder), it picks the input adding the
most edges not yet covered, again and again, and keeps those that add at
least MIN_NEW_EDGES (default 8). The corpus folder is replaced by them,
under their own names.
"""
import os
import shutil
import subprocess
import sys
import tempfile

target = sys.argv[1]
min_new = int(sys.argv[2]) if len(sys.argv) > 2 else 8
root = os.path.dirname(os.path.abspath(__file__))
target_dir = os.environ.get("CARGO_TARGET_DIR", os.path.join(root, "target"))
binary = os.path.join(target_dir, "x86_64-unknown-linux-gnu", "release", target)
corpus = os.path.join(root, "corpus", target)
regressions = os.path.join(root, "regressions", target)

with tempfile.TemporaryDirectory() as tmp:
    control = os.path.join(tmp, "control")
    out = os.path.join(tmp, "out")
    os.mkdir(out)
    dirs = [corpus] + ([regressions] if os.path.isdir(regressions) else [])
    subprocess.run(
        [binary, "-merge=1", "-set_cover_merge=1", "-use_counters=0",
         f"-merge_control_file={control}", out, *dirs],
        check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    lines = open(control).read().split("\n")

count = int(lines[0])
paths = lines[2:2 + count]
edges = {}
for line in lines[2 + count:]:
    words = line.split()
    if words and words[0] == "FT":
        edges[int(words[1])] = set(map(int, words[2:]))

covered = set()
for i in list(edges):
    if paths[i].startswith(regressions + os.sep):
        covered |= edges.pop(i)
from_regressions = len(covered)
total = len(covered.union(*edges.values()))

kept = []
while edges:
    best = max(edges, key=lambda i: (len(edges[i] - covered), -os.path.getsize(paths[i])))
    new = len(edges[best] - covered)
    if new < min_new:
        break
    covered |= edges.pop(best)
    kept.append(paths[best])

before = len(os.listdir(corpus))
with tempfile.TemporaryDirectory() as tmp:
    for path in kept:
        shutil.copy(path, tmp)
    shutil.rmtree(corpus)
    shutil.copytree(tmp, corpus)
print(f"{target}: {before} -> {len(kept)} inputs; edges {len(covered)} of {total} "
      f"({100 * len(covered) // total}%), {from_regressions} from the regressions")
