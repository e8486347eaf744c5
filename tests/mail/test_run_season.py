"""The judge runs itself: a season of a Moonshine game and of a classic game played
by email with nobody at the keyboard. ``moonshine run`` is started again and
again, as cron would, while a fake clock moves through the schedule; the mail
goes through a real IMAP server (pymap) and a real SMTP server (aiosmtpd), both
on 127.0.0.1. Players mail orders, get their acknowledgement at once, a
reminder before the deadline, a late gang uses the grace period, the turn is
adjudicated at the deadline, every player gets the reports, and the next
deadline is set from the schedule."""

from __future__ import annotations

import html
from datetime import UTC, datetime, timedelta
from pathlib import Path

import yaml
from frtypo import plain as spaced
from imapkit import Server, count, post
from runkit import GM, address, letter, plain, run_here, to, unattended_game
from smtpkit import Server as SmtpServer

from moonshine.game.directory import Game

# Monday 30 November 2026, 09:00 in Paris (08:00 UTC)
START = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)
SCHEDULE = {
    "timezone": "Europe/Paris",
    "deadlines": "mon, thu 18:00",
    "min_gap": "24h",
    "grace": "12h",
    "reminders": ["24h"],
}


def deadlines(game: Game) -> dict[str, str]:
    raw = yaml.safe_load((game.root / "game.yaml").read_text(encoding="utf-8"))
    return {str(k): str(v) for k, v in (raw.get("deadlines") or {}).items()}


def ok(game: Game, now: datetime) -> str:
    return run_here(game, now)


def test_a_moonshine_season_unattended(tmp_path: Path, imap: Server, smtp: SmtpServer) -> None:
    players = {"valley": "America/Chicago", "genna": None, "northside": None}
    game = unattended_game(tmp_path / "g", imap, smtp.smtp(), players=players, schedule=SCHEDULE, folder="moon")
    rec = smtp.recorder
    post(imap, "moon")  # the judge's folder, empty

    # The first pass sets the deadline: the first Monday or Thursday 18:00 in Paris
    # at least 24 hours away: Thursday 3 December, 17:00 UTC.
    out = ok(game, START)
    assert "deadline spring-1924: 2026-12-03T17:00:00+00:00" in out
    assert deadlines(game) == {"spring-1924": "2026-12-03T17:00:00+00:00"}
    assert rec.received == []

    # Valley's orders arrive; the next pass acknowledges them at once, with the
    # deadline in Chicago's time and in UTC.
    t = START + timedelta(hours=2)
    post(imap, "moon", letter("valley", "H LOO hold\nsell all\n", t, "<v1@players.example.org>"))
    post(imap, "moon", letter("genna", "H XYZ - QQQ\nsell all\n", t, "<g1@players.example.org>"))
    out = ok(game, t + timedelta(minutes=1))
    acks = to(rec, address("valley"), "Re: orders")
    assert len(acks) == 1
    assert "Thursday 3 December 2026, 11:00 CST = 17:00 UTC" in spaced(plain(acks[0]))
    assert len(to(rec, address("genna"))) == 1
    assert "Thursday 3 December 2026, 18:00 CET = 17:00 UTC" in spaced(plain(to(rec, address("genna"))[0]))
    assert count(imap, "moon") == 0 and count(imap, "moon-judged") == 2
    # A second pass finds nothing new and sends nothing again.
    before = len(rec.received)
    ok(game, t + timedelta(minutes=2))
    assert len(rec.received) == before

    # 24 hours before the deadline: a reminder to Northside (no orders) and to
    # Genna (a rejected line), once each; Valley gets none.
    t = datetime(2026, 12, 2, 17, 0, tzinfo=UTC)
    ok(game, t)
    ok(game, t + timedelta(minutes=1))
    assert len(to(rec, address("northside"), "Reminder")) == 1
    assert len(to(rec, address("genna"), "Reminder")) == 1
    assert to(rec, address("valley"), "Reminder") == []
    reminder = plain(to(rec, address("northside"), "Reminder")[0])
    assert "no orders from" in reminder and "gets 12 h more" in reminder
    assert "Reminder: Spring 1924, orders for" in str(to(rec, address("northside"), "Reminder")[0]["Subject"])
    assert "Your orders for Spring 1924 have 1 rejected line: that unit holds" in plain(
        to(rec, address("genna"), "Reminder")[0]
    )

    # The deadline passes with Northside missing: the grace period (12 h) holds
    # the turn open; Northside's late orders are taken in it.
    t = datetime(2026, 12, 3, 17, 1, tzinfo=UTC)
    out = ok(game, t)
    assert "adjudicated" not in out
    assert not (game.root / "turns" / "autumn-1924").exists()
    # only the missing side's orders are taken in the grace: valley's late change is refused
    before = len(to(rec, address("valley"), "Re: orders"))
    post(imap, "moon", letter("valley", "sell 1\n", t + timedelta(minutes=30), "<v9@players.example.org>"))
    post(imap, "moon", letter("northside", "sell all\n", t + timedelta(hours=1), "<n1@players.example.org>"))
    out = ok(game, t + timedelta(hours=1, minutes=1))
    assert "in the grace period" in out
    assert len(to(rec, address("northside"), "Re: orders")) == 1
    assert "taken in the grace period" in plain(to(rec, address("northside"), "Re: orders")[0])
    late = to(rec, address("valley"), "Re: orders")[before:]
    assert len(late) == 1 and "NOT accepted" in plain(late[0]) and "late" in plain(late[0])
    # every gang with a player has orders now: adjudicated at once
    assert "adjudicated spring-1924" in out
    assert (game.root / "turns" / "autumn-1924" / "state.yaml").is_file()
    for side in players:
        reports = to(rec, address(side), "private report")
        assert len(reports) == 1, side
        assert len(to(rec, address(side), "bulletin")) == 1, side
    # the next deadline: Monday 7 December 18:00 in Paris
    assert deadlines(game)["autumn-1924"] == "2026-12-07T17:00:00+00:00"
    # ... which the reports' mail gives on its first screen, once (the report says it:
    # no lead line repeats it), in each reader's zone and in UTC
    for side in players:
        [report] = to(rec, address(side), "private report")
        body = spaced(plain(report))
        assert body.count("Monday 7 December 2026") == 1, side
        assert "Monday 7 December 2026" in "\n".join(body.splitlines()[:10]), side
    [bulletin] = to(rec, address("valley"), "bulletin")
    head = " ".join(" ".join(spaced(plain(bulletin)).splitlines()[:10]).split())
    assert "Orders for Autumn 1924 are due Monday 7 December 2026" in head
    assert spaced(plain(bulletin)).count("Monday 7 December 2026") == 1
    # ... and the reports themselves, written at the adjudication, before the pass set it
    page = (game.root / "turns" / "spring-1924" / "reports" / "valley.html").read_text(encoding="utf-8")
    assert "Next deadline</th>" in page
    assert "Monday 7 December 2026, 11:00 CST = 17:00 UTC (in " in spaced(html.unescape(page))

    # Autumn: nobody writes. At the deadline the grace starts; after it the turn
    # is adjudicated and everyone's units hold.
    before = len(rec.received)
    ok(game, datetime(2026, 12, 7, 17, 30, tzinfo=UTC))
    assert not (game.root / "turns" / "spring-1925").exists()
    out = ok(game, datetime(2026, 12, 8, 5, 0, tzinfo=UTC))
    assert "adjudicated autumn-1924; no orders from valley, genna, northside" in out
    assert len(to(rec, address("valley"), "Autumn 1924: private report")) == 1
    assert "spring-1925" in deadlines(game)
    assert len(rec.received) > before
    # the game master was never troubled: a copy of each turn's bulletin, and no error
    assert sorted(str(m["Subject"]).rsplit(" ", 1)[-1] for m in to(rec, GM)) == ["bulletin", "bulletin"]
    log = (game.root / "run.log").read_text(encoding="utf-8")
    assert "sent spring-1924/report-valley.eml to valley@players.example.org" in log


