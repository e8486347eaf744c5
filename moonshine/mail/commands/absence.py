"""Players' absences: a player says by email that they will be away
(``absent 2026-12-01 to 2026-12-05``); while a deadline falls in an absence, the
judge does not wait for that gang (no grace, no reminder) and its units hold, or
the deadline moves, by at most ``schedule.absence`` (the game master's limit),
to the day after the absence.

The command's own line is read here (``parse``); the command is one of the
players' commands by mail (``ABSENT``, ``moonshine.mail.commands``). Absences are kept in
``absences.yaml`` in the game directory, by gang."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import Any

import msgspec

from moonshine.errors import StateError
from moonshine.game.directory import Game, atomic_write_text
from moonshine.mail.commands.grammar import Answer, Command, CommandLine
from moonshine.mail.commands.request import GameRequest

FILE = "absences.yaml"
MAX_DAYS = 60  # the longest absence a player may declare at once

# possessive runs (*+, ++): the blanks around the colon are taken once, never traded back
# and forth ("\s*:?\s*" cost one pass per blank on a line of blanks)
_LINE = re.compile(
    r"^\s*+(?:absent|absence|away)\s*+:?\s*+(?:from\s++|du\s++|le\s++)?(\d{4}-\d{2}-\d{2})"
    r"(?:\s*+(?:to|until|till|-|–|au|jusqu'au|jusqu’au)\s*+(\d{4}-\d{2}-\d{2}))?\s*+$",
    re.IGNORECASE,
)


class Absence(msgspec.Struct, frozen=True):
    first: date
    last: date  # inclusive

    def covers(self, when: datetime, zone: Any = None) -> bool:
        day = (when.astimezone(zone) if zone is not None else when).date()
        return self.first <= day <= self.last

    def text(self) -> str:
        return f"{self.first.isoformat()} to {self.last.isoformat()}"


class AbsenceError(ValueError):
    """A line that says ``absent`` but not in a form the judge reads."""


def parse(line: str, *, today: date | None = None) -> Absence:
    """``absent 2026-12-01 to 2026-12-05`` (also ``absent from A to B``, ``absent
    A - B``, ``absent A`` for one day; in French ``absent du A au B``).
    Raises AbsenceError saying what is wrong and what is expected."""
    m = _LINE.match(line)
    example = "absent 2026-12-01 to 2026-12-05"
    if m is None:
        raise AbsenceError(f"{line.strip()!r}: expected the first and last days away, e.g. '{example}'")
    try:
        first = date.fromisoformat(m.group(1))
        last = date.fromisoformat(m.group(2)) if m.group(2) else first
    except ValueError:
        raise AbsenceError(f"{line.strip()!r}: not a real date (expected YYYY-MM-DD, e.g. '{example}')") from None
    if last < first:
        raise AbsenceError(f"{line.strip()!r}: the last day ({last}) is before the first ({first})")
    if (last - first).days + 1 > MAX_DAYS:
        raise AbsenceError(f"{line.strip()!r}: at most {MAX_DAYS} days at once; ask the game master for more")
    if today is not None and last < today:
        raise AbsenceError(f"{line.strip()!r}: that absence is already over")
    return Absence(first, last)


def load(game: Game) -> dict[str, list[Absence]]:
    from moonshine import yamlio

    path = game.root / FILE
    if not path.is_file():
        return {}
    raw = yamlio.load(path, what="absences")
    if raw is None:
        return {}
    out: dict[str, list[Absence]] = {}
    try:
        for side, items in raw.items():
            out[str(side)] = [Absence(_day(i["from"]), _day(i["to"])) for i in items or []]
    except (AttributeError, KeyError, TypeError, ValueError):
        raise StateError(str(path), "", "expected, by gang, a list of {from: DATE, to: DATE}") from None
    return out


def _day(value: Any) -> date:
    return value if isinstance(value, date) and not isinstance(value, datetime) else date.fromisoformat(str(value))


def save(game: Game, absences: dict[str, list[Absence]]) -> None:
    from moonshine import yamlio

    data = {
        side: [{"from": a.first.isoformat(), "to": a.last.isoformat()} for a in sorted(set(items), key=_key)]
        for side, items in sorted(absences.items())
        if items
    }
    head = "# Absences the players declared (absent FIRST to LAST), by gang.\n"
    atomic_write_text(game.root / FILE, head + yamlio.dump(data))


def _key(a: Absence) -> tuple[date, date]:
    return (a.first, a.last)


def add(game: Game, side: str, absence: Absence) -> None:
    found = load(game)
    found.setdefault(side, [])
    if absence not in found[side]:
        found[side].append(absence)
    save(game, found)


def absent_sides(game: Game, when: datetime | None) -> set[str]:
    """The sides whose player is away on the day of ``when`` (in the game's zone)."""
    if when is None:
        return set()
    from moonshine.game.deadlines import zone_of

    zone = zone_of(game.config, None)
    return {side for side, items in load(game).items() if any(a.covers(when, zone) for a in items)}


def moved(due: datetime, absences: list[Absence], limit: timedelta, zone: Any = None) -> datetime:
    """The deadline moved past the absences that cover it: to the same time on the
    day after the absence, by at most ``limit`` (no move when it is zero)."""
    if not limit:
        return due
    new = due
    for a in sorted(absences, key=_key):
        if a.covers(new, zone):
            local = new.astimezone(zone) if zone is not None else new
            after = datetime.combine(a.last + timedelta(days=1), local.timetz())
            new = min(after, due + limit)
    return new


# -- by email: the command ``absent`` of the players' commands (moonshine.mail.commands) --


def command(req: GameRequest, cmd: CommandLine) -> Answer:
    """``absent FIRST to LAST`` in a message: recorded for the gang whose password
    checked out."""
    from moonshine.render.mailwords import phrase

    try:
        absence = parse(cmd.written, today=req.now.date())
    except AbsenceError as exc:
        return Answer(cmd, False, phrase("absence.bad", why=str(exc)))
    assert req.gang is not None
    add(req.game, req.gang, absence)
    limit = _limit(req.game)
    if limit:
        return Answer(cmd, True, phrase("absence.moved", span=absence.text(), limit=_hours(limit)))
    return Answer(cmd, True, phrase("absence.noted", span=absence.text()))


def _limit(game: Game) -> timedelta:
    raw = game.config.extra.get("schedule")
    if not isinstance(raw, dict) or not raw.get("absence"):
        return timedelta(0)
    from moonshine.game.schedule import parse_duration

    return parse_duration(raw["absence"], "schedule.absence")


def _hours(d: timedelta) -> str:
    return f"{int(d.total_seconds() // 3600)} h"


# not suggested for a misspelt word: its line has dates (no suggestion anyway), and "Sent from my iPhone" is no absence
ABSENT = Command(
    "absent",
    {"en": ("absent", "absence", "away"), "fr": ("absent", "absence")},
    command,
    help="help.cmd.absent",
    suggested=False,
)
