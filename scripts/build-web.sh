#!/usr/bin/env bash
# Builds the npm package `hnefi` in web/: the engine compiled to WebAssembly twice (simd128 and
# scalar, web/hnefi.wasm and web/hnefi-scalar.wasm) and the bench positions as a module
# (web/bench-positions.js). `npm run build` in web/ runs it.
#
# The compiler: rustup's target wasm32-unknown-unknown where rustup is (added if missing), or
# else Debian's rustc-web (apt-get install rustc-web cargo-web rust-web-src rust-web-llvm
# lld-22), which builds the standard library itself (-Z build-std).
set -euo pipefail
cd "$(dirname "$0")/.."
# Each build its own folder: the flags differ, and one folder would rebuild all at each switch.
wasm_dir="${CARGO_TARGET_DIR_WASM:-$PWD/target/wasm}"
target=wasm32-unknown-unknown
build=(cargo build --release --locked -p hnefi-wasm --target "$target")
if command -v rustup >/dev/null; then
    if ! rustup target list --installed | grep -qx "$target"; then
        echo "build-web: adding rustup's target $target" >&2
        rustup target add "$target" >&2
    fi
elif [ -x /usr/bin/rustc ]; then
    # Debian's rustc-web has no prebuilt standard library for the target: build it.
    export RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1
    export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER="${CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER:-rust-lld}"
    build+=(-Z build-std=std,panic_abort)
else
    echo "build-web: no compiler for $target: install rustup (rustup.rs), or Debian's" \
        "rustc-web cargo-web rust-web-src rust-web-llvm lld-22" >&2
    exit 1
fi
for kind in scalar simd128; do
    echo "build-web: the $kind build" >&2
    sign=-
    [ "$kind" = simd128 ] && sign=+
    CARGO_TARGET_DIR="$wasm_dir/$kind" RUSTFLAGS="-C target-feature=${sign}simd128" "${build[@]}"
done
cp "$wasm_dir/scalar/$target/release/hnefi_wasm.wasm" web/hnefi-scalar.wasm
cp "$wasm_dir/simd128/$target/release/hnefi_wasm.wasm" web/hnefi.wasm
{
    echo "// Made by scripts/build-web.sh from positions/bench.fen: hnefi bench's positions."
    echo "export const BENCH_POSITIONS = ["
    grep -v '^#' positions/bench.fen | grep -v '^[[:space:]]*$' | cut -d';' -f1 |
        sed -E 's/[[:space:]]+$//; s/.*/  "&",/'
    echo "];"
} > web/bench-positions.js
ls -l web/hnefi.wasm web/hnefi-scalar.wasm >&2
