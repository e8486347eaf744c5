"""Jobs as transactions (moonshine/game/journal.py), the deadline before adjudication,
commits of only the turn's files, the warning of a rollback after the reports went."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from crashkit import git, sample_game

from moonshine.cli import main
from moonshine.errors import GameError
from moonshine.game.directory import atomic_write_text
from moonshine.game.journal import JOURNAL_DIR, needs_recovery, recover, transaction

TURN = "spring-1924"


def run(game: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, [*args, "--game", str(game)])
    return result.exit_code, result.output


@pytest.fixture
def game(tmp_path: Path) -> Path:
    return sample_game(tmp_path / "game")


def test_a_job_that_fails_leaves_the_game_as_it_was(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("old\n", encoding="utf-8")
    with pytest.raises(GameError), transaction(tmp_path, "test") as txn:
        atomic_write_text(tmp_path / "a.txt", "new\n")
        atomic_write_text(tmp_path / "new" / "deep" / "b.txt", "b\n")
        txn.remove_tree(tmp_path / "new")
        raise GameError("bad orders")
    assert (tmp_path / "a.txt").read_text(encoding="utf-8") == "old\n"
    assert not (tmp_path / "new").exists()
    assert not (tmp_path / JOURNAL_DIR).exists()


def test_a_job_without_its_commit_point_is_undone(tmp_path: Path) -> None:
    with transaction(tmp_path, "test"):
        atomic_write_text(tmp_path / "a.txt", "new\n")
    assert not (tmp_path / "a.txt").exists()


def test_a_committed_job_keeps_its_files(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("old\n", encoding="utf-8")
    with transaction(tmp_path, "test") as txn:
        atomic_write_text(tmp_path / "a.txt", "new\n")
        txn.commit("Test", git=False)
    assert (tmp_path / "a.txt").read_text(encoding="utf-8") == "new\n"
    assert not needs_recovery(tmp_path)


DIES = """
import os, sys
from pathlib import Path
from moonshine.game.directory import atomic_write_text
from moonshine.game.journal import transaction
with transaction(Path(sys.argv[1]), "adjudicate spring-1924") as txn:
    atomic_write_text(Path(sys.argv[1]) / "a.txt", "half\\n")
    atomic_write_text(Path(sys.argv[1]) / "b.txt", "new\\n")
    os._exit(9)
