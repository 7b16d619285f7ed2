#!/usr/bin/env bash
# The main job: set up, then play Pasur in the terminal against a bot (full screen on a terminal,
# line by line otherwise). Arguments go to `pasur play` (e.g. --opponents hard --players 4 --lang fa).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/pasur play "$@"
