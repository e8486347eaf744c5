"""The movement phase of classic Diplomacy, decided by the same core as Moonshine
(``moonshine.engine.resolver``): this module maps the board and the orders to pieces and
acts, and the core's decisions back to results a player can read.

Rule choices follow the DATC v3.0 preferences (2023 rulebook):

- orders are checked against the position alone first; an *illegal* order (one
  that could not be valid whatever the others order, DATC 4.E.1) is ignored and
  the unit holds, and can still receive hold support;
- coasts: a fleet's move to a province with two coasts must name the coast unless
  only one is reachable (4.B.1, 4.B.2); a coast it cannot reach makes the order
  illegal (4.B.3); the coast of the ordered unit is ignored (4.B.5), and so is a
  coast in an army's order (4.B.6); a support may name the coast, which must then
  match (4.B.4);
- convoys: a move to an adjacent province goes by convoy when ordered ``via
  convoy`` or when a fleet of the army's own power is legally ordered to convoy it,
  without fall-back to the land route (4.A.3); a convoy is disrupted only when every
  route is (4.A.1); paradoxes by the Szykman rule (4.A.2); a convoyed attack comes
  from the army's province (4.A.4); a dislodged unit may retreat to the province of
  an attacker that came by convoy (4.A.5); only a head-to-head battle takes away a
  dislodged unit's power to bounce (4.A.7);
- a convoy order is legal only when its fleet lies on a convoy route (through
  fleets in sea provinces) that needs every one of its fleets (4.E.1, 6.G.19).

The coasts are the classic layer's business: the core sees provinces only, so a
province holds one unit and a fleet leaving a coast meets one arriving on the
other coast head to head (no coastal crawl, 6.B.13).
"""

from __future__ import annotations

import operator
from collections.abc import Collection, Iterable, Mapping, Sequence

import msgspec

from moonshine.engine import outcome as oc
from moonshine.engine.resolver import Act, ActKind, Backup, Resolver
from moonshine.engine.rulebook import Rulebook
from moonshine.text.catalogue import Message, sentence
from moonshine.variants.classic.board import ClassicMap, Kind
from moonshine.variants.classic.orders import Convoy, Move, Order, SupportHold, SupportMove
from moonshine.variants.classic.rules import CLASSIC, WORDING, Board, Problem, assign, problem
from moonshine.variants.classic.state import Dislodged, Unit


class Result(msgspec.Struct, frozen=True):
    """What became of one order (or of a unit without an order, which holds)."""

    power: str
    unit: str  # the unit's label on the board, e.g. "F STP/SC"
    order: str  # the order as given, in canonical text; "A PAR H" when none was given
    succeeded: bool
    said: str  # the reason in English when there is no outcome value ("" when there is)
    outcome: oc.Result | None = None  # the movement phase's outcome as a value
    message: Message | None = None  # a retreat's or an adjustment's reason as a value

    @property
    def reason(self) -> str:
        """The reason in English (worded when asked for: most results are never read
        as text in English)."""
        return self.said if self.outcome is None else oc.explain(self.outcome, "en", WORDING)

    def explain(self, language: str) -> str:
        """The reason in ``language`` (the English text when there is no value)."""
        if self.outcome is not None:
            return oc.explain(self.outcome, language, WORDING)
        return self.said if self.message is None else self.message.text(language)


