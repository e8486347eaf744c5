"""Delivery when the SMTP server fails, against real servers on 127.0.0.1: a port
that refuses connections, one that takes them and drops them at once, one that
takes them and never answers, and aiosmtpd (``test_mail``) refusing recipients.

A transient failure is tried again by later passes, each wait longer, and given
up after two days; a refusal (5xx) is final; the game master hears, in one mail,
which report to which player was not delivered; an error mail that cannot be
delivered never breeds another; a pass killed while sending is reported once; a
pass that failed makes ``moonshine run`` exit non-zero."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from gamekit import make_game
from portkit import free_port
from runkit import GM, MOONSHINE, address, plain, to
from smtpkit import Recorder, Server, start_server

from moonshine.cli import main
from moonshine.game.directory import Game

START = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)
DUE = START + timedelta(hours=48)  # the first deadline: every 48 hours from the first pass
TURN = "spring-1924"
SIDES = ("valley", "genna")


@contextmanager
def broken_port(kind: str) -> Iterator[int]:
    """A port on 127.0.0.1 whose SMTP server is down: ``refuse`` (nothing listens),
    ``drop`` (connections closed at once) or ``stall`` (connections held, never
    answered). Stops with the block."""
    if kind == "refuse":
        yield free_port()
        return
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.1)
    held: list[socket.socket] = []
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            if kind == "drop":
                conn.close()
            else:
                held.append(conn)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield int(listener.getsockname()[1])
    finally:
        stop.set()
        thread.join()
        for conn in held:
            conn.close()
        listener.close()


def make(tmp_path: Path, smtp: Server, *, source: Path | None = None) -> Game:
    """A game of two players whose orders come from a folder, mail through ``smtp``
    (attempts 2, timeout 1 s), errors to the game master."""
    if source is None:
        source = tmp_path / "mail"
        source.mkdir()
    return make_game(
        tmp_path / "chicago",
        seed="outage",
        git=True,
        commit="Players",
        sides=SIDES,
        name=lambda side: f"Player of {side}",
        emails=lambda side: [address(side)],
        passwords={side: "pass-" + side for side in SIDES},
        schedule={"timezone": "UTC", "every": "48h"},
        smtp=smtp.smtp(attempts=2, timeout=1),
        inbox={"source": str(source)},
        referee={"email": GM},
    )


def set_port(game: Game, port: int) -> None:
    path = game.config_path
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    raw["smtp"]["port"] = port
    path.write_text(yaml.safe_dump(raw, sort_keys=False, allow_unicode=True), encoding="utf-8")


@dataclass
class Pass:
    code: int
    output: str


def run(game: Game, now: datetime) -> Pass:
    done = CliRunner().invoke(main, ["run", str(game.root), "--now", now.isoformat()])
    assert done.exception is None or isinstance(done.exception, SystemExit), repr(done.exception)
    assert "Traceback" not in done.output
    return Pass(done.exit_code, done.output)


def sent(game: Game, turn: str = TURN) -> dict[str, Any]:
    path = game.root / "outbox" / turn / "sent.yaml"
    return yaml.safe_load(path.read_text(encoding="utf-8")) or {} if path.is_file() else {}


def reports_to(smtp: Server, side: str) -> list[str]:
    return sorted(
        "report" if "private report" in str(m["Subject"]) else "bulletin"
        for m in to(smtp.recorder, address(side))
        if "private report" in str(m["Subject"]) or "bulletin" in str(m["Subject"]).lower()
    )


@pytest.mark.parametrize("kind", ["refuse", "drop", "stall"])
def test_reports_not_delivered_in_an_outage_go_once_the_server_is_back(tmp_path: Path, smtp: Server, kind: str) -> None:
    game = make(tmp_path, smtp)
    assert run(game, START).code == 0
    with broken_port(kind) as port:
        set_port(game, port)
        during = run(game, DUE)
        assert f"adjudicated {TURN}" in during.output
        assert "deferred" in during.output and "ERROR" not in during.output
        assert during.code == 0  # nothing failed for good: the next passes try again
        record = sent(game)
        deferred = {a: d for e in record.values() for a, d in (e.get("deferred") or {}).items()}
        assert set(deferred) >= {address(s) for s in SIDES}
        for d in deferred.values():
            assert f"127.0.0.1:{port}" in d["reason"] and d["tries"] == 1
            assert d["next"] > DUE.isoformat()  # a backoff, not the next minute
        assert not any(e.get("failed") for e in record.values())
        run(game, DUE + timedelta(minutes=1))  # not due yet: nothing tried
    set_port(game, smtp.port)
    assert not smtp.recorder.received
    assert "sent" not in run(game, DUE + timedelta(minutes=1, seconds=30)).output  # still waiting
    back = run(game, DUE + timedelta(minutes=3))
    assert back.code == 0, back.output
    for side in SIDES:
        assert reports_to(smtp, side) == ["bulletin", "report"], side
    assert not to(smtp.recorder, GM, "judge error")  # a short outage is nothing to report
    assert not any(e.get("deferred") for e in sent(game).values())
    assert run(game, DUE + timedelta(minutes=30)).code == 0
    assert len(smtp.recorder.received) == 3  # the bulletin and two reports, nothing twice


def test_a_player_not_reachable_for_two_days_is_given_up_and_named_to_the_game_master(
    tmp_path: Path, smtp: Server
) -> None:
    game = make(tmp_path, smtp)
    run(game, START)
    smtp.recorder.refuse[address("genna")] = "451 4.2.1 Mailbox busy, try later"
    run(game, DUE)
    assert reports_to(smtp, "valley") == ["bulletin", "report"]
    tries = []
    for minutes in range(2, 60 * 50, 40):  # a pass every 40 minutes for 50 hours
        out = run(game, DUE + timedelta(minutes=minutes))
        if f"deferred {TURN}/report-genna.eml" in out.output:
            tries.append(minutes)
        if "given up" in out.output:
            assert out.code == 1  # from cron: a failed pass is noticed
            break
    else:
        pytest.fail("never given up")
    gaps = [b - a for a, b in pairwise(tries)]
    assert gaps == sorted(gaps) and gaps[-1] >= 60  # each wait longer, up to an hour
    assert DUE + timedelta(days=2) <= DUE + timedelta(minutes=minutes) < DUE + timedelta(days=2, hours=2)
    errors = to(smtp.recorder, GM, "judge error")
    assert len(errors) == 1
    text = " ".join(plain(errors[0]).split())
    assert "private report for Genna Crime Family" in text and "bulletin" in text.lower()
    assert "genna@players.example.org (player of genna)" in text
    assert "451 4.2.1 Mailbox busy" in text and "given up" in text
    assert "valley" not in text
    record = sent(game)
    assert all(address("genna") in e["failed"] for e in record.values() if address("genna") in str(e))
    smtp.recorder.refuse.clear()
    assert run(game, DUE + timedelta(days=3)).code == 0
    assert not to(smtp.recorder, address("genna"), TURN)  # failed for good: the game master sends it by hand


def test_a_refused_report_is_reported_once_naming_the_report_and_the_player(tmp_path: Path, smtp: Server) -> None:
    game = make(tmp_path, smtp)
    run(game, START)
    smtp.recorder.refuse[address("valley")] = "550 5.1.1 No such user"
    out = run(game, DUE)
    assert out.code == 1
    for minutes in (1, 5, 60):
        assert run(game, DUE + timedelta(minutes=minutes)).code == 0
    errors = to(smtp.recorder, GM, "judge error")
    assert len(errors) == 1
    text = " ".join(plain(errors[0]).split())
    assert "private report for Valley Gang" in text
    assert "valley@players.example.org (player of valley) was not delivered: 550 5.1.1 No such user" in text
    assert reports_to(smtp, "genna") == ["bulletin", "report"]


def test_error_mails_in_an_outage_make_one_mail_naming_every_error(tmp_path: Path, smtp: Server) -> None:
    game = make(tmp_path, smtp, source=tmp_path / "no-such-folder")
    state = game.state_path(TURN)
    good = state.read_text(encoding="utf-8")
    with broken_port("refuse") as port:
        set_port(game, port)
        first = run(game, START)
        assert "ERROR intake" in first.output and first.code == 1
        assert "error written to the outbox for the game master (gm@moonshine.example.org)" in first.output
        assert "error mailed" not in first.output and "error mail delivered" not in first.output
        state.write_text(good.replace("price:", "price: [", 1), encoding="utf-8")
        second = run(game, START + timedelta(minutes=1))
        assert "ERROR settings" in second.output and second.code == 1
        for minutes in range(2, 12):
            run(game, START + timedelta(minutes=minutes))
        state.write_text(good, encoding="utf-8")
        outbox = game.root / "outbox" / TURN
        assert len(list(outbox.glob("error-*.eml"))) == 1  # one waiting error mail, with both errors
        log = (game.root / "run.log").read_text(encoding="utf-8")
        assert "was not delivered" not in log
    set_port(game, smtp.port)
    for minutes in range(12, 80, 5):
        run(game, START + timedelta(minutes=minutes))
    errors = to(smtp.recorder, GM)
    assert len(errors) == 1, [str(m["Subject"]) for m in errors]
    text = plain(errors[0])
    assert "no-such-folder" in text and "state.yaml" in text
    assert "error mail delivered to the game master" in (game.root / "run.log").read_text(encoding="utf-8")


def test_an_error_mail_the_server_refuses_breeds_no_other(tmp_path: Path, smtp: Server) -> None:
    game = make(tmp_path, smtp, source=tmp_path / "no-such-folder")
    smtp.recorder.refuse[GM] = "550 5.1.1 No such user"
    for minutes in range(6):
        out = run(game, START + timedelta(minutes=minutes))
        assert out.code == 1
    assert len(list((game.root / "outbox" / TURN).glob("error-*.eml"))) == 1
    log = (game.root / "run.log").read_text(encoding="utf-8")
    assert log.count("ERROR deliver: the error mail for the game master") == 1
    assert "550 5.1.1 No such user" in log
    assert not smtp.recorder.received


class KillingRecorder(Recorder):
    """Kills the sending process (SIGKILL) when the message's data has arrived, before
    the server answers: the sender cannot know whether the server has it."""

    victim: int | None = None

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        if self.victim is not None and "private report for Valley" in envelope.content.decode("utf-8", "replace"):
            os.kill(self.victim, signal.SIGKILL)
            self.victim = None
        return await super().handle_DATA(server, session, envelope)


def test_a_pass_killed_while_sending_is_reported_once(tmp_path: Path) -> None:
    recorder = KillingRecorder()
    srv = start_server(recorder)
    try:
        game = make(tmp_path, srv)
        run(game, START)
        proc = subprocess.Popen(
            [MOONSHINE, "run", str(game.root), "--now", DUE.isoformat()],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        recorder.victim = proc.pid
        assert proc.wait(timeout=120) == -signal.SIGKILL
        entry = next(e for e in sent(game).values() if e["file"] == "report-valley.eml")
        assert entry["sending"] == [address("valley")]  # killed while sending
        after = run(game, DUE + timedelta(minutes=1))
        assert "outcome unknown" in after.output
        assert after.code == 0  # nothing failed in this pass
        for minutes in (2, 3, 10):
            run(game, DUE + timedelta(minutes=minutes))
        errors = to(recorder, GM, "judge error")
        assert len(errors) == 1
        text = " ".join(plain(errors[0]).split())
        assert "private report for Valley Gang" in text and "valley@players.example.org (player of valley)" in text
        assert "outcome unknown" in text and "--resend-unknown" in text
        assert len(to(recorder, address("valley"), "private report")) == 1  # the server had it: not sent again
        entry = next(e for e in sent(game).values() if e["file"] == "report-valley.eml")
        assert "sending" not in entry and address("valley") in entry["unknown"]
    finally:
        srv.controller.stop()


def test_run_exits_non_zero_when_a_game_cannot_be_read(tmp_path: Path, smtp: Server) -> None:
    game = make(tmp_path, smtp)
    assert run(game, START).code == 0
    game.config_path.write_text(game.config_path.read_text(encoding="utf-8") + "\n  broken: [\n", encoding="utf-8")
    out = run(game, START + timedelta(minutes=1))
    assert out.code == 1, out.output
    assert "ERROR" in out.output


HOLD = """
import sys
from moonshine.game.lock import game_lock
with game_lock(sys.argv[1], job="adjudicate spring-1924"):
    print("held", flush=True)
    sys.stdin.read()
