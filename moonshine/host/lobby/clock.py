"""The masters' commands on a game's clock, beside ``pause``, ``resume`` and ``extend``
(``moonshine.host.lobby.masters``): ``deadline GAME WHEN`` (the current turn's
deadline set to a time, earlier or later, never before now), ``grace GAME HOURS``
(the grace after a deadline for a side with no orders), ``process GAME`` (the turn
adjudicated at the game's next pass, once every side with a player has orders) and
``rollback GAME TURN`` (the game back at the start of an adjudicated turn, played
again). Each changes the registry only, in the mail's transaction; the game's
directory follows at the pass's next step (``moonshine.host.games``), and every
player of the game is told (``moonshine.host.lobby.announce``)."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any

from moonshine.host.announcements import game_zone
from moonshine.host.lobby.announce import announce, turn_words
from moonshine.host.lobby.request import LobbyRequest, after_game, game_named, status_word
from moonshine.host.registry import ACTIVE, PAUSED, RUNNING, GameRow
from moonshine.mail.commands.grammar import MASTER, Answer, Command, CommandLine, Refused
from moonshine.render.mailwords import phrase
from moonshine.text.catalogue import languages

# 2026-12-05 18:00, 2026-12-05T18:00, 2026-12-05 (the end of that day), then a time zone (UTC, Europe/Paris)
_WHEN = re.compile(r"(\d{4}-\d{2}-\d{2})(?:[ T](\d{1,2})[:h](\d{2}))?(?:\s+([A-Za-z][A-Za-z0-9_+/-]{0,40}))?")
MAX_HOURS = 720  # the farthest a deadline or a grace goes (30 days)


def _when(text: str, zone: str) -> datetime | None:
    """A time as a master writes it, in the game's zone unless another is named."""
    from zoneinfo import ZoneInfo

    m = _WHEN.fullmatch(text.strip())
    if m is None:
        return None
    day, hour, minute, named = m.groups()
    try:
        tz = ZoneInfo("UTC" if named and named.upper() in ("UTC", "GMT", "Z") else named or zone)
        at = datetime.fromisoformat(day).replace(tzinfo=tz)
        return at + (timedelta(hours=int(hour), minutes=int(minute)) if hour else timedelta(hours=23, minutes=59))
    except (ValueError, KeyError, OSError):
        return None


def _playing(req: LobbyRequest, cmd: CommandLine) -> GameRow:
    row = game_named(req, cmd)
    if row.status not in ACTIVE:
        raise Refused(phrase("lobby.pause.not_running", game=row.name, status=status_word(row.status)))
    return row


