"""The unattended judge's record of a game (``run.yaml``: when each turn opened, the
reminders sent, the reports mailed, the errors reported) had the name of a judge's
settings file, ``judge.yaml``. A game whose record still has the old name keeps
working: the pass reads it, and its next write of the record renames it, in the
same transaction and the same commit."""

from __future__ import annotations

import subprocess
from datetime import UTC, datetime
from pathlib import Path

from click.testing import CliRunner
from msgspec.structs import replace

from moonshine.cli import main
from moonshine.game.directory import Game, deadline, git_commit, save_config
from moonshine.game.families import new_game
from moonshine.host.settings import is_judge_dir
from moonshine.mail import record

START = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)
OPENED = "2026-11-29T08:00:00+00:00"  # what the old record remembers: the turn opened a day before this pass


def test_a_record_under_its_old_name_is_read_then_renamed_in_the_same_commit(tmp_path: Path) -> None:
    game = new_game(tmp_path / "g", seed="record", use_git=True)
    save_config(game, replace(game.config, extra={"schedule": {"timezone": "UTC", "every": "48h"}}))
    old = game.root / record.OLD_RECORD
    old.write_text(f"opened:\n  spring-1924: '{OPENED}'\n", encoding="utf-8")
    assert git_commit(game.root, "A game of an earlier version", ["game.yaml", record.OLD_RECORD])
    assert record.load_record(Game(game.root)).opened == {"spring-1924": OPENED}

    done = CliRunner().invoke(main, ["run", str(game.root), "--now", START.isoformat()])
    assert done.exit_code == 0, done.output

    # the deadline counts from the turn's opening the old record gave, not from this pass
    assert deadline(Game(game.root).config, "spring-1924") == datetime(2026, 12, 1, 8, 0, tzinfo=UTC)
    assert not old.exists() and (game.root / record.RECORD).is_file()
    assert record.load_record(Game(game.root)).opened == {"spring-1924": OPENED}
    tracked = subprocess.run(["git", "ls-files"], cwd=game.root, capture_output=True, text=True, check=True).stdout
    assert record.RECORD in tracked.split() and record.OLD_RECORD not in tracked.split()
    status = subprocess.run(["git", "status", "--porcelain"], cwd=game.root, capture_output=True, text=True).stdout
    assert record.RECORD not in status and record.OLD_RECORD not in status  # the rename is committed
    assert not is_judge_dir(game.root)  # a game's directory, as it always was
