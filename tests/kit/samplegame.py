"""The repository's sample game (spring-1924 of the Chicago map, every gang's orders),
copied for a test that changes it; or copied without its orders, for a test of the
mail that brings them, with two gangs' passwords and the turn's deadline."""

from __future__ import annotations

import shutil
from collections.abc import Mapping
from pathlib import Path

from gamekit import password_hash
from msgspec.structs import replace
from repokit import ROOT

from moonshine.game.directory import Game, save_config

TURN = "spring-1924"
DEADLINE = "2024-03-01T18:00:00+00:00"
PASSWORDS = {"valley": "valley-secret-1924", "outfit": "outfit-secret-1924"}
FILES = ("game.yaml", ".moonshine-secret")
FOLDERS = ("orders", "turns")


def copy_sample(dest: Path) -> Path:
    """The sample game's files copied into ``dest`` (created); returns ``dest``."""
    dest.mkdir(parents=True, exist_ok=True)
    for name in FILES:
        shutil.copy2(ROOT / name, dest / name)
    for name in FOLDERS:
        shutil.copytree(ROOT / name, dest / name)
    return dest


def sample_to_order(dest: Path, *, emails: Mapping[str, list[str]] | None = None) -> Game:
    """The sample game copied into ``dest`` without its orders of ``TURN``: the
    ``PASSWORDS`` of valley and outfit, the ``DEADLINE`` of the turn, and ``emails``,
    the addresses of the gangs it names instead of the sample's."""
    copy_sample(dest)
    for p in (dest / "orders" / TURN).glob("*.txt"):
        p.unlink()
    game = Game(dest)
    players = dict(game.config.players)
    for gang, addresses in (emails or {}).items():
        players[gang] = replace(players[gang], email=addresses)
    for gang, password in PASSWORDS.items():
        players[gang] = replace(players[gang], password=password_hash(password))
    save_config(game, replace(game.config, players=players, extra={**game.config.extra, "deadlines": {TURN: DEADLINE}}))
    return Game(dest)
