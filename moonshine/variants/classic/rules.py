"""The classic variant's rules for an order, in one place: legality against the
position alone (DATC 4.E.1: an illegal order is ignored and the unit holds),
coasts (4.B), convoy routes (through ``moonshine.engine.routes``, the one carrier-chain
search), where a dislodged unit may retreat, and the rule choices of the decision
core (``CLASSIC``). The movement and retreat phases (``moonshine.variants.classic.movement``,
``moonshine.variants.classic.retreats``) call these functions; so would an order checker
for the classic variant."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import TypeAlias

import msgspec

from moonshine.engine import routes
from moonshine.engine.outcome import Void, Wording
from moonshine.engine.resolver import Act
from moonshine.engine.rulebook import Rulebook
from moonshine.text.catalogue import Choices, Message, Names, fill, gettext_for, say
from moonshine.variants.classic.board import ClassicMap, Kind, province_of
from moonshine.variants.classic.orders import (
    Convoy,
    Hold,
    Move,
    Order,
    SupportHold,
    SupportMove,
    restate,
)
from moonshine.variants.classic.state import Dislodged, Unit

# How the classic judges word outcomes: armies convoyed by fleets; an illegal order holds;
# strengths named only when a unit is dislodged; a support always adds 1.
WORDING = Wording(
    convoys=True, illegal_holds=True, strengths_when_dislodging=True, support_adds_one=True, blocked_plainly=True
)

CLASSIC = Rulebook(
    strengths=MappingProxyType({"A": 1, "F": 1}),
    stacking=False,
    support_adds_supporter_strength=False,
    carried_kinds=frozenset({"A"}),
    carrier_kinds=frozenset({"F"}),
)

MOVEMENT_ORDERS = (Hold, Move, SupportHold, SupportMove, Convoy)

# -- what is wrong with an order: a value, worded in each language from one catalogue ------

# key -> the English template, a sentence of the gettext catalogue (its translations are the
# catalogues'); the templates' fields are the Problem's values (a tuple of coasts is
# joined with "or").
PROBLEMS: dict[str, str] = {
    "no_province": "no province {prov} on the map",
    "already_there": "{unit} is already in {prov}",
    "army_sea": "an army cannot enter the sea ({name})",
    "no_convoy_chain": "no chain of fleets at sea could convoy it from {origin} to {prov}",
    "not_next": "{prov} is not next to {origin}, and no chain of fleets at sea could convoy it there",
    "only_armies_convoyed": "only armies can be convoyed",
    "no_coast": "{prov} has no coast {coast}",
    "fleet_cannot_reach": "a fleet in {region} cannot reach {prov}",
    "fleet_inland": "a fleet cannot enter the inland province {name}",
    "coast_needed": "the coast of {prov} must be given ({coasts})",
    "no_unit_to_support": "there is no unit in {prov} to support",
    "support_itself": "a unit cannot support itself",
    "cannot_support_there": "{unit} could not move to {prov}, so it cannot support there",
    "support_into_own": "a unit cannot support a move into its own province {prov}",
    "move_to_own": "{prov} cannot move to its own province",
    "supported_army_sea": "the army in {prov} cannot enter the sea",
    "supported_army_cannot_reach": "the army in {origin} could not reach {prov}, even by convoy (without this unit)",
    "supported_fleet_cannot_reach": "the fleet in {region} cannot reach {prov}",
    "convoy_at_sea": "only a fleet at sea can convoy",
    "no_unit_to_convoy": "there is no unit in {prov} to convoy",
    "no_convoy_route": "the fleet is on no convoy route from {origin} to {prov}",
    "not_movement_phase": "{order} is not an order of the movement phase",
    "not_movement": "{order} is not a movement order",
    "not_retreat": "{order} is not a retreat or a disband; only those exist in the retreat phase",
    "not_adjustment": "{order} is not an adjustment order (build, disband or waive)",
    "several_orders": "several different orders for this unit: {orders}",
    "army_cannot_move": "an army in {region} cannot move to {prov}",
    "occupied": "{prov} is occupied",
    "attacker_came_from": "the attacker came from {prov}",
    "standoff": "{prov} was left empty by a standoff",
    "retreat_by_convoy": "a retreat cannot go by convoy",
    "no_unit": "there is no unit in {prov}",
    "not_yours": "the unit in {prov} is {whose}'s",
    "no_dislodged": "no dislodged unit of this power in {prov}",
    "not_home": "{prov} is not a home supply centre of {power}",
    "not_owned": "{power} does not own {prov} now",
    "not_empty": "{prov} is not empty",
    "build_fleet_inland": "a fleet cannot be built in the inland province {name}",
    "build_coast_needed": "the coast must be given ({coasts})",
    "no_build": "no build: {power} has no more supply centres than units ({centres} for {units})",
    "no_build_left": "no build left: {power} may build {n}",
    "no_disband": "no disband due: {power} has no more units than supply centres ({units} for {centres})",
    "no_disband_left": "no disband left: {power} must disband {n}",
    "already_disbanded": "{unit} is already disbanded",
    "no_power_unit": "no unit of {power} in {prov}",
}


Value: TypeAlias = str | int | tuple[str, ...] | Names  # a problem's value: a code, a count, choices, a place


class Problem:
    """Why an order cannot be carried out: a key of ``PROBLEMS`` and its values, given
    by name (``Problem("no_adjacent", prov="MUN")``). A value: equal to and hashed as
    its key and values, never changed once made. ``str()`` is the English sentence;
    ``text(language)`` any language's."""

    __slots__ = ("key", "values")

    def __init__(self, key: str, **values: Value) -> None:
        if key not in PROBLEMS:
            raise KeyError(key)
        self.key = key
        self.values: tuple[tuple[str, Value], ...] = tuple(sorted(values.items()))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Problem):
            return NotImplemented
        return (self.key, self.values) == (other.key, other.values)

    def __hash__(self) -> int:
        return hash((self.key, self.values))

    def __repr__(self) -> str:
        return f"Problem({self.key!r}, values={self.values!r})"

    def text(self, language: str = "en") -> str:
        template = gettext_for(language)(PROBLEMS[self.key])
        words = {
            k: Choices(v).text(language) if isinstance(v, tuple) else v.text(language) if isinstance(v, Names) else v
            for k, v in self.values
        }
        if isinstance(words.get("order"), str):  # an order, in the reader's notation
            words["order"] = restate(str(words["order"]), language)
        return fill(language, template, **words)

    def __str__(self) -> str:
        return self.text("en")

    def message(self) -> Message:
        """The problem as a message of the catalogue (``moonshine.engine.outcome`` stores it):
        the template's English is its key; a list of coasts is joined with "or"."""

        def value(v: Value) -> object:
            if not isinstance(v, tuple) or len(v) < 2:
                return " or ".join(v) if isinstance(v, tuple) else v
            return say("{a} or {b}", a=", ".join(v[:-1]), b=v[-1])

        def order(v: Value) -> object:
            return OrderText(str(v)) if isinstance(v, str) else value(v)

        return Message(PROBLEMS[self.key], tuple((k, order(v) if k == "order" else value(v)) for k, v in self.values))


