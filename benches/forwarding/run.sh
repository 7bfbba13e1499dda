#!/usr/bin/env bash
# Store-forwarding failures per operation for paths of benches/alloc_count.rs:
# loads that read memory narrower stores wrote an instant before, which wait
# for those stores to reach the cache (PERFORMANCE.md, "Time and
# instructions"). valgrind's lackey lists every load and store with its size;
# forwarding.c counts the failures by instruction address; the count at n
# operations minus the count at 0 (setup only), divided by n, is per operation.
# Deterministic; the path runs without alloc_count's checks of every other
# path (`--no-check`), whose trace alone is about 9 GB: about a minute per
# run.
#
# Usage: CARGO_PROFILE_BENCH_CODEGEN_UNITS=1 benches/forwarding/run.sh PATH [N]
#        (N operations, 3000 by default)
# Output: failures per operation, by function and by instruction, each load
# followed by the stores it read part of (where the value was written).
set -euo pipefail
cd "$(dirname "$0")/../.."

ROW=$1
N=${2:-3000}
BIN=$(cargo bench --bench alloc_count --no-run 2>&1 |
    sed -n 's/.*Executable benches\/alloc_count.rs (\(.*\))/\1/p')
[ -x "$BIN" ] || { echo "alloc_count bench binary not found" >&2; exit 1; }
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
cc -O2 -o "$OUT/forwarding" benches/forwarding/forwarding.c

count() {
    valgrind --tool=lackey --trace-mem=yes --log-fd=3 "$BIN" --run "$ROW" "$1" --no-check \
        3>&1 >/dev/null 2>/dev/null | "$OUT/forwarding" >"$OUT/$1"
}
count 0
count "$N"
python3 benches/forwarding/report.py "$BIN" "$OUT/0" "$OUT/$N" "$N"
