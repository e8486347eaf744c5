"""Orders checked against the map and the position: what a gang's file asks for,
line by line, and what the referee will carry out. A rejected unit order leaves the
unit holding (R12); one bad line never voids the others; the last valid order for a
unit counts. Pure: text, map and state in; a ``GangOrders`` out."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from moonshine import money
from moonshine.geo import RECRUIT_COST, Feature, GameMap, UnitKind
from moonshine.money import Money
from moonshine.orders import (
    Assault,
    Bribe,
    Disband,
    Hold,
    Move,
    Order,
    Recruit,
    Retreat,
    Sell,
    Store,
    SupportAssault,
    SupportHold,
    SupportMove,
    Transport,
    UnitOrder,
    UnitRef,
)
from moonshine.parser import (
    GangHeader,
    Header,
    Message,
    ParseError,
    PasswordHeader,
    TurnHeader,
    is_signature,
    join,
    parse_line,
    quote,
    say,
    unquote,
)
from moonshine.state import GameState
from moonshine.upkeep import settle

MAX_LINES = 1000  # an orders file is a few dozen lines; the rest of a longer one is not read

ACCEPTED = "accepted"
REJECTED = "rejected"
REPLACED = "replaced"
COMMENT = "comment"
HEADER = "header"
BLANK = "blank"
STATUSES = (ACCEPTED, REJECTED, REPLACED, COMMENT, HEADER, BLANK)


# -- results ---------------------------------------------------------------------------


@dataclass
class OrderLine:
    """One line of the file and what became of it."""

    number: int
    text: str  # as written, without the line break
    status: str  # one of STATUSES
    order: Order | None = None
    header: Header | None = None
    reason: Message | None = None  # why rejected / replaced / ignored
    hint: Message | None = None  # how to fix it
    notes: list[Message] = field(default_factory=list)  # remarks on an accepted line

    @property
    def message(self) -> str:
        parts = [m.text("en") for m in ([self.reason] if self.reason else []) + self.notes]
        return "; ".join(parts)

    @property
    def suggestion(self) -> str | None:
        return None if self.hint is None else self.hint.text("en")

    @property
    def unit(self) -> UnitRef | None:
        if isinstance(self.order, Recruit | Sell | Store | Bribe) or self.order is None:
            return None
        return self.order.unit


@dataclass(frozen=True)
class MoneySummary:
    """What the orders would cost against the cash held at the start of the turn (R17),
    and what R17 would cut if the cash is short."""

    cash: Money
    units: int  # units paying upkeep (on the board or arrested, not disbanded)
    upkeep: Money
    recruits: int
    recruit_cost: Money
    bribes: Money
    cancelled: tuple[tuple[int, Recruit], ...] = ()  # (line, recruit), last written first
    cut: tuple[tuple[int, Bribe, Money], ...] = ()  # (line, bribe, what is left of it)
    unpaid_units: int = 0  # units R17 disbands for unpaid upkeep

    @property
    def needed(self) -> Money:
        return self.upkeep + self.recruit_cost + self.bribes

    @property
    def left(self) -> Money:
        return self.cash - self.needed

    @property
    def short(self) -> bool:
        return self.needed > self.cash


@dataclass
class GangOrders:
    """A gang's orders file as the referee understood and checked it."""

    gang: str | None
    turn: str
    source: str = "<orders>"
    header_gang: str | None = None
    header_turn: str | None = None
    password: str | None = None
    lines: list[OrderLine] = field(default_factory=list)
    unit_orders: dict[UnitRef, UnitOrder] = field(default_factory=dict)
    retreats: dict[UnitRef, Retreat] = field(default_factory=dict)
    recruits: list[Recruit] = field(default_factory=list)
    disbands: list[Disband] = field(default_factory=list)
    sell: Sell | None = None
    store: Store | None = None
    bribes: list[Bribe] = field(default_factory=list)
    unordered: list[UnitRef] = field(default_factory=list)
    arrested: list[UnitRef] = field(default_factory=list)  # the gang's arrested units, by where taken
    issues: list[Message] = field(default_factory=list)  # file-level problems
    money: MoneySummary | None = None

    @property
    def problems(self) -> list[str]:
        return [m.text("en") for m in self.issues]

    @property
    def rejected(self) -> int:
        return sum(1 for line in self.lines if line.status == REJECTED)

    @property
    def ok(self) -> bool:
        return self.rejected == 0 and not self.issues

    def count(self, status: str) -> int:
        return sum(1 for line in self.lines if line.status == status)


@dataclass(frozen=True)
class Verdict:
    """The check of one order: a reason when it is rejected, notes when it stands."""

    reason: Message | None = None
    hint: Message | None = None
    notes: tuple[Message, ...] = ()

    @property
    def ok(self) -> bool:
        return self.reason is None


def _no(en: str, fr: str, hint: Message | None = None, **params: object) -> Verdict:
    return Verdict(say(en, fr, **params), hint)


_OK = Verdict()


# -- checking one order ------------------------------------------------------------------