class OrderText(msgspec.Struct, frozen=True):
    """An order's standard text inside a sentence, written in the notation of the
    sentence's language (a ``moonshine.text.catalogue.Localized`` value)."""

    order: str

    def text(self, language: str = "en") -> str:
        return restate(self.order, language)


_ARMY, _FLEET = Kind.ARMY, Kind.FLEET
_NOWHERE: frozenset[str] = frozenset()
_HOLD = Act()  # a unit's act until its order is read: it holds


def _province(region: str) -> str:
    """``STP/SC`` -> ``STP`` (``province_of``, inline where it is asked per order)."""
    return region if "/" not in region else region.split("/", 1)[0]


class Plan(msgspec.Struct):
    unit: Unit
    order: Order | None = None  # the order carried out (None: hold)
    given: Order | None = None
    problem: Problem | None = None  # why the order is illegal (the unit holds)
    dest: str = ""  # a move's region (its coast resolved), a support's or convoy's province
    target: int = -1
    convoyed: bool = False
    void: Void | None = None  # a support whose coast does not match the move
    act: Act = _HOLD


class Board:
    def __init__(self, gmap: ClassicMap, units: Sequence[Unit]) -> None:
        self.gmap = gmap
        regions = gmap.regions
        placed = sorted((regions.get(u.region) or province_of(u.region), u.region, u) for u in units)
        self.plans = [Plan(u) for _, _, u in placed]
        self.provinces = provinces = [prov for prov, _, _ in placed]  # each plan's unit's province
        self.at: dict[str, int] = dict(zip(provinces, range(len(provinces)), strict=True))
        if len(self.at) < len(provinces):
            seen: set[str] = set()
            for prov in provinces:
                if prov in seen:
                    raise ValueError(f"two units in {prov}")
                seen.add(prov)
        self.fleet_seas = frozenset(prov for prov, _, u in placed if u.kind is _FLEET and gmap.is_sea(prov))

    # -- geography with the position ------------------------------------------------
    def reaches(self, i: int, province: str) -> bool:
        """Could unit i move to the province (any coast of it)?"""
        u = self.plans[i].unit
        if u.kind is _ARMY:
            return _province(province) in self.gmap.army_nb.get(self.provinces[i], _NOWHERE)
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


