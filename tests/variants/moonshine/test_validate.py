"""Orders checked against the map and the starting position. The Valley Gang holds
LOO (Harrison Street station), NSS, BRO, FIV, KEN, HYD (warehouse) and GRA (supply
zone) with H LOO, H NSS, L BRO, L FIV, L KEN, H HYD, L GRA, and $20."""

from __future__ import annotations

import pytest

from moonshine.variants.moonshine.checker import (
    ACCEPTED,
    BLANK,
    COMMENT,
    HEADER,
    REJECTED,
    REPLACED,
    GangOrders,
    check_order,
    read_orders,
)
from moonshine.variants.moonshine.map import GameMap, UnitKind
from moonshine.variants.moonshine.orders import Bribe, Disband, Hold, Move, Recruit, Sell, Store, Transport, UnitRef
from moonshine.variants.moonshine.state import Arrested, GameState, Unit

H, L = UnitKind.H, UnitKind.L


def read(chicago: GameMap, st: GameState, text: str, gang: str | None = "valley") -> GangOrders:
    return read_orders(text, chicago, st, gang)


def one(chicago: GameMap, st: GameState, line: str, gang: str = "valley") -> tuple[str, str, str | None]:
    """(status, message, suggestion) of a one-line file."""
    result = read(chicago, st, line, gang)
    (ln,) = result.lines
    return ln.status, ln.message, ln.suggestion


ACCEPTED_ORDERS = [
    "H LOO - NSS",
    "H LOO hold",
    "H NSS - CHI",  # into a rival's district: the adjudicator decides
    "L KEN - FIV",
    "L KEN - BRO",  # two steps, any path (R8)
    "L KEN - FIV - BRO",  # two steps, path named
    "H NSS - FIV via BRO",  # carried by L BRO (R10)
    "H NSS - KEN via BRO, FIV",  # a chain of carriers
    "L BRO -> H NSS - FIV",
    "L FIV -> H NSS - KEN",  # one carrier of a chain BRO, FIV
    "L KEN -> H HYD - NSS",  # the chain KEN, FIV, BRO
    "L KEN / H HYD",
    "L BRO / H NSS - CHI",
    "H LOO / H NSS - LIT",
    "L KEN / L GRA - FIV",
    "H NSS / H LOO x LIT",
    "H NSS / H LOO x LOO",
    "H LOO / H NSS x LOO",  # a supporter may stand in the assaulted station's district (R9)
    "H LOO x LOO",
    "H LOO x LIT",
    "retreat H LOO - NSS, LIT",
    "retreat L KEN - WAS, BRO",
    "retreat H LOO - NSS, NSS",  # R7: the second NSS is skipped
    "retreat H LOO - KEN, NSS",  # R7: KEN, out of reach, is skipped
    "recruit H KEN",
    "disband L GRA",
    "sell 0",
    "sell 12",
    "store HYD",
    "bribe LOO 5",
    "bribe LIT 0.50",
]


@pytest.mark.parametrize("line", ACCEPTED_ORDERS)
def test_accepted(chicago: GameMap, start: GameState, line: str) -> None:
    status, message, _ = one(chicago, start, line)
    assert status == ACCEPTED, message


