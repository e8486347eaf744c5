"""One whole turn: the game master's main job. A pipeline of named stages in the
order of the rules' turn structure and the rulings (R12 to R24), then the opening
of the next turn (R20 to R23). Pure: map, state, orders and seed in; result out."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import msgspec

from moonshine.errors import GameError
from moonshine.text import money
from moonshine.text.catalogue import Amount, Message, sentence, sentence_n
from moonshine.text.money import Money
from moonshine.variants.moonshine import rules, scoring
from moonshine.variants.moonshine.calendar import Turn
from moonshine.variants.moonshine.houserules import DEFAULT as DEFAULT_HOUSE_RULES
from moonshine.variants.moonshine.houserules import HouseRules
from moonshine.variants.moonshine.map import RECRUIT_COST, UPKEEP, WAREHOUSE_CAPACITY, Feature, GameMap, UnitKind
from moonshine.variants.moonshine.movement import Outcome, adjudicate
from moonshine.variants.moonshine.orders import Bribe, Disband, Recruit, Retreat, Sell, Store, UnitOrder, UnitRef
from moonshine.variants.moonshine.police import Return, open_turn
from moonshine.variants.moonshine.state import Arrested, GameState, Raid, Unit
from moonshine.variants.moonshine.upkeep import settle, unpaid_upkeep_order

if TYPE_CHECKING:
    from moonshine.variants.moonshine.checker import GangOrders

MIN_PRICE = 50  # the price never falls below $0.50 (R20)


class GangPlan(msgspec.Struct):
    """What one gang's accepted orders ask for this turn. ``submitted`` is False when
    the gang sent no orders: its units hold, it sells the maximum, bids nothing (R12)."""

    gang: str
    submitted: bool = False
    unit_orders: dict[UnitRef, UnitOrder] = msgspec.field(default_factory=dict)
    retreats: dict[UnitRef, Retreat] = msgspec.field(default_factory=dict)
    recruits: list[Recruit] = msgspec.field(default_factory=list)
    disbands: list[Disband] = msgspec.field(default_factory=list)
    sell: Sell | None = None
    store: Store | None = None
    bribes: list[Bribe] = msgspec.field(default_factory=list)


def plan_of(gang: str, orders: GangOrders) -> GangPlan:
    """What ``gang``'s orders file, read and checked (``checker.read_orders``), asks
    for: its accepted orders (R12). The adjudication and a replay read a plan so."""
    return GangPlan(
        gang=gang,
        submitted=True,
        unit_orders=dict(orders.unit_orders),
        retreats=dict(orders.retreats),
        recruits=list(orders.recruits),
        disbands=list(orders.disbands),
        sell=orders.sell,
        store=orders.store,
        bribes=list(orders.bribes),
    )


class Ledger(msgspec.Struct):
    """One gang's crates and dollars over one turn. ``balanced`` checks both sums."""

    gang: str
    # crates
    before_raid: int = 0  # in its warehouses at the end of the last turn
    seized: int = 0  # taken from it by this turn's raid
    at_start: int = 0  # in its warehouses when orders were written
    captured: int = 0  # in warehouses it took from others or from nobody (R13)
    captured_from: int = 0  # in its warehouses that others took (R13)
    produced: int = 0  # R14
    looted: int = 0  # from police stations it assaulted (R11)
    held: int = 0  # available for sale
    capacity: int = 0  # R15
    sold: int = 0
    stored: dict[str, int] = msgspec.field(default_factory=dict)  # per warehouse, after storage (R16)
    lost: int = 0  # over the warehouses' capacity
    # dollars (cents)
    cash_start: Money = 0
    upkeep: Money = 0
    recruits: Money = 0
    bribes: Money = 0
    revenue: Money = 0
    cash_end: Money = 0
    notes: list[Message] = msgspec.field(default_factory=list)

    @property
    def crates_balance(self) -> bool:
        return (
            self.before_raid - self.seized == self.at_start
            and self.at_start + self.captured - self.captured_from + self.produced + self.looted == self.held
            and self.held - self.sold - self.lost == sum(self.stored.values())
        )

    @property
    def cash_balance(self) -> bool:
        return self.cash_start - self.upkeep - self.recruits - self.bribes + self.revenue == self.cash_end

    @property
    def balanced(self) -> bool:
        return self.crates_balance and self.cash_balance and self.cash_end >= 0


