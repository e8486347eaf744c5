"""``moonshine run`` started while another job holds the game leaves it alone;
``moonshine run --watch`` keeps running, and with an IMAP server that offers
IDLE it answers a message as soon as it arrives instead of at the next poll."""

from __future__ import annotations

import os
import subprocess
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from imapkit import PASSWORD, Server, client, post
from runkit import MOONSHINE, address, letter, to, unattended_game
from smtpkit import Server as SmtpServer

from moonshine.game.lock import game_lock
from moonshine.host.watch import wait_for_mail
from moonshine.mail.idle import offers_idle


def env() -> dict[str, str]:
    e = {k: v for k, v in os.environ.items() if k not in ("MOONSHINE_NOW", "MOONSHINE_KILL_AT")}
    e["MOONSHINE_IMAP_PASSWORD"] = PASSWORD
    return e


def test_a_busy_game_is_left_alone(tmp_path: Path, imap: Server, smtp: SmtpServer) -> None:
    schedule = {"every": "48h"}
    game = unattended_game(
        tmp_path / "g", imap, smtp.smtp(), players={"valley": None}, schedule=schedule, folder="busy"
    )
    with game_lock(game.root, job="adjudicate spring-1924"):
        done = subprocess.run(
            [MOONSHINE, "run", str(game.root), "--now", "2026-11-30T08:00:00+00:00"],
            env=env(),
            capture_output=True,
            text=True,
            check=False,
        )
    assert done.returncode == 0, done.stderr
    assert "busy" in done.stdout and "adjudicate spring-1924" in done.stdout
    assert "deadlines" not in game.config_path.read_text(encoding="utf-8")  # nothing done


def test_watch_answers_at_once_with_imap_idle(tmp_path: Path, imap: Server, smtp: SmtpServer) -> None:
    conn = client(imap)
    try:
        assert offers_idle(conn)
    finally:
        conn.logout()
    schedule = {"every": "48h"}
    game = unattended_game(
        tmp_path / "g", imap, smtp.smtp(), players={"valley": None}, schedule=schedule, folder="idle"
    )
    post(imap, "idle")
    proc = subprocess.Popen(
        [MOONSHINE, "run", str(game.root), "--watch", "--passes", "2", "--interval", "60"],
        env=env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 20
        while "deadline spring-1924" not in _log(game.root) and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(0.5)  # the watcher is waiting in IDLE
        sent = datetime.now(UTC)
        post(imap, "idle", letter("valley", "sell all\n", sent, "<idle-1@players.example.org>"))
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, out + err
    assert len(to(smtp.recorder, address("valley"), "Re: orders")) == 1
    assert datetime.now(UTC) - sent < timedelta(seconds=25)  # not the 60 s poll


def _log(root: Path) -> str:
    path = root / "run.log"
    return path.read_text(encoding="utf-8") if path.is_file() else ""


def test_without_an_imap_mailbox_the_watcher_polls(tmp_path: Path) -> None:
    assert wait_for_mail([tmp_path], 0.1) is False  # not a game: nothing to wait on, the caller sleeps


def test_the_watcher_waits_on_every_games_imap_mailbox(
    tmp_path: Path, imap: Server, smtp: SmtpServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two games on two IMAP mailboxes: mail arriving in the second's ends the wait as
    soon as it arrives (before, only the first game's mailbox was watched)."""
    import threading

    monkeypatch.setenv("MOONSHINE_IMAP_PASSWORD", PASSWORD)
    schedule = {"every": "48h"}
    first = unattended_game(
        tmp_path / "a", imap, smtp.smtp(), players={"valley": None}, schedule=schedule, folder="w-a"
    )
    second = unattended_game(
        tmp_path / "b", imap, smtp.smtp(), players={"valley": None}, schedule=schedule, folder="w-b"
    )
    post(imap, "w-a")
    post(imap, "w-b")
    answer: list[bool] = []
    waiter = threading.Thread(target=lambda: answer.append(wait_for_mail([first.root, second.root], 30)))
    started = time.monotonic()
    waiter.start()
    time.sleep(1.0)  # both mailboxes in IDLE
    post(imap, "w-b", letter("valley", "sell all\n", datetime.now(UTC), "<w-b-1@players.example.org>"))
    waiter.join(30)
    assert answer == [True]
    assert time.monotonic() - started < 15  # woken by the second game's mail, not the 30 s wait


def test_the_watcher_waits_on_a_judges_one_mailbox(
    tmp_path: Path, imap: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A judge for many games: `run DIR --watch` waits in IMAP IDLE on its one mailbox
    (it polled every --interval before)."""
    import threading

    import yaml
    from imapkit import USER

    from moonshine.host.settings import init

    monkeypatch.setenv("MOONSHINE_IMAP_PASSWORD", PASSWORD)
    root = tmp_path / "judge"
    init(root, address="judge@example.org", masters=["gm@example.org"])
    raw = yaml.safe_load((root / "judge.yaml").read_text(encoding="utf-8"))
    raw["inbox"] = {"source": f"imap://{USER}@127.0.0.1:{imap.port}/w-judge", "imap": {"ca_file": str(imap.ca)}}
    (root / "judge.yaml").write_text(yaml.safe_dump(raw), encoding="utf-8")
    post(imap, "w-judge")
    answer: list[bool] = []
    waiter = threading.Thread(target=lambda: answer.append(wait_for_mail([root], 30)))
    started = time.monotonic()
    waiter.start()
    time.sleep(1.0)  # the mailbox in IDLE
    post(imap, "w-judge", letter("valley", "list\n", datetime.now(UTC), "<w-judge-1@players.example.org>"))
    waiter.join(30)
    assert answer == [True]
    assert time.monotonic() - started < 15  # woken by the mail, not the 30 s wait
