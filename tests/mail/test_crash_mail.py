"""``mail --send`` killed at every write point and at random times, against a real
SMTP server on 127.0.0.1: after the following commands (``mail --send``, then
``--resend-unknown`` for what was recorded as of unknown outcome) every recipient
has every message, a message arrives twice only where its delivery was recorded
as of unknown outcome, and the game is the one an uninterrupted run leaves, fully
committed, with no lock or journal left. ``MOONSHINE_CRASH=full`` for every write
point and 50 random kills (``make crash``)."""

from __future__ import annotations

import os
import shutil
from collections import Counter
from collections.abc import Iterator
from email import message_from_bytes, policy
from pathlib import Path

import pytest
import yaml
from crashkit import Tally, count_writes, git, kill_after, problems, random_times, run, sample_game, timed
from mailkit import read_eml
from smtpkit import Server, smtp_server

FULL = os.environ.get("MOONSHINE_CRASH") == "full"
TURN = "spring-1924"
RANDOM_KILLS = int(os.environ.get("MOONSHINE_CRASH_KILLS", "50"))


Games = tuple[Server, Path, Path, int, float]


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Games]:
    """The SMTP server of the module's trials, the game they start from (adjudicated, its
    mail in the outbox), the game a run of ``mail --send`` left, its writes and seconds."""
    with smtp_server() as server:
        yield server, *_games(tmp_path_factory, server)


def _games(tmp_path_factory: pytest.TempPathFactory, server: Server) -> tuple[Path, Path, int, float]:
    tmp = tmp_path_factory.mktemp("crashmail")
    base = sample_game(tmp / "base")
    with (base / "game.yaml").open("a", encoding="utf-8") as fh:
        fh.write(
            "smtp:\n  host: 127.0.0.1\n"
            f"  port: {server.port}\n  security: none\n  from: Referee <referee@moonshine.example>\n"
            "  attempts: 2\n  retry_delay: 0\n  timeout: 5\n"
        )
    git(base, "commit", "-q", "-am", "smtp")
    done = run(base, "adjudicate", TURN)
    assert done.returncode == 0, done.stdout + done.stderr
    done = run(base, "mail", TURN)
    assert done.returncode == 0, done.stdout + done.stderr
    reference = tmp / "reference"
    shutil.copytree(base, reference, symlinks=True)
    seconds = timed(lambda: count_writes(reference, "mail", TURN, "--send"))
    writes = int((tmp / "reference.writes").read_text(encoding="utf-8"))
    return base, reference, writes, seconds


def _wanted(root: Path) -> set[tuple[str, str]]:
    out = set()
    for eml in (root / "outbox" / TURN).glob("*.eml"):
        msg = read_eml(eml)
        mid = str(msg["Message-ID"]).strip()
        for header in ("To", "Bcc"):
            if msg[header]:
                out |= {(mid, a.addr_spec) for a in msg[header].addresses}
    return out


def _trial(tally: Tally, server: Server, base: Path, reference: Path, label: str, kill: object) -> int:
    """One killed run and its following commands; returns the duplicates received."""
    work = base.parent / f"trial-{label}"
    if work.exists():
        shutil.rmtree(work)
    shutil.copytree(base, work, symlinks=True)
    start = len(server.recorder.received)
    if kill(work):  # type: ignore[operator]
        tally.kills += 1
    else:
        tally.finished += 1
    first = run(work, "mail", TURN, "--send")
    text = first.stdout + first.stderr
    tally.completed += "Completed the interrupted" in text
    sent = yaml.safe_load((work / "outbox" / TURN / "sent.yaml").read_text(encoding="utf-8")) or {}
    # recorded as of unknown outcome: "unknown", or "sending" (killed while sending) until the entry is saved again
    unknown = {(mid, r) for mid, e in sent.items() for r in [*(e.get("unknown") or {}), *(e.get("sending") or [])]}
    last = run(work, "mail", TURN, "--send", "--resend-unknown")
    for out in (first, last):
        if "Traceback" in out.stdout + out.stderr:
            tally.failures.append(f"{label}: traceback: {(out.stdout + out.stderr)[-300:]}")
    got: Counter[tuple[str, str]] = Counter()
    for _, rcpts, content in server.recorder.received[start:]:
        mid = str(message_from_bytes(content, policy=policy.default)["Message-ID"]).strip()
        for r in rcpts:
            got[(mid, r)] += 1
    wanted = _wanted(work)
    if not wanted <= set(got):
        tally.failures.append(f"{label}: lost {sorted(wanted - set(got))[:3]}")
    dupes = {p for p, n in got.items() if n > 1}
    if not dupes <= unknown:
        tally.failures.append(f"{label}: sent twice without an unknown outcome recorded: {sorted(dupes - unknown)[:3]}")
    diff = problems(work, reference)
    if diff:
        tally.failures.append(f"{label}: " + "; ".join(diff[:5]))
    shutil.rmtree(work)
    return sum(n - 1 for p, n in got.items() if n > 1)


def _points(n: int) -> list[int]:
    return list(range(1, n + 1)) if FULL else sorted({1, n // 3, n // 2, n})


def test_mail_send_killed_at_write_points(games: Games) -> None:
    server, base, reference, writes, _ = games
    tally = Tally("mail --send, at write points")
    dupes = 0
    for k in _points(writes):
        dupes += _trial(
            tally,
            server,
            base,
            reference,
            f"w{k}",
            lambda work, k=k: run(work, "mail", TURN, "--send", extra={"MOONSHINE_KILL_AT": str(k)}).returncode != 0,
        )
    print(f"\n{tally.line()} (of {writes} write points); {dupes} duplicate(s), all of unknown outcome")
    assert tally.failures == []
    assert tally.kills == len(_points(writes))


@pytest.mark.skipif(not FULL, reason="MOONSHINE_CRASH=full (make crash)")
def test_mail_send_killed_at_random_times(games: Games) -> None:
    server, base, reference, _, seconds = games
    tally = Tally("mail --send, at random times")
    dupes = 0
    for i, t in enumerate(random_times(RANDOM_KILLS, seconds, seed=12)):
        if tally.kills >= RANDOM_KILLS:
            break
        dupes += _trial(
            tally, server, base, reference, f"r{i}", lambda work, t=t: kill_after(work, ["mail", TURN, "--send"], t)
        )
    print(f"\n{tally.line()}; {dupes} duplicate(s), all of unknown outcome")
    assert tally.failures == []
    assert tally.kills >= RANDOM_KILLS
