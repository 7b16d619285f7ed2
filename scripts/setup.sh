#!/usr/bin/env bash
# Make .venv (Python 3.11+) with pasur installed, with the extras named (default: dev, which is
# every extra and the development tools). Safe to run again.
#   bash scripts/setup.sh            # everything: what the tests need
#   bash scripts/setup.sh web,tui    # what serving and playing need
set -euo pipefail
cd "$(dirname "$0")/.."
extras=${1:-dev}
python=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$python" -m venv .venv
fi
stamp=".venv/.pasur-installed-${extras//,/-}"
# Reinstall when the project or the native core's sources changed since the last install.
if [ ! -f "$stamp" ] || [ -n "$(find pyproject.toml src/pasur/core -maxdepth 1 \( -name pyproject.toml -o -name '_*.[ch]' \) -newer "$stamp")" ]; then
  .venv/bin/python -m pip install --quiet --upgrade pip
  if [ "$extras" = dev ]; then
    # The CPU build of torch (the training example). On this project's machines pip takes it from
    # the local disk; plain 'torch' would fetch a CUDA build of several GB.
    .venv/bin/python -m pip install --quiet torch==2.13.0
  fi
  .venv/bin/python -m pip install --quiet -e ".[$extras]"
  touch "$stamp"
fi
