#!/usr/bin/env bash
# make demo: the game master's main job on the bundled sample game, in a scratch copy
# (demo-game/), so the sample itself stays as shipped.
set -euo pipefail
cd "$(dirname "$0")/.."
MOONSHINE=.venv/bin/moonshine
DEMO=demo-game

echo "== The map"
$MOONSHINE map check

rm -rf "$DEMO"
mkdir -p "$DEMO"
cp -r game.yaml .moonshine-secret orders turns "$DEMO"/
echo
echo "== The sample game, copied to $DEMO/"
$MOONSHINE adjudicate spring-1924 --game "$DEMO" --no-commit
echo
echo "Results and the next turn are under $DEMO/turns/."