# (line, what the rejection says, what the suggestion says or None)
REJECTIONS = [
    # ownership (R12), arrest (R22), new units (R18)
    ("H NOR - LIN", "there is no H NOR on the board", "your units: H LOO, H NSS, L BRO, L FIV, L GRA, L KEN, H HYD"),
    ("H KEN - FIV", "there is no H KEN on the board", "your unit in KEN is L KEN"),
    ("H CHI - NSS", "H CHI is not yours: it belongs to Unione Siciliana (R12)", "your units:"),
    ("disband H CHI", "H CHI is not yours", None),
    # moves (R8, R10)
    ("H LOO - LOO", "H LOO is already in LOO", None),
    ("H LOO - KEN", "KEN is not next to LOO, and no chain of delivery men can carry H LOO there (R8, R10)",
     "neighbours of LOO: GOL, LIT, NSS"),
    ("H NSS - BRO - FIV", "a henchman moves one district (R8)", "to be carried, write H NSS - FIV via BRO"),
    ("H LOO - BRO via NSS", "no delivery man in NSS to carry H LOO (R10)", None),
    ("H NSS - KEN via BRO", "KEN is not next to BRO: the route NSS - BRO - KEN is broken (R10)", None),
    ("H NSS - KEN via BRO, BRO", "the route NSS - BRO - BRO - KEN passes a district twice", None),
    ("L KEN - BRO via FIV, GRA", "a delivery man is not transported (R10)", "write its path: L KEN - FIV - BRO"),
    ("L KEN - FIV - BRO - NSS", "a delivery man moves at most two districts (R8)", None),
    ("L KEN - WAS - BRO", "WAS is not next to KEN (R8)", "neighbours of KEN: FIV, GRA, HYD"),
    ("L KEN - NSS", "NSS is more than two districts from KEN (R8)", "within reach of L KEN: "),
    # supports (R9)
    ("L KEN / L KEN", "a unit cannot support itself", None),
    ("L KEN / H KEN", "L KEN stands in KEN: its presence already counts in KEN's defence", None),
    ("H LOO / H HYD", "H LOO is not next to HYD: a supporting unit must be next to the district it supports (R9)",
     "neighbours of LOO"),
    ("H LOO / H KEN - FIV", "there is no H KEN on the board to support", None),
    ("L BRO / H NSS - NSS", "H NSS is already in NSS", None),
    ("H NSS / H LOO - NSS", "H NSS stands in NSS: it cannot support a move into its own district (R9)", None),
    ("L KEN / H NSS - CHI", "L KEN is not next to CHI, where the move goes", "neighbours of KEN"),
    ("L BRO / H LOO - CHI", "H LOO cannot reach CHI (R8, R10)", None),
    ("H LOO / H NSS x NSS", "there is no police station in NSS", "NSS depends on the station in LOO"),
    ("H NSS / L BRO x LOO", "only a henchman assaults a police station (R11)", None),
    ("H LOO / H HYD x LOO", "H HYD is neither in LOO nor next to it: it cannot assault that station (R11)", None),
    ("L KEN / H LOO x LIT", "L KEN is neither in LIT nor next to it: it cannot support an assault there (R9)", None),
    # assaults (R11)
    ("L BRO x LOO", "only a henchman assaults a police station (R11)", None),
    ("H NSS x NSS", "there is no police station in NSS", "NSS depends on the station in LOO (Harrison Street station)"),
    ("H HYD x LOO", "the station in LOO is neither in H HYD's district nor next to it (R11)", None),
    # transports (R10)
    ("H NSS -> H LOO - LIT", "only a delivery man transports (R10)", None),
    ("L BRO -> L FIV - NSS", "only a henchman is transported (R10)", None),
    ("L BRO -> H GRA - FIV", "there is no H GRA to transport", None),
    ("L BRO -> H NSS - NSS", "H NSS is already in NSS", None),
    ("L BRO -> H NSS - BRO", "a delivery man carries a henchman from a neighbouring district to another", None),
    ("L KEN -> H NSS - LOO", "no chain of delivery men through KEN links NSS to LOO (R10)", None),
    # retreats (R7)
    ("retreat H LOO - KEN, LOO", "a unit retreats only where it could move (R7, R8): H LOO cannot reach KEN",
     "within reach of H LOO: GOL, LIT, NSS"),
    # recruits (R18)
    ("recruit H CHI", "you do not control CHI (R18)", "your districts: LOO, NSS, BRO, FIV, GRA, KEN, HYD"),
    ("recruit L KEN", "KEN already holds your L KEN: one unit of each type per district (R4, R18)", None),
    # economy (R15 to R17)
    ("sell -3", "cannot sell a negative number of crates", None),
    ("store LOO", "LOO is not a warehouse (R16)", "your warehouses: HYD"),
    ("store HYD, HYD", "HYD is listed twice", None),
    ("bribe NSS 3", "there is no police station in NSS", "NSS depends on the station in LOO"),
    ("bribe LOO 0", "a bribe of $0 buys nothing", None),
    ("bribe LOO 12.30", "money moves in steps of $0.50 (R17), not $12.30", None),
    # syntax errors are rejections too
    ("H LOO - HYDE", "no district 'HYDE'", "did you mean HYD (Hyde Park)?"),
]  # fmt: skip


