"""What-if adjudication, as a rule family answers it (``Family.predict``): a block of
orders in (the lines of a player's ``predict`` block, with the number of the first),
a plain value out (``Prediction``). The mail command that asks for it
(``moonshine.mail.commands.predict``) words the answer and mails the account and
its picture.

Each line is read by the family's checker as the order of the side whose unit it
names (``read_block``, shared by every family: ``gang:``/``power:`` lines inside the
block say whose orders follow); units without an order hold. Nothing in the game
changes, and no order a side really sent is read. A block with any line no side
can take is refused whole, each such line with its reason, so that a prediction
never silently leaves an order out."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import msgspec

# The value: its first to last non-blank character, taken run by run; possessive runs
# (*+, ++) are never given back, so a line costs one pass ("(.*?)\s*$" cost one per character).
SIDE_LINE = re.compile(r"^\s*+(?:gang|bande|power|puissance)\s*+:\s*+((?:\S++|\s++(?=\S))*+)\s*+$", re.IGNORECASE)

T = TypeVar("T")


class Block(msgspec.Struct, frozen=True):
    """A ``predict`` block to adjudicate: the game, its turn and state, the side that
    asks (its orders are tried first), the block's lines (the first numbered
    ``first``, as in the message) and the reader's language."""

    game: Any  # a moonshine.game.directory.Game
    turn: str
    st: Any  # the turn's state (a GameState, or a classic game's ClassicState)
    side: str
    lines: tuple[str, ...]
    first: int
    language: str


class Prediction(msgspec.Struct, frozen=True):
    """A block adjudicated, or refused: the lines no side can take, each with its
    reason (then nothing is adjudicated); else the orders adjudicated (none: an
    empty block), the account order by order in the reader's language, and the map
    with the orders as arrows (None when the map cannot be drawn)."""

    orders: int = 0
    text: str = ""
    picture: bytes | None = None
    problems: tuple[str, ...] = ()


def read_block(
    block: Block, sides: Sequence[str], read: Callable[[str, str], tuple[T | None, str]]
) -> tuple[list[tuple[str, T, int]], list[str]]:
    """The lines of a ``predict`` block, each read as the order of the side a
    ``gang:``/``power:`` line names, else of the asking side, else of the first
    other side (in ``sides``' order) whose unit it names. ``read(side, line)`` gives
    the order taken, or None and the reason it was not. Returns (side, order, line
    number) for every line taken, and a problem for each line no side can take and
    each side line naming no side."""
    from moonshine.render import mailwords

    lang = block.language
    taken: list[tuple[str, T, int]] = []
    problems: list[str] = []
    named: str | None = None
    for offset, line in enumerate(block.lines):
        number = block.first + offset
        if not line.strip():
            continue
        m = SIDE_LINE.match(line)
        if m:
            named = block.game.side_by_name(m.group(1))
            if named is None:
                problems.append(mailwords.text(lang, "predict.no_gang", n=number, name=m.group(1)[:40]))
            continue
        tried = [named] if named else [block.side, *(s for s in sides if s != block.side)]
        first_reason = ""
        for side in tried:
            order, reason = read(side, line)
            if order is not None:
                taken.append((side, order, number))
                break
            first_reason = first_reason or reason
        else:
            shown = line.strip()[:60]
            problems.append(mailwords.text(lang, "predict.bad_line", n=number, text=shown, reason=first_reason or "?"))
    return taken, problems
