"""Orders checked against the map and the position: what a gang's file asks for,
line by line, and what the referee will carry out. A rejected unit order leaves the
unit holding (R12); one bad line never voids the others; the last valid order for a
unit counts. Pure: text, map and state in; a ``GangOrders`` out."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import msgspec

from moonshine.text import money
from moonshine.text.catalogue import Message, say, say_n
from moonshine.text.money import Money
from moonshine.variants.moonshine import rules
from moonshine.variants.moonshine.houserules import DEFAULT as DEFAULT_HOUSE_RULES
from moonshine.variants.moonshine.houserules import HouseRules
from moonshine.variants.moonshine.map import RECRUIT_COST, Feature, GameMap, UnitKind
from moonshine.variants.moonshine.orders import (
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
    spoken,
)
from moonshine.variants.moonshine.parser import join, quote
from moonshine.variants.moonshine.parser.errors import ParseError
from moonshine.variants.moonshine.parser.headers import GangHeader, Header, PasswordHeader, TurnHeader
from moonshine.variants.moonshine.parser.lexer import is_signature, unquote
from moonshine.variants.moonshine.parser.reader import read_line
from moonshine.variants.moonshine.rules import Verdict
from moonshine.variants.moonshine.state import Arrested, GameState
from moonshine.variants.moonshine.upkeep import settle, unpaid_upkeep_order

MAX_LINES = 1000  # an orders file is a few dozen lines; the rest of a longer one is not read

ACCEPTED = "accepted"
REJECTED = "rejected"
REPLACED = "replaced"
COMMENT = "comment"
HEADER = "header"
BLANK = "blank"
STATUSES = (ACCEPTED, REJECTED, REPLACED, COMMENT, HEADER, BLANK)


# -- results ---------------------------------------------------------------------------


class OrderLine(msgspec.Struct):
    """One line of the file and what became of it."""

    number: int
    text: str  # as written, without the line break
    status: str  # one of STATUSES
    order: Order | None = None
    header: Header | None = None
    reason: Message | None = None  # why rejected / replaced / ignored
    hint: Message | None = None  # how to fix it
    notes: list[Message] = msgspec.field(default_factory=list)  # remarks on an accepted line

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


class MoneySummary(msgspec.Struct, frozen=True):
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
    unpaid: tuple[tuple[UnitRef, bool], ...] = ()  # which, in R17's order: (unit, arrested?)

    @property
    def needed(self) -> Money:
        return self.upkeep + self.recruit_cost + self.bribes

    @property
    def left(self) -> Money:
        return self.cash - self.needed

    @property
    def short(self) -> bool:
        return self.needed > self.cash


class GangOrders(msgspec.Struct):
    """A gang's orders file as the referee understood and checked it."""

    gang: str | None
    turn: str
    source: str = "<orders>"
    header_gang: str | None = None
    header_turn: str | None = None
    password: str | None = None
    lines: list[OrderLine] = msgspec.field(default_factory=list)
    unit_orders: dict[UnitRef, UnitOrder] = msgspec.field(default_factory=dict)
    retreats: dict[UnitRef, Retreat] = msgspec.field(default_factory=dict)
    recruits: list[Recruit] = msgspec.field(default_factory=list)
    disbands: list[Disband] = msgspec.field(default_factory=list)
    sell: Sell | None = None
    store: Store | None = None
    bribes: list[Bribe] = msgspec.field(default_factory=list)
    unordered: list[UnitRef] = msgspec.field(default_factory=list)
    arrested: list[UnitRef] = msgspec.field(default_factory=list)  # the gang's arrested units, by where taken
    issues: list[Message] = msgspec.field(default_factory=list)  # file-level problems
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

    def recorded(self) -> list[str]:
        """The accepted orders in canonical notation, in the file's order: what a
        receipt covers (``moonshine.render.receipts``)."""
        return [line.order.text() for line in self.lines if line.status == ACCEPTED and line.order is not None]


def _no(en: str, hint: Message | None = None, **params: object) -> Verdict:
    return rules.no(en, hint, **params)


_OK = rules.OK


# -- checking one order ------------------------------------------------------------------


class _Ctx(msgspec.Struct, frozen=True):
    gmap: GameMap
    st: GameState
    gang: str
    recruiting: Mapping[tuple[UnitKind, str], int]  # this file's valid recruits -> line
    pos: rules.Position
    house: HouseRules = DEFAULT_HOUSE_RULES

    def units_text(self) -> str:
        mine = sorted(self.st.units_of(self.gang), key=lambda u: (self.gmap.districts[u.district].area, u.kind.value))
        return join(u.label() for u in mine) or "-"

    def station_hint(self, code: str) -> Message:
        return rules.station_hint(self.gmap, code)


