"""The whole turn (R12 to R24) with hand-computed figures."""

from __future__ import annotations

from fractions import Fraction

import pytest

from moonshine.text.money import round_half
from moonshine.variants.moonshine.map import GameMap, UnitKind
from moonshine.variants.moonshine.orders import (
    Assault,
    Bribe,
    Disband,
    Hold,
    Move,
    Recruit,
    Sell,
    Store,
    SupportAssault,
    SupportMove,
    UnitRef,
)
from moonshine.variants.moonshine.state import GameState, Raid, Unit
from moonshine.variants.moonshine.turn import GangPlan, Ledger, new_price, run_turn, stage_adjustments, winners_of

SEED = "test-seed"


def H(d: str) -> UnitRef:
    return UnitRef(UnitKind.H, d)


def L(d: str) -> UnitRef:
    return UnitRef(UnitKind.L, d)


def plan(gang: str, *orders: object, **kw: object) -> GangPlan:
    p = GangPlan(gang, submitted=True)
    for o in orders:
        if isinstance(o, Recruit):
            p.recruits.append(o)
        elif isinstance(o, Disband):
            p.disbands.append(o)
        elif isinstance(o, Bribe):
            p.bribes.append(o)
        elif isinstance(o, Sell):
            p.sell = o
        elif isinstance(o, Store):
            p.store = o
        else:
            p.unit_orders[o.unit] = o  # type: ignore[attr-defined]
    return p


def quiet(start: GameState) -> GameState:
    """The starting position with no raid this turn."""
    s = start.copy()
    s.raid = None
    return s


# -- R20: the price ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("price", "prev", "sold", "expected"),
    [
        (300, None, 40, 300),  # first turn: unchanged
        (300, 40, 35, 350),  # 40/35*3 = 3.43 -> 3.50
        (300, 35, 40, 250),  # 35/40*3 = 2.625 -> 2.50
        (300, 11, 12, 300),  # 11/12*3 = 2.75 -> 3.00 (halves up)
        (300, 12, 11, 350),  # 12/11*3 = 3.27 -> 3.50
        (300, 0, 12, 300),  # S(n-1) = 0: unchanged
        (300, 12, 0, 300),  # S(n) = 0: unchanged
        (50, 1, 40, 50),  # 1/40*0.5 = 0.0125 -> never below $0.50
        (450, 30, 20, 700),  # 30/20*4.5 = 6.75 -> 7.00
    ],
)
def test_price_formula(price: int, prev: int | None, sold: int, expected: int) -> None:
    assert new_price(price, prev, sold)[0] == expected


def test_round_half_is_exact() -> None:
    assert round_half(Fraction(13, 4)) == 350  # 3.25 -> 3.50
    assert round_half(Fraction(12, 5)) == 250  # 2.40 -> 2.50
    assert round_half(Fraction(11, 5)) == 200  # 2.20 -> 2.00


# -- R24: victory ---------------------------------------------------------------------


def test_winners() -> None:
    assert winners_of({"a": 29, "b": 10}) == []
    assert winners_of({"a": 30, "b": 10}) == ["a"]
    assert winners_of({"a": 31, "b": 33, "c": 33}) == ["b", "c"]


def test_starting_vp(chicago: GameMap, start: GameState) -> None:
    r = run_turn(chicago, quiet(start), {}, SEED)
    # Outfit: NOR supply 3, UPT speakeasy 2, NOC warehouse 1, NOT LIN LAK 1 each = 9.
    assert r.vp["outfit"] == 9
    assert r.vp["valley"] == 10


# -- R12: no orders ----------------------------------------------------------------------


def test_a_gang_without_orders_holds_and_sells_the_maximum(chicago: GameMap, start: GameState) -> None:
    r = run_turn(chicago, quiet(start), {}, SEED)
    led = r.ledgers["outfit"]
    # NOR supply zone with an L: 5 + 1 = 6 produced; NOC warehouse held 5 -> 11 held.
    # Capacity: 6 districts, UPT speakeasy 3 -> 8, + L in NOT and UPT (not supply) = 10.
    assert (led.produced, led.at_start, led.held, led.capacity, led.sold) == (6, 5, 11, 10, 10)
    assert led.stored == {"NOC": 1} and led.lost == 0
    # Dollars: $20 - 6 units x $2 + 10 x $3 = $38.
    assert (led.cash_start, led.upkeep, led.revenue, led.cash_end) == (2000, 1200, 3000, 3800)
    assert led.balanced
    assert all(res.succeeded and "hold" in res.order.text() for res in r.outcome.results.values())


# -- R13 to R16 ----------------------------------------------------------------------------