class Adjustment(msgspec.Struct, frozen=True):
    """A change made before movement (R17, R18): recruits, disbands, cuts."""

    gang: str
    kind: str  # "recruit", "disband", "recruit cancelled", "bid cut", "bid refused", "disbanded for upkeep"
    text: str
    why: Message

    @property
    def reason(self) -> str:
        return self.why.text()


class BidResult(msgspec.Struct, frozen=True):
    station: str
    gang: str
    amount: Money  # paid (after any cut)
    won: bool
    why: Message

    @property
    def reason(self) -> str:
        return self.why.text()


class TurnResult(msgspec.Struct):
    turn: str
    price: Money  # the price this turn's sales were made at
    raid: Raid | None  # this turn's raid (step 2)
    plans: dict[str, GangPlan]
    adjustments: list[Adjustment]
    outcome: Outcome
    bids: list[BidResult]
    ledgers: dict[str, Ledger]
    vp: dict[str, int]
    winners: list[str]
    sold_total: int
    new_price: Money
    price_why: Message
    next_state: GameState
    returns: list[Return]  # arrested units that came back at the next turn's opening


# -- stages -----------------------------------------------------------------------


def stage_adjustments(
    gmap: GameMap,
    st: GameState,
    plans: Mapping[str, GangPlan],
    ledgers: dict[str, Ledger],
    house: HouseRules = DEFAULT_HOUSE_RULES,
) -> tuple[list[Adjustment], dict[str, list[tuple[Bribe, Money]]]]:
    """R17, R18: disbands, upkeep, recruits and bids, all paid from the cash held at the
    start of the turn; cash never goes negative. A bid below the game's minimum (house
    rules) is refused and costs nothing. Mutates ``st``."""
    adjustments: list[Adjustment] = []
    paid_bids: dict[str, list[tuple[Bribe, Money]]] = {}
    for gang in gmap.gangs:
        plan = plans[gang]
        ledger = ledgers[gang]
        cash = st.cash.get(gang, 0)
        ledger.cash_start = cash
        for d in plan.disbands:
            unit = st.unit_at(d.unit.kind, d.unit.district)
            if unit is None or unit.gang != gang:
                continue
            st.units.remove(unit)
            adjustments.append(Adjustment(gang, "disband", d.text(), sentence("disbanded; no upkeep for it (R17)")))
        paying = len(st.units_of(gang)) + sum(1 for a in st.arrested if a.gang == gang)
        recruits = _acceptable_recruits(gmap, st, gang, plan.recruits, adjustments)
        bids = []
        for b in plan.bribes:
            refusal = house.bribe_refusal(b.amount)
            if refusal is not None:
                adjustments.append(Adjustment(gang, "bid refused", b.text(), refusal))
            elif b.amount > 0:
                bids.append(b)
        bill = settle(cash, paying, len(recruits), [b.amount for b in bids])
        upkeep = bill.upkeep
        # Recruits cancelled, last written first, while the bill exceeds the cash.
        for r in reversed(recruits[bill.kept_recruits :]):
            adjustments.append(
                Adjustment(
                    gang,
                    "recruit cancelled",
                    r.text(),
                    sentence("not enough cash ({cash}) (R17)", cash=Amount.of(cash)),
                )
            )
        recruits = recruits[: bill.kept_recruits]
        # Bids cut, last written first, each to what cash remains.
        paid: list[tuple[Bribe, Money]] = []
        for b, amount in zip(bids, bill.paid_bids, strict=True):
            if amount < b.amount:
                adjustments.append(
                    Adjustment(
                        gang,
                        "bid cut",
                        b.text(),
                        sentence("cut to {amount}: not enough cash (R17)", amount=Amount.of(amount)),
                    )
                )
            if amount > 0:
                paid.append((b, amount))
        # Disband for unpaid upkeep, arrested units included, in R17's order.
        if bill.unpaid_units:
            for victim in unpaid_upkeep_order(gmap, st, gang)[: bill.unpaid_units]:
                if isinstance(victim, Arrested):
                    st.arrested.remove(victim)
                else:
                    st.units.remove(victim)
                adjustments.append(
                    Adjustment(
                        gang, "disbanded for upkeep", victim.label(), sentence("the gang cannot pay its upkeep (R17)")
                    )
                )
                upkeep -= UPKEEP
        for r in recruits:
            st.units.append(Unit(r.district, r.kind, gang, recruited=st.turn))
            adjustments.append(Adjustment(gang, "recruit", r.text(), sentence("recruited; it holds this turn (R18)")))
        ledger.upkeep = upkeep
        ledger.recruits = RECRUIT_COST * len(recruits)
        ledger.bribes = sum(a for _, a in paid)
        paid_bids[gang] = paid
    st.normalise(gmap)
    return adjustments, paid_bids