@dataclass(frozen=True)
class _Ctx:
    gmap: GameMap
    st: GameState
    gang: str
    recruiting: Mapping[tuple[UnitKind, str], int]  # this file's valid recruits -> line

    def carriers(self) -> frozenset[str]:
        """Districts whose delivery man can carry this turn (on the board, not new)."""
        return frozenset(u.district for u in self.st.units if u.kind is UnitKind.L and u.recruited != self.st.turn)

    def units_text(self) -> str:
        mine = sorted(self.st.units_of(self.gang), key=lambda u: (self.gmap.districts[u.district].area, u.kind.value))
        return join(u.label() for u in mine) or "-"

    def neighbours(self, code: str) -> Message:
        return say(
            "neighbours of {d}: {n}",
            "voisins de {d} : {n}",
            d=code,
            n=join(self.gmap.map_order(self.gmap.neighbours(code))),
        )

    def station_hint(self, code: str) -> Message:
        p = self.gmap.precinct_of(code)
        name = self.gmap.districts[p].station or p
        return say(
            "{d} depends on the station in {p} ({name})", "{d} dépend du poste de {p} ({name})", d=code, p=p, name=name
        )


def check_order(
    order: Order,
    gmap: GameMap,
    st: GameState,
    gang: str,
    *,
    recruiting: Mapping[tuple[UnitKind, str], int] | None = None,
) -> Verdict:
    """Check one order of ``gang`` against the map and position. ``recruiting`` lists
    the units the same file recruits (by line), to explain why they cannot move."""
    ctx = _Ctx(gmap, st, gang, recruiting or {})
    unknown = [d for d in _districts(order) if d not in gmap.districts]
    if unknown:
        return _no("no district {d} on this map", "aucun quartier {d} sur cette carte", d=join(unknown))
    if isinstance(order, Recruit):
        return _check_recruit(ctx, order)
    if isinstance(order, Sell):
        if order.crates is not None and order.crates < 0:
            return _no("cannot sell a negative number of crates", "on ne peut pas vendre un nombre négatif de caisses")
        return _OK
    if isinstance(order, Store):
        return _check_store(ctx, order)
    if isinstance(order, Bribe):
        return _check_bribe(ctx, order)
    # A new unit holds (R18) but may still be dislodged: hold and retreat orders suit it.
    problem = _own_unit(ctx, order.unit, new_ok=isinstance(order, Hold | Retreat))
    if problem is not None and not problem.ok:
        return problem
    verdict = _check_unit_order(ctx, order)
    if problem is not None and verdict.ok:
        return Verdict(notes=problem.notes + verdict.notes)
    return verdict


def _check_unit_order(ctx: _Ctx, order: UnitOrder | Retreat | Disband) -> Verdict:
    if isinstance(order, Hold | Disband):
        return _OK
    if isinstance(order, Move):
        return _check_move(ctx, order)
    if isinstance(order, Retreat):
        return _check_retreat(ctx, order)
    if isinstance(order, Assault):
        return _check_assault(ctx, order)
    if isinstance(order, Transport):
        return _check_transport(ctx, order)
    return _check_support(ctx, order)


def _districts(order: Order) -> list[str]:
    out: list[str] = []
    if isinstance(order, Sell):
        return out
    if isinstance(order, Store):
        return list(order.warehouses)
    if isinstance(order, Bribe):
        return [order.station]
    if isinstance(order, Recruit):
        return [order.district]
    out.append(order.unit.district)
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


def _own_unit(ctx: _Ctx, ref: UnitRef, *, new_ok: bool) -> Verdict | None:
    """R12: the unit must be on the board and the gang's; R18: a new unit holds; R22: an
    arrested unit takes no orders."""
    st = ctx.st
    unit = st.unit_at(ref.kind, ref.district)
    if unit is None:
        for a in st.arrested:
            if a.gang == ctx.gang and a.kind is ref.kind and a.taken_in == ref.district:
                return _no(
                    "{u} was arrested in this turn's raid and is held at the station in {s}: "
                    "an arrested unit takes no orders until it comes back next turn (R22)",
                    "{u} a été arrêtée lors de la descente de ce tour et est retenue au poste de {s} : "
                    "une unité arrêtée ne reçoit pas d'ordre avant son retour au tour suivant (R22)",
                    u=ref.text(),
                    s=a.station,
                )
        line = ctx.recruiting.get((ref.kind, ref.district))
        if line is not None:
            if new_ok:
                return Verdict(
                    notes=(
                        say(
                            "{u} is recruited this turn (line {n}): a new unit holds (R18)",
                            "{u} est recrutée à ce tour (ligne {n}) : une nouvelle unité tient sa position (R18)",
                            u=ref.text(),
                            n=line,
                        ),
                    )
                )
            return _no(
                "{u} is only recruited this turn (line {n}): a new unit holds during its first turn (R18)",
                "{u} n'est recrutée qu'à ce tour (ligne {n}) : une nouvelle unité tient sa position "
                "pendant son premier tour (R18)",
                u=ref.text(),
                n=line,
            )
        other_kind = UnitKind.L if ref.kind is UnitKind.H else UnitKind.H
        other = st.unit_at(other_kind, ref.district)
        if other is not None and other.gang == ctx.gang:
            hint = say("your unit in {d} is {o}", "votre unité en {d} est {o}", d=ref.district, o=other.label())
        else:
            hint = say("your units: {units}", "vos unités : {units}", units=ctx.units_text())
        return _no("there is no {u} on the board", "il n'y a pas d'unité {u} sur la carte", hint, u=ref.text())
    if unit.gang != ctx.gang:
        owner = ctx.gmap.gangs[unit.gang].name if unit.gang in ctx.gmap.gangs else unit.gang
        return _no(
            "{u} is not yours: it belongs to {g} (R12)",
            "{u} n'est pas à vous : elle appartient à {g} (R12)",
            say("your units: {units}", "vos unités : {units}", units=ctx.units_text()),
            u=ref.text(),
            g=owner,
        )
    if unit.recruited == st.turn and not new_ok:
        return _no(
            "{u} was recruited this turn: a new unit holds during its first turn (R18)",
            "{u} a été recrutée à ce tour : une nouvelle unité tient sa position pendant son premier tour (R18)",
            u=ref.text(),
        )
    return None