def _move_problem(board: Board, i: int, p: Plan, order: Move) -> Problem | None:
    g, u = board.gmap, p.unit
    origin = board.provinces[i]
    dest = order.dest
    dest_prov = _province(dest)
    if dest_prov not in g.provinces:
        return Problem("no_province", prov=dest_prov)
    if dest_prov == origin:
        return Problem("already_there", unit=u.label(), prov=dest_prov)
    if u.kind is _ARMY:
        if g.is_sea(dest_prov):
            return Problem("army_sea", name=g.names(dest_prov))
        p.dest = dest_prov  # a coast in an army's order is ignored (DATC 4.B.6)
        if not order.via_convoy and dest_prov in g.army_nb.get(origin, _NOWHERE):
            return None
        if board.route_possible(origin, dest_prov, board.fleet_seas):
            p.convoyed = True
            return None
        if order.via_convoy:
            return Problem("no_convoy_chain", origin=origin, prov=dest_prov)
        return Problem("not_next", prov=dest_prov, origin=origin)
    if order.via_convoy:
        return Problem("only_armies_convoyed")
    reachable = g.fleet_targets(u.region, dest_prov)
    if "/" in dest:
        if dest not in g.regions:
            return Problem("no_coast", prov=dest_prov, coast=dest.split("/", 1)[1])
        if dest not in reachable:
            return Problem("fleet_cannot_reach", region=u.region, prov=dest)
        p.dest = dest
        return None
    if not reachable:
        if not g.fleet_regions(dest_prov):
            return Problem("fleet_inland", name=g.names(dest_prov))
        return Problem("fleet_cannot_reach", region=u.region, prov=dest_prov)
    if len(reachable) > 1:
        return Problem("coast_needed", prov=dest_prov, coasts=tuple(reachable))
    p.dest = reachable[0]  # the only coast it can reach (DATC 4.B.2)
    return None


def _support_problem(board: Board, i: int, order: SupportHold | SupportMove) -> Problem | None:
    g = board.gmap
    p = board.plans[i]
    tprov = _province(order.target.region)
    j = board.at.get(tprov)
    if j is None:
        return Problem("no_unit_to_support", prov=tprov)
    if j == i:
        return Problem("support_itself")
    p.target = j
    if isinstance(order, SupportHold):
        if not board.reaches(i, tprov):
            return Problem("cannot_support_there", unit=p.unit.label(), prov=tprov)
        p.dest = tprov
        return None
    dest = order.dest
    dest_prov = _province(dest)
    if dest_prov not in g.provinces:
        return Problem("no_province", prov=dest_prov)
    if dest_prov == board.provinces[i]:
        return Problem("support_into_own", prov=dest_prov)
    if dest_prov == tprov:
        return Problem("move_to_own", prov=tprov)
    if not board.reaches(i, dest_prov):
        return Problem("cannot_support_there", unit=p.unit.label(), prov=dest_prov)
    t = board.plans[j].unit
    if t.kind is _ARMY:
        if g.is_sea(dest_prov):
            return Problem("supported_army_sea", prov=tprov)
        if dest_prov not in g.army_nb.get(tprov, _NOWHERE) and not board.route_possible(
            tprov, dest_prov, board.fleet_seas - {board.provinces[i]}
        ):
            return Problem("supported_army_cannot_reach", origin=tprov, prov=dest_prov)
    else:
        reachable = g.fleet_targets(t.region, dest_prov)
        if "/" in dest:
            if dest not in reachable:
                return Problem("supported_fleet_cannot_reach", region=t.region, prov=dest)
        elif not reachable:
            return Problem("supported_fleet_cannot_reach", region=t.region, prov=dest_prov)
    p.dest = dest_prov
    return None


