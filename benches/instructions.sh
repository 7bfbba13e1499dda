#!/usr/bin/env bash
# Instructions per operation for the paths of benches/alloc_count.rs, counted
# by valgrind (cachegrind without cache simulation): (I(n) - I(0)) / n, where
# n is the iteration count `alloc_count --list` gives for the path and I(0)
# is the same binary doing its setup (inputs and correctness checks) only.
# Deterministic: the counts do not depend on the machine's load.
#
# Usage: benches/instructions.sh [REGEX]     (paths whose name matches; all by default)
#        FEATURES=exact_numbers benches/instructions.sh ...   (the build with crate features)
#        CARGO_PROFILE_BENCH_CODEGEN_UNITS=1 CARGO_TARGET_DIR=/tmp/t-cgu1 benches/instructions.sh
#            (for before/after comparisons: in the default build the bench binary's
#            split into 16 codegen units moves counts by up to 4% when unrelated code
#            moves or the checkout lives elsewhere; with one unit they hold to 0.1%)
# Output: a markdown table, with each path's ratio to its base (the limit).
set -euo pipefail
cd "$(dirname "$0")/.."

BIN=$(cargo bench --bench alloc_count --no-run ${FEATURES:+--features "$FEATURES"} 2>&1 |
    sed -n 's/.*Executable benches\/alloc_count.rs (\(.*\))/\1/p')
[ -x "$BIN" ] || { echo "alloc_count bench binary not found" >&2; exit 1; }

ir() {
    valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
        "$BIN" --run "$1" "$2" 2>&1 | awk '/I *refs/ {gsub(",", "", $NF); print $NF}'
}

declare -A ITERS BASE PER
while read -r name n base _; do
    ITERS[$name]=$n
    BASE[$name]=$base
done < <("$BIN" --list)

SETUP=$(ir plain 0)

per_op() {
    local name=$1
    if [ -z "${PER[$name]:-}" ]; then
        local n=${ITERS[$name]}
        PER[$name]=$(( ($(ir "$name" "$n") - SETUP) / n ))
    fi
}

echo "| path | I/op | base | x base |"
echo "|---|---:|---|---:|"
while read -r name _ base what; do
    per_op "$base"
    per_op "$name"
    ratio=$(awk -v a="${PER[$name]}" -v b="${PER[$base]}" 'BEGIN { printf "%.3f", a / b }')
    printf '| %s (`%s`) | %s | `%s` | %s |\n' "$what" "$name" "${PER[$name]}" "$base" "$ratio"
done < <("$BIN" --list | awk -v re="${1:-.}" '$1 ~ re')