def _carried(gmap: GameMap, carriers: frozenset[str], origin: str, dest: str) -> bool:
    """A chain of delivery men links ``origin`` to ``dest`` (R10)."""
    usable = carriers - {origin, dest}
    frontier = [c for c in gmap.neighbours(origin) if c in usable]
    seen = set(frontier)
    while frontier:
        c = frontier.pop()
        if gmap.adjacent(c, dest):
            return True
        for n in gmap.neighbours(c):
            if n in usable and n not in seen:
                seen.add(n)
                frontier.append(n)
    return False


def _can_reach(ctx: _Ctx, ref: UnitRef, dest: str) -> bool:
    """A move the unit could make this turn (R8, R10)."""
    gmap = ctx.gmap
    if ref.district == dest:
        return False
    if ref.kind is UnitKind.L:
        return dest in gmap.within_two(ref.district)
    return gmap.adjacent(ref.district, dest) or _carried(gmap, ctx.carriers(), ref.district, dest)


def _check_move(ctx: _Ctx, order: Move) -> Verdict:
    gmap = ctx.gmap
    unit, origin, dest = order.unit, order.unit.district, order.dest
    if dest == origin:
        return _no("{u} is already in {d}", "{u} est déjà en {d}", u=unit.text(), d=dest)
    if unit.kind is UnitKind.L:
        if order.via:
            return _no(
                "a delivery man is not transported (R10): it moves two districts by itself (R8)",
                "un livreur n'est pas transporté (R10) : il avance seul de deux quartiers (R8)",
                say("write its path: {e}", "écrivez son chemin : {e}", e=f"{unit.text()} - {order.via[0]} - {dest}"),
            )
        if len(order.path) > 1:
            return _no(
                "a delivery man moves at most two districts (R8)", "un livreur avance d'au plus deux quartiers (R8)"
            )
        steps = [origin, *order.path, dest] if order.path else []
        for a, b in itertools.pairwise(steps):
            if not gmap.adjacent(a, b):
                return _no(
                    "{b} is not next to {a} (R8)", "{b} n'est pas voisin de {a} (R8)", ctx.neighbours(a), a=a, b=b
                )
        if dest not in gmap.within_two(origin):
            return _no(
                "{d} is more than two districts from {o} (R8)",
                "{d} est à plus de deux quartiers de {o} (R8)",
                say(
                    "within reach of {u}: {r}",
                    "à portée de {u} : {r}",
                    u=unit.text(),
                    r=join(gmap.map_order(gmap.within_two(origin))),
                ),
                d=dest,
                o=origin,
            )
        return _OK
    # a henchman: one step, or carried by delivery men (R8, R10)
    if order.path:
        return _no(
            "a henchman moves one district (R8)",
            "un homme de main avance d'un seul quartier (R8)",
            say(
                "to be carried, write {e}",
                "pour être transporté, écrivez {e}",
                e=f"{unit.text()} - {dest} via {', '.join(order.path)}",
            ),
        )
    carriers = ctx.carriers()
    if order.via:
        route = [origin, *order.via, dest]
        if len(set(route)) != len(route):
            return _no(
                "the route {r} passes a district twice",
                "la route {r} passe deux fois par un même quartier",
                r=" - ".join(route),
            )
        for c in order.via:
            if c not in carriers:
                return _no(
                    "no delivery man in {c} to carry {u} (R10)",
                    "pas de livreur en {c} pour transporter {u} (R10)",
                    u=unit.text(),
                    c=c,
                )
        for a, b in itertools.pairwise(route):
            if not gmap.adjacent(a, b):
                return _no(
                    "{b} is not next to {a}: the route {r} is broken (R10)",
                    "{b} n'est pas voisin de {a} : la route {r} est coupée (R10)",
                    a=a,
                    b=b,
                    r=" - ".join(route),
                )
        return _OK
    if gmap.adjacent(origin, dest):
        return _OK
    if _carried(gmap, carriers, origin, dest):
        return Verdict(
            notes=(
                say(
                    "{d} is not next to {o}: {u} goes only if delivery men carry it (R10)",
                    "{d} n'est pas voisin de {o} : {u} n'y va que si des livreurs la transportent (R10)",
                    d=dest,
                    o=origin,
                    u=unit.text(),
                ),
            )
        )
    return _no(
        "{d} is not next to {o}, and no chain of delivery men can carry {u} there (R8, R10)",
        "{d} n'est pas voisin de {o} et aucune chaîne de livreurs ne peut y transporter {u} (R8, R10)",
        ctx.neighbours(origin),
        d=dest,
        o=origin,
        u=unit.text(),
    )


