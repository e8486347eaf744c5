"""``moonshine run`` killed (SIGKILL, at a write point) between reading a message
and moving it to the judged folder, and between adjudicating a turn and mailing
its reports: the next run finishes the job; nothing is lost and nothing is sent
twice. The full sweep (every write point) runs with MOONSHINE_CRASH=full
(``make crash``)."""

from __future__ import annotations

import os
import shutil
import subprocess
from datetime import UTC, datetime, timedelta
from pathlib import Path

import yaml
from imapkit import Server, count, post
from runkit import address, letter, run, to, unattended_game
from smtpkit import Server as SmtpServer

from moonshine.game.directory import Game

START = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)
DEADLINE = datetime(2026, 12, 3, 17, 0, tzinfo=UTC)
SCHEDULE = {"timezone": "Europe/Paris", "deadlines": "mon, thu 18:00", "min_gap": "24h", "grace": "12h"}
PLAYERS: dict[str, str | None] = {"valley": None, "genna": None}
LONG = os.environ.get("MOONSHINE_CRASH") == "full"


def clone(template: Game, dest: Path, old: str, new: str) -> Game:
    shutil.copytree(template.root, dest, symlinks=True)
    path = dest / "game.yaml"
    text = path.read_text(encoding="utf-8").replace(f"/{old}", f"/{new}")
    path.write_text(text.replace(f"{old}-judged", f"{new}-judged"), encoding="utf-8")
    subprocess.run(["git", "commit", "-qam", "Mailbox"], cwd=dest, check=False, capture_output=True)
    return Game(dest)


def writes(game: Game, now: datetime) -> int:
    """The write points of an undisturbed pass (on a copy)."""
    counter = game.root.parent / "writes"
    env = {**os.environ, "MOONSHINE_COUNT_WRITES": str(counter), **_pw()}
    done = subprocess.run(_command(game, now), env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    return int(counter.read_text(encoding="utf-8"))


def _pw() -> dict[str, str]:
    from imapkit import PASSWORD

    return {"MOONSHINE_IMAP_PASSWORD": PASSWORD}


def _command(game: Game, now: datetime) -> list[str]:
    from runkit import MOONSHINE

    return [MOONSHINE, "run", str(game.root), "--now", now.isoformat()]


def points(total: int, few: list[int]) -> list[int]:
    return list(range(1, total)) if LONG else sorted({k for k in few if 0 < k < total})


def clean(game: Game) -> None:
    """No journal left, nothing uncommitted but the log."""
    assert not (game.root / ".moonshine-journal").exists()
    status = subprocess.run(["git", "status", "--porcelain"], cwd=game.root, capture_output=True, text=True).stdout
    assert status.strip() == "", status


def test_killed_between_reading_and_flagging_a_message(tmp_path: Path, imap: Server, smtp: SmtpServer) -> None:
    template = unattended_game(
        tmp_path / "template", imap, smtp.smtp(), players=PLAYERS, schedule=SCHEDULE, folder="t0"
    )
    post(imap, "t0")
    assert run(template, START).returncode == 0  # the deadline is set
    t = START + timedelta(hours=1)

    def trial(name: str) -> Game:
        game = clone(template, tmp_path / name, "t0", name)
        post(
            imap,
            name,
            letter("valley", "H LOO hold\nsell all\n", t, f"<v.{name}@players.example.org>"),
            letter("genna", "sell all\n", t, f"<g.{name}@players.example.org>"),
        )
        return game

    total = writes(trial("ref"), t)
    assert total > 4
    between = 0
    for k in points(total, [total // 2, total - 1]):
        name = f"k{k}"
        smtp.recorder.received.clear()
        game = trial(name)
        killed = run(game, t, kill_at=k)
        assert killed.returncode != 0, f"the run was not killed at write point {k}"
        left = count(imap, name)
        if left == 2 and any(game.orders_dir("spring-1924").glob("*.txt")):
            between += 1  # read, saved, not yet moved to the judged folder
        done = run(game, t + timedelta(minutes=1))
        assert done.returncode == 0, done.stdout + done.stderr
        assert count(imap, name) == 0 and count(imap, f"{name}-judged") == 2
        for side in PLAYERS:
            assert (game.orders_dir("spring-1924") / f"{side}.txt").is_file(), (k, side)
            acks = to(smtp.recorder, address(side), "Re: orders")
            sent = yaml.safe_load((game.root / "outbox" / "spring-1924" / "sent.yaml").read_text(encoding="utf-8"))
            unknown = [v for v in sent.values() if address(side) in (v.get("unknown") or {})]
            assert len(acks) == 1 or (not acks and unknown), (k, side, len(acks))
        clean(game)
    assert between >= 1


def test_killed_between_adjudicating_and_mailing(tmp_path: Path, imap: Server, smtp: SmtpServer) -> None:
    template = unattended_game(
        tmp_path / "template", imap, smtp.smtp(), players=PLAYERS, schedule=SCHEDULE, folder="a0"
    )
    t = START + timedelta(hours=1)
    post(
        imap,
        "a0",
        letter("valley", "H LOO hold\nsell all\n", t, "<v.a0@players.example.org>"),
        letter("genna", "sell all\n", t, "<g.a0@players.example.org>"),
    )
    assert run(template, START).returncode == 0
    assert run(template, t).returncode == 0  # orders in, acknowledged
    at = DEADLINE + timedelta(minutes=1)

    total = writes(clone(template, tmp_path / "ref", "a0", "a0"), at)
    between = 0
    for k in points(total, [total // 2, total - 2]):
        smtp.recorder.received.clear()
        game = clone(template, tmp_path / f"k{k}", "a0", "a0")
        killed = run(game, at, kill_at=k)
        assert killed.returncode != 0
        if (game.root / "turns" / "autumn-1924" / "state.yaml").is_file() and not smtp.recorder.received:
            between += 1  # adjudicated, nothing mailed yet
        done = run(game, at + timedelta(minutes=1))
        assert done.returncode == 0, done.stdout + done.stderr
        assert (game.root / "turns" / "autumn-1924" / "state.yaml").is_file()
        sent = yaml.safe_load((game.root / "outbox" / "spring-1924" / "sent.yaml").read_text(encoding="utf-8"))
        for side in PLAYERS:
            for word in ("private report", "bulletin"):
                got = to(smtp.recorder, address(side), word)
                unknown = [v for v in sent.values() if address(side) in (v.get("unknown") or {})]
                assert len(got) == 1 or (not got and unknown), (k, side, word)
        log = subprocess.run(["git", "log", "--format=%s"], cwd=game.root, capture_output=True, text=True).stdout
        assert log.count("Adjudicate spring-1924") == 1
        clean(game)
    assert between >= 1