def _acceptable_recruits(
    gmap: GameMap, st: GameState, gang: str, wanted: list[Recruit], adjustments: list[Adjustment]
) -> list[Recruit]:
    """R18: a district the gang controls after this turn's raid, with no unit of that
    type and no other gang's unit (counting recruits already accepted)."""
    taken: set[tuple[UnitKind, str]] = set()
    ok: list[Recruit] = []
    for r in wanted:
        reason = None
        d = r.district
        if d not in gmap.districts:
            reason = sentence("no district {d} (R18)", d=d)
        elif st.control.get(d) != gang:
            reason = sentence("{d} is not under your control (R18)", d=d)
        elif any(u.gang != gang for u in st.units_in(d)):
            reason = sentence("another gang's unit stands in {d} (R18)", d=d)
        elif st.unit_at(r.kind, d) is not None or (r.kind, d) in taken:
            if r.kind is UnitKind.H:
                reason = sentence("{d} already has a henchman (R18)", d=d)
            else:
                reason = sentence("{d} already has a delivery man (R18)", d=d)
        if reason is not None:
            adjustments.append(Adjustment(gang, "recruit cancelled", r.text(), reason))
            continue
        taken.add((r.kind, r.district))
        ok.append(r)
    return ok


def stage_movement(gmap: GameMap, st: GameState, plans: Mapping[str, GangPlan]) -> Outcome:
    """Movement and retreats (R4 to R12): the adjudicator. Orders for units that are no
    longer on the board (disbanded) are dropped; units without orders hold."""
    pos = rules.Position.of(gmap, st)
    orders: dict[UnitRef, UnitOrder] = {}
    retreats: dict[UnitRef, Retreat] = {}
    for gang in gmap.gangs:
        plan = plans[gang]
        for ref, order in plan.unit_orders.items():
            if rules.owns(pos, gang, ref):  # R12, as the order checker said it
                orders[ref] = order
        for ref, r in plan.retreats.items():
            if rules.owns(pos, gang, ref):
                retreats[ref] = r
    return adjudicate(gmap, st, orders, retreats)