def _check_retreat(ctx: _Ctx, order: Retreat) -> Verdict:
    unit = order.unit
    seen: set[str] = set()
    for c in order.choices:
        if c in seen:
            return _no("{d} is listed twice", "{d} figure deux fois", d=c)
        seen.add(c)
    reach = ctx.gmap.within_two(unit.district) if unit.kind is UnitKind.L else set(ctx.gmap.neighbours(unit.district))
    bad = [c for c in order.choices if c not in reach]
    if bad:
        return _no(
            "a unit retreats only where it could move (R7, R8): {u} cannot reach {b}",
            "une unité ne retraite que là où elle pourrait avancer (R7, R8) : {u} ne peut pas atteindre {b}",
            say("within reach of {u}: {r}", "à portée de {u} : {r}", u=unit.text(), r=join(ctx.gmap.map_order(reach))),
            u=unit.text(),
            b=join(bad),
        )
    return _OK


def _check_assault(ctx: _Ctx, order: Assault) -> Verdict:
    unit, station = order.unit, order.station
    if unit.kind is not UnitKind.H:
        return _no(
            "only a henchman assaults a police station (R11)",
            "seul un homme de main donne l'assaut à un poste de police (R11)",
        )
    if not ctx.gmap.districts[station].has_station:
        return _no(
            "there is no police station in {d}",
            "il n'y a pas de poste de police en {d}",
            ctx.station_hint(station),
            d=station,
        )
    if station != unit.district and not ctx.gmap.adjacent(unit.district, station):
        return _no(
            "the station in {s} is neither in {u}'s district nor next to it (R11)",
            "le poste de {s} n'est ni dans le quartier de {u} ni dans un quartier voisin (R11)",
            s=station,
            u=unit.text(),
        )
    return _OK


def _check_transport(ctx: _Ctx, order: Transport) -> Verdict:
    gmap = ctx.gmap
    carrier, target, dest = order.unit.district, order.target, order.dest
    if order.unit.kind is not UnitKind.L:
        return _no("only a delivery man transports (R10)", "seul un livreur transporte (R10)")
    if target.kind is not UnitKind.H:
        return _no(
            "only a henchman is transported (R10): a delivery man moves two districts by itself (R8)",
            "seul un homme de main est transporté (R10) : un livreur avance seul de deux quartiers (R8)",
        )
    if ctx.st.unit_at(target.kind, target.district) is None:
        return _no("there is no {t} to transport", "il n'y a pas d'unité {t} à transporter", t=target.text())
    if target.district == dest:
        return _no("{t} is already in {d}", "{t} est déjà en {d}", t=target.text(), d=dest)
    if carrier in (target.district, dest):
        return _no(
            "a delivery man carries a henchman from a neighbouring district to another one (R10)",
            "un livreur transporte un homme de main d'un quartier voisin à un autre (R10)",
        )
    # the carrier's chain of delivery men must touch both ends (R10)
    usable = ctx.carriers() - {target.district, dest}
    chain = {carrier}
    frontier = [carrier]
    while frontier:
        c = frontier.pop()
        for n in gmap.neighbours(c):
            if n in usable and n not in chain:
                chain.add(n)
                frontier.append(n)
    if not any(gmap.adjacent(c, target.district) for c in chain) or not any(gmap.adjacent(c, dest) for c in chain):
        return _no(
            "no chain of delivery men through {c} links {o} to {d} (R10)",
            "aucune chaîne de livreurs passant par {c} ne relie {o} à {d} (R10)",
            c=carrier,
            o=target.district,
            d=dest,
        )
    return _OK