def _convoy_problem(board: Board, i: int, order: Convoy) -> Problem | None:
    g = board.gmap
    p = board.plans[i]
    origin = board.provinces[i]
    if p.unit.kind is not _FLEET or not g.is_sea(origin):
        return Problem("convoy_at_sea")
    tprov = _province(order.target.region)
    j = board.at.get(tprov)
    if j is None:
        return Problem("no_unit_to_convoy", prov=tprov)
    if board.plans[j].unit.kind is not _ARMY:
        return Problem("only_armies_convoyed")
    dest_prov = _province(order.dest)
    if dest_prov not in g.provinces:
        return Problem("no_province", prov=dest_prov)
    p.target = j
    p.dest = dest_prov
    if not board.necessary(origin, tprov, dest_prov):
        return Problem("no_convoy_route", origin=tprov, prov=dest_prov)
    return None


def problem(board: Board, i: int, order: Order) -> Problem | None:
    """What makes ``order`` illegal for unit i (None when it is legal); the unit's
    plan gets the order's destination, target and route as the rules read them."""
    p = board.plans[i]
    p.dest, p.target, p.convoyed = "", -1, False
    kind = type(order)
    if kind is Move:
        return _move_problem(board, i, p, order)  # type: ignore[arg-type]
    if kind is Hold:
        return None
    if kind is SupportMove or kind is SupportHold:
        return _support_problem(board, i, order)  # type: ignore[arg-type]
    if kind is Convoy:
        return _convoy_problem(board, i, order)  # type: ignore[arg-type]
    return Problem("not_movement", order=order.text())


def assign(
    board: Board, orders: Mapping[str, Sequence[Order]]
) -> tuple[dict[int, list[Order]], list[tuple[str, Order, Problem]]]:
    """Each unit's orders (by its index on the board), each once, in the order given;
    the orders for no unit of the ordering power, with the reason."""
    given: dict[int, list[Order]] = {}
    ignored: list[tuple[str, Order, Problem]] = []
    at, plans = board.at, board.plans
    for power in sorted(orders):
        for order in orders[power]:
            if not isinstance(order, MOVEMENT_ORDERS):
                ignored.append((power, order, Problem("not_movement_phase", order=order.text())))
                continue
            prov = _province(order.unit.region)
            i = at.get(prov)
            if i is None:
                ignored.append((power, order, Problem("no_unit", prov=prov)))
                continue
            owner = plans[i].unit.power
            if owner != power:
                whose = board.gmap.power_value(owner)
                ignored.append((power, order, Problem("not_yours", prov=prov, whose=whose)))
                continue
            known = given.get(i)
            if known is None:
                given[i] = [order]
            elif order not in known:
                known.append(order)
    return given, ignored


# -- retreats ----------------------------------------------------------------------------


def retreat_problem(
    gmap: ClassicMap,
    d: Dislodged,
    dest: str,
    occupied: set[str],
    contested: set[str],
) -> tuple[Problem | None, str]:
    """Why ``d`` cannot retreat to ``dest`` (None if it can), and the region it would
    reach (its coast resolved as for a move)."""
    prov = province_of(dest)
    if prov not in gmap.provinces:
        return Problem("no_province", prov=prov), dest
    region = prov
    if d.kind is Kind.ARMY:
        if gmap.is_sea(prov) or not gmap.army_adjacent(d.region, prov):
            return Problem("army_cannot_move", region=d.region, prov=prov), dest
    else:
        reachable = gmap.fleet_targets(d.region, prov)
        if "/" in dest:
            if dest not in reachable:
                return Problem("fleet_cannot_reach", region=d.region, prov=dest), dest
            region = dest
        elif len(reachable) != 1:
            if reachable:
                return Problem("coast_needed", prov=prov, coasts=tuple(reachable)), dest
            return Problem("fleet_cannot_reach", region=d.region, prov=prov), dest
        else:
            region = reachable[0]
    if prov in occupied:
        return Problem("occupied", prov=prov), region
    if prov == d.attacker_from and not d.by_convoy:
        return Problem("attacker_came_from", prov=prov), region
    if prov in contested:
        return Problem("standoff", prov=prov), region
    return None, region
