"""The library's error family. The CLI turns these into ``Error: ...`` messages."""

from __future__ import annotations


class MoonshineError(Exception):
    """Base class of every error the referee reports to its users."""


class DataError(MoonshineError):
    """A data file (map, state, game) is malformed: names the file and the key."""

    def __init__(self, source: str, key: str, problem: str) -> None:
        self.source = source
        self.key = key
        self.problem = problem
        where = f"{source}: {key}" if key else source
        super().__init__(f"{where}: {problem}")


class MapError(DataError):
    """The map file is malformed or inconsistent."""


class StateError(DataError):
    """A state or game file is malformed or inconsistent."""


class GameError(MoonshineError):
    """An operation on a game directory cannot be carried out."""


class GameBusy(GameError):
    """Another job holds the game's (or the judge's) lock, and did not let go of it in
    time (``moonshine.game.lock``): try again when it has finished."""
