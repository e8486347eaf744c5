"""The state answers "which unit is where" from an index, not by scanning the units:
whatever is done to the list of units, the answers are those of a scan; and a copy of
the state is independent of the original."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st_

from moonshine.variants.moonshine.map import GameMap, UnitKind
from moonshine.variants.moonshine.state import Arrested, GameState, Unit, initial_state

CODES = ["AAA", "BBB", "CCC", "DDD"]
GANGS = ["reds", "blues"]
units_ = st_.builds(Unit, st_.sampled_from(CODES), st_.sampled_from(list(UnitKind)), st_.sampled_from(GANGS))
steps = st_.lists(
    st_.one_of(
        st_.tuples(st_.just("append"), units_),
        st_.tuples(st_.just("insert"), units_),
        st_.tuples(st_.just("remove"), st_.integers(0, 50)),
        st_.tuples(st_.just("pop"), st_.integers(0, 50)),
        st_.tuples(st_.just("set"), st_.integers(0, 50), units_),
        st_.tuples(st_.just("del"), st_.integers(0, 50)),
        st_.tuples(st_.just("sort")),
        st_.tuples(st_.just("reverse")),
        st_.tuples(st_.just("extend"), st_.lists(units_, max_size=3)),
        st_.tuples(st_.just("iadd"), st_.lists(units_, max_size=3)),
        st_.tuples(st_.just("assign"), st_.lists(units_, max_size=6)),
        st_.tuples(st_.just("clear")),
    ),
    max_size=25,
)


def scan_answers(units: list[Unit]) -> tuple[object, ...]:
    """The answers by scanning, as the queries were first written."""
    at = {(k, d): next((u for u in units if u.kind is k and u.district == d), None) for k in UnitKind for d in CODES}
    within = {d: [u for u in units if u.district == d] for d in CODES}
    of = {g: [u for u in units if u.gang == g] for g in GANGS}
    return at, within, of


def answers(state: GameState) -> tuple[object, ...]:
    at = {(k, d): state.unit_at(k, d) for k in UnitKind for d in CODES}
    within = {d: state.units_in(d) for d in CODES}
    of = {g: state.units_of(g) for g in GANGS}
    return at, within, of


@settings(max_examples=150, deadline=None)
@given(start=st_.lists(units_, max_size=8), changes=steps)
def test_the_index_answers_as_a_scan_after_any_change(start: list[Unit], changes: list[tuple[object, ...]]) -> None:
    state = GameState(turn="spring-1924", price=300, units=list(start))
    for step in changes:
        assert answers(state) == scan_answers(list(state.units))  # ask between changes too
        units = state.units
        kind = step[0]
        if kind == "append":
            units.append(step[1])  # type: ignore[arg-type]
        elif kind == "insert":
            units.insert(0, step[1])  # type: ignore[arg-type]
        elif kind == "remove" and units:
            units.remove(units[step[1] % len(units)])  # type: ignore[operator]
        elif kind == "pop" and units:
            units.pop(step[1] % len(units))  # type: ignore[operator]
        elif kind == "set" and units:
            units[step[1] % len(units)] = step[2]  # type: ignore[operator,index]
        elif kind == "del" and units:
            del units[step[1] % len(units)]  # type: ignore[operator]
        elif kind == "sort":
            units.sort()
        elif kind == "reverse":
            units.reverse()
        elif kind == "extend":
            units.extend(step[1])  # type: ignore[arg-type]
        elif kind == "iadd":
            state.units += step[1]  # type: ignore[arg-type]
        elif kind == "assign":
            state.units = list(step[1])  # type: ignore[arg-type]
        elif kind == "clear":
            units.clear()
    assert answers(state) == scan_answers(list(state.units))
    assert state.units == list(state.units)  # still a list like any other


def test_a_copy_is_independent_of_the_original(chicago: GameMap) -> None:
    st = initial_state(chicago)
    st.assaulted = {"valley": ["LOO"]}
    st.arrested = [Arrested("NSS", UnitKind.H, "valley", "LOO")]
    twin = st.copy()
    assert twin == st
    twin.units.pop()
    twin.control.clear()
    twin.assaulted["valley"].append("NSS")
    twin.arrested.clear()
    twin.cash["valley"] = 0
    assert st != twin
    assert len(st.units) == len(initial_state(chicago).units)
    assert st.control and st.assaulted == {"valley": ["LOO"]} and st.arrested and st.cash["valley"] != 0
    assert twin.unit_at(st.units[-1].kind, st.units[-1].district) is None  # the copy's own index
    assert st.unit_at(st.units[-1].kind, st.units[-1].district) == st.units[-1]
