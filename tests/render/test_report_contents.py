"""What a gang's report holds of the position, and only that (a behaviour a deliberate
bug changed while every test passed, ``scripts/mutants.py``): its own units, its own
arrested units (not another gang's, which are that gang's secret), and its upkeep
counted on those alone."""

from __future__ import annotations

import yaml
from repokit import DATA, ROOT

from moonshine.game.directory import Game
from moonshine.render.report import render_report
from moonshine.variants.moonshine.map import GameMap, UnitKind
from moonshine.variants.moonshine.state import Arrested
from moonshine.variants.moonshine.state import loads as load_state_text

FIXTURE = DATA / "golden" / "fixture"


def flat(text: str) -> str:
    return " ".join(text.split())


def test_a_gangs_report_holds_its_own_arrested_units_only(chicago: GameMap) -> None:
    config = Game(ROOT).config
    data = yaml.safe_load((FIXTURE / "results.yaml").read_text(encoding="utf-8"))
    nxt = load_state_text((FIXTURE / "next-state.yaml").read_text(encoding="utf-8"), chicago)
    before = render_report(chicago, config, data, nxt, "valley")
    nxt.arrested.append(Arrested("LOO", UnitKind.H, "valley", "NSS"))
    nxt.arrested.append(Arrested("LAK", UnitKind.L, "outfit", "ALB"))  # another gang's: not valley's to know
    nxt.arrested.append(Arrested("LOO", UnitKind.H, "genna", "CHI"))
    valley = flat(render_report(chicago, config, data, nxt, "valley"))
    assert "arrested in NSS" in valley
    assert "arrested in ALB" not in valley and "arrested in CHI" not in valley
    units = len(nxt.units_of("valley")) + 1
    assert f"for {units} units" in valley and f"for {units} units" not in flat(before)
    outfit = flat(render_report(chicago, config, data, nxt, "outfit"))
    assert "arrested in ALB" in outfit and "arrested in NSS" not in outfit and "arrested in CHI" not in outfit
    for gang in chicago.gangs:  # every gang's own units, and no other's
        report = flat(render_report(chicago, config, data, nxt, gang))
        owned = len(nxt.units_of(gang)) + sum(1 for a in nxt.arrested if a.gang == gang)
        assert f"for {owned} units" in report, gang
