"""Game state files: readable YAML that round-trips byte for byte, and errors that
name the file and the key."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from repokit import ROOT

from moonshine.errors import StateError
from moonshine.variants.moonshine import state as state_mod
from moonshine.variants.moonshine.map import GameMap, UnitKind
from moonshine.variants.moonshine.state import Arrested, GameState, Raid, Unit, initial_state

SAMPLE = ROOT / "turns" / "spring-1924" / "state.yaml"


def test_initial_state_follows_the_scenario(chicago: GameMap) -> None:
    s = initial_state(chicago)
    assert s.turn == "spring-1924"
    assert s.price == 300
    assert len(s.units) == 51
    assert len(s.control) == 51
    assert s.cash == {g: 2000 for g in chicago.gangs}
    assert s.unit_at(UnitKind.H, "NSS") == Unit("NSS", UnitKind.H, "valley")
    assert s.stocks["LIT"] == 5


def test_sample_state_round_trips_byte_for_byte(chicago: GameMap) -> None:
    text = SAMPLE.read_text(encoding="utf-8")
    loaded = state_mod.loads(text, chicago, source=str(SAMPLE))
    assert state_mod.dumps(loaded) == text
    again = state_mod.loads(state_mod.dumps(loaded), chicago)
    assert again == loaded


def test_a_busy_state_round_trips(chicago: GameMap, start: GameState) -> None:
    s = start.copy()
    s.turn = "autumn-1926"
    s.price = 450
    s.cash["valley"] = 1250
    s.corruption = {"LIT": "unione", "LAK": "outfit"}
    s.confiscated = {"LOG": 7}
    s.assaulted = {"valley": ["LIT"]}
    s.units = [u for u in s.units if u.district != "NOC"]
    s.units.append(Unit("LOO", UnitKind.L, "valley", recruited="spring-1926"))
    s.arrested = [Arrested("LOG", UnitKind.H, "outfit", "NOC")]
    s.raid = Raid("NOC", "police", "LOG", False, "outfit", 5, ("outfit H NOC",), (), False, "ab12")
    s.sold = {"spring-1926": 40, "spring-1925": 35}
    s.winners = ["valley"]
    s.normalise(chicago)
    text = state_mod.dumps(s)
    back = state_mod.loads(text, chicago)
    assert back == s
    assert state_mod.dumps(back) == text
    assert list(back.sold) == ["spring-1925", "spring-1926"]


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_save_is_stable_whatever_the_order_of_the_lists(chicago: GameMap, data: st.DataObject) -> None:
    s = initial_state(chicago)
    shuffled = s.copy()
    shuffled.units = data.draw(st.permutations(s.units))
    shuffled.control = dict(data.draw(st.permutations(list(s.control.items()))))
    shuffled.cash = dict(data.draw(st.permutations(list(s.cash.items()))))
    shuffled.normalise(chicago)
    assert state_mod.dumps(shuffled) == state_mod.dumps(s)


@pytest.mark.parametrize(
    ("old", "new", "key", "problem"),
    [
        ("turn: spring-1924", "turn: summer-1924", "turn", "not a turn name"),
        ("  outfit: 20", "  outfit: 20.25", "cash.outfit", "steps of $0.50"),
        ("  - H LOO", "  - H XYZ", "units.valley[0]", "unknown district 'XYZ'"),
        ("  - H LOO", "  - Q LOO", "units.valley[0]", "expected L or H"),
        ("  - H LOO", "  - H NSS", "units.valley[1]", "two H units in NSS"),
        ("  LOO: valley", "  LOO: capone", "control.LOO", "unknown gang 'capone'"),
        ("  HYD: 5", "  HYD: -1", "stocks.HYD", "expected a number of crates"),
        ("  ALB: 3", "  ALB: 3\n  LOO: 2", "stocks.LOO", "only warehouses hold crates"),
    ],
)
def test_bad_state_names_file_and_key(chicago: GameMap, old: str, new: str, key: str, problem: str) -> None:
    text = SAMPLE.read_text(encoding="utf-8")
    assert old in text
    bad = text.replace(old, new, 1)
    with pytest.raises(StateError) as info:
        state_mod.loads(bad, chicago, source="turns/x/state.yaml")
    assert info.value.key == key
    assert problem in info.value.problem
    assert str(info.value).startswith("turns/x/state.yaml:")  # and the line, when the shape is wrong


def test_two_gangs_in_one_district_is_rejected(chicago: GameMap) -> None:
    text = SAMPLE.read_text(encoding="utf-8").replace("  - L GOL", "  - L NSS", 1)
    with pytest.raises(StateError, match="both stand in NSS"):
        state_mod.loads(text, chicago)


def test_not_yaml(chicago: GameMap) -> None:
    with pytest.raises(StateError, match="not valid YAML"):
        state_mod.loads("turn: [unclosed", chicago)
