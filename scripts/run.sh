#!/usr/bin/env bash
# The main job: set up, then serve the web game (tables against bots or with friends) and print
# its address. Arguments go to `pasur serve` (e.g. --port 8080, --host 0.0.0.0, --database URL).
# To play in the terminal instead: .venv/bin/pasur play
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh web,tui
exec .venv/bin/pasur serve "$@"
