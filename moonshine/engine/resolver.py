"""The decision core of the adjudicator: the DATC's "Math of Adjudication" (DATC v3.0,
chapter 5), generalised to units of different strengths and to stacks.

Every unit has one act (hold, move, support, transport, assault). The core decides
three kinds of orders, as in Diplomacy: a MOVE succeeds or fails, a SUPPORT is given
or cut, a CONVOY (Moonshine's transport) is kept or disrupted. Each decision is a
condition on other decisions (DATC 5.B). They are resolved by guess and check:

1. the decisions each one reads form a graph; its strongly connected groups are
   taken in order, those a group reads being already settled;
2. a group of one decision that does not read itself is simply computed;
3. a cycle is guessed and checked (DATC 5.C, 5.F): every assignment of its
   decisions is tried (with propagation, so a ring of moves costs two guesses);
   when exactly one is consistent it is the answer;
4. with none or several, the backup rule decides (DATC 5.B.9): a cycle through a
   transport, Szykman's rule (its carriers hold, then the rest is resolved
   again); otherwise circular movement, the answer in which the moves succeed
   (when one answer's successful moves include every other's); anything else
   (no answer at all, say) is a paradox in which all orders of the cycle fail.
   A cycle needing more than ``search_limit`` complete guesses counts as a
   paradox too (none has come near it: rings cost two).

As in DATC 5.D, a carrier's decision reads what its attackers read rather than
the attackers themselves, so that a transport paradox is one clean cycle.

The core knows nothing of Chicago, money or text. It sees pieces (gang, kind,
strength, district) and acts, and rule choices come from a ``Rulebook``:

- strength: a unit adds its own strength, and a support the supporter's strength
  (R6) or 1 (classic);
- stacking: one gang's units of different kinds may share a district (R4): they
  neither block nor fight each other;
- the DATC's issues 4.A.2, 4.A.3, 4.A.4, 4.A.5 and 4.A.7 are named choices.

A district's units may be several (a stack), so the DATC's strengths are sums:
the hold strength of a district sums its staying units, and in a head-to-head
battle a side's defence sums its units in the battle plus those that stay.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from enum import Enum
from types import MappingProxyType

import msgspec

from moonshine.engine import routes
from moonshine.engine.rulebook import Rulebook


class ActKind(Enum):
    HOLD = "hold"
    MOVE = "move"
    SUPPORT_HOLD = "support hold"
    SUPPORT_MOVE = "support move"
    SUPPORT_ASSAULT = "support assault"
    ASSAULT = "assault"
    CONVOY = "convoy"


SUPPORTS = (ActKind.SUPPORT_HOLD, ActKind.SUPPORT_MOVE, ActKind.SUPPORT_ASSAULT)
# Enum members as plain names: looking them up on the class costs a descriptor call.
_MOVE, _CONVOY, _ASSAULT = ActKind.MOVE, ActKind.CONVOY, ActKind.ASSAULT
_SUPPORT_HOLD, _SUPPORT_MOVE, _SUPPORT_ASSAULT = SUPPORTS
_NONE: tuple[int, ...] = ()  # the shared empty list of a piece with no supports, rivals...
_NO_CARRIERS: Mapping[str, int] = MappingProxyType({})
# Tuples, not sets: membership by identity, where a set would call Enum.__hash__.
_SERVING = (*SUPPORTS, ActKind.CONVOY)  # acts that serve another piece's act
_DECIDED = (ActKind.MOVE, *SUPPORTS, ActKind.CONVOY)  # acts the core decides


class Piece(msgspec.Struct, frozen=True):
    gang: str
    kind: str
    at: str
    strength: int


class Act(msgspec.Struct, frozen=True):
    """What one piece does. ``target`` is a piece index (supports, convoys); ``dest``
    the destination (moves, supported moves, convoys) or the station's district
    (assaults and their supports)."""

    kind: ActKind = ActKind.HOLD
    target: int = -1
    dest: str = ""
    direct: bool = True  # a move across the shared border (head-to-head possible)
    convoyed: bool = False  # a move that needs carriers
    route: tuple[str, ...] | None = None  # the carriers' districts, in order, when named


class Backup(Enum):
    """How the backup rule decided an order (None: by its own conditions)."""

    CIRCULAR = "circular movement"
    SZYKMAN = "transport paradox (Szykman rule)"
    PARADOX = "paradox"


class Resolver:
    """Resolve all decisions of one turn. Construct, then call ``run()``; afterwards the
    query methods (``succeeded``, ``attack``, ``defence``, ``prevent``, ``dislodgers``...)
    read the final values."""

    def __init__(
        self,
        rules: Rulebook,
        pieces: Sequence[Piece],
        acts: Sequence[Act],
        neighbours: Mapping[str, Collection[str]],
    ) -> None:
        if len(pieces) != len(acts):
            raise ValueError(f"{len(pieces)} pieces but {len(acts)} acts")
        self._pieces: Sequence[Piece] | None = pieces
        gangs = [p.gang for p in pieces]
        kinds = [p.kind for p in pieces]
        places = [p.at for p in pieces]
        strengths = [p.strength for p in pieces]
        self._setup(rules, gangs, kinds, places, strengths, acts, neighbours)

    @classmethod
    def from_columns(
        cls,
        rules: Rulebook,
        gangs: list[str],
        kinds: list[str],
        places: list[str],
        strengths: list[int],
        acts: Sequence[Act],
        neighbours: Mapping[str, Collection[str]],
    ) -> Resolver:
        """The resolver of the pieces ``Piece(gangs[i], kinds[i], places[i],
        strengths[i])``, given as one list per attribute (no object per piece). The
        lists become the resolver's columns: they are not copied."""
        n = len(acts)
        if not len(gangs) == len(kinds) == len(places) == len(strengths) == n:
            sizes = ", ".join(str(len(c)) for c in (gangs, kinds, places, strengths))
            raise ValueError(f"columns of {sizes} pieces but {n} acts")
        core = cls.__new__(cls)
        core._pieces = None
        core._setup(rules, gangs, kinds, places, strengths, acts, neighbours)
        return core

    @property
    def pieces(self) -> Sequence[Piece]:
        """The pieces, as given or made from the columns on first use."""
        if self._pieces is None:
            self._pieces = [Piece(*p) for p in zip(self.gang, self.unit_kind, self.loc, self.strength, strict=True)]
        return self._pieces

    def _setup(
        self,
        rules: Rulebook,
        gangs: list[str],
        kinds: list[str],
        places: list[str],
        strengths: list[int],
        acts: Sequence[Act],
        neighbours: Mapping[str, Collection[str]],
    ) -> None:
        self.rules = rules
        self.acts = acts
        self.nb = neighbours
        n = len(acts)
        # One int object per piece index, shared by every list below (iterating over
        # a range makes a new one each time).
        self.ids = ids = list(range(n))
        # Columns: one list per attribute reads faster than one object per piece.
        self.gang = gangs
        self.unit_kind = kinds
        self.loc = loc = places
        self.strength = strengths
        self.op = op = [a.kind for a in acts]
        self.dest = dest = [a.dest for a in acts]
        self.direct = direct = [a.direct for a in acts]
        self.convoyed = [a.convoyed for a in acts]
        self.stacking = rules.stacking
        self.at = at = _group(ids, loc)
        moves = [i for i in ids if op[i] is _MOVE]
        self.into = into = _group(moves, dest)
        self.void = [False] * n
        # Per piece, shared empty tuples until something is attached (most pieces have
        # nothing: one list per piece and kind would cost more than the resolution).
        self.move_sup: list[Sequence[int]] = [_NONE] * n
        self.hold_sup: list[Sequence[int]] = [_NONE] * n
        self.assault_sup: list[Sequence[int]] = [_NONE] * n
        self.carriers: list[Mapping[str, int]] = [_NO_CARRIERS] * n
        self.sup_into: list[str | None] = [None] * n  # the district a support is given into
        for s in ids:
            if op[s] in _SERVING:
                self._link(s, acts[s])
        # Per move: units it meets head to head, rival moves, the units whose successful
        # move takes away its power to bounce (4.A.7).
        self.h2h: list[Sequence[int]] = [_NONE] * n
        self.rivals: list[Sequence[int]] = [_NONE] * n
        self.beaters: list[Sequence[int]] = [_NONE] * n
        # The lists of ``at`` and ``into`` each piece reads, found once: per move, the
        # pieces at its destination; per piece, the moves into its district.
        self.at_dest: list[Sequence[int]] = [_NONE] * n
        self.into_at: list[Sequence[int]] = [_NONE] * n
        for to, movers in into.items():
            for v in at.get(to, _NONE):
                self.into_at[v] = movers
        choice_b = rules.dislodged_unit_bounces_unless_head_to_head
        for i in moves:
            to = dest[i]
            movers = into[to]
            if len(movers) > 1:
                rivals = [j for j in movers if j != i and not self.compatible(i, j)]
                if rivals:
                    self.rivals[i] = rivals
            origin = loc[i]
            gang = gangs[i]
            h2h: list[int] | None = None
            beaters: list[int] | None = None
            there = self.at_dest[i] = at.get(to, _NONE)
            for j in there:
                if op[j] is not _MOVE or dest[j] != origin or self.compatible(i, j):
                    continue
                both_direct = direct[i] and direct[j]
                if both_direct:
                    if h2h is None:
                        h2h = self.h2h[i] = []
                    h2h.append(j)
                if gangs[j] != gang and (both_direct or not choice_b):
                    if beaters is None:
                        beaters = self.beaters[i] = []
                    beaters.append(j)
        # Decision state.
        void = self.void
        self.decides = [not void[i] and op[i] in _DECIDED for i in ids]
        self.resolved = [not d for d in self.decides]
        self.res = [True] * n
        self.backup: dict[int, Backup] = {}
        # The attack and defence of a move decided on its own (not guessed in a cycle),
        # kept as they were when it was decided: everything they read was settled
        # before it, so they are the final values, and the queries below (the report's
        # reasons) need not compute them again.
        self.kept_strengths: dict[int, tuple[int, int]] = {}
        self.search_limit = 1 << 12  # complete assignments tried in one cycle, at most

    # -- static structure ------------------------------------------------------------
    def _link(self, s: int, a: Act) -> None:
        """Attach a support or convoy to the order it serves, or mark it void."""
        if a.kind not in SUPPORTS and a.kind is not _CONVOY:
            return
        t = a.target
        if not 0 <= t < len(self.acts) or t == s:
            self.void[s] = True
            return
        b = self.acts[t]
        if a.kind is _SUPPORT_HOLD:
            if b.kind is _MOVE:
                self.void[s] = True
            else:
                self._attach(self.hold_sup, t, s)
                self.sup_into[s] = self.loc[t]
        elif a.kind is _SUPPORT_MOVE:
            if b.kind is not _MOVE or b.dest != a.dest:
                self.void[s] = True
            else:
                self._attach(self.move_sup, t, s)
                self.sup_into[s] = a.dest
        elif a.kind is _SUPPORT_ASSAULT:
            if b.kind is not _ASSAULT or b.dest != a.dest:
                self.void[s] = True
            else:
                self._attach(self.assault_sup, t, s)
        else:
            at = self.loc[s]
            if (
                b.kind is not _MOVE
                or not b.convoyed
                or b.dest != a.dest
                or (b.route is not None and at not in b.route)
                or at in (b.dest, self.loc[t])
            ):
                self.void[s] = True
            else:
                carriers = self.carriers[t]
                if carriers is _NO_CARRIERS:
                    carriers = self.carriers[t] = {}
                carriers[at] = s  # type: ignore[index]

    @staticmethod
    def _attach(store: list[Sequence[int]], t: int, s: int) -> None:
        got = store[t]
        if got is _NONE:
            store[t] = [s]
        else:
            got.append(s)  # type: ignore[attr-defined]

    def compatible(self, i: int, j: int) -> bool:
        """May pieces i and j share a district (R4: one gang's L and H)?"""
        return self.stacking and self.gang[i] == self.gang[j] and self.unit_kind[i] != self.unit_kind[j]

    def support_value(self, s: int) -> int:
        return self.strength[s] if self.rules.support_adds_supporter_strength else 1

    # -- resolution -----------------------------------------------------------------------
    def resolve(self, i: int) -> bool:
        """The decision of order i, once settled (or guessed, while a cycle is checked)."""
        if not self.resolved[i]:
            raise RuntimeError(f"decision {i} read before it is settled: the read graph misses an edge")
        return self.res[i]

    def _settle(self, i: int, value: bool) -> None:
        self.res[i] = value
        self.resolved[i] = True

    def _decide_alone(self, i: int) -> None:
        """Settle a decision that reads no other (a move keeps what it found out)."""
        self._settle(i, self._move(i, keep=True) if self.op[i] is _MOVE else self._adjudicate(i))

    def run(self) -> Resolver:
        """Resolve every decision: the read graph's strongly connected groups (Tarjan's
        algorithm, iterative, roots in order) are solved as they are found, each after
        every group it reads. A decision's reads are found when it is first visited and
        dropped once it is settled, so that they live only while they are needed."""
        n = len(self.acts)
        ids, decides = self.ids, self.decides
        reads: list[Sequence[int]] = [_NONE] * n
        index = [-1] * n
        low = [0] * n
        on_stack = [False] * n
        stack: list[int] = []
        count = 0
        for root in ids:
            if not decides[root] or index[root] >= 0:
                continue
            # Most decisions read none: each is a group of its own, decided at once
            # (here and where it is first reached below), without entering the stack.
            first = self._reads(root)
            if not first:
                index[root] = ids[count]
                count += 1
                self._decide_alone(root)
                continue
            reads[root] = first
            work: list[tuple[int, int]] = [(root, 0)]
            while work:
                node, k = work.pop()
                if k == 0:
                    index[node] = low[node] = ids[count]
                    count += 1
                    stack.append(node)
                    on_stack[node] = True
                succ = reads[node]
                for pos in range(k, len(succ)):
                    nxt = succ[pos]
                    if index[nxt] < 0:
                        found = self._reads(nxt)
                        if not found:
                            index[nxt] = ids[count]
                            count += 1
                            self._decide_alone(nxt)
                            continue
                        reads[nxt] = found
                        work.append((node, pos + 1))
                        work.append((nxt, 0))
                        break
                    if on_stack[nxt] and index[nxt] < low[node]:
                        low[node] = index[nxt]
                else:
                    if low[node] == index[node]:
                        top = stack.pop()
                        on_stack[top] = False
                        if top != node:
                            group = [top]
                            while top != node:
                                top = stack.pop()
                                on_stack[top] = False
                                group.append(top)
                            group.sort()
                            self._solve(group, reads)
                            for i in group:
                                reads[i] = _NONE
                        elif node in succ:
                            self._solve([node], reads)
                            reads[node] = _NONE
                        else:
                            self._decide_alone(node)
                            reads[node] = _NONE
                    if work:
                        parent = work[-1][0]
                        if low[node] < low[parent]:
                            low[parent] = low[node]
        return self

    def _solve(self, group: list[int], reads: Sequence[Sequence[int]]) -> None:
        if len(group) == 1 and group[0] not in reads[group[0]]:
            self._settle(group[0], self._adjudicate(group[0]))
            return
        solutions = self._guess_and_check(group, reads)
        if len(solutions) == 1:
            for i, value in solutions[0].items():
                self._settle(i, value)
            return
        self._backup_rule(group, reads, solutions)

    def _guess_and_check(self, group: list[int], reads: Sequence[Sequence[int]]) -> list[dict[int, bool]]:
        """The consistent assignments of a cycle of decisions (at most two are looked
        for). Decisions whose reads are all known are computed, not guessed."""
        members = set(group)
        inner = {i: [r for r in reads[i] if r in members] for i in group}
        solutions: list[dict[int, bool]] = []
        budget = [self.search_limit]
        self._search(group, inner, [], solutions, budget)
        if budget[0] <= 0 and len(solutions) < 2:
            return []  # too many guesses: treated as a paradox
        return solutions

    def _search(
        self,
        group: list[int],
        inner: Mapping[int, list[int]],
        guessed: list[int],
        solutions: list[dict[int, bool]],
        budget: list[int],
    ) -> None:
        """Settle what follows from the guesses so far, then guess the first free
        decision both ways (a method, not a nested function: a function that calls
        itself through its closure is a reference cycle)."""
        resolved, res = self.resolved, self.res
        trail: list[int] = []
        progress = True
        while progress:
            progress = False
            for i in group:
                if not resolved[i] and all(resolved[r] for r in inner[i]):
                    res[i] = self._adjudicate(i)
                    resolved[i] = True
                    trail.append(i)
                    progress = True
        free = next((i for i in group if not resolved[i]), None)
        if free is None:
            budget[0] -= 1
            if all(self._adjudicate(g) == res[g] for g in guessed):
                solutions.append({i: res[i] for i in group})
        else:
            for value in (False, True):
                if len(solutions) >= 2 or budget[0] <= 0:
                    break
                res[free] = value
                resolved[free] = True
                self._search(group, inner, [*guessed, free], solutions, budget)
                resolved[free] = False
        for i in trail:
            resolved[i] = False

    def _backup_rule(self, group: list[int], reads: Sequence[Sequence[int]], solutions: list[dict[int, bool]]) -> None:
        """A cycle with no consistent answer, or several (DATC 5.B.9)."""
        convoys = [i for i in group if self.op[i] is _CONVOY]
        if convoys and self.rules.paradox_rule == "szykman":
            for c in convoys:
                self.backup[c] = Backup.SZYKMAN
                self._settle(c, False)
            rest = [i for i in group if i not in self.backup]
            for sub in _strongly_connected(rest, reads):
                self._solve(sub, reads)
            return
        if not convoys and solutions and self.rules.circular_movement_succeeds:
            # Circular movement: the answer in which the moves succeed. With stacks a
            # cycle may hold moves that fail in every answer (an L bounced beside the
            # ring), so it is the answer whose successful moves include all others'.
            def moving(sol: dict[int, bool]) -> set[int]:
                return {i for i, v in sol.items() if v and self.op[i] is _MOVE}

            best = max(solutions, key=lambda sol: len(moving(sol)))
            if all(moving(sol) <= moving(best) for sol in solutions):
                for i, value in best.items():
                    self._settle(i, value)
                    if value and self.op[i] is _MOVE:
                        self.backup[i] = Backup.CIRCULAR
                return
        # Any other paradox (DATC 5.B.9: "let all orders in the cycle fail"). Stacks
        # make new ones: an L supporting its gang's H out of a district, dislodged by
        # the unit the H passes on its way, cuts its support only if it is cut.
        for i in group:
            self.backup[i] = Backup.PARADOX
            self._settle(i, False)

    def _reads(self, i: int) -> Sequence[int]:
        """The decisions order i's conditions read (a superset is harmless), sorted."""
        op = self.op[i]
        out: list[int] = []
        if op is _MOVE:
            self._move_reads(i, out)
        else:
            into = self.into_at[i]
            if not into:  # nothing moves into its district: a support or convoy reads nothing
                return _NONE
            gang = self.gang[i]
            if op is _CONVOY:
                for m in into:
                    if self.gang[m] != gang:
                        self._move_reads(m, out)  # DATC 5.D: not m itself
            else:
                carriers = self.carriers
                for m in self.cutters(i):
                    if carriers[m]:
                        out.extend(carriers[m].values())
                out.extend(m for m in into if self.gang[m] != gang)
        if not out:
            return _NONE
        decides = self.decides
        if len(out) == 1:
            return out if decides[out[0]] else _NONE
        return sorted({r for r in out if decides[r]})

    def _move_reads(self, i: int, out: list[int]) -> None:
        """Add to ``out`` the decisions move i's conditions read (repeats allowed)."""
        carriers, move_sup, hold_sup = self.carriers, self.move_sup, self.hold_sup
        if carriers[i]:
            out.extend(carriers[i].values())
        out.extend(move_sup[i])
        op = self.op
        for v in self.at_dest[i]:
            if op[v] is _MOVE:
                out.append(v)
            out.extend(move_sup[v])
            out.extend(hold_sup[v])
        for j in self.rivals[i]:
            if carriers[j]:
                out.extend(carriers[j].values())
            beaters = self.beaters[j]
            out.extend(beaters)
            out.extend(move_sup[j])
            if any(o not in self.h2h[j] for o in beaters):
                out.append(j)

    def _adjudicate(self, i: int) -> bool:
        kind = self.op[i]
        if kind is _MOVE:
            return self._move(i)
        if kind is _CONVOY:
            return self._convoy(i)
        return self._support(i)

    # -- conditions (DATC 5.B, generalised) --------------------------------------------
    def leaves(self, v: int) -> bool:
        """Piece v moves away successfully."""
        return self.op[v] is _MOVE and self.resolve(v)

    def path(self, i: int) -> bool:
        """A move's route holds (DATC 5.B.4): always over the border; by transport when
        a chain of kept carriers links origin and destination."""
        if not self.convoyed[i]:
            return True
        a = self.acts[i]
        carriers = self.carriers[i]
        origin = self.loc[i]
        if a.route is not None:
            prev = origin
            for d in a.route:
                c = carriers.get(d)
                if c is None or d not in self.nb[prev] or not self.resolve(c):
                    return False
                prev = d
            return a.dest in self.nb[prev]
        resolve = self.resolve
        return routes.linked(self.nb, origin, a.dest, lambda d: d in carriers and resolve(carriers[d]))

    def hold(self, v: int) -> int:
        """The strength piece v adds to its district's hold (DATC 5.B.5)."""
        if self.op[v] is _MOVE:
            return 0 if self.resolve(v) else self.strength[v]
        total = self.strength[v]
        for s in self.hold_sup[v]:
            if self.resolve(s):
                total += self.support_value(s)
        return total

    def defend(self, v: int) -> int:
        """The defence of a unit in a head-to-head battle (DATC 5.B.7)."""
        total = self.strength[v]
        for s in self.move_sup[v]:
            if self.resolve(s):
                total += self.support_value(s)
        return total

    def excluded_gangs(self, i: int) -> set[str]:
        """Gangs whose units at the destination would be dislodged: their supports do
        not count in the attack (a gang never helps dislodge its own units)."""
        gang = self.gang[i]
        out: set[str] = set()
        h2h = self.h2h[i]
        for v in self.at_dest[i]:
            g = self.gang[v]
            if g != gang and g not in out and (v in h2h or not self.leaves(v)):
                out.add(g)
        return out

    def attack(self, i: int) -> int:
        """A move's attack strength (DATC 5.B.8), 0 when its route fails."""
        kept = self.kept_strengths.get(i)
        if kept is not None:
            return kept[0]
        if not self.path(i):
            return 0
        total = self.strength[i]
        supports = self.move_sup[i]
        if supports:  # most moves have none: no gangs to exclude
            excluded = self.excluded_gangs(i)
            for s in supports:
                if self.gang[s] not in excluded and self.resolve(s):
                    total += self.support_value(s)
        return total

    def defence(self, i: int) -> int:
        """What move i must beat at its destination: the hold of the other gangs' units
        that stay, and the defence of those it meets head to head."""
        kept = self.kept_strengths.get(i)
        if kept is not None:
            return kept[1]
        gang = self.gang[i]
        h2h = self.h2h[i]
        total = 0
        for v in self.at_dest[i]:
            if self.gang[v] == gang:
                continue
            total += self.defend(v) if v in h2h else self.hold(v)
        return total

    def prevent(self, j: int) -> int:
        """How strongly move j keeps others out of its destination (DATC 5.B.6)."""
        if not self.path(j):
            return 0
        for o in self.beaters[j]:
            # A unit beaten head to head has no effect where its attacker came from;
            # by 4.A.7 choice a, neither has a unit dislodged from there otherwise.
            if self.resolve(o) and (o in self.h2h[j] or not self.resolve(j)):
                return 0
        return self.defend(j)

    def own_blocker(self, i: int) -> int | None:
        """A unit of the mover's gang that cannot share the destination and does not
        leave it (or comes the other way across the border): the move fails."""
        gang = self.gang[i]
        h2h = self.h2h[i]
        for v in self.at_dest[i]:
            if v != i and self.gang[v] == gang and not self.compatible(i, v) and (v in h2h or not self.leaves(v)):
                return v
        return None

    def _move(self, i: int, keep: bool = False) -> bool:
        if not self.path(i):
            return False
        if self.at_dest[i]:
            if self.own_blocker(i) is not None:
                return False
            attack = self.attack(i)
            defence = self.defence(i)
        else:  # an empty destination: no unit of its own to block it, nothing to beat
            attack = self.attack(i) if self.move_sup[i] else self.strength[i]
            defence = 0
        if keep:
            self.kept_strengths[i] = (attack, defence)
        if attack <= defence:
            return False
        for j in self.rivals[i]:  # noqa: SIM110 (a plain loop is faster than all())
            if attack <= self.prevent(j):
                return False
        return True

    def cutters(self, s: int) -> list[int]:
        """Moves that would cut support s if their route holds (DATC 5.B.2)."""
        gang = self.gang[s]
        into = self.sup_into[s]
        out = []
        for m in self.into_at[s]:
            if self.gang[m] == gang:
                continue
            if (
                into is not None
                and self.loc[m] == into
                and not (self.convoyed[m] and self.rules.transport_from_target_cuts_support)
            ):
                continue
            out.append(m)
        return out

    def _support(self, s: int) -> bool:
        for m in self.cutters(s):
            if self.path(m):
                return False
        return not self.dislodgers(s)

    def _convoy(self, c: int) -> bool:
        # DATC 5.D: the carrier's attackers are adjudicated, not resolved, so that a
        # paradox forms one clean cycle (carrier and the support it depends on).
        gang = self.gang[c]
        for m in self.into_at[c]:
            if self.gang[m] == gang:
                continue
            if self.res[m] if self.resolved[m] else self._move(m):
                return False
        return True

    # -- queries ------------------------------------------------------------------------
    def succeeded(self, i: int) -> bool:
        return self.resolve(i) if self.decides[i] else not self.void[i]

    def dislodgers(self, v: int) -> Sequence[int]:
        """The other gangs' moves that succeed into v's district while v stays."""
        into = self.into_at[v]
        if not into or self.leaves(v):
            return _NONE
        gang = self.gang[v]
        return [m for m in into if self.gang[m] != gang and self.resolve(m)] or _NONE

    def assault_strength(self, i: int) -> int:
        total = self.strength[i]
        for s in self.assault_sup[i]:
            if self.resolve(s):
                total += self.support_value(s)
        return total

    def inconsistencies(self) -> list[int]:
        """Decided orders whose own conditions, read again after resolution, disagree
        with their decision (the backup rule's decisions excepted). Always empty when
        the resolution is a true solution; a check for tests."""
        return [
            i
            for i in range(len(self.acts))
            if self.decides[i] and i not in self.backup and self._adjudicate(i) != self.res[i]
        ]


