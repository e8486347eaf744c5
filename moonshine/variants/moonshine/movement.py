"""Movement and retreats (R4 to R12): a pure function from the map, the state and the
checked orders to an outcome in which every order has a result and a reason a
player can read.

The work is done in three steps:

1. *Sort out* the orders (``_plan``): an order that is still impossible (no such
   unit, not adjacent, an L assaulting...) becomes a hold with a reason, as the
   rules module (``moonshine.variants.moonshine.rules``, which the order checker calls too) says it;
   a move of an H is settled as over the border or by transport (R10, DATC 4.A.3).
2. *Decide* (``moonshine.engine.resolver``): the DATC's decisions, generalised to
   strengths and stacks.
3. *Report*: results and reasons, dislodgements and advance retreats (R7: each
   listed district judged by ``moonshine.variants.moonshine.rules.retreat_problem``, retreats into one
   district read pair by pair), assaults on police stations (R11), the units' new
   positions.

No I/O here.
"""

from __future__ import annotations

import gc
import operator
from collections.abc import Collection, Iterator, Mapping, Sequence
from enum import StrEnum
from types import MappingProxyType

import msgspec

from moonshine.engine import outcome as oc
from moonshine.engine import routes
from moonshine.engine.resolver import Act, ActKind, Backup, Resolver
from moonshine.engine.rulebook import Rulebook
from moonshine.text.catalogue import Message, say
from moonshine.variants.moonshine import rules as moonshine_rules
from moonshine.variants.moonshine.map import District, GameMap, UnitKind
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
from moonshine.variants.moonshine.rules import MOONSHINE
from moonshine.variants.moonshine.state import GameState, Unit

NO_RETREATS: Mapping[UnitRef, Retreat] = MappingProxyType({})
_NO_OFFER: Mapping[str, str] = MappingProxyType({})
_NO_IDS: Sequence[int] = ()
_NO_REF = UnitRef(UnitKind.L, "")  # a plan's reference until _plan gives it one
_HOLD_ACT = Act()
_L = UnitKind.L
_NEW_HOLDS = say("a unit recruited this turn holds (R18)")


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


class OrderResult(msgspec.Struct, frozen=True):
    order: UnitOrder  # the order as resolved (a rejected order becomes a hold)
    gang: str
    succeeded: bool  # the order as given was carried out
    outcome: oc.Result  # what happened, as a value (``moonshine.engine.outcome``)
    code: ResultCode
    given: UnitOrder | None = None  # the order as given (None: the unit had no order)

    @property
    def reason(self) -> str:
        """The outcome as an English sentence."""
        return oc.explain(self.outcome)


class Dislodgement(msgspec.Struct, frozen=True):
    unit: UnitRef
    gang: str
    by: str  # the text of the (strongest) dislodging move
    retreated_to: str | None
    disbanded: bool
    outcome: oc.Result  # the retreat's outcome

    @property
    def reason(self) -> str:
        return oc.explain(self.outcome)


class AssaultResult(msgspec.Struct, frozen=True):
    gang: str
    unit: UnitRef
    station: str  # the station's district
    strength: int
    needed: int  # the station's strength: the attack must be greater (R11)
    succeeded: bool
    outcome: oc.Result

    @property
    def reason(self) -> str:
        return oc.explain(self.outcome)


class Outcome(msgspec.Struct, frozen=True):
    results: dict[UnitRef, OrderResult]  # every unit on the board, by starting position
    dislodged: dict[UnitRef, Dislodgement]
    assaults: list[AssaultResult]
    units: list[Unit]  # positions after movement and retreats, in map order
    ignored: dict[UnitRef, str] = msgspec.field(default_factory=dict)  # orders for no unit on the board

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


