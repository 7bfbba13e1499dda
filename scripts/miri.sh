#!/usr/bin/env bash
# Runs the test binaries under Miri, the interpreter that detects undefined
# behaviour, with strict provenance (an address turned back into a pointer
# is an error, not a warning).
#
# Needs nightly with Miri (not part of `.ci/run`, which runs on stable):
#   rustup +nightly component add miri rust-src
#
# Usage: scripts/miri.sh [TEST ...]   (names of tests/*.rs; all but the
#                                      ones below by default)
#        FEATURES=a,b scripts/miri.sh ...   (with crate features: five
#            binaries test only under theirs, as `.ci/run` does:
#            FEATURES=arbitrary_precision,raw_value,schemars,utoipa,exact_numbers
#            scripts/miri.sh test_exact_numbers test_openapi test_schema
#            test_schema_traits test_serde_json_features)
#        MIRI_FUZZ_STEP=1 scripts/miri.sh test_fuzz_corpus   (every input)
#
# Left out: `test_ui` (trybuild runs cargo and rustc as processes, which
# Miri cannot). `test_corpus`, `test_fuzz_corpus` and `test_layers` read
# files from disk, so they run with `-Zmiri-disable-isolation`; under Miri
# the first two replay a sample (every 8th file; every fuzz regression
# and every 10th corpus input, or every Nth with MIRI_FUZZ_STEP=N): the
# whole corpora would take too long.
# Single tests that Miri cannot finish in reasonable time are
# `#[cfg_attr(miri, ignore = "...")]` in place, with their reason.
# Prints one line per binary: name, result, test counts, time.
set -uo pipefail
cd "$(dirname "$0")/.."

if ! cargo +nightly miri --version >/dev/null 2>&1; then
    echo "miri: not installed; run: rustup +nightly component add miri rust-src" >&2
    exit 1
fi

SKIP=" test_ui "
FROM_DISK=" test_corpus test_fuzz_corpus test_layers "
if [ $# -gt 0 ]; then
    TESTS=("$@")
else
    TESTS=()
    for f in tests/test_*.rs; do
        name=$(basename "$f" .rs)
        [[ "$SKIP" == *" $name "* ]] || TESTS+=("$name")
    done
fi

FLAGS="${MIRIFLAGS:--Zmiri-strict-provenance}"
LOG=${MIRI_LOG:-target/miri.log}
mkdir -p "$(dirname "$LOG")"
: > "$LOG"
status=0
for t in "${TESTS[@]}"; do
    start=$(date +%s)
    flags=$FLAGS
    [[ "$FROM_DISK" == *" $t "* ]] && flags="$flags -Zmiri-disable-isolation"
    out=$(MIRIFLAGS="$flags" cargo +nightly miri test ${FEATURES:+--features "$FEATURES"} --test "$t" 2>&1)
    rc=$?
    secs=$(( $(date +%s) - start ))
    printf '%s\n' "$out" >> "$LOG"
    counts=$(printf '%s\n' "$out" | grep -E '^test result:' | tail -n1 |
        sed -E 's/.*: ([a-zA-Z]+)\. ([0-9]+) passed; ([0-9]+) failed; ([0-9]+) ignored.*/\1 \2 passed, \3 failed, \4 ignored/')
    [ $rc -eq 0 ] || status=1
    printf '%-28s rc=%d  %-40s %ds\n' "$t" "$rc" "${counts:-no result (see $LOG)}" "$secs"
done
exit $status