def _check_support(ctx: _Ctx, order: SupportHold | SupportMove | SupportAssault) -> Verdict:
    gmap, st = ctx.gmap, ctx.st
    unit, target = order.unit, order.target
    if target == unit:
        return _no("a unit cannot support itself", "une unité ne peut pas se soutenir elle-même")
    on_board = st.unit_at(target.kind, target.district) is not None
    if isinstance(order, SupportHold):
        d = target.district
        if d == unit.district:
            return _no(
                "{u} stands in {d}: its presence already counts in {d}'s defence, it cannot also support it (R9)",
                "{u} se trouve en {d} : sa présence compte déjà dans la défense de {d}, elle ne peut pas "
                "aussi la soutenir (R9)",
                u=unit.text(),
                d=d,
            )
        if not gmap.adjacent(unit.district, d):
            return _no(
                "{u} is not next to {d}: a supporting unit must be next to the district it supports (R9)",
                "{u} n'est pas voisine de {d} : une unité qui soutient doit être voisine du quartier soutenu (R9)",
                ctx.neighbours(unit.district),
                u=unit.text(),
                d=d,
            )
        if not on_board:
            return Verdict(
                notes=(
                    say(
                        "there is no {t} on the board now: this support counts only if one is recruited there "
                        "this turn",
                        "il n'y a pas d'unité {t} sur la carte : ce soutien ne compte que si une unité y est "
                        "recrutée à ce tour",
                        t=target.text(),
                    ),
                )
            )
        return _OK
    if not on_board:
        return _no(
            "there is no {t} on the board to support",
            "il n'y a pas d'unité {t} à soutenir sur la carte",
            t=target.text(),
        )
    if isinstance(order, SupportMove):
        dest = order.dest
        if target.district == dest:
            return _no("{t} is already in {d}", "{t} est déjà en {d}", t=target.text(), d=dest)
        if unit.district == dest:
            return _no(
                "{u} stands in {d}: it cannot support a move into its own district (R9)",
                "{u} se trouve en {d} : elle ne peut pas soutenir une avance dans son propre quartier (R9)",
                u=unit.text(),
                d=dest,
            )
        if not gmap.adjacent(unit.district, dest):
            return _no(
                "{u} is not next to {d}, where the move goes: a supporting unit must be next to it (R9)",
                "{u} n'est pas voisine de {d}, où va l'avance : une unité qui soutient doit en être voisine (R9)",
                ctx.neighbours(unit.district),
                u=unit.text(),
                d=dest,
            )
        if not _can_reach(ctx, target, dest):
            return _no(
                "{t} cannot reach {d} (R8, R10)", "{t} ne peut pas atteindre {d} (R8, R10)", t=target.text(), d=dest
            )
        return _OK
    station = order.station
    if not gmap.districts[station].has_station:
        return _no(
            "there is no police station in {d}",
            "il n'y a pas de poste de police en {d}",
            ctx.station_hint(station),
            d=station,
        )
    if target.kind is not UnitKind.H:
        return _no(
            "only a henchman assaults a police station (R11)",
            "seul un homme de main donne l'assaut à un poste de police (R11)",
        )
    if target.district != station and not gmap.adjacent(target.district, station):
        return _no(
            "{t} is neither in {s} nor next to it: it cannot assault that station (R11)",
            "{t} n'est ni en {s} ni dans un quartier voisin : elle ne peut pas donner l'assaut à ce poste (R11)",
            t=target.text(),
            s=station,
        )
    if unit.district != station and not gmap.adjacent(unit.district, station):
        return _no(
            "{u} is neither in {s} nor next to it: it cannot support an assault there (R9)",
            "{u} n'est ni en {s} ni dans un quartier voisin : elle ne peut pas y soutenir un assaut (R9)",
            u=unit.text(),
            s=station,
        )
    return _OK


def _check_recruit(ctx: _Ctx, order: Recruit) -> Verdict:
    st, d = ctx.st, order.district
    if st.control.get(d) != ctx.gang:
        mine = [c for c in ctx.gmap.districts if st.control.get(c) == ctx.gang]
        return _no(
            "you do not control {d} (R18)",
            "vous ne contrôlez pas {d} (R18)",
            say("your districts: {ds}", "vos quartiers : {ds}", ds=join(mine) or "-"),
            d=d,
        )
    others = [u for u in st.units_in(d) if u.gang != ctx.gang]
    if others:
        return _no(
            "another gang's unit stands in {d} ({u}) (R18)",
            "une unité d'un autre gang se trouve en {d} ({u}) (R18)",
            d=d,
            u=others[0].label(),
        )
    if st.unit_at(order.kind, d) is not None:
        return _no(
            "{d} already holds your {u}: one unit of each type per district (R4, R18)",
            "{d} a déjà votre unité {u} : une unité de chaque type par quartier (R4, R18)",
            d=d,
            u=f"{order.kind.value} {d}",
        )
    return _OK


def _check_store(ctx: _Ctx, order: Store) -> Verdict:
    gmap, st = ctx.gmap, ctx.st
    seen: set[str] = set()
    notes: list[Message] = []
    for d in order.warehouses:
        if d in seen:
            return _no("{d} is listed twice", "{d} figure deux fois", d=d)
        seen.add(d)
        if gmap.districts[d].feature is not Feature.WAREHOUSE:
            mine = [
                c
                for c in gmap.districts
                if gmap.districts[c].feature is Feature.WAREHOUSE and st.control.get(c) == ctx.gang
            ]
            return _no(
                "{d} is not a warehouse (R16)",
                "{d} n'est pas un entrepôt (R16)",
                say("your warehouses: {w}", "vos entrepôts : {w}", w=join(mine) or "-"),
                d=d,
            )
        if st.control.get(d) != ctx.gang:
            notes.append(
                say(
                    "you do not control {d} now: it takes crates only if you hold it after this turn's moves "
                    "(R13, R16)",
                    "vous ne contrôlez pas {d} : il ne reçoit des caisses que si vous le tenez après les "
                    "mouvements de ce tour (R13, R16)",
                    d=d,
                )
            )
    return Verdict(notes=tuple(notes))


