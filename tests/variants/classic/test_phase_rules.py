"""Classic Diplomacy's rules tested directly (each a behaviour a deliberate bug changed
while every test passed, ``scripts/mutants.py``): a retreat ordered for another power's
dislodged unit, and phase names written with blanks or capitals."""

from __future__ import annotations

import pytest

from moonshine.variants.classic.board import Kind, standard_map
from moonshine.variants.classic.orders import parse_order
from moonshine.variants.classic.phases import adjudicate_phase
from moonshine.variants.classic.state import ClassicState, Phase, Season, Step
from moonshine.variants.classic.state import Unit as ClassicUnit


def test_a_retreat_ordered_for_another_powers_dislodged_unit_is_ignored() -> None:
    gmap = standard_map()
    placed = (("AUS", "BUD"), ("AUS", "GAL"), ("RUS", "RUM"), ("RUS", "UKR"))
    units = [ClassicUnit(power, Kind.ARMY, where) for power, where in placed]
    s = ClassicState(Phase(1905, Season.SPRING, Step.MOVEMENT), units, {})
    moves = {"AUS": ["A BUD - RUM", "A GAL S A BUD - RUM"], "RUS": ["A UKR - SEV"]}
    out = adjudicate_phase(gmap, s, {p: [parse_order(o) for o in lines] for p, lines in moves.items()})
    s = out.next_state
    assert s.phase.name == "spring-1905-retreats"
    out = adjudicate_phase(gmap, s, {"AUS": [parse_order("A RUM R UKR")]})  # Austria orders Russia's unit
    [ignored] = out.ignored
    assert ignored.power == "AUS" and "no dislodged unit of this power in RUM (Russia's)" in ignored.said
    [russian] = out.results  # the Russian army, with no retreat of its own, is disbanded
    assert (russian.power, russian.order, russian.said) == ("RUS", "A RUM D", "disbanded: no retreat ordered")
    assert "A UKR" not in [u.label() for u in out.next_state.units]


@pytest.mark.parametrize("written", [" fall-1901-retreats ", "FALL-1901-RETREATS", "Fall-1901-Retreats"])
def test_a_phase_named_with_blanks_or_capitals_is_the_phase(written: str) -> None:
    assert Phase.parse(written).name == "fall-1901-retreats"
