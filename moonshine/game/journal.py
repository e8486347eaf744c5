"""Every job that changes a game is a transaction: it completes, or the next
command undoes it. Nothing a killed job wrote is left half-done.

A job (``transaction(game_dir, job)``) holds the game's lock. Before it changes a
file for the first time it saves the file's old content (or notes that there was
none) in ``.moonshine-journal/`` and lists it in ``journal.yaml``; the files are
then written in place, each atomically. When every file is written the journal
says ``committing`` (the commit point, one atomic write) and the job commits the
files it changed in git, then deletes the journal.

The next command that opens the game (any command: the CLI looks first) finds a
journal left by a killed job and

* undoes it when it had not reached its commit point: every file it changed gets
  its old content back, every file it created goes;
* completes it when it had: the git commit is made (it may have been made already).

Both are safe to repeat if the recovery itself is interrupted. The lock files the
killed job's git left (``.git/index.lock``, and ``.git/next-index-PID.lock`` of a
commit of some paths) are removed: only while the game's lock is held and a journal
shows that a job of ours was interrupted, only those made since that job started,
and a ``next-index`` lock only when its git is no longer running.

The journal is a list of plain steps so that other jobs (the unattended run)
can use it as they are: ``protect`` a file or a tree before changing it,
``commit`` at the end.

For tests of crash safety, ``MOONSHINE_KILL_AT=N`` makes the process kill itself
(SIGKILL) at its N-th write point; ``MOONSHINE_COUNT_WRITES=FILE`` records how many
write points a run passed. Both are read once, at the first write point.
``MOONSHINE_KILL_AT=NAME`` (a word, not a number) kills it at the named point
``kill_point(NAME)`` instead: a step between two writes that are not the journal's
(the judge's registry), such as ``game-due`` (a game marked due by the judge's pass,
its own pass not yet begun).
"""

from __future__ import annotations

import os
import shutil
import signal
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import msgspec

from moonshine.errors import GameError, StateError
from moonshine.game.lock import game_lock

JOURNAL_DIR = ".moonshine-journal"
JOURNAL_FILE = "journal.yaml"
WRITING = "writing"
COMMITTING = "committing"

# What a game directory holds of its own: the files and trees a job reads and writes.
# (The repository's root is a sample game too, beside the project's sources: those,
# .git and a virtual environment are not the game's.)
GAME_ENTRIES = (
    "game.yaml",
    ".moonshine-secret",
    ".moonshine.lock",
    "orders",
    "turns",
    "outbox",
    "press",
    "site",
    "votes.yaml",
    "run.yaml",
    "judge.yaml",  # the unattended judge's record before it was run.yaml
    "absences.yaml",
    "run.log",
    JOURNAL_DIR,
)


def check_contained(
    game_dir: Path | str,
    entries: tuple[str, ...] = GAME_ENTRIES,
    *,
    shallow: tuple[str, ...] = (),
    what: str = "game directory",
) -> None:
    """Refuse a game whose own files lead outside it: a symbolic link among them (a
    file, or a directory such as ``orders/TURN/history``) whose target is not inside
    the game directory. A job would read it into the reports and results, or write
    through it. Links that stay inside the game are fine; nothing is followed.
    ``entries``: the directory's own files and trees (a judge for many games has
    others, ``moonshine.host.settings.check_judge_dir``); ``shallow``: folders whose
    entries are looked at but not walked into (a judge's ``games/``, each game being
    checked by its own jobs)."""
    root = Path(game_dir)
    top = root.resolve()

    def check(path: Path) -> None:
        target = path.resolve()
        if not target.is_relative_to(top):
            rel = path.relative_to(root).as_posix()
            raise GameError(
                f"{rel}: a symbolic link to {target}, outside the {what} {top}; "
                f"every file of the {what} stays inside it: put the file itself there instead of the link"
            )

    def walk(directory: Path) -> None:
        with os.scandir(directory) as entries:
            for entry in entries:
                if entry.is_symlink():
                    check(Path(entry.path))
                elif entry.is_dir(follow_symlinks=False):
                    walk(Path(entry.path))

    for name in entries:
        path = root / name
        if path.is_symlink():
            check(path)
        elif path.is_dir() and name in shallow:
            with os.scandir(path) as found:
                for entry in found:
                    if entry.is_symlink():
                        check(Path(entry.path))
        elif path.is_dir():
            walk(path)