def check_order(
    order: Order,
    gmap: GameMap,
    st: GameState,
    gang: str,
    *,
    recruiting: Mapping[tuple[UnitKind, str], int] | None = None,
    position: rules.Position | None = None,
    house: HouseRules = DEFAULT_HOUSE_RULES,
) -> Verdict:
    """Check one order of ``gang`` against the map and position. ``recruiting`` lists
    the units the same file recruits (by line), to explain why they cannot move. A unit
    order is checked by the rules module the adjudicator calls (``moonshine.variants.moonshine.rules``)."""
    ctx = _Ctx(gmap, st, gang, recruiting or {}, position or rules.Position.of(gmap, st), house)
    unknown = [d for d in _districts(order) if d not in gmap.districts]
    if unknown:
        return _no("no district {d} on this map", d=join(unknown))
    if isinstance(order, Recruit):
        return _check_recruit(ctx, order)
    if isinstance(order, Sell):
        if order.crates is not None and order.crates < 0:
            return _no("cannot sell a negative number of crates")
        return _OK
    if isinstance(order, Store):
        return _check_store(ctx, order)
    if isinstance(order, Bribe):
        return _check_bribe(ctx, order)
    # A new unit holds (R18) but may still be dislodged: hold and retreat orders suit it.
    problem = _own_unit(ctx, order.unit, new_ok=isinstance(order, Hold | Retreat))
    if problem is not None and not problem.ok:
        return problem
    verdict = _OK if isinstance(order, Disband) else rules.check_unit_order(ctx.pos, order)
    if problem is not None and verdict.ok:
        return Verdict(notes=problem.notes + verdict.notes)
    return verdict


def _districts(order: Order) -> list[str]:
    """The districts an order names that must exist (a retreat's choices need not:
    an unknown one is skipped, R7)."""
    if isinstance(order, Sell):
        return []
    if isinstance(order, Store):
        return list(order.warehouses)
    if isinstance(order, Bribe):
        return [order.station]
    if isinstance(order, Recruit):
        return [order.district]
    if isinstance(order, Retreat | Disband):
        return [order.unit.district]
    return rules.order_districts(order)


def _own_unit(ctx: _Ctx, ref: UnitRef, *, new_ok: bool) -> Verdict | None:
    """R12: the unit must be on the board and the gang's; R18: a new unit holds; R22: an
    arrested unit takes no orders."""
    st = ctx.st
    unit = ctx.pos.unit(ref)  # R12: the rules module's view of the board
    if unit is None:
        for a in st.arrested:
            if a.gang == ctx.gang and a.kind is ref.kind and a.taken_in == ref.district:
                return _no(
                    "{u} was arrested in this turn's raid and is held at the station in {s}: "
                    "an arrested unit takes no orders until it comes back next turn (R22)",
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
                            u=ref.text(),
                            n=line,
                        ),
                    )
                )
            return _no(
                "{u} is only recruited this turn (line {n}): a new unit holds during its first turn (R18)",
                u=ref.text(),
                n=line,
            )
        other_kind = UnitKind.L if ref.kind is UnitKind.H else UnitKind.H
        other = st.unit_at(other_kind, ref.district)
        if other is not None and other.gang == ctx.gang:
            hint = say("your unit in {d} is {o}", d=ref.district, o=other.label())
        else:
            hint = say("your units: {units}", units=ctx.units_text())
        return _no("there is no {u} on the board", hint, u=ref.text())
    if unit.gang != ctx.gang:
        owner = ctx.gmap.gangs[unit.gang].name if unit.gang in ctx.gmap.gangs else unit.gang
        return _no(
            "{u} is not yours: it belongs to {g} (R12)",
            say("your units: {units}", units=ctx.units_text()),
            u=ref.text(),
            g=owner,
        )
    if unit.recruited == st.turn and not new_ok:
        return _no(
            "{u} was recruited this turn: a new unit holds during its first turn (R18)",
            u=ref.text(),
        )
    return None


