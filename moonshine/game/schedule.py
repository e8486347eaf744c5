"""Deadlines as a rule: when each turn's orders are due, the grace a missing gang
gets, and when reminders go out. Pure: a ``Schedule`` value and times in, times
out; no clock is read here.

``game.yaml``'s ``schedule:`` section, as the game master writes it::

    schedule:
      timezone: Europe/Paris       # the game's time zone (IANA name)
      deadlines: mon, thu 18:00    # weekly: the days and the time of day
      # every: 48h                 # or: a fixed time after each adjudication
      min_gap: 24h                 # a weekly deadline is at least this long after
                                   #   the turn opened (else the next slot)
      grace: 24h                   # more time when a gang has sent no orders
      reminders: [24h, 2h]         # before the deadline, to gangs still missing
      overrides:                   # one-off deadlines, by turn
        autumn-1924: 2026-12-03T18:00:00+01:00
      absence: 72h                 # how far a player's declared absence may move
                                   #   a deadline (0, the default: never; the
                                   #   absent gang's units hold instead)

Durations are written ``90m``, ``36h``, ``2d`` or ``1d12h``. Days may be given
in English or French (``mon``, ``monday``, ``lun``, ``lundi``). On the days the
clocks change, a time of day is read as calendars read it (RFC 5545): a time
the clocks skip (02:30 when they go from 02:00 to 03:00) is moved on by the
gap (03:30); a time that happens twice is its first occurrence.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import UTC, date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import msgspec

from moonshine.errors import StateError

SOURCE = "game.yaml"
KEYS = ("timezone", "deadlines", "every", "min_gap", "grace", "reminders", "overrides", "absence")

_DAYS = {
    "monday": 0, "mon": 0, "lundi": 0, "lun": 0,
    "tuesday": 1, "tue": 1, "tues": 1, "mardi": 1, "mar": 1,
    "wednesday": 2, "wed": 2, "mercredi": 2, "mer": 2,
    "thursday": 3, "thu": 3, "thur": 3, "thurs": 3, "jeudi": 3, "jeu": 3,
    "friday": 4, "fri": 4, "vendredi": 4, "ven": 4,
    "saturday": 5, "sat": 5, "samedi": 5, "sam": 5,
    "sunday": 6, "sun": 6, "dimanche": 6, "dim": 6,
}  # fmt: skip
# possessive blanks (*+): neighbouring runs never trade characters (one pass, not one per blank)
_DURATION = re.compile(r"^(?:(\d+)\s*+d)?\s*+(?:(\d+)\s*+h)?\s*+(?:(\d+)\s*+m(?:in)?)?$")
_TIME = re.compile(r"^(\d{1,2})(?::|h)(\d{2})$")


class Schedule(msgspec.Struct, frozen=True):
    """When turns are due. Either ``weekdays`` and ``at`` (a weekly rule) or
    ``every`` (a fixed time after the turn opens) is set."""

    zone: ZoneInfo
    weekdays: tuple[int, ...] = ()  # 0 = Monday
    at: time = time(18, 0)
    every: timedelta | None = None
    min_gap: timedelta = timedelta(0)
    grace: timedelta = timedelta(0)
    reminders: tuple[timedelta, ...] = ()  # before the deadline, longest first
    overrides: Mapping[str, datetime] = msgspec.field(default_factory=dict)
    absence: timedelta = timedelta(0)  # the most a declared absence moves a deadline

    # -- the rule -----------------------------------------------------------------
    def deadline(self, opened: datetime, turn: str | None = None) -> datetime:
        """The deadline (UTC) of a turn that opened at ``opened``: the turn's
        override if it has one, else ``every`` after it, else the first weekly slot
        at least ``min_gap`` after it."""
        _aware(opened, "opened")
        if turn is not None and turn in self.overrides:
            return self.overrides[turn].astimezone(UTC)
        if self.every is not None:
            return (opened + self.every).astimezone(UTC)
        return self.next_slot(opened + self.min_gap)

    def next_slot(self, after: datetime) -> datetime:
        """The first weekly slot strictly after ``after`` (UTC)."""
        _aware(after, "after")
        local = after.astimezone(self.zone)
        day = local.date()
        for step in range(8 + 1):
            d = day + timedelta(days=step)
            if d.weekday() not in self.weekdays:
                continue
            slot = self._at(d)
            if slot > after:
                return slot.astimezone(UTC)
        raise AssertionError("a weekly rule has a slot every week")  # weekdays is never empty

    def _at(self, d: date) -> datetime:
        """``self.at`` on day ``d`` in the game's zone (fold 0: the offset before a
        change of the clocks, which gives RFC 5545's reading of skipped and
        repeated times)."""
        return datetime.combine(d, self.at, tzinfo=self.zone)

    # -- around the deadline ------------------------------------------------------------
    def closes(self, deadline: datetime, *, anyone_missing: bool) -> datetime:
        """When the turn is adjudicated: at the deadline, or after the grace when a
        gang has sent no orders."""
        return deadline + self.grace if anyone_missing else deadline

    def due(self, now: datetime, deadline: datetime, *, anyone_missing: bool) -> bool:
        _aware(now, "now")
        return now >= self.closes(deadline, anyone_missing=anyone_missing)

    def reminder_times(self, deadline: datetime) -> list[datetime]:
        """When reminders go out, earliest first."""
        return sorted(deadline - r for r in self.reminders)

    def reminders_due(self, now: datetime, deadline: datetime, sent: Sequence[datetime]) -> list[datetime]:
        """The reminder times that have come (at ``now``, before the deadline) and
        were not sent yet: a run that missed several sends one reminder for them."""
        return [t for t in self.reminder_times(deadline) if t <= now < deadline and t not in sent]


def _aware(when: datetime, what: str) -> None:
    if when.tzinfo is None:
        raise ValueError(f"{what} must carry a time zone")


# -- reading game.yaml ---------------------------------------------------------------


MAX_DURATION = timedelta(days=366)  # a turn, a grace, a gap or a reminder: within a year


def parse_duration(value: Any, key: str, *, source: str = SOURCE) -> timedelta:
    """``90m``, ``36h``, ``2d``, ``1d12h`` (or a whole number of hours), a year at most."""
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        d, h, mins = 0, value, 0
    else:
        text = str(value).strip().lower() if isinstance(value, str) else ""
        m = _DURATION.match(text)
        if not text or m is None or not any(m.groups()):
            raise StateError(source, key, f"expected a duration such as 90m, 36h, 2d or 1d12h, found {value!r}")
        if any(g and len(g) > 9 for g in m.groups()):
            raise StateError(source, key, f"{value!r} is more than a year (366 days at most)")
        d, h, mins = (int(g) if g else 0 for g in m.groups())
    if (d * 24 + h) * 60 + mins > MAX_DURATION.total_seconds() // 60:
        raise StateError(source, key, f"{value!r} is more than a year (366 days at most)")
    return timedelta(days=d, hours=h, minutes=mins)


def parse_weekly(value: Any, key: str, *, source: str = SOURCE) -> tuple[tuple[int, ...], time]:
    """``mon, thu 18:00`` -> ((0, 3), 18:00)."""
    if not isinstance(value, str):
        raise StateError(source, key, f"expected days and a time such as 'mon, thu 18:00', found {value!r}")
    words = value.replace(",", " ").split()
    if len(words) < 2:
        raise StateError(source, key, f"expected days and a time such as 'mon, thu 18:00', found {value!r}")
    m = _TIME.match(words[-1].lower())
    if m is None or int(m.group(1)) > 23 or int(m.group(2)) > 59:
        raise StateError(source, key, f"{words[-1]!r} is not a time of day (expected e.g. 18:00)")
    days: list[int] = []
    for w in words[:-1]:
        day = _DAYS.get(w.lower().rstrip("."))
        if day is None:
            raise StateError(source, key, f"{w!r} is not a day of the week (expected e.g. mon, thursday)")
        if day not in days:
            days.append(day)
    return tuple(sorted(days)), time(int(m.group(1)), int(m.group(2)))


def parse_schedule(raw: Any, *, source: str = SOURCE) -> Schedule:
    """The ``schedule:`` section; errors name the key at fault."""
    if not isinstance(raw, dict):
        raise StateError(source, "schedule", "expected a mapping (timezone, deadlines or every, grace, reminders)")
    for k in raw:
        if k not in KEYS:
            raise StateError(source, f"schedule.{k}", f"unknown key (expected one of {', '.join(KEYS)})")
    zone = zone_named(raw.get("timezone", "UTC"), "schedule.timezone", source=source)
    has_weekly, has_every = "deadlines" in raw, "every" in raw
    if has_weekly and has_every:
        raise StateError(
            source, "schedule", "give either deadlines (e.g. 'mon, thu 18:00') or every (e.g. 48h), not both"
        )
    if not has_weekly and not has_every:
        raise StateError(
            source, "schedule", "missing: when orders are due, deadlines (e.g. 'mon, thu 18:00') or every (e.g. 48h)"
        )
    weekdays: tuple[int, ...] = ()
    at = time(18, 0)
    every: timedelta | None = None
    if has_weekly:
        weekdays, at = parse_weekly(raw["deadlines"], "schedule.deadlines", source=source)
    else:
        every = parse_duration(raw["every"], "schedule.every", source=source)
        if every < timedelta(hours=1):
            raise StateError(source, "schedule.every", "a turn lasts at least an hour")
    reminders_raw = raw.get("reminders", [])
    if not isinstance(reminders_raw, list):
        reminders_raw = [reminders_raw]
    reminders = tuple(
        sorted(
            {parse_duration(r, f"schedule.reminders[{i}]", source=source) for i, r in enumerate(reminders_raw)},
            reverse=True,
        )
    )
    overrides_raw = raw.get("overrides") or {}
    if not isinstance(overrides_raw, dict):
        raise StateError(source, "schedule.overrides", "expected turns and their deadlines")
    overrides: dict[str, datetime] = {}
    for turn, value in overrides_raw.items():
        overrides[str(turn)] = _instant(value, f"schedule.overrides.{turn}", zone, source)
    return Schedule(
        zone=zone,
        weekdays=weekdays,
        at=at,
        every=every,
        min_gap=parse_duration(raw.get("min_gap", 0), "schedule.min_gap", source=source),
        grace=parse_duration(raw.get("grace", 0), "schedule.grace", source=source),
        reminders=reminders,
        overrides=overrides,
        absence=parse_duration(raw.get("absence", 0), "schedule.absence", source=source),
    )


def zone_named(name: Any, key: str, *, source: str = SOURCE) -> ZoneInfo:
    """The time zone called ``name`` (an IANA name such as Europe/Paris)."""
    try:
        if not isinstance(name, str) or not name.strip():
            raise ValueError(name)
        return ZoneInfo(name.strip())
    except (ZoneInfoNotFoundError, ValueError):
        raise StateError(source, key, f"no time zone called {name!r} (expected e.g. Europe/Paris or UTC)") from None


def _instant(value: Any, key: str, zone: ZoneInfo, source: str) -> datetime:
    """A date and time; without an offset it is read in the game's time zone."""
    if isinstance(value, datetime):
        when = value
    else:
        try:
            when = datetime.fromisoformat(str(value).strip())
        except ValueError:
            raise StateError(
                source,
                key,
                f"not a date and time: {value!r} (expected e.g. 2026-12-03T18:00, or with its offset +01:00)",
            ) from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=zone)
    return when.astimezone(UTC)
