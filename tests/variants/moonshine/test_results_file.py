"""A results file that is not as the referee writes it (an unknown status, a renamed
key, a reason that cannot be worded) is refused with its file, line and key, as the
state is: never read silently, never a traceback."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from samplegame import copy_sample

from moonshine.cli import main


@pytest.fixture(scope="module")
def adjudicated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    game = copy_sample(tmp_path_factory.mktemp("results") / "g")
    done = CliRunner().invoke(main, ["adjudicate", "spring-1924", "--no-commit", "--force", "--game", str(game)])
    assert done.exit_code == 0, done.output
    return game / "turns" / "spring-1924" / "results.yaml"


def _report_with(results: Path, tmp_path: Path, old: str, new: str) -> str:
    text = results.read_text(encoding="utf-8")
    assert re.search(old, text), old
    changed = re.sub(old, new, text, count=1)
    game = copy_sample(tmp_path / "g")
    target = game / "turns" / "spring-1924"
    for f in results.parent.parent.parent.joinpath("turns").rglob("*.yaml"):
        dest = game / "turns" / f.relative_to(results.parent.parent)
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_bytes(f.read_bytes())
    (target / "results.yaml").write_text(changed, encoding="utf-8")
    result = CliRunner().invoke(main, ["report", "spring-1924", "--game", str(game)])
    assert "Traceback" not in result.output
    assert result.exit_code == 1, result.output
    return result.output


def test_an_unknown_line_status_is_refused(adjudicated: Path, tmp_path: Path) -> None:
    out = _report_with(adjudicated, tmp_path, r"status: accepted", "status: acepted")
    assert "results.yaml:" in out and ".status: expected one of accepted, rejected, replaced" in out


def test_an_unknown_unit_result_is_refused(adjudicated: Path, tmp_path: Path) -> None:
    out = _report_with(adjudicated, tmp_path, r"result: (succeeded|failed)", "result: won")
    assert ".result: expected one of succeeded, failed, found 'won'" in out


def test_a_renamed_key_is_refused(adjudicated: Path, tmp_path: Path) -> None:
    out = _report_with(adjudicated, tmp_path, r"\n(\s+)understood:", r"\n\1understod:")
    assert "unknown key (did you mean 'understood'?)" in out


def test_a_reason_that_cannot_be_worded_is_refused(adjudicated: Path, tmp_path: Path) -> None:
    out = _report_with(adjudicated, tmp_path, r"text: 'gang: \{name\} \(\{key\}\)'", "text: 'gang: {name ({key})'")
    assert "reason: the message's text 'gang: {name ({key})' is not a format" in out


def test_a_reason_naming_a_field_it_lacks_is_refused(adjudicated: Path, tmp_path: Path) -> None:
    out = _report_with(adjudicated, tmp_path, r"text: 'gang: \{name\} \(\{key\}\)'", "text: 'gang: {name} ({cle})'")
    assert "names cle, which its params lack" in out