@pytest.mark.parametrize(("line", "says", "hint"), REJECTIONS)
def test_rejected(chicago: GameMap, start: GameState, line: str, says: str, hint: str | None) -> None:
    status, message, suggestion = one(chicago, start, line)
    assert status == REJECTED
    assert says in message
    if hint is not None:
        assert suggestion is not None and hint in suggestion


def test_rejections_are_in_french_too(chicago: GameMap, start: GameState) -> None:
    result = read(chicago, start, "H LOO - KEN")
    reason = result.lines[0].reason
    assert reason is not None
    assert reason.text("fr") == (
        "KEN n'est pas voisin de LOO et aucune chaîne de livreurs ne peut y transporter H LOO (R8, R10)"
    )


def test_arrested_unit_takes_no_orders(chicago: GameMap, start: GameState) -> None:
    start.units.remove(Unit("HYD", H, "valley"))
    start.arrested.append(Arrested(station="SSH", kind=H, gang="valley", taken_in="HYD"))
    status, message, _ = one(chicago, start, "H HYD - KEN")
    assert status == REJECTED
    assert "H HYD was arrested in this turn's raid and is held at the station in SSH" in message
    assert "(R22)" in message
    result = read(chicago, start, "")
    assert result.arrested == [UnitRef(H, "HYD")]
    assert UnitRef(H, "HYD") not in result.unordered
    assert result.money is not None and result.money.units == 7  # arrested units still pay upkeep (R17)


def test_unit_recruited_this_turn_holds(chicago: GameMap, start: GameState) -> None:
    start.units.remove(Unit("KEN", L, "valley"))
    start.units.append(Unit("KEN", L, "valley", recruited=start.turn))
    status, message, _ = one(chicago, start, "L KEN - FIV")
    assert status == REJECTED
    assert "L KEN was recruited this turn: a new unit holds during its first turn (R18)" in message
    assert one(chicago, start, "L KEN hold")[0] == ACCEPTED
    assert one(chicago, start, "retreat L KEN - WOO")[0] == ACCEPTED  # it may still be dislodged
    result = read(chicago, start, "")
    assert UnitRef(L, "KEN") not in result.unordered
    assert result.money is not None and result.money.units == 6  # no upkeep for it this turn (R17)


def test_a_new_unit_cannot_carry(chicago: GameMap, start: GameState) -> None:
    start.units.remove(Unit("BRO", L, "valley"))
    start.units.append(Unit("BRO", L, "valley", recruited=start.turn))
    assert "no delivery man in BRO to carry H NSS (R10)" in one(chicago, start, "H NSS - FIV via BRO")[1]


def test_unit_recruited_in_the_same_file(chicago: GameMap, start: GameState) -> None:
    result = read(chicago, start, "recruit H KEN\nH KEN - FIV\nH KEN hold\ndisband H KEN\nretreat H KEN - FIV, WOO")
    statuses = [ln.status for ln in result.lines]
    assert statuses == [ACCEPTED, REJECTED, ACCEPTED, REJECTED, ACCEPTED]
    assert "H KEN is only recruited this turn (line 1): a new unit holds during its first turn (R18)" in (
        result.lines[1].message
    )
    assert result.lines[2].message == "H KEN is recruited this turn (line 1): a new unit holds (R18)"
    assert "WOO is skipped (R7): out of reach of H KEN (R8)" in result.lines[4].message  # R7: the list goes on
    again = read(chicago, start, "recruit H KEN\nretreat H KEN - FIV, HYD")
    assert again.ok and set(again.retreats) == {UnitRef(H, "KEN")}


def test_recruit_beside_a_rival(chicago: GameMap, start: GameState) -> None:
    """A unit back from arrest takes no control (R22): a rival may stand in our district."""
    start.units.remove(Unit("BRO", L, "valley"))
    start.units.append(Unit("BRO", H, "unione"))
    status, message, _ = one(chicago, start, "recruit L BRO")
    assert status == REJECTED
    assert message == "another gang's unit stands in BRO (H BRO) (R18)"


def test_support_of_an_absent_unit_is_a_remark(chicago: GameMap, start: GameState) -> None:
    """Another gang may recruit there this turn (adjustments come first)."""
    status, message, _ = one(chicago, start, "L KEN / L HYD")
    assert status == ACCEPTED
    assert "there is no L HYD on the board now" in message


