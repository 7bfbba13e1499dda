#!/usr/bin/env bash
# Builds the crate for wasm32-unknown-unknown with every feature (`utoipa`
# implies `schemars`), then the module in tests/wasm (default features), and runs it under Node's
# WebAssembly if `node` is installed: a profile reads and writes without any
# setup; the attribute registry is empty until the module's constructors run
# (`__wasm_call_ctors`, exported as `init`), then works.
#
# Without the target it says so and exits 0 (`--strict`: exits 1); add it
# with `rustup target add wasm32-unknown-unknown`.
#
# Usage: scripts/wasm.sh [--strict]
set -euo pipefail
cd "$(dirname "$0")/.."
TARGET=wasm32-unknown-unknown

if ! rustup target list --installed 2>/dev/null | grep -qx "$TARGET"; then
    echo "wasm: the $TARGET target is not installed; skipped"
    echo "wasm: install it with: rustup target add $TARGET"
    [ "${1:-}" = "--strict" ] && exit 1
    exit 0
fi

export CARGO_TARGET_DIR="$PWD/target/wasm"
cargo build --lib --target "$TARGET" --features arbitrary_precision,raw_value,utoipa
cargo build --release --target "$TARGET" --manifest-path tests/wasm/Cargo.toml
MODULE="$CARGO_TARGET_DIR/$TARGET/release/json_subtypes_wasm_check.wasm"

if ! command -v node >/dev/null; then
    echo "wasm: built $MODULE; node is not installed, so it was not run"
    [ "${1:-}" = "--strict" ] && exit 1
    exit 0
fi

node - "$MODULE" <<'JS'
const fs = require("fs");
const bytes = fs.readFileSync(process.argv[2]);
const fresh = () => new WebAssembly.Instance(new WebAssembly.Module(bytes), {}).exports;
const expect = (what, got, want) => {
  if (got !== want) {
    console.error(`wasm: ${what}: got ${got}, expected ${want}`);
    process.exit(1);
  }
  console.log(`wasm: ${what}: ok`);
};
let m = fresh();
expect("a profile, without init", m.profile_round_trip(), 1);
expect("the registry, without init (empty)", m.registry_round_trip(), 2);
m = fresh();
m.init();
expect("the registry, after init", m.registry_round_trip(), 1);
expect("a profile, after init", m.profile_round_trip(), 1);
JS
