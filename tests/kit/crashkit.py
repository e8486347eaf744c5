"""Crash injection for the game's jobs: run a ``moonshine`` command in a copy of a
game, kill it at a chosen write point (``MOONSHINE_KILL_AT``) or after a random
time (SIGKILL to its process group, as a reboot would), run the following command
and compare the game with the one an uninterrupted run left."""

from __future__ import annotations

import hashlib
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from samplegame import copy_sample

MOONSHINE = [str(Path(sys.executable).parent / "moonshine")]
ENV_BASE = {
    "GIT_AUTHOR_NAME": "Referee",
    "GIT_AUTHOR_EMAIL": "referee@example.org",
    "GIT_COMMITTER_NAME": "Referee",
    "GIT_COMMITTER_EMAIL": "referee@example.org",
    "GIT_AUTHOR_DATE": "2024-03-01T18:00:00+00:00",
    "GIT_COMMITTER_DATE": "2024-03-01T18:00:00+00:00",
}
# not part of the game: git's own files, the lock, the journal
SKIP = {".git", ".moonshine.lock", ".moonshine-journal"}


def env(**extra: str) -> dict[str, str]:
    e = dict(os.environ)
    e.pop("MOONSHINE_KILL_AT", None)
    e.pop("MOONSHINE_COUNT_WRITES", None)
    e.update(ENV_BASE)
    e.update(extra)
    return e


def git(root: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=root, env=env(), capture_output=True, text=True, check=True)
    return done.stdout


def sample_game(dest: Path) -> Path:
    """The repository's sample game (spring-1924, every gang's orders), in git."""
    copy_sample(dest)
    (dest / ".gitignore").write_text(".moonshine-secret\n", encoding="utf-8")
    git(dest, "init", "-q")
    git(dest, "add", "-A")
    git(dest, "commit", "-q", "-m", "Sample game")
    return dest


def run(root: Path, *args: str, extra: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*MOONSHINE, *args, "--game", str(root)],
        cwd=root,
        env=env(**(extra or {})),
        capture_output=True,
        text=True,
        check=False,
    )


def count_writes(root: Path, *args: str) -> int:
    counter = root.parent / f"{root.name}.writes"
    done = run(root, *args, extra={"MOONSHINE_COUNT_WRITES": str(counter)})
    assert done.returncode == 0, done.stdout + done.stderr
    return int(counter.read_text(encoding="utf-8"))


def start(root: Path, args: Sequence[str]) -> subprocess.Popen[bytes]:
    """The command running on the game, in a process group of its own (so that killing
    the group, as a reboot would, reaches it and its git, and no one else)."""
    return subprocess.Popen(
        [*MOONSHINE, *args, "--game", str(root)],
        cwd=root,
        env=env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def kill_after(root: Path, args: Sequence[str], seconds: float) -> bool:
    """Run the command and kill its process group after ``seconds``; True when it
    was still running then."""
    proc = start(root, args)
    try:
        proc.wait(timeout=seconds)
        return False
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        return True


def snapshot(root: Path) -> dict[str, str]:
    """Every file of the game (not git's) with its SHA-256."""
    out = {}
    for p in sorted(root.rglob("*")):
        rel = p.relative_to(root)
        if rel.parts[0] in SKIP or not p.is_file():
            continue
        out[rel.as_posix()] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


def problems(root: Path, reference: Path) -> list[str]:
    """What differs from the uninterrupted run: files, commit, leftovers."""
    found = []
    mine, theirs = snapshot(root), snapshot(reference)
    for name in sorted(set(mine) | set(theirs)):
        if mine.get(name) != theirs.get(name):
            found.append(
                f"{name}: {'differs' if name in mine and name in theirs else 'extra' if name in mine else 'missing'}"
            )
    status = git(root, "status", "--porcelain", "--ignored=no")
    if status.strip():
        found.append(f"not committed: {status.strip()}")
    if git(root, "rev-parse", "HEAD^{tree}") != git(reference, "rev-parse", "HEAD^{tree}"):
        found.append("the last commit's tree differs")
    if (root / ".moonshine-journal").exists():
        found.append(".moonshine-journal left")
    for lock in sorted((root / ".git").glob("*.lock")):  # index.lock, next-index-PID.lock
        found.append(f".git/{lock.name} left")
    return found


@dataclass
class Tally:
    name: str
    kills: int = 0  # killed while running
    finished: int = 0  # ended before the kill came
    completed: int = 0  # the following command said it completed the job
    undone: int = 0  # ... or that it undid it
    failures: list[str] = field(default_factory=list)

    def line(self) -> str:
        return (
            f"{self.name}: {self.kills} kills ({self.completed} completed, {self.undone} undone by the next command), "
            f"{self.finished} runs ended before the kill, {len(self.failures)} games differing"
        )


def crash_trial(
    tally: Tally,
    base: Path,
    reference: Path,
    args: Sequence[str],
    following: Sequence[Sequence[str]],
    kill: Callable[[Path], bool],
    label: str,
) -> None:
    """Copy ``base``, kill the job with ``kill``, run the ``following`` commands,
    compare with ``reference``."""
    work = base.parent / f"trial-{label}"
    if work.exists():
        shutil.rmtree(work)
    shutil.copytree(base, work, symlinks=True)
    if kill(work):
        tally.kills += 1
    else:
        tally.finished += 1
    for cmd in following:
        done = run(work, *cmd)
        text = done.stdout + done.stderr
        tally.completed += "Completed the interrupted" in text
        tally.undone += "Undid the interrupted" in text
        if "Traceback" in text:
            tally.failures.append(f"{label}: traceback in {' '.join(cmd)}: {text[-400:]}")
    diff = problems(work, reference)
    if diff:
        tally.failures.append(f"{label}: " + "; ".join(diff[:5]))
    shutil.rmtree(work)


def kill_in_commit(root: Path, args: Sequence[str]) -> bool:
    """Run the command with a ``pre-commit`` hook in the game's repository that kills
    the command's whole process group (git and moonshine, as a reboot would) while
    git is committing: its index and temporary index locked. The hook removes itself
    first, so the following commands commit as usual. True when it was killed."""
    hook = root / ".git" / "hooks" / "pre-commit"
    hook.parent.mkdir(parents=True, exist_ok=True)
    hook.write_text('#!/bin/sh\nrm -f "$0"\nkill -s KILL 0\n', encoding="utf-8")
    hook.chmod(0o755)
    proc = start(root, args)
    return proc.wait(timeout=120) == -signal.SIGKILL


def random_times(n: int, longest: float, seed: int) -> Iterator[float]:
    """Random kill times (seconds) within a run's length, for at most 3 n runs: the
    caller stops when it has killed n runs (some end before their kill time)."""
    rng = random.Random(seed)
    for _ in range(3 * n):
        yield rng.uniform(0.05, longest)


def timed(fn: Callable[[], object]) -> float:
    t0 = time.monotonic()
    fn()
    return time.monotonic() - t0
