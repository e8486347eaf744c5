"""Absence by email: a player writes ``absent FIRST to LAST`` (with the gang's
password); the judge records it and says so; while the deadline falls in the
absence it does not wait for that gang (no reminder, no grace) and its units
hold; with ``schedule.absence`` set the deadline moves past the absence, by
at most that much."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from gamekit import make_game
from runkit import address, letter, password, plain, to
from smtpkit import Server

from moonshine.cli import main
from moonshine.game.directory import Game
from moonshine.mail.commands import absence

START = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("line", "first", "last"),
    [
        ("absent 2026-12-01 to 2026-12-05", "2026-12-01", "2026-12-05"),
        ("Absent from 2026-12-01 until 2026-12-05", "2026-12-01", "2026-12-05"),
        ("absent 2026-12-01 - 2026-12-02", "2026-12-01", "2026-12-02"),
        ("absent 2026-12-24", "2026-12-24", "2026-12-24"),
        ("absent du 2026-12-01 au 2026-12-05", "2026-12-01", "2026-12-05"),
        ("  away: 2026-12-01 to 2026-12-05  ", "2026-12-01", "2026-12-05"),
    ],
)
def test_absence_lines_read(line: str, first: str, last: str) -> None:
    got = absence.parse(line, today=date(2026, 11, 30))
    assert (got.first.isoformat(), got.last.isoformat()) == (first, last)


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("absent next week", "expected the first and last days away"),
        ("absent 2026-12-05 to 2026-12-01", "before the first"),
        ("absent 2026-02-30 to 2026-03-02", "not a real date"),
        ("absent 2026-12-01 to 2027-06-01", "at most 60 days"),
        ("absent 2026-11-01 to 2026-11-02", "already over"),
    ],
)
def test_absence_lines_refused_with_a_reason(line: str, words: str) -> None:
    with pytest.raises(absence.AbsenceError, match=words):
        absence.parse(line, today=date(2026, 11, 30))


def test_a_deadline_moves_past_an_absence_within_the_limit() -> None:
    due = datetime(2026, 12, 2, 8, 0, tzinfo=UTC)
    away = [absence.Absence(date(2026, 12, 1), date(2026, 12, 3))]
    assert absence.moved(due, away, timedelta(hours=72)) == datetime(2026, 12, 4, 8, 0, tzinfo=UTC)
    assert absence.moved(due, away, timedelta(hours=24)) == datetime(2026, 12, 3, 8, 0, tzinfo=UTC)
    assert absence.moved(due, away, timedelta(0)) == due
    assert absence.moved(due, [absence.Absence(date(2026, 12, 5), date(2026, 12, 6))], timedelta(hours=72)) == due


def _game(tmp_path: Path, smtp: Server, **schedule: object) -> tuple[Game, Path]:
    box = tmp_path / "mail"
    box.mkdir()
    game = make_game(
        tmp_path / "g",
        seed="absence",
        git=True,
        commit=None,
        sides=("valley", "genna"),
        emails=lambda side: [address(side)],
        passwords={side: password(side) for side in ("valley", "genna")},
        schedule={"timezone": "UTC", "every": "48h", "grace": "12h", "reminders": ["24h"], **schedule},
        smtp=smtp.smtp(),
        inbox={"source": str(box)},
    )
    return game, box


def run(game: Game, now: datetime) -> str:
    done = CliRunner().invoke(main, ["run", str(game.root), "--now", now.isoformat()])
    assert done.exit_code == 0 and "Traceback" not in done.output, done.output
    return done.output


def test_an_absent_gang_is_not_waited_for(tmp_path: Path, smtp: Server) -> None:
    game, box = _game(tmp_path, smtp)
    run(game, START)  # deadline: 2 December 08:00 UTC
    t = START + timedelta(hours=1)
    (box / "1.eml").write_bytes(letter("genna", "absent 2026-12-01 to 2026-12-05\n", t, "<g-away@x>"))
    (box / "2.eml").write_bytes(letter("valley", "sell all\n", t, "<v1@x>"))
    run(game, t)
    reply = to(smtp.recorder, address("genna"), "Re: orders")
    assert len(reply) == 1
    assert "Absence noted: 2026-12-01 to 2026-12-05" in plain(reply[0])
    assert "NOT accepted" not in str(reply[0]["Subject"])
    assert not (game.orders_dir("spring-1924") / "genna.txt").exists()  # no orders: none replaced
    saved = yaml.safe_load((game.root / "absences.yaml").read_text(encoding="utf-8"))
    assert saved == {"genna": [{"from": "2026-12-01", "to": "2026-12-05"}]}
    run(game, datetime(2026, 12, 1, 8, 0, tzinfo=UTC))  # the reminder time
    assert to(smtp.recorder, address("genna"), "Reminder") == []
    out = run(game, datetime(2026, 12, 2, 8, 1, tzinfo=UTC))  # no grace: genna is away
    assert "adjudicated spring-1924" in out


def test_the_deadline_moves_for_an_absence_when_the_game_master_allows(tmp_path: Path, smtp: Server) -> None:
    game, box = _game(tmp_path, smtp, absence="72h")
    run(game, START)
    t = START + timedelta(hours=1)
    (box / "1.eml").write_bytes(letter("genna", "sell all\nabsent 2026-12-01 to 2026-12-03\n", t, "<g2@x>"))
    out = run(game, t)
    assert "deadline spring-1924 moved for an absence: 2026-12-04T08:00:00+00:00" in out
    reply = plain(to(smtp.recorder, address("genna"), "Re: orders")[0])
    assert "Absence noted: 2026-12-01 to 2026-12-03" in reply
    assert (game.orders_dir("spring-1924") / "genna.txt").is_file()  # the orders with it are taken
    assert "absent" not in (game.orders_dir("spring-1924") / "genna.txt").read_text(encoding="utf-8")
    run(game, t + timedelta(minutes=1))  # moved once, not again
    text = game.config_path.read_text(encoding="utf-8")
    assert 'spring-1924: "2026-12-04T08:00:00+00:00"' in text
    assert "adjudicated" not in run(game, datetime(2026, 12, 2, 8, 1, tzinfo=UTC))