def _check_bribe(ctx: _Ctx, order: Bribe) -> Verdict:
    d = order.station
    if not ctx.gmap.districts[d].has_station:
        return _no(
            "there is no police station in {d}", "il n'y a pas de poste de police en {d}", ctx.station_hint(d), d=d
        )
    if order.amount <= 0:
        return _no("a bribe of $0 buys nothing", "un pot-de-vin de 0 $ n'achète rien")
    if order.amount % money.STEP:
        return _no(
            "money moves in steps of $0.50 (R17), not {a}",
            "l'argent se compte par pas de 0,50 $ (R17), pas {a}",
            a=money.fmt(order.amount),
        )
    return _OK


# -- a whole file ------------------------------------------------------------------------


def _split(text: str) -> list[str]:
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def _gang_name(gmap: GameMap, key: str) -> str:
    g = gmap.gangs.get(key)
    return g.name if g is not None else key


def read_orders(
    text: str,
    gmap: GameMap,
    st: GameState,
    gang: str | None = None,
    *,
    source: str = "<orders>",
    fallback_gang: str | None = None,
) -> GangOrders:
    """Read and check a gang's orders file. The gang is ``gang`` (key or name), else the
    file's ``gang:`` line, else ``fallback_gang`` (e.g. from the file's name). Every line
    gets a status and a reason; all problems are reported together."""
    result = GangOrders(gang=None, turn=st.turn, source=source)
    raw = _split(text)
    if len(raw) > MAX_LINES:
        result.issues.append(
            say(
                "the file has {n} lines: only the first {m} are read",
                "le fichier a {n} lignes : seules les {m} premières sont lues",
                n=len(raw),
                m=MAX_LINES,
            )
        )
    result.lines = _read_lines(raw[:MAX_LINES], gmap)
    _headers(result, gmap, st, gang, fallback_gang)
    if result.gang is None:
        for line in result.lines:
            if line.order is not None:
                line.status = REJECTED
                line.reason = say("not checked: the file names no gang", "non vérifié : le fichier ne nomme aucun gang")
        return result
    _validate(result, gmap, st, result.gang)
    return result


def _read_lines(raw_lines: list[str], gmap: GameMap) -> list[OrderLine]:
    lines: list[OrderLine] = []
    signed = False
    for number, raw in enumerate(raw_lines, 1):
        if signed:
            lines.append(OrderLine(number, raw, COMMENT))
            continue
        if is_signature(raw):
            signed = True
            lines.append(
                OrderLine(
                    number,
                    raw,
                    COMMENT,
                    reason=say("signature: the rest is not read", "signature : la suite n'est pas lue"),
                )
            )
            continue
        if not unquote(raw):
            lines.append(OrderLine(number, raw, BLANK))
            continue
        try:
            parsed = parse_line(raw, gmap)
        except ParseError as exc:
            lines.append(OrderLine(number, raw, REJECTED, reason=exc.reason, hint=exc.suggestion))
            continue
        if parsed is None:
            lines.append(OrderLine(number, raw, COMMENT))
        elif isinstance(parsed, GangHeader | PasswordHeader | TurnHeader):
            lines.append(OrderLine(number, raw, HEADER, header=parsed))
        else:
            lines.append(OrderLine(number, raw, ACCEPTED, order=parsed))
    return lines


def _headers(result: GangOrders, gmap: GameMap, st: GameState, gang: str | None, fallback: str | None) -> None:
    said: list[tuple[int, str]] = []
    for line in result.lines:
        h = line.header
        if isinstance(h, GangHeader):
            said.append((line.number, h.gang))
            line.reason = say(
                "gang: {name} ({key})", "gang : {name} ({key})", name=_gang_name(gmap, h.gang), key=h.gang
            )
        elif isinstance(h, PasswordHeader):
            result.password = h.password
            line.reason = say("password given", "mot de passe fourni")
        elif isinstance(h, TurnHeader):
            result.header_turn = h.turn
            line.reason = say("turn: {t}", "tour : {t}", t=h.turn)
    if said:
        result.header_gang = said[0][1]
        for number, key in said[1:]:
            if key != said[0][1]:
                result.issues.append(
                    say(
                        "the gang lines disagree: line {a} says {g1}, line {b} says {g2}",
                        "les lignes de gang se contredisent : ligne {a} {g1}, ligne {b} {g2}",
                        a=said[0][0],
                        g1=said[0][1],
                        b=number,
                        g2=key,
                    )
                )
                break
    if gang is not None:
        g = gmap.gang_by_name(gang)
        if g is None:
            result.issues.append(
                say("no gang {q} (gangs: {gs})", "aucun gang {q} (gangs : {gs})", q=quote(gang), gs=join(gmap.gangs))
            )
            return
        result.gang = g.key
        if result.header_gang is not None and result.header_gang != g.key:
            result.issues.append(
                say(
                    "the file says gang: {h}, but these orders are read for {g}",
                    "le fichier indique le gang {h}, mais ces ordres sont lus pour {g}",
                    h=result.header_gang,
                    g=g.key,
                )
            )
    elif result.header_gang is not None:
        result.gang = result.header_gang
    elif fallback is not None and gmap.gang_by_name(fallback) is not None:
        g = gmap.gang_by_name(fallback)
        result.gang = g.key if g is not None else None
    if result.gang is None:
        result.issues.append(
            say(
                "no gang: add a line 'gang: NAME' (gangs: {gs})",
                "aucun gang : ajoutez une ligne « gang: NOM » (gangs : {gs})",
                gs=join(gmap.gangs),
            )
        )
    if result.header_turn is not None and result.header_turn != st.turn:
        result.issues.append(
            say(
                "these orders say turn {h}, but the turn being played is {t}",
                "ces ordres indiquent le tour {h}, mais le tour en cours est {t}",
                h=result.header_turn,
                t=st.turn,
            )
        )