# -- write points (crash injection) --------------------------------------------------

_kill_at: int | None = None
_count_file: str | None = None
_writes = 0
_configured = False


def write_point() -> None:
    """Called before every write a job makes; see the module's docstring."""
    global _writes, _kill_at, _count_file, _configured
    if not _configured:
        _configured = True
        raw = os.environ.get("MOONSHINE_KILL_AT", "")
        _kill_at = int(raw) if raw.isdigit() else None
        _count_file = os.environ.get("MOONSHINE_COUNT_WRITES") or None
    _writes += 1
    if _count_file is not None:
        with open(_count_file, "w", encoding="utf-8") as fh:
            fh.write(f"{_writes}\n")
    if _kill_at is not None and _writes >= _kill_at:
        os.kill(os.getpid(), signal.SIGKILL)


def kill_point(name: str) -> None:
    """A named point where a test of crash safety may kill the process (SIGKILL), as a
    reboot would: when ``MOONSHINE_KILL_AT`` is ``name``."""
    if os.environ.get("MOONSHINE_KILL_AT") == name:
        os.kill(os.getpid(), signal.SIGKILL)


# -- files ---------------------------------------------------------------------------


def _fsync_write(path: Path, data: bytes, *, sync: bool = True) -> None:
    """Write ``path`` atomically; ``sync=False``: its durability is left to an
    ``os.sync()`` the caller makes before anything depends on it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            if sync:
                fh.flush()
                os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _dump(data: Any) -> str:
    from moonshine import yamlio

    return yamlio.dump(data)


class Transaction(msgspec.Struct):
    root: Path
    job: str
    started: str
    entries: list[dict[str, Any]] = msgspec.field(default_factory=list)
    state: str = WRITING
    commit_message: str = ""
    commit_paths: list[str] = msgspec.field(default_factory=list)
    use_git: bool = True
    recovered: list[str] = msgspec.field(default_factory=list)  # lines about a job this one finished or undid
    committed: bool = False  # a git commit was made
    _count: int = 0
    # files of this job written without their own fsync (``deferred_sync``): one
    # os.sync() makes them durable before the commit point
    unsynced: bool = False

    @property
    def dir(self) -> Path:
        return self.root / JOURNAL_DIR

    def rel(self, path: Path) -> str:
        try:
            return path.resolve().relative_to(self.root.resolve()).as_posix()
        except ValueError:
            raise GameError(f"{path}: outside the game directory {self.root}") from None

    def _covered(self, rel: str) -> bool:
        return any(e["path"] == rel or (e["tree"] and rel.startswith(e["path"] + "/")) for e in self.entries)

    def touched(self) -> list[str]:
        return [e["path"] for e in self.entries]

    def _save(self) -> None:
        write_point()
        data = {
            "job": self.job,
            "started": self.started,
            "state": self.state,
            "commit": {"message": self.commit_message, "paths": self.commit_paths, "git": self.use_git},
            "entries": self.entries,
        }
        _fsync_write(self.dir / JOURNAL_FILE, _dump(data).encode("utf-8"))

    def _backup(self, path: Path, *, sync: bool = True, link: bool = False) -> str:
        """Save ``path``'s content in the journal as a numbered file. ``link=True``: a
        hard link to the file rather than a copy, where the filesystem allows one. That
        holds the old content only because a job never changes a file in place: every
        write replaces the file by a new one (``atomic_write_bytes``) and removing a
        tree unlinks its files, so the link keeps the old file as it was."""
        self._count += 1
        name = f"{self._count:05d}"
        if link:
            self.dir.mkdir(parents=True, exist_ok=True)
            try:
                os.link(path, self.dir / name)
                return name
            except OSError:  # no hard links here (another device, some filesystems): copy
                (self.dir / name).unlink(missing_ok=True)
        _fsync_write(self.dir / name, path.read_bytes(), sync=sync)
        return name

    def _new_dirs(self, path: Path) -> list[str]:
        dirs = []
        p = path.parent
        root = self.root.resolve()
        while p.resolve() != root and not p.exists():
            dirs.append(self.rel(p))
            p = p.parent
        return dirs

    def protect(self, path: Path) -> None:
        """Save ``path``'s content (or its absence) before the job changes it."""
        if self.state != WRITING:
            raise GameError(f"{self.job}: a file changed after the commit point: {path}")
        rel = self.rel(path)
        if self._covered(rel):
            return
        entry: dict[str, Any] = {"path": rel, "tree": False, "backup": None, "files": {}}
        if path.is_file():
            entry["backup"] = self._backup(path)
        entry["dirs"] = self._new_dirs(path)
        self.entries.append(entry)
        self._save()

    def protect_tree(self, path: Path) -> None:
        """Save a whole directory before the job changes, adds or removes files in it."""
        if self.state != WRITING:
            raise GameError(f"{self.job}: a directory changed after the commit point: {path}")
        rel = self.rel(path)
        if self._covered(rel):
            return
        files: dict[str, str] = {}
        if path.is_dir():
            for p in sorted(path.rglob("*")):
                if p.is_file():
                    files[p.relative_to(path).as_posix()] = self._backup(p, sync=False, link=True)
            if files:  # the backups durable, with one sync, before the journal lists them
                os.sync()
        entry = {"path": rel, "tree": True, "backup": None, "files": files, "dirs": self._new_dirs(path / "x")}
        self.entries.append(entry)
        self._save()

    def remove_tree(self, path: Path) -> None:
        self.protect_tree(path)
        write_point()
        shutil.rmtree(path, ignore_errors=True)

    def remove(self, path: Path) -> None:
        self.protect(path)
        write_point()
        path.unlink(missing_ok=True)

    def commit(self, message: str, paths: list[str] | None = None, *, git: bool = True) -> None:
        """The commit point: the job's files are all written."""
        self.state = COMMITTING
        self.commit_message = message
        self.commit_paths = list(paths) if paths is not None else self.touched()
        self.use_git = git
        if self.unsynced:  # the job's files durable before the journal says committing
            os.sync()
            self.unsynced = False
        self._save()


