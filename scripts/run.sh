#!/usr/bin/env bash
# The main job: set up, then watch bots play a whole match of Pasur in the terminal.
# Arguments go to `pasur demo` (e.g. --players 4 --seed 7, or bot names: greedy random).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/pasur demo "$@"