def test_captured_warehouse_takes_its_crates(chicago: GameMap, start: GameState) -> None:
    s = quiet(start)
    # The Unione H in LIT leaves; a Westside H from NLA moves in (NLA borders LIT).
    s.units = [u for u in s.units if u.district != "LIT"]
    plans = {"westside": plan("westside", Move(H("PIL"), "LIT"), Sell(0))}
    r = run_turn(chicago, s, plans, SEED)
    assert r.next_state.control["LIT"] == "westside"
    west, unione = r.ledgers["westside"], r.ledgers["unione"]
    assert west.captured == 5 and unione.captured_from == 5
    # Westside: production AUS 5 + L = 6, NLA 5 crates, LIT 5 captured; sells nothing.
    assert west.held == 16
    # Stored in map order: LIT (28) first, then NLA (29): 10 + 6.
    assert west.stored == {"LIT": 10, "NLA": 6}
    assert west.balanced and unione.balanced


def test_storage_order_and_overflow(chicago: GameMap, start: GameState) -> None:
    s = quiet(start)
    s.stocks["HYD"] = 10
    plans = {"valley": plan("valley", Sell(1), Store(("HYD", "LIT")))}
    r = run_turn(chicago, s, plans, SEED)
    led = r.ledgers["valley"]
    # Valley: HYD warehouse 10 + GRA supply 5 + L GRA 1 = 16 held, sells 1: 15 left.
    assert (led.held, led.sold) == (16, 1)
    assert led.stored == {"HYD": 10}
    assert led.lost == 5
    assert any("store LIT: not one of your warehouses" in n.text() for n in led.notes)
    assert any("5 unsold crates lost" in n.text() for n in led.notes)


def test_sale_capped_by_capacity_and_by_stock(chicago: GameMap, start: GameState) -> None:
    s = quiet(start)
    plans = {"outfit": plan("outfit", Sell(50)), "genna": plan("genna", Sell(3)), "valley": plan("valley", Sell(None))}
    r = run_turn(chicago, s, plans, SEED)
    assert r.ledgers["valley"].sold == r.ledgers["valley"].held == 11  # sell all: HYD 5 + GRA 6
    assert r.ledgers["outfit"].sold == 10  # capacity
    assert any("limited by your territory's consumption" in n.text() for n in r.ledgers["outfit"].notes)
    assert r.ledgers["genna"].sold == 3


def test_raided_supply_zone_produces_nothing(chicago: GameMap, start: GameState) -> None:
    s = quiet(start)
    s.raid = Raid("NOR", "police", "ALB", False, "outfit", 0, (), (), False, "")
    r = run_turn(chicago, s, {}, SEED)
    assert r.ledgers["outfit"].produced == 0
    s.raid = Raid("NOR", "police", "ALB", True, "outfit", 0, (), (), False, "")  # spared: corrupted station
    assert run_turn(chicago, s, {}, SEED).ledgers["outfit"].produced == 6


# -- R17 and R18: money and recruits ----------------------------------------------------------


def test_recruits_cancelled_last_first_then_bids_cut(chicago: GameMap, start: GameState) -> None:
    s = quiet(start)
    s.cash["outfit"] = 1650  # $16.50; upkeep 6 x $2 = $12
    p = plan(
        "outfit",
        Recruit(UnitKind.H, "NOR"),
        Recruit(UnitKind.H, "NOT"),
        Bribe("LAK", 200),
        Bribe("ALB", 300),
    )
    ledgers = {g: Ledger(g) for g in chicago.gangs}
    adj, paid = stage_adjustments(chicago, s, {g: p if g == "outfit" else GangPlan(g) for g in chicago.gangs}, ledgers)
    kinds = [(a.kind, a.text) for a in adj if a.gang == "outfit"]
    # $16.50 - $12 upkeep = $4.50: both recruits ($4) + bids ($5) do not fit; cancel the
    # last recruit: $2 + $5 > $4.50; cancel the other: $5 > $4.50; then cut the bids,
    # last written first: LAK keeps $2, ALB gets the remaining $2.50.
    assert ("recruit cancelled", "recruit H NOT") in kinds
    assert ("recruit cancelled", "recruit H NOR") in kinds
    assert [(b.station, a) for b, a in paid["outfit"]] == [("LAK", 200), ("ALB", 250)]
    assert ledgers["outfit"].upkeep == 1200 and ledgers["outfit"].bribes == 450


def test_unpaid_upkeep_disbands_the_newest_units(chicago: GameMap, start: GameState) -> None:
    s = quiet(start)
    s.cash["outfit"] = 900  # $9 for 6 units' $12 upkeep: 2 units go
    s.units = [u for u in s.units if u.district != "LAK"] + [Unit("LAK", UnitKind.H, "outfit", "autumn-1925")]
    r = run_turn(chicago, s, {}, SEED)
    gone = [a.text for a in r.adjustments if a.kind == "disbanded for upkeep"]
    assert gone[0] == "H LAK"  # the most recently recruited first
    assert len(gone) == 2
    assert r.ledgers["outfit"].upkeep == 800
    assert r.ledgers["outfit"].cash_end >= 0 and r.ledgers["outfit"].balanced