# -- the active transactions of this process ----------------------------------------

_active: dict[Path, Transaction] = {}


def before_write(path: Path) -> None:
    """Called by every atomic write: a file of a game with a job running in this
    process is protected first."""
    if _active:
        resolved = path.resolve()
        for root, txn in _active.items():
            if resolved.is_relative_to(root) and txn.state == WRITING:
                if not resolved.is_relative_to(root / JOURNAL_DIR):
                    txn.protect(path)
                break
    write_point()


def deferred_sync(path: Path) -> bool:
    """Whether a file about to be written belongs to a job of this process that is
    writing (its old content is saved in the journal): then its writer may skip its
    own fsync, since the job syncs every file once before its commit point and a crash
    before that point restores the old content anyway."""
    if _active:
        resolved = path.resolve()
        for root, txn in _active.items():
            if resolved.is_relative_to(root) and not resolved.is_relative_to(root / JOURNAL_DIR):
                if txn.state == WRITING:
                    txn.unsynced = True
                    return True
                return False
    return False


def active(game_dir: Path | str) -> Transaction | None:
    return _active.get(Path(game_dir).resolve())


# -- recovery -------------------------------------------------------------------------


def _load_journal(root: Path) -> dict[str, Any] | None:
    from moonshine import yamlio

    path = root / JOURNAL_DIR / JOURNAL_FILE
    if not path.is_file():
        return None
    raw = yamlio.load(path, what="journal")
    if not isinstance(raw, dict) or not isinstance(raw.get("entries"), list):
        raise StateError(str(path), "", "not a journal; move the directory away and check the game with git status")
    return raw


