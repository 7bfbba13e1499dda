#!/usr/bin/env bash
# The runtime's files whose code one read of a path of benches/alloc_count.rs
# runs, from what the processor executes rather than from reading the code:
# ARCHITECTURE.md's "life of one read" lists them. callgrind attributes each
# instruction to the source line it was compiled from (line tables). The
# build is unoptimized, so that every function a read calls runs as a call
# of its own, as a reader of the code follows it, rather than folded into
# its caller's lines. The count at 2n operations minus the count at n,
# divided by n, is per read, without the setup and what only the first read
# does (a registry is built then). Being of unoptimized code, the counts say
# where a read goes, not what it costs (PERFORMANCE.md). Code the macro
# generated is attributed to the file that invoked the macro
# (`benches/common/...`).
#
# Usage: benches/files/run.sh PATH [N]   (N operations, 500 by default)
# Output: instructions per read by file, the runtime's files (`src/`) first.
set -euo pipefail
cd "$(dirname "$0")/../.."

ROW=$1
N=${2:-500}
export CARGO_PROFILE_BENCH_DEBUG=line-tables-only CARGO_PROFILE_BENCH_OPT_LEVEL=0
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-target/files}
BIN=$(cargo bench --bench alloc_count --no-run 2>&1 |
    sed -n 's/.*Executable benches\/alloc_count.rs (\(.*\))/\1/p')
[ -x "$BIN" ] || { echo "alloc_count bench binary not found" >&2; exit 1; }
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

count() {
    valgrind --tool=callgrind --callgrind-out-file="$OUT/$1" \
        "$BIN" --run "$ROW" "$1" --no-check >/dev/null 2>&1
}
count "$N"
count $((2 * N))
python3 benches/files/report.py "$PWD" "$OUT/$N" "$OUT/$((2 * N))" "$N"
