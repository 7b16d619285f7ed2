#!/usr/bin/env bash
# Every test: set up, then lint (ruff), type-check (mypy) and run the test suite (pytest).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/ruff check src tests benchmarks examples
.venv/bin/ruff format --check src tests benchmarks examples
.venv/bin/mypy
.venv/bin/pytest "$@"
