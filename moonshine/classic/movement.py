"""The movement phase of classic Diplomacy, decided by the same core as Moonshine
(``moonshine.resolver``): this module maps the board and the orders to pieces and
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

from collections.abc import Mapping, Sequence

from moonshine.classic.board import ClassicMap, Kind
from moonshine.classic.orders import Convoy, Hold, Move, Order, SupportHold, SupportMove, UnitRef, unit_of
from moonshine.classic.rules import CLASSIC, Board, Problem, assign, problem
from moonshine.classic.state import Dislodged, Unit
from moonshine.records import dataclass
from moonshine.resolver import Act, ActKind, Backup, Piece, Resolver


@dataclass(frozen=True)
class Result:
    """What became of one order (or of a unit without an order, which holds)."""

    power: str
    unit: str  # the unit's label on the board, e.g. "F STP/SC"
    order: str  # the order as given, in canonical text; "A PAR H" when none was given
    succeeded: bool
    reason: str


@dataclass(frozen=True)
class MovementOutcome:
    results: list[Result]  # one per unit on the board, in province order
    ignored: list[Result]  # orders for no unit of the ordering power
    dislodged: list[Dislodged]
    contested: list[str]  # provinces left empty by a standoff: no retreat there
    units: list[Unit]  # the units not dislodged, where they now stand

    def result_for(self, province: str) -> Result | None:
        for r in self.results:
            if r.unit.split(" ", 1)[1].split("/", 1)[0] == province:
                return r
        return None


def _plan(board: Board, orders: Mapping[str, Sequence[Order]]) -> list[tuple[str, Order, Problem]]:
    given, ignored = assign(board, orders)
    for i, p in enumerate(board.plans):
        options = given.get(i, [])
        if not options:
            continue
        p.given = options[0]
        if len(options) == 1:
            p.order = options[0]
            p.problem = problem(board, i, options[0])
            continue
        # Several orders for one unit: the illegal ones are ignored; if more than
        # one legal order is left, the unit holds (DATC 4.D.3, choice c).
        legal = [o for o in options if problem(board, i, o) is None]
        if len(legal) == 1:
            p.given = p.order = legal[0]
            problem(board, i, legal[0])
        else:
            p.order = None
            p.problem = Problem("several_orders", orders="; ".join(o.text() for o in options))
    # Convoys legally ordered, by (army, destination): the fleets' powers.
    convoys: dict[tuple[int, str], set[str]] = {}
    for p in board.plans:
        if isinstance(p.order, Convoy) and p.problem is None:
            convoys.setdefault((p.target, p.dest), set()).add(p.unit.power)
    for i, p in enumerate(board.plans):
        order = p.order
        if p.problem is not None or order is None or isinstance(order, Hold):
            continue
        if isinstance(order, Move):
            dest = p.dest.split("/", 1)[0]
            if p.unit.kind is Kind.ARMY and not p.convoyed:
                # An adjacent move goes by convoy when a fleet of the army's own power is
                # legally ordered to convoy it there (DATC 4.A.3, 2000/2023 rules).
                p.convoyed = p.unit.power in convoys.get((i, dest), set())
            p.act = Act(ActKind.MOVE, dest=dest, direct=not p.convoyed, convoyed=p.convoyed)
        elif isinstance(order, SupportHold):
            p.act = Act(ActKind.SUPPORT_HOLD, target=p.target)
        elif isinstance(order, SupportMove):
            p.act = Act(ActKind.SUPPORT_MOVE, target=p.target, dest=p.dest)
        elif isinstance(order, Convoy):
            p.act = Act(ActKind.CONVOY, target=p.target, dest=p.dest)
    # A support naming a coast must match the coast of the move it supports (4.B.4).
    for p in board.plans:
        order = p.order
        if isinstance(order, SupportMove) and p.problem is None and "/" in order.dest:
            t = board.plans[p.target]
            if t.unit.kind is Kind.FLEET and isinstance(t.order, Move) and t.problem is None and t.dest != order.dest:
                p.void = f"void: {t.unit.label()} moves to {t.dest}, not {order.dest}"
                p.act = Act()
    return [(power, order, reason) for power, order, reason in ignored]


# -- step 2: the core, step 3: results ---------------------------------------------------


def adjudicate_movement(
    gmap: ClassicMap, units: Sequence[Unit], orders: Mapping[str, Sequence[Order]]
) -> MovementOutcome:
    """Resolve a movement phase. ``orders`` maps each power to its orders; a unit
    without an order holds; an order for another power's unit is ignored."""
    board = Board(gmap, units)
    ignored = _plan(board, orders)
    pieces = [Piece(p.unit.power, p.unit.kind.value, p.unit.province, 1) for p in board.plans]
    core = Resolver(CLASSIC, pieces, [p.act for p in board.plans], gmap.near).run()
    return _Report(board, core).outcome(ignored)