def test_disband_saves_upkeep_and_recruit_holds(chicago: GameMap, start: GameState) -> None:
    s = quiet(start)
    p = plan("outfit", Disband(L("NOT")), Recruit(UnitKind.H, "NOR"))
    r = run_turn(chicago, s, {"outfit": p}, SEED)
    led = r.ledgers["outfit"]
    assert led.upkeep == 1000 and led.recruits == 200
    nxt = r.next_state
    assert nxt.unit_at(UnitKind.L, "NOT") is None
    assert nxt.unit_at(UnitKind.H, "NOR") == Unit("NOR", UnitKind.H, "outfit", "spring-1924")


def test_recruit_rules(chicago: GameMap, start: GameState) -> None:
    s = quiet(start)
    p = plan(
        "outfit",
        Recruit(UnitKind.L, "NOR"),  # NOR already has an L
        Recruit(UnitKind.H, "ROG"),  # not controlled
        Recruit(UnitKind.H, "UPT"),  # fine
        Recruit(UnitKind.H, "UPT"),  # a second H in UPT
    )
    r = run_turn(chicago, s, {"outfit": p}, SEED)
    reasons = {(a.text, a.reason) for a in r.adjustments if a.kind == "recruit cancelled"}
    assert ("recruit L NOR", "NOR already has a delivery man (R18)") in reasons
    assert ("recruit H ROG", "ROG is not under your control (R18)") in reasons
    assert ("recruit H UPT", "UPT already has a henchman (R18)") in reasons
    assert r.next_state.unit_at(UnitKind.H, "UPT") is not None


# -- R19: corruption -----------------------------------------------------------------------------


def test_bids_strictly_highest_wins_every_bidder_pays(chicago: GameMap, start: GameState) -> None:
    s = quiet(start)
    plans = {
        "outfit": plan("outfit", Bribe("LAK", 500)),
        "unione": plan("unione", Bribe("LAK", 300)),
    }
    r = run_turn(chicago, s, plans, SEED)
    assert r.next_state.corruption == {"LAK": "outfit"}
    assert r.ledgers["unione"].bribes == 300  # a losing bid is paid too
    assert r.vp["outfit"] == 9 + 3


def test_tied_bids_change_nothing(chicago: GameMap, start: GameState) -> None:
    s = quiet(start)
    s.corruption["LAK"] = "northside"
    plans = {"outfit": plan("outfit", Bribe("LAK", 400)), "unione": plan("unione", Bribe("LAK", 400))}
    r = run_turn(chicago, s, plans, SEED)
    assert r.next_state.corruption["LAK"] == "northside"
    assert {b.reason for b in r.bids} == {"tied for the highest bid: nothing changes"}


# -- R11 and R24: assaults -------------------------------------------------------------------------


def test_assault_spoils_and_vp_once_per_station(chicago: GameMap, start: GameState) -> None:
    s = quiet(start)
    s.confiscated["LAK"] = 4
    # The outfit corrupts the station in LAK, so its strength is 3 against the outfit (R11):
    # H LAK (2) + H NOC's support (2) = 4 > 3.
    s.corruption["LAK"] = "outfit"
    p = plan("outfit", Assault(H("LAK"), "LAK"), SupportAssault(H("NOC"), H("LAK"), "LAK"), Sell(0))
    r = run_turn(chicago, s, {"outfit": p}, SEED)
    assert [a.succeeded for a in r.outcome.assaults] == [True]
    assert r.ledgers["outfit"].looted == 4
    assert r.next_state.assaulted == {"outfit": ["LAK"]}
    assert r.vp["outfit"] == 9 + 3 + 5
    again = r.next_state.copy()
    again.raid = None
    again.confiscated["LAK"] = 2
    again.cash["outfit"] = 2000  # it sold nothing last turn: pay its upkeep
    p2 = plan("outfit", Assault(H("LAK"), "LAK"), SupportAssault(H("NOC"), H("LAK"), "LAK"))
    r2 = run_turn(chicago, again, {"outfit": p2}, SEED)
    assert r2.ledgers["outfit"].looted == 2
    assert r2.vp["outfit"] == r.vp["outfit"]  # no second 5 VP
    assert any("no VP" in n.text() for n in r2.ledgers["outfit"].notes)


def test_supported_move_dislodges_and_control_changes(chicago: GameMap, start: GameState) -> None:
    s = quiet(start)
    plans = {"valley": plan("valley", Move(H("NSS"), "CHI"), SupportMove(L("BRO"), H("NSS"), "CHI"))}
    r = run_turn(chicago, s, plans, SEED)
    assert r.next_state.control["CHI"] == "valley"
    assert UnitRef(UnitKind.H, "CHI") in r.outcome.dislodged


def test_game_over_refuses_another_turn(chicago: GameMap, start: GameState) -> None:
    s = quiet(start)
    s.winners = ["valley"]
    from moonshine.errors import GameError

    with pytest.raises(GameError, match="the game is over"):
        run_turn(chicago, s, {}, SEED)


def test_hold_is_default(chicago: GameMap, start: GameState) -> None:
    r = run_turn(chicago, quiet(start), {"outfit": plan("outfit", Hold(H("LAK")))}, SEED)
    assert r.outcome.results[H("LAK")].succeeded
