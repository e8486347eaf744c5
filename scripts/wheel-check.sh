#!/usr/bin/env bash
# The package as users install it: build a wheel, install it (not editable) into
# a fresh venv outside the checkout, then create and adjudicate a game of each
# built-in variant from there. The maps and the rules book must come from the wheel.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
work=$(mktemp -d)
log="$work/log"
trap 'rm -rf "$work"' EXIT
trap 'echo "wheel check failed; its log:" >&2; cat "$log" >&2' ERR
# Built with the locked build backend, installed over the locked runtime packages.
.venv/bin/python -m build --wheel --no-isolation --outdir "$work/dist" . >"$log" 2>&1
$PYTHON -m venv "$work/venv"
"$work/venv/bin/python" -m pip install --quiet --require-hashes -r requirements/runtime.txt >>"$log" 2>&1
"$work/venv/bin/python" -m pip install --quiet --no-deps "$work"/dist/moonshine-*.whl >>"$log" 2>&1
# The package's papers: the licence in the metadata and the typing marker.
wheel=$(ls "$work"/dist/moonshine-*.whl)
"$work/venv/bin/python" - "$wheel" <<'PY' >>"$log" 2>&1 || { echo "wheel check: the wheel's papers are incomplete" >&2; exit 1; }
import sys, zipfile
names = zipfile.ZipFile(sys.argv[1]).namelist()
meta = zipfile.ZipFile(sys.argv[1]).read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
assert "License-Expression: MIT" in meta, "no licence in METADATA"
assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names), "no LICENSE file in the wheel"
assert "moonshine/py.typed" in names, "no py.typed"
assert "Programming Language :: Python :: 3.13" in meta
PY
site=$("$work/venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
# Every file of the top-level maps/ and templates/ folders is installed inside the package.
for f in $(git ls-files maps templates) RULES.md; do
  test -f "$site/moonshine/$f" || { echo "wheel check: the wheel lacks moonshine/$f (pyproject.toml's packages and package-data)" >&2; exit 1; }
done
cd "$work"
bin="$work/venv/bin/moonshine"
"$bin" new moonshine-game --seed wheel-check >>"$log" 2>&1
"$bin" adjudicate spring-1924 --game moonshine-game --no-commit --force >>"$log" 2>&1
test -f moonshine-game/turns/spring-1924/results.yaml
test -n "$(find moonshine-game -name '*.png')"  # reports and map pictures were written
"$bin" site --game moonshine-game >>"$log" 2>&1  # the web archive, with the rules book from the wheel
grep -q "R21" moonshine-game/site/rules.html
"$bin" new classic-game --variant classic >>"$log" 2>&1
"$bin" adjudicate spring-1901 --game classic-game --no-commit --force >>"$log" 2>&1
test -n "$(ls classic-game/turns/spring-1901)"
"$bin" new pure-game --variant pure >>"$log" 2>&1
"$bin" adjudicate spring-1901 --game pure-game --no-commit --force >>"$log" 2>&1
test -f pure-game/turns/fall-1901/state.yaml
if "$work/venv/bin/python" -c 'import moonshine, sys; sys.exit(0 if "/site-packages/" in moonshine.__file__ else 1)'; then
  echo "wheel check: moonshine, classic and pure games created and adjudicated from an installed wheel"
else
  echo "wheel check: moonshine was not imported from the installed wheel" >&2
  exit 1
fi