def test_store_in_a_warehouse_not_yet_ours(chicago: GameMap, start: GameState) -> None:
    status, message, _ = one(chicago, start, "store HYD, LIT")
    assert status == ACCEPTED
    assert "you do not control LIT now" in message


def test_move_by_transport_without_naming_carriers(chicago: GameMap, start: GameState) -> None:
    status, message, _ = one(chicago, start, "H NSS - FIV")
    assert status == ACCEPTED
    assert message == "FIV is not next to NSS: H NSS goes only if delivery men carry it (R10)"


# -- a whole file -------------------------------------------------------------------------


def test_later_valid_order_replaces_earlier(chicago: GameMap, start: GameState) -> None:
    result = read(chicago, start, "H LOO - NSS\nH LOO - LIT")
    first, second = result.lines
    assert (first.status, first.message) == (REPLACED, "replaced by line 2")
    assert (second.status, second.message) == (ACCEPTED, "replaces line 1")
    assert result.unit_orders[UnitRef(H, "LOO")] == Move(UnitRef(H, "LOO"), "LIT")
    assert result.ok


def test_later_invalid_order_does_not_replace(chicago: GameMap, start: GameState) -> None:
    result = read(chicago, start, "H LOO - NSS\nH LOO - KEN")
    first, second = result.lines
    assert first.status == ACCEPTED
    assert second.status == REJECTED
    assert "H LOO follows line 1" in second.message
    assert result.unit_orders[UnitRef(H, "LOO")] == Move(UnitRef(H, "LOO"), "NSS")
    assert not result.ok and result.rejected == 1


def test_rejected_unit_order_leaves_the_unit_holding(chicago: GameMap, start: GameState) -> None:
    result = read(chicago, start, "H LOO - KEN")
    assert "H LOO holds (R12)" in result.lines[0].message
    assert UnitRef(H, "LOO") not in result.unit_orders
    assert UnitRef(H, "LOO") in result.unordered


def test_economy_duplicates(chicago: GameMap, start: GameState) -> None:
    text = "sell 3\nsell 5\nstore HYD\nstore HYD\nbribe LOO 2\nbribe LIT 1\nbribe LOO 3\nrecruit H KEN\nrecruit H KEN"
    result = read(chicago, start, text)
    assert [ln.status for ln in result.lines] == [
        REPLACED,
        ACCEPTED,
        REPLACED,
        ACCEPTED,
        REPLACED,
        ACCEPTED,
        ACCEPTED,
        REPLACED,
        ACCEPTED,
    ]
    assert result.sell == Sell(5)
    assert result.store == Store(("HYD",))
    assert result.bribes == [Bribe("LIT", 100), Bribe("LOO", 300)]
    assert result.recruits == [Recruit(H, "KEN")]


def test_one_bad_line_never_voids_the_others(chicago: GameMap, start: GameState) -> None:
    text = "H LOO - NSS\nthis is not an order\nH NSS - BRO - x\nL KEN - FIV\nsell 4"
    result = read(chicago, start, text)
    assert [ln.status for ln in result.lines] == [ACCEPTED, REJECTED, REJECTED, ACCEPTED, ACCEPTED]
    assert set(result.unit_orders) == {UnitRef(H, "LOO"), UnitRef(L, "KEN")}
    assert result.sell == Sell(4)
    assert result.rejected == 2


def test_disbanded_unit_takes_no_other_order(chicago: GameMap, start: GameState) -> None:
    result = read(chicago, start, "L GRA - FIV\ndisband L GRA\nretreat L GRA - KEN")
    assert [ln.status for ln in result.lines] == [REJECTED, ACCEPTED, REJECTED]
    assert "L GRA is disbanded (line 2): a disbanded unit takes no other order" in result.lines[0].message
    assert result.disbands == [Disband(UnitRef(L, "GRA"))]
    assert UnitRef(L, "GRA") not in result.unit_orders and UnitRef(L, "GRA") not in result.unordered


def test_unordered_units_in_map_order(chicago: GameMap, start: GameState) -> None:
    result = read(chicago, start, "H LOO - NSS\nH NSS - LIT\nL BRO hold")
    assert [u.text() for u in result.unordered] == ["L FIV", "L GRA", "L KEN", "H HYD"]


