"""The civil-disorder player's common parts (R26), for every rule family.

A side in civil disorder does not merely hold: a deterministic player writes its
orders, from the position, the rules and a seed. The seed is
HMAC-SHA256(key = the game's secret seed, message = ``civil-disorder|TURN|SIDE``),
so that nobody can predict the orders before the game ends and anyone can
recompute them once ``moonshine reveal`` shows the secret (RULES.md, "Auditing the
civil-disorder player"). The player draws from ``random.Random`` seeded with that
HMAC read as a big-endian integer, and only where a choice is genuinely open.

Its orders file begins with a mark, a comment line that both families' readers skip::

    # civil disorder: keep (R26), seed 9f2c...

Each family's player is its own module: ``moonshine.variants.moonshine.civil_disorder``
(``keep``) and ``moonshine.variants.classic.civil_disorder`` (``hold``, ``smart``).
"""

from __future__ import annotations

import hashlib
import hmac
import random
import re
from collections.abc import Iterable
from typing import Generic, TypeVar

import msgspec

RULING = "R26"
KEEP = "keep"  # Moonshine: keeps its units and territory
HOLD = "hold"  # classic: the rulebook's civil disorder
SMART = "smart"  # classic: supports its threatened units, keeps its home centres covered

_SEED = re.compile(r"[0-9a-f]{64}")
_MARK = re.compile(r"# civil disorder: ([a-z]+) \(R\d+\), seed ([0-9a-f]{64})")

OrderT = TypeVar("OrderT")


def civil_disorder_seed(secret: str, turn: str, side: str) -> str:
    """The seed of ``side``'s civil-disorder orders in ``turn`` (a turn or phase name
    as the game's directories write it, a side's key): HMAC-SHA256 with the game's
    secret seed as key and ``civil-disorder|TURN|SIDE`` as message, both in UTF-8,
    as 64 lowercase hexadecimal digits."""
    message = f"civil-disorder|{turn}|{side}"
    return hmac.new(secret.encode("utf-8"), message.encode("utf-8"), hashlib.sha256).hexdigest()


def draws(seed: str) -> random.Random:
    """The player's random draws: ``random.Random`` seeded with the seed read as one
    big-endian integer. ValueError for a seed that is not 64 hexadecimal digits."""
    if not _SEED.fullmatch(seed):
        raise ValueError(f"{seed!r} is not a civil-disorder seed (64 hexadecimal digits, civil_disorder_seed)")
    return random.Random(int(seed, 16))


def pick(rng: random.Random, tied: list[str]) -> str:
    """One of ``tied`` (given in a fixed order): the only one without a draw, else
    drawn from ``rng``."""
    return tied[0] if len(tied) == 1 else rng.choice(tied)


class Mark(msgspec.Struct, frozen=True):
    """What an orders file's first line says of the civil-disorder player that wrote
    it: the player (``keep``, ``hold``, ``smart``) and the seed it drew from."""

    player: str
    seed: str

    def line(self) -> str:
        return f"# civil disorder: {self.player} ({RULING}), seed {self.seed}"


def read_mark(text: str) -> Mark | None:
    """The civil-disorder mark of an orders file's text: its first line that is not
    blank, when that line is one (None otherwise: a player's own orders)."""
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        m = _MARK.fullmatch(line)
        return None if m is None else Mark(m.group(1), m.group(2))
    return None


class Written(msgspec.Struct, Generic[OrderT], frozen=True):
    """The orders a civil-disorder player gives a side: as the family's order values
    and as the orders file a player would send (the mark, the side's header line,
    one order a line), which the family's checker reads back to the same orders."""

    player: str
    seed: str
    orders: tuple[OrderT, ...]
    text: str


def orders_file(mark: Mark, header: str, lines: Iterable[str]) -> str:
    """The file's text: the mark, the header line, then each order on its own line."""
    return "".join(line + "\n" for line in (mark.line(), header, *lines))