"""


def test_run_names_the_game_directory_when_given_none(
    tmp_path: Path, smtp: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = make(tmp_path, smtp, source=tmp_path / "no-such-folder")
    monkeypatch.chdir(game.root)
    done = CliRunner().invoke(main, ["run", "--now", START.isoformat()])
    assert done.exit_code == 1
    errors = to(smtp.recorder, GM, "judge error")
    assert len(errors) == 1
    assert f"({game.root.resolve()})" in plain(errors[0])
    holder = subprocess.Popen(  # another process holds the game's lock
        [sys.executable, "-c", HOLD, str(game.root)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        busy = CliRunner().invoke(main, ["run", "--now", START.isoformat()])
    finally:
        holder.communicate("")
    assert busy.exit_code == 0  # busy is no failure: the next pass does it
    assert f"busy: {game.root.resolve()}: the game is busy" in busy.output


def test_the_judges_commits_are_authored_by_its_own_address(
    tmp_path: Path, smtp: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL"):
        monkeypatch.delenv(name, raising=False)
    game = make(tmp_path, smtp)
    assert run(game, START).code == 0
    authors = subprocess.run(
        ["git", "log", "--format=%an <%ae>", "-1"], cwd=game.root, capture_output=True, text=True, check=True
    ).stdout
    assert authors.strip() == smtp.smtp()["from"]


def test_a_new_turns_first_pass_commits_no_empty_inbox_log(tmp_path: Path, smtp: Server) -> None:
    game = make(tmp_path, smtp)
    run(game, START)
    run(game, DUE)  # adjudicated: autumn-1924 opens, its mailbox read with nothing in it
    run(game, DUE + timedelta(minutes=1))
    assert not (game.root / "orders" / "autumn-1924" / "inbox.yaml").exists()
    tracked = subprocess.run(["git", "ls-files", "orders"], cwd=game.root, capture_output=True, text=True).stdout
    assert "inbox.yaml" not in tracked


def test_the_game_masters_uncommitted_edits_are_not_swept_into_the_deadline_commit(
    tmp_path: Path, smtp: Server
) -> None:
    game = make(tmp_path, smtp)
    text = game.config_path.read_text(encoding="utf-8")
    game.config_path.write_text("# the game master's note, not committed yet\n" + text, encoding="utf-8")
    run(game, START)  # writes the first deadline into game.yaml
    log = subprocess.run(
        ["git", "log", "--format=%s", "-3"], cwd=game.root, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    deadline = next(i for i, subject in enumerate(log) if subject.startswith("Deadline of spring-1924"))
    assert log[deadline + 1] == "game.yaml: the game master's edits"
    diff = subprocess.run(
        ["git", "show", f"HEAD~{deadline}", "--", "game.yaml"],
        cwd=game.root,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "the game master's note" not in diff and "spring-1924" in diff  # the judge's commit: its change alone
