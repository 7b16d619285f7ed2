#!/usr/bin/env bash
# The files to publish, in dist/: the source archive and, from it, a wheel for this machine's
# CPython, repaired by auditwheel into a manylinux wheel the package index accepts. (For every
# CPython 3.11-3.13 at once, a CI with cibuildwheel uses [tool.cibuildwheel] in pyproject.toml.)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh >/dev/null
rm -rf dist build/wheels
.venv/bin/python -m build --outdir build/wheels .
PATH="$PWD/.venv/bin:$PATH" .venv/bin/python -m auditwheel repair --plat "manylinux_2_17_$(uname -m)" -w dist build/wheels/pasur-*-linux_*.whl
cp build/wheels/pasur-*.tar.gz dist/
ls dist