class _Board:
    """The units on the board, in map order, with their plans: one list per attribute
    (an object per unit would cost more to make, read and free than the lists)."""

    def __init__(self, gmap: GameMap, st: GameState, rules: Rulebook) -> None:
        self.gmap = gmap
        self.rules = rules
        districts = gmap.districts
        # Units a valid state never has (off the map, or a second unit of one kind in
        # a district): kept as they are, outside the adjudication.
        self.strays: list[Unit] = []
        units: list[Unit] = []
        found: list[District] = []
        for u in st.units:
            d = districts.get(u.district)
            if d is None:
                self.strays.append(u)
            else:
                units.append(u)
                found.append(d)
        # Map order: by area, district and kind.
        codes = [u.district for u in units]
        unit_kinds = [u.kind for u in units]
        areas = [d.area for d in found]
        order: Sequence[int]
        if all(map(operator.lt, areas, areas[1:])):
            order = range(len(units))  # in map order already, one unit per area
        else:
            keys = list(zip(areas, codes, unit_kinds, strict=True))
            order = sorted(range(len(units)), key=keys.__getitem__)
        # Units by kind, then district: a lookup hashes the district's code (cached in
        # the string) rather than a UnitRef (a Python-level __hash__ and __eq__).
        self.index_by_kind: dict[str, dict[str, int]] = {kind: {} for kind in UnitKind}
        kept: list[int] = []
        for k in order:
            index = self.index_by_kind.get(unit_kinds[k])
            if index is None:
                index = self.index_by_kind[unit_kinds[k]] = {}
            if codes[k] in index:
                self.strays.append(units[k])
                continue
            index[codes[k]] = len(kept)
            kept.append(k)
        n = len(kept)
        if n < len(units) or not isinstance(order, range):
            units, found = [units[k] for k in kept], [found[k] for k in kept]
            codes, unit_kinds, areas = [codes[k] for k in kept], [unit_kinds[k] for k in kept], [areas[k] for k in kept]
        self.units = units
        self.places = codes  # districts
        self.kinds = ["L" if k is _L else "H" for k in unit_kinds]  # as the rulebook names them (_kind)
        self.areas = areas  # the districts' area numbers (map order)
        self.nbs = [d.neighbours for d in found]  # the districts' neighbours
        self.gangs = [u.gang for u in self.units]
        turn = st.turn
        self.new = [bool(u.recruited) and u.recruited == turn for u in self.units]  # R18
        # The plans, filled in by _plan. A unit's reference is its order's key when
        # it has an order, else one made from the unit.
        self.refs: list[UnitRef] = [_NO_REF] * n
        self.given: list[UnitOrder | None] = [None] * n  # the order as given
        self.orders: list[UnitOrder | None] = [None] * n  # the order to carry out; None: hold
        self.rejected: list[Message | None] = [None] * n  # why an order given was impossible
        self.acts: list[Act] = [_HOLD_ACT] * n
        self.absent: dict[int, str] = {}  # hold supports of a unit not on the board (its text): void

    def find(self, ref: UnitRef) -> int | None:
        """The index of the unit ``ref`` names, or None when it is not on the board."""
        index = self.index_by_kind.get(ref.kind)
        return None if index is None else index.get(ref.district)

    def locate(self, ref: UnitRef) -> int:
        """The index of a unit known to be on the board."""
        i = self.find(ref)
        if i is None:
            raise KeyError(ref)
        return i


def _same(a: UnitRef, b: UnitRef) -> bool:
    """``a == b`` without the dataclass's generated ``__eq__`` (two tuples per call)."""
    return a is b or (a.__class__ is b.__class__ and a.district == b.district and a.kind == b.kind)


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


def _static_problem(order: UnitOrder, i: int, board: _Board, pos: moonshine_rules.Position) -> Message | None:
    """Why unit i's order cannot be carried out whatever the others do (R7 to R12), as
    the rules module says it (the order checker calls the same function), or None."""
    ref = board.refs[i]
    if not _same(order.unit, ref):
        return say("the order is for {u}, not {v}", u=order.unit.text(), v=ref.text())
    return moonshine_rules.check_unit_order(pos, order).reason


def _kinds(kinds: frozenset[str]) -> str:
    return " or ".join(sorted(kinds))


def _ref(board: _Board, i: int) -> UnitRef:
    return UnitRef(board.units[i].kind, board.units[i].district)