class _Report:
    def __init__(self, board: Board, core: Resolver) -> None:
        self.board = board
        self.plans = board.plans
        self.core = core
        n = len(self.plans)
        self.dislodgers = [core.dislodgers(i) for i in range(n)]
        self.moved = [core.acts[i].kind is ActKind.MOVE and core.succeeded(i) for i in range(n)]

    def label(self, i: int) -> str:
        return self.plans[i].unit.label()

    def labels(self, ids: Sequence[int]) -> str:
        return ", ".join(sorted(self.label(i) for i in ids))

    def order_text(self, i: int) -> str:
        p = self.plans[i]
        return p.given.text() if p.given is not None else Hold(UnitRef(p.unit.kind, p.unit.region)).text()

    def by(self, i: int) -> str:
        m = self.dislodgers[i][0]
        return self.order_text(m)

    def outcome(self, ignored: list[tuple[str, Order, Problem]]) -> MovementOutcome:
        results = []
        for i, p in enumerate(self.plans):
            ok, reason = self.result(i)
            results.append(Result(p.unit.power, p.unit.label(), self.order_text(i), ok, reason))
        dislodged: list[Dislodged] = []
        units: list[Unit] = []
        occupied: set[str] = set()
        for i, p in enumerate(self.plans):
            if self.dislodgers[i]:
                m = self.dislodgers[i][0]
                u = p.unit
                dislodged.append(
                    Dislodged(u.power, u.kind, u.region, self.core.pieces[m].at, self.core.acts[m].convoyed)
                )
                continue
            region = p.dest if self.moved[i] else p.unit.region
            units.append(Unit(p.unit.power, p.unit.kind, region))
            occupied.add(region.split("/", 1)[0])
        contested = sorted(
            d
            for d, movers in self.core.into.items()
            if d not in occupied and any(self.core.prevent(m) > 0 for m in movers)
        )
        rejected = [
            Result(
                power, order.unit.text() if hasattr(order, "unit") else "", order.text(), False, f"ignored: {reason}"
            )
            for power, order, reason in ignored
        ]
        return MovementOutcome(results, rejected, sorted(dislodged), contested, sorted(units))

    # -- one unit's result ----------------------------------------------------------------
    def result(self, i: int) -> tuple[bool, str]:
        p = self.plans[i]
        core = self.core
        dislodged = f"; dislodged by {self.by(i)}" if self.dislodgers[i] else ""
        if p.problem is not None:
            return False, f"illegal: {p.problem}; it held" + dislodged
        if p.void is not None:
            return False, p.void + dislodged
        kind = core.acts[i].kind
        if kind is ActKind.MOVE:
            ok, reason = self.move_result(i)
            return ok, reason + dislodged
        if kind in (ActKind.SUPPORT_HOLD, ActKind.SUPPORT_MOVE):
            return self.support_result(i)
        if kind is ActKind.CONVOY:
            return self.convoy_result(i)
        if self.dislodgers[i]:
            return False, f"dislodged by {self.by(i)}"
        attackers = [m for m in core.into.get(p.unit.province, []) if core.pieces[m].gang != p.unit.power]
        if attackers:
            return True, f"held against {self.labels(attackers)}"
        return True, "held"

    def move_result(self, i: int) -> tuple[bool, str]:
        core = self.core
        dest = self.plans[i].dest
        if core.succeeded(i):
            reason = f"moved to {dest}"
            if core.acts[i].convoyed:
                reason += " by convoy"
            beaten = [v for v in core.at.get(core.acts[i].dest, []) if i in self.dislodgers[v]]
            if core.backup.get(i) is Backup.CIRCULAR:
                reason += " (circular movement)"
            elif beaten:
                reason += f", dislodging {self.labels(beaten)} ({core.attack(i)} vs {core.defence(i)})"
            return True, reason
        if core.backup.get(i) is Backup.PARADOX:
            return False, "paradox: the orders contradict each other, the move fails (backup rule)"
        if not core.path(i):
            carriers = core.carriers[i]
            if not carriers:
                return False, f"no convoy: no fleet is ordered to convoy it to {core.acts[i].dest}"
            paradox = [c for c in carriers.values() if core.backup.get(c) is Backup.SZYKMAN]
            if paradox:
                return False, f"convoy broken: convoy paradox, {self.labels(paradox)} held (Szykman rule)"
            broken = [c for c in carriers.values() if self.dislodgers[c]]
            if broken:
                return False, f"convoy broken: {self.labels(broken)} dislodged"
            return False, "no convoy route: the convoying fleets do not reach the destination"
        blocker = core.own_blocker(i)
        if blocker is not None:
            return False, f"blocked by own {self.label(blocker)}"
        attack, defence = core.attack(i), core.defence(i)
        gang = core.pieces[i].gang
        if attack <= defence:
            h2h = [v for v in core.h2h[i] if core.pieces[v].gang != gang]
            if h2h:
                return False, f"lost head to head with {self.labels(h2h)} ({attack} vs {defence})"
            holders = [v for v in core.at.get(core.acts[i].dest, []) if not core.leaves(v)]
            return False, f"held off by {self.labels(holders)} ({attack} vs {defence})"
        rivals = [j for j in core.rivals[i] if core.prevent(j) >= attack]
        best = max((core.prevent(j) for j in rivals), default=0)
        return False, f"bounced with {self.labels(rivals)} ({attack} vs {best})"

    def support_result(self, i: int) -> tuple[bool, str]:
        core = self.core
        if core.void[i]:
            return False, self.void_reason(i)
        if core.backup.get(i) is Backup.PARADOX:
            return False, "paradox: the orders contradict each other, the support fails (backup rule)"
        if core.succeeded(i):
            return True, "support given"
        if self.dislodgers[i]:
            return False, f"support cut: dislodged by {self.by(i)}"
        cutters = [m for m in core.cutters(i) if core.path(m)]
        return False, f"support cut by {self.labels(cutters)}"

    def void_reason(self, i: int) -> str:
        p = self.plans[i]
        t = self.plans[p.target]
        if isinstance(p.order, SupportHold):
            return f"void: {t.unit.label()} moves, and hold support only helps a unit that stays"
        if isinstance(t.order, Move) and t.problem is None:
            how = " over land, not by convoy" if isinstance(p.order, Convoy) and t.dest == p.dest else ""
            return f"void: {t.unit.label()} moves to {t.dest}{how}" + ("" if how else f", not {p.dest}")
        return f"void: {t.unit.label()} does not move to {p.dest}"

    def convoy_result(self, i: int) -> tuple[bool, str]:
        core = self.core
        if core.void[i]:
            return False, self.void_reason(i)
        dislodged = f"; dislodged by {self.by(i)}" if self.dislodgers[i] else ""
        if core.backup.get(i) is Backup.SZYKMAN:
            return False, "convoy paradox: the fleet holds (Szykman rule)" + dislodged
        if core.backup.get(i) is Backup.PARADOX:
            return False, "paradox: the orders contradict each other, the fleet holds" + dislodged
        if self.dislodgers[i]:
            return False, f"convoy disrupted: dislodged by {self.by(i)}"
        t = core.acts[i].target
        if core.succeeded(t):
            return True, f"convoyed {self.label(t)} to {core.acts[t].dest}"
        return True, f"the fleet held its place, but {self.label(t)} did not reach {core.acts[t].dest}"


def _label(order: Order) -> str:
    ref = unit_of(order)
    return ref.text() if ref is not None else ""