def stage_control(gmap: GameMap, st: GameState, ledgers: dict[str, Ledger]) -> None:
    """R5, R13: a unit standing in a district at the end of the turn gives its gang
    control; a warehouse's crates belong to whoever controls it now."""
    for u in st.units:
        before = st.control.get(u.district)
        if before == u.gang:
            continue
        st.control[u.district] = u.gang
        crates = st.stocks.get(u.district, 0)
        if gmap.districts[u.district].feature is Feature.WAREHOUSE and crates:
            ledgers[u.gang].captured += crates
            ledgers[u.gang].notes.append(
                sentence_n(
                    "captured {n} crate in the warehouse in {d} (R13)",
                    "captured {n} crates in the warehouse in {d} (R13)",
                    n=crates,
                    d=u.district,
                )
            )
            if before is not None:
                ledgers[before].captured_from += crates
                ledgers[before].notes.append(
                    sentence_n(
                        "lost {n} crate: the warehouse in {d} was taken (R13)",
                        "lost {n} crates: the warehouse in {d} was taken (R13)",
                        n=crates,
                        d=u.district,
                    )
                )


def stage_production(gmap: GameMap, st: GameState, ledgers: dict[str, Ledger]) -> None:
    """R14: 5 crates per controlled supply zone not raided this turn, +1 per own L in it."""
    raid = st.raid
    dry = raid.district if raid is not None and raid.controller is not None and not raid.spared else None
    for gang, ledger in ledgers.items():
        ledger.produced = scoring.production(gmap, st, gang, raided=dry)
        if dry is not None and st.control.get(dry) == gang and gmap.districts[dry].feature is Feature.SUPPLY:
            ledger.notes.append(sentence("the supply zone in {d} produced nothing: raided this turn (R22)", d=dry))


def stage_spoils(st: GameState, outcome: Outcome, ledgers: dict[str, Ledger]) -> list[str]:
    """R11, R24: a successful assault takes the station's confiscated crates (sellable
    this turn) and earns 5 VP once per station."""
    notes = []
    for a in outcome.assaults:
        if not a.succeeded:
            continue
        crates = st.confiscated.pop(a.station, 0)
        ledgers[a.gang].looted += crates
        taken = st.assaulted.setdefault(a.gang, [])
        first = a.station not in taken
        if first:
            taken.append(a.station)
        if first:
            note = sentence_n(
                "assault on the station in {d}: {n} crate seized, +5 VP",
                "assault on the station in {d}: {n} crates seized, +5 VP",
                d=a.station,
                n=crates,
            )
        else:
            note = sentence_n(
                "assault on the station in {d}: {n} crate seized, no VP: this station was already taken once (R24)",
                "assault on the station in {d}: {n} crates seized, no VP: this station was already taken once (R24)",
                d=a.station,
                n=crates,
            )
        ledgers[a.gang].notes.append(note)
        notes.append(f"{a.gang} took the station in {a.station}")
    return notes