"""


def test_a_journal_left_writing_is_undone_and_said(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("old\n", encoding="utf-8")
    died = subprocess.run([sys.executable, "-c", DIES, str(tmp_path)], check=False)
    assert died.returncode == 9
    assert (tmp_path / "a.txt").read_text(encoding="utf-8") == "half\n"
    lines = recover(tmp_path)
    assert len(lines) == 1
    assert lines[0].startswith("Undid the interrupted 'adjudicate spring-1924' (started ")
    assert lines[0].endswith("): the game is as it was before it.")
    assert (tmp_path / "a.txt").read_text(encoding="utf-8") == "old\n"
    assert not (tmp_path / "b.txt").exists()
    assert not needs_recovery(tmp_path)


def test_only_the_git_locks_of_the_killed_job_are_removed(game: Path) -> None:
    """The temporary index of the killed job's commit goes; a lock of a git still
    running (this process's number), and one older than the job, stay."""
    (game / JOURNAL_DIR).mkdir()
    (game / JOURNAL_DIR / "journal.yaml").write_text(
        "job: adjudicate spring-1924\nstarted: '2030-01-01T00:00:00+00:00'\nstate: writing\ncommit: {}\nentries: []\n",
        encoding="utf-8",
    )
    gitdir = game / ".git"
    ours = gitdir / "next-index-999999999.lock"  # no such process
    alive = gitdir / f"next-index-{os.getpid()}.lock"
    old = gitdir / "next-index-999999998.lock"
    for lock in (ours, alive, old):
        lock.write_text("", encoding="utf-8")
    stamp = 1893456000 + 10  # after the job's start
    for lock in (ours, alive):
        os.utime(lock, (stamp, stamp))
    os.utime(old, (1893456000 - 3600, 1893456000 - 3600))
    lines = recover(game)
    assert "Removed the stale .git/next-index-999999999.lock the interrupted job's git left." in lines
    assert not ours.exists()
    assert alive.exists() and old.exists()
    assert len(lines) == 2


def test_a_stale_git_index_lock_of_a_killed_job_is_removed(game: Path) -> None:
    (game / JOURNAL_DIR).mkdir()
    (game / JOURNAL_DIR / "journal.yaml").write_text(
        "job: adjudicate spring-1924\nstarted: x\nstate: writing\ncommit: {}\nentries: []\n", encoding="utf-8"
    )
    (game / ".git" / "index.lock").write_text("", encoding="utf-8")
    result = CliRunner().invoke(main, ["status", "--game", str(game)])
    assert "Undid the interrupted 'adjudicate spring-1924'" in result.output
    assert "stale .git/index.lock" in result.output
    assert not (game / ".git" / "index.lock").exists()
    code, out = run(game, "adjudicate", TURN)
    assert code == 0, out
    assert "(committed)" in out


def test_adjudicate_refuses_before_the_deadline_and_names_the_gangs_without_orders(game: Path) -> None:
    (game / "orders" / TURN / "ragen.txt").unlink()
    with (game / "game.yaml").open("a", encoding="utf-8") as fh:
        fh.write("deadlines:\n  spring-1924: 2999-03-01T18:00:00+00:00\n")
    code, out = run(game, "adjudicate", TURN)
    assert code == 1
    assert "deadline (2999-03-01T18:00:00+00:00) has not passed; gangs with no orders yet: ragen" in out
    assert not (game / "turns" / TURN / "results.yaml").exists()
    code, out = run(game, "adjudicate", TURN, "--force")
    assert code == 0, out


def test_adjudicate_commits_only_the_turns_files(game: Path) -> None:
    (game / "notes.txt").write_text("the game master's notes\n", encoding="utf-8")
    with (game / "game.yaml").open("a", encoding="utf-8") as fh:
        fh.write("# an edit not yet committed\n")
    code, out = run(game, "adjudicate", TURN)
    assert code == 0, out
    changed = git(game, "show", "--name-only", "--format=", "HEAD").split()
    assert changed and all(p.startswith(("turns/spring-1924/", "turns/autumn-1924/")) for p in changed)
    status = git(game, "status", "--porcelain")
    assert "notes.txt" in status and "game.yaml" in status
    assert ".moonshine.lock" not in status


def test_rollback_warns_that_players_have_the_old_reports(game: Path) -> None:
    assert run(game, "adjudicate", TURN)[0] == 0
    sent = game / "outbox" / TURN / "sent.yaml"
    sent.parent.mkdir(parents=True)
    sent.write_text(
        "'<id@x>':\n  file: report-outfit.eml\n  delivered:\n  - outfit@players.example.org\n  at: '2024-03-01'\n",
        encoding="utf-8",
    )
    result = CliRunner().invoke(main, ["rollback", TURN, "--game", str(game)])
    assert result.exit_code == 0, result.output
    assert "players already have the old reports of spring-1924 (report-outfit.eml)" in result.output
    assert "[corrected]" in result.output
    assert not (game / "turns" / "autumn-1924").exists()
    assert subprocess.run(["git", "diff", "--quiet", "HEAD"], cwd=game, check=False).returncode == 0


def test_a_jobs_files_are_made_durable_once_before_its_commit_point(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Within a job, files whose old content the journal holds are not fsynced one by
    one: a single sync makes them durable before the journal says committing (a crash
    before that point restores the old content). Outside a job each write is fsynced."""
    import os

    from moonshine.game import journal

    events: list[str] = []
    real_fsync, real_sync, real_save = os.fsync, os.sync, journal.Transaction._save
    monkeypatch.setattr(os, "fsync", lambda fd: (events.append("fsync"), real_fsync(fd))[1])
    monkeypatch.setattr(os, "sync", lambda: (events.append("sync"), real_sync())[1])

    def save(txn: journal.Transaction) -> None:
        events.append(f"journal {txn.state}")
        real_save(txn)

    monkeypatch.setattr(journal.Transaction, "_save", save)
    tree = tmp_path / "reports"
    tree.mkdir()
    for i in range(5):
        (tree / f"{i}.txt").write_text("old\n", encoding="utf-8")
    with transaction(tmp_path, "test") as txn:
        txn.protect_tree(tree)
        events.append("writes")
        for i in range(5):
            atomic_write_text(tree / f"{i}.txt", "new\n")
        events.append("written")
        txn.commit("test", git=False)
    # the five backups: one sync before the journal lists them; the five new files:
    # no fsync of their own, one sync before the commit point
    assert events[: events.index("writes")] == ["sync", "journal writing", "fsync"]
    assert events[events.index("writes") + 1 : events.index("written")] == []
    assert events[events.index("written") + 1 :][:3] == ["sync", "journal committing", "fsync"]
    assert all((tree / f"{i}.txt").read_text(encoding="utf-8") == "new\n" for i in range(5))
    events.clear()
    atomic_write_text(tmp_path / "alone.txt", "x\n")
    assert events == ["fsync"]


def _undone_tree_job(tmp_path: Path) -> tuple[Path, list[os.stat_result]]:
    """A tree of three files protected, rewritten, partly removed, and the job failing;
    returns the tree and the stat of each backup as the job saw them."""
    from moonshine.game import journal

    tree = tmp_path / "turns" / "spring-1924" / "reports"
    tree.mkdir(parents=True)
    for i in range(3):
        (tree / f"{i}.txt").write_text(f"old {i}\n", encoding="utf-8")
    seen: list[os.stat_result] = []
    with pytest.raises(GameError), transaction(tmp_path, "test") as txn:
        txn.protect_tree(tree)
        seen = [os.stat(tmp_path / journal.JOURNAL_DIR / name) for name in txn.entries[0]["files"].values()]
        for i in range(3):
            atomic_write_text(tree / f"{i}.txt", f"new {i}\n")
        (tree / "0.txt").unlink()
        txn.remove_tree(tree)
        raise GameError("bad orders")
    return tree, seen


def test_a_protected_trees_backups_are_links_that_keep_the_old_files(tmp_path: Path) -> None:
    """Saving a reports tree before a job rewrites it copies nothing: each backup is a
    hard link to the old file, which the job's writes (always a new file replacing the
    old one) and removals leave as it was, so undoing the job gives it back."""
    tree, seen = _undone_tree_job(tmp_path)
    assert [s.st_nlink for s in seen] == [2, 2, 2]  # the file and its backup: one inode
    assert sorted(p.name for p in tree.iterdir()) == ["0.txt", "1.txt", "2.txt"]
    assert all((tree / f"{i}.txt").read_text(encoding="utf-8") == f"old {i}\n" for i in range(3))
    assert not (tmp_path / JOURNAL_DIR).exists()


def test_without_hard_links_a_protected_tree_is_copied(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_links(src: object, dst: object) -> None:
        raise OSError(1, "Operation not permitted")

    monkeypatch.setattr(os, "link", no_links)
    tree, seen = _undone_tree_job(tmp_path)
    assert [s.st_nlink for s in seen] == [1, 1, 1]  # copies
    assert all((tree / f"{i}.txt").read_text(encoding="utf-8") == f"old {i}\n" for i in range(3))
    assert not (tmp_path / JOURNAL_DIR).exists()
