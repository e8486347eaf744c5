"""``inbox`` killed at every write point and at random times: after the
following ``inbox`` run every message is processed once, the orders files and
the replies are those of an uninterrupted run, everything is committed, and no
lock or journal is left. (``processed`` times in ``inbox.yaml`` and the replies'
Date lines are the times of the runs, so the log is compared by its entries.)
``MOONSHINE_CRASH=full`` for every write point and 50 random kills."""

from __future__ import annotations

import mailbox
import os
import shutil
from email.message import EmailMessage
from pathlib import Path

import pytest
import yaml
from crashkit import Tally, count_writes, git, kill_after, random_times, run, sample_game, timed
from repokit import ROOT

FULL = os.environ.get("MOONSHINE_CRASH") == "full"
TURN = "spring-1924"
RANDOM_KILLS = int(os.environ.get("MOONSHINE_CRASH_KILLS", "50"))
GANGS = ("outfit", "valley", "genna", "northside", "unione", "southside")


def _mbox(path: Path) -> Path:
    box = mailbox.mbox(str(path))
    for i, gang in enumerate(GANGS):
        msg = EmailMessage()
        msg["From"] = f"{gang}@players.example.org"
        msg["To"] = "referee@moonshine.example.org"
        msg["Subject"] = f"{gang} orders"
        msg["Date"] = f"Wed, 28 Feb 2024 1{i}:00:00 +0000"
        msg["Message-ID"] = f"<{gang}-{i}@players.example.org>"
        orders = (ROOT / "orders" / TURN / f"{gang}.txt").read_text(encoding="utf-8")
        msg.set_content(f"gang: {gang}\npassword: pw-{gang}-1924\n\n{orders}")
        box.add(msg)
    box.flush()
    box.close()
    return path


def _log(root: Path) -> list[tuple[str, str, str]]:
    raw = yaml.safe_load((root / "orders" / TURN / "inbox.yaml").read_text(encoding="utf-8"))
    return sorted((s["message_id"], s["outcome"], str(s.get("gang"))) for s in raw["submissions"])


def _files(root: Path) -> dict[str, bytes]:
    out = {}
    for base in ("orders", "outbox"):
        for p in sorted((root / base).rglob("*")):
            if p.is_file() and p.name not in ("inbox.yaml",) and not p.name.startswith("."):
                data = p.read_bytes()
                if p.suffix == ".eml":  # the reply's Date is the time of the run
                    data = b"\n".join(line for line in data.split(b"\n") if not line.startswith(b"Date:"))
                out[p.relative_to(root).as_posix()] = data
    return out


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path, int, float]:
    tmp = tmp_path_factory.mktemp("crashinbox")
    base = sample_game(tmp / "base")
    for gang in GANGS:
        (base / "orders" / TURN / f"{gang}.txt").unlink()
        done = run(base, "passwd", gang, "--password", f"pw-{gang}-1924")
        assert done.returncode == 0, done.stdout + done.stderr
    git(base, "add", "-A")
    git(base, "commit", "-q", "-m", "passwords, no orders yet")
    box = _mbox(tmp / "orders.mbox")
    reference = tmp / "reference"
    shutil.copytree(base, reference, symlinks=True)
    seconds = timed(lambda: count_writes(reference, "inbox", str(box)))
    writes = int((tmp / "reference.writes").read_text(encoding="utf-8"))
    return base, reference, box, writes, seconds


def _trial(tally: Tally, base: Path, reference: Path, box: Path, label: str, kill: object) -> None:
    work = base.parent / f"trial-{label}"
    if work.exists():
        shutil.rmtree(work)
    shutil.copytree(base, work, symlinks=True)
    if kill(work):  # type: ignore[operator]
        tally.kills += 1
    else:
        tally.finished += 1
    done = run(work, "inbox", str(box))
    text = done.stdout + done.stderr
    tally.completed += "Completed the interrupted" in text
    found = []
    if "Traceback" in text or done.returncode != 0:
        found.append(f"inbox after the kill: {text[-300:]}")
    if _log(work) != _log(reference):
        found.append(f"log differs: {_log(work)} != {_log(reference)}")
    mine, theirs = _files(work), _files(reference)
    if mine != theirs:
        found.append(
            f"files differ: {sorted(set(mine) ^ set(theirs)) or [k for k in mine if mine[k] != theirs.get(k)]}"
        )
    status = git(work, "status", "--porcelain")
    if status.strip():
        found.append(f"not committed: {status.strip()[:200]}")
    for leftover in (".moonshine-journal", ".git/index.lock", f"orders/{TURN}/.inbox-journal"):
        if (work / leftover).exists():
            found.append(f"{leftover} left")
    if found:
        tally.failures.append(f"{label}: " + "; ".join(found))
    shutil.rmtree(work)


def _points(n: int) -> list[int]:
    return list(range(1, n + 1)) if FULL else sorted({1, n // 2, n})


def test_inbox_killed_at_write_points(games: tuple[Path, Path, Path, int, float]) -> None:
    base, reference, box, writes, _ = games
    tally = Tally("inbox, at write points")
    for k in _points(writes):
        _trial(
            tally,
            base,
            reference,
            box,
            f"w{k}",
            lambda work, k=k: run(work, "inbox", str(box), extra={"MOONSHINE_KILL_AT": str(k)}).returncode != 0,
        )
    print(f"\n{tally.line()} (of {writes} write points)")
    assert tally.failures == []


@pytest.mark.skipif(not FULL, reason="MOONSHINE_CRASH=full (make crash)")
def test_inbox_killed_at_random_times(games: tuple[Path, Path, Path, int, float]) -> None:
    base, reference, box, _, seconds = games
    tally = Tally("inbox, at random times")
    for i, t in enumerate(random_times(RANDOM_KILLS, seconds, seed=11)):
        if tally.kills >= RANDOM_KILLS:
            break
        _trial(tally, base, reference, box, f"r{i}", lambda work, t=t: kill_after(work, ["inbox", str(box)], t))
    print(f"\n{tally.line()}")
    assert tally.failures == []
