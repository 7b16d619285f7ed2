#!/usr/bin/env bash
# Make .venv (Python 3.11+) with pasur and its development tools installed. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."
python=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$python" -m venv .venv
fi
stamp=.venv/.pasur-installed
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  .venv/bin/python -m pip install --quiet --upgrade pip
  # The CPU build of torch (the training example). On this project's machines pip takes it from
  # the local disk; plain 'torch' would fetch a CUDA build of several GB.
  .venv/bin/python -m pip install --quiet torch==2.13.0
  .venv/bin/python -m pip install --quiet -e '.[dev]'
  touch "$stamp"
fi
