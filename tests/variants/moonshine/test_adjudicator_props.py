"""Properties of the adjudicator over random positions and orders on the Chicago map:
it never raises, R4 holds after every turn, every unit is accounted for, and the
outcome depends neither on the order in which the orders are given nor on the
gangs' names."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from positionkit import random_orders, random_position, random_retreats

from moonshine.variants.moonshine.map import load_map
from moonshine.variants.moonshine.movement import Outcome, ResultCode, adjudicate, decisions
from moonshine.variants.moonshine.orders import (
    Move,
    Retreat,
    UnitOrder,
    UnitRef,
)
from moonshine.variants.moonshine.state import GameState, Unit

CHICAGO = load_map("chicago-1920s")
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

Turn = tuple[GameState, dict[UnitRef, UnitOrder], dict[UnitRef, Retreat]]


@st.composite
def turns(draw: Any) -> Turn:
    rnd = random.Random(draw(st.integers(min_value=0, max_value=2**64)))
    state = random_position(rnd, CHICAGO)
    return state, random_orders(rnd, CHICAGO, state), random_retreats(rnd, CHICAGO, state)


def fingerprint(out: Outcome) -> tuple[Any, ...]:
    return (
        sorted((r.text(), x.order.text(), x.gang, x.succeeded, x.code.value, x.reason) for r, x in out.results.items()),
        sorted((r.text(), d.gang, d.by, d.retreated_to, d.reason) for r, d in out.dislodged.items()),
        [(a.unit.text(), a.station, a.strength, a.needed, a.succeeded, a.reason) for a in out.assaults],
        [(u.district, u.kind.value, u.gang) for u in out.units],
        sorted((r.text(), why) for r, why in out.ignored.items()),
    )


@SETTINGS
@given(turns())
def test_never_raises_and_every_unit_is_accounted_for(turn: Turn) -> None:
    state, orders, retreats = turn
    out = adjudicate(CHICAGO, state, orders, retreats)
    refs = {UnitRef(u.kind, u.district): u for u in state.units}
    assert set(out.results) == set(refs)
    assert set(out.ignored) == {r for r in orders if r not in refs}
    expected: Counter[tuple[str, str, str]] = Counter()
    for ref, unit in refs.items():
        res = out.results[ref]
        assert res.gang == unit.gang
        assert res.reason
        moved = out.moved_to(ref)
        d = out.dislodged.get(ref)
        if d is not None:
            assert moved is None, f"{ref} moved and was dislodged"
            assert d.disbanded == (d.retreated_to is None)
            if d.retreated_to is not None:
                expected[(d.retreated_to, ref.kind.value, unit.gang)] += 1
        elif moved is not None:
            assert isinstance(res.order, Move) and res.code is ResultCode.MOVED
            expected[(moved, ref.kind.value, unit.gang)] += 1
        else:
            expected[(ref.district, ref.kind.value, unit.gang)] += 1
        assert out.final_district(ref) == (
            d.retreated_to if d is not None else moved if moved is not None else ref.district
        )
    assert Counter((u.district, u.kind.value, u.gang) for u in out.units) == expected


@SETTINGS
@given(turns())
def test_r4_holds_after_every_turn(turn: Turn) -> None:
    state, orders, retreats = turn
    out = adjudicate(CHICAGO, state, orders, retreats)
    kinds = Counter((u.district, u.kind) for u in out.units)
    assert max(kinds.values(), default=1) == 1, "two units of one kind in a district"
    gangs: dict[str, set[str]] = {}
    for u in out.units:
        gangs.setdefault(u.district, set()).add(u.gang)
    assert all(len(g) == 1 for g in gangs.values()), "two gangs in a district"


@SETTINGS
@given(turns())
def test_dislodgements_and_moves_agree(turn: Turn) -> None:
    """A unit is dislodged exactly when it stays and another gang's move into its
    district succeeds; an unattacked unit is never dislodged."""
    state, orders, retreats = turn
    out = adjudicate(CHICAGO, state, orders, retreats)
    arrivals: dict[str, set[str]] = {}
    for ref, res in out.results.items():
        if out.moved_to(ref) is not None:
            arrivals.setdefault(out.moved_to(ref) or "", set()).add(res.gang)
    assert all(len(g) == 1 for g in arrivals.values()), "two gangs moved into one district"
    for ref, res in out.results.items():
        stays = out.moved_to(ref) is None
        beaten = stays and bool(arrivals.get(ref.district, set()) - {res.gang})
        assert (ref in out.dislodged) == beaten, f"{ref}: {res.reason}"


@SETTINGS
@given(turns(), st.integers(min_value=0, max_value=2**64))
def test_the_order_of_the_orders_does_not_matter(turn: Turn, seed: int) -> None:
    rnd = random.Random(seed)
    state, orders, retreats = turn
    first = adjudicate(CHICAGO, state, orders, retreats)
    shuffled = state.copy()
    rnd.shuffle(shuffled.units)
    items = list(orders.items())
    rnd.shuffle(items)
    back = list(retreats.items())
    rnd.shuffle(back)
    second = adjudicate(CHICAGO, shuffled, dict(items), dict(back))
    assert fingerprint(first) == fingerprint(second)


@SETTINGS
@given(turns(), st.integers(min_value=0, max_value=2**64))
def test_the_gangs_names_do_not_matter(turn: Turn, seed: int) -> None:
    rnd = random.Random(seed)
    state, orders, retreats = turn
    names = list(CHICAGO.gangs)
    perm = dict(zip(names, rnd.sample(names, len(names)), strict=True))
    renamed = state.copy()
    renamed.units = [Unit(u.district, u.kind, perm[u.gang], u.recruited) for u in state.units]
    renamed.corruption = {s: perm[g] for s, g in state.corruption.items()}
    a = adjudicate(CHICAGO, state, orders, retreats)
    b = adjudicate(CHICAGO, renamed, orders, retreats)
    assert {r: (x.order, x.succeeded, x.code) for r, x in a.results.items()} == {
        r: (x.order, x.succeeded, x.code) for r, x in b.results.items()
    }
    assert {r: (d.by, d.retreated_to) for r, d in a.dislodged.items()} == {
        r: (d.by, d.retreated_to) for r, d in b.dislodged.items()
    }
    assert [(u.district, u.kind, perm[u.gang]) for u in a.units] == [(u.district, u.kind, u.gang) for u in b.units]
    assaults = [[(x.unit, x.succeeded, x.strength) for x in out.assaults] for out in (a, b)]
    assert assaults[0] == assaults[1]


@SETTINGS
@given(turns())
def test_the_state_is_not_changed(turn: Turn) -> None:
    state, orders, retreats = turn
    before = state.copy()
    adjudicate(CHICAGO, state, orders, retreats)
    assert state == before


@SETTINGS
@given(turns())
def test_every_decision_agrees_with_its_conditions(turn: Turn) -> None:
    """The resolution is a solution: each move, support and transport, judged again
    on the final decisions, comes out the same (the backup rule's own decisions
    excepted: they are decreed, not derived)."""
    state, orders, _ = turn
    core = decisions(CHICAGO, state, orders)
    assert core.inconsistencies() == []
