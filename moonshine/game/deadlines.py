"""A turn's deadline: written into ``game.yaml`` (``deadlines: {TURN: TIME}``), where
the inbox, ``status``, ``remind`` and the adjudication read it, and worded as each
player reads it.

The unattended judge (``moonshine run``) writes each turn's deadline there from the
schedule; the game master may still write or change one by hand. The edit changes
one line (or adds one) and leaves every other line of the file (comments, order,
quoting) as the game master wrote it; a layout the line edit does not know (flow
style) gets the whole file written again.

A deadline is shown in the player's own time zone (``players.GANG.timezone`` in
game.yaml), else in the game's (``schedule.timezone``), and always in UTC as well,
so that nobody has to convert a time to know when orders are due."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from typing import TYPE_CHECKING

import msgspec

from moonshine import yamlio
from moonshine.errors import MoonshineError
from moonshine.game.directory import (
    Game,
    GameConfig,
    atomic_write_text,
    deadline,
    load_config_text,
    same_settings,
    save_config,
)

if TYPE_CHECKING:
    from zoneinfo import ZoneInfo


def stamp(when: datetime) -> str:
    """How a deadline is written: ISO 8601 in UTC, to the second."""
    return when.astimezone(UTC).replace(microsecond=0).isoformat()


def write_deadline(game: Game, turn: str, when: datetime) -> None:
    """Set ``deadlines.TURN`` in game.yaml (the caller holds the game's lock, in a
    transaction)."""
    text = game.config_path.read_text(encoding="utf-8")
    cfg = game.config
    deadlines = dict(cfg.extra.get("deadlines") or {})
    deadlines[turn] = stamp(when)
    want = msgspec.structs.replace(cfg, extra={**cfg.extra, "deadlines": deadlines})
    edited = _edit(text, turn, stamp(when), want, str(game.config_path))
    if edited is None:
        save_config(game, want)
    else:
        atomic_write_text(game.config_path, edited)
    game.forget_config()


def clear_deadline(game: Game, turn: str) -> None:
    """Take ``deadlines.TURN`` out of game.yaml (a paused game's turn has none; the
    caller holds the game's lock, in a transaction)."""
    cfg = game.config
    deadlines = dict(cfg.extra.get("deadlines") or {})
    if deadlines.pop(turn, None) is None:
        return
    extra = {k: v for k, v in cfg.extra.items() if k != "deadlines"}
    if deadlines:
        extra["deadlines"] = deadlines
    save_config(game, msgspec.structs.replace(cfg, extra=extra))
    game.forget_config()


def _edit(text: str, turn: str, value: str, want: GameConfig, src: str) -> str | None:
    raw = yamlio.loads(text, src)
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    quoted = json.dumps(value)
    section = raw.get("deadlines") if isinstance(raw, dict) else None
    if isinstance(section, yamlio.LineDict) and section:
        if turn in section:
            i = section.line_of(turn) - 1
            # (no "\s*" before "[^:#]+", which holds blanks too: the two traded them, one pass per blank)
            m = re.match(r"^([^:#]+:[ \t]*)(?:'[^']*'|\"[^\"]*\"|[^#\s]+)([ \t]+#.*)?(\r?\n)?$", lines[i])
            if m is None:
                return None
            lines[i] = m.group(1) + quoted + (m.group(2) or "") + "\n"
        else:
            first = section.line_of(next(iter(section))) - 1
            indent = lines[first][: len(lines[first]) - len(lines[first].lstrip())]
            last = max(section.lines.values()) - 1
            lines.insert(last + 1, f"{indent}{turn}: {quoted}\n")
    elif isinstance(raw, yamlio.LineDict) and "deadlines" in raw and section in (None, {}):
        i = raw.line_of("deadlines") - 1
        if not re.match(r"^deadlines:[ \t]*+(?:\{\}|null|~)?[ \t]*+(#.*)?\r?\n?$", lines[i]):  # (possessive: one pass)
            return None
        lines[i : i + 1] = ["deadlines:\n", f"  {turn}: {quoted}\n"]
    elif isinstance(raw, dict) and "deadlines" not in raw:
        lines += ["deadlines:\n", f"  {turn}: {quoted}\n"]
    else:
        return None
    out = "".join(lines)
    try:
        if not same_settings(load_config_text(out, src), want):
            return None
    except MoonshineError:
        return None
    return out


# -- a deadline as each player reads it --------------------------------------------------

UTC_NAMES = ("UTC", "Etc/UTC", "Etc/GMT", "GMT", "Universal", "Zulu")  # a reader in UTC: UTC alone


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
    return None if zone.key in UTC_NAMES else zone


def local_time(when: datetime, zone: ZoneInfo, language: str = "en") -> str:
    """``2026-12-03 18:00 CET (Europe/Paris)``, or in French
    ``3 décembre 2026 à 18 h 00 CET (Europe/Paris)``."""
    from moonshine.render.mailwords import date_text

    local = when.astimezone(zone)
    abbrev = local.tzname() or ""
    name = f"{abbrev} ({zone.key})" if abbrev and abbrev != zone.key else zone.key
    return date_text(language, local, name)


class Moment(msgspec.Struct, frozen=True):
    """A time as a reader in ``zone`` reads it, in a sentence of any language: in their
    zone and in UTC (``2026-12-03 18:00 CET (Europe/Paris) = 2026-12-03 17:00 UTC``),
    or in UTC alone for a reader of no zone but UTC (a ``Localized`` value of
    ``moonshine.text.catalogue``)."""

    when: datetime
    zone: str | None = None  # an IANA name

    def text(self, language: str = "en") -> str:
        from zoneinfo import ZoneInfo

        from moonshine.render.mailwords import fmt_time

        utc = fmt_time(self.when, language)
        try:
            zone = ZoneInfo(self.zone) if self.zone else None
        except (ValueError, KeyError, OSError):
            zone = None
        if zone is None or zone.key in UTC_NAMES:
            return utc
        return f"{local_time(self.when, zone, language)} = {utc}"


def deadline_text(cfg: GameConfig, side: str | None, when: datetime, language: str | None = None) -> str:
    """A deadline for ``side``'s players: in their zone and in UTC (``Thursday 3
    December 2026, 18:00 CET = 17:00 UTC``), or in UTC alone when neither they nor the game
    have another zone (``moonshine.render.mailwords.due_text``)."""
    from moonshine.render.mailwords import due_text

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
    from moonshine.render.mailwords import deadline_line

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