def needs_recovery(game_dir: Path | str) -> bool:
    return (Path(game_dir) / JOURNAL_DIR).exists()


def _restore(root: Path, jdir: Path, entry: dict[str, Any]) -> None:
    target = root / entry["path"]
    if entry["tree"]:
        shutil.rmtree(target, ignore_errors=True)
        for rel, backup in entry["files"].items():
            _fsync_write(target / rel, (jdir / backup).read_bytes())
    elif entry["backup"] is None:
        target.unlink(missing_ok=True)
    else:
        _fsync_write(target, (jdir / entry["backup"]).read_bytes())
    for d in entry.get("dirs") or []:
        p = root / d
        with suppress(OSError):
            p.rmdir()


def _remove_half_written(root: Path, rels: list[str]) -> None:
    """The temporary files of atomic writes the killed job had not finished
    (``.NAME.XXXX.tmp``, never a game file), in the directories it wrote in."""
    dirs: set[Path] = set()
    for rel in rels:
        p = root / rel
        dirs.add(p if p.is_dir() else p.parent)
    for d in sorted(dirs):
        if d.is_dir():
            for tmp in d.rglob(".*.tmp"):
                if tmp.is_file():
                    tmp.unlink(missing_ok=True)


def _alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, killed and not yet reaped, does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="ascii", errors="replace")
        return stat.rpartition(")")[2].split()[:1] != ["Z"]
    except FileNotFoundError:
        if Path("/proc/self/stat").exists():  # /proc is there, the process is not
            return False
    except OSError:
        pass
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: alive
        return True
    return True


def _clear_git_locks(root: Path, started: str) -> list[str]:
    """The lock files the interrupted job's git left in ``.git``: the index's
    (``index.lock``) and the temporary index of a commit of some paths
    (``next-index-PID.lock``, whose git is no longer running). Only locks made since
    the job started: an older one is not its git's. A lock that goes away within 2 s
    was a git still running (not ours: ours were killed with the job), and stays."""
    gitdir = root / ".git"
    if not gitdir.is_dir():
        return []
    try:
        since = datetime.fromisoformat(started).timestamp() - 2  # the journal's time is to the second
    except ValueError:
        since = None
    found = []
    for lock in sorted(gitdir.glob("next-index-*.lock")):
        pid = lock.name.removeprefix("next-index-").removesuffix(".lock")
        if pid.isdigit() and not _alive(int(pid)):
            found.append(lock)
    index = gitdir / "index.lock"
    if index.exists():
        found.append(index)
    if since is not None:
        found = [lock for lock in found if _made_since(lock, since)]
    if not found:
        return []
    for _ in range(40):  # a git still running finishes: give it 2 s
        if not any(lock.exists() for lock in found):
            return []
        time.sleep(0.05)
    lines = []
    for lock in found:
        if lock.exists():
            lock.unlink(missing_ok=True)
            lines.append(f"removed the stale .git/{lock.name} the interrupted job's git left")
    return lines


def _made_since(path: Path, since: float) -> bool:
    try:
        return path.stat().st_mtime >= since
    except OSError:
        return False


