"""Shared fixtures: the bundled map and its starting state."""

from __future__ import annotations

import pytest

from moonshine.geo import GameMap, load_map
from moonshine.state import GameState, initial_state


@pytest.fixture(scope="session")
def chicago() -> GameMap:
    return load_map("chicago-1920s")


@pytest.fixture
def start(chicago: GameMap) -> GameState:
    return initial_state(chicago)