class MovementOutcome:
    """What a movement phase did: the units not dislodged (where they now stand), the
    dislodged, the provinces a standoff left empty, the ignored orders, and one result
    per unit on the board. The results are worked out from the decisions when first
    read (every reason a value then): adjudicating a phase to go on to the next, or
    to compare its positions, reads none of them."""

    __slots__ = ("_report", "_results", "contested", "dislodged", "ignored", "units")
    __hash__ = None  # type: ignore[assignment]

    def __init__(
        self,
        results: list[Result] | _Report,
        ignored: list[Result],
        dislodged: list[Dislodged],
        contested: list[str],
        units: list[Unit],
    ) -> None:
        self._report: _Report | None = results if isinstance(results, _Report) else None
        self._results: list[Result] | None = None if isinstance(results, _Report) else results
        self.ignored = ignored  # orders for no unit of the ordering power
        self.dislodged = dislodged
        self.contested = contested  # provinces left empty by a standoff: no retreat there
        self.units = units  # the units not dislodged, where they now stand

    @property
    def results(self) -> list[Result]:
        """One per unit on the board, in province order."""
        if self._results is None:
            assert self._report is not None
            self._results = self._report.results()
            self._report = None
        return self._results

    def _values(self) -> tuple[object, ...]:
        return (self.results, self.ignored, self.dislodged, self.contested, self.units)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, MovementOutcome)
        return self._values() == other._values()

    def __repr__(self) -> str:
        return (
            f"MovementOutcome(results={self.results!r}, ignored={self.ignored!r}, dislodged={self.dislodged!r}, "
            f"contested={self.contested!r}, units={self.units!r})"
        )

    def result_for(self, province: str) -> Result | None:
        for r in self.results:
            if r.unit.split(" ", 1)[1].split("/", 1)[0] == province:
                return r
        return None


def _plan(
    board: Board, orders: Mapping[str, Sequence[Order]], rules: Rulebook = CLASSIC
) -> list[tuple[str, Order, Problem]]:
    given, ignored = assign(board, orders)
    plans = board.plans
    # Convoys legally ordered, by (army, destination): the fleets' powers.
    convoys: dict[tuple[int, str], set[str]] = {}
    for i, options in given.items():
        p = plans[i]
        p.given = options[0]
        if len(options) == 1:
            p.order = options[0]
            p.problem = problem(board, i, options[0])
        else:
            # Several orders for one unit: the illegal ones are ignored; if more than
            # one legal order is left, the unit holds (DATC 4.D.3, choice c).
            legal = [o for o in options if problem(board, i, o) is None]
            if len(legal) == 1:
                p.given = p.order = legal[0]
                problem(board, i, legal[0])
            else:
                p.order = None
                p.problem = Problem("several_orders", orders="; ".join(o.text() for o in options))
        if type(p.order) is Convoy and p.problem is None:
            key = (p.target, p.dest)
            powers = convoys.get(key)
            if powers is None:
                convoys[key] = {p.unit.power}
            else:
                powers.add(p.unit.power)
    own_carriers = rules.own_carrier_means_transport
    any_carrier = rules.any_carrier_means_transport
    fallback = rules.transport_falls_back_to_land
    for i in given:
        p = plans[i]
        order = p.order
        if fallback and type(order) is Move and order.via_convoy:
            _fall_back_to_land(board, i, convoys)
        if p.problem is not None or order is None:
            continue
        kind = type(order)
        if kind is Move:
            dest = p.dest if "/" not in p.dest else p.dest.split("/", 1)[0]
            if (own_carriers or any_carrier) and not p.convoyed and p.unit.kind in rules.carried_kinds:
                # An adjacent move goes by convoy when a fleet of the army's own power is
                # legally ordered to convoy it there (DATC 4.A.3, 2000/2023 rules), or
                # any fleet (the 1982 rule's intent, when the rulebook says so).
                powers = convoys.get((i, dest))
                p.convoyed = powers is not None and (any_carrier or p.unit.power in powers)
            p.act = Act(_MOVE, -1, dest, not p.convoyed, p.convoyed)
        elif kind is SupportMove:
            assert isinstance(order, SupportMove)
            p.act = Act(_SUPPORT_MOVE, p.target, p.dest)
            if "/" in order.dest:
                # A support naming a coast must match the coast of the move it supports (4.B.4).
                t = plans[p.target]
                if t.unit.kind is Kind.FLEET and type(t.order) is Move and t.problem is None and t.dest != order.dest:
                    p.void = oc.Void("elsewhere", t.unit.label(), order.dest, t.dest)
                    p.act = _HOLD
        elif kind is SupportHold:
            p.act = Act(_SUPPORT_HOLD, p.target)
        elif kind is Convoy:
            p.act = Act(_CONVOY, p.target, p.dest)
    return [(power, order, reason) for power, order, reason in ignored]


