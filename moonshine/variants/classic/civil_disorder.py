"""The classic family's civil-disorder player (R26). Pure: board, state, power,
player and seed in; the power's orders for the phase and their file out.

``hold``, the default, is the rulebook's civil disorder written out: in a movement
phase every unit holds; in a retreat phase every dislodged unit is disbanded; in an
adjustment phase every build owed is waived and the removals owed are the
game's rulebook's (``adjustments.civil_disorder_removals`` under the game's ``rules:``;
by default the farthest from the power's centres first), so that the phase ends as it would with no orders at all.

``smart`` keeps its home centres covered:

- movement: a home centre the power owns with no unit in it, into which another
  power's unit could move, is entered by one of its units next to it that stands on
  no supply centre (centres in alphabetical order; among several such units, one
  drawn from the seed). Every other unit stays: it supports to hold a neighbouring
  unit of its power that stays and that another power's unit could move against (of
  several, the one with the most such units around it, less the supports already
  given, the supporters in alphabetical order of their provinces; equal ones drawn
  from the seed), else it holds. Convoys are not counted as threats.
- retreats: each dislodged unit (in alphabetical order) retreats to the legal
  province nearest to the power's home centres (one of them when it can), counting
  steps over land and sea, never where another of its retreats goes; equal ones
  drawn from the seed. With no legal retreat it is disbanded.
- adjustments: it builds on its free home centres that it owns (in alphabetical
  order, as many as it may), an army in an inland centre, an army or a fleet drawn
  from the seed in a coastal one (and a coast drawn where a fleet has two), and
  waives the builds left; removals are the rulebook's, as for ``hold``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from moonshine.engine.rulebook import Rulebook
from moonshine.variants.civil_disorder import HOLD, SMART, Mark, Written, draws, orders_file, pick
from moonshine.variants.classic.adjustments import adjustment_counts, civil_disorder_removals
from moonshine.variants.classic.board import ClassicMap, Kind, province_of
from moonshine.variants.classic.orders import (
    Build,
    Disband,
    Hold,
    Move,
    Order,
    Retreat,
    SupportHold,
    Target,
    UnitRef,
    Waive,
)
from moonshine.variants.classic.rules import CLASSIC, retreat_problem
from moonshine.variants.classic.state import ClassicState, Dislodged, Step, Unit

PLAYERS = (HOLD, SMART)  # the first is the default


def civil_disorder(
    gmap: ClassicMap, st: ClassicState, power: str, player: str, seed: str, rules: Rulebook = CLASSIC
) -> Written[Order]:
    """``power``'s orders for the phase ``st`` is at, as the civil-disorder
    ``player`` (``hold`` or ``smart``) writes them, drawing from ``seed``
    (``moonshine.variants.civil_disorder.civil_disorder_seed``); the removals it owes
    are those of the game's ``rules`` (``Rulebook.civil_disorder``)."""
    if player not in PLAYERS:
        raise ValueError(f"no civil-disorder player {player!r} in the classic family ({', '.join(PLAYERS)})")
    rng = draws(seed)
    smart = player == SMART
    step = st.phase.step
    orders: list[Order]
    if step is Step.MOVEMENT:
        mine = sorted(st.units_of(power), key=lambda u: u.province)
        orders = _movement(gmap, st, power, mine, rng) if smart else [Hold(_ref(u)) for u in mine]
    elif step is Step.RETREATS:
        dislodged = sorted((d for d in st.dislodged if d.power == power), key=lambda d: d.unit.province)
        orders = _retreats(gmap, st, power, dislodged, rng) if smart else [Disband(_ref(d.unit)) for d in dislodged]
    else:
        orders = _adjustments(gmap, st, power, rng if smart else None, rules)
    mark = Mark(player, seed)
    return Written(player, seed, tuple(orders), orders_file(mark, f"power: {power}", (o.text() for o in orders)))


def _ref(u: Unit) -> UnitRef:
    return UnitRef(u.kind, u.region)


def _reaches(gmap: ClassicMap, u: Unit, province: str) -> bool:
    """Could ``u`` move to ``province`` by itself (no convoy)?"""
    if u.kind is Kind.ARMY:
        return province in gmap.army_nb.get(u.province, frozenset())
    return bool(gmap.fleet_targets(u.region, province))


