"""Random positions and orders for the property tests: on the Chicago map (units of
random gangs, orders of every kind, legal or not, retreats) and on the classic
standard board (a unit of a kind a province can hold)."""

from __future__ import annotations

import random

from hypothesis import strategies as st

from moonshine.variants.classic.board import Kind, standard_map
from moonshine.variants.classic.state import Unit as ClassicUnit
from moonshine.variants.moonshine.map import GameMap, UnitKind
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

BOARD = standard_map()


def random_position(rnd: random.Random, gmap: GameMap) -> GameState:
    """Units of random gangs in random districts: a lone L or H, or a gang's L and H (R4)."""
    density = rnd.choice([0.3, 0.6, 0.9])
    gangs = list(gmap.gangs)
    state = GameState(turn="autumn-1925", price=300)
    for code in gmap.districts:
        if rnd.random() >= density:
            continue
        gang = rnd.choice(gangs)
        for kind in rnd.choice(["L", "H", "LH"]):
            recruited = "autumn-1925" if rnd.random() < 0.03 else ""
            state.units.append(Unit(code, UnitKind(kind), gang, recruited))
    for code in gmap.stations():
        if rnd.random() < 0.3:
            state.corruption[code] = rnd.choice(gangs)
    return state


def random_orders(rnd: random.Random, gmap: GameMap, state: GameState) -> dict[UnitRef, UnitOrder]:
    """Mostly sensible orders, some of them void or impossible."""
    codes = list(gmap.districts)
    refs = [UnitRef(u.kind, u.district) for u in state.units]
    at: dict[str, list[UnitRef]] = {}
    for r in refs:
        at.setdefault(r.district, []).append(r)
    orders: dict[UnitRef, UnitOrder] = {}
    # First pass: holds, moves, assaults.
    for r in refs:
        here = r.district
        x = rnd.random()
        if x < 0.1:
            orders[r] = Hold(r)
        elif x < 0.65:
            if r.kind is UnitKind.L:
                two = sorted(gmap.within(here, 2))
                dest = rnd.choice(two)
                mids = [m for m in gmap.neighbours(here) if gmap.adjacent(m, dest)]
                path = (rnd.choice(mids),) if mids and rnd.random() < 0.4 else ()
                orders[r] = Move(r, dest, path)
            elif rnd.random() < 0.85:
                orders[r] = Move(r, rnd.choice(gmap.neighbours(here)))
            else:
                orders[r] = Move(r, rnd.choice(sorted(gmap.within(here, 2))))
        elif x < 0.72 and r.kind is UnitKind.H:
            stations = [s for s in (here, *gmap.neighbours(here)) if gmap.districts[s].station]
            if stations:
                orders[r] = Assault(r, rnd.choice(stations))
        elif x < 0.75:
            orders[r] = Move(r, rnd.choice(codes))  # often impossible
    # Second pass: supports and transports, mostly matching the first pass.
    for r in refs:
        if r in orders:
            continue
        here = r.district
        near = [t for n in gmap.neighbours(here) for t in at.get(n, [])] + [t for t in at[here] if t != r]
        if not near:
            orders[r] = Hold(r)
            continue
        target = rnd.choice(near)
        aim = orders.get(target)
        dests = [d for d in gmap.neighbours(here) if d != target.district]
        carries = r.kind is UnitKind.L and target.kind is UnitKind.H and target.district != here and dests
        if carries and rnd.random() < 0.4:
            dest = aim.dest if isinstance(aim, Move) and rnd.random() < 0.6 else rnd.choice(dests)
            orders[r] = Transport(r, target, dest)
            if rnd.random() < 0.5 and dest != target.district:
                orders[target] = Move(target, dest)
        elif isinstance(aim, Move) and (gmap.adjacent(here, aim.dest) or rnd.random() < 0.2):
            orders[r] = SupportMove(r, target, aim.dest)
        elif isinstance(aim, Assault) and rnd.random() < 0.8:
            orders[r] = SupportAssault(r, target, aim.station)
        else:
            orders[r] = SupportHold(r, target)
    # A few orders for units that are not there.
    for _ in range(rnd.randint(0, 2)):
        ghost = UnitRef(rnd.choice(list(UnitKind)), rnd.choice(codes))
        if ghost not in orders and ghost not in set(refs):
            orders[ghost] = Hold(ghost)
    return orders


def random_retreats(rnd: random.Random, gmap: GameMap, state: GameState) -> dict[UnitRef, Retreat]:
    out: dict[UnitRef, Retreat] = {}
    for u in state.units:
        if rnd.random() < 0.8:
            around = sorted(gmap.within(u.district, 2))
            choices = tuple(dict.fromkeys(rnd.choice(around) for _ in range(rnd.randint(1, 3))))
            ref = UnitRef(u.kind, u.district)
            out[ref] = Retreat(ref, choices)
    return out


def units_in(draw: st.DrawFn, provinces: list[str]) -> list[ClassicUnit]:
    """A unit in each province, of a kind it can hold (a fleet on one of its coasts),
    of one of three powers."""
    units = []
    for prov in provinces:
        fleet_regions = BOARD.fleet_regions(prov)
        kinds = ([Kind.ARMY] if not BOARD.is_sea(prov) else []) + ([Kind.FLEET] if fleet_regions else [])
        kind = draw(st.sampled_from(kinds))
        region = draw(st.sampled_from(fleet_regions)) if kind is Kind.FLEET else prov
        units.append(ClassicUnit(draw(st.sampled_from(sorted(BOARD.powers)[:3])), kind, region))
    return units
