"""A game's secret seeds: the one function that makes every secret seed of the
project (a game's raid seed, a judge's seed of the draws of sides), the hash that is
published of it, and the record of a seed replaced during a
game (game.yaml's ``earlier_seeds``), which says which seed drew which turn.

A seed is drawn from the operating system's random source (``secrets``) and from
nothing else: never from a name, a date, another seed or anything a player is told
before the end of the game. A seed that could be derived from something published is
replaced (``moonshine.game.jobs.replace_seed``); the seed it replaces, no longer a
secret, is kept in game.yaml with the last turn it drew, so that the raids stay
auditable after the end (RULES.md, "Auditing the raid draw")."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Mapping
from typing import Any

import msgspec

from moonshine.errors import StateError

SECRET_BYTES = 16  # 128 bits, written as 32 hexadecimal digits
EARLIER = "earlier_seeds"  # game.yaml's key
# Why a seed was replaced, as a value (the bulletin words it from the catalogue).
DERIVED_FROM_START_MAIL = "derived-from-start-mail"
REVEALED_AT_END = "revealed-at-end"  # revealed when a master terminated the game, which was then resumed
REASONS = (DERIVED_FROM_START_MAIL, REVEALED_AT_END)


def new_secret() -> str:
    """A new secret seed: 32 hexadecimal digits from the operating system's random
    source. Every secret seed of a game or a judge is made here."""
    return secrets.token_hex(SECRET_BYTES)


def seed_hash(seed: str) -> str:
    """The SHA-256 of a seed, in hexadecimal: what is published of it."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


class EarlierSeed(msgspec.Struct, frozen=True):
    """A seed the game no longer uses: it drew the raids of the turns up to
    ``last_turn``; ``replaced`` is when (ISO 8601), ``reason`` why (one of
    ``REASONS``). Public once replaced: it was replaced because it could be derived, or
    because it was revealed at an end that was taken back."""

    seed: str
    sha256: str
    last_turn: str
    replaced: str
    reason: str

    def as_dict(self) -> dict[str, str]:
        return {f: getattr(self, f) for f in self.__struct_fields__}


def earlier_seeds(extra: Mapping[str, Any], source: str = "game.yaml") -> list[EarlierSeed]:
    """game.yaml's ``earlier_seeds``, checked: each a mapping of the five fields, its
    hash that of its seed, its reason a known one."""
    raw = extra.get(EARLIER) or []
    if not isinstance(raw, list):
        raise StateError(source, EARLIER, "expected a list of the seeds replaced during the game")
    out: list[EarlierSeed] = []
    for i, item in enumerate(raw):
        where = f"{EARLIER}[{i}]"
        try:
            seed = msgspec.convert(item, EarlierSeed)
        except msgspec.ValidationError as exc:
            raise StateError(source, where, f"expected seed, sha256, last_turn, replaced, reason ({exc})") from None
        if seed_hash(seed.seed) != seed.sha256:
            raise StateError(source, f"{where}.sha256", "is not the SHA-256 of the seed beside it")
        if seed.reason not in REASONS:
            raise StateError(source, f"{where}.reason", f"expected one of {', '.join(REASONS)}, found {seed.reason!r}")
        out.append(seed)
    return out
