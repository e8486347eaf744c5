"""The classic variant's rules for an order, in one place: legality against the
position alone (DATC 4.E.1: an illegal order is ignored and the unit holds),
coasts (4.B), convoy routes (through ``moonshine.routes``, the one carrier-chain
search), where a dislodged unit may retreat, and the rule choices of the decision
core (``CLASSIC``). The movement and retreat phases (``moonshine.classic.movement``,
``moonshine.classic.retreats``) call these functions; so would an order checker
for the classic variant."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType

from moonshine import routes
from moonshine.classic.board import ClassicMap, Kind, province_of
from moonshine.classic.orders import (
    Convoy,
    Hold,
    Move,
    Order,
    OrderError,
    SupportHold,
    SupportMove,
    notation,
    parse_order,
)
from moonshine.classic.state import Dislodged, Unit
from moonshine.outcome import Void
from moonshine.records import dataclass, field
from moonshine.resolver import Act, Rulebook
from moonshine.text import Message, say

CLASSIC = Rulebook(
    strengths=MappingProxyType({"A": 1, "F": 1}),
    stacking=False,
    support_adds_supporter_strength=False,
    carried_kinds=frozenset({"A"}),
    carrier_kinds=frozenset({"F"}),
)

MOVEMENT_ORDERS = (Hold, Move, SupportHold, SupportMove, Convoy)

# -- what is wrong with an order: a value, worded in each language from one catalogue ------

# key -> {language: template}; the templates' fields are the Problem's values (a tuple of
# coasts is joined with "or" / "ou").
PROBLEMS: dict[str, dict[str, str]] = {
    "no_province": {"en": "no province {prov} on the map", "fr": "pas de province {prov} sur la carte"},
    "already_there": {"en": "{unit} is already in {prov}", "fr": "{unit} est déjà en {prov}"},
    "army_sea": {"en": "an army cannot enter the sea ({name})", "fr": "une armée ne peut pas entrer en mer ({name})"},
    "no_convoy_chain": {
        "en": "no chain of fleets at sea could convoy it from {origin} to {prov}",
        "fr": "aucune chaîne de flottes en mer ne peut la convoyer de {origin} à {prov}",
    },
    "not_next": {
        "en": "{prov} is not next to {origin}, and no chain of fleets at sea could convoy it there",
        "fr": "{prov} n'est pas voisine de {origin}, et aucune chaîne de flottes en mer ne peut l'y convoyer",
    },
    "only_armies_convoyed": {"en": "only armies can be convoyed", "fr": "seules les armées peuvent être convoyées"},
    "no_coast": {"en": "{prov} has no coast {coast}", "fr": "{prov} n'a pas de côte {coast}"},
    "fleet_cannot_reach": {
        "en": "a fleet in {region} cannot reach {prov}",
        "fr": "une flotte en {region} ne peut pas atteindre {prov}",
    },
    "fleet_inland": {
        "en": "a fleet cannot enter the inland province {name}",
        "fr": "une flotte ne peut pas entrer dans la province intérieure {name}",
    },
    "coast_needed": {
        "en": "the coast of {prov} must be given ({coasts})",
        "fr": "il faut préciser la côte de {prov} ({coasts})",
    },
    "no_unit_to_support": {"en": "there is no unit in {prov} to support", "fr": "aucune unité à soutenir en {prov}"},
    "support_itself": {"en": "a unit cannot support itself", "fr": "une unité ne peut pas se soutenir elle-même"},
    "cannot_support_there": {
        "en": "{unit} could not move to {prov}, so it cannot support there",
        "fr": "{unit} ne pourrait pas aller en {prov}, elle ne peut donc pas y soutenir",
    },
    "support_into_own": {
        "en": "a unit cannot support a move into its own province {prov}",
        "fr": "une unité ne peut pas soutenir un mouvement vers sa propre province {prov}",
    },
    "move_to_own": {
        "en": "{prov} cannot move to its own province",
        "fr": "{prov} ne peut pas aller dans sa propre province",
    },
    "supported_army_sea": {
        "en": "the army in {prov} cannot enter the sea",
        "fr": "l'armée en {prov} ne peut pas entrer en mer",
    },
    "supported_army_cannot_reach": {
        "en": "the army in {origin} could not reach {prov}, even by convoy (without this unit)",
        "fr": "l'armée en {origin} ne pourrait pas atteindre {prov}, même par convoi (sans cette unité)",
    },
    "supported_fleet_cannot_reach": {
        "en": "the fleet in {region} cannot reach {prov}",
        "fr": "la flotte en {region} ne peut pas atteindre {prov}",
    },
    "convoy_at_sea": {"en": "only a fleet at sea can convoy", "fr": "seule une flotte en mer peut convoyer"},
    "no_unit_to_convoy": {"en": "there is no unit in {prov} to convoy", "fr": "aucune unité à convoyer en {prov}"},
    "no_convoy_route": {
        "en": "the fleet is on no convoy route from {origin} to {prov}",
        "fr": "la flotte n'est sur aucune route de convoi de {origin} à {prov}",
    },
    "not_movement_phase": {
        "en": "{order} is not an order of the movement phase",
        "fr": "{order} n'est pas un ordre de la phase de mouvement",
    },
    "not_movement": {"en": "{order} is not a movement order", "fr": "{order} n'est pas un ordre de mouvement"},
    "not_retreat": {
        "en": "{order} is not a retreat or a disband; only those exist in the retreat phase",
        "fr": "{order} n'est ni une retraite ni une dissolution, seuls ordres de la phase de retraite",
    },
    "not_adjustment": {
        "en": "{order} is not an adjustment order (build, disband or waive)",
        "fr": "{order} n'est pas un ordre d'ajustement (construction, dissolution ou renonciation)",
    },
    "several_orders": {
        "en": "several different orders for this unit: {orders}",
        "fr": "plusieurs ordres différents pour cette unité : {orders}",
    },
    "army_cannot_move": {
        "en": "an army in {region} cannot move to {prov}",
        "fr": "une armée en {region} ne peut pas aller en {prov}",
    },
    "occupied": {"en": "{prov} is occupied", "fr": "{prov} est occupée"},
    "attacker_came_from": {"en": "the attacker came from {prov}", "fr": "l'attaquant venait de {prov}"},
    "standoff": {"en": "{prov} was left empty by a standoff", "fr": "{prov} est restée vide après un affrontement"},
    "retreat_by_convoy": {"en": "a retreat cannot go by convoy", "fr": "une retraite ne peut pas passer par convoi"},
    "no_unit": {"en": "there is no unit in {prov}", "fr": "il n'y a pas d'unité en {prov}"},
    "not_yours": {"en": "the unit in {prov} is {whose}'s", "fr": "l'unité en {prov} appartient à : {whose}"},
    "no_dislodged": {
        "en": "no dislodged unit of this power in {prov}",
        "fr": "aucune unité délogée de cette puissance en {prov}",
    },
    "not_home": {
        "en": "{prov} is not a home supply centre of {power}",
        "fr": "{prov} n'est pas un centre d'origine de : {power}",
    },
    "not_owned": {"en": "{power} does not own {prov} now", "fr": "{power} ne possède pas {prov} à présent"},
    "not_empty": {"en": "{prov} is not empty", "fr": "{prov} n'est pas vide"},
    "build_fleet_inland": {
        "en": "a fleet cannot be built in the inland province {name}",
        "fr": "une flotte ne peut pas être construite dans la province intérieure {name}",
    },
    "build_coast_needed": {"en": "the coast must be given ({coasts})", "fr": "il faut préciser la côte ({coasts})"},
    "no_build": {
        "en": "no build: {power} has {centres} centres for {units} units",
        "fr": "pas de construction : {power} a {centres} centres pour {units} unités",
    },
    "no_build_left": {
        "en": "no build left: {power} may build {n}",
        "fr": "plus de construction possible : {power} peut construire {n}",
    },
    "no_disband": {
        "en": "no disband due: {power} has {centres} centres for {units} units",
        "fr": "aucune dissolution due : {power} a {centres} centres pour {units} unités",
    },
    "no_disband_left": {
        "en": "no disband left: {power} must disband {n}",
        "fr": "plus de dissolution due : {power} doit dissoudre {n}",
    },
    "already_disbanded": {"en": "{unit} is already disbanded", "fr": "{unit} est déjà dissoute"},
    "no_power_unit": {"en": "no unit of {power} in {prov}", "fr": "aucune unité de {power} en {prov}"},
}
_OR = {"en": " or ", "fr": " ou "}


@dataclass(frozen=True)
class Problem:
    """Why an order cannot be carried out: a key of ``PROBLEMS`` and its values.
    ``str()`` is the English sentence; ``text(language)`` any language's."""

    key: str
    values: tuple[tuple[str, str | int | tuple[str, ...]], ...] = ()

    def __init__(self, key: str, **values: str | int | tuple[str, ...]) -> None:
        if key not in PROBLEMS:
            raise KeyError(key)
        object.__setattr__(self, "key", key)
        object.__setattr__(self, "values", tuple(sorted(values.items())))

    def text(self, language: str = "en") -> str:
        template = PROBLEMS[self.key].get(language) or PROBLEMS[self.key]["en"]
        words = {k: _OR.get(language, " or ").join(v) if isinstance(v, tuple) else v for k, v in self.values}
        if isinstance(words.get("order"), str):  # an order, in the reader's notation
            words["order"] = _in_notation(str(words["order"]), language)
        return template.format(**words)

    def __str__(self) -> str:
        return self.text("en")

    def message(self) -> Message:
        """The problem as a message of the catalogue (``moonshine.outcome`` stores it):
        the template's English is its key; a list of coasts is joined with "or"."""

        def value(v: str | int | tuple[str, ...]) -> object:
            if not isinstance(v, tuple) or len(v) < 2:
                return " or ".join(v) if isinstance(v, tuple) else v
            return say("{a} or {b}", "{a} ou {b}", a=", ".join(v[:-1]), b=v[-1])

        def order(v: str | int | tuple[str, ...]) -> object:
            return Message(str(v), _in_notation(str(v), "fr")) if isinstance(v, str) else value(v)

        t = PROBLEMS[self.key]
        return Message(t["en"], t["fr"], tuple((k, order(v) if k == "order" else value(v)) for k, v in self.values))


