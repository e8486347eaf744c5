"""Deadlines as a rule (moonshine/game/schedule.py): weekly slots in the game's time
zone across the changes of the clocks, a fixed time after each turn opens,
one-off overrides, grace for missing gangs and reminders."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from moonshine.errors import StateError
from moonshine.game.schedule import parse_duration, parse_schedule, parse_weekly

PARIS = ZoneInfo("Europe/Paris")


def _utc(text: str) -> datetime:
    return datetime.fromisoformat(text).astimezone(UTC)


def test_weekly_rule_in_the_games_time_zone() -> None:
    sched = parse_schedule({"timezone": "Europe/Paris", "deadlines": "mon, thu 18:00"})
    # Wednesday 2 December 2026, noon in Paris: the next slot is Thursday 18:00 (17:00 UTC in winter).
    assert sched.deadline(_utc("2026-12-02T12:00+01:00")) == _utc("2026-12-03T18:00+01:00")
    # Exactly at a slot: the next one, not the same.
    assert sched.next_slot(_utc("2026-12-03T18:00+01:00")) == _utc("2026-12-07T18:00+01:00")
    # In summer the same 18:00 is 16:00 UTC.
    assert sched.deadline(_utc("2026-07-01T09:00+02:00")) == _utc("2026-07-02T18:00+02:00")


def test_min_gap_skips_a_slot_too_close() -> None:
    sched = parse_schedule({"timezone": "Europe/Paris", "deadlines": "mon thu 18:00", "min_gap": "36h"})
    # Opened Wednesday 20:00: Thursday 18:00 is only 22 h away, so Monday.
    assert sched.deadline(_utc("2026-12-02T20:00+01:00")) == _utc("2026-12-07T18:00+01:00")


def test_every_and_overrides() -> None:
    sched = parse_schedule(
        {"timezone": "UTC", "every": "2d", "overrides": {"autumn-1924": "2026-12-24T12:00"}, "grace": "12h"}
    )
    opened = _utc("2026-12-01T10:15+00:00")
    assert sched.deadline(opened) == _utc("2026-12-03T10:15+00:00")
    assert sched.deadline(opened, "autumn-1924") == _utc("2026-12-24T12:00+00:00")
    assert sched.deadline(opened, "spring-1925") == _utc("2026-12-03T10:15+00:00")


def test_grace_only_when_a_gang_is_missing() -> None:
    sched = parse_schedule({"deadlines": "fri 20:00", "grace": "1d"})
    deadline = _utc("2026-12-04T20:00+00:00")
    just_after = deadline + timedelta(minutes=1)
    assert sched.due(just_after, deadline, anyone_missing=False)
    assert not sched.due(just_after, deadline, anyone_missing=True)
    assert sched.due(deadline + timedelta(days=1), deadline, anyone_missing=True)
    assert sched.closes(deadline, anyone_missing=True) == _utc("2026-12-05T20:00+00:00")


def test_reminders_once_each_and_a_late_run_sends_what_is_due() -> None:
    sched = parse_schedule({"deadlines": "fri 20:00", "reminders": ["2h", "24h", "24h"]})
    deadline = _utc("2026-12-04T20:00+00:00")
    assert sched.reminder_times(deadline) == [_utc("2026-12-03T20:00+00:00"), _utc("2026-12-04T18:00+00:00")]
    assert sched.reminders_due(_utc("2026-12-03T19:59+00:00"), deadline, []) == []
    first = sched.reminders_due(_utc("2026-12-03T20:00+00:00"), deadline, [])
    assert first == [_utc("2026-12-03T20:00+00:00")]
    assert sched.reminders_due(_utc("2026-12-03T23:00+00:00"), deadline, first) == []
    # A run that was down all day wakes up at 19:00 on Friday: both are due, none after the deadline.
    assert len(sched.reminders_due(_utc("2026-12-04T19:00+00:00"), deadline, [])) == 2
    assert sched.reminders_due(_utc("2026-12-04T20:00+00:00"), deadline, []) == []


def test_clocks_going_forward_and_back() -> None:
    sched = parse_schedule({"timezone": "Europe/Paris", "deadlines": "sun 02:30"})
    # 29 March 2026: Paris goes from 02:00 to 03:00; 02:30 does not exist and is read as 03:30 CEST.
    assert sched.next_slot(_utc("2026-03-28T12:00+01:00")) == _utc("2026-03-29T03:30+02:00")
    # 25 October 2026: 02:30 happens twice; the first one (CEST) is the deadline.
    assert sched.next_slot(_utc("2026-10-24T12:00+02:00")) == _utc("2026-10-25T02:30+02:00")


@pytest.mark.parametrize(
    ("raw", "key", "message"),
    [
        ("not a mapping", "schedule", "expected a mapping"),
        ({"deadlines": "mon 18:00", "every": "2d"}, "schedule", "either deadlines"),
        ({}, "schedule", "missing: when orders are due"),
        ({"deadlines": "mon 18:00", "timezone": "Europe/Pariss"}, "schedule.timezone", "no time zone called"),
        ({"deadlines": "mon 25:00"}, "schedule.deadlines", "is not a time of day"),
        ({"deadlines": "mardy 18:00"}, "schedule.deadlines", "is not a day of the week"),
        ({"deadlines": "18:00"}, "schedule.deadlines", "expected days and a time"),
        ({"every": "fortnight"}, "schedule.every", "expected a duration"),
        ({"every": "30m"}, "schedule.every", "at least an hour"),
        ({"deadlines": "mon 18:00", "grace": "-1h"}, "schedule.grace", "expected a duration"),
        ({"deadlines": "mon 18:00", "reminders": ["2h", "soon"]}, "schedule.reminders[1]", "expected a duration"),
        ({"deadlines": "mon 18:00", "deadline": "x"}, "schedule.deadline", "unknown key"),
        ({"timezone": "Europe/Paris"}, "schedule", "missing: when orders are due"),
        (
            {"deadlines": "mon 18:00", "overrides": {"spring-1924": "2024-02-30T18:00"}},
            "schedule.overrides.spring-1924",
            "not a date",
        ),
    ],
)
def test_mistakes_name_the_key(raw: object, key: str, message: str) -> None:
    with pytest.raises(StateError, match=message) as err:
        parse_schedule(raw)
    assert err.value.key == key and err.value.source == "game.yaml"


def test_days_and_durations_in_both_languages() -> None:
    assert parse_weekly("lundi, Jeudi 18h00", "k") == ((0, 3), time(18, 0))
    assert parse_weekly("Monday Thu. mon 9:05", "k") == ((0, 3), time(9, 5))
    assert parse_duration("1d12h", "k") == timedelta(hours=36)
    assert parse_duration("90m", "k") == timedelta(minutes=90)
    assert parse_duration(48, "k") == timedelta(hours=48)


_ZONES = st.sampled_from(["Europe/Paris", "America/Chicago", "Australia/Lord_Howe", "UTC", "Asia/Kolkata"])
_INSTANTS = st.datetimes(min_value=datetime(2024, 1, 1), max_value=datetime(2030, 12, 31), timezones=st.just(UTC))


@settings(max_examples=300, deadline=None)
@given(
    zone=_ZONES,
    days=st.sets(st.integers(0, 6), min_size=1),
    hour=st.integers(0, 23),
    minute=st.sampled_from([0, 15, 30, 45]),
    opened=_INSTANTS,
    gap=st.integers(0, 96),
)
def test_weekly_deadline_is_the_first_slot_after_the_gap(
    zone: str, days: set[int], hour: int, minute: int, opened: datetime, gap: int
) -> None:
    names = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
    rule = f"{', '.join(names[d] for d in sorted(days))} {hour:02d}:{minute:02d}"
    sched = parse_schedule({"timezone": zone, "deadlines": rule, "min_gap": f"{gap}h"})
    deadline = sched.deadline(opened)
    earliest = opened + timedelta(hours=gap)
    assert deadline > earliest and deadline.tzinfo is UTC
    assert deadline - earliest <= timedelta(days=7, hours=3)  # within a week (plus a change of the clocks)
    # It is a slot: its local day is one of the rule's days, at the rule's time of day
    # unless the clocks skipped that time (then moved on by the gap, RFC 5545).
    local = deadline.astimezone(ZoneInfo(zone))
    assert local.weekday() in days
    wanted = datetime.combine(local.date(), time(hour, minute), tzinfo=ZoneInfo(zone))
    assert deadline == wanted.astimezone(UTC)
    # No slot was skipped: each earlier day's slot is not after the gap.
    day = earliest.astimezone(ZoneInfo(zone)).date()
    while day < local.date():
        if day.weekday() in days:
            slot = datetime.combine(day, time(hour, minute), tzinfo=ZoneInfo(zone)).astimezone(UTC)
            assert slot <= earliest
        day += timedelta(days=1)