# -- movement ------------------------------------------------------------------------------


def _movement(gmap: ClassicMap, st: ClassicState, power: str, mine: Sequence[Unit], rng: random.Random) -> list[Order]:
    """``mine``: the power's units, in alphabetical order of their provinces."""
    others = [u for u in st.units if u.power != power]
    taken = {u.province for u in st.units}
    centres = set(gmap.supply_centres)
    moves: dict[Unit, Move] = {}
    for centre in gmap.home_centres(power):
        if st.owners.get(centre) != power or centre in taken or not any(_reaches(gmap, e, centre) for e in others):
            continue
        free = {
            u.province: u for u in mine if u not in moves and u.province not in centres and _reaches(gmap, u, centre)
        }
        if free:
            u = free[pick(rng, sorted(free))]
            dest = centre if u.kind is Kind.ARMY else gmap.fleet_targets(u.region, centre)[0]
            moves[u] = Move(_ref(u), dest)
    staying = [u for u in mine if u not in moves]
    threat = {u.province: sum(1 for e in others if _reaches(gmap, e, u.province)) for u in staying}
    given = dict.fromkeys(threat, 0)
    orders: list[Order] = []
    for u in mine:
        if u in moves:
            orders.append(moves[u])
            continue
        near = {t.province: t for t in staying if t != u and threat[t.province] and _reaches(gmap, u, t.province)}
        if not near:
            orders.append(Hold(_ref(u)))
            continue
        most = max(threat[p] - given[p] for p in near)
        chosen = near[pick(rng, sorted(p for p in near if threat[p] - given[p] == most))]
        given[chosen.province] += 1
        orders.append(SupportHold(_ref(u), Target(chosen.kind, chosen.region)))
    return orders


# -- retreats and adjustments ----------------------------------------------------------------


def _retreats(
    gmap: ClassicMap, st: ClassicState, power: str, mine: Sequence[Dislodged], rng: random.Random
) -> list[Order]:
    """``mine``: the power's dislodged units, in alphabetical order of their provinces."""
    occupied = {u.province for u in st.units}
    contested = set(st.contested)
    home = gmap.distances_to(gmap.home_centres(power))
    far = len(gmap.provinces) + 1
    going: set[str] = set()
    orders: list[Order] = []
    for d in mine:
        options: dict[str, int] = {}  # a legal retreat's region -> its steps from the nearest home centre
        for prov in gmap.near[d.unit.province]:
            dests = (prov,) if d.kind is Kind.ARMY else gmap.fleet_targets(d.region, prov)
            for dest in dests:
                problem, region = retreat_problem(gmap, d, dest, occupied, contested)
                if problem is None and prov not in going:
                    options[region] = home.get(prov, far)
        if not options:
            orders.append(Disband(UnitRef(d.kind, d.region)))
            continue
        nearest = min(options.values())
        region = pick(rng, sorted(r for r, n in options.items() if n == nearest))
        going.add(province_of(region))
        orders.append(Retreat(UnitRef(d.kind, d.region), region))
    return orders


def _adjustments(
    gmap: ClassicMap, st: ClassicState, power: str, rng: random.Random | None, rules: Rulebook
) -> list[Order]:
    """The removals owed, by the game's rule (``rules.civil_disorder``); or the builds
    owed: waived by ``hold`` (``rng`` None), made on the free home centres by ``smart``."""
    owed = adjustment_counts(gmap, st.units, st.owners).get(power, 0)
    if owed < 0:
        removed = civil_disorder_removals(gmap, power, st.units_of(power), st.owners, -owed, rules)
        return [Disband(_ref(u)) for u in removed]
    builds: list[Order] = []
    if rng is not None:
        taken = {u.province for u in st.units}
        free = [c for c in gmap.home_centres(power) if st.owners.get(c) == power and c not in taken]
        for centre in free[:owed]:
            coasts = sorted(gmap.fleet_regions(centre))
            if coasts and rng.choice((Kind.ARMY, Kind.FLEET)) is Kind.FLEET:
                builds.append(Build(UnitRef(Kind.FLEET, pick(rng, coasts))))
            else:
                builds.append(Build(UnitRef(Kind.ARMY, centre)))
    return builds + [Waive() for _ in range(owed - len(builds))]
