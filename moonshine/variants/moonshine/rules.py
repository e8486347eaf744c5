"""The Moonshine variant's rules for a unit's order, in one place: reach (R8),
transport chains (R10), retreat usability (R7), ownership (R12), and what makes a
unit order possible at all. The order checker (``validate``) and the adjudicator
(``adjudicator``, ``turn``) both call these functions, so an order the checker
accepts is one the adjudicator carries out, and one it rejects is one the
adjudicator would refuse. Pure: map and position in; verdicts out.

A verdict's reason is a bilingual ``Message``: the checker shows it to the player,
the adjudicator puts its English text in the result ("rejected: ...")."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Mapping, Set
from functools import cached_property
from types import MappingProxyType

import msgspec

from moonshine.engine import routes
from moonshine.engine.rulebook import Rulebook
from moonshine.text.catalogue import Message, say
from moonshine.variants.moonshine.map import GameMap, UnitKind
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
from moonshine.variants.moonshine.parser import join
from moonshine.variants.moonshine.state import GameState, Unit

# unit kind -> districts it may move in one turn (R8: L 2, H 1)
REACH: Mapping[str, int] = MappingProxyType({"L": 2, "H": 1})

MOONSHINE = Rulebook(
    strengths=MappingProxyType({"L": UnitKind.L.strength, "H": UnitKind.H.strength}),
    stacking=True,
    support_adds_supporter_strength=True,
    carried_kinds=frozenset({"H"}),
    carrier_kinds=frozenset({"L"}),
    assault_kinds=frozenset({"H"}),
)


# -- verdicts ----------------------------------------------------------------------------


class Verdict(msgspec.Struct, frozen=True):
    """The check of one order: a reason when it is rejected, notes when it stands."""

    reason: Message | None = None
    hint: Message | None = None
    notes: tuple[Message, ...] = ()

    @property
    def ok(self) -> bool:
        return self.reason is None


def no(en: str, hint: Message | None = None, **params: object) -> Verdict:
    return Verdict(say(en, **params), hint)


OK = Verdict()


# -- the position as the rules read it ---------------------------------------------------


class Position(msgspec.Struct, frozen=True, dict=True):
    """The units on the board at the moment orders are carried out, by kind and
    district, and the turn (a unit recruited this turn holds, R18)."""

    gmap: GameMap
    turn: str
    units: Mapping[tuple[UnitKind, str], Unit] = msgspec.field(default_factory=dict)

    @classmethod
    def of(cls, gmap: GameMap, st: GameState) -> Position:
        return cls(gmap, st.turn, {(u.kind, u.district): u for u in st.units})

    def unit(self, ref: UnitRef) -> Unit | None:
        return self.units.get((ref.kind, ref.district))

    def is_new(self, unit: Unit) -> bool:
        return bool(unit.recruited) and unit.recruited == self.turn

    @cached_property
    def carriers(self) -> frozenset[str]:
        """R10: districts whose delivery man can carry this turn (not a new one, R18)."""
        return frozenset(d for (k, d), u in self.units.items() if k is UnitKind.L and not self.is_new(u))


# -- R8, R10, R12 ------------------------------------------------------------------------


def reach(gmap: GameMap, kind: UnitKind, origin: str) -> set[str]:
    """R8: where a unit could move by itself: an H next door, an L one or two steps."""
    return gmap.within(origin, REACH[kind.value])


def carried(gmap: GameMap, carriers: Iterable[str], origin: str, dest: str) -> bool:
    """R10: a chain of delivery men's districts links a neighbour of ``origin`` to a
    neighbour of ``dest``."""
    # the carriers are asked, not copied: a transport costs its chain, not the whole board
    pool = carriers if isinstance(carriers, Set) else frozenset(carriers)
    return routes.linked(_Nb(gmap), origin, dest, lambda d: d in pool and d != origin and d != dest)


def can_reach(pos: Position, ref: UnitRef, dest: str) -> bool:
    """A move the unit could make this turn: by itself (R8), or an H carried (R10)."""
    if ref.district == dest:
        return False
    if dest in reach(pos.gmap, ref.kind, ref.district):
        return True
    return ref.kind is UnitKind.H and carried(pos.gmap, pos.carriers, ref.district, dest)


def owner(pos: Position, ref: UnitRef) -> str | None:
    """R12: whose unit ``ref`` names on the board (None: no such unit)."""
    u = pos.unit(ref)
    return None if u is None else u.gang


def owns(pos: Position, gang: str, ref: UnitRef) -> bool:
    """R12: a gang orders only its own units."""
    return owner(pos, ref) == gang


class _Nb(Mapping[str, tuple[str, ...]]):
    """The map's neighbours as ``routes`` reads them, without copying the map."""

    __slots__ = ("_d",)

    def __init__(self, gmap: GameMap) -> None:
        self._d = gmap.districts

    def __getitem__(self, code: str) -> tuple[str, ...]:
        return self._d[code].neighbours

    def __iter__(self) -> Iterator[str]:
        return iter(self._d)

    def __len__(self) -> int:
        return len(self._d)


