"""Movement and retreats (R4 to R12): a pure function from the map, the state and the
checked orders to an outcome in which every order has a result and a reason a
player can read.

The work is done in three steps:

1. *Sort out* the orders (``_plan``): an order that is still impossible (no such
   unit, not adjacent, an L assaulting...) becomes a hold with a reason; a move of
   an H is settled as over the border or by transport (R10, DATC 4.A.3).
2. *Decide* (``moonshine.resolver``): the DATC's decisions, generalised to
   strengths and stacks.
3. *Report*: results and reasons, dislodgements and advance retreats (R7), assaults
   on police stations (R11), the units' new positions.

No I/O here.
"""

from __future__ import annotations

import dataclasses
import gc
import itertools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType

from moonshine.geo import District, GameMap, UnitKind
from moonshine.orders import (
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
from moonshine.resolver import Act, ActKind, Backup, Piece, Resolver, Rulebook
from moonshine.state import GameState, Unit

MOONSHINE = Rulebook(
    name="moonshine",
    strengths=MappingProxyType({"L": UnitKind.L.strength, "H": UnitKind.H.strength}),
    reach=MappingProxyType({"L": 2, "H": 1}),
    stacking=True,
    support_adds_supporter_strength=True,
    carried_kinds=frozenset({"H"}),
    carrier_kinds=frozenset({"L"}),
    assault_kinds=frozenset({"H"}),
)

NO_RETREATS: Mapping[UnitRef, Retreat] = MappingProxyType({})
_HOLD_ACT = Act()
_L = UnitKind.L


def _kind(kind: UnitKind) -> str:
    """A unit kind as the rulebook names it (without the enum's slow ``.value``)."""
    return "L" if kind is _L else "H"


_MOVE, _CONVOY, _ASSAULT = ActKind.MOVE, ActKind.CONVOY, ActKind.ASSAULT
_SUPPORT_HOLD, _SUPPORT_MOVE, _SUPPORT_ASSAULT = ActKind.SUPPORT_HOLD, ActKind.SUPPORT_MOVE, ActKind.SUPPORT_ASSAULT


class ResultCode(StrEnum):
    """What happened to an order, for machines (the reason says it for people)."""

    HELD = "held"  # a hold (or no order): the unit stays
    NEW = "new"  # recruited this turn: holds (R18)
    MOVED = "moved"
    BOUNCED = "bounced"  # a move stopped by a stronger or equal force
    BLOCKED = "blocked"  # a move stopped by the gang's own unit (R6)
    NO_ROUTE = "no route"  # a transported move whose route failed (R10)
    SUPPORTED = "supported"
    CUT = "cut"  # a support cut by an attack or by the supporter's dislodgement (R9)
    TRANSPORTED = "transported"  # the carrier kept its place in the route
    VOID = "void"  # a support or transport that matches no order of its target
    PARADOX = "paradox"  # decided by the backup rule (Szykman for transports)
    ASSAULTED = "assaulted"  # the station fell (R11)
    REPULSED = "repulsed"  # the station held, or a rival assault stood it off
    DISLODGED = "dislodged"  # a unit that stayed and was dislodged
    REJECTED = "rejected"  # an impossible order: the unit held (R12)


@dataclass(frozen=True, slots=True)
class OrderResult:
    order: UnitOrder  # the order as resolved (a rejected order becomes a hold)
    gang: str
    succeeded: bool  # the order as given was carried out
    reason: str
    code: ResultCode
    given: UnitOrder | None = None  # the order as given (None: the unit had no order)


@dataclass(frozen=True, slots=True)
class Dislodgement:
    unit: UnitRef
    gang: str
    by: str  # the text of the (strongest) dislodging move
    retreated_to: str | None
    disbanded: bool
    reason: str


@dataclass(frozen=True, slots=True)
class AssaultResult:
    gang: str
    unit: UnitRef
    station: str  # the station's district
    strength: int
    needed: int  # the station's strength: the attack must be greater (R11)
    succeeded: bool
    reason: str


@dataclass(frozen=True)
class Outcome:
    results: dict[UnitRef, OrderResult]  # every unit on the board, by starting position
    dislodged: dict[UnitRef, Dislodgement]
    assaults: list[AssaultResult]
    units: list[Unit]  # positions after movement and retreats, in map order
    ignored: dict[UnitRef, str] = dataclasses.field(default_factory=dict)  # orders for no unit on the board

    def moved_to(self, unit: UnitRef) -> str | None:
        """Where the unit moved, or None if it did not move."""
        res = self.results.get(unit)
        if res is not None and isinstance(res.order, Move) and res.succeeded:
            return res.order.dest
        return None

    def final_district(self, unit: UnitRef) -> str | None:
        """Where the unit stands after movement and retreats (None: disbanded)."""
        d = self.dislodged.get(unit)
        if d is not None:
            return d.retreated_to
        if unit not in self.results:
            return None
        return self.moved_to(unit) or unit.district

    def succeeded(self, unit: UnitRef) -> bool:
        return self.results[unit].succeeded


# -- step 1: sorting out the orders ---------------------------------------------------


@dataclass(slots=True)
class _Plan:
    ref: UnitRef
    unit: Unit
    given: UnitOrder | None
    order: UnitOrder | None  # the order to carry out; None: hold
    rejected: str | None = None
    act: Act = _HOLD_ACT
    kind: str = ""  # the unit's kind as the rulebook names it ("L", "H")


class _Board:
    """The units on the board, in map order, with their plans."""

    def __init__(self, gmap: GameMap, st: GameState, rules: Rulebook) -> None:
        self.gmap = gmap
        self.rules = rules
        districts = gmap.districts
        units = sorted(
            (u for u in st.units if u.district in districts),
            key=lambda u: (districts[u.district].area, u.district, u.kind),
        )
        self.index: dict[UnitRef, int] = {}
        self.plans: list[_Plan] = []
        # Units a valid state never has (off the map, or a second unit of one kind in
        # a district): kept as they are, outside the adjudication.
        self.strays = [u for u in st.units if u.district not in districts]
        for u in units:
            ref = UnitRef(u.kind, u.district)
            if ref in self.index:
                self.strays.append(u)
                continue
            self.index[ref] = len(self.plans)
            self.plans.append(_Plan(ref, u, None, None, kind=_kind(u.kind)))
        self._carriers: set[str] | None = None

    def carrier_districts(self) -> set[str]:
        """Districts holding a unit of a kind that can transport."""
        if self._carriers is None:
            self._carriers = {p.ref.district for p in self.plans if p.kind in self.rules.carrier_kinds}
        return self._carriers

    def unit(self, ref: UnitRef) -> Unit | None:
        i = self.index.get(ref)
        return None if i is None else self.plans[i].unit


class _Neighbours(Mapping[str, tuple[str, ...]]):
    """The map's neighbours as the resolver reads them, without copying the map."""

    def __init__(self, districts: Mapping[str, District]) -> None:
        self._districts = districts

    def __getitem__(self, code: str) -> tuple[str, ...]:
        return self._districts[code].neighbours

    def __iter__(self) -> Iterator[str]:
        return iter(self._districts)

    def __len__(self) -> int:
        return len(self._districts)


def _reach(gmap: GameMap, code: str, steps: int) -> set[str]:
    """Districts within ``steps`` moves of ``code`` (not itself)."""
    seen = {code}
    frontier = {code}
    for _ in range(steps):
        frontier = {n for c in frontier for n in gmap.neighbours(c)} - seen
        seen |= frontier
    seen.discard(code)
    return seen


def _static_problem(order: UnitOrder, p: _Plan, board: _Board) -> str | None:
    """Why an order cannot be carried out whatever the others do (R12), or None."""
    gmap, rules = board.gmap, board.rules
    ref, here = p.ref, p.ref.district
    kind = p.kind
    if order.unit is not ref and order.unit != ref:
        return f"the order is for {order.unit.text()}, not {ref.text()}"
    for code in _codes_of(order):
        if code not in gmap.districts:
            return f"no district {code} on the map"
    if isinstance(order, Hold):
        return None
    if isinstance(order, Move):
        if order.dest == here:
            return f"{ref.text()} already stands in {here}"
        if order.via and order.path:
            return "a move names a path (an L's) or carriers (an H's), not both"
        if order.via:
            if kind not in rules.carried_kinds:
                return f"only an {_kinds(rules.carried_kinds)} can be transported (R10)"
            chain = (here, *order.via, order.dest)
            if len(set(chain)) != len(chain):
                return f"the route {' - '.join(chain)} passes a district twice"
            for a, b in itertools.pairwise(chain):
                if not gmap.adjacent(a, b):
                    return f"the route {' - '.join(chain)} is broken: {b} is not next to {a}"
            return None
        if order.path:
            steps = (here, *order.path, order.dest)
            if len(order.path) + 1 > rules.reach[kind]:
                return f"an {kind} moves {_steps(rules.reach[kind])} (R8)"
            if len(set(steps)) != len(steps):
                return f"the path {' - '.join(steps)} passes a district twice"
            for a, b in itertools.pairwise(steps):
                if not gmap.adjacent(a, b):
                    return f"the path {' - '.join(steps)} is broken: {b} is not next to {a}"
            return None
        if gmap.adjacent(here, order.dest) or order.dest in _reach(gmap, here, rules.reach[kind]):
            return None
        if kind in rules.carried_kinds:
            return None  # perhaps by transport: settled once the transports are known
        return f"{order.dest} is more than {_steps(rules.reach[kind])} from {here} (R8)"
    if isinstance(order, (SupportHold, SupportMove, SupportAssault)):
        target = board.unit(order.target)
        if target is None:
            return f"no {order.target.text()} on the board to support"
        if order.target == ref:
            return "a unit cannot support itself"
        if isinstance(order, SupportHold):
            if order.target.district == here:
                return f"a unit already counts in the hold of its own district {here} (R9)"
            if not gmap.adjacent(here, order.target.district):
                return f"{order.target.district} is not next to {here} (R9)"
            return None
        if isinstance(order, SupportMove):
            if order.dest == here:
                return f"a unit cannot support a move into its own district {here} (R9)"
            if not gmap.adjacent(here, order.dest):
                return f"{order.dest} is not next to {here} (R9)"
            return None
        if gmap.districts[order.station].station is None:
            return f"there is no police station in {order.station}"
        if order.station != here and not gmap.adjacent(here, order.station):
            return f"the station in {order.station} is neither in nor next to {here} (R9)"
        return None
    if isinstance(order, Assault):
        if kind not in rules.assault_kinds:
            return f"only an {_kinds(rules.assault_kinds)} can assault a police station (R11)"
        if gmap.districts[order.station].station is None:
            return f"there is no police station in {order.station}"
        if order.station != here and not gmap.adjacent(here, order.station):
            return f"the station in {order.station} is neither in nor next to {here} (R11)"
        return None
    # Transport
    if kind not in rules.carrier_kinds:
        return f"only an {_kinds(rules.carrier_kinds)} can transport (R10)"
    if board.unit(order.target) is None:
        return f"no {order.target.text()} on the board to transport"
    if _kind(order.target.kind) not in rules.carried_kinds:
        return f"only an {_kinds(rules.carried_kinds)} can be transported (R10)"
    if here in (order.target.district, order.dest):
        return "a carrier cannot carry a unit from or into its own district (R10)"
    return None


def _codes_of(order: UnitOrder) -> tuple[str, ...]:
    if isinstance(order, Move):
        return (order.dest, *order.path, *order.via)
    if isinstance(order, SupportMove):
        return (order.dest,)
    if isinstance(order, (SupportAssault, Assault)):
        return (order.station,)
    if isinstance(order, Transport):
        return (order.dest,)
    return ()


def _kinds(kinds: frozenset[str]) -> str:
    return " or ".join(sorted(kinds))


def _steps(n: int) -> str:
    return "one district" if n == 1 else f"{n} districts"


def _carrier_chain(gmap: GameMap, origin: str, dest: str, carriers: set[str]) -> bool:
    """Is there a chain of carriers' districts from next to ``origin`` to next to ``dest``?"""
    seen: set[str] = set()
    stack = [d for d in gmap.neighbours(origin) if d in carriers]
    while stack:
        d = stack.pop()
        if d in seen:
            continue
        seen.add(d)
        if gmap.adjacent(d, dest):
            return True
        stack.extend(n for n in gmap.neighbours(d) if n in carriers and n not in seen)
    return False


def _plan(board: _Board, st: GameState, orders: Mapping[UnitRef, UnitOrder]) -> dict[UnitRef, str]:
    """Give every unit its order and act; return the orders for units not on the board."""
    gmap, rules = board.gmap, board.rules
    ignored: dict[UnitRef, str] = {}
    for ref, order in orders.items():
        i = board.index.get(ref)
        if i is None:
            ignored[ref] = f"{order.text()}: no {ref.text()} on the board"
            continue
        p = board.plans[i]
        p.given = order
        if p.unit.recruited and p.unit.recruited == st.turn:
            p.rejected = "a unit recruited this turn holds (R18)"
            continue
        problem = _static_problem(order, p, board)
        if problem is not None:
            p.rejected = problem
            continue
        p.order = order
    # Transports offered, by (carried unit, destination): carriers' districts and gangs.
    offered: dict[tuple[UnitRef, str], dict[str, str]] = {}
    for p in board.plans:
        if isinstance(p.order, Transport):
            offered.setdefault((p.order.target, p.order.dest), {})[p.ref.district] = p.unit.gang
    index = board.index
    for p in board.plans:
        planned = p.order
        here = p.ref.district
        if isinstance(planned, Move):
            order = planned
            if order.via:
                p.act = Act(ActKind.MOVE, dest=order.dest, direct=False, convoyed=True, route=order.via)
                continue
            if order.path or p.kind not in rules.carried_kinds:
                direct = not order.path and gmap.adjacent(here, order.dest)
                p.act = Act(ActKind.MOVE, dest=order.dest, direct=direct)
                continue
            carriers = offered.get((p.ref, order.dest), {})
            chain = _carrier_chain(gmap, here, order.dest, set(carriers))
            if gmap.adjacent(here, order.dest):
                own = any(g == p.unit.gang for g in carriers.values())
                by_transport = chain and own and rules.own_carrier_means_transport
                p.act = Act(ActKind.MOVE, dest=order.dest, direct=not by_transport, convoyed=by_transport)
            elif chain or _carrier_chain(gmap, here, order.dest, board.carrier_districts()):
                # A route of carriers exists on the board, ordered or not: the move is
                # possible, and fails when they do not carry it (DATC 6.D.8, 6.D.32).
                p.act = Act(ActKind.MOVE, dest=order.dest, direct=False, convoyed=True)
            else:
                p.rejected = (
                    f"{order.dest} is not next to {here}, and no {_kinds(rules.carrier_kinds)} "
                    f"stands on a way to carry {p.ref.text()} there (R8, R10)"
                )
                p.order = None
        elif isinstance(planned, SupportHold):
            p.act = Act(ActKind.SUPPORT_HOLD, target=index[planned.target])
        elif isinstance(planned, SupportMove):
            p.act = Act(ActKind.SUPPORT_MOVE, target=index[planned.target], dest=planned.dest)
        elif isinstance(planned, SupportAssault):
            p.act = Act(ActKind.SUPPORT_ASSAULT, target=index[planned.target], dest=planned.station)
        elif isinstance(planned, Assault):
            p.act = Act(ActKind.ASSAULT, dest=planned.station)
        elif isinstance(planned, Transport):
            p.act = Act(ActKind.CONVOY, target=index[planned.target], dest=planned.dest)
    for p in board.plans:
        if p.rejected is not None:
            p.order = None
            p.act = _HOLD_ACT
    return ignored


# -- the public function --------------------------------------------------------------


def adjudicate(
    gmap: GameMap,
    st: GameState,
    orders: Mapping[UnitRef, UnitOrder],
    retreats: Mapping[UnitRef, Retreat] = NO_RETREATS,
    *,
    rules: Rulebook = MOONSHINE,
) -> Outcome:
    """Resolve one turn's movement and the advance retreats (R4 to R12).

    ``st.units`` are the units on the board; units without an order hold; an
    impossible order becomes a hold with its reason. ``st.corruption`` gives the
    strength of each station against each gang (R11)."""
    # The cyclic garbage collector is paused for the turn: the adjudication makes no
    # reference cycles (no object refers back to its owner, no nested function calls
    # itself, no exception is kept), so every object it drops is freed by reference
    # counting, and a collection would only walk the caller's objects, more of them
    # the bigger the board. The collector's previous state is restored.
    paused = gc.isenabled()
    gc.disable()
    try:
        board = _Board(gmap, st, rules)
        ignored = _plan(board, st, orders)
        core = _decide(gmap, board, rules)
        return _Report(gmap, st, board, core).outcome(ignored, retreats)
    finally:
        if paused:
            gc.enable()


def decisions(
    gmap: GameMap, st: GameState, orders: Mapping[UnitRef, UnitOrder], *, rules: Rulebook = MOONSHINE
) -> Resolver:
    """The resolved decision core of a turn, for inspection and tests (``adjudicate``
    is the function to call)."""
    board = _Board(gmap, st, rules)
    _plan(board, st, orders)
    return _decide(gmap, board, rules)


def _decide(gmap: GameMap, board: _Board, rules: Rulebook) -> Resolver:
    pieces = [Piece(p.unit.gang, p.kind, p.ref.district, rules.strengths[p.kind]) for p in board.plans]
    neighbours = _Neighbours(gmap.districts)
    return Resolver(rules, pieces, [p.act for p in board.plans], neighbours).run()


# -- step 3: the report -----------------------------------------------------------------


class _Report:
    def __init__(self, gmap: GameMap, st: GameState, board: _Board, core: Resolver) -> None:
        self.gmap = gmap
        self.st = st
        self.board = board
        self.plans = board.plans
        self.core = core
        self.rules = core.rules
        n = len(self.plans)
        self.dislodgers = [core.dislodgers(i) for i in range(n)]
        self.final = [
            self.plans[i].act.dest if core.acts[i].kind is _MOVE and core.succeeded(i) else self.plans[i].ref.district
            for i in range(n)
        ]

    def label(self, i: int) -> str:
        return self.plans[i].ref.text()

    def labels(self, ids: list[int]) -> str:
        return ", ".join(sorted(self.label(i) for i in ids))

    def dislodged_by(self, i: int) -> int:
        """The strongest of the moves that dislodged piece i."""
        ds = self.dislodgers[i]
        return max(ds, key=lambda m: (self.core.attack(m), m))

    def by_text(self, i: int) -> str:
        return self.order(self.dislodged_by(i)).text()

    def order(self, i: int) -> UnitOrder:
        """The order piece i carried out (a hold when it had none, or an impossible one)."""
        p = self.plans[i]
        return p.order or Hold(p.ref)

    # -- results --------------------------------------------------------------------
    def outcome(self, ignored: dict[UnitRef, str], retreats: Mapping[UnitRef, Retreat]) -> Outcome:
        results: dict[UnitRef, OrderResult] = {}
        for i, p in enumerate(self.plans):
            succeeded, code, reason = self.result(i)
            results[p.ref] = OrderResult(self.order(i), p.unit.gang, succeeded, reason, code, p.given)
        assaults = self.assaults()
        for a in assaults:
            i = self.board.index[a.unit]
            if not self.dislodgers[i]:
                p = self.plans[i]
                code = ResultCode.ASSAULTED if a.succeeded else ResultCode.REPULSED
                results[p.ref] = OrderResult(self.order(i), p.unit.gang, a.succeeded, a.reason, code, p.given)
        dislodged, units = self.retreats(retreats)
        return Outcome(results, dislodged, assaults, units, dict(sorted(ignored.items())))

    def result(self, i: int) -> tuple[bool, ResultCode, str]:
        p = self.plans[i]
        core = self.core
        kind = core.acts[i].kind
        if p.rejected is not None:
            if self.dislodgers[i]:
                return False, ResultCode.REJECTED, f"rejected: {p.rejected}; dislodged by {self.by_text(i)}"
            return False, ResultCode.REJECTED, f"rejected: {p.rejected}; it held"
        if kind is _MOVE:
            ok, code, reason = self.move_result(i)
            if self.dislodgers[i]:
                reason += f"; dislodged by {self.by_text(i)}"
            return ok, code, reason
        if kind in (_SUPPORT_HOLD, _SUPPORT_MOVE, _SUPPORT_ASSAULT):
            return self.support_result(i)
        if kind is _CONVOY:
            return self.transport_result(i)
        if self.dislodgers[i]:
            return False, ResultCode.DISLODGED, f"dislodged by {self.by_text(i)}"
        if kind is _ASSAULT:
            return True, ResultCode.HELD, "assaulted"  # replaced by the assault's own result
        if p.unit.recruited and p.unit.recruited == self.st.turn:
            return True, ResultCode.NEW, "recruited this turn, it holds (R18)"
        attackers = [m for m in self.core.into.get(p.ref.district, []) if self.core.pieces[m].gang != p.unit.gang]
        if attackers:
            return True, ResultCode.HELD, f"held against {self.labels(attackers)}"
        return True, ResultCode.HELD, "held"

    def move_result(self, i: int) -> tuple[bool, ResultCode, str]:
        core = self.core
        act = core.acts[i]
        dest = act.dest
        if core.succeeded(i):
            reason = f"moved to {dest}"
            carried = self.carried_by(i)
            if carried:
                reason += f", carried by {self.labels(carried)}"
            beaten = [v for v in core.at.get(dest, []) if i in self.dislodgers[v]]
            if core.backup.get(i) is Backup.CIRCULAR:
                reason += " (circular movement)"
            elif beaten:
                reason += f", dislodging {self.labels(beaten)} ({core.attack(i)} vs {core.defence(i)})"
            else:
                opposed = max([core.defence(i), *(core.prevent(j) for j in core.rivals[i])])
                if opposed:
                    reason += f" ({core.attack(i)} vs {opposed})"
            return True, ResultCode.MOVED, reason
        if core.backup.get(i) is Backup.PARADOX:
            return False, ResultCode.PARADOX, "paradox: the orders contradict each other, the move fails (backup rule)"
        if not core.path(i):
            return False, ResultCode.NO_ROUTE, self.route_failure(i)
        blocker = core.own_blocker(i)
        if blocker is not None:
            if blocker in core.h2h[i]:
                return False, ResultCode.BLOCKED, f"blocked by own {self.label(blocker)} coming the other way"
            return False, ResultCode.BLOCKED, f"blocked by own {self.label(blocker)}, which stays in {dest}"
        attack = core.attack(i)
        defence = core.defence(i)
        gang = core.pieces[i].gang
        if attack <= defence:
            h2h = [v for v in core.h2h[i] if core.pieces[v].gang != gang]
            if h2h:
                return False, ResultCode.BOUNCED, f"lost head to head with {self.labels(h2h)} ({attack} vs {defence})"
            holders = [v for v in core.at.get(dest, []) if core.pieces[v].gang != gang and not core.leaves(v)]
            return False, ResultCode.BOUNCED, f"held off by {self.labels(holders)} ({attack} vs {defence})"
        rivals = [j for j in core.rivals[i] if core.prevent(j) >= attack]
        best = max(core.prevent(j) for j in rivals)
        return False, ResultCode.BOUNCED, f"bounced with {self.labels(rivals)} ({attack} vs {best})"

    def carried_by(self, i: int) -> list[int]:
        return sorted(self.on_route(i)) if self.core.acts[i].convoyed else []

    def on_route(self, i: int) -> set[int]:
        """The kept carriers of move i that lie on a route from its origin to its
        destination (linked to both through kept carriers)."""
        core = self.core
        act = core.acts[i]
        kept = {d: c for d, c in core.carriers[i].items() if core.succeeded(c)}
        if act.route is not None:
            return set(kept.values()) if all(d in kept for d in act.route) else set()

        def spread(start: str) -> set[str]:
            seen: set[str] = set()
            stack = [d for d in core.nb[start] if d in kept]
            while stack:
                d = stack.pop()
                if d not in seen:
                    seen.add(d)
                    stack.extend(x for x in core.nb[d] if x in kept and x not in seen)
            return seen

        both = spread(core.pieces[i].at) & spread(act.dest)
        return {kept[d] for d in both}

    def route_failure(self, i: int) -> str:
        core = self.core
        act = core.acts[i]
        carriers = core.carriers[i]
        if act.route is not None:
            missing = [d for d in act.route if d not in carriers]
            if missing:
                return f"no route: no {_kinds(self.rules.carrier_kinds)} in {', '.join(missing)} carries it"
        if not carriers:
            return f"no route: no {_kinds(self.rules.carrier_kinds)} is ordered to carry it to {act.dest}"
        paradox = sorted(self.label(c) for c in carriers.values() if core.backup.get(c) is Backup.SZYKMAN)
        if paradox:
            verb = "holds" if len(paradox) == 1 else "hold"
            return f"route broken: transport paradox, {', '.join(paradox)} {verb} (Szykman rule)"
        broken = [c for c in carriers.values() if self.dislodgers[c]]
        if broken:
            return f"route broken: {self.labels(broken)} dislodged"
        return "route broken: the carriers do not reach the destination"

    def support_result(self, i: int) -> tuple[bool, ResultCode, str]:
        core = self.core
        if core.void[i]:
            return False, ResultCode.VOID, self.void_reason(i)
        if core.backup.get(i) is Backup.PARADOX:
            return False, ResultCode.PARADOX, "paradox: the orders contradict each other, support fails (backup rule)"
        if core.succeeded(i):
            return True, ResultCode.SUPPORTED, f"support given (+{core.support_value(i)})"
        if self.dislodgers[i]:
            return False, ResultCode.CUT, f"support cut: dislodged by {self.by_text(i)}"
        cutters = [m for m in core.cutters(i) if core.path(m)]
        return False, ResultCode.CUT, f"support cut by {self.labels(cutters)}"

    def void_reason(self, i: int) -> str:
        order = self.plans[i].order
        if isinstance(order, SupportHold):
            return f"void: {order.target.text()} moves, and hold support only helps a unit that stays"
        if isinstance(order, SupportMove):
            target = self.plans[self.board.index[order.target]].order
            if isinstance(target, Move):
                return f"void: {order.target.text()} moves to {target.dest}, not {order.dest}"
            return f"void: {order.target.text()} does not move to {order.dest}"
        if isinstance(order, SupportAssault):
            return f"void: {order.target.text()} does not assault the station in {order.station}"
        if isinstance(order, Transport):
            j = self.board.index[order.target]
            target = self.plans[j].order
            act = self.core.acts[j]
            if not isinstance(target, Move) or target.dest != order.dest:
                return f"void: {order.target.text()} does not move to {order.dest}"
            if not act.convoyed:
                return f"void: {order.target.text()} goes over the border to {order.dest}, not by transport"
            return f"void: {self.plans[i].ref.district} is not on the route {target.text()} names"
        return "void"

    def transport_result(self, i: int) -> tuple[bool, ResultCode, str]:
        core = self.core
        if core.void[i]:
            return False, ResultCode.VOID, self.void_reason(i)
        dislodged = f"; dislodged by {self.by_text(i)}" if self.dislodgers[i] else ""
        if core.backup.get(i) is Backup.SZYKMAN:
            return False, ResultCode.PARADOX, "transport paradox: the carrier holds (Szykman rule)" + dislodged
        if core.backup.get(i) is Backup.PARADOX:
            return False, ResultCode.PARADOX, "paradox: the orders contradict each other, the carrier holds" + dislodged
        if dislodged:
            return False, ResultCode.DISLODGED, f"route broken: dislodged by {self.by_text(i)}"
        t = core.acts[i].target
        target, dest = self.label(t), core.acts[t].dest
        if i not in self.on_route(t):
            return True, ResultCode.TRANSPORTED, f"not needed: not on a kept route from {core.pieces[t].at} to {dest}"
        if core.succeeded(t):
            return True, ResultCode.TRANSPORTED, f"carried {target} to {dest}"
        return True, ResultCode.TRANSPORTED, f"kept the route, but {target} did not reach {dest}"

    # -- assaults (R11) ------------------------------------------------------------------
    def assaults(self) -> list[AssaultResult]:
        core = self.core
        by_station: dict[str, list[int]] = {}
        for i, act in enumerate(core.acts):
            if act.kind is _ASSAULT:
                by_station.setdefault(act.dest, []).append(i)
        out: list[AssaultResult] = []
        districts = self.gmap.districts
        for station in sorted(by_station, key=lambda s: districts[s].area):
            ids = by_station[station]
            strength = {i: core.assault_strength(i) for i in ids}
            for i in ids:
                gang = core.pieces[i].gang
                corrupt = self.st.corruption.get(station) == gang
                needed = self.rules.corrupted_station_strength if corrupt else self.rules.station_strength
                rivals = [j for j in ids if j != i and not self.dislodgers[j] and strength[j] >= strength[i]]
                if self.dislodgers[i]:
                    ok, reason = False, f"assault fails: dislodged by {self.by_text(i)}"
                elif rivals:
                    best = max(strength[j] for j in rivals)
                    ok, reason = False, f"stood off by {self.labels(rivals)} ({strength[i]} vs {best})"
                elif strength[i] > needed:
                    ok, reason = True, f"station taken ({strength[i]} vs {needed})"
                else:
                    ok, reason = False, f"station holds ({strength[i]} vs {needed})"
                if corrupt and not ok and not self.dislodgers[i] and not rivals:
                    reason += ", corrupted by the attacker"
                out.append(AssaultResult(gang, self.plans[i].ref, station, strength[i], needed, ok, reason))
        return out

    # -- retreats (R7) ----------------------------------------------------------------------
    def retreats(self, retreats: Mapping[UnitRef, Retreat]) -> tuple[dict[UnitRef, Dislodgement], list[Unit]]:
        core, gmap = self.core, self.gmap
        beaten = [i for i, by in enumerate(self.dislodgers) if by]
        occupied: dict[str, list[int]] = {}
        standoffs: set[str] = set()
        if any(self.plans[i].ref in retreats for i in beaten):
            for i, by in enumerate(self.dislodgers):
                if not by:
                    occupied.setdefault(self.final[i], []).append(i)
            standoffs = {
                d for d, movers in core.into.items() if d not in occupied and any(core.prevent(m) > 0 for m in movers)
            }
        choice: dict[int, str | None] = {}
        why: dict[int, str] = {}
        for i in beaten:
            p = self.plans[i]
            r = retreats.get(p.ref)
            if r is None:
                choice[i], why[i] = None, "disbanded: no retreat given"
                continue
            barred = {
                core.pieces[m].at
                for m in self.dislodgers[i]
                if core.acts[m].direct or not self.rules.retreat_to_transported_attackers_origin
            }
            reach = _reach(gmap, p.ref.district, self.rules.reach[p.kind])
            refusals = []
            choice[i] = None
            for d in r.choices:
                problem = self.retreat_problem(i, d, reach, occupied, barred, standoffs)
                if problem is None:
                    choice[i] = d
                    break
                refusals.append(f"{d}: {problem}")
            if choice[i] is None:
                why[i] = "disbanded: no usable retreat (" + "; ".join(refusals) + ")"
        arriving: dict[str, list[int]] = {}
        for i, to in choice.items():
            if to is not None:
                arriving.setdefault(to, []).append(i)
        for d, ids in arriving.items():
            if len(ids) == 1 or (len(ids) == 2 and core.compatible(ids[0], ids[1])):
                for i in ids:
                    why[i] = f"retreated to {d}"
                continue
            for i in ids:
                others = self.labels([j for j in ids if j != i])
                choice[i] = None
                why[i] = f"disbanded: its retreat to {d} clashes with that of {others}"
        dislodged: dict[UnitRef, Dislodgement] = {}
        units: list[Unit] = []
        for i, p in enumerate(self.plans):
            if i in choice:
                to = choice[i]
                dislodged[p.ref] = Dislodgement(p.ref, p.unit.gang, self.by_text(i), to, to is None, why[i])
                if to is not None:
                    units.append(Unit(to, p.unit.kind, p.unit.gang, p.unit.recruited))
            else:
                to = self.final[i]
                units.append(p.unit if to == p.unit.district else Unit(to, p.unit.kind, p.unit.gang, p.unit.recruited))
        districts = gmap.districts
        units.sort(key=lambda u: (districts[u.district].area, u.kind))
        return dislodged, units + self.board.strays

    def retreat_problem(
        self,
        i: int,
        d: str,
        reach: set[str],
        occupied: dict[str, list[int]],
        barred: set[str],
        standoffs: set[str],
    ) -> str | None:
        core = self.core
        if d not in self.gmap.districts:
            return "no such district"
        if d not in reach:
            return f"out of reach of {self.label(i)} (R8)"
        for j in occupied.get(d, []):
            if core.pieces[j].gang != core.pieces[i].gang:
                return f"{self.gang_unit(j)} stands there"
            if core.pieces[j].kind == core.pieces[i].kind:
                return f"own {core.pieces[j].kind} stands there"
        if d in barred:
            return "the attacker came from there"
        if d in standoffs:
            return "left empty by a standoff"
        return None

    def gang_unit(self, j: int) -> str:
        return f"{self.core.pieces[j].gang}'s {self.core.pieces[j].kind}"
