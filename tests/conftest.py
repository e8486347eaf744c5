"""The fixtures every folder of tests/ shares: the bundled map and its starting state,
a real SMTP server for a test (``smtp``) and a real IMAP server for a module
(``imap``), both on 127.0.0.1, and their twins that take OAuth2 access tokens only
(``smtp_xoauth2``, ``imap_xoauth2``). They are defined here and nowhere else
(tests/project/test_tests_layout.py checks it); what they are made of, and what a
test imports to use them, is in tests/kit/: ``smtpkit`` (the one recording handler,
``Recorder``, and ``Server``), ``imapkit``, ``portkit`` (the one free-port helper)
and ``gamekit`` (the one game factory)."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import goldenkit
import imapkit
import pytest
import smtpkit
from hypothesis import settings

from moonshine.variants.moonshine.map import GameMap, load_map
from moonshine.variants.moonshine.state import GameState, initial_state

# Hypothesis: a run on a developer's machine explores new examples each time; CI (and
# anyone reproducing a red CI run: HYPOTHESIS_PROFILE=ci make test) draws the same
# examples every run and prints how to replay a failure (@reproduce_failure).
settings.register_profile("ci", derandomize=True, print_blob=True, database=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "default"))


def pytest_configure(config: pytest.Config) -> None:
    if goldenkit.MODE not in (None, "1"):
        raise pytest.UsageError(
            f"UPDATE_GOLDEN={goldenkit.MODE!r}: set it to 1 to rewrite the golden files, or leave it unset"
        )


@pytest.fixture(scope="session", autouse=True)
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The referee's cache (parsed maps, the pictures' labels) in a directory of the test
    run's own, not the user's."""
    path = tmp_path_factory.mktemp("cache")
    os.environ["MOONSHINE_CACHE_DIR"] = str(path)
    return path


@pytest.fixture(scope="session")
def chicago() -> GameMap:
    return load_map("chicago-1920s")


@pytest.fixture
def start(chicago: GameMap) -> GameState:
    return initial_state(chicago)


@pytest.fixture
def smtp() -> Iterator[smtpkit.Server]:
    """A real SMTP server (aiosmtpd on 127.0.0.1) for one test, with a fresh ``Recorder``:
    ``smtp.smtp()`` is game.yaml's section for it, ``smtp.recorder`` what it received."""
    with smtpkit.smtp_server() as server:
        yield server


@pytest.fixture(scope="module")
def imap(tmp_path_factory: pytest.TempPathFactory) -> Iterator[imapkit.Server]:
    """A real IMAP server (pymap on 127.0.0.1, STARTTLS and TLS) for a module's tests, which
    each use folders of their own; ``imapkit.client``, ``deliver`` and ``runkit.post`` fill it."""
    with imapkit.imap_server(tmp_path_factory.mktemp("imap")) as server:
        yield server


@pytest.fixture
def smtp_xoauth2() -> Iterator[smtpkit.Server]:
    """A real SMTP server for one test that takes XOAUTH2 logins only, and no mail without
    one: its ``smtpkit.TokenRecorder`` takes the tokens of its ``tokens`` (none at first)."""
    with smtpkit.xoauth2_server() as server:
        yield server


@pytest.fixture(scope="module")
def imap_xoauth2(tmp_path_factory: pytest.TempPathFactory) -> Iterator[imapkit.Server]:
    """A real IMAP server for a module's tests that takes OAuth2 access tokens only (pymap
    with ``pymap_xoauth2.py``): ``imapkit.take_tokens`` says which."""
    with imapkit.imap_server(tmp_path_factory.mktemp("imap"), xoauth2=True) as server:
        yield server


@pytest.hookimpl(tryfirst=True)
def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Print the adjudicator case catalogue's counts per section (tests/variants/test_cases.py),
    the DATC run's (tests/variants/classic/test_datc.py) and the agreement's
    (tests/variants/moonshine/test_agreement.py), before pytest's own closing line."""
    loaded = {name.rpartition(".")[2]: module for name, module in list(sys.modules.items())}
    for name in ("test_cases", "test_datc", "test_agreement"):
        for line in getattr(loaded.get(name), "summary", list)():
            terminalreporter.write_line(line)
    if goldenkit.UPDATE:
        terminalreporter.write_line(f"UPDATE_GOLDEN=1: {len(goldenkit.changed)} golden file(s) changed")
        for line in goldenkit.changed:
            terminalreporter.write_line(f"  {line}")
