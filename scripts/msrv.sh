#!/usr/bin/env bash
# Checks that the library builds with the `rust-version` of Cargo.toml.
#
# The committed Cargo.lock is resolved for the newest compilers: some of its
# (dev-)dependencies need a newer Rust than ours, and an old cargo refuses to
# even load their manifests. So this works on a temporary copy of the
# repository, with a lock file resolved for our MSRV
# (`CARGO_RESOLVER_INCOMPATIBLE_RUST_VERSIONS=fallback`: the newest version
# of each dependency whose own `rust-version` we satisfy), and runs
# `cargo +MSRV check --lib` there. It installs nothing: without that
# toolchain it says so and exits 0 (`--strict`: exits 1).
#
# Usage: scripts/msrv.sh [--strict]
set -euo pipefail
cd "$(dirname "$0")/.."

MSRV=$(sed -n 's/^rust-version *= *"\(.*\)"/\1/p' Cargo.toml | head -n1)
[ -n "$MSRV" ] || { echo "msrv: no rust-version in Cargo.toml" >&2; exit 1; }

if ! rustup run "$MSRV" rustc --version >/dev/null 2>&1; then
    echo "msrv: toolchain $MSRV is not installed; skipped"
    echo "msrv: install it with: rustup toolchain install $MSRV --profile minimal"
    [ "${1:-}" = "--strict" ] && exit 1
    exit 0
fi

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# Everything but build output and VCS data.
tar --exclude=./target --exclude=./fuzz/target --exclude=./.git -cf - . | tar -xf - -C "$TMP"

cd "$TMP"
# The resolver needs a cargo that knows the fallback setting (1.84+): the
# default toolchain's.
CARGO_RESOLVER_INCOMPATIBLE_RUST_VERSIONS=fallback cargo generate-lockfile --quiet
echo "msrv: checking the library with Rust $MSRV ($(rustup run "$MSRV" rustc --version))"
CARGO_TARGET_DIR="$TMP/target" cargo "+$MSRV" check --lib --locked
echo "msrv: the library builds with Rust $MSRV"