def _validate(result: GangOrders, gmap: GameMap, st: GameState, gang: str) -> None:
    lines = result.lines
    # Recruits first: a unit the file recruits is explained, not "missing", elsewhere.
    recruiting: dict[tuple[UnitKind, str], int] = {}
    for line in lines:
        if isinstance(line.order, Recruit) and check_order(line.order, gmap, st, gang).ok:
            recruiting.setdefault((line.order.kind, line.order.district), line.number)

    slots: dict[tuple[object, ...], OrderLine] = {}
    for line in lines:
        order = line.order
        if order is None or line.status != ACCEPTED:
            continue
        verdict = check_order(order, gmap, st, gang, recruiting=recruiting)
        if not verdict.ok:
            line.status = REJECTED
            line.reason, line.hint = verdict.reason, verdict.hint
            continue
        line.notes.extend(verdict.notes)
        key = _slot(order)
        before = slots.get(key)
        if before is not None:
            before.status = REPLACED
            before.reason = say("replaced by line {n}", "remplacé par la ligne {n}", n=line.number)
            before.notes.clear()
            line.notes.insert(0, say("replaces line {n}", "remplace la ligne {n}", n=before.number))
        slots[key] = line

    # A disbanded unit takes no other order (R17: disbanding comes first).
    disbanded = {ln.order.unit: ln for ln in slots.values() if isinstance(ln.order, Disband)}
    for key, line in list(slots.items()):
        ref = line.unit
        if ref is not None and ref in disbanded and not isinstance(line.order, Disband):
            line.status = REJECTED
            line.reason = say(
                "{u} is disbanded (line {n}): a disbanded unit takes no other order",
                "{u} est licenciée (ligne {n}) : une unité licenciée ne reçoit pas d'autre ordre",
                u=ref.text(),
                n=disbanded[ref].number,
            )
            del slots[key]

    accepted = sorted(slots.values(), key=lambda ln: ln.number)
    area = {c: d.area for c, d in gmap.districts.items()}

    def by_unit(ref: UnitRef) -> tuple[int, str]:
        return (area[ref.district], ref.kind.value)

    unit_lines = {ln.unit: ln for ln in accepted if ln.unit is not None and isinstance(ln.order, _UNIT_ORDERS)}
    for ref in sorted(unit_lines, key=by_unit):
        order = unit_lines[ref].order
        assert isinstance(order, _UNIT_ORDERS)
        result.unit_orders[ref] = order
    retreat_lines = {ln.unit: ln for ln in accepted if ln.unit is not None and isinstance(ln.order, Retreat)}
    for ref in sorted(retreat_lines, key=by_unit):
        order = retreat_lines[ref].order
        assert isinstance(order, Retreat)
        result.retreats[ref] = order
    result.recruits = [ln.order for ln in accepted if isinstance(ln.order, Recruit)]
    result.disbands = [ln.order for ln in accepted if isinstance(ln.order, Disband)]
    result.bribes = [ln.order for ln in accepted if isinstance(ln.order, Bribe)]
    sells = [ln.order for ln in accepted if isinstance(ln.order, Sell)]
    stores = [ln.order for ln in accepted if isinstance(ln.order, Store)]
    result.sell = sells[-1] if sells else None
    result.store = stores[-1] if stores else None

    _cross_notes(unit_lines, gmap, st, gang)

    gone = {d.unit for d in result.disbands}
    mine = sorted((UnitRef(u.kind, u.district) for u in st.units_of(gang) if u.recruited != st.turn), key=by_unit)
    result.unordered = [ref for ref in mine if ref not in result.unit_orders and ref not in gone]
    result.arrested = sorted((UnitRef(a.kind, a.taken_in) for a in st.arrested if a.gang == gang), key=by_unit)
    for line in lines:
        ref = line.unit
        if line.status != REJECTED or ref is None or not isinstance(line.order, _UNIT_ORDERS):
            continue
        u = st.unit_at(ref.kind, ref.district)
        if u is None or u.gang != gang or ref in gone:
            continue
        counted = unit_lines.get(ref)
        if counted is not None:
            line.notes.append(say("{u} follows line {n}", "{u} suit la ligne {n}", u=ref.text(), n=counted.number))
        else:
            line.notes.append(say("{u} holds (R12)", "{u} tient sa position (R12)", u=ref.text()))

    result.money = money_summary(
        st,
        gang,
        recruits=[(ln.number, ln.order) for ln in accepted if isinstance(ln.order, Recruit)],
        disbanded=gone,
        bribes=[(ln.number, ln.order) for ln in accepted if isinstance(ln.order, Bribe)],
    )


