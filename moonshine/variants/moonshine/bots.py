"""Simple computer players: random legal orders for every gang, for ``moonshine
simulate``, property tests and demos. Deterministic for a given random generator."""

from __future__ import annotations

import random

from moonshine.variants.moonshine.map import RECRUIT_COST, UPKEEP, GameMap, UnitKind
from moonshine.variants.moonshine.orders import (
    Assault,
    Bribe,
    Hold,
    Move,
    Recruit,
    Retreat,
    SupportHold,
    SupportMove,
    Transport,
    UnitOrder,
    UnitRef,
)
from moonshine.variants.moonshine.state import GameState
from moonshine.variants.moonshine.turn import GangPlan


def random_plan(gmap: GameMap, st: GameState, gang: str, rng: random.Random) -> GangPlan:
    plan = GangPlan(gang, submitted=True)
    units = st.units_of(gang)
    orders: dict[UnitRef, UnitOrder] = {}
    for u in units:
        ref = UnitRef(u.kind, u.district)
        roll = rng.random()
        if roll < 0.25:
            orders[ref] = Hold(ref)
        elif u.kind is UnitKind.H and roll < 0.33 and _station_near(gmap, u.district):
            orders[ref] = Assault(ref, rng.choice(_station_near(gmap, u.district)))
        elif u.kind is UnitKind.L and roll < 0.8:
            dest = rng.choice(sorted(gmap.within(u.district, 2)))
            orders[ref] = Move(ref, dest)
        else:
            orders[ref] = Move(ref, rng.choice(gmap.neighbours(u.district)))
    # Turn some holds into supports of a neighbour's move or hold.
    for ref, order in list(orders.items()):
        if not isinstance(order, Hold) or rng.random() < 0.3:
            continue
        options: list[UnitOrder] = []
        for other_ref, other in orders.items():
            if other_ref == ref:
                continue
            if isinstance(other, Move) and other.dest != ref.district and gmap.adjacent(ref.district, other.dest):
                options.append(SupportMove(ref, other_ref, other.dest))
            elif isinstance(other, Hold) and gmap.adjacent(ref.district, other_ref.district):
                options.append(SupportHold(ref, other_ref))
        if options:
            orders[ref] = rng.choice(options)
    # Now and then an L carries an H across its district.
    for ref, order in list(orders.items()):
        if ref.kind is not UnitKind.L or not isinstance(order, Hold) or rng.random() < 0.7:
            continue
        for h_ref, h_order in orders.items():
            if h_ref.kind is UnitKind.H and isinstance(h_order, Hold) and gmap.adjacent(h_ref.district, ref.district):
                dests = [d for d in gmap.neighbours(ref.district) if d != h_ref.district]
                if dests:
                    dest = rng.choice(dests)
                    orders[ref] = Transport(ref, h_ref, dest)
                    orders[h_ref] = Move(h_ref, dest, via=(ref.district,))
                break
    plan.unit_orders = orders
    for u in units:
        if rng.random() < 0.5:
            choices = rng.sample(list(gmap.neighbours(u.district)), k=min(2, len(gmap.neighbours(u.district))))
            plan.retreats[UnitRef(u.kind, u.district)] = Retreat(UnitRef(u.kind, u.district), tuple(choices))
    # Economy: recruit when cash allows, bribe now and then, sell the maximum.
    cash = st.cash.get(gang, 0)
    upkeep = UPKEEP * (len(units) + sum(1 for a in st.arrested if a.gang == gang))
    spare = cash - upkeep
    if spare >= 2 * RECRUIT_COST and rng.random() < 0.6:
        free = [
            (k, d)
            for d in st.controlled_by(gang)
            for k in (UnitKind.L, UnitKind.H)
            if st.unit_at(k, d) is None and all(x.gang == gang for x in st.units_in(d))
        ]
        if free:
            kind, d = rng.choice(sorted(free))
            plan.recruits.append(Recruit(kind, d))
            spare -= RECRUIT_COST
    if spare >= 200 and rng.random() < 0.4:
        stations = sorted({gmap.precinct_of(d) for d in st.controlled_by(gang)})
        if stations:
            amount = 50 * rng.randint(1, max(1, min(spare, 1000) // 50))
            plan.bribes.append(Bribe(rng.choice(stations), amount))
    return plan


def _station_near(gmap: GameMap, district: str) -> list[str]:
    return [d for d in (district, *gmap.neighbours(district)) if gmap.districts[d].has_station]


def random_plans(gmap: GameMap, st: GameState, rng: random.Random) -> dict[str, GangPlan]:
    return {g: random_plan(gmap, st, g, rng) for g in gmap.gangs}