def neighbours(gmap: GameMap) -> Mapping[str, tuple[str, ...]]:
    """The map's neighbours, for ``routes`` and the resolver."""
    return _Nb(gmap)


# -- one unit order ------------------------------------------------------------------------


def order_districts(order: UnitOrder | Retreat) -> list[str]:
    """Every district an order names."""
    out = [order.unit.district]
    if isinstance(order, Move):
        out += [order.dest, *order.path, *order.via]
    elif isinstance(order, Retreat):
        out += list(order.choices)
    elif isinstance(order, Assault):
        out.append(order.station)
    elif isinstance(order, SupportHold):
        out.append(order.target.district)
    elif isinstance(order, SupportMove | Transport):
        out += [order.target.district, order.dest]
    elif isinstance(order, SupportAssault):
        out += [order.target.district, order.station]
    return out


def check_unit_order(pos: Position, order: UnitOrder | Retreat) -> Verdict:
    """Is the order possible for its unit, whatever the others do (R7 to R11)? The
    unit's ownership and age are the caller's (``owns``, R18)."""
    names = [order.unit.district] if isinstance(order, Retreat) else order_districts(order)
    unknown = [d for d in names if d not in pos.gmap.districts]
    if unknown:
        return no("no district {d} on this map", d=join(unknown))
    if isinstance(order, Hold):
        return OK
    if isinstance(order, Move):
        return _check_move(pos, order)
    if isinstance(order, Retreat):
        return check_retreat(pos.gmap, order)
    if isinstance(order, Assault):
        return _check_assault(pos, order)
    if isinstance(order, Transport):
        return _check_transport(pos, order)
    return _check_support(pos, order)


def neighbours_hint(gmap: GameMap, code: str) -> Message:
    return say("neighbours of {d}: {n}", d=code, n=join(gmap.map_order(gmap.neighbours(code))))


def station_hint(gmap: GameMap, code: str) -> Message:
    p = gmap.precinct_of(code)
    name = gmap.districts[p].station or p
    return say("{d} depends on the station in {p} ({name})", d=code, p=p, name=name)


def _check_move(pos: Position, order: Move) -> Verdict:
    gmap = pos.gmap
    unit, origin, dest = order.unit, order.unit.district, order.dest
    if dest == origin:
        return no("{u} is already in {d}", u=unit.text(), d=dest)
    if unit.kind is UnitKind.L:
        if order.via:
            return no(
                "a delivery man is not transported (R10): it goes by its own path (R8)",
                say(
                    "write its path: {e}",
                    e=" - ".join([unit.text(), (order.path or order.via)[0], dest]),
                ),
            )
        if len(order.path) > 1:
            return no("a delivery man moves at most two districts (R8)")
        steps = [origin, *order.path, dest] if order.path else []
        if len(set(steps)) != len(steps):
            return no(
                "the path {r} passes a district twice",
                r=" - ".join(steps),
            )
        for a, b in itertools.pairwise(steps):
            if not gmap.adjacent(a, b):
                return no(
                    "{b} is not next to {a} (R8)",
                    neighbours_hint(gmap, a),
                    a=a,
                    b=b,
                )
        within = reach(gmap, UnitKind.L, origin)
        if dest not in within:
            return no(
                "{d} is more than two districts from {o} (R8)",
                say("within reach of {u}: {r}", u=unit.text(), r=join(gmap.map_order(within))),
                d=dest,
                o=origin,
            )
        return OK
    # a henchman: one step, or carried by delivery men (R8, R10)
    if order.path:
        return no(
            "a henchman moves one district (R8)",
            say(
                "to be carried, write {e}",
                e=f"{unit.text()} - {dest} via {', '.join(order.path)}",
            ),
        )
    if order.via:
        route = [origin, *order.via, dest]
        if len(set(route)) != len(route):
            return no(
                "the route {r} passes a district twice",
                r=" - ".join(route),
            )
        for c in order.via:
            if c not in pos.carriers:
                return no(
                    "no delivery man in {c} to carry {u} (R10)",
                    u=unit.text(),
                    c=c,
                )
        for a, b in itertools.pairwise(route):
            if not gmap.adjacent(a, b):
                return no(
                    "{b} is not next to {a}: the route {r} is broken (R10)",
                    a=a,
                    b=b,
                    r=" - ".join(route),
                )
        return OK
    if gmap.adjacent(origin, dest):
        return OK
    if carried(gmap, pos.carriers, origin, dest):
        return Verdict(
            notes=(
                say(
                    "{d} is not next to {o}: {u} goes only if delivery men carry it (R10)",
                    d=dest,
                    o=origin,
                    u=unit.text(),
                ),
            )
        )
    return no(
        "{d} is not next to {o}, and no chain of delivery men can carry {u} there (R8, R10)",
        neighbours_hint(gmap, origin),
        d=dest,
        o=origin,
        u=unit.text(),
    )


