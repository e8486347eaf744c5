"""The game's lock: one job at a time per game directory, named when it is busy,
released when its process dies, never committed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from moonshine.errors import GameBusy, GameError
from moonshine.game.directory import git_commit
from moonshine.game.families import new_game
from moonshine.game.lock import LOCK_FILE, game_lock, held_by_us

HOLD = """
import sys, time
from pathlib import Path
from moonshine.game.lock import game_lock
with game_lock(Path(sys.argv[1]), job=sys.argv[2]):
    print("held", flush=True)
    time.sleep(float(sys.argv[3]))
"""


def _hold(game: Path, job: str, seconds: float) -> subprocess.Popen[str]:
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(game), job, str(seconds)], stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "held"
    return proc


def test_a_busy_game_names_the_job_that_holds_it(tmp_path: Path) -> None:
    proc = _hold(tmp_path, "adjudicate spring-1924", 30)
    try:
        with pytest.raises(GameBusy) as err, game_lock(tmp_path, job="inbox"):
            pass
        # a GameError its callers tell by its type (moonshine run leaves a busy game to the next pass)
        assert isinstance(err.value, GameError) and "busy" in str(err.value)
        assert "adjudicate spring-1924" in str(err.value)
        assert f"process {proc.pid}" in str(err.value)
    finally:
        proc.kill()
        proc.wait()


def test_a_bounded_wait_gets_the_lock_when_the_other_job_ends(tmp_path: Path) -> None:
    proc = _hold(tmp_path, "mail --send", 0.5)
    try:
        t0 = time.monotonic()
        with game_lock(tmp_path, job="inbox", wait=20):
            assert held_by_us(tmp_path) == "inbox"
        assert time.monotonic() - t0 < 15
    finally:
        proc.wait()


def test_a_bounded_wait_ends_with_an_error(tmp_path: Path) -> None:
    proc = _hold(tmp_path, "adjudicate spring-1924", 30)
    try:
        t0 = time.monotonic()
        with pytest.raises(GameError, match=r"waited 0\.3 s"), game_lock(tmp_path, job="inbox", wait=0.3):
            pass
        assert time.monotonic() - t0 >= 0.3
    finally:
        proc.kill()
        proc.wait()


def test_a_killed_job_leaves_no_lock(tmp_path: Path) -> None:
    proc = _hold(tmp_path, "adjudicate spring-1924", 60)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    with game_lock(tmp_path, job="inbox"):
        assert held_by_us(tmp_path) == "inbox"
    assert held_by_us(tmp_path) is None


def test_the_lock_is_reentrant_within_a_process(tmp_path: Path) -> None:
    with game_lock(tmp_path, job="adjudicate"), game_lock(tmp_path, job="reports"):
        assert held_by_us(tmp_path) == "adjudicate"
    with game_lock(tmp_path, job="inbox"):
        assert held_by_us(tmp_path) == "inbox"


def test_no_game_directory_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(GameError, match="no such game directory"), game_lock(tmp_path / "nope", job="inbox"):
        pass


def test_lock_files_are_never_committed(tmp_path: Path) -> None:
    root = tmp_path / "g"
    new_game(root, seed="s")
    assert LOCK_FILE in (root / ".gitignore").read_text(encoding="utf-8").split()
    (root / ".gitignore").write_text(".moonshine-secret\n", encoding="utf-8")  # an older game's
    inbox_lock = root / "orders" / "spring-1924" / ".inbox.lock"
    inbox_lock.write_text("", encoding="utf-8")
    subprocess.run(["git", "add", "-f", str(inbox_lock)], cwd=root, check=True)
    with game_lock(root, job="adjudicate"):
        (root / "notes.txt").write_text("x\n", encoding="utf-8")
        assert git_commit(root, "test")
    tracked = subprocess.run(["git", "ls-files"], cwd=root, capture_output=True, text=True, check=True).stdout
    assert "notes.txt" in tracked.split()
    assert not [name for name in tracked.split() if name.endswith(".lock")]
    assert inbox_lock.exists() and (root / LOCK_FILE).exists()
