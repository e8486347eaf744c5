"""`moonshine new`: a game directory with its first turn, in git."""

from __future__ import annotations

import hashlib
import subprocess
from pathlib import Path

from click.testing import CliRunner
from repokit import ROOT

from moonshine.cli import main
from moonshine.game.directory import Game, load_config


def test_new_creates_a_game_in_git(tmp_path: Path) -> None:
    target = tmp_path / "game"
    result = CliRunner().invoke(main, ["new", str(target), "--seed", "s3cret", "--title", "Test game"])
    assert result.exit_code == 0, result.output
    cfg = load_config(target / "game.yaml")
    assert cfg.title == "Test game"
    assert cfg.map == "chicago-1920s"
    assert cfg.seed_sha256 == hashlib.sha256(b"s3cret").hexdigest()
    assert "s3cret" not in (target / "game.yaml").read_text()
    assert set(cfg.players) == {"outfit", "valley", "genna", "northside", "unione", "southside", "westside", "ragen"}
    game = Game(target)
    assert game.turns() == ["spring-1924"]
    st = game.load_state("spring-1924")
    assert st.raid is not None  # the first raid is drawn at creation (R21)
    assert (target / "orders" / "spring-1924").is_dir()
    assert game.secret() == "s3cret"
    log = subprocess.run(["git", "log", "--oneline"], cwd=target, capture_output=True, text=True, check=True)
    assert "New game: Test game, spring-1924" in log.stdout
    tracked = subprocess.run(["git", "ls-files"], cwd=target, capture_output=True, text=True, check=True).stdout
    assert ".moonshine-secret" not in tracked
    assert "game.yaml" in tracked


def test_new_is_deterministic_for_a_seed(tmp_path: Path) -> None:
    for name in ("a", "b"):
        CliRunner().invoke(main, ["new", str(tmp_path / name), "--seed", "x", "--no-git"])
    a = (tmp_path / "a" / "turns" / "spring-1924" / "state.yaml").read_bytes()
    b = (tmp_path / "b" / "turns" / "spring-1924" / "state.yaml").read_bytes()
    assert a == b
    assert not (tmp_path / "a" / ".git").exists()


def test_new_refuses_an_existing_game(tmp_path: Path) -> None:
    CliRunner().invoke(main, ["new", str(tmp_path / "g"), "--no-git"])
    result = CliRunner().invoke(main, ["new", str(tmp_path / "g")])
    assert result.exit_code == 1
    assert result.output.startswith("Error: ")
    assert "already a game directory" in result.output


def test_new_with_an_unknown_map_is_a_clean_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["new", str(tmp_path / "g"), "--map", "atlantis"])
    assert result.exit_code == 1
    assert result.output.startswith("Error: ")
    assert "atlantis" in result.output


def test_the_repository_root_is_a_ready_sample_game() -> None:
    root = ROOT
    game = Game(root)
    assert game.config.title.startswith("Sample game")
    st = game.load_state("spring-1924")
    assert st.raid is not None and st.raid.district == "NOC"
    orders = sorted(p.stem for p in (root / "orders" / "spring-1924").glob("*.txt"))
    assert orders == sorted(game.map.gangs)
    assert game.secret()  # the sample's seed ships with it so the demo can draw raids
