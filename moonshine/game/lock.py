"""One lock per game directory: every job that reads or changes the game's turn
(adjudicate, rollback, inbox, mail, passwd, ...) holds it while it works.

The lock is an advisory ``fcntl`` lock on ``.moonshine.lock`` at the top of the
game directory, a file git never commits. The system releases it when the
process ends, however it ends, so a killed job never leaves a game locked. The
holder writes its job name, process id and start time into the file, so that a
job that cannot get the lock says which job has it.

Within one process the lock is re-entrant: a job that calls another job's code
(adjudicate writing the reports, say) does not wait for itself.

A judge for many games leaves the lock *sealed* when its pass lets go of a game
(``seal=True``): the file's modification time set to ``SEALED_NS``, a time no write
of today can give it. Any job that takes the lock afterwards writes its name into the
file, and so breaks the seal: ``sealed(game_dir)`` tells the judge, for the cost of a
``stat``, that no one has held the lock since its own pass (no ``moonshine`` command
has changed the game), whatever the clock's resolution.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import IO

import msgspec

from moonshine.errors import GameBusy, GameError

LOCK_FILE = ".moonshine.lock"
POLL_SECONDS = 0.05
SEALED_NS = 1_000_000_000  # a seal's modification time: 1970-01-01 00:00:01 UTC


class _Held(msgspec.Struct):
    fh: IO[str]
    job: str
    depth: int


_held: dict[Path, _Held] = {}


def lock_path(game_dir: Path | str) -> Path:
    return Path(game_dir) / LOCK_FILE


def held_by_us(game_dir: Path | str) -> str | None:
    """The job of this process that holds the game's lock, or None."""
    h = _held.get(_key(game_dir))
    return h.job if h is not None else None


def holder(game_dir: Path | str) -> str:
    """What the lock file says about the job holding it (or that held it last)."""
    try:
        with lock_path(game_dir).open("rb") as fh:
            text = fh.read(1024).decode("utf-8", errors="replace").strip()
    except OSError:
        return ""
    return " ".join(text.split())


def sealed(game_dir: Path | str) -> bool:
    """Whether the lock is as a holder that sealed it left it: no job has taken it since."""
    try:
        return lock_path(game_dir).stat().st_mtime_ns == SEALED_NS
    except OSError:
        return False


@contextmanager
def game_lock(game_dir: Path | str, *, job: str, wait: float = 0.0, seal: bool = False) -> Iterator[None]:
    """Hold the game's lock for ``job`` (a short name such as ``adjudicate
    spring-1924``). ``wait``: seconds to wait for another job to finish; when it
    has not finished by then (at once for ``wait=0``), a ``GameBusy`` error names it.
    ``seal``: the lock is left sealed (``sealed``) when it is let go, while it is
    still held."""
    key = _key(game_dir)
    mine = _held.get(key)
    if mine is not None:
        mine.depth += 1
        try:
            yield
        finally:
            mine.depth -= 1
        return
    try:
        import fcntl
    except ImportError:  # not a POSIX system: no advisory locks
        yield
        return
    root = Path(game_dir)
    if not root.is_dir():
        raise GameError(f"{root}: no such game directory")
    path = lock_path(root)
    try:
        fh = path.open("a+", encoding="utf-8")
    except OSError as exc:
        raise GameError(f"{path}: cannot open the game's lock ({exc.strerror or exc})") from None
    try:
        deadline = time.monotonic() + max(wait, 0.0)
        while True:
            try:
                fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    other = holder(root) or "another job"
                    waited = f" (waited {wait:g} s)" if wait > 0 else ""
                    raise GameBusy(
                        f"{root}: the game is busy: {other} is running{waited}; try again when it has finished"
                    ) from None
                time.sleep(POLL_SECONDS)
        started = datetime.now(UTC).replace(microsecond=0).isoformat()
        fh.seek(0)
        fh.truncate()
        fh.write(f"{job} (process {os.getpid()} on {_host()}, since {started})\n")
        fh.flush()
        _held[key] = _Held(fh, job, 1)
        try:
            yield
        finally:
            del _held[key]
            fh.seek(0)
            fh.truncate()
            fh.flush()
            if seal:
                os.utime(fh.fileno(), ns=(SEALED_NS, SEALED_NS))
            fcntl.flock(fh.fileno(), fcntl.LOCK_UN)
    finally:
        fh.close()


def _key(game_dir: Path | str) -> Path:
    return Path(game_dir).resolve()


def _host() -> str:
    """This machine's name (``os.uname``: the socket module costs its import)."""
    if hasattr(os, "uname"):
        return os.uname().nodename
    import socket

    return socket.gethostname()