# -- R7: retreats ---------------------------------------------------------------------------


def retreat_choice_problem(gmap: GameMap, ref: UnitRef, d: str) -> Message | None:
    """Why a listed retreat district can never be taken, whatever the turn brings
    (R7, R8), or None."""
    if d not in gmap.districts:
        return say("no such district")
    if d == ref.district:
        return say("its own district")
    if d not in reach(gmap, ref.kind, ref.district):
        return say("out of reach of {u} (R8)", u=ref.text())
    return None


def check_retreat(gmap: GameMap, order: Retreat) -> Verdict:
    """R7: the first listed district the unit can use is taken; a listed district it
    can never use is skipped (a note says so). A list with no district the unit could
    ever use is rejected: the unit, if dislodged, is disbanded."""
    ref = order.unit
    notes: list[Message] = []
    usable = 0
    seen: set[str] = set()
    for d in order.choices:
        if d in seen:
            notes.append(say("{d} is listed twice: skipped", d=d))
            continue
        seen.add(d)
        problem = retreat_choice_problem(gmap, ref, d)
        if problem is None:
            usable += 1
        else:
            notes.append(
                say("{d} is skipped (R7): {p}", d=d, p=problem),
            )
    if not usable:
        within = reach(gmap, ref.kind, ref.district) if ref.district in gmap.districts else set()
        return no(
            "a unit retreats only where it could move (R7, R8): {u} cannot reach {b}",
            say("within reach of {u}: {r}", u=ref.text(), r=join(gmap.map_order(within))),
            u=ref.text(),
            b=join(order.choices),
        )
    return Verdict(notes=tuple(notes))


class Standing(msgspec.Struct, frozen=True):
    """A unit that stays on the board after movement, as a retreat sees it."""

    gang: str
    kind: UnitKind


def retreat_problem(
    gmap: GameMap,
    ref: UnitRef,
    gang: str,
    d: str,
    *,
    standing: Iterable[Standing],
    barred: Iterable[str],
    standoffs: Iterable[str],
) -> Message | None:
    """R7: why the dislodged unit ``ref`` of ``gang`` cannot retreat to ``d`` after
    movement, or None. ``standing``: the units that end movement in ``d``;
    ``barred``: origins of attackers that came directly across the border;
    ``standoffs``: districts left empty by a standoff."""
    problem = retreat_choice_problem(gmap, ref, d)
    if problem is not None:
        return problem
    for s in standing:
        if s.gang != gang:
            return say("{g}'s {k} stands there", g=s.gang, k=s.kind.value)
        if s.kind is ref.kind:
            return say("own {k} stands there", k=s.kind.value)
    if d in barred:
        return say("the attacker came from there")
    if d in standoffs:
        return say("left empty by a standoff")
    return None


def retreat_clashes(arrivals: Mapping[str, list[tuple[int, str, UnitKind]]]) -> dict[int, list[int]]:
    """R7 (amended): retreats into one district are read pair by pair; a retreat is
    disbanded when another retreat into that district is by another gang's unit or
    by a unit of the same type. ``arrivals``: district -> (id, gang, kind) of each
    retreat into it. Returns each disbanded retreat's id with the ids it clashed with."""
    out: dict[int, list[int]] = {}
    for ids in arrivals.values():
        for i, gang, kind in ids:
            against = [j for j, g, k in ids if j != i and (g != gang or k is kind)]
            if against:
                out[i] = against
    return out


# -- R11: assaults; R10: transports; R9: supports --------------------------------------------


