"""The project's YAML (moonshine/yamlio.py) and strict game.yaml: C and pure-Python
classes write the same bytes; duplicate keys, unknown keys, impossible dates and
bytes that are not UTF-8 are errors naming the file, line and key; inputs are read
with a size limit; ``passwd`` keeps the game master's comments and layout."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from repokit import ROOT
from samplegame import copy_sample

from moonshine import yamlio
from moonshine.cli import main
from moonshine.errors import StateError
from moonshine.game.directory import Game

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**12), 10**12),
    st.text(max_size=40),
    st.text(min_size=90, max_size=300),
    st.floats(allow_nan=False, allow_infinity=False),
)
documents = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(min_size=1, max_size=12), inner, max_size=4)
    ),
    max_leaves=20,
)


PureDumper = yamlio.PureDumper


@pytest.mark.skipif(not yaml.__with_libyaml__, reason="PyYAML without libyaml")
@given(documents)
@settings(max_examples=300, deadline=None)
def test_c_and_pure_python_dumpers_write_the_same_bytes(doc: Any) -> None:
    assert yamlio.dump(doc) == yamlio.dump(doc, dumper=PureDumper)
    assert yamlio.loads(yamlio.dump(doc), "<doc>") == doc


@pytest.mark.skipif(not yaml.__with_libyaml__, reason="PyYAML without libyaml")
def test_the_game_files_are_written_the_same_by_both(tmp_path: Path) -> None:
    for rel in ("game.yaml", "turns/spring-1924/state.yaml"):
        data = yaml.safe_load((ROOT / rel).read_text(encoding="utf-8"))
        assert yamlio.dump(data) == yamlio.dump(data, dumper=PureDumper)


def test_a_key_given_twice_is_an_error_with_both_lines() -> None:
    with pytest.raises(
        StateError, match=r"^g\.yaml:4: not valid YAML: duplicate key 'deadlines' \(first given at line 2\)"
    ):
        yamlio.loads("title: x\ndeadlines:\n  spring-1924: 2024-03-01T18:00:00+00:00\ndeadlines: {}\n", "g.yaml")


def test_bytes_that_are_not_utf8_give_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "state.yaml"
    path.write_bytes(b"turn: spring-1924\nprice: 3\ncash:\n  outfit: \xe920\n")
    with pytest.raises(StateError, match=r"state\.yaml:4: byte 0xe9 at column 11 \(offset 43\) is not UTF-8"):
        yamlio.load(path)


def test_reads_are_bounded() -> None:
    with pytest.raises(StateError, match=r"too large \(more than 1024 bytes\)"):
        yamlio.read_bytes(Path("/dev/zero"), limit=1024)


def test_check_of_dev_zero_is_a_clear_error() -> None:
    result = CliRunner().invoke(main, ["check", "/dev/zero"])
    assert result.exit_code != 0
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "/dev/zero" in result.output and "too large" in result.output


@pytest.fixture
def game(tmp_path: Path) -> Path:
    root = tmp_path / "g"
    copy_sample(root)
    return root


def _error(game: Path, *args: str) -> str:
    result = CliRunner().invoke(main, [*args, "--game", str(game)])
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.output


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        (
            lambda t: t + "deadlines:\n  spring-1924: 2024-02-30T18:00:00+00:00\n",
            r"game\.yaml:\d+: not valid YAML: '2024-02-30T18:00:00\+00:00' is not a real date or time",
        ),
        (
            lambda t: t + "deadlines:\n  spring-1924: '2024-02-30T18:00:00+00:00'\n",
            r"game\.yaml:\d+: deadlines\.spring-1924: not a real date and time",
        ),
        (
            lambda t: t.replace("  valley:\n", "  valey:\n"),
            r"game\.yaml:12: players\.valey: unknown gang \(did you mean 'valley'\?",
        ),
        (
            lambda t: t.replace("    name: Terry Druggan\n", "    nmae: Terry Druggan\n"),
            r"game\.yaml:13: players\.valley\.nmae: unknown key \(did you mean 'name'\?\)",
        ),
        (lambda t: t + "deadlines: {}\ndeadlines: {}\n", r"game\.yaml:\d+: not valid YAML: duplicate key 'deadlines'"),
        (lambda t: t + "smtp: localhost\n", r"game\.yaml:\d+: smtp: expected a mapping, found 'localhost'"),
        (lambda t: t.replace("map: chicago-1920s\n", ""), r"game\.yaml: map: missing"),
        (
            lambda t: t + "deadline:\n  spring-1924: x\n",
            r"game\.yaml:\d+: deadline: unknown key \(did you mean 'deadlines'\?\)",
        ),
    ],
)
def test_game_yaml_errors_name_file_line_and_key(game: Path, edit: Any, expected: str) -> None:
    path = game / "game.yaml"
    path.write_text(edit(path.read_text(encoding="utf-8")), encoding="utf-8")
    out = _error(game, "status")
    assert pytest.importorskip("re").search(expected, out), out


def test_a_state_whose_turn_disagrees_with_its_directory_is_refused(game: Path) -> None:
    path = game / "turns" / "spring-1924" / "state.yaml"
    path.write_text(
        path.read_text(encoding="utf-8").replace("turn: spring-1924", "turn: autumn-1924"), encoding="utf-8"
    )
    out = _error(game, "adjudicate", "spring-1924")
    assert "state.yaml: turn: says autumn-1924, but the file is the state of spring-1924" in out
    assert not (game / "turns" / "autumn-1924").exists()


def test_passwd_keeps_the_game_masters_comments_and_layout(game: Path) -> None:
    path = game / "game.yaml"
    text = path.read_text(encoding="utf-8")
    text = text.replace("  valley:\n", "  # Terry plays from Cicero\n  valley:   # since 1924\n")
    text = text.replace("    password: null\n", "    password: null   # set with moonshine passwd\n", 2)
    path.write_text(text, encoding="utf-8")
    for gang in ("valley", "outfit"):
        result = CliRunner().invoke(main, ["passwd", gang, "--password", "s3cret-word", "--game", str(path.parent)])
        assert result.exit_code == 0, result.output
    after = path.read_text(encoding="utf-8")
    changed = [(a, b) for a, b in zip(text.splitlines(), after.splitlines(), strict=True) if a != b]
    assert len(changed) == 2
    assert all(a.startswith("    password: null") and b.startswith('    password: "scrypt$') for a, b in changed)
    assert all(b.endswith("   # set with moonshine passwd") for _, b in changed)
    assert "  # Terry plays from Cicero\n  valley:   # since 1924\n" in after
    cfg = Game(path.parent).config
    assert cfg.players["valley"].password and cfg.players["outfit"].password
    assert cfg.players["genna"].password is None