def stage_sales_and_storage(
    gmap: GameMap, st: GameState, plans: Mapping[str, GangPlan], ledgers: dict[str, Ledger]
) -> int:
    """R15, R16: sell min(N, crates held, capacity) at this turn's price; the rest goes
    into the gang's warehouses, 10 at most each, in the ``store`` order then map order;
    what does not fit is lost. Returns the crates sold by all gangs."""
    total = 0
    for gang in gmap.gangs:
        plan = plans[gang]
        ledger = ledgers[gang]
        mine = [d for d in st.controlled_by(gang) if gmap.districts[d].feature is Feature.WAREHOUSE]
        in_stock = sum(st.stocks.get(d, 0) for d in mine)
        ledger.held = in_stock + ledger.produced + ledger.looted
        ledger.capacity = scoring.capacity(gmap, st, gang)
        asked = plan.sell.crates if (plan.submitted and plan.sell is not None) else None
        wanted = ledger.held if asked is None else asked
        ledger.sold = min(wanted, ledger.held, ledger.capacity)
        if asked is None and ledger.held > ledger.sold:  # no sell order: the most it could (R12)
            ledger.notes.append(
                sentence_n(
                    "no sell order: sold {n} crate, all your territory's consumption takes (R12, R15)",
                    "no sell order: sold {n} crates, all your territory's consumption takes (R12, R15)",
                    n=ledger.sold,
                )
            )
        elif wanted > ledger.sold:
            if ledger.held <= ledger.capacity:
                note = sentence_n(
                    "sold {n} crate of the {m} ordered: limited by what you held (R15)",
                    "sold {n} crates of the {m} ordered: limited by what you held (R15)",
                    n=ledger.sold,
                    m=wanted,
                )
            else:
                note = sentence_n(
                    "sold {n} crate of the {m} ordered: limited by your territory's consumption (R15)",
                    "sold {n} crates of the {m} ordered: limited by your territory's consumption (R15)",
                    n=ledger.sold,
                    m=wanted,
                )
            ledger.notes.append(note)
        ledger.revenue = ledger.sold * st.price
        total += ledger.sold
        rest = ledger.held - ledger.sold
        order: list[str] = []
        if plan.store is not None:
            for d in plan.store.warehouses:
                if d in mine and d not in order:
                    order.append(d)
                elif d not in mine:
                    ledger.notes.append(sentence("store {d}: not one of your warehouses; ignored (R16)", d=d))
        order += [d for d in gmap.map_order(mine) if d not in order]
        for d in order:
            put = min(rest, WAREHOUSE_CAPACITY)
            st.stocks[d] = put
            ledger.stored[d] = put
            rest -= put
        ledger.lost = rest
        if rest:
            if not mine:
                ledger.notes.append(
                    sentence_n(
                        "{n} unsold crate lost: no warehouse (R16)",
                        "{n} unsold crates lost: no warehouse (R16)",
                        n=rest,
                    )
                )
            else:
                ledger.notes.append(
                    sentence_n(
                        "{n} unsold crate lost: full warehouses (R16)",
                        "{n} unsold crates lost: full warehouses (R16)",
                        n=rest,
                    )
                )
    return total


def stage_corruption(
    gmap: GameMap, st: GameState, paid_bids: Mapping[str, list[tuple[Bribe, Money]]]
) -> list[BidResult]:
    """R19: sealed bids; the strictly highest bid corrupts the station from now on,
    until another gang's strictly highest bid; a tie changes nothing."""
    by_station: dict[str, dict[str, Money]] = {}
    for gang, bids in paid_bids.items():
        for b, amount in bids:
            by_station.setdefault(b.station, {})
            by_station[b.station][gang] = by_station[b.station].get(gang, 0) + amount
    results: list[BidResult] = []
    for station in gmap.map_order(by_station):
        offers = by_station[station]
        top = max(offers.values())
        leaders = sorted(g for g, a in offers.items() if a == top)
        before = st.corruption.get(station)
        for gang in sorted(offers, key=list(gmap.gangs).index):
            amount = offers[gang]
            if len(leaders) == 1 and leaders[0] == gang:
                st.corruption[station] = gang
                if before != gang:
                    reason = sentence("highest bid: the station is yours")
                else:
                    reason = sentence("highest bid: the station stays yours")
                results.append(BidResult(station, gang, amount, True, reason))
            elif gang in leaders:
                tied = sentence("tied for the highest bid: nothing changes")
                results.append(BidResult(station, gang, amount, False, tied))
            else:
                results.append(BidResult(station, gang, amount, False, sentence("outbid")))
    return results


def new_price(price: Money, previous_sold: int | None, sold: int) -> tuple[Money, Message]:
    """R20: P(n+1) = round_half(S(n-1) / S(n) * P(n)), never below $0.50; unchanged on
    the first turn and whenever S(n-1) or S(n) is 0."""
    if previous_sold is None:
        return price, sentence("unchanged: first turn (R20)")
    if previous_sold == 0 or sold == 0:
        return price, sentence("unchanged: no sales in one of the last two turns (R20)")
    from fractions import Fraction  # on a price change only

    exact = Fraction(previous_sold, sold) * Fraction(price, 100)
    p = max(MIN_PRICE, money.round_half(exact))
    return p, sentence(
        "{a} / {b} x {price} = {exact}, rounded to {new} (R20)",
        a=previous_sold,
        b=sold,
        price=Amount.of(price),
        exact=Amount(f"${float(exact):.3f}"),
        new=Amount.of(p),
    )