def _plan(board: _Board, st: GameState, orders: Mapping[UnitRef, UnitOrder]) -> dict[UnitRef, str]:
    """Give every unit its order and act; return the orders for units not on the board."""
    gmap, rules = board.gmap, board.rules
    pos = moonshine_rules.Position.of(gmap, st)
    refs, given, planned, rejected, acts = board.refs, board.given, board.orders, board.rejected, board.acts
    kinds, nbs = board.kinds, board.nbs
    find = board.locate
    ignored: dict[UnitRef, str] = {}
    # Transports offered, by (carried unit, destination): carriers' districts and gangs.
    offered: dict[tuple[int, str], dict[str, str]] = {}
    # Moves over the border or by transport, settled once the transports are known.
    undecided: list[int] = []
    for ref, order in orders.items():
        i = board.find(ref)
        if i is None:
            ignored[ref] = f"{order.text()}: no {ref.text()} on the board"
            continue
        # The key the unit was found by is equal to the reference the board would
        # make (the same kind and district): no second object per unit.
        refs[i] = ref if ref.__class__ is UnitRef and ref.kind.__class__ is UnitKind else _ref(board, i)
        given[i] = order
        if board.new[i]:
            if not isinstance(order, Hold):
                rejected[i] = _NEW_HOLDS
            continue
        problem = _static_problem(order, i, board, pos)
        if problem is not None:
            rejected[i] = problem
            continue
        planned[i] = order
        if isinstance(order, Move):
            if order.via:
                acts[i] = Act(_MOVE, dest=order.dest, direct=False, convoyed=True, route=order.via)
            elif order.path or kinds[i] not in rules.carried_kinds:
                direct = not order.path and order.dest in nbs[i]
                acts[i] = Act(_MOVE, dest=order.dest, direct=direct)
            else:
                undecided.append(i)
        elif isinstance(order, SupportHold):
            t = board.find(order.target)
            if t is None:  # R18: the checker accepts it in case a unit is recruited there
                board.absent[i] = order.target.text()
            else:
                acts[i] = Act(_SUPPORT_HOLD, target=t)
        elif isinstance(order, SupportMove):
            acts[i] = Act(_SUPPORT_MOVE, target=find(order.target), dest=order.dest)
        elif isinstance(order, SupportAssault):
            acts[i] = Act(_SUPPORT_ASSAULT, target=find(order.target), dest=order.station)
        elif isinstance(order, Assault):
            acts[i] = Act(_ASSAULT, dest=order.station)
        elif isinstance(order, Transport):
            t = find(order.target)
            offered.setdefault((t, order.dest), {})[board.places[i]] = board.gangs[i]
            acts[i] = Act(_CONVOY, target=t, dest=order.dest)
    for i, ref in enumerate(refs):
        if ref is _NO_REF:
            refs[i] = _ref(board, i)
    for i in sorted(undecided):
        move = planned[i]
        assert isinstance(move, Move)
        here, dest = board.places[i], move.dest
        if dest in nbs[i]:
            carriers = offered.get((i, dest), _NO_OFFER)
            own = any(g == board.gangs[i] for g in carriers.values())
            by_transport = (
                own and rules.own_carrier_means_transport and moonshine_rules.carried(gmap, carriers, here, dest)
            )
            acts[i] = Act(_MOVE, dest=dest, direct=not by_transport, convoyed=by_transport)
        else:
            # The rules found a route of carriers on the board, ordered or not: the move
            # is possible, and fails when they do not carry it (DATC 6.D.8, 6.D.32).
            acts[i] = Act(_MOVE, dest=dest, direct=False, convoyed=True)
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
    strengths = [rules.strengths[k] for k in board.kinds]
    acts = board.acts
    neighbours = _Neighbours(gmap.districts)
    return Resolver.from_columns(rules, board.gangs, board.kinds, board.places, strengths, acts, neighbours).run()


# -- step 3: the report -----------------------------------------------------------------


