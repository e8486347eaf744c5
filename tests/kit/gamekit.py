"""The one game factory of the tests: a new game directory of any variant, with its
players (names, addresses, passwords, time zones), its language and the sections of
game.yaml a test needs (``smtp``, ``deadlines``, ``schedule``, ``inbox``, ``referee``,
``observers``, ``rules``...). The kits' and modules' games (``mailkit.outbox_game``,
``inboxkit.inbox_game``, ``playerkit.make_table``, ``runkit.unattended_game``...) are
this factory with their own settings. And a game's lock held by another process."""

from __future__ import annotations

import functools
import subprocess
from collections.abc import Callable, Collection, Mapping, Sequence
from pathlib import Path
from typing import Any

from msgspec.structs import replace

from moonshine.game.directory import Game, Player, save_config
from moonshine.game.families import new_game
from moonshine.mail.passwords import hash_password


@functools.cache
def password_hash(password: str) -> str:
    """The salted hash of ``password``, computed once per test run (scrypt is slow on purpose)."""
    return hash_password(password)


def make_game(
    root: Path,
    *,
    variant: str = "moonshine",
    seed: str | None = "test",
    git: bool = False,
    commit: str | None = "Players and schedule",
    language: str = "en",
    sides: Collection[str] | None = None,
    name: Callable[[str], str] = str,
    emails: Mapping[str, Sequence[str]] | Callable[[str], Sequence[str]] | None = None,
    passwords: Mapping[str, str] | None = None,
    timezones: Mapping[str, str | None] | None = None,
    **sections: Any,
) -> Game:
    """A new game of ``variant`` in ``root`` (its secret seed ``seed``, a random one for
    None; a git repository with ``git``) in ``language``, then game.yaml set:

    - ``sides`` (every side when None) each get a player: ``name(side)``, the addresses
      ``emails`` gives it (a mapping, or a function of the side), the salted hash of the
      password ``passwords`` gives it, the time zone ``timezones`` gives it; the other
      sides stay as ``new_game`` wrote them;
    - ``sections``: game.yaml's other sections, over those ``new_game`` wrote.

    With ``git``, the change is committed with the message ``commit`` (None: left uncommitted)."""
    game = new_game(root, seed=seed, use_git=git, variant=variant, language=language)
    cfg = game.config
    given = emails or {}
    addresses = given if callable(given) else lambda side: given.get(side, [])
    passwords, timezones = passwords or {}, timezones or {}
    players = dict(cfg.players)
    for side in cfg.players if sides is None else sides:
        players[side] = Player(
            name=name(side),
            email=list(addresses(side)),
            password=password_hash(passwords[side]) if side in passwords else None,
            timezone=timezones.get(side),
        )
    save_config(game, replace(cfg, players=players, extra={**cfg.extra, **sections}))
    if git and commit is not None:
        subprocess.run(["git", "commit", "-qam", commit], cwd=root, check=True, capture_output=True)
    return Game(root)


def hold_lock(root: str, ready: Any, release: Any) -> None:
    """Hold the game's lock as a job would, in a process of its own (a kit's function, so
    that a process started with "spawn" imports it by name): ``ready`` set once held,
    released when ``release`` is set (20 s at most)."""
    from moonshine.game.lock import game_lock

    with game_lock(root, job="adjudicate spring-1924"):
        ready.set()
        release.wait(20)