def deadline(req: LobbyRequest, cmd: CommandLine) -> Answer:
    """``deadline GAME WHEN``: the current turn's deadline, set to WHEN (in the game's
    time zone unless another is named), earlier or later, never before now."""
    from moonshine.host import games

    row = _playing(req, cmd)
    zone = game_zone(row, req.ctx.settings.timezone)
    new = _when(" ".join(after_game(cmd, row)), zone)
    if new is None:
        raise Refused(phrase("lobby.deadline.usage", game=row.name, zone=zone))
    if new <= req.ctx.now:
        raise Refused(phrase("lobby.deadline.past", due=req.moment(new, zone)))
    if new > req.ctx.now + timedelta(hours=MAX_HOURS):
        raise Refused(phrase("lobby.deadline.far", days=MAX_HOURS // 24))
    turn, due = games.current_deadline(req.ctx.settings, req.reg, row)
    if row.status == PAUSED:
        raise Refused(phrase("lobby.deadline.paused", game=row.name))
    req.reg.set_deadline(row.name, f"{turn} {new.isoformat()}")
    if due is None:
        announce(req, row, "deadline_set", key=str(cmd.line), turn=turn, due=new)
    else:
        announce(req, row, "deadline", key=str(cmd.line), turn=turn, due=new, was=due)
    return Answer(
        cmd,
        True,
        phrase("lobby.deadline.done", turn=turn_words(req, row, turn), game=row.name, due=req.moment(new, zone)),
    )


def grace(req: LobbyRequest, cmd: CommandLine) -> Answer:
    """``grace GAME HOURS``: the time a side with no orders gets after a deadline (0: none)."""
    from moonshine.host.lobby.configure import change_setting

    row = game_named(req, cmd)
    given = after_game(cmd, row)
    hours = given[0].lower().rstrip("h") if len(given) == 1 else ""
    if not hours.isdigit() or int(hours) > MAX_HOURS:
        raise Refused(phrase("lobby.grace.usage"))
    return change_setting(req, cmd, row, "grace", f"{int(hours)}h")


def process(req: LobbyRequest, cmd: CommandLine) -> Answer:
    """``process GAME``: the current turn adjudicated at the game's next pass, without
    waiting for its deadline, when every side with a player has orders; else who is
    missing. (Players who are ready say so with their orders; this is the master's.)"""
    from moonshine.host import games
    from moonshine.mail.disorder import expected

    row = game_named(req, cmd)
    if row.status != RUNNING:
        raise Refused(phrase("lobby.pause.not_running", game=row.name, status=status_word(row.status)))
    game = games.game_of(req.ctx.settings, row.name)
    turn, due = games.current_deadline(req.ctx.settings, req.reg, row)
    waiting = [s for s in expected(game, turn) if not (game.orders_dir(turn) / f"{s}.txt").is_file()]
    if waiting:
        names = game.sides(req.language if req.language in languages() else "en")
        raise Refused(phrase("lobby.process.waiting", game=row.name, sides=", ".join(names[s] for s in waiting)))
    req.reg.set_process(row.name, turn)
    announce(req, row, "process", key=str(cmd.line), turn=turn, was=due if due is not None else "-")
    return Answer(cmd, True, phrase("lobby.process.done", game=row.name, turn=turn_words(req, row, turn)))


def rollback(req: LobbyRequest, cmd: CommandLine) -> Answer:
    """``rollback GAME TURN``: the game back at the start of TURN, an adjudicated turn
    (its results and every later turn removed, the orders kept, as ``moonshine
    rollback``); TURN is played again, with a deadline from the game's schedule."""
    from moonshine.errors import MoonshineError
    from moonshine.host import games
    from moonshine.mail.turns import schedule_of

    row = _playing(req, cmd)
    game = games.game_of(req.ctx.settings, row.name)
    current = game.current_turn()
    played = [t for t in game.turns() if t != current]
    given = "-".join(after_game(cmd, row)).lower()
    try:
        key = game.turn_key(given) if given else None
    except MoonshineError:
        key = None
    turn = next((t for t in played if key is not None and game.turn_key(t) == key), None)
    if turn is None:
        raise Refused(phrase("lobby.rollback.usage", game=row.name, turns=", ".join(played) or "-"))
    schedule = schedule_of(game)
    due = schedule.deadline(req.ctx.now, turn) if schedule is not None else None
    req.reg.set_rollback(row.name, turn)
    req.reg.set_process(row.name, None)
    fields: dict[str, Any] = {"turn": turn}
    if row.status == PAUSED:
        left = int((due - req.ctx.now).total_seconds()) if due is not None else None
        req.reg.set_paused(row.name, row.paused_at, left)
        req.reg.set_deadline(row.name, f"{turn} {games.NO_DEADLINE}")
        what = "rollback_paused"
    elif due is not None:
        req.reg.set_deadline(row.name, f"{turn} {due.isoformat()}")
        what, fields["due"] = "rollback", due
    else:
        what = "rollback_no_deadline"
    announce(req, row, what, key=str(cmd.line), **fields)
    done = phrase(
        "lobby.rollback.done",
        game=row.name,
        turn=turn_words(req, row, turn),
        due=req.moment(due) if due is not None else "-",
    )
    return Answer(cmd, True, done)


DEADLINE = Command("deadline", {"en": ("deadline",), "fr": ("échéance",)}, deadline, who=MASTER)
GRACE = Command("grace", {"en": ("grace",), "fr": ("grâce",)}, grace, who=MASTER)
PROCESS = Command("process", {"en": ("process",), "fr": ("arbitrer",)}, process, who=MASTER)
ROLLBACK = Command("rollback", {"en": ("rollback",), "fr": ("revenir",)}, rollback, who=MASTER)
