"""A game directory's git repository: commit what a job changed, never the
files that must stay out of it (the secret, the locks, an interrupted job's
journal). Read by the game directory (``moonshine.game.directory``) and the journal
(``moonshine.game.journal``); it reads neither. It reads one key of game.yaml: the
judge's own address (``smtp.from``), which authors the game's commits."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from moonshine.errors import GameError

if TYPE_CHECKING:
    import subprocess

# moonshine.game.journal.JOURNAL_DIR (the journal, its lock and git are imported only by the
# commands that write: a player's check reads the game and never loads them)
JOURNAL_DIR = ".moonshine-journal"

SECRET_FILE = ".moonshine-secret"
GAME_FILE = "game.yaml"  # moonshine.game.directory.GAME_FILE
# Never committed: the secret, the locks (the game's and older games' inbox locks), and
# the journal of an interrupted inbox run (moonshine.mail.inbox.turnlog.JOURNAL).
IGNORED = (SECRET_FILE, JOURNAL_DIR, ".moonshine.lock", "*.lock", ".inbox-journal", ".*.tmp", "run.log")


def git_available() -> bool:
    import shutil

    return shutil.which("git") is not None


def is_git_repo(root: Path) -> bool:
    return (root / ".git").exists()


def git_commit(root: Path, message: str, paths: list[str] | None = None) -> bool:
    """Commit the given paths (default: everything) in the game's repository.
    Returns False when there is nothing to commit or no repository."""
    if not git_available() or not is_git_repo(root):
        return False
    import subprocess

    env = dict(os.environ)
    if "GIT_AUTHOR_EMAIL" not in env:
        name, address = referee(root)
        env["GIT_AUTHOR_EMAIL"] = address
        env.setdefault("GIT_AUTHOR_NAME", name)
    env.setdefault("GIT_AUTHOR_NAME", "Moonshine referee")
    env.setdefault("GIT_COMMITTER_NAME", env["GIT_AUTHOR_NAME"])
    env.setdefault("GIT_COMMITTER_EMAIL", env["GIT_AUTHOR_EMAIL"])

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["git", *args], cwd=root, env=env, capture_output=True, text=True, check=False)

    _exclude_locally(root)
    if paths is not None:
        paths = _known_paths(root, paths, run)
        if not paths:
            return False
    where = paths if paths is not None else ["."]
    excluded = [f":(exclude,glob)**/{pattern}" for pattern in IGNORED]
    # Lock files an older version committed leave the repository (the files stay).
    untracked = run("rm", "-r", "--cached", "--ignore-unmatch", "--", *(f":(glob)**/{p}" for p in IGNORED[1:]))
    gone = {line[4:-1] for line in untracked.stdout.splitlines() if line.startswith("rm '") and line.endswith("'")}
    if gone and set(run("diff", "--cached", "--name-only").stdout.splitlines()) == gone:
        run("commit", "-q", "-m", "Lock files out of git")  # nothing else is staged: only their removal
    add = run("add", "-A", "--", *where, *excluded)
    if add.returncode != 0:
        raise GameError(f"git add failed in {root}: {add.stderr.strip()}")
    if run("diff", "--cached", "--quiet", "--", *where).returncode == 0:
        return False
    # Only the given paths: an edit the game master has not committed stays out.
    done = run("commit", "-q", "-m", message, *(["--", *paths] if paths is not None else []))
    if done.returncode != 0:
        raise GameError(f"git commit failed in {root}: {done.stderr.strip()}")
    return True


def referee(root: Path) -> tuple[str, str]:
    """Who authors the game's commits: the judge's own name and address
    (``smtp.from`` in game.yaml), else the placeholder ``referee@moonshine.invalid``."""
    from email.utils import parseaddr

    from moonshine import yamlio
    from moonshine.errors import MoonshineError

    default = ("Moonshine referee", "referee@moonshine.invalid")
    try:
        raw = yamlio.load(root / GAME_FILE, what="game file")
    except (MoonshineError, OSError, ValueError):
        return default
    smtp = raw.get("smtp") if isinstance(raw, dict) else None
    value = smtp.get("from") if isinstance(smtp, dict) else None
    name, address = parseaddr(value) if isinstance(value, str) else ("", "")
    if "@" not in address:
        return default
    return name or default[0], address


def _exclude_locally(root: Path) -> None:
    """An older game's .gitignore lacks the lock and journal files: list them in
    .git/info/exclude so that ``git status`` does not show them."""
    path = root / ".git" / "info" / "exclude"
    try:
        text = path.read_text(encoding="utf-8") if path.is_file() else ""
        missing = [p for p in IGNORED if p not in text.split("\n")]
        if missing and (root / ".git").is_dir():
            path.parent.mkdir(parents=True, exist_ok=True)
            with path.open("a", encoding="utf-8") as fh:
                fh.write(("" if not text or text.endswith("\n") else "\n") + "".join(f"{p}\n" for p in missing))
    except OSError:
        pass


def _known_paths(root: Path, paths: list[str], run: Callable[..., subprocess.CompletedProcess[str]]) -> list[str]:
    """The paths that exist or that git tracks (a removed directory's files)."""
    missing = [p for p in paths if not (root / p).exists()]
    tracked: list[str] = []
    if missing:
        tracked = run("ls-files", "-z", "--", *missing).stdout.split("\0")
    return [
        p for p in dict.fromkeys(paths) if (root / p).exists() or any(t == p or t.startswith(p + "/") for t in tracked)
    ]
