"""The game master is told, once: an error met by ``moonshine run`` (a mailbox
that cannot be read, a recipient the SMTP server refuses, a game file that
cannot be read) is mailed to the game master the first time, written to
run.log every time, and mailed again only once it was mended and came back.
The rest of the pass goes on."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner
from gamekit import make_game
from msgspec.structs import replace
from portkit import free_port
from runkit import GM, address, letter, password, plain, to
from smtpkit import Server

from moonshine.cli import main
from moonshine.game.directory import Game, save_config
from moonshine.game.families import new_game

START = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)


def game_with(tmp_path: Path, smtp: Server, source: str) -> Game:
    return make_game(
        tmp_path / "g",
        seed="errors",
        git=True,
        commit=None,
        sides=("valley", "genna"),
        emails=lambda side: [address(side)],
        passwords={side: password(side) for side in ("valley", "genna")},
        schedule={"timezone": "UTC", "every": "48h"},
        smtp=smtp.smtp(),
        inbox={"source": source},
        referee={"email": GM},
    )


def run(game: Game, now: datetime) -> str:
    done = CliRunner().invoke(main, ["run", str(game.root), "--now", now.isoformat()])
    assert "Traceback" not in done.output
    assert done.exception is None or isinstance(done.exception, SystemExit), repr(done.exception)
    return done.output


def test_a_mailbox_that_cannot_be_read_is_reported_once(
    tmp_path: Path, smtp: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MOONSHINE_IMAP_PASSWORD", "whatever")
    port = free_port()  # nothing listens there
    game = game_with(tmp_path, smtp, f"imap://judge@127.0.0.1:{port}/INBOX")
    first = run(game, START)
    assert "ERROR intake" in first and "cannot connect" in first
    for minutes in (1, 2, 3):
        again = run(game, START + timedelta(minutes=minutes))
        assert "ERROR intake" in again  # in the log every time
    errors = to(smtp.recorder, GM, "judge error")
    assert len(errors) == 1
    assert "reading the mailbox" in str(errors[0]["Subject"])
    assert f"127.0.0.1:{port}" in plain(errors[0])
    log = (game.root / "run.log").read_text(encoding="utf-8")
    assert log.count("ERROR intake") == 4
    assert log.count("error written to the outbox for the game master (gm@") == 1
    assert log.count("error mail delivered to the game master") == 1

    # mended (a folder of .eml files), then broken again: mailed again
    box = tmp_path / "mail"
    box.mkdir()
    text = game.config_path.read_text(encoding="utf-8")
    game.config_path.write_text(text.replace(f"imap://judge@127.0.0.1:{port}/INBOX", str(box)), encoding="utf-8")
    assert "ERROR" not in run(game, START + timedelta(minutes=4))
    game.config_path.write_text(text, encoding="utf-8")
    run(game, START + timedelta(minutes=5))
    assert len(to(smtp.recorder, GM, "judge error")) == 2


def test_a_refused_recipient_is_reported_once_and_not_retried(tmp_path: Path, smtp: Server) -> None:
    box = tmp_path / "mail"
    box.mkdir()
    game = game_with(tmp_path, smtp, str(box))
    smtp.recorder.refuse[address("genna")] = "550 5.1.1 No such user"
    t = START + timedelta(hours=1)
    (box / "1.eml").write_bytes(letter("valley", "sell all\n", t, "<v1@players.example.org>"))
    (box / "2.eml").write_bytes(letter("genna", "sell all\n", t, "<g1@players.example.org>"))
    out = run(game, t)
    assert "ERROR deliver" in out and "genna@players.example.org" in out and "550" in out
    assert len(to(smtp.recorder, address("valley"), "Re: orders")) == 1  # the others go on
    for minutes in (1, 2):
        run(game, t + timedelta(minutes=minutes))
    errors = to(smtp.recorder, GM, "judge error")
    assert len(errors) == 1
    assert "550 5.1.1 No such user" in plain(errors[0])
    assert len(smtp.recorder.received) == 2  # valley's acknowledgement and the error: nothing retried
    assert smtp.recorder.rcpts.count(address("genna")) == 1  # the refused address is never asked again


def test_a_game_file_that_cannot_be_read_is_reported_once(tmp_path: Path, smtp: Server) -> None:
    box = tmp_path / "mail"
    box.mkdir()
    game = game_with(tmp_path, smtp, str(box))
    run(game, START)  # the deadline: 48 hours on
    state = game.state_path("spring-1924")
    state.write_text(state.read_text(encoding="utf-8").replace("price:", "price: [", 1), encoding="utf-8")
    late = START + timedelta(hours=49)
    out = run(game, late)
    assert "ERROR" in out and "state.yaml" in out
    run(game, late + timedelta(minutes=1))
    errors = to(smtp.recorder, GM, "judge error")
    assert len(errors) == 1
    assert "state.yaml" in plain(errors[0])
    assert not (game.root / "turns" / "autumn-1924").exists()


def test_a_game_without_players_waits_for_its_deadline(tmp_path: Path) -> None:
    game = new_game(tmp_path / "g", seed="empty", use_git=False)
    save_config(game, replace(game.config, extra={"schedule": {"timezone": "UTC", "every": "48h"}}))
    game = Game(game.root)
    for hours in (0, 1, 47):
        assert "adjudicated" not in run(game, START + timedelta(hours=hours))
    assert "adjudicated spring-1924" in run(game, START + timedelta(hours=48))
    assert "adjudicated" not in run(game, START + timedelta(hours=48, minutes=1))  # the next turn waits too