_UNIT_ORDERS = (Hold, Move, SupportHold, SupportMove, SupportAssault, Assault, Transport)


def _slot(order: Order) -> tuple[object, ...]:
    """Orders sharing a slot replace each other: the later valid one counts (R12)."""
    if isinstance(order, Recruit):
        return ("recruit", order.kind, order.district)
    if isinstance(order, Sell):
        return ("sell",)
    if isinstance(order, Store):
        return ("store",)
    if isinstance(order, Bribe):
        return ("bribe", order.station)
    if isinstance(order, Disband):
        return ("disband", order.unit)
    if isinstance(order, Retreat):
        return ("retreat", order.unit)
    return ("unit", order.unit)


def _cross_notes(unit_lines: Mapping[UnitRef, OrderLine], gmap: GameMap, st: GameState, gang: str) -> None:
    """Remarks where the gang's own orders do not fit together (support of a unit
    ordered elsewhere, a transport without its henchman's move...). The orders stand:
    the adjudicator decides, as in Diplomacy, but the player should know."""

    def own(ref: UnitRef) -> bool:
        u = st.unit_at(ref.kind, ref.district)
        return u is not None and u.gang == gang

    def order_of(ref: UnitRef) -> tuple[UnitOrder, int | None]:
        ln = unit_lines.get(ref)
        if ln is None or not isinstance(ln.order, _UNIT_ORDERS):
            return Hold(ref), None  # no order: it holds
        return ln.order, ln.number

    for ref, line in unit_lines.items():
        order = line.order
        if isinstance(order, SupportMove | Transport | SupportAssault | SupportHold):
            target = order.target
            if not own(target):
                continue
            theirs, n = order_of(target)
            if isinstance(order, SupportMove | Transport):
                fits = isinstance(theirs, Move) and theirs.dest == order.dest
                want = f"{target.text()} - {order.dest}"
            elif isinstance(order, SupportAssault):
                fits = isinstance(theirs, Assault) and theirs.station == order.station
                want = f"{target.text()} x {order.station}"
            else:
                fits = not isinstance(theirs, Move)
                want = f"{target.text()} hold"
            if fits:
                continue
            if n is None:
                note = say(
                    "{t} has no order '{w}' in this file: this order will not help it",
                    "{t} n'a pas l'ordre « {w} » dans ce fichier : cet ordre ne l'aidera pas",
                    t=target.text(),
                    w=want,
                )
            else:
                note = say(
                    "{t}'s own order (line {n}) is not '{w}': this order will not help it",
                    "l'ordre de {t} (ligne {n}) n'est pas « {w} » : cet ordre ne l'aidera pas",
                    t=target.text(),
                    n=n,
                    w=want,
                )
            line.notes.append(note)
        elif isinstance(order, Move) and ref.kind is UnitKind.H:
            for c in order.via:
                carrier = UnitRef(UnitKind.L, c)
                wanted = Transport(carrier, ref, order.dest)
                if own(carrier) and order_of(carrier)[0] != wanted:
                    line.notes.append(
                        say(
                            "your {c} is not ordered '{w}': it will not carry {u}",
                            "votre {c} n'a pas l'ordre « {w} » : elle ne transportera pas {u}",
                            c=carrier.text(),
                            w=wanted.text(),
                            u=ref.text(),
                        )
                    )


def money_summary(
    st: GameState,
    gang: str,
    *,
    recruits: Iterable[tuple[int, Recruit]] = (),
    disbanded: Iterable[UnitRef] = (),
    bribes: Iterable[tuple[int, Bribe]] = (),
) -> MoneySummary:
    """R17: upkeep $2 per unit on the board or arrested (not one recruited this turn,
    not a disbanded one), $2 per recruit, bribes as written; all from the cash held at
    the start of the turn. When it is short: recruits are cancelled (last written
    first), then bribes cut (last written first), then units disbanded."""
    cash = st.cash.get(gang, 0)
    gone = set(disbanded)
    paying = sum(
        1 for u in st.units_of(gang) if u.recruited != st.turn and UnitRef(u.kind, u.district) not in gone
    ) + sum(1 for a in st.arrested if a.gang == gang)
    wanted = list(recruits)
    bids = list(bribes)
    bill = settle(cash, paying, len(wanted), [b.amount for _, b in bids])
    cancelled = tuple(reversed(wanted[bill.kept_recruits :]))
    cut = [(number, b, paid) for (number, b), paid in zip(bids, bill.paid_bids, strict=True) if paid < b.amount]
    cut.reverse()
    total_bids = sum(b.amount for _, b in bids)
    return MoneySummary(
        cash=cash,
        units=paying,
        upkeep=bill.upkeep,
        recruits=len(wanted),
        recruit_cost=RECRUIT_COST * len(wanted),
        bribes=total_bids,
        cancelled=cancelled,
        cut=tuple(cut),
        unpaid_units=bill.unpaid_units,
    )
