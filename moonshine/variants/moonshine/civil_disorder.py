"""Moonshine's civil-disorder player (R26, ``keep``): it keeps a gang's units and
territory. Pure: map, state, gang and seed in; the gang's orders and their file out.

- Every unit on the board stays. One next to a district where the gang has units
  and another gang's unit could move in by itself (an H next door, an L one or two
  steps away) supports the unit there to hold; of several such districts, the one
  left weakest: the largest difference between the strength that could move in and
  the strength defending it (its units and the supports already given, the units
  taken in map order, an H before an L); equal ones are drawn from the seed. A unit
  with no such district holds, and so does a unit recruited this turn (R18).
- Every unit's retreat (R7) lists the districts within its reach (R8) that its
  gang controls, nearest first, then those nobody controls, each in map order; a
  district where the gang has a unit of the same type is left out, and so is every
  district another gang controls.
- It sells all it can (``sell all``, R15), stores in map order (R16), and recruits,
  disbands and bribes nothing.
"""

from __future__ import annotations

from moonshine.variants.civil_disorder import KEEP, Mark, Written, draws, orders_file, pick
from moonshine.variants.moonshine import rules
from moonshine.variants.moonshine.map import GameMap, UnitKind
from moonshine.variants.moonshine.orders import Hold, Order, Retreat, Sell, SupportHold, UnitOrder, UnitRef
from moonshine.variants.moonshine.state import GameState, Unit


def civil_disorder(gmap: GameMap, st: GameState, gang: str, seed: str) -> Written[Order]:
    """``gang``'s orders for the turn ``st`` starts, as R26 writes them, drawing
    from ``seed`` (``moonshine.variants.civil_disorder.civil_disorder_seed``)."""
    rng = draws(seed)
    area = {code: d.area for code, d in gmap.districts.items()}
    mine = sorted(st.units_of(gang), key=lambda u: (area[u.district], u.kind.value))
    defended: dict[str, int] = {}
    for u in mine:
        defended[u.district] = defended.get(u.district, 0) + u.kind.strength
    threat = dict.fromkeys(defended, 0)
    for u in st.units:
        if u.gang != gang:
            for d in rules.reach(gmap, u.kind, u.district) & threat.keys():
                threat[d] += u.kind.strength
    unit_orders: list[UnitOrder] = []
    for u in mine:
        ref = UnitRef(u.kind, u.district)
        near = [d for d in gmap.neighbours(u.district) if threat.get(d, 0) > 0]
        if not near or (u.recruited and u.recruited == st.turn):
            unit_orders.append(Hold(ref))
            continue
        weakest = max(threat[d] - defended[d] for d in near)
        chosen = pick(rng, sorted((d for d in near if threat[d] - defended[d] == weakest), key=area.__getitem__))
        defended[chosen] += u.kind.strength
        unit_orders.append(SupportHold(ref, _held(st, gang, chosen)))
    retreats = [r for r in (_retreat(gmap, st, u, area) for u in mine) if r is not None]
    orders: tuple[Order, ...] = (*unit_orders, *retreats, Sell(None))
    mark = Mark(KEEP, seed)
    return Written(KEEP, seed, orders, orders_file(mark, f"gang: {gang}", (o.text() for o in orders)))


def _held(st: GameState, gang: str, district: str) -> UnitRef:
    """The gang's unit a support names in ``district``: its H, else its L (either
    counts for the district's hold, R6)."""
    kinds = {u.kind for u in st.units_in(district) if u.gang == gang}
    return UnitRef(UnitKind.H if UnitKind.H in kinds else UnitKind.L, district)


def _retreat(gmap: GameMap, st: GameState, u: Unit, area: dict[str, int]) -> Retreat | None:
    """Where ``u`` retreats if dislodged: its gang's districts within reach, nearest
    first, then the districts nobody controls (None: nowhere to list)."""
    nearest = set(gmap.neighbours(u.district))
    ranked = []
    for d in rules.reach(gmap, u.kind, u.district):
        owner = st.control.get(d)
        same = st.unit_at(u.kind, d)
        if owner not in (u.gang, None) or (same is not None and same.gang == u.gang):
            continue
        ranked.append((owner is None, d not in nearest, area[d], d))
    if not ranked:
        return None
    return Retreat(UnitRef(u.kind, u.district), tuple(d for *_, d in sorted(ranked)))