def winners_of(vp: Mapping[str, int], target: int = scoring.VICTORY_VP) -> list[str]:
    """R24: a gang with 30 VP (or the game's ``target``, house rules) or more wins; if
    several, those sharing the highest score."""
    over = {g: v for g, v in vp.items() if v >= target}
    if not over:
        return []
    best = max(over.values())
    return [g for g, v in over.items() if v == best]


# -- the pipeline -----------------------------------------------------------------


def run_turn(
    gmap: GameMap,
    st: GameState,
    plans: Mapping[str, GangPlan],
    seed: str | None,
    house: HouseRules = DEFAULT_HOUSE_RULES,
) -> TurnResult:
    """Resolve one turn from its opening state (raid already applied) and every
    gang's plan, under the game's house rules; return the results and the next
    turn's opening state, its raid drawn from ``seed`` (R21). With no seed (None), the
    next state stands before its raid's draw: its arrested units returned, its raid
    still to come (``moonshine.variants.moonshine.police.open_turn``)."""
    if st.winners:
        raise GameError(f"the game is over: {', '.join(st.winners)} won")
    work = st.copy()
    full = {g: plans.get(g, GangPlan(g)) for g in gmap.gangs}
    ledgers = {g: Ledger(g) for g in gmap.gangs}
    for g, ledger in ledgers.items():
        mine = [d for d in work.controlled_by(g) if gmap.districts[d].feature is Feature.WAREHOUSE]
        ledger.at_start = sum(work.stocks.get(d, 0) for d in mine)
        seized = work.raid.crates if work.raid is not None and work.raid.controller == g else 0
        ledger.seized = seized
        ledger.before_raid = ledger.at_start + seized

    adjustments, paid_bids = stage_adjustments(gmap, work, full, ledgers, house)
    outcome = stage_movement(gmap, work, full)
    work.units = list(outcome.units)
    work.normalise(gmap)
    stage_control(gmap, work, ledgers)
    stage_production(gmap, work, ledgers)
    stage_spoils(work, outcome, ledgers)
    sold_total = stage_sales_and_storage(gmap, work, full, ledgers)
    bids = stage_corruption(gmap, work, paid_bids)
    vp = {g: scoring.victory_points(gmap, work, g) for g in gmap.gangs}
    winners = winners_of(vp, house.victory_vp)
    turn = Turn.parse(st.turn)
    if winners:  # R24 (amended 2026-11-27): the game ends at step 10; step 11 never comes
        price, price_why = st.price, sentence("unchanged: the game is over, no price is set for a next turn (R24)")
    else:
        price, price_why = new_price(st.price, st.sold.get(turn.previous().name), sold_total)

    for g, ledger in ledgers.items():
        ledger.cash_end = ledger.cash_start - ledger.upkeep - ledger.recruits - ledger.bribes + ledger.revenue
        work.cash[g] = ledger.cash_end

    nxt = work.copy()
    nxt.turn = turn.next().name
    nxt.price = price
    nxt.sold = {**st.sold, st.turn: sold_total}
    nxt.winners = winners
    nxt.raid = None
    returns: list[Return] = []
    if not winners:
        returns = open_turn(gmap, nxt, seed)
    nxt.normalise(gmap)
    return TurnResult(
        turn=st.turn,
        price=st.price,
        raid=st.raid,
        plans=full,
        adjustments=adjustments,
        outcome=outcome,
        bids=bids,
        ledgers=ledgers,
        vp=vp,
        winners=winners,
        sold_total=sold_total,
        new_price=price,
        price_why=price_why,
        next_state=nxt,
        returns=returns,
    )
