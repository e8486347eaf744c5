"""Turn names (R25) and the Untouchables' arrival (R23)."""

from __future__ import annotations

from pathlib import Path

import pytest
from samplegame import copy_sample

from moonshine.variants.moonshine.calendar import Turn, is_untouchables


def test_turn_names_follow_the_seasons() -> None:
    t = Turn.parse("spring-1924")
    names = []
    for _ in range(5):
        names.append(t.name)
        t = t.next()
    assert names == ["spring-1924", "autumn-1924", "spring-1925", "autumn-1925", "spring-1926"]
    assert Turn.parse("spring-1925").previous().name == "autumn-1924"
    assert Turn.parse("Autumn-1926 ").name == "autumn-1926"
    assert Turn.parse("autumn-1925").number(Turn.parse("spring-1924")) == 4


@pytest.mark.parametrize("bad", ["summer-1924", "spring 1924", "spring-24", "", "1924-spring"])
def test_bad_turn_names(bad: str) -> None:
    with pytest.raises(ValueError, match="not a turn name"):
        Turn.parse(bad)


def test_untouchables_from_the_eleventh_turn() -> None:
    assert Turn.parse("spring-1929").number(Turn.parse("spring-1924")) == 11
    assert not is_untouchables("autumn-1928")
    assert is_untouchables("spring-1929")
    assert is_untouchables("autumn-1933")


def test_a_turn_may_be_written_in_french() -> None:
    """printemps-1924 (automne-1924) names the turn spring-1924 (autumn-1924): a
    French game's players and game master write their turns in French."""
    assert Turn.parse("printemps-1924").name == "spring-1924"
    assert Turn.parse("Automne-1924").name == "autumn-1924"
    with pytest.raises(ValueError):
        Turn.parse("été-1924")


def test_commands_take_a_turn_written_in_french(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from moonshine.cli import main

    game = tmp_path / "game"
    copy_sample(game)
    done = CliRunner().invoke(main, ["adjudicate", "printemps-1924", "--game", str(game), "--no-commit"])
    assert done.exit_code == 0, done.output
    assert (game / "turns" / "spring-1924" / "results.yaml").is_file()
    shown = CliRunner().invoke(main, ["report", "printemps-1924", "--print", "--game", str(game), "--language", "fr"])
    assert shown.exit_code == 0, shown.output
    assert "Bulletin public, printemps 1924" in shown.output
