#!/usr/bin/env bash
# RUSTC_WRAPPER for run.sh: runs rustc under valgrind (cachegrind without
# cache simulation: instruction counts only) when it compiles one of the
# crates named in $CC_VALGRIND_CRATE (space-separated), and plain rustc
# otherwise. valgrind's report goes to $CC_VALGRIND_LOG/CRATE.log, so cargo's
# reading of rustc's stderr is undisturbed.
set -euo pipefail
rustc=$1
shift
prev=
for arg in "$@"; do
    if [ "$prev" = --crate-name ]; then
        for want in ${CC_VALGRIND_CRATE:-}; do
            if [ "$arg" = "$want" ]; then
                exec valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
                    --log-file="$CC_VALGRIND_LOG/$arg.log" "$rustc" "$@"
            fi
        done
        break
    fi
    prev=$arg
done
exec "$rustc" "$@"