def _fall_back_to_land(board: Board, i: int, convoys: Mapping[tuple[int, str], set[str]]) -> None:
    """DATC 4.A.3, the DATC v2 preference: an army ordered ``via convoy`` to a province
    next to it, which no fleet is legally ordered to convoy there, moves over land."""
    p = board.plans[i]
    origin = board.provinces[i]
    order = p.order
    assert isinstance(order, Move)
    dest = order.dest.split("/", 1)[0]
    if p.unit.kind is not Kind.ARMY or dest not in board.gmap.army_nb.get(origin, ()) or (i, dest) in convoys:
        return
    if p.problem is not None and p.problem.key != "no_convoy_chain":
        return
    p.problem, p.dest, p.convoyed = None, dest, False


_MOVE, _SUPPORT_HOLD, _SUPPORT_MOVE, _CONVOY = ActKind.MOVE, ActKind.SUPPORT_HOLD, ActKind.SUPPORT_MOVE, ActKind.CONVOY
_HOLD = Act()
_LETTERS = {Kind.ARMY: "A", Kind.FLEET: "F"}


# -- step 2: the core, step 3: results ---------------------------------------------------


def adjudicate_movement(
    gmap: ClassicMap, units: Sequence[Unit], orders: Mapping[str, Sequence[Order]], *, rules: Rulebook = CLASSIC
) -> MovementOutcome:
    """Resolve a movement phase under ``rules`` (the classic book: DATC's preferred
    answers). ``orders`` maps each power to its orders; a unit without an order holds;
    an order for another power's unit is ignored."""
    board = Board(gmap, units)
    ignored = _plan(board, orders, rules)
    plans = board.plans
    gangs = [p.unit.power for p in plans]
    kinds = [_LETTERS[p.unit.kind] for p in plans]
    strength = rules.strengths
    strengths = [strength[k] for k in kinds]
    acts = [p.act for p in plans]
    core = Resolver.from_columns(rules, gangs, kinds, board.provinces, strengths, acts, gmap.near).run()
    return _outcome(board, core, ignored)


def _outcome(board: Board, core: Resolver, ignored: list[tuple[str, Order, Problem]]) -> MovementOutcome:
    """The positions after the phase, read from the decisions; the results wait in a
    ``_Report`` until they are read."""
    plans = board.plans
    op, loc = core.op, core.loc
    # Only a unit at a move's destination can be dislodged.
    dislodgers: list[Sequence[int]] = [()] * len(plans)
    at = core.at
    for d in core.into:
        for v in at.get(d, ()):
            dislodgers[v] = core.dislodgers(v)
    dislodged: list[Dislodged] = []
    units: list[Unit] = []
    occupied: set[str] = set()
    carried_origin = core.rules.retreat_to_transported_attackers_origin
    for i, p in enumerate(plans):
        u = p.unit
        by = dislodgers[i]
        if by:
            m = by[0]
            # DATC 4.A.5: it may retreat where a convoyed attacker came from
            dislodged.append(Dislodged(u.power, u.kind, u.region, loc[m], core.acts[m].convoyed and carried_origin))
            continue
        if op[i] is _MOVE and core.succeeded(i):
            units.append(Unit(u.power, u.kind, p.dest))
            occupied.add(core.dest[i])
        else:
            units.append(u)
            occupied.add(loc[i])
    contested = sorted(
        d for d, movers in core.into.items() if d not in occupied and any(core.prevent(m) > 0 for m in movers)
    )
    rejected = [_ignored(power, order, reason) for power, order, reason in ignored]
    dislodged.sort()
    units.sort(key=_UNIT_ORDER)
    return MovementOutcome(_Report(board, core, dislodgers), rejected, dislodged, contested, units)


def _ignored(power: str, order: Order, reason: Problem) -> Result:
    """The result of an order ignored before adjudication (no unit of the power), its
    reason as a value, worded in each reader's language."""
    why = sentence("ignored: {reason}", reason=reason.message())
    unit = order.unit.text() if hasattr(order, "unit") else ""
    return Result(power, unit, order.text(), False, why.text(), message=why)


