"""The order checker and the adjudicator agree (issue 11): over random positions and
random order files on the shipped map,

- every line the checker accepts is carried out by the adjudicator as the checker
  described it: the same unit, the same order (kind, destination, path, carriers,
  target), never "rejected"; an accepted retreat is used (never "no retreat given"),
  and a retreat goes only to a listed district the unit could move to (R7, R8);
- every line it rejects leaves the unit holding (or following its counted line), and
  a rejected retreat leaves a dislodged unit without a retreat;
- given the orders as written (each unit's last line, checked or not), the
  adjudicator rejects exactly the lines the checker rejected, so the checker never
  refuses what the adjudicator would carry out nor accepts what it would refuse.

A short run is part of ``make test``; ``MOONSHINE_AGREEMENT_EXAMPLES=300 pytest
tests/variants/moonshine/test_agreement.py`` (``make agree``) checks 300 positions with the files of
all 8 gangs, 2,400 order files, and prints the count and the number of
disagreements (the run stops at the first one)."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hst

from moonshine.variants.moonshine.checker import ACCEPTED, REJECTED, GangOrders, read_orders
from moonshine.variants.moonshine.map import GameMap, UnitKind, load_map
from moonshine.variants.moonshine.movement import Outcome, ResultCode, adjudicate
from moonshine.variants.moonshine.orders import (
    Assault,
    Hold,
    Move,
    Retreat,
    SupportAssault,
    SupportHold,
    SupportMove,
    Transport,
    UnitOrder,
    UnitRef,
)
from moonshine.variants.moonshine.state import GameState, Unit

EXAMPLES = int(os.environ.get("MOONSHINE_AGREEMENT_EXAMPLES", "25"))
GMAP: GameMap = load_map("chicago-1920s")
CODES = list(GMAP.districts)
STATIONS = GMAP.stations()
TURN = "autumn-1925"
UNIT_ORDERS = (Hold, Move, SupportHold, SupportMove, SupportAssault, Assault, Transport)

# files, lines, disagreements: read by the terminal summary (conftest.py)
TALLY = {"files": 0, "lines": 0, "disagreements": 0}


def summary() -> list[str]:
    if not TALLY["files"]:
        return []
    return [
        f"checker and adjudicator agreement: {TALLY['files']} random order files, {TALLY['lines']} order lines, "
        f"{TALLY['disagreements']} disagreements"
    ]


# -- random positions and files ---------------------------------------------------------------


def _near(rng: random.Random, code: str, steps: int = 3) -> str:
    """A district a few steps from ``code`` (sometimes farther than a unit reaches)."""
    for _ in range(rng.randint(1, steps)):
        code = rng.choice(GMAP.neighbours(code))
    return code


def position(rng: random.Random) -> GameState:
    st = GameState(turn=TURN, price=300)
    gangs = list(GMAP.gangs)
    for code in rng.sample(CODES, rng.randint(15, 45)):
        gang = rng.choice(gangs)
        kinds = rng.choice([[UnitKind.L], [UnitKind.H], [UnitKind.L, UnitKind.H]])
        for kind in kinds:
            new = rng.random() < 0.1
            st.units.append(Unit(code, kind, gang, TURN if new else rng.choice(["", "spring-1925"])))
    st.normalise(GMAP)
    return st


def _ref(rng: random.Random, st: GameState, near: str) -> UnitRef:
    """A unit near ``near``: mostly one on the board, sometimes none."""
    close = [u for u in st.units if u.district == near or u.district in GMAP.within(near, 2)]
    if close and rng.random() < 0.85:
        u = rng.choice(close)
        return UnitRef(u.kind, u.district)
    return UnitRef(rng.choice([UnitKind.L, UnitKind.H]), _near(rng, near))


def random_order(rng: random.Random, st: GameState, ref: UnitRef) -> UnitOrder | Retreat:
    here = ref.district
    roll = rng.random()
    if roll < 0.08:
        return Hold(ref)
    if roll < 0.40:
        occupied = [c for c in GMAP.neighbours(here) if st.units_in(c)]
        dest = rng.choice(occupied) if occupied and rng.random() < 0.5 else _near(rng, here)
        path: tuple[str, ...] = ()
        via: tuple[str, ...] = ()
        r = rng.random()
        if r < 0.2:
            path = (rng.choice(GMAP.neighbours(here)),)
        elif r < 0.4:
            ls = [u.district for u in st.units if u.kind is UnitKind.L and u.district in GMAP.neighbours(here)]
            if ls and rng.random() < 0.8:  # through a delivery man next door, on to its neighbour
                via = (rng.choice(ls),)
                dest = rng.choice(GMAP.neighbours(via[0]))
            else:
                via = tuple(_near(rng, here, 2) for _ in range(rng.randint(1, 2)))
        return Move(ref, dest, path, via)
    if roll < 0.50:
        return SupportHold(ref, _ref(rng, st, here))
    if roll < 0.65:
        target = _ref(rng, st, here)
        goals = [c for c in GMAP.neighbours(here) if c in GMAP.neighbours(target.district)]
        return SupportMove(ref, target, rng.choice(goals) if goals and rng.random() < 0.7 else _near(rng, here, 2))
    if roll < 0.72:
        # mostly an H next to the carrier, carried to another neighbour (R10)
        hs = [u for u in st.units if u.kind is UnitKind.H and u.district in GMAP.neighbours(here)]
        if hs and rng.random() < 0.8:
            h = rng.choice(hs)
            return Transport(ref, UnitRef(h.kind, h.district), rng.choice(GMAP.neighbours(here)))
        target = _ref(rng, st, here)
        return Transport(ref, target, _near(rng, target.district, 2))
    if roll < 0.80:
        station = rng.choice([s for s in STATIONS if s == here or s in GMAP.within(here, 2)] or STATIONS)
        if rng.random() < 0.5:
            return Assault(ref, station)
        return SupportAssault(ref, _ref(rng, st, here), station)
    choices = tuple(dict.fromkeys(_near(rng, here, 2) for _ in range(rng.randint(1, 4))))
    return Retreat(ref, choices)


def files(rng: random.Random, st: GameState) -> Iterator[tuple[str, str]]:
    """Each gang's orders file: orders for most of its units, a few for other gangs'
    units or units that are not there, now and then a second order for one unit."""
    for gang in GMAP.gangs:
        refs = [UnitRef(u.kind, u.district) for u in st.units if u.gang == gang]
        refs += [_ref(rng, st, rng.choice(CODES)) for _ in range(rng.randint(0, 2))]
        lines = []
        for ref in refs:
            for _ in range(rng.choice([1, 1, 1, 2])):
                lines.append(random_order(rng, st, ref).text())
        rng.shuffle(lines)
        yield gang, "\n".join(lines) + "\n"


# -- the property -----------------------------------------------------------------------------


def _reach(ref: UnitRef) -> set[str]:
    return GMAP.within(ref.district, 2) if ref.kind is UnitKind.L else set(GMAP.neighbours(ref.district))


def disagreements(st: GameState, checked: dict[str, GangOrders]) -> list[str]:
    found: list[str] = []
    orders: dict[UnitRef, UnitOrder] = {}
    retreats: dict[UnitRef, Retreat] = {}
    for go in checked.values():
        orders.update(go.unit_orders)
        retreats.update(go.retreats)
    out = adjudicate(GMAP, st, orders, retreats)
    for gang, go in checked.items():
        for ref, order in go.unit_orders.items():
            res = out.results.get(ref)
            if res is None or res.code is ResultCode.REJECTED or res.order != order or res.given != order:
                found.append(f"{gang}: accepted {order.text()}, adjudicated {res}")
        for ref, r in go.retreats.items():
            d = out.dislodged.get(ref)
            if d is None:
                continue
            if d.reason == "disbanded: no retreat given":
                found.append(f"{gang}: accepted {r.text()}, but the adjudicator had no retreat")
            if d.retreated_to is not None and (d.retreated_to not in r.choices or d.retreated_to not in _reach(ref)):
                found.append(f"{gang}: {r.text()} retreated to {d.retreated_to}")
        for line in go.lines:
            order = line.order
            if line.status != REJECTED or order is None:
                continue
            if isinstance(order, UNIT_ORDERS) and order.unit not in orders:
                res = out.results.get(order.unit)
                if res is not None and (res.order != Hold(order.unit) or res.given is not None):
                    found.append(f"{gang}: rejected {order.text()}, but the unit did {res.order.text()}")
            if isinstance(order, Retreat) and order.unit not in retreats:
                d = out.dislodged.get(order.unit)
                if d is not None and d.retreated_to is not None:
                    found.append(f"{gang}: rejected {order.text()}, but the unit retreated to {d.retreated_to}")
    found += _as_written(st, checked)
    return found


def _as_written(st: GameState, checked: dict[str, GangOrders]) -> list[str]:
    """The adjudicator given each own, not new unit's last line as written rejects
    exactly the lines the checker rejected (the checker's ownership and R18 checks
    aside: the adjudicator is not told who wrote an order)."""
    found: list[str] = []
    last: dict[UnitRef, tuple[str, UnitOrder, str]] = {}
    retreats: dict[UnitRef, tuple[str, Retreat, str]] = {}
    for gang, go in checked.items():
        for line in go.lines:
            order = line.order
            if order is None or line.status not in (ACCEPTED, REJECTED, "replaced"):
                continue
            if not isinstance(order, (*UNIT_ORDERS, Retreat)):
                continue
            unit = st.unit_at(order.unit.kind, order.unit.district)
            if unit is None or unit.gang != gang or unit.recruited == st.turn:
                continue
            if isinstance(order, Retreat):
                retreats[order.unit] = (gang, order, line.status)
            else:
                last[order.unit] = (gang, order, line.status)
    out: Outcome = adjudicate(
        GMAP, st, {ref: o for ref, (_, o, _) in last.items()}, {ref: r for ref, (_, r, _) in retreats.items()}
    )
    for ref, (gang, order, status) in last.items():
        refused = out.results[ref].code is ResultCode.REJECTED
        if refused != (status == REJECTED):
            found.append(f"{gang}: {order.text()} is {status} by the checker, but {out.results[ref].reason}")
    for ref, (gang, r, status) in retreats.items():
        d = out.dislodged.get(ref)
        if status == REJECTED and d is not None and d.retreated_to is not None:
            found.append(f"{gang}: {r.text()} is rejected by the checker, but the unit retreated to {d.retreated_to}")
    return found


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)
@given(hst.integers(min_value=0, max_value=2**32 - 1))
def test_the_checker_and_the_adjudicator_agree(seed: int) -> None:
    rng = random.Random(seed)
    st = position(rng)
    checked = {gang: read_orders(text, GMAP, st, gang) for gang, text in files(rng, st)}
    TALLY["files"] += len(checked)
    TALLY["lines"] += sum(len(go.lines) for go in checked.values())
    found = disagreements(st, checked)
    TALLY["disagreements"] += len(found)
    assert not found, "\n".join(found)


def test_the_property_can_fail() -> None:
    """A checker that accepted an impossible move would be caught."""
    rng = random.Random(7)
    st = position(rng)
    u = st.units[0]
    ref = UnitRef(u.kind, u.district)
    far = next(c for c in CODES if c != u.district and c not in GMAP.within(u.district, 2))
    go = read_orders("", GMAP, st, u.gang)
    go.unit_orders[ref] = Move(ref, far)  # as if the checker had accepted it
    found = disagreements(st, {u.gang: go})
    assert any("accepted" in f for f in found)
