"""``moonshine judge check DIR [--repair]``: the registry of a judge for many games
against its games on the disk.

``check`` says what a pass would refuse or what is out of step: the judge's directory
leading outside itself, a registry missing, empty or damaged (``RegistryError``), a game
of the registry without its directory, a directory of ``games/`` the registry does not
know, a game being played whose ``game.yaml`` names other players than the registry,
folders a killed ``create`` left in ``.building/``. It changes nothing.

``repair`` rebuilds what can be rebuilt, and deletes nothing: a registry the judge
cannot use is moved aside (``registry.sqlite.damaged-TIME``, with its ``-wal`` and
``-shm``) and a new one made; every game of ``games/`` the registry lacks is entered
from its own files: its variant and settings (title, language, schedule, press, house
rules), its players from ``game.yaml`` (name, address, password hash, time zone,
language; registered and confirmed, since they played), each with their side, its
vacant sides, its masters (``referee.email``; one not registered yet is, with no
password: ``forgot`` gets them one), and its status (finished when it is over, being
played when it has a deadline, players or a turn adjudicated, else waiting for
players). What a game's files do not hold is lost with the registry: who joined a game
waiting for players, the minimum dedication of a game, each player's dedication."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from moonshine.errors import MoonshineError
from moonshine.game.directory import Game, deadline
from moonshine.host.registry import (
    FILE,
    FINISHED,
    FORMING,
    GAME_NAME,
    PAUSED,
    RUNNING,
    Registry,
    RegistryError,
)
from moonshine.host.settings import BUILDING, HostSettings, check_judge_dir, games_on_disk, load
from moonshine.text.english import count

Say = Callable[[str], None]


def check(root: Path, say: Say) -> int:
    """What is wrong with the judge in ``root``, one line each; the number of problems."""
    settings = load(root)
    problems = 0

    def bad(line: str) -> None:
        nonlocal problems
        problems += 1
        say(f"PROBLEM {line}")

    try:
        check_judge_dir(settings.root)
    except MoonshineError as exc:
        bad(str(exc))
        return problems
    try:
        reg = Registry(settings.root / FILE, create=False)
        reg.check()
    except RegistryError as exc:
        bad(str(exc))
        found = games_on_disk(settings.root)
        if found:
            names, games = ", ".join(found), count(len(found), "game")
            say(f"games/ holds {games}: {names}; --repair rebuilds the registry from them")
        return problems
    try:
        on_disk = set(games_on_disk(settings.root))
        known = {row.name: row for row in reg.games()}
        for name, row in sorted(known.items()):
            if name not in on_disk:
                bad(f"{name} ({row.status}) is in the registry, and games/{name} has no game.yaml")
        for name in sorted(on_disk - set(known)):
            bad(f"games/{name} is not in the registry (--repair enters it)")
        for name, row in sorted(known.items()):
            if name not in on_disk or row.status not in (RUNNING, PAUSED):
                continue
            try:
                cfg = Game(settings.game_dir(name)).config
            except MoonshineError as exc:
                bad(f"games/{name}: {exc}")
                continue
            seats = {m.side: m.player.address for m in reg.members(name) if m.side is not None}
            for side, player in sorted(cfg.players.items()):
                written = sorted(a.lower() for a in player.email)
                wanted = [seats[side]] if side in seats else []
                if written != wanted and not row.sync:
                    bad(
                        f"games/{name}: {side} is {', '.join(written) or 'vacant'} in game.yaml, "
                        f"{', '.join(wanted) or 'vacant'} in the registry"
                    )
        building = settings.root / BUILDING
        if building.is_dir():
            for left in sorted(building.iterdir()):
                say(f"note: {BUILDING}/{left.name} was left by a create that did not finish; it may be removed")
        players = reg.count_players()
    finally:
        reg.close()
    if not problems:
        agree = f"{count(len(known), 'game')}, {count(players, 'player')}"
        say(f"{settings.root}: the registry and the games agree ({agree})")
    return problems


def repair(root: Path, say: Say, now: datetime | None = None) -> int:
    """Rebuild what can be rebuilt (see the module); the number of problems left."""
    settings = load(root)
    now = now or datetime.now(UTC).replace(microsecond=0)
    check_judge_dir(settings.root)
    path = settings.root / FILE
    try:
        reg = Registry(path, create=False)
        reg.check()
    except RegistryError as exc:
        say(f"the registry cannot be used: {exc}")
        stamp = now.strftime("%Y%m%dT%H%M%S")
        for suffix in ("", "-wal", "-shm", "-journal"):
            old = settings.root / f"{FILE}{suffix}"
            if old.exists() or old.is_symlink():
                aside = settings.root / f"{FILE}{suffix}.damaged-{stamp}"
                shutil.move(str(old), str(aside))
                say(f"moved aside: {old.name} -> {aside.name}")
        reg = Registry(path, create=True)
        say(f"a new registry: {path.name}")
    try:
        known = {row.name for row in reg.games()}
        for name in games_on_disk(settings.root):
            if name in known:
                continue
            if not GAME_NAME.fullmatch(name):
                say(f"games/{name}: not a name the judge gives a game; left out")
                continue
            try:
                enter_game(settings, reg, name, now, say)
            except MoonshineError as exc:
                say(f"games/{name}: could not be entered: {exc}")
    finally:
        reg.close()
    lines: list[str] = []
    left = check(root, lines.append)
    for line in lines:
        say(line)
    return left


def enter_game(settings: HostSettings, reg: Registry, name: str, now: datetime, say: Say) -> None:
    """A game of ``games/`` entered in the registry from its own files."""
    from moonshine.mail.turns import is_over

    game = Game(settings.game_dir(name))
    cfg = game.config
    turn = game.current_turn()
    extra = cfg.extra
    schedule = extra.get("schedule") or {"every": "72h", "timezone": settings.timezone}
    options: dict[str, object] = {
        "title": cfg.title,
        "language": cfg.language,
        "schedule": schedule,
        "press": extra.get("press") or {"kind": "white"},
        "dedication": 0,
        "sides": list(game.sides()),
    }
    if extra.get("rules"):
        options["rules"] = extra["rules"]
    seated = {side: p for side, p in cfg.players.items() if p.email}
    masters = []
    referee = (extra.get("referee") or {}).get("email") or []
    for address in [referee] if isinstance(referee, str) else list(referee):
        masters.append(_player_for(reg, str(address).strip().lower(), None, now))
    ids = {}
    for side, p in seated.items():
        found = _player_for(reg, p.email[0].strip().lower(), p, now)
        ids[side] = found
    creator = masters[0] if masters else next(iter(ids.values()), None)
    if creator is None:
        raise RegistryError(f"games/{name} names neither a master (referee.email) nor a player")
    over = is_over(game, turn)
    played = len(game.turns()) > 1 or bool(seated) or deadline(cfg, turn) is not None
    status = FINISHED if over else RUNNING if played else FORMING
    with reg.transaction():
        reg.add_game(name, game.variant.name, options, creator, now)
        for pid in masters[1:]:
            reg.add_master(name, pid)
        for side, pid in ids.items():
            reg.join(name, pid, [], now)
            reg.assign(name, {pid: side})
            reg.conn.execute("UPDATE members SET welcomed = 1 WHERE game = ? AND player = ?", (name, pid))
        if status != FORMING:
            reg.add_vacancies(name, [s for s in game.sides() if s not in ids], now)
        reg.set_status(name, status)
        reg.set_sync(name, False)
        reg.set_recorded(name, game.turns()[-2] if len(game.turns()) > 1 else "")
    who = f"{count(len(ids), 'player')}, {count(len(masters), 'master')}"
    say(f"entered games/{name}: {game.variant.name}, {status}, {who}")


def _player_for(reg: Registry, address: str, player: object, now: datetime) -> int:
    """The registered player of ``address``, entered from a game's ``players`` entry
    when the registry has none (a master with none: named after the address, no
    password yet)."""
    from moonshine.game.directory import Player

    found = reg.player(address)
    if found is not None:
        return found.id
    if isinstance(player, Player):
        name = player.name or address.partition("@")[0]
        new = reg.register(
            address,
            name,
            timezone=player.timezone,
            language=player.language or "en",
            now=now,
            password_hash=player.password,
        )
        if player.password is None:
            reg.password_mailed(new.id)
        reg.confirm(new.id, now)
        return new.id
    new = reg.register(address, address.partition("@")[0], timezone=None, language="en", now=now, password_hash=None)
    reg.password_mailed(new.id)  # no password mailed unasked: 'forgot' gets one
    reg.confirm(new.id, now)
    return new.id