def recover(game_dir: Path | str) -> list[str]:
    """Finish or undo a job a killed process left; the caller holds the game's
    lock. Returns lines for the game master (none when there was nothing to do)."""
    root = Path(game_dir)
    jdir = root / JOURNAL_DIR
    if not jdir.exists():
        return []
    raw = _load_journal(root)
    lines: list[str] = []
    if raw is None:  # killed before its first journal entry (or after its end): nothing to do
        _drop(jdir)
        return ["An interrupted job had changed nothing; its journal is removed."]
    job = str(raw.get("job", "a job"))
    started = str(raw.get("started", ""))
    git_notes = _clear_git_locks(root, started)
    if raw.get("state") == COMMITTING:
        commit = raw.get("commit") or {}
        if commit.get("git", True):
            from moonshine.game.git import git_commit, is_git_repo

            if is_git_repo(root):
                git_commit(root, str(commit.get("message", job)), [str(p) for p in commit.get("paths") or []])
        lines.append(f"Completed the interrupted '{job}' (started {started}): its files were written; committed now.")
    else:
        for entry in reversed(raw["entries"]):
            _restore(root, jdir, entry)
        lines.append(f"Undid the interrupted '{job}' (started {started}): the game is as it was before it.")
    lines += [note[0].upper() + note[1:] + "." for note in git_notes]
    _remove_half_written(
        root, [str(e["path"]) for e in raw["entries"]] + [str(p) for p in (raw.get("commit") or {}).get("paths") or []]
    )
    _drop(jdir)
    return lines


# -- the job ---------------------------------------------------------------------------


@contextmanager
def transaction(
    game_dir: Path | str,
    job: str,
    *,
    wait: float = 0.0,
    notify: Callable[[str], None] | None = None,
    forward: tuple[str, list[str], bool] | None = None,
) -> Iterator[Transaction]:
    """Hold the game's lock, recover a job a killed process left, and run this
    one as a transaction. The body calls ``commit`` at its end; a body that ends
    without committing (or raises) is undone.

    ``forward=(message, paths, git)``: a job whose writes are records that must
    stay (mail sent): nothing is undone; the commit of ``paths`` is made at the
    end, or by the next command if the job is killed."""
    root = Path(game_dir)
    check_contained(root)
    with game_lock(root, job=job, wait=wait):
        key = root.resolve()
        outer = _active.get(key)
        if outer is not None:  # a job within a job: one transaction
            yield outer
            return
        recovered = recover(root)
        for line in recovered:
            if notify is not None:
                notify(line)
        txn = Transaction(root, job, datetime.now(UTC).replace(microsecond=0).isoformat(), recovered=recovered)
        if forward is not None:
            txn.commit(forward[0], forward[1], git=forward[2])
        _active[key] = txn
        try:
            yield txn
        except BaseException:
            del _active[key]
            if txn.state == WRITING:
                for entry in reversed(txn.entries):
                    _restore(root, txn.dir, entry)
                _drop(txn.dir)
                raise
            _finish(root, txn)
            raise
        del _active[key]
        if txn.state == WRITING:
            if txn.entries:
                for entry in reversed(txn.entries):
                    _restore(root, txn.dir, entry)
            _drop(txn.dir)
            return
        _finish(root, txn)


def _finish(root: Path, txn: Transaction) -> None:
    if txn.use_git and txn.commit_paths:
        from moonshine.game.git import git_commit, is_git_repo

        if is_git_repo(root):
            write_point()
            txn.committed = git_commit(root, txn.commit_message, txn.commit_paths)
    write_point()
    _drop(txn.dir)


def recover_if_needed(game_dir: Path | str, *, wait: float = 0.0) -> list[str]:
    """For commands that only read: finish or undo a killed job first."""
    root = Path(game_dir)
    if not needs_recovery(root):
        return []
    with game_lock(root, job="recovery", wait=wait):
        return recover(root)


def _drop(jdir: Path) -> None:
    """Delete a journal: its list first, so that a kill meanwhile leaves backups
    without a list, which a recovery reads as nothing to undo."""
    (jdir / JOURNAL_FILE).unlink(missing_ok=True)
    shutil.rmtree(jdir, ignore_errors=True)