class _Report:
    def __init__(self, gmap: GameMap, st: GameState, board: _Board, core: Resolver) -> None:
        self.gmap = gmap
        self.st = st
        self.board = board
        self.refs = board.refs
        self.orders = board.orders
        self.core = core
        self.rules = core.rules
        # The core's columns, read here rather than the units and their references.
        self.gang = core.gang
        self.loc = core.loc
        self.kinds = core.unit_kind
        n = len(self.refs)
        into_at = core.into_at
        self.dislodgers = [core.dislodgers(i) if into_at[i] else _NO_IDS for i in range(n)]
        self._by_text: dict[int, str] = {}

    def label(self, i: int) -> str:
        """Piece i as a player names it (``UnitRef.text()``: kind and district)."""
        return f"{self.kinds[i]} {self.loc[i]}"

    def labels(self, ids: Sequence[int]) -> str:
        kinds, loc = self.kinds, self.loc
        return ", ".join(sorted([f"{kinds[i]} {loc[i]}" for i in ids]))

    def dislodged_by(self, i: int) -> int:
        """The strongest of the moves that dislodged piece i."""
        ds = self.dislodgers[i]
        return max(ds, key=lambda m: (self.core.attack(m), m))

    def by_text(self, i: int) -> str:
        """The text of the move that dislodged piece i (the strongest), found once."""
        text = self._by_text.get(i)
        if text is None:
            text = self._by_text[i] = self.order(self.dislodged_by(i)).text()
        return text

    def final(self, i: int) -> str:
        """Where piece i stands after movement (before retreats)."""
        core = self.core
        return core.dest[i] if core.op[i] is _MOVE and core.res[i] else core.loc[i]

    def order(self, i: int) -> UnitOrder:
        """The order piece i carried out (a hold when it had none, or an impossible one)."""
        return self.orders[i] or Hold(self.refs[i])

    # -- results --------------------------------------------------------------------
    def outcome(self, ignored: dict[UnitRef, str], retreats: Mapping[UnitRef, Retreat]) -> Outcome:
        results: dict[UnitRef, OrderResult] = {}
        gang, result, orders, given = self.gang, self.result, self.orders, self.board.given
        for i, ref in enumerate(self.refs):
            succeeded, code, value = result(i)
            results[ref] = OrderResult(orders[i] or Hold(ref), gang[i], succeeded, value, code, given[i])
        assaults = self.assaults()
        for a in assaults:
            i = self.board.locate(a.unit)
            if not self.dislodgers[i]:
                code = ResultCode.ASSAULTED if a.succeeded else ResultCode.REPULSED
                results[self.refs[i]] = OrderResult(self.order(i), gang[i], a.succeeded, a.outcome, code, given[i])
        dislodged, units = self.retreats(retreats)
        return Outcome(results, dislodged, assaults, units, dict(sorted(ignored.items())))

    # -- the forces of a contest ----------------------------------------------------------
    def _counted(self, supports: Sequence[int], excluded: Collection[str] = ()) -> tuple[str, ...]:
        core = self.core
        return tuple(sorted(self.label(s) for s in supports if self.gang[s] not in excluded and core.succeeded(s)))

    def attack_force(self, i: int) -> oc.Force:
        """Move i, the supports that counted in its attack, and its attack strength."""
        core = self.core
        supports = core.move_sup[i]
        excluded = core.excluded_gangs(i) if supports else ()
        return oc.Force((self.label(i),), core.attack(i), self._counted(supports, excluded))

    def defence_force(self, i: int, units: Sequence[int]) -> oc.Force:
        """What move i met at its destination: ``units``, their supports, the defence."""
        core = self.core
        h2h = core.h2h[i]
        sups: list[str] = []
        for v in units:
            sups += self._counted(core.move_sup[v] if v in h2h else core.hold_sup[v])
        return oc.Force(tuple(sorted(self.label(v) for v in units)), core.defence(i), tuple(sorted(sups)))

    def prevent_force(self, j: int) -> oc.Force:
        """Rival move j, its supports, and how strongly it kept others out."""
        return oc.Force((self.label(j),), self.core.prevent(j), self._counted(self.core.move_sup[j]))

    def by_dislodged(self, i: int) -> str:
        return self.by_text(i) if self.dislodgers[i] else ""

    def result(self, i: int) -> tuple[bool, ResultCode, oc.Result]:
        kind = self.core.op[i]
        rejected = self.board.rejected[i]
        if rejected is not None:
            return False, ResultCode.REJECTED, oc.Rejected(rejected, self.by_dislodged(i))
        absent = self.board.absent.get(i) if self.board.absent else None
        if absent is not None:
            return False, ResultCode.VOID, oc.Void("absent", absent, dislodged_by=self.by_dislodged(i))
        if kind is _MOVE:
            return self.move_result(i)
        if kind is _SUPPORT_HOLD or kind is _SUPPORT_MOVE or kind is _SUPPORT_ASSAULT:
            return self.support_result(i)
        if kind is _CONVOY:
            return self.transport_result(i)
        if self.dislodgers[i]:
            return False, ResultCode.DISLODGED, oc.Dislodged(self.by_text(i))
        if kind is _ASSAULT:
            return True, ResultCode.HELD, oc.Held()  # replaced by the assault's own result
        if self.board.new[i]:
            return True, ResultCode.NEW, oc.Recruited()
        gang = self.gang
        attackers = [m for m in self.core.into_at[i] if gang[m] != gang[i]]
        return True, ResultCode.HELD, oc.Held(tuple(sorted(self.label(m) for m in attackers)))

    def move_result(self, i: int) -> tuple[bool, ResultCode, oc.Result]:
        core = self.core
        dest = core.dest[i]
        gangs = self.gang
        gang = gangs[i]
        if core.res[i]:
            carried: tuple[str, ...] = ()
            if core.convoyed[i]:
                carried = tuple(sorted(self.label(c) for c in self.on_route(i)))
            dislodgers = self.dislodgers
            beaten = [v for v in core.at_dest[i] if i in dislodgers[v]]
            stay = [v for v in core.at_dest[i] if gangs[v] != gang and (v in core.h2h[i] or not core.leaves(v))]
            against = (self.defence_force(i, stay), *(self.prevent_force(j) for j in core.rivals[i]))
            return (
                True,
                ResultCode.MOVED,
                oc.Moved(
                    dest,
                    self.attack_force(i),
                    against,
                    dislodging=tuple(sorted(self.label(v) for v in beaten)),
                    carriers=carried,
                    circular=core.backup.get(i) is Backup.CIRCULAR,
                ),
            )
        by = self.by_dislodged(i)
        if core.backup.get(i) is Backup.PARADOX:
            return False, ResultCode.PARADOX, oc.Paradox("move", dislodged_by=by)
        if not core.path(i):
            return False, ResultCode.NO_ROUTE, self.route_failure(i, by)
        blocker = core.own_blocker(i)
        if blocker is not None:
            facing = blocker in core.h2h[i]
            return False, ResultCode.BLOCKED, oc.Blocked(self.label(blocker), dest, facing, by)
        attack = core.attack(i)
        defence = core.defence(i)
        if attack <= defence:
            h2h = [v for v in core.h2h[i] if gangs[v] != gang]
            if h2h:
                return False, ResultCode.BOUNCED, oc.HeadToHead(self.attack_force(i), self.defence_force(i, h2h), by)
            holders = [v for v in core.at_dest[i] if gangs[v] != gang and not core.leaves(v)]
            return False, ResultCode.BOUNCED, oc.HeldOff(self.attack_force(i), self.defence_force(i, holders), by)
        rivals = sorted((j for j in core.rivals[i] if core.prevent(j) >= attack), key=self.label)
        return (
            False,
            ResultCode.BOUNCED,
            oc.Bounced(self.attack_force(i), tuple(self.prevent_force(j) for j in rivals), by),
        )

    def on_route(self, i: int) -> set[int]:
        """The kept carriers of move i that lie on a route from its origin to its
        destination (linked to both through kept carriers)."""
        core = self.core
        act = core.acts[i]
        kept = {d: c for d, c in core.carriers[i].items() if core.succeeded(c)}
        if act.route is not None:
            return set(kept.values()) if all(d in kept for d in act.route) else set()

        nb, usable = core.nb, kept.__contains__
        both = routes.chain(nb, nb[core.loc[i]], usable) & routes.chain(nb, nb[act.dest], usable)
        return {kept[d] for d in both}

    def route_failure(self, i: int, by: str) -> oc.Result:
        core = self.core
        act = core.acts[i]
        carriers = core.carriers[i]
        kinds = tuple(sorted(self.rules.carrier_kinds))
        if act.route is not None:
            missing = tuple(d for d in act.route if d not in carriers)
            if missing:
                return oc.NoRoute(act.dest, kinds, missing, by)
        if not carriers:
            return oc.NoRoute(act.dest, kinds, dislodged_by=by)
        paradox = tuple(sorted(self.label(c) for c in carriers.values() if core.backup.get(c) is Backup.SZYKMAN))
        if paradox:
            return oc.RouteBroken("paradox", paradox, by)
        broken = tuple(sorted(self.label(c) for c in carriers.values() if self.dislodgers[c]))
        if broken:
            return oc.RouteBroken("dislodged", broken, by)
        return oc.RouteBroken("unreachable", dislodged_by=by)

    def support_result(self, i: int) -> tuple[bool, ResultCode, oc.Result]:
        core = self.core
        if core.void[i]:  # matching no order; the unit may be dislodged all the same
            return (
                False,
                ResultCode.VOID,
                msgspec.structs.replace(self.void_reason(i), dislodged_by=self.by_dislodged(i)),
            )
        if core.backup.get(i) is Backup.PARADOX:
            return False, ResultCode.PARADOX, oc.Paradox("support")
        if core.succeeded(i):
            return True, ResultCode.SUPPORTED, oc.SupportGiven(core.support_value(i))
        if self.dislodgers[i]:
            return False, ResultCode.CUT, oc.SupportCut(dislodged_by=self.by_text(i))
        cutters = [m for m in core.cutters(i) if core.path(m)]
        return False, ResultCode.CUT, oc.SupportCut(tuple(sorted(self.label(m) for m in cutters)))

    def void_reason(self, i: int) -> oc.Void:
        order = self.orders[i]
        if isinstance(order, SupportHold):
            return oc.Void("moves", order.target.text())
        if isinstance(order, SupportMove):
            target = self.orders[self.board.locate(order.target)]
            if isinstance(target, Move):
                return oc.Void("elsewhere", order.target.text(), order.dest, target.dest)
            return oc.Void("no move", order.target.text(), order.dest)
        if isinstance(order, SupportAssault):
            return oc.Void("no assault", order.target.text(), order.station)
        if isinstance(order, Transport):
            j = self.board.locate(order.target)
            target = self.orders[j]
            act = self.core.acts[j]
            if not isinstance(target, Move) or target.dest != order.dest:
                return oc.Void("no move", order.target.text(), order.dest)
            if not act.convoyed:
                return oc.Void("over the border", order.target.text(), order.dest)
            return oc.Void("off the route", order.target.text(), other=self.loc[i])
        return oc.Void()

    def transport_result(self, i: int) -> tuple[bool, ResultCode, oc.Result]:
        core = self.core
        if core.void[i]:
            return (
                False,
                ResultCode.VOID,
                msgspec.structs.replace(self.void_reason(i), dislodged_by=self.by_dislodged(i)),
            )
        by = self.by_dislodged(i)
        if core.backup.get(i) is Backup.SZYKMAN:
            return False, ResultCode.PARADOX, oc.Paradox("carrier", "szykman", by)
        if core.backup.get(i) is Backup.PARADOX:
            return False, ResultCode.PARADOX, oc.Paradox("carrier", "paradox", by)
        if by:
            return False, ResultCode.DISLODGED, oc.CarrierDislodged(by)
        t = core.acts[i].target
        target, dest = self.label(t), core.acts[t].dest
        if i not in self.on_route(t):
            return True, ResultCode.TRANSPORTED, oc.NotNeeded(core.loc[t], dest)
        if core.succeeded(t):
            return True, ResultCode.TRANSPORTED, oc.Carried(target, dest)
        return True, ResultCode.TRANSPORTED, oc.RouteKept(target, dest)

    # -- assaults (R11) ------------------------------------------------------------------
    def assaults(self) -> list[AssaultResult]:
        core = self.core
        by_station: dict[str, list[int]] = {}
        for i, kind in enumerate(core.op):
            if kind is _ASSAULT:
                by_station.setdefault(core.dest[i], []).append(i)
        out: list[AssaultResult] = []
        districts = self.gmap.districts
        for station in sorted(by_station, key=lambda s: districts[s].area):
            ids = by_station[station]
            strength = {i: core.assault_strength(i) for i in ids}
            for i in ids:
                gang = self.gang[i]
                corrupt = self.st.corruption.get(station) == gang
                needed = self.rules.corrupted_station_strength if corrupt else self.rules.station_strength
                rivals = [j for j in ids if j != i and not self.dislodgers[j] and strength[j] >= strength[i]]
                value: oc.Result
                if self.dislodgers[i]:
                    ok, value = False, oc.AssaultDislodged(self.by_text(i))
                elif rivals:
                    value = oc.StoodOff(self.assault_force(i), tuple(self.assault_force(j) for j in rivals))
                    ok = False
                elif strength[i] > needed:
                    ok, value = True, oc.StationTaken(strength[i], needed)
                else:
                    ok, value = False, oc.StationHolds(strength[i], needed, corrupt)
                out.append(AssaultResult(gang, self.refs[i], station, strength[i], needed, ok, value))
        return out

    def assault_force(self, i: int) -> oc.Force:
        core = self.core
        return oc.Force((self.label(i),), core.assault_strength(i), self._counted(core.assault_sup[i]))

    # -- retreats (R7) ----------------------------------------------------------------------
    def retreats(self, retreats: Mapping[UnitRef, Retreat]) -> tuple[dict[UnitRef, Dislodgement], list[Unit]]:
        core, gmap = self.core, self.gmap
        beaten = [i for i, by in enumerate(self.dislodgers) if by]
        occupied: dict[str, list[int]] = {}
        standoffs: set[str] = set()
        if retreats and any(self.refs[i] in retreats for i in beaten):
            for i, by in enumerate(self.dislodgers):
                if not by:
                    occupied.setdefault(self.final(i), []).append(i)
            standoffs = {
                d for d, movers in core.into.items() if d not in occupied and any(core.prevent(m) > 0 for m in movers)
            }
        choice: dict[int, str | None] = {}
        why: dict[int, oc.Result] = {}
        standing = {
            d: [moonshine_rules.Standing(core.gang[j], self.board.units[j].kind) for j in ids]
            for d, ids in occupied.items()
        }
        for i in beaten:
            r = retreats.get(self.refs[i]) if retreats else None
            if r is None:
                choice[i], why[i] = None, oc.NoRetreatGiven()
                continue
            barred = {
                core.loc[m]
                for m in self.dislodgers[i]
                if core.acts[m].direct or not self.rules.retreat_to_transported_attackers_origin
            }
            refusals: list[oc.Refusal] = []
            choice[i] = None
            ref, gang = self.refs[i], core.gang[i]
            for d in r.choices:
                problem = moonshine_rules.retreat_problem(
                    gmap, ref, gang, d, standing=standing.get(d, ()), barred=barred, standoffs=standoffs
                )
                if problem is None:
                    choice[i] = d
                    break
                refusals.append(oc.Refusal(d, problem))
            if choice[i] is None:
                why[i] = oc.NoUsableRetreat(tuple(refusals))
        # R7 (amended): retreats into one district are read pair by pair.
        arriving: dict[str, list[tuple[int, str, UnitKind]]] = {}
        for i, to in choice.items():
            if to is not None:
                arriving.setdefault(to, []).append((i, core.gang[i], self.board.units[i].kind))
        clashes = moonshine_rules.retreat_clashes(arriving)
        for i, to in choice.items():
            if to is None:
                continue
            against = clashes.get(i)
            if against is None:
                why[i] = oc.Retreated(to)
            else:
                choice[i] = None
                why[i] = oc.RetreatClash(to, tuple(sorted(self.label(j) for j in against)))
        dislodged: dict[UnitRef, Dislodgement] = {}
        # The units after the turn, in map order: by area, then kind. Each unit's area
        # is its plan's, or that of a unit standing where it moved, or looked up.
        units: list[Unit] = []
        areas: list[int] = []
        kinds: list[str] = []
        districts = gmap.districts
        op, res, dest, at_dest = core.op, core.res, core.dest, core.at_dest
        board_areas, board_kinds, refs = self.board.areas, self.kinds, self.refs
        for i, u in enumerate(self.board.units):
            if i in choice:
                to = choice[i]
                dislodged[refs[i]] = Dislodgement(refs[i], u.gang, self.by_text(i), to, to is None, why[i])
                if to is None:
                    continue
                units.append(Unit(to, u.kind, u.gang, u.recruited))
                areas.append(districts[to].area)
            elif op[i] is not _MOVE or not res[i]:
                units.append(u)
                areas.append(board_areas[i])
            else:
                to = dest[i]
                units.append(Unit(to, u.kind, u.gang, u.recruited))
                there = at_dest[i]
                areas.append(board_areas[there[0]] if there else districts[to].area)
            kinds.append(board_kinds[i])
        # Nearly in order already (the units that did not move are): one stable sort.
        keys = list(zip(areas, kinds, strict=True))
        ranked = sorted(range(len(units)), key=keys.__getitem__)
        return dislodged, [units[k] for k in ranked] + self.board.strays
