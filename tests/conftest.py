"""Shared fixtures: the bundled map and its starting state."""

from __future__ import annotations

import sys

import pytest

from moonshine.geo import GameMap, load_map
from moonshine.state import GameState, initial_state


@pytest.fixture(scope="session")
def chicago() -> GameMap:
    return load_map("chicago-1920s")


@pytest.fixture
def start(chicago: GameMap) -> GameState:
    return initial_state(chicago)


@pytest.hookimpl(tryfirst=True)
def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Print the adjudicator case catalogue's counts per section (tests/test_cases.py),
    before pytest's own closing line."""
    cases = sys.modules.get("test_cases")
    for line in getattr(cases, "summary", list)():
        terminalreporter.write_line(line)
