"""The classic variant's rules for an order, in one place: legality against the
position alone (DATC 4.E.1: an illegal order is ignored and the unit holds),
coasts (4.B), convoy routes (through ``moonshine.routes``, the one carrier-chain
search), where a dislodged unit may retreat, and the rule choices of the decision
core (``CLASSIC``). The movement and retreat phases (``moonshine.classic.movement``,
``moonshine.classic.retreats``) call these functions; so would an order checker
for the classic variant."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from moonshine import routes
from moonshine.classic.board import ClassicMap, Kind, province_of
from moonshine.classic.orders import Convoy, Hold, Move, Order, SupportHold, SupportMove
from moonshine.classic.state import Dislodged, Unit
from moonshine.resolver import Act, Rulebook

CLASSIC = Rulebook(
    name="classic",
    strengths=MappingProxyType({"A": 1, "F": 1}),
    reach=MappingProxyType({"A": 1, "F": 1}),
    stacking=False,
    support_adds_supporter_strength=False,
    carried_kinds=frozenset({"A"}),
    carrier_kinds=frozenset({"F"}),
    assault_kinds=frozenset(),
)

MOVEMENT_ORDERS = (Hold, Move, SupportHold, SupportMove, Convoy)


@dataclass
class Plan:
    unit: Unit
    order: Order | None = None  # the order carried out (None: hold)
    given: Order | None = None
    problem: str | None = None  # why the order is illegal (the unit holds)
    dest: str = ""  # a move's region (its coast resolved), a support's or convoy's province
    target: int = -1
    convoyed: bool = False
    void: str | None = None  # a support whose coast does not match the move
    act: Act = field(default_factory=Act)


class Board:
    def __init__(self, gmap: ClassicMap, units: Sequence[Unit]) -> None:
        self.gmap = gmap
        self.plans = [Plan(u) for u in sorted(units, key=lambda u: (u.province, u.region))]
        self.at: dict[str, int] = {}
        for i, p in enumerate(self.plans):
            if p.unit.province in self.at:
                raise ValueError(f"two units in {p.unit.province}")
            self.at[p.unit.province] = i
        self.fleet_seas = frozenset(
            p.unit.province for p in self.plans if p.unit.kind is Kind.FLEET and gmap.is_sea(p.unit.province)
        )

    # -- geography with the position ------------------------------------------------
    def reaches(self, i: int, province: str) -> bool:
        """Could unit i move to the province (any coast of it)?"""
        u = self.plans[i].unit
        if u.kind is Kind.ARMY:
            return self.gmap.army_adjacent(u.region, province)
        return bool(self.gmap.fleet_targets(u.region, province))

    def route_possible(self, origin: str, dest: str, seas: frozenset[str]) -> bool:
        """Is there a chain of ``seas`` from next to ``origin`` to next to ``dest``?"""
        g = self.gmap
        if origin == dest or not g.is_coastal(origin) or not g.is_coastal(dest):
            return False
        return routes.linked(g.near, origin, dest, seas.__contains__)

    def necessary(self, fleet: str, origin: str, dest: str) -> bool:
        """Does the fleet in ``fleet`` lie on a convoy route from ``origin`` to ``dest``
        none of whose fleets could be left out (a chordless chain)?"""
        g = self.gmap
        seas = self.fleet_seas
        if fleet not in seas or not g.is_coastal(origin) or not g.is_coastal(dest) or origin == dest:
            return False
        near = g.near

        def extend(path: list[str]) -> bool:
            last = path[-1]
            if dest in near[last]:
                return fleet in path
            for n in sorted(near[last]):
                if n not in seas or n in path or origin in near[n]:
                    continue
                if any(n in near[p] for p in path[:-1]):
                    continue
                path.append(n)
                if extend(path):
                    return True
                path.pop()
            return False

        return any(extend([s]) for s in sorted(near[origin]) if s in seas)


# -- step 1: legality ----------------------------------------------------------------


def _move_problem(board: Board, p: Plan, order: Move) -> str | None:
    g, u = board.gmap, p.unit
    dest_prov = order.dest.split("/", 1)[0]
    if dest_prov not in g.provinces:
        return f"no province {dest_prov} on the map"
    if dest_prov == u.province:
        return f"{u.label()} is already in {dest_prov}"
    if u.kind is Kind.ARMY:
        if g.is_sea(dest_prov):
            return f"an army cannot enter the sea ({g.name(dest_prov)})"
        p.dest = dest_prov  # a coast in an army's order is ignored (DATC 4.B.6)
        adjacent = g.army_adjacent(u.region, dest_prov)
        if adjacent and not order.via_convoy:
            return None
        if board.route_possible(u.province, dest_prov, board.fleet_seas):
            p.convoyed = True
            return None
        if order.via_convoy:
            return f"no chain of fleets at sea could convoy it from {u.province} to {dest_prov}"
        return f"{dest_prov} is not next to {u.province}, and no chain of fleets at sea could convoy it there"
    if order.via_convoy:
        return "only armies can be convoyed"
    reachable = g.fleet_targets(u.region, dest_prov)
    if "/" in order.dest:
        if order.dest not in g.regions:
            return f"{dest_prov} has no coast {order.dest.split('/', 1)[1]}"
        if order.dest not in reachable:
            return f"a fleet in {u.region} cannot reach {order.dest}"
        p.dest = order.dest
        return None
    if not reachable:
        if not g.fleet_regions(dest_prov):
            return f"a fleet cannot enter the inland province {g.name(dest_prov)}"
        return f"a fleet in {u.region} cannot reach {dest_prov}"
    if len(reachable) > 1:
        return f"the coast of {dest_prov} must be given ({' or '.join(reachable)})"
    p.dest = reachable[0]  # the only coast it can reach (DATC 4.B.2)
    return None


def _support_problem(board: Board, i: int, order: SupportHold | SupportMove) -> str | None:
    g = board.gmap
    p = board.plans[i]
    tprov = order.target.province
    j = board.at.get(tprov)
    if j is None:
        return f"there is no unit in {tprov} to support"
    if j == i:
        return "a unit cannot support itself"
    p.target = j
    if isinstance(order, SupportHold):
        if not board.reaches(i, tprov):
            return f"{p.unit.label()} could not move to {tprov}, so it cannot support there"
        p.dest = tprov
        return None
    dest_prov = order.dest.split("/", 1)[0]
    if dest_prov not in g.provinces:
        return f"no province {dest_prov} on the map"
    if dest_prov == p.unit.province:
        return f"a unit cannot support a move into its own province {dest_prov}"
    if dest_prov == tprov:
        return f"{tprov} cannot move to its own province"
    if not board.reaches(i, dest_prov):
        return f"{p.unit.label()} could not move to {dest_prov}, so it cannot support there"
    t = board.plans[j].unit
    if t.kind is Kind.ARMY:
        if g.is_sea(dest_prov):
            return f"the army in {tprov} cannot enter the sea"
        if not g.army_adjacent(t.region, dest_prov) and not board.route_possible(
            tprov, dest_prov, board.fleet_seas - {p.unit.province}
        ):
            return f"the army in {tprov} could not reach {dest_prov}, even by convoy (without this unit)"
    else:
        reachable = g.fleet_targets(t.region, dest_prov)
        if "/" in order.dest:
            if order.dest not in reachable:
                return f"the fleet in {t.region} cannot reach {order.dest}"
        elif not reachable:
            return f"the fleet in {t.region} cannot reach {dest_prov}"
    p.dest = dest_prov
    return None


def _convoy_problem(board: Board, i: int, order: Convoy) -> str | None:
    g = board.gmap
    p = board.plans[i]
    if p.unit.kind is not Kind.FLEET or not g.is_sea(p.unit.province):
        return "only a fleet at sea can convoy"
    tprov = order.target.province
    j = board.at.get(tprov)
    if j is None:
        return f"there is no unit in {tprov} to convoy"
    if board.plans[j].unit.kind is not Kind.ARMY:
        return "only armies can be convoyed"
    dest_prov = order.dest.split("/", 1)[0]
    if dest_prov not in g.provinces:
        return f"no province {dest_prov} on the map"
    p.target = j
    p.dest = dest_prov
    if not board.necessary(p.unit.province, tprov, dest_prov):
        return f"the fleet is on no convoy route from {tprov} to {dest_prov}"
    return None


def problem(board: Board, i: int, order: Order) -> str | None:
    p = board.plans[i]
    p.dest, p.target, p.convoyed = "", -1, False
    if isinstance(order, Hold):
        return None
    if isinstance(order, Move):
        return _move_problem(board, p, order)
    if isinstance(order, SupportHold | SupportMove):
        return _support_problem(board, i, order)
    if isinstance(order, Convoy):
        return _convoy_problem(board, i, order)
    return f"{order.text()} is not a movement order"


def assign(
    board: Board, orders: Mapping[str, Sequence[Order]]
) -> tuple[dict[int, list[Order]], list[tuple[str, Order, str]]]:
    given: dict[int, list[Order]] = {}
    ignored: list[tuple[str, Order, str]] = []
    for power in sorted(orders):
        for order in orders[power]:
            if not isinstance(order, MOVEMENT_ORDERS):
                ignored.append((power, order, f"{order.text()} is not an order of the movement phase"))
                continue
            i = board.at.get(order.unit.province)
            if i is None:
                ignored.append((power, order, f"there is no unit in {order.unit.province}"))
                continue
            owner = board.plans[i].unit.power
            if owner != power:
                whose = board.gmap.powers.get(owner, owner)
                ignored.append((power, order, f"the unit in {order.unit.province} is {whose}'s"))
                continue
            if order not in given.setdefault(i, []):
                given[i].append(order)
    return given, ignored


# -- retreats ----------------------------------------------------------------------------


def retreat_problem(
    gmap: ClassicMap,
    d: Dislodged,
    dest: str,
    occupied: set[str],
    contested: set[str],
) -> tuple[str | None, str]:
    """Why ``d`` cannot retreat to ``dest`` (None if it can), and the region it would
    reach (its coast resolved as for a move)."""
    prov = province_of(dest)
    if prov not in gmap.provinces:
        return f"no province {prov} on the map", dest
    region = prov
    if d.kind is Kind.ARMY:
        if gmap.is_sea(prov) or not gmap.army_adjacent(d.region, prov):
            return f"an army in {d.region} cannot move to {prov}", dest
    else:
        reachable = gmap.fleet_targets(d.region, prov)
        if "/" in dest:
            if dest not in reachable:
                return f"a fleet in {d.region} cannot reach {dest}", dest
            region = dest
        elif len(reachable) != 1:
            if reachable:
                return f"the coast of {prov} must be given ({' or '.join(reachable)})", dest
            return f"a fleet in {d.region} cannot reach {prov}", dest
        else:
            region = reachable[0]
    if prov in occupied:
        return f"{prov} is occupied", region
    if prov == d.attacker_from and not d.by_convoy:
        return f"the attacker came from {prov}", region
    if prov in contested:
        return f"{prov} was left empty by a standoff", region
    return None, region