def _group(ids: Iterable[int], keys: Sequence[str]) -> dict[str, list[int]]:
    """The ids by their key, in order (one list per key, none per id)."""
    out: dict[str, list[int]] = {}
    for i in ids:
        got = out.get(keys[i])
        if got is None:
            out[keys[i]] = [i]
        else:
            got.append(i)
    return out


def _strongly_connected(nodes: list[int], edges: Sequence[Sequence[int]]) -> list[list[int]]:
    """Tarjan's strongly connected components of the graph restricted to ``nodes``,
    each group after every group it reads (iterative, deterministic)."""
    inside = set(nodes)
    index: dict[int, int] = {}
    low: dict[int, int] = {}
    on_stack: set[int] = set()
    stack: list[int] = []
    out: list[list[int]] = []
    for root in nodes:
        if root in index:
            continue
        work: list[tuple[int, int]] = [(root, 0)]
        while work:
            node, k = work.pop()
            if k == 0:
                index[node] = low[node] = len(index)
                stack.append(node)
                on_stack.add(node)
            succ = [e for e in edges[node] if e in inside]
            for pos in range(k, len(succ)):
                nxt = succ[pos]
                if nxt not in index:
                    work.append((node, pos + 1))
                    work.append((nxt, 0))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                if low[node] == index[node]:
                    group: list[int] = []
                    while True:
                        top = stack.pop()
                        on_stack.discard(top)
                        group.append(top)
                        if top == node:
                            break
                    out.append(sorted(group))
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
    return out
