"""A saved game adjudicated again, as a value: how many turns (or phases) were
compared, and each one whose outcome differs from the file's, with the orders given
and both positions. Written by every rule family's replay (the classic family's
saved games, ``moonshine.variants.classic.savedgame``; Moonshine's own export,
``moonshine.variants.moonshine.replay``) and printed by ``moonshine replay``."""

from __future__ import annotations

import msgspec


class Difference(msgspec.Struct, frozen=True):
    """A turn (or phase) whose outcome differs from the file's: its orders by side,
    our position and the file's (each a list of items by heading), and what differs,
    a line each."""

    phase: str
    orders: dict[str, list[str]]
    ours: dict[str, list[str]]
    theirs: dict[str, list[str]]
    what: list[str]


class Replay(msgspec.Struct, frozen=True):
    """A saved game replayed: the turns compared, those with orders, the differences,
    what could not be read; ``steps`` names what was replayed (``phases``, ``turns``),
    ``rules`` under which rules (``the 2023 rules``), ``notes`` how (said once, after
    the count)."""

    compared: int
    with_orders: int
    differences: list[Difference]
    unreadable: list[str]
    steps: str = "phases"
    rules: str = ""
    notes: list[str] = msgspec.field(default_factory=list)