def _in_notation(text: str, language: str) -> str:
    """An order's standard text in the notation of ``language`` (``orders.notation``)."""
    try:
        return notation(parse_order(text), language)
    except OrderError:
        return text


@dataclass
class Plan:
    unit: Unit
    order: Order | None = None  # the order carried out (None: hold)
    given: Order | None = None
    problem: Problem | None = None  # why the order is illegal (the unit holds)
    dest: str = ""  # a move's region (its coast resolved), a support's or convoy's province
    target: int = -1
    convoyed: bool = False
    void: Void | None = None  # a support whose coast does not match the move
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


def _move_problem(board: Board, p: Plan, order: Move) -> Problem | None:
    g, u = board.gmap, p.unit
    dest_prov = order.dest.split("/", 1)[0]
    if dest_prov not in g.provinces:
        return Problem("no_province", prov=dest_prov)
    if dest_prov == u.province:
        return Problem("already_there", unit=u.label(), prov=dest_prov)
    if u.kind is Kind.ARMY:
        if g.is_sea(dest_prov):
            return Problem("army_sea", name=g.name(dest_prov))
        p.dest = dest_prov  # a coast in an army's order is ignored (DATC 4.B.6)
        adjacent = g.army_adjacent(u.region, dest_prov)
        if adjacent and not order.via_convoy:
            return None
        if board.route_possible(u.province, dest_prov, board.fleet_seas):
            p.convoyed = True
            return None
        if order.via_convoy:
            return Problem("no_convoy_chain", origin=u.province, prov=dest_prov)
        return Problem("not_next", prov=dest_prov, origin=u.province)
    if order.via_convoy:
        return Problem("only_armies_convoyed")
    reachable = g.fleet_targets(u.region, dest_prov)
    if "/" in order.dest:
        if order.dest not in g.regions:
            return Problem("no_coast", prov=dest_prov, coast=order.dest.split("/", 1)[1])
        if order.dest not in reachable:
            return Problem("fleet_cannot_reach", region=u.region, prov=order.dest)
        p.dest = order.dest
        return None
    if not reachable:
        if not g.fleet_regions(dest_prov):
            return Problem("fleet_inland", name=g.name(dest_prov))
        return Problem("fleet_cannot_reach", region=u.region, prov=dest_prov)
    if len(reachable) > 1:
        return Problem("coast_needed", prov=dest_prov, coasts=tuple(reachable))
    p.dest = reachable[0]  # the only coast it can reach (DATC 4.B.2)
    return None