def test_orders_that_do_not_fit_together_get_a_remark(chicago: GameMap, start: GameState) -> None:
    text = "H LOO / H NSS - LIT\nH NSS - CHI\nL BRO -> H NSS - FIV\nH NSS - KEN via BRO, FIV\nL FIV hold"
    result = read(chicago, start, text)
    lines = {ln.number: ln.message for ln in result.lines}
    assert "H NSS's own order (line 4) is not 'H NSS - LIT'" in lines[1]
    assert "H NSS's own order (line 4) is not 'H NSS - FIV'" in lines[3]
    assert "your L BRO is not ordered 'L BRO -> H NSS - KEN'" in lines[4]
    assert "your L FIV is not ordered 'L FIV -> H NSS - KEN'" in lines[4]
    fitting = read(chicago, start, "H NSS - FIV via BRO\nL BRO -> H NSS - FIV\nH LOO / H NSS - LIT")
    assert fitting.lines[0].message == "" and fitting.lines[1].message == ""
    assert "H NSS's own order (line 1) is not 'H NSS - LIT'" in fitting.lines[2].message


def test_statuses_of_blank_comment_header_and_signature(chicago: GameMap, start: GameState) -> None:
    text = "gang: valley\npassword: pw\n\n# plan\n> H LOO - NSS\n-- \nJohnny\nH NSS - LIT\n"
    result = read_orders(text, chicago, start)
    assert [ln.status for ln in result.lines] == [HEADER, HEADER, BLANK, COMMENT, ACCEPTED, COMMENT, COMMENT, COMMENT]
    assert result.password == "pw"
    assert set(result.unit_orders) == {UnitRef(H, "LOO")}


def test_windows_and_old_mac_line_ends(chicago: GameMap, start: GameState) -> None:
    for text in ("H LOO - NSS\r\nL KEN - FIV\r\n", "H LOO - NSS\rL KEN - FIV\r"):
        result = read(chicago, start, text)
        assert [ln.number for ln in result.lines] == [1, 2]
        assert result.ok


# -- which gang -----------------------------------------------------------------------------


def test_gang_from_argument_header_or_fallback(chicago: GameMap, start: GameState) -> None:
    assert read_orders("H LOO hold", chicago, start, "Valley Gang").gang == "valley"
    header = read_orders("gang: Valley Gang\nH LOO hold", chicago, start)
    assert (header.gang, header.header_gang) == ("valley", "valley")
    fallback = read_orders("H LOO hold", chicago, start, fallback_gang="valley")
    assert fallback.gang == "valley" and fallback.ok
    both = read_orders("gang: outfit\nH LIN hold", chicago, start, fallback_gang="valley")
    assert both.gang == "outfit" and both.ok


def test_no_gang_rejects_every_order(chicago: GameMap, start: GameState) -> None:
    result = read_orders("H LOO - NSS\nsell 3", chicago, start)
    assert result.gang is None
    assert result.problems == [
        "no gang: add a line 'gang: NAME' (gangs: outfit, valley, genna, northside, unione, southside, westside, ragen)"
    ]
    assert [ln.status for ln in result.lines] == [REJECTED, REJECTED]
    assert result.lines[0].message == "not checked: the file names no gang"
    assert result.money is None and not result.ok


def test_gang_mismatch_is_a_problem(chicago: GameMap, start: GameState) -> None:
    result = read_orders("gang: outfit\nH LOO hold", chicago, start, "valley")
    assert result.gang == "valley"
    assert result.problems == ["the file says gang: outfit, but these orders are read for valley"]
    assert not result.ok
    two = read_orders("gang: outfit\ngang: valley\n", chicago, start)
    assert two.problems == ["the gang lines disagree: line 1 says outfit, line 2 says valley"]


def test_unknown_gang_argument(chicago: GameMap, start: GameState) -> None:
    result = read_orders("H LOO hold", chicago, start, "zorro")
    assert result.gang is None
    assert result.problems[0].startswith("no gang 'zorro' (gangs: outfit, valley")


