"""The registry of variants: every game names one in ``game.yaml`` (``variant:``).

A variant is a value: its name, the rule family that plays it (``moonshine``, the
Chicago game; ``classic``, Diplomacy's rules), its title and its default map.
Moonshine is built in; every folder of ``maps/`` with a ``variant.yaml``
(``classic/``, the standard board; ``pure/``, a board defined by data alone) is a
variant of the classic family, so a new map in that family needs no code.
"""

from __future__ import annotations

from functools import cache

import msgspec

from moonshine.errors import GameError
from moonshine.variants.layout import CLASSIC_LAYOUT, MOONSHINE_LAYOUT, Layout

MOONSHINE = "moonshine"
CLASSIC = "classic"


class Variant(msgspec.Struct, frozen=True):
    name: str
    family: str  # the rules that play it: MOONSHINE or CLASSIC
    title: str
    description: str
    map: str  # the map (Moonshine) or board (classic family) a new game uses

    @property
    def layout(self) -> Layout:
        """The family's turns, sides and states (``moonshine.variants.layout``)."""
        return LAYOUTS[self.family]

    @property
    def side(self) -> str:
        """What a player leads, as the game's messages say it: a gang, or a power."""
        return self.layout.side

    def turn_key(self, name: str) -> tuple[int, ...]:
        """A key ordering the variant's turns (``spring-1924``) or phases
        (``spring-1901-retreats``); ValueError for a name that is neither."""
        return self.layout.turn_key(name)


LAYOUTS: dict[str, Layout] = {MOONSHINE: MOONSHINE_LAYOUT, CLASSIC: CLASSIC_LAYOUT}


_MOONSHINE = Variant(
    MOONSHINE,
    MOONSHINE,
    "Moonshine",
    "Eight gangs fight over Prohibition-era Chicago (the map chicago-1920s).",
    "chicago-1920s",
)


@cache
def _registry() -> dict[str, Variant]:
    # the boards are read only when a classic-family variant is asked for: a Moonshine
    # game's commands (a player's check among them) never parse them
    from moonshine.variants.classic.board import board, board_names

    found = {MOONSHINE: _MOONSHINE}
    for name in board_names():
        info = board(name).info
        found[name] = Variant(name, CLASSIC, info.title, info.description, name)
    return found


def names() -> list[str]:
    """The variants' names: Moonshine first, then the classic family's boards."""
    return list(_registry())


def is_known(name: str) -> bool:
    """Whether a variant is called ``name``."""
    return isinstance(name, str) and (name == MOONSHINE or name in _registry())


def get(name: str) -> Variant:
    """The variant called ``name``; an error with a suggestion when there is none."""
    if name == MOONSHINE:
        return _MOONSHINE
    registry = _registry()
    if name in registry:
        return registry[name]
    import difflib

    close = difflib.get_close_matches(name, list(registry), n=1)
    hint = f" (did you mean {close[0]}?)" if close else ""
    raise GameError(f"unknown variant {name!r}{hint}; the variants are {', '.join(registry)}")
