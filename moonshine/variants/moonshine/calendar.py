"""Turn names (R25): ``spring-1924``, ``autumn-1924``, ``spring-1925``, ..."""

from __future__ import annotations

import re

import msgspec

SEASONS = ("spring", "autumn")
# A turn may be written in French too (printemps-1924, automne-1924): the game's
# canonical name stays the English one.
_SEASON_WORDS = {"spring": 0, "autumn": 1, "printemps": 0, "automne": 1}
_TURN = re.compile(r"^(spring|autumn|printemps|automne)-(\d{4})$")
UNTOUCHABLES_FROM = "spring-1929"


class Turn(msgspec.Struct, frozen=True, order=True):
    year: int
    season_index: int  # 0 spring, 1 autumn

    @classmethod
    def parse(cls, text: str) -> Turn:
        m = _TURN.match(text.strip().lower())
        if not m:
            raise ValueError(f"not a turn name: {text!r} (expected e.g. spring-1924 or autumn-1925)")
        return cls(int(m.group(2)), _SEASON_WORDS[m.group(1)])

    @property
    def season(self) -> str:
        return SEASONS[self.season_index]

    @property
    def name(self) -> str:
        return f"{self.season}-{self.year}"

    def next(self) -> Turn:
        if self.season_index == 0:
            return Turn(self.year, 1)
        return Turn(self.year + 1, 0)

    def previous(self) -> Turn:
        if self.season_index == 1:
            return Turn(self.year, 0)
        return Turn(self.year - 1, 1)

    def number(self, start: Turn) -> int:
        """1 for the starting turn, 2 for the next, ..."""
        return (self.year - start.year) * 2 + (self.season_index - start.season_index) + 1

    def __str__(self) -> str:
        return self.name


def is_untouchables(turn: str) -> bool:
    """From spring 1929 (the 11th turn) the Untouchables raid instead of the police (R23)."""
    return Turn.parse(turn) >= Turn.parse(UNTOUCHABLES_FROM)