# A unit's place in the sorted units (as the ordering of ``Unit`` puts it; a Kind
# compares as its letter).
_UNIT_ORDER = operator.attrgetter("power", "kind", "region")


class _Report:
    """Each unit's result, as a value, from the decisions."""

    def __init__(self, board: Board, core: Resolver, dislodgers: list[Sequence[int]]) -> None:
        self.board = board
        self.plans = board.plans
        self.core = core
        self.dislodgers = dislodgers
        self.unit_labels: list[str] = []
        self.order_texts: list[str] = []

    def label(self, i: int) -> str:
        return self.unit_labels[i]

    def labels(self, ids: Sequence[int]) -> str:
        return ", ".join(sorted(self.label(i) for i in ids))

    def order_text(self, i: int) -> str:
        return self.order_texts[i]

    def by(self, i: int) -> str:
        m = self.dislodgers[i][0]
        return self.order_texts[m]

    def results(self) -> list[Result]:
        plans = self.plans
        self.unit_labels = labels = [p.unit.label() for p in plans]
        # The order as given, in canonical text; "A PAR H" when none was given.
        self.order_texts = texts = [
            p.given.text() if p.given is not None else labels[i] + " H" for i, p in enumerate(plans)
        ]
        results = []
        for i, p in enumerate(plans):
            ok, value = self.result(i)
            results.append(Result(p.unit.power, labels[i], texts[i], ok, "", value))
        return results

    # -- one unit's result ----------------------------------------------------------------
    def labels_of(self, ids: Iterable[int]) -> tuple[str, ...]:
        labels = self.unit_labels
        found = [labels[i] for i in ids]
        if len(found) < 2:
            return tuple(found)
        found.sort()
        return tuple(found)

    def by_dislodged(self, i: int) -> str:
        return self.order_texts[self.dislodgers[i][0]] if self.dislodgers[i] else ""

    def counted(self, supports: Sequence[int], excluded: Collection[str] = ()) -> tuple[str, ...]:
        if not supports:
            return ()
        core = self.core
        return self.labels_of([s for s in supports if core.gang[s] not in excluded and core.succeeded(s)])

    def attack_force(self, i: int) -> oc.Force:
        core = self.core
        supports = core.move_sup[i]
        excluded = core.excluded_gangs(i) if supports else ()
        return oc.Force((self.label(i),), core.attack(i), self.counted(supports, excluded))

    def defence_force(self, i: int, units: Sequence[int]) -> oc.Force:
        core = self.core
        h2h = core.h2h[i]
        sups: list[str] = []
        for v in units:
            sups += self.counted(core.move_sup[v] if v in h2h else core.hold_sup[v])
        return oc.Force(self.labels_of(units), core.defence(i), tuple(sorted(sups)))

    def prevent_force(self, j: int) -> oc.Force:
        return oc.Force((self.label(j),), self.core.prevent(j), self.counted(self.core.move_sup[j]))

    def result(self, i: int) -> tuple[bool, oc.Result]:
        p = self.plans[i]
        core = self.core
        by = self.by_dislodged(i)
        if p.problem is not None:
            return False, oc.Rejected(p.problem.message(), by)
        if p.void is not None:
            return False, msgspec.structs.replace(p.void, dislodged_by=by)
        kind = core.acts[i].kind
        if kind is ActKind.MOVE:
            return self.move_result(i, by)
        if kind in (ActKind.SUPPORT_HOLD, ActKind.SUPPORT_MOVE):
            return self.support_result(i)
        if kind is ActKind.CONVOY:
            return self.convoy_result(i)
        if by:
            return False, oc.Dislodged(by)
        attackers = [m for m in core.into.get(self.board.provinces[i], []) if core.gang[m] != p.unit.power]
        return True, oc.Held(self.labels_of(attackers))

    def move_result(self, i: int, by: str) -> tuple[bool, oc.Result]:
        core = self.core
        dest = self.plans[i].dest
        gang = core.gang[i]
        if core.succeeded(i):
            beaten = [v for v in core.at.get(core.acts[i].dest, []) if i in self.dislodgers[v]]
            stay = [v for v in core.at_dest[i] if core.gang[v] != gang and (v in core.h2h[i] or not core.leaves(v))]
            against = (self.defence_force(i, stay), *(self.prevent_force(j) for j in core.rivals[i]))
            return True, oc.Moved(
                dest,
                self.attack_force(i),
                against,
                dislodging=self.labels_of(beaten),
                convoyed=core.acts[i].convoyed,
                circular=core.backup.get(i) is Backup.CIRCULAR,
            )
        if core.backup.get(i) is Backup.PARADOX:
            return False, oc.Paradox("move", dislodged_by=by)
        if not core.path(i):
            carriers = core.carriers[i]
            if not carriers:
                return False, oc.NoRoute(core.acts[i].dest, ("F",), dislodged_by=by)
            paradox = [c for c in carriers.values() if core.backup.get(c) is Backup.SZYKMAN]
            if paradox:
                return False, oc.RouteBroken("paradox", self.labels_of(paradox), by)
            broken = [c for c in carriers.values() if self.dislodgers[c]]
            if broken:
                return False, oc.RouteBroken("dislodged", self.labels_of(broken), by)
            return False, oc.RouteBroken("unreachable", dislodged_by=by)
        blocker = core.own_blocker(i)
        if blocker is not None:
            return False, oc.Blocked(self.label(blocker), core.acts[i].dest, blocker in core.h2h[i], by)
        attack, defence = core.attack(i), core.defence(i)
        if attack <= defence:
            h2h = [v for v in core.h2h[i] if core.gang[v] != gang]
            if h2h:
                return False, oc.HeadToHead(self.attack_force(i), self.defence_force(i, h2h), by)
            holders = [v for v in core.at.get(core.acts[i].dest, []) if not core.leaves(v)]
            return False, oc.HeldOff(self.attack_force(i), self.defence_force(i, holders), by)
        rivals = sorted((j for j in core.rivals[i] if core.prevent(j) >= attack), key=self.label)
        return False, oc.Bounced(self.attack_force(i), tuple(self.prevent_force(j) for j in rivals), by)

    def support_result(self, i: int) -> tuple[bool, oc.Result]:
        core = self.core
        if core.void[i]:  # matching no order; the unit may be dislodged all the same
            return False, msgspec.structs.replace(self.void_reason(i), dislodged_by=self.by_dislodged(i))
        if core.backup.get(i) is Backup.PARADOX:
            return False, oc.Paradox("support")
        if core.succeeded(i):
            return True, oc.SupportGiven(core.support_value(i))
        if self.dislodgers[i]:
            return False, oc.SupportCut(dislodged_by=self.by(i))
        cutters = [m for m in core.cutters(i) if core.path(m)]
        return False, oc.SupportCut(self.labels_of(cutters))

    def void_reason(self, i: int) -> oc.Void:
        p = self.plans[i]
        t = self.plans[p.target]
        if isinstance(p.order, SupportHold):
            return oc.Void("moves", t.unit.label())
        if isinstance(t.order, Move) and t.problem is None:
            if isinstance(p.order, Convoy) and t.dest == p.dest:
                return oc.Void("over land", t.unit.label(), p.dest, t.dest)
            return oc.Void("elsewhere", t.unit.label(), p.dest, t.dest)
        return oc.Void("no move", t.unit.label(), p.dest)

    def convoy_result(self, i: int) -> tuple[bool, oc.Result]:
        core = self.core
        if core.void[i]:
            return False, msgspec.structs.replace(self.void_reason(i), dislodged_by=self.by_dislodged(i))
        by = self.by_dislodged(i)
        if core.backup.get(i) is Backup.SZYKMAN:
            return False, oc.Paradox("carrier", "szykman", by)
        if core.backup.get(i) is Backup.PARADOX:
            return False, oc.Paradox("carrier", "paradox", by)
        if by:
            return False, oc.CarrierDislodged(by)
        t = core.acts[i].target
        if core.succeeded(t):
            return True, oc.Carried(self.label(t), core.acts[t].dest)
        return True, oc.RouteKept(self.label(t), core.acts[t].dest)
