"""The mail edge and the commands taking names: nothing a command line or a mail names
leads outside the game directory, and a refused name changes nothing."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from moonshine.cli import main
from moonshine.errors import GameError
from moonshine.families import new_game
from moonshine.gamedir import Game
from moonshine.mail import outbox_dir

WALKS = ["spring-1924/../..", "spring-1924/../../..", "../spring-1924", "spring-1924/", "x" * 300, "..", "/etc"]


def _git(root: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, check=True).stdout


@pytest.fixture
def game(tmp_path: Path) -> Game:
    return new_game(tmp_path / "g", seed="edge")


@pytest.mark.parametrize("name", WALKS)
def test_a_turn_name_walking_out_is_refused_before_anything_is_written(game: Game, tmp_path: Path, name: str) -> None:
    maildir = tmp_path / "mail"
    for sub in ("cur", "new", "tmp"):
        (maildir / sub).mkdir(parents=True)
    (game.root / "notes.txt").write_text("the game master's own untracked notes\n")
    commits = _git(game.root, "rev-list", "--count", "HEAD")
    result = CliRunner().invoke(main, ["inbox", str(maildir), "--turn", name, "--game", str(game.root)])
    assert result.exit_code == 2, result.output
    assert "is not a turn name" in result.output and "Traceback" not in result.output
    assert _git(game.root, "rev-list", "--count", "HEAD") == commits  # nothing committed
    assert not (game.root / ".moonshine-journal").exists()
    assert "notes.txt" in _git(game.root, "status", "--porcelain")  # still untracked, still there
    later = CliRunner().invoke(main, ["status", "--game", str(game.root)])
    assert later.exit_code == 0, later.output


@pytest.mark.parametrize("command", ["adjudicate", "report", "rollback", "mail", "status", "remind"])
def test_every_command_refuses_a_path_for_a_turn(game: Game, command: str) -> None:
    result = CliRunner().invoke(main, [command, "spring-1924/../..", "--game", str(game.root)])
    assert result.exit_code == 2, result.output
    assert "'spring-1924/../..' is not a turn name" in result.output


@pytest.mark.parametrize("name", WALKS)
def test_the_library_builds_no_path_from_a_name_that_is_no_turn(game: Game, name: str) -> None:
    for build in (game.turn_dir, game.orders_dir, game.state_path, lambda t: outbox_dir(game, t)):
        with pytest.raises(GameError, match="turn name"):
            build(name)
    assert game.orders_dir("printemps-1924") == game.root / "orders" / "spring-1924"
