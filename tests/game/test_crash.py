"""Jobs killed mid-way: after the following command the game is the one an
uninterrupted run leaves, byte for byte, fully committed, with no lock or journal
left. A few kill points here; every write point and 50 random kills per job with
``MOONSHINE_CRASH=full`` (``make crash``), which prints the counts."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from crashkit import (
    Tally,
    count_writes,
    crash_trial,
    kill_after,
    kill_in_commit,
    random_times,
    run,
    sample_game,
    timed,
)

FULL = os.environ.get("MOONSHINE_CRASH") == "full"
TURN = "spring-1924"
RANDOM_KILLS = int(os.environ.get("MOONSHINE_CRASH_KILLS", "50"))


def _points(n: int) -> list[int]:
    return list(range(1, n + 1)) if FULL else sorted({1, n // 2, n - 1, n})


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, int, float]:
    """The sample game before the job, after an uninterrupted run, the run's
    write points and its time."""
    tmp = tmp_path_factory.mktemp("crash")
    base = sample_game(tmp / "base")
    reference = tmp / "reference"
    shutil.copytree(base, reference, symlinks=True)
    seconds = timed(lambda: count_writes(reference, "adjudicate", TURN))
    writes = int((tmp / "reference.writes").read_text(encoding="utf-8"))
    return base, reference, writes, seconds


def test_adjudicate_killed_at_write_points(games: tuple[Path, Path, int, float]) -> None:
    base, reference, writes, _ = games
    tally = Tally("adjudicate, at write points")
    for k in _points(writes):
        crash_trial(
            tally,
            base,
            reference,
            ["adjudicate", TURN],
            [["status"], ["adjudicate", TURN]],
            lambda work, k=k: run(work, "adjudicate", TURN, extra={"MOONSHINE_KILL_AT": str(k)}).returncode != 0,
            f"w{k}",
        )
    print(f"\n{tally.line()} (of {writes} write points)")
    assert tally.kills == len(_points(writes))
    assert tally.failures == []
    assert tally.undone > 0 and tally.completed > 0


def test_adjudicate_killed_inside_its_git_commit(games: tuple[Path, Path, int, float]) -> None:
    """Killed while git commits the turn (index.lock and the commit's temporary index,
    next-index-PID.lock, held): the next command completes the commit and removes both
    locks, and no other."""
    base, reference, _, _ = games
    tally = Tally("adjudicate, inside git commit")
    crash_trial(
        tally,
        base,
        reference,
        ["adjudicate", TURN],
        [["status"], ["adjudicate", TURN]],
        lambda work: kill_in_commit(work, ["adjudicate", TURN]),
        "git",
    )
    assert tally.kills == 1
    assert tally.failures == []
    assert tally.completed == 1


@pytest.mark.skipif(not FULL, reason="MOONSHINE_CRASH=full (make crash)")
def test_adjudicate_killed_at_random_times(games: tuple[Path, Path, int, float]) -> None:
    base, reference, _, seconds = games
    tally = Tally("adjudicate, at random times")
    for i, t in enumerate(random_times(RANDOM_KILLS, seconds, seed=13)):
        if tally.kills >= RANDOM_KILLS:
            break
        crash_trial(
            tally,
            base,
            reference,
            ["adjudicate", TURN],
            [["status"], ["adjudicate", TURN]],
            lambda work, t=t: kill_after(work, ["adjudicate", TURN], t),
            f"r{i}",
        )
    print(f"\n{tally.line()}")
    assert tally.failures == []
    assert tally.kills >= RANDOM_KILLS