def _check_assault(pos: Position, order: Assault) -> Verdict:
    gmap = pos.gmap
    unit, station = order.unit, order.station
    if unit.kind.value not in MOONSHINE.assault_kinds:
        return no(
            "only a henchman assaults a police station (R11)",
        )
    if not gmap.districts[station].has_station:
        return no(
            "there is no police station in {d}",
            station_hint(gmap, station),
            d=station,
        )
    if station != unit.district and not gmap.adjacent(unit.district, station):
        return no(
            "the station in {s} is neither in {u}'s district nor next to it (R11)",
            s=station,
            u=unit.text(),
        )
    return OK


def _check_transport(pos: Position, order: Transport) -> Verdict:
    gmap = pos.gmap
    carrier, target, dest = order.unit.district, order.target, order.dest
    if order.unit.kind is not UnitKind.L:
        return no("only a delivery man transports (R10)")
    if target.kind is not UnitKind.H:
        return no(
            "only a henchman is transported (R10): a delivery man moves two districts by itself (R8)",
        )
    if pos.unit(target) is None:
        return no("there is no {t} to transport", t=target.text())
    if target.district == dest:
        return no("{t} is already in {d}", t=target.text(), d=dest)
    if carrier in (target.district, dest):
        return no(
            "a delivery man carries a henchman from a neighbouring district to another one (R10)",
        )
    # the carrier's chain of delivery men must touch both ends (R10)
    usable, held = pos.carriers, target.district
    links = routes.chain(_Nb(gmap), [carrier], lambda d: d == carrier or (d in usable and d != held and d != dest))
    if not any(gmap.adjacent(c, target.district) for c in links) or not any(gmap.adjacent(c, dest) for c in links):
        return no(
            "no chain of delivery men through {c} links {o} to {d} (R10)",
            c=carrier,
            o=target.district,
            d=dest,
        )
    return OK


def _check_support(pos: Position, order: SupportHold | SupportMove | SupportAssault) -> Verdict:
    gmap = pos.gmap
    unit, target = order.unit, order.target
    if target == unit:
        return no("a unit cannot support itself")
    on_board = pos.unit(target) is not None
    if isinstance(order, SupportHold):
        d = target.district
        if d == unit.district:
            return no(
                "{u} stands in {d}: its presence already counts in {d}'s defence, it cannot also support it (R9)",
                u=unit.text(),
                d=d,
            )
        if not gmap.adjacent(unit.district, d):
            return no(
                "{u} is not next to {d}: a supporting unit must be next to the district it supports (R9)",
                neighbours_hint(gmap, unit.district),
                u=unit.text(),
                d=d,
            )
        if not on_board:
            # a unit may be recruited there this turn (R18); if none is, the support is void
            return Verdict(
                notes=(
                    say(
                        "there is no {t} on the board now: this support counts only if one is recruited there "
                        "this turn",
                        t=target.text(),
                    ),
                )
            )
        return OK
    if not on_board:
        return no(
            "there is no {t} on the board to support",
            t=target.text(),
        )
    if isinstance(order, SupportMove):
        dest = order.dest
        if target.district == dest:
            return no("{t} is already in {d}", t=target.text(), d=dest)
        if unit.district == dest:
            return no(
                "{u} stands in {d}: it cannot support a move into its own district (R9)",
                u=unit.text(),
                d=dest,
            )
        if not gmap.adjacent(unit.district, dest):
            return no(
                "{u} is not next to {d}, where the move goes: a supporting unit must be next to it (R9)",
                neighbours_hint(gmap, unit.district),
                u=unit.text(),
                d=dest,
            )
        if not can_reach(pos, target, dest):
            return no("{t} cannot reach {d} (R8, R10)", t=target.text(), d=dest)
        return OK
    station = order.station
    if not gmap.districts[station].has_station:
        return no(
            "there is no police station in {d}",
            station_hint(gmap, station),
            d=station,
        )
    if target.kind is not UnitKind.H:
        return no(
            "only a henchman assaults a police station (R11)",
        )
    if target.district != station and not gmap.adjacent(target.district, station):
        return no(
            "{t} is neither in {s} nor next to it: it cannot assault that station (R11)",
            t=target.text(),
            s=station,
        )
    if unit.district != station and not gmap.adjacent(unit.district, station):
        return no(
            "{u} is neither in {s} nor next to it: it cannot support an assault there (R9)",
            u=unit.text(),
            s=station,
        )
    return OK