def _check_recruit(ctx: _Ctx, order: Recruit) -> Verdict:
    st, d = ctx.st, order.district
    if st.control.get(d) != ctx.gang:
        mine = [c for c in ctx.gmap.districts if st.control.get(c) == ctx.gang]
        return _no(
            "you do not control {d} (R18)",
            say("your districts: {ds}", ds=join(mine) or "-"),
            d=d,
        )
    others = [u for u in st.units_in(d) if u.gang != ctx.gang]
    if others:
        return _no(
            "another gang's unit stands in {d} ({u}) (R18)",
            d=d,
            u=others[0].label(),
        )
    if st.unit_at(order.kind, d) is not None:
        return _no(
            "{d} already holds your {u}: one unit of each type per district (R4, R18)",
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
            return _no("{d} is listed twice", d=d)
        seen.add(d)
        if gmap.districts[d].feature is not Feature.WAREHOUSE:
            mine = [
                c
                for c in gmap.districts
                if gmap.districts[c].feature is Feature.WAREHOUSE and st.control.get(c) == ctx.gang
            ]
            return _no(
                "{d} is not a warehouse (R16)",
                say("your warehouses: {w}", w=join(mine) or "-"),
                d=d,
            )
        if st.control.get(d) != ctx.gang:
            notes.append(
                say(
                    "you do not control {d} now: it takes crates only if you hold it after this turn's moves "
                    "(R13, R16)",
                    d=d,
                )
            )
    return Verdict(notes=tuple(notes))


def _check_bribe(ctx: _Ctx, order: Bribe) -> Verdict:
    d = order.station
    if not ctx.gmap.districts[d].has_station:
        return _no("there is no police station in {d}", ctx.station_hint(d), d=d)
    if order.amount <= 0:
        return _no("a bribe of $0 buys nothing")
    if order.amount % money.STEP:
        return _no(
            "money moves in steps of $0.50 (R17), not {a}",
            a=money.fmt(order.amount),
        )
    refusal = ctx.house.bribe_refusal(order.amount)
    return _OK if refusal is None else Verdict(reason=refusal)


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
    house: HouseRules = DEFAULT_HOUSE_RULES,
) -> GangOrders:
    """Read and check a gang's orders file. The gang is ``gang`` (key or name), else the
    file's ``gang:`` line, else ``fallback_gang`` (e.g. from the file's name). Every line
    gets a status and a reason; all problems are reported together."""
    result = GangOrders(gang=None, turn=st.turn, source=source)
    raw = _split(text)
    if len(raw) > MAX_LINES:
        result.issues.append(
            say_n(
                "the file has {n} line: only the first {m} are read",
                "the file has {n} lines: only the first {m} are read",
                n=len(raw),
                m=MAX_LINES,
            )
        )
    result.lines = _read_lines(raw[:MAX_LINES], gmap)
    _headers(result, gmap, st, gang, fallback_gang)
    if result.gang is not None:
        # A line refused on its own may read one way only against the gang's position:
        # a misspelt district only one of whose readings the gang can order, a unit
        # without its type where the gang has one unit.
        position = ReadingPosition(gmap, st, result.gang, rules.Position.of(gmap, st))
        for i, line in enumerate(result.lines):
            if line.status == REJECTED and line.order is None:
                result.lines[i] = _read_line(line.number, line.text, gmap, position)
    if result.gang is None:
        for line in result.lines:
            if line.order is not None:
                line.status = REJECTED
                line.reason = say("not checked: the file names no gang")
        return result
    _validate(result, gmap, st, result.gang, house)
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
                    reason=say("signature: the rest is not read"),
                )
            )
            continue
        if not unquote(raw):
            lines.append(OrderLine(number, raw, BLANK))
            continue
        lines.append(_read_line(number, raw, gmap))
    return lines


def _read_line(number: int, raw: str, gmap: GameMap, position: ReadingPosition | None = None) -> OrderLine:
    try:
        reading = read_line(raw, gmap, position)
    except ParseError as exc:
        return OrderLine(number, raw, REJECTED, reason=exc.reason, hint=exc.suggestion)
    parsed = reading.parsed
    if parsed is None:
        return OrderLine(number, raw, COMMENT)
    if isinstance(parsed, GangHeader | PasswordHeader | TurnHeader):
        return OrderLine(number, raw, HEADER, header=parsed)
    return OrderLine(number, raw, ACCEPTED, order=parsed, notes=list(reading.notes))


class ReadingPosition(msgspec.Struct, frozen=True):
    """The position as the order reader sees it (``parser.Position``): a misspelt
    district is read only where one reading is an order the gang can give, checked by
    the rules the adjudicator applies (``check_order``)."""

    gmap: GameMap
    st: GameState
    gang: str
    position: rules.Position

    def usable(self, order: Order) -> bool:
        return check_order(order, self.gmap, self.st, self.gang, position=self.position).ok

    def units_in(self, district: str, *, own: bool) -> tuple[UnitRef, ...]:
        units = sorted(self.st.units_in(district), key=lambda u: u.kind.value)
        return tuple(UnitRef(u.kind, u.district) for u in units if u.gang == self.gang or not own)

    def steps(self, start: str, district: str) -> int:
        if start not in self.gmap.districts:
            return 0
        seen, frontier, n = {start}, {start}, 0
        while frontier and district not in seen:
            frontier = {m for d in frontier for m in self.gmap.neighbours(d)} - seen
            seen |= frontier
            n += 1
        return n


