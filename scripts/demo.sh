#!/usr/bin/env bash
# make demo: the game master's main job on the bundled sample game, in a scratch copy.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.venv/bin
echo "== moonshine map check"
$BIN/moonshine map check
