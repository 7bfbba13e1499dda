#!/usr/bin/env bash
# Compile cost of #[json_subtypes] against serde's derive (enums) and typetag
# (trait objects), on the workload gen.py writes. See README.md next to this
# file for what each figure means.
#
# Usage: benches/compile_cost/run.sh [--quick] [--no-release] [--reps N] [--release-reps N] [--out DIR] [--keep] [--repo DIR] [--form FORM]
#   --quick       10 enums and 10 traits instead of 50 (a smoke run)
#   --no-release  skip the release builds of the use crates (the slowest part)
#   --reps N      timed builds per crate and profile, interleaved (default 3; median reported)
#   --release-reps N  the same for the release builds (default: as --reps)
#   --out DIR     generate into DIR (outside the repo) and keep it; an earlier DIR is
#                 reused with its warm target directory
#   --keep        keep the temporary directory (expanded code, IR, llvm-lines tables)
#   --repo DIR    measure the json_subtypes checkout at DIR (default: this one), e.g. a
#                 `git worktree` of an older commit, for before/after numbers
#   --form FORM   the enums' form, on both sides: internal (default), external or adjacent
# Needs: python3, a nightly toolchain (for -Zunpretty=expanded), valgrind,
# cargo-llvm-lines (`cargo install cargo-llvm-lines`), /usr/bin/time.
# Output: a markdown table on stdout; progress on stderr.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)

N=50
RELEASE=1
REPS=3
RELEASE_REPS=
OUT=
KEEP=0
FORM=internal
while [ $# -gt 0 ]; do
    case $1 in
    --quick) N=10 ;;
    --no-release) RELEASE=0 ;;
    --reps) REPS=$2; shift ;;
    --release-reps) RELEASE_REPS=$2; shift ;;
    --out) OUT=$2; KEEP=1; shift ;;
    --keep) KEEP=1 ;;
    --repo) REPO=$(cd "$2" && pwd); shift ;;
    --form) FORM=$2; shift ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
    esac
    shift
done
for tool in python3 valgrind cargo-llvm-lines /usr/bin/time; do
    command -v "$tool" >/dev/null || { echo "run.sh: $tool not found" >&2; exit 1; }
done
cargo +nightly --version >/dev/null 2>&1 || { echo "run.sh: no nightly toolchain" >&2; exit 1; }

if [ -z "$OUT" ]; then
    OUT=$(mktemp -d "${TMPDIR:-/tmp}/compile_cost.XXXXXX")
else
    # An existing DIR is reused: the sources are written again, its target
    # directory stays warm (results.txt and the measurements are redone).
    mkdir -p "$OUT"
    OUT=$(cd "$OUT" && pwd)
fi
if [ "$KEEP" = 0 ]; then
    trap 'rm -rf "$OUT"' EXIT
else
    echo "run.sh: keeping $OUT" >&2
fi
say() { echo "[$(date +%T)] $*" >&2; }

python3 "$HERE/gen.py" "$OUT/ws" "$REPO" --enums "$N" --traits "$N" --form "$FORM"
cd "$OUT/ws"
RES=$OUT/results.txt
: >"$RES"
mkdir -p "$OUT/expanded" "$OUT/ir" "$OUT/vg"

# One target dir for everything, so dependencies build once per profile and
# toolchain. Incremental off: a touched crate is compiled in full, as a
# clean build of it would be. The wrapper is set for every build (cargo
# fingerprints it) and does nothing unless CC_VALGRIND_CRATE names the crate.
export CARGO_TARGET_DIR=$OUT/target
export CARGO_INCREMENTAL=0
export RUSTC_WRAPPER=$HERE/valgrind-rustc.sh
export CC_VALGRIND_CRATE= CC_VALGRIND_LOG=/dev/null

LIBS="enums_serde enums_ours enums_base traits_typetag traits_ours traits_base"
USES="use_enums_serde use_enums_ours use_enums_base use_traits_typetag use_traits_ours use_traits_base"
RELEASE_USES="use_enums_serde use_enums_ours use_traits_typetag use_traits_ours"
# The crate that declares the traits and registers the impls: where a
# trait-object user's build goes (the impls' readers compile there).
TRAIT_LIBS="traits_typetag traits_ours traits_base"