def _support_problem(board: Board, i: int, order: SupportHold | SupportMove) -> Problem | None:
    g = board.gmap
    p = board.plans[i]
    tprov = order.target.province
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
    dest_prov = order.dest.split("/", 1)[0]
    if dest_prov not in g.provinces:
        return Problem("no_province", prov=dest_prov)
    if dest_prov == p.unit.province:
        return Problem("support_into_own", prov=dest_prov)
    if dest_prov == tprov:
        return Problem("move_to_own", prov=tprov)
    if not board.reaches(i, dest_prov):
        return Problem("cannot_support_there", unit=p.unit.label(), prov=dest_prov)
    t = board.plans[j].unit
    if t.kind is Kind.ARMY:
        if g.is_sea(dest_prov):
            return Problem("supported_army_sea", prov=tprov)
        if not g.army_adjacent(t.region, dest_prov) and not board.route_possible(
            tprov, dest_prov, board.fleet_seas - {p.unit.province}
        ):
            return Problem("supported_army_cannot_reach", origin=tprov, prov=dest_prov)
    else:
        reachable = g.fleet_targets(t.region, dest_prov)
        if "/" in order.dest:
            if order.dest not in reachable:
                return Problem("supported_fleet_cannot_reach", region=t.region, prov=order.dest)
        elif not reachable:
            return Problem("supported_fleet_cannot_reach", region=t.region, prov=dest_prov)
    p.dest = dest_prov
    return None


