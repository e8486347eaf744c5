"""The library API (moonshine.api): the README's example runs as written on a copy of
the sample game, and the same functions serve a classic game."""

from __future__ import annotations

import contextlib
import io
import os
import re
from pathlib import Path

import frtypo
import pytest
from repokit import ROOT
from samplegame import copy_sample

from moonshine import api
from moonshine.engine import outcome as oc
from moonshine.errors import GameError


def test_the_readme_example_runs(tmp_path: Path) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## As a library", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S)
    assert code is not None
    copy_sample(tmp_path / "demo-game")
    out = io.StringIO()
    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        with contextlib.redirect_stdout(out):
            exec(compile(code.group(1), "README.md", "exec"), {})
    finally:
        os.chdir(here)
    printed = out.getvalue()
    assert frtypo.fr("-> aucune n'avance (standoff) : ") in printed  # a bounce, explained in French from its value
    assert frtypo.fr("Valley Gang : rapport privé, printemps 1924") in printed


def test_outcomes_are_values_and_the_report_is_the_commands(tmp_path: Path) -> None:
    game = api.open_game(copy_sample(tmp_path / "game"))
    ack, ok = api.check(game, "orders/spring-1924/valley.txt", language="fr")
    assert "valley" in ack.lower() and isinstance(ok, bool)
    api.adjudicate(game, "spring-1924", commit=False)
    found = api.outcomes(game, "spring-1924")
    assert {o.side for o in found} == set(game.map.gangs)
    bounce = next(o for o in found if isinstance(o.outcome, oc.Bounced))
    assert bounce.explain("en") == bounce.reason
    assert not bounce.succeeded
    from click.testing import CliRunner

    from moonshine.cli import main

    printed = CliRunner().invoke(
        main, ["report", "spring-1924", "--print", "--gang", "genna", "--game", str(game.root)]
    )
    assert printed.exit_code == 0, printed.output
    assert printed.output == api.report(game, "spring-1924", side="genna")


def test_a_classic_game_through_the_same_functions(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from moonshine.cli import main

    root = tmp_path / "club"
    made = CliRunner().invoke(main, ["new", str(root), "--variant", "classic", "--title", "Club game", "--no-git"])
    assert made.exit_code == 0, made.output
    game = api.open_game(root)
    (root / "orders" / "spring-1901" / "GER.txt").write_text("A MUN - TYR\n", encoding="utf-8")
    (root / "orders" / "spring-1901" / "AUS.txt").write_text("A VIE - TYR\n", encoding="utf-8")
    api.adjudicate(game, "spring-1901", commit=False)
    found = {o.order: o for o in api.outcomes(game, "spring-1901")}
    assert isinstance(found["A MUN - TYR"].outcome, oc.Bounced)
    assert found["A MUN - TYR"].explain("fr") == frtypo.fr("aucune n'avance (standoff) : A MUN (1) contre A VIE (1)")
    assert "A MUN - TYR" in api.report(game, "spring-1901", language="fr")
    with pytest.raises(GameError):
        api.report(game, "spring-1901", side="Atlantis")