def test_a_classic_season_unattended(tmp_path: Path, imap: Server, smtp: SmtpServer) -> None:
    players = {"FRA": "Europe/Paris", "GER": None}
    schedule = {"timezone": "UTC", "every": "48h", "grace": "6h", "reminders": ["12h"]}
    game = unattended_game(
        tmp_path / "c", imap, smtp.smtp(), variant="classic", players=players, schedule=schedule, folder="dip"
    )
    rec = smtp.recorder
    post(imap, "dip")
    ok(game, START)
    assert deadlines(game) == {"spring-1901": "2026-12-02T08:00:00+00:00"}
    t = START + timedelta(hours=1)
    post(imap, "dip", letter("FRA", "A PAR - BUR\nA MAR S A PAR - BUR\nF BRE - MAO\n", t, "<f1@x>", word="power"))
    ok(game, t + timedelta(minutes=1))
    ack = to(rec, address("FRA"), "Re: orders")
    assert len(ack) == 1
    assert "Wednesday 2 December 2026, 09:00 CET = 08:00 UTC" in spaced(plain(ack[0]))
    # 12 h before: Germany is reminded
    ok(game, datetime(2026, 12, 1, 20, 0, tzinfo=UTC))
    assert len(to(rec, address("GER"), "Reminder")) == 1
    assert to(rec, address("FRA"), "Reminder") == []
    # the deadline passes; Germany is in the grace, and sends its orders late
    ok(game, datetime(2026, 12, 2, 8, 30, tzinfo=UTC))
    assert not (game.root / "turns" / "fall-1901").exists()
    post(imap, "dip", letter("GER", "A MUN - RUH\n", datetime(2026, 12, 2, 9, 0, tzinfo=UTC), "<g1@x>", word="power"))
    out = ok(game, datetime(2026, 12, 2, 9, 1, tzinfo=UTC))
    assert "adjudicated spring-1901" in out
    assert (game.root / "turns" / "fall-1901" / "state.yaml").is_file()
    for side in players:
        assert len(to(rec, address(side), "bulletin")) == 1, side
        assert len(to(rec, address(side), "private report")) == 1, side
    # 48 hours after the adjudication
    assert deadlines(game)["fall-1901"] == "2026-12-04T09:01:00+00:00"
