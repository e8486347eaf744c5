"""Deadlines as each player reads them: in the player's own time zone
(``players.GANG.timezone`` in game.yaml), else in the game's (``schedule.timezone``),
and always in UTC as well, so that nobody has to convert a time to know when
orders are due."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from moonshine.game.directory import Game, GameConfig, deadline
from moonshine.render.mailwords import date_text, deadline_line, due_text

_UTC_NAMES = ("UTC", "Etc/UTC", "Etc/GMT", "GMT", "Universal", "Zulu")


def zone_of(cfg: GameConfig, side: str | None) -> ZoneInfo | None:
    """The time zone deadlines are shown in to ``side``'s players (None: UTC only)."""
    from moonshine.game.schedule import zone_named

    player = cfg.players.get(side) if side else None
    if player is not None and player.timezone:
        zone = zone_named(player.timezone, f"players.{side}.timezone")
    else:
        raw = cfg.extra.get("schedule")
        if not (isinstance(raw, dict) and raw.get("timezone")):
            return None
        zone = zone_named(raw["timezone"], "schedule.timezone")
    return None if zone.key in _UTC_NAMES else zone


def local_time(when: datetime, zone: ZoneInfo, language: str = "en") -> str:
    """``2026-12-03 18:00 CET (Europe/Paris)``, or in French
    ``3 décembre 2026 à 18 h 00 CET (Europe/Paris)``."""
    local = when.astimezone(zone)
    abbrev = local.tzname() or ""
    name = f"{abbrev} ({zone.key})" if abbrev and abbrev != zone.key else zone.key
    return date_text(language, local, name)


def deadline_text(cfg: GameConfig, side: str | None, when: datetime, language: str | None = None) -> str:
    """A deadline for ``side``'s players: in their zone and in UTC (``Thursday 3
    December 2026, 18:00 CET = 17:00 UTC``), or in UTC alone when neither they nor the game
    have another zone (``moonshine.render.mailwords.due_text``)."""
    return due_text(language or cfg.language, when, zone_of(cfg, side))


def next_deadline_line(
    game: Game,
    turn: str | None,
    side: str | None,
    language: str,
    *,
    opened: datetime | None = None,
    sentence: bool = True,
) -> str:
    """ "Orders for Autumn 1924 are due Thursday 3 December 2026, ... (in 1 day 18
    hours).", in ``side``'s zone (the game's for None) and UTC (``sentence`` false: the
    date and the time left alone, for a report's first row); or nothing when ``turn``
    has no deadline yet. A turn with no deadline in game.yaml that ``opened`` now, in a
    game with a schedule, is due when the schedule sets it (``moonshine run`` writes
    that deadline next)."""

    if turn is None:
        return ""
    due = deadline(game.config, turn)
    if due is None and opened is not None:
        from moonshine.game.schedule import parse_schedule

        raw = game.config.extra.get("schedule")
        due = None if raw is None else parse_schedule(raw).deadline(opened, turn)
    if due is None:
        return ""
    named = game.layout.turn_in_text(turn)  # worded in the reader's language
    return deadline_line(language, named, due, zone_of(game.config, side), now=opened, sentence=sentence)
