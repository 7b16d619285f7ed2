#!/usr/bin/env bash
# Every test: set up, then lint (ruff), type-check (mypy) and run the test suite (pytest).
# The browser tests drive Debian's Chromium (a browser cannot be downloaded here), and the proxy
# tests Debian's nginx, and the C core is compiled by Clang too: each is installed when missing
# and we may (root with apt-get). A
# throwaway PostgreSQL is started for the PostgreSQL tests the same way. Without them those tests
# are skipped, and say so.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# Debian's Chromium (the browser tests), nginx (a proxy in front of the server) and Clang (the
# native core is compiled with every C compiler found, warnings as errors, and for WebAssembly)
missing=""
command -v chromium >/dev/null 2>&1 || missing="$missing chromium"
command -v clang >/dev/null 2>&1 || missing="$missing clang"
[ -x /usr/sbin/nginx ] || command -v nginx >/dev/null 2>&1 || missing="$missing nginx-light"
# Clang 14's WebAssembly tools (the browser's engine is checked to be what the C sources build)
[ -x /usr/bin/wasm-ld-14 ] || missing="$missing lld-14"
[ -d /usr/lib/wasm32-wasi ] || missing="$missing wasi-libc"
dpkg -s libclang-rt-14-dev-wasm32 >/dev/null 2>&1 || missing="$missing libclang-rt-14-dev-wasm32"
if [ -n "$missing" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
fi
if [ -z "${PASUR_TEST_POSTGRES:-}" ]; then
  started=$(bash scripts/postgres-for-tests.sh || true)
  if [ -n "$started" ]; then
    export PASUR_TEST_POSTGRES=${started% *}
    trap 'bash scripts/postgres-for-tests.sh stop "${started#* }"' EXIT
  fi
fi
.venv/bin/ruff check src tests benchmarks examples setup.py
.venv/bin/ruff format --check src tests benchmarks examples setup.py
.venv/bin/mypy
.venv/bin/lint-imports --no-cache
# the suite on every core (at most 4; PASUR_TEST_WORKERS=0 runs it in this one process)
.venv/bin/pytest --numprocesses "${PASUR_TEST_WORKERS:-auto}" --maxprocesses 4 "$@"