def _headers(result: GangOrders, gmap: GameMap, st: GameState, gang: str | None, fallback: str | None) -> None:
    said: list[tuple[int, str]] = []
    for line in result.lines:
        h = line.header
        if isinstance(h, GangHeader):
            said.append((line.number, h.gang))
            line.reason = say("gang: {name} ({key})", name=_gang_name(gmap, h.gang), key=h.gang)
        elif isinstance(h, PasswordHeader):
            result.password = h.password
            line.reason = say("password given")
        elif isinstance(h, TurnHeader):
            result.header_turn = h.turn
            line.reason = say("turn: {t}", t=h.turn)
    if said:
        result.header_gang = said[0][1]
        for number, key in said[1:]:
            if key != said[0][1]:
                result.issues.append(
                    say(
                        "the gang lines disagree: line {a} says {g1}, line {b} says {g2}",
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
            result.issues.append(say("no gang {q} (gangs: {gs})", q=quote(gang), gs=join(gmap.gangs)))
            return
        result.gang = g.key
        if result.header_gang is not None and result.header_gang != g.key:
            result.issues.append(
                say(
                    "the file says gang: {h}, but these orders are read for {g}",
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
                gs=join(gmap.gangs),
            )
        )
    if result.header_turn is not None and result.header_turn != st.turn:
        result.issues.append(
            say(
                "these orders say turn {h}, but the turn being played is {t}",
                h=result.header_turn,
                t=st.turn,
            )
        )


def _validate(
    result: GangOrders, gmap: GameMap, st: GameState, gang: str, house: HouseRules = DEFAULT_HOUSE_RULES
) -> None:
    lines = result.lines
    position = rules.Position.of(gmap, st)
    # Recruits first: a unit the file recruits is explained, not "missing", elsewhere.
    recruiting: dict[tuple[UnitKind, str], int] = {}
    for line in lines:
        if isinstance(line.order, Recruit) and check_order(line.order, gmap, st, gang, position=position).ok:
            recruiting.setdefault((line.order.kind, line.order.district), line.number)

    slots: dict[tuple[object, ...], OrderLine] = {}
    for line in lines:
        order = line.order
        if order is None or line.status != ACCEPTED:
            continue
        verdict = check_order(order, gmap, st, gang, recruiting=recruiting, position=position, house=house)
        if not verdict.ok:
            line.status = REJECTED
            line.reason, line.hint = verdict.reason, verdict.hint
            continue
        line.notes.extend(verdict.notes)
        key = _slot(order)
        before = slots.get(key)
        if before is not None:
            before.status = REPLACED
            before.reason = say("replaced by line {n}", n=line.number)
            before.notes.clear()
            line.notes.insert(0, say("replaces line {n}", n=before.number))
        slots[key] = line

    # A disbanded unit takes no other order (R17: disbanding comes first).
    disbanded = {ln.order.unit: ln for ln in slots.values() if isinstance(ln.order, Disband)}
    for key, line in list(slots.items()):
        ref = line.unit
        if ref is not None and ref in disbanded and not isinstance(line.order, Disband):
            line.status = REJECTED
            line.reason = say(
                "{u} is disbanded (line {n}): a disbanded unit takes no other order",
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
            line.notes.append(say("{u} follows line {n}", u=ref.text(), n=counted.number))
        else:
            line.notes.append(say("{u} holds (R12)", u=ref.text()))

    result.money = money_summary(
        st,
        gang,
        recruits=[(ln.number, ln.order) for ln in accepted if isinstance(ln.order, Recruit)],
        disbanded=gone,
        bribes=[(ln.number, ln.order) for ln in accepted if isinstance(ln.order, Bribe)],
        gmap=gmap,
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
            want: Order
            if isinstance(order, SupportMove | Transport):
                fits = isinstance(theirs, Move) and theirs.dest == order.dest
                want = Move(target, order.dest)
            elif isinstance(order, SupportAssault):
                fits = isinstance(theirs, Assault) and theirs.station == order.station
                want = Assault(target, order.station)
            else:
                fits = not isinstance(theirs, Move)
                want = Hold(target)
            if fits:
                continue
            if n is None:
                note = say(
                    "{t} has no order '{w}' in this file: this order will not help it",
                    t=target.text(),
                    w=spoken(want),
                )
            else:
                note = say(
                    "{t}'s own order (line {n}) is not '{w}': this order will not help it",
                    t=target.text(),
                    n=n,
                    w=spoken(want),
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
                            c=carrier.text(),
                            w=spoken(wanted),
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
    gmap: GameMap | None = None,
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
    unpaid: list[tuple[UnitRef, bool]] = []
    if gmap is not None and bill.unpaid_units:
        for victim in unpaid_upkeep_order(gmap, st, gang):
            if isinstance(victim, Arrested):
                unpaid.append((UnitRef(victim.kind, victim.taken_in), True))
            elif UnitRef(victim.kind, victim.district) not in gone and victim.recruited != st.turn:
                unpaid.append((UnitRef(victim.kind, victim.district), False))
        unpaid = unpaid[: bill.unpaid_units]
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
        unpaid=tuple(unpaid),
    )
