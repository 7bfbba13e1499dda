#!/usr/bin/env bash
# Instructions per write of the one-field object (valgrind), in a crate
# where the payload sits in one enum of each kind, then (--features shared)
# in three. Usage: benches/write_probe/run.sh [N]
set -euo pipefail
cd "$(dirname "$0")"
N=${1:-2000}
for features in "" shared; do
    cargo build --release -q ${features:+--features $features}
    bin=target/release/write_probe
    ir() {
        valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
            "$bin" "$1" "$2" 2>&1 | awk '/I *refs/ {gsub(",", "", $NF); print $NF}'
    }
    for row in plain ours serde; do
        echo "${features:-single} $row $(( ($(ir $row $N) - $(ir $row 0)) / N ))"
    done
done
