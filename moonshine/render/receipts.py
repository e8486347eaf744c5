"""Receipts: proof, for a player, that the orders the judge adjudicated are the
orders it acknowledged.

Every acknowledgement carries a receipt: the first 20 hexadecimal digits of the
SHA-256 of a salt, a line break, and the canonical text of the orders as
recorded (one order a line, each ending in a line break). After the turn, the
gang's report lists the recorded orders and the salt, so the player recomputes
the receipt with a few lines of Python's standard library (the README shows
how) and compares it with the one in the acknowledgement. The salt keeps the
receipt from telling anyone else what the orders were before the turn is
published.

The salt is derived from the game's secret seed (HMAC-SHA256 of
``receipt:TURN:GANG``, the same construction as the raid draws of R21 with a
message no turn name can take), so nothing more is stored, a re-sent
acknowledgement carries the same receipt, and publishing one salt reveals
neither the seed nor any other gang's salt.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence

DIGITS = 20  # hexadecimal digits shown: 80 bits


def salt(seed: str, turn: str, gang: str) -> str:
    """The salt of ``gang``'s receipt for ``turn`` (64 hexadecimal digits)."""
    message = f"receipt:{turn}:{gang}".encode()
    return hmac.new(seed.encode("utf-8"), message, hashlib.sha256).hexdigest()


def recorded_text(orders: Sequence[str]) -> str:
    """The canonical orders as the receipt covers them: one a line, each ending in
    a line break, in the order recorded."""
    return "".join(f"{line.strip()}\n" for line in orders if line.strip())


def receipt(salt_hex: str, orders: Sequence[str]) -> str:
    """The receipt: ``3f2a-91c4-07be-55d0-e1a9``."""
    digest = hashlib.sha256(f"{salt_hex}\n{recorded_text(orders)}".encode()).hexdigest()[:DIGITS]
    return "-".join(digest[i : i + 4] for i in range(0, DIGITS, 4))
