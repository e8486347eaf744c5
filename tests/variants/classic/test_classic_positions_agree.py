"""The positions after a classic movement phase (the units where they now stand, the
dislodged with their attackers' provinces) are read straight from the decisions, and
each unit's result is worked out from them only when the results are read: the two
must tell the same story, whichever is read first, on random positions with legal,
illegal and doubled orders from every power."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from positionkit import units_in

from moonshine.engine import outcome as oc
from moonshine.variants.classic.board import Kind, province_of, standard_map
from moonshine.variants.classic.movement import MovementOutcome, adjudicate_movement
from moonshine.variants.classic.orders import Move, Order, parse_order
from moonshine.variants.classic.state import Unit

GMAP = standard_map()
PROVINCES = sorted(p for p in GMAP.provinces if GMAP.near[p])  # not Switzerland
POWERS = sorted(GMAP.powers)


def _reach(unit: Unit) -> list[str]:
    """The provinces a unit can move to over a border."""
    if unit.kind is Kind.ARMY:
        return sorted(GMAP.army_nb[unit.province])
    return sorted({province_of(r) for r in GMAP.fleet_nb[unit.region]})


@st.composite
def phases(draw: st.DrawFn) -> tuple[list[Unit], dict[str, list[Order]]]:
    """Units crowded round one province (so that moves meet and supports count),
    mostly moving (often into another unit) or supporting what a unit next to them
    does; some orders at random (illegal ones too), some for a unit ordered twice or
    by another power."""
    centre = draw(st.sampled_from(PROVINCES))
    around = sorted({centre} | GMAP.near[centre] | {q for p in GMAP.near[centre] for q in GMAP.near[p]})
    chosen = draw(st.lists(st.sampled_from(around), min_size=min(4, len(around)), max_size=16, unique=True))
    units = units_in(draw, chosen)
    occupied = {u.province for u in units}
    moves: dict[Unit, str] = {}
    texts: list[tuple[str, str]] = []
    for unit in units:
        reach = _reach(unit)
        if reach and draw(st.booleans()):
            into = [p for p in reach if p in occupied]
            moves[unit] = draw(st.sampled_from(into if into and draw(st.booleans()) else reach))
            texts.append((unit.power, f"{unit.label()} - {moves[unit]}"))
    for unit in units:
        if unit in moves:
            continue
        me, reach = unit.label(), set(_reach(unit))
        helped = [v for v in units if v != unit and moves.get(v, v.province) in reach and moves.get(v) != unit.province]
        if helped and draw(st.integers(0, 3)):
            v = draw(st.sampled_from(helped))
            texts.append((unit.power, f"{me} S {v.label()} - {moves[v]}" if v in moves else f"{me} S {v.label()}"))
            continue
        other = draw(st.sampled_from(units))
        dest = draw(st.sampled_from(sorted(GMAP.near[other.province])))
        them = other.label()
        texts.append(
            (unit.power, draw(st.sampled_from([f"{me} H", f"{me} S {them} - {dest}", f"{me} C {them} - {dest}"])))
        )
    for unit in draw(st.lists(st.sampled_from(units), max_size=3)):  # doubled or foreign orders
        power = draw(st.sampled_from([unit.power, *POWERS[:3]]))
        texts.append((power, f"{unit.label()} - {draw(st.sampled_from(sorted(GMAP.near[unit.province])))}"))
    orders: dict[str, list[Order]] = {}
    for power, text in texts:
        orders.setdefault(power, []).append(parse_order(text))
    return units, orders


def _dislodging_move(value: oc.Result | None) -> str:
    if isinstance(value, oc.Dislodged | oc.CarrierDislodged):
        return value.by
    return str(getattr(value, "dislodged_by", ""))


def _positions(out: MovementOutcome) -> tuple[object, ...]:
    return (out.units, out.dislodged, out.contested, out.ignored)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(phase=phases())
def test_positions_and_results_tell_the_same_story(phase: tuple[list[Unit], dict[str, list[Order]]]) -> None:
    units, orders = phase
    positions_first = adjudicate_movement(GMAP, units, orders)
    positions = _positions(positions_first)
    results_first = adjudicate_movement(GMAP, units, orders)
    results = results_first.results
    assert results_first.results is results  # worked out once
    assert _positions(results_first) == positions
    assert positions_first.results == results
    assert positions_first == results_first

    now = set(positions_first.units)
    dislodged = {(d.power, d.label()) for d in positions_first.dislodged}
    by_label = {u.label(): u for u in units}
    assert len(results) == len(units)
    for r in results:
        unit = by_label[r.unit]
        moved = r.succeeded and isinstance(r.outcome, oc.Moved)
        if _dislodging_move(r.outcome):
            assert (r.power, r.unit) in dislodged, r
            assert not moved, r
        else:
            assert (r.power, r.unit) not in dislodged, r
            if moved:
                assert isinstance(r.outcome, oc.Moved)
                where = r.outcome.dest
                assert Unit(unit.power, unit.kind, where) in now, r
            else:
                assert unit in now, r
    assert len(now) + len(dislodged) == len(units)
    assert len({u.province for u in now}) == len(now)  # one unit a province: the beaten are dislodged
    # A standoff leaves a province empty, where moves bounced (no retreat goes there).
    bounced = set()
    for r in results:
        order = parse_order(r.order)
        if isinstance(r.outcome, oc.Bounced | oc.HeadToHead | oc.HeldOff) and isinstance(order, Move):
            bounced.add(province_of(order.dest))
    for prov in positions_first.contested:
        assert prov not in {u.province for u in now}, prov
        assert prov in bounced, prov
