"""`moonshine adjudicate`, `rollback`, `reveal`, `simulate` on game directories."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner
from samplegame import copy_sample

from moonshine.cli import main


@pytest.fixture
def sample(tmp_path: Path) -> Path:
    game = tmp_path / "sample"
    copy_sample(game)
    return game


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def test_adjudicate_the_sample_game(sample: Path) -> None:
    code, out = run("adjudicate", "spring-1924", "--game", str(sample), "--no-commit")
    assert code == 0, out
    assert "Next price (autumn-1924)" in out
    assert "Raid for autumn-1924" in out
    assert (sample / "turns" / "spring-1924" / "results.yaml").is_file()
    assert (sample / "turns" / "autumn-1924" / "state.yaml").is_file()


def test_adjudicating_twice_gives_identical_bytes(sample: Path, tmp_path: Path) -> None:
    twin = tmp_path / "twin"
    shutil.copytree(sample, twin)
    assert run("adjudicate", "spring-1924", "--game", str(sample), "--no-commit")[0] == 0
    assert run("adjudicate", "spring-1924", "--game", str(twin), "--no-commit")[0] == 0
    for rel in ("turns/spring-1924/results.yaml", "turns/autumn-1924/state.yaml"):
        assert (sample / rel).read_bytes() == (twin / rel).read_bytes()
    before = (sample / "turns/spring-1924/results.yaml").read_bytes()
    code, out = run("adjudicate", "spring-1924", "--game", str(sample), "--force", "--no-commit")
    assert code == 0, out
    assert (sample / "turns/spring-1924/results.yaml").read_bytes() == before


def test_adjudicating_leaves_the_collector_as_it_found_it(sample: Path) -> None:
    """The turn runs with what existed before it kept out of the cyclic collector's
    walks; afterwards (done or refused) nothing stays frozen, so that a process adjudicating
    game after game, as the judge does, still has its garbage collected."""
    import gc

    assert gc.get_freeze_count() == 0
    assert run("adjudicate", "spring-1924", "--game", str(sample), "--no-commit")[0] == 0
    assert gc.get_freeze_count() == 0
    (sample / "turns" / "autumn-1924" / "state.yaml").write_text("not: [a state", encoding="utf-8")
    assert run("adjudicate", "autumn-1924", "--game", str(sample), "--force", "--no-commit")[0] == 1
    assert gc.get_freeze_count() == 0


def test_adjudicate_refuses_to_redo_without_force(sample: Path) -> None:
    assert run("adjudicate", "spring-1924", "--game", str(sample), "--no-commit")[0] == 0
    code, out = run("adjudicate", "spring-1924", "--game", str(sample))
    assert code == 1
    assert out.startswith("Error: ") and "already adjudicated; use --force" in out


def test_adjudicate_errors_are_clean(sample: Path, tmp_path: Path) -> None:
    code, out = run("adjudicate", "spring-1930", "--game", str(sample))
    assert code == 1 and "no state for spring-1930" in out and "Traceback" not in out
    code, out = run("adjudicate", "summer-1924", "--game", str(sample))
    assert code == 1 and "not a turn name" in out
    code, out = run("adjudicate", "spring-1924", "--game", str(tmp_path / "nowhere"))
    assert code == 1 and "not a game directory" in out
    (sample / ".moonshine-secret").unlink()
    code, out = run("adjudicate", "spring-1924", "--game", str(sample))
    assert code == 1 and "secret seed is missing" in out


def test_adjudicate_commits_in_git_and_rollback_undoes(sample: Path) -> None:
    subprocess.run(["git", "init", "-q"], cwd=sample, check=True)
    subprocess.run(["git", "add", "-A"], cwd=sample, check=True)
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t"}
    subprocess.run(["git", "commit", "-qm", "start"], cwd=sample, check=True, env={**env, "PATH": "/usr/bin:/bin"})
    code, out = run("adjudicate", "spring-1924", "--game", str(sample))
    assert code == 0, out
    assert "(committed)" in out
    log = subprocess.run(["git", "log", "--format=%s"], cwd=sample, capture_output=True, text=True, check=True)
    assert log.stdout.splitlines()[0] == "Adjudicate spring-1924"
    code, out = run("rollback", "spring-1924", "--game", str(sample))
    assert code == 0, out
    assert not (sample / "turns" / "autumn-1924").exists()
    assert not (sample / "turns" / "spring-1924" / "results.yaml").exists()
    assert (sample / "orders" / "spring-1924" / "valley.txt").exists()
    log = subprocess.run(["git", "log", "--format=%s"], cwd=sample, capture_output=True, text=True, check=True)
    assert log.stdout.splitlines()[0] == "Roll back to the start of spring-1924"


def test_an_interrupted_run_is_redone(sample: Path) -> None:
    # A run cut off after writing the next state but before the results: not adjudicated.
    assert run("adjudicate", "spring-1924", "--game", str(sample), "--no-commit")[0] == 0
    (sample / "turns" / "spring-1924" / "results.yaml").unlink()
    code, out = run("adjudicate", "spring-1924", "--game", str(sample), "--no-commit")
    assert code == 0, out


def test_reveal_waits_for_the_end(sample: Path) -> None:
    code, out = run("reveal", "--game", str(sample))
    assert code == 1 and "the game is not over" in out
    code, out = run("reveal", "--game", str(sample), "--force")
    assert code == 0 and "Seed: sample-game-1" in out


def test_simulate_prints_a_line_per_turn() -> None:
    code, out = run("simulate", "--turns", "3", "--seed", "x")
    assert code == 0, out
    lines = out.splitlines()
    assert [ln.split()[0] for ln in lines[:3]] == ["spring-1924", "autumn-1924", "spring-1925"]
    assert lines[3] == "No winner after 3 turns."


def test_simulate_into_a_directory(tmp_path: Path) -> None:
    code, out = run("simulate", "--turns", "2", "--seed", "x", "--out", str(tmp_path / "sim"))
    assert code == 0, out
    assert (tmp_path / "sim" / "turns" / "autumn-1924" / "results.yaml").is_file()
    assert (tmp_path / "sim" / "orders" / "spring-1924" / "valley.txt").is_file()


def test_every_file_a_simulated_game_writes_loads_again(tmp_path: Path) -> None:
    """Six turns of seed j arrest a recruited unit (R17 keeps its turn of recruitment
    while arrested): each turn's state and results pass the strict schemas."""
    from moonshine.game.directory import Game
    from moonshine.game.reports import load_turn

    code, out = run("simulate", "--turns", "6", "--seed", "j", "--out", str(tmp_path / "sim"))
    assert code == 0, out
    game = Game(tmp_path / "sim")
    arrested_recruits = 0
    for turn in game.turns():
        st = game.load_state(turn)
        arrested_recruits += sum(1 for a in st.arrested if a.recruited)
        if (game.turn_dir(turn) / "results.yaml").is_file():
            load_turn(game, turn)
    assert arrested_recruits > 0  # the case that once failed to load is in this game