say "warming: dependencies, debug"
for c in $USES; do cargo build -q -p "$c"; done
if [ "$RELEASE" = 1 ]; then
    say "warming: dependencies, release"
    for c in $RELEASE_USES; do cargo build -q --release -p "$c"; done
fi

{
    echo "n $N"
    echo "form $FORM"
    echo "commit $(git -C "$REPO" rev-parse --short HEAD 2>/dev/null || echo unknown)"
    echo "rustc $(rustc --version)"
    echo "nightly $(rustc +nightly --version)"
} >>"$RES"

say "expanded code (nightly -Zunpretty=expanded)"
for c in $LIBS; do
    cargo +nightly rustc -q -p "$c" --lib -- -Zunpretty=expanded >"$OUT/expanded/$c.rs"
    echo "expanded $c $(python3 "$HERE/count_tokens.py" "$OUT/expanded/$c.rs")" >>"$RES"
done

# The enum lib crates only (the trait set's targets are IR and release CPU):
# valgrind is the slow part. The three are built by one cargo, in parallel,
# since cargo allows one build at a time in a target directory.
say "rustc instructions of the enum lib crates (valgrind)"
VG_LIBS="enums_serde enums_ours enums_base"
rm -f "$OUT"/vg/*.log
for c in $VG_LIBS; do touch "$c/lib.rs"; done
CC_VALGRIND_CRATE=$VG_LIBS CC_VALGRIND_LOG=$OUT/vg cargo build -q $(printf -- '-p %s ' $VG_LIBS) --lib
for c in $VG_LIBS; do
    irefs=$(awk '/I *refs/ {gsub(",", "", $NF); print $NF}' "$OUT/vg/$c.log" 2>/dev/null || true)
    [ -n "$irefs" ] || { echo "run.sh: no valgrind count for $c" >&2; exit 1; }
    echo "instr $c $irefs" >>"$RES"
done

# The trait lib crates too: a registered impl's Serialize/Deserialize
# instances are compiled where it is registered, not where it is used.
say "unoptimized LLVM IR of the use crates and the trait lib crates"
for c in $USES traits_typetag traits_ours traits_base; do
    rm -f "$CARGO_TARGET_DIR"/debug/deps/"$c"-*.ll
    cargo rustc -q -p "$c" --lib -- --emit=llvm-ir -C codegen-units=1
    ll=$(ls "$CARGO_TARGET_DIR"/debug/deps/"$c"-*.ll)
    cargo llvm-lines -f "$ll" >"$OUT/ir/$c.txt"
    # The (TOTAL) row: lines inside function bodies and function copies.
    read -r lines funcs < <(awk '/\(TOTAL\)/ {print $1, $2; exit}' "$OUT/ir/$c.txt")
    echo "ir $c $funcs $lines $(grep -c '^define' "$ll") $(wc -l <"$ll")" >>"$RES"
    rm -f "$ll"
done

timed() { # profile crate
    local flag=
    [ "$1" = release ] && flag=--release
    touch "$2/lib.rs"
    /usr/bin/time -f "%e %U %S" -o "$OUT/time.txt" cargo build -q $flag -p "$2" --lib
    echo "time $1 $2 $(cat "$OUT/time.txt")" >>"$RES"
}
# Interleaved (serde, ours, base, typetag, ours, base, serde, ...) so that
# the machine's load falls on every flavour alike. The first build after the
# IR step also recompiles nothing else: only the touched crate is rebuilt.
for c in $USES; do cargo build -q -p "$c" --lib; done
for r in $(seq "$REPS"); do
    say "debug builds of the use crates and the trait lib crates, round $r/$REPS"
    for c in $USES $TRAIT_LIBS; do timed debug "$c"; done
done
if [ "$RELEASE" = 1 ]; then
    for r in $(seq "${RELEASE_REPS:-$REPS}"); do
        say "release builds of the use crates and the trait lib crates, round $r/${RELEASE_REPS:-$REPS}"
        for c in $RELEASE_USES $TRAIT_LIBS; do timed release "$c"; done
    done
fi

say "done"
python3 "$HERE/report.py" "$RES"
if [ "$KEEP" = 1 ]; then
    for c in $USES; do
        echo >&2
        echo "top of cargo llvm-lines for $c ($OUT/ir/$c.txt):" >&2
        head -n 18 "$OUT/ir/$c.txt" >&2
    done
fi