def test_turn_header_must_match(chicago: GameMap, start: GameState) -> None:
    assert read(chicago, start, "turn: spring-1924\nH LOO hold").ok
    result = read(chicago, start, "turn: autumn-1924\nH LOO hold")
    assert result.problems == ["these orders say turn autumn-1924, but the turn being played is spring-1924"]


# -- money (R17) ----------------------------------------------------------------------------


def test_money_summary(chicago: GameMap, start: GameState) -> None:
    result = read(chicago, start, "recruit H KEN\nbribe LOO 1.50\ndisband L GRA")
    m = result.money
    assert m is not None
    assert (m.cash, m.units, m.upkeep, m.recruits, m.recruit_cost, m.bribes) == (2000, 6, 1200, 1, 200, 150)
    assert (m.needed, m.left, m.short) == (1550, 450, False)


def test_short_cash_cancels_recruits_last_written_first(chicago: GameMap, start: GameState) -> None:
    start.cash["valley"] = 1800  # upkeep $14: room for two recruits
    result = read(chicago, start, "recruit H KEN\nrecruit H BRO\nrecruit H FIV\nrecruit H GRA")
    m = result.money
    assert m is not None and m.short
    assert [(n, r.text()) for n, r in m.cancelled] == [(4, "recruit H GRA"), (3, "recruit H FIV")]
    assert m.cut == () and m.unpaid_units == 0
    assert result.ok  # a warning, not a rejection


def test_short_cash_cuts_bribes_last_written_first(chicago: GameMap, start: GameState) -> None:
    result = read(chicago, start, "bribe LOO 4\nrecruit H KEN\nbribe LIT 3")
    m = result.money
    assert m is not None
    assert [(n, r.text()) for n, r in m.cancelled] == [(2, "recruit H KEN")]
    assert [(n, b.text(), kept) for n, b, kept in m.cut] == [(3, "bribe LIT 3", 200)]


def test_short_cash_disbands_for_upkeep(chicago: GameMap, start: GameState) -> None:
    start.cash["valley"] = 350
    m = read(chicago, start, "bribe LOO 1").money
    assert m is not None
    assert m.unpaid_units == 6  # $14 upkeep, $3.50 cash: $10.50 unpaid
    assert [(n, b.text(), kept) for n, b, kept in m.cut] == [(1, "bribe LOO 1", 0)]


def test_check_order_alone(chicago: GameMap, start: GameState) -> None:
    assert check_order(Hold(UnitRef(H, "LOO")), chicago, start, "valley").ok
    bad = check_order(Transport(UnitRef(L, "ZZZ"), UnitRef(H, "LOO"), "BRO"), chicago, start, "valley")
    assert str(bad.reason) == "no district ZZZ on this map"


def test_only_the_first_thousand_lines_are_read(chicago: GameMap, start: GameState) -> None:
    result = read(chicago, start, "H LOO - NSS\n" * 1500)
    assert len(result.lines) == 1000
    assert result.problems == ["the file has 1500 lines: only the first 1000 are read"]
    assert not result.ok


def test_the_check_names_the_units_r17_would_disband(chicago: GameMap, start: GameState) -> None:
    """R17 (amended): the acknowledgement lists who goes for unpaid upkeep, in the order
    the turn disbands them: newest first, on the board before arrested, last in map
    order first, an H before an L; a unit the file disbands is not counted."""
    from moonshine.render.ack import acknowledgement

    st = start.copy()
    st.units = [u for u in st.units if u.gang != "valley"]
    st.units += [
        Unit("LOO", H, "valley"),
        Unit("LOO", L, "valley"),
        Unit("NSS", L, "valley", "autumn-1924"),
        Unit("BRO", H, "valley", "autumn-1924"),
    ]
    st.arrested = [Arrested("LOO", H, "valley", "FIV", "autumn-1924")]
    st.cash["valley"] = 200
    result = read(chicago, st, "disband L LOO")
    assert result.money is not None and result.money.unpaid_units == 3
    assert [(ref.text(), arrested) for ref, arrested in result.money.unpaid] == [
        ("H BRO", False),
        ("L NSS", False),
        ("H FIV", True),
    ]
    ack = acknowledgement(result, chicago, st)
    assert "the most recently recruited first: H BRO, L NSS, H FIV (arrested)" in " ".join(ack.split())
