#!/usr/bin/env bash
# The files to publish, in dist/: the source archive and, from it, one wheel for each CPython
# 3.11-3.14 this machine has (scripts/pythons.py finds them), each repaired by auditwheel into a
# manylinux wheel the package index accepts. (A CI with cibuildwheel uses [tool.cibuildwheel] in
# pyproject.toml instead.) tests/test_install.py installs and runs each such wheel on its own.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh >/dev/null
rm -rf dist build/wheels
.venv/bin/python -m build --sdist --outdir dist .
sdist=$(ls dist/pasur-*.tar.gz)
for python in $(.venv/bin/python scripts/pythons.py); do
  "$python" -m pip wheel --quiet --no-deps --wheel-dir build/wheels "$sdist"
done
PATH="$PWD/.venv/bin:$PATH" .venv/bin/python -m auditwheel repair --plat "manylinux_2_17_$(uname -m)" -w dist build/wheels/pasur-*-linux_*.whl
ls dist
