"""Shared fixtures: the bundled map and its starting state."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from moonshine.geo import GameMap, load_map
from moonshine.state import GameState, initial_state


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


@pytest.hookimpl(tryfirst=True)
def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Print the adjudicator case catalogue's counts per section (tests/test_cases.py)
    and the DATC run's (tests/test_datc.py), before pytest's own closing line."""
    for name in ("test_cases", "test_datc", "test_agreement"):
        for line in getattr(sys.modules.get(name), "summary", list)():
            terminalreporter.write_line(line)
