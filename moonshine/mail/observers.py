"""Observers: addresses listed in ``game.yaml`` (``observers:``) that follow a
game without playing it. They receive the public bulletin and broadcast press,
never private press or a gang's report, and may ask the judge for ``status``
and ``history`` by mail (``moonshine.mail.commands``)."""

from __future__ import annotations

from moonshine.errors import StateError
from moonshine.game.directory import GAME_FILE, GameConfig


def addresses(cfg: GameConfig) -> list[str]:
    """The observers' addresses, lower case, sorted, each once; an address that is
    also a player's is left out (a player is never mailed as an observer)."""
    raw = cfg.extra.get("observers")
    if raw is None:
        return []
    found = [raw] if isinstance(raw, str) else raw
    if not isinstance(found, list) or not all(isinstance(a, str) for a in found):
        raise StateError(GAME_FILE, "observers", "expected an address or a list of addresses")
    players = {a.strip().lower() for p in cfg.players.values() for a in p.email}
    return sorted({a.strip().lower() for a in found if a.strip()} - players)
