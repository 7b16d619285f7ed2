#!/usr/bin/env bash
# Build the browser's engine: the C core (src/pasur/core/_wasm.c and the headers it includes)
# compiled to WebAssembly with Clang 14's wasm32 target and the WASI C library, into
# src/pasur/server/static/engine.wasm, which is committed (pip installs need no compiler for it).
# Run it after any change to the C core; tests/test_wasm.py checks that the committed file is what
# the sources build. On Debian the tools are: apt-get install clang-14 lld-14 wasi-libc
# libclang-rt-14-dev-wasm32 (this script installs them when it may).
#   bash scripts/build-wasm.sh [OUTPUT]
set -euo pipefail
cd "$(dirname "$0")/.."
output=${1:-src/pasur/server/static/engine.wasm}
if ! command -v clang-14 >/dev/null 2>&1 || [ ! -x /usr/bin/wasm-ld-14 ] || [ ! -d /usr/lib/wasm32-wasi ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq clang-14 lld-14 wasi-libc libclang-rt-14-dev-wasm32 >/dev/null
  else
    echo "build-wasm: needs clang-14, lld-14, wasi-libc and libclang-rt-14-dev-wasm32" >&2
    exit 1
  fi
fi
# -Wno-unused-function: the browser uses a part of the headers the Python extension shares.
# The stack (1 MB: the search recurses once a play, its frames holding the move lists) lies first
# in memory, so that running over it traps instead of writing over the engine's data unseen (with
# wasm-ld's default, 64 KB above the data, a larger search frame once did: the browser's values
# came out different from the Python ones with no error).
clang-14 --target=wasm32-wasi --sysroot=/usr -O2 -mexec-model=reactor -fuse-ld=/usr/bin/wasm-ld-14 \
  -Wall -Werror -Wno-unused-function -Wno-unneeded-internal-declaration -Wl,--strip-all \
  -Wl,--stack-first -Wl,-z,stack-size=1048576 \
  -o "$output" src/pasur/core/_wasm.c
