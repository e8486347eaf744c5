# Two commands on a fresh machine with Python 3.11: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# The locked set of every package, runtime and dev, with exact versions and hashes
# (written by `make lock` from pyproject.toml's ranges; see README, "Set-up").
LOCK := requirements/dev.txt

.PHONY: screenshots crash install demo test lint typecheck unit package bench bench-deps agree clean compare-turns lock catalogue-newest

install: $(STAMP)

# The lock first (pip itself and the build backend included), then the project over it,
# editable, with the locked setuptools and no other download.
$(STAMP): $(LOCK) pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --require-hashes -r $(LOCK)
	$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e .
	touch $(STAMP)

# Refresh the locks to the newest releases that pyproject.toml's ranges allow, for every
# Python from 3.11 on (uv's universal resolution), then install them: run it to take new
# releases or after changing a dependency in pyproject.toml, then `make test`, and commit
# requirements/ with the change.
UV_COMPILE = $(BIN)/uv pip compile --quiet --universal --python-version 3.11 --generate-hashes --upgrade
lock: $(STAMP)
	$(UV_COMPILE) pyproject.toml requirements/build.in --extra dev -o requirements/dev.txt
	$(UV_COMPILE) pyproject.toml -o requirements/runtime.txt
	$(UV_COMPILE) requirements/bench.in -c requirements/dev.txt -o requirements/bench.txt
	$(BIN)/python -m pip install --quiet --require-hashes -r $(LOCK)
	touch $(STAMP)

demo: $(STAMP)
	@bash scripts/demo.sh

lint: $(STAMP)
	$(BIN)/ruff check moonshine tests bench scripts
	$(BIN)/ruff format --check moonshine tests bench scripts

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)
	$(BIN)/pytest

# The wheel, installed without -e into a fresh venv outside the checkout, runs both variants.
package: $(STAMP)
	bash scripts/wheel-check.sh

test: lint typecheck package unit

# The order checker and the adjudicator agree on 2,400 random order files (300 positions, 8 gangs),
# and the classic check with the classic movement phase on 300 random positions.
agree: $(STAMP)
	MOONSHINE_AGREEMENT_EXAMPLES=300 $(BIN)/pytest -q tests/variants/moonshine/test_agreement.py tests/variants/classic/test_classic_check_agrees.py

# The catalogue tests with the newest Babel on top of the locked one: a release that
# extracts differently, or counts French otherwise, shows here before `make lock` takes it.
catalogue-newest: $(STAMP)
	@newest=$$(mktemp -d) && trap 'rm -rf "$$newest"' EXIT && \
	$(BIN)/python -m pip install --quiet --upgrade --target "$$newest" babel && \
	PYTHONPATH="$$newest" $(BIN)/python -c 'import babel; print("Babel", babel.__version__, "(newest)")' && \
	PYTHONPATH="$$newest" $(BIN)/pytest -q -p no:cacheprovider tests/text/test_catalogue.py

bench-deps: $(STAMP)
	$(BIN)/python -m pip install --quiet --require-hashes -r requirements/bench.txt  # bench/classic.py only

bench: bench-deps
	$(BIN)/python -m bench

# Whole turns written by revision BEFORE and by the working tree, compared byte by byte
# (PNG pictures pixel by pixel): make compare-turns BEFORE=9d7d926
compare-turns: $(STAMP)
	$(BIN)/python scripts/compare_turns.py $(BEFORE)

clean:
	rm -rf $(VENV) .venv-newest build *.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis

# Jobs killed at every write point and at 50 random times, and an SMTP server
# dropping connections in 10 games; prints the counts (a short version runs in make test).
crash: $(STAMP)
	MOONSHINE_CRASH=full MOONSHINE_SMTP_ROUNDS=10 $(BIN)/pytest tests/game/test_crash.py tests/mail/test_crash_mail.py tests/mail/test_crash_inbox.py tests/mail/test_mail_once.py tests/mail/test_run_crash.py -q -s -p no:cacheprovider

# The reports and the archive (Moonshine and classic) in headless Chromium at 390 px and 1280 px
# (and 390 px in dark mode): PNGs in
# build/screenshots/; fails if a page scrolls sideways or shows a broken image.
# Not part of make test. Installs Chromium from the system's packages when missing.
screenshots: $(STAMP)
	@command -v chromium >/dev/null || command -v chromium-browser >/dev/null || command -v google-chrome >/dev/null || \
		{ echo "Installing Chromium (apt-get)"; SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium \
		  || DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium-browser; }
	$(BIN)/python scripts/screenshots.py