def _convoy_problem(board: Board, i: int, order: Convoy) -> Problem | None:
    g = board.gmap
    p = board.plans[i]
    if p.unit.kind is not Kind.FLEET or not g.is_sea(p.unit.province):
        return Problem("convoy_at_sea")
    tprov = order.target.province
    j = board.at.get(tprov)
    if j is None:
        return Problem("no_unit_to_convoy", prov=tprov)
    if board.plans[j].unit.kind is not Kind.ARMY:
        return Problem("only_armies_convoyed")
    dest_prov = order.dest.split("/", 1)[0]
    if dest_prov not in g.provinces:
        return Problem("no_province", prov=dest_prov)
    p.target = j
    p.dest = dest_prov
    if not board.necessary(p.unit.province, tprov, dest_prov):
        return Problem("no_convoy_route", origin=tprov, prov=dest_prov)
    return None


def problem(board: Board, i: int, order: Order) -> Problem | None:
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
    return Problem("not_movement", order=order.text())


def assign(
    board: Board, orders: Mapping[str, Sequence[Order]]
) -> tuple[dict[int, list[Order]], list[tuple[str, Order, Problem]]]:
    given: dict[int, list[Order]] = {}
    ignored: list[tuple[str, Order, Problem]] = []
    for power in sorted(orders):
        for order in orders[power]:
            if not isinstance(order, MOVEMENT_ORDERS):
                ignored.append((power, order, Problem("not_movement_phase", order=order.text())))
                continue
            i = board.at.get(order.unit.province)
            if i is None:
                ignored.append((power, order, Problem("no_unit", prov=order.unit.province)))
                continue
            owner = board.plans[i].unit.power
            if owner != power:
                whose = board.gmap.powers.get(owner, owner)
                ignored.append((power, order, Problem("not_yours", prov=order.unit.province, whose=whose)))
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
