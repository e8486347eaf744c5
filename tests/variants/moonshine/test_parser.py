"""The order language as players type it: every form, both languages, the map's
names, and errors that quote the text and suggest a fix."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from moonshine.variants.moonshine.map import GameMap, UnitKind, load_map
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
    UnitRef,
    parse_canonical,
)
from moonshine.variants.moonshine.parser.errors import (
    AmountError,
    OrderSyntaxError,
    ParseError,
    UnknownDistrictError,
    UnknownGangError,
)
from moonshine.variants.moonshine.parser.headers import GangHeader, PasswordHeader, TurnHeader
from moonshine.variants.moonshine.parser.reader import parse_line, parse_order

H, L = UnitKind.H, UnitKind.L

# (what a player types, the canonical form it must be understood as)
UNDERSTOOD = [
    # moves
    ("H LOO - NSS", "H LOO - NSS"),
    ("h loo - nss", "H LOO - NSS"),
    ("H LOO-NSS", "H LOO - NSS"),
    ("H LOO – NSS", "H LOO - NSS"),
    ("H LOO — NSS", "H LOO - NSS"),
    ("H LOO moves to NSS", "H LOO - NSS"),
    ("H LOO -> NSS", "H LOO - NSS"),
    ("H LOO → The Levee", "H LOO - NSS"),
    ("H LOO - NSS,", "H LOO - NSS"),
    ("henchman Loop to Near South Side", "H LOO - NSS"),
    ("homme de main LOO va vers NSS", "H LOO - NSS"),
    ("H Loop - The Levee", "H LOO - NSS"),
    ("L LOO - KEN", "L LOO - KEN"),
    ("L LOO - NSS - KEN", "L LOO - NSS - KEN"),
    ("delivery man LOO to NSS to Kenwood", "L LOO - NSS - KEN"),
    ("livreur LOO vers KEN par NSS", "L LOO - KEN via NSS"),  # read as written; the rules reject it (R10)
    ("H LOO - BRO via NSS", "H LOO - BRO via NSS"),
    ("H LOO - BRO via NSS, GRA", "H LOO - BRO via NSS, GRA"),
    ("H LOO - BRO via NSS and GRA", "H LOO - BRO via NSS, GRA"),
    ("H LOO - BRO par NSS et GRA", "H LOO - BRO via NSS, GRA"),
    ("H Hyde Park – Kenwood", "H HYD - KEN"),
    ("H GOL - Gold Coast", "H GOL - GOL"),
    ("L UPT - Uptown (with Edgewater)", "L UPT - UPT"),
    ("L ROG - Uptown", "L ROG - UPT"),
    ("L ROG - Edgewater", "L ROG - UPT"),
    ("H LOO - Morgan Park station", "H LOO - BEV"),
    # holds
    ("H LOO hold", "H LOO hold"),
    ("H LOO", "H LOO hold"),
    ("H LOO holds", "H LOO hold"),
    ("H LOO H", "H LOO hold"),
    ("H LOO tenir", "H LOO hold"),
    ("homme de main LOO tient sa position", "H LOO hold"),
    ("hold H LOO", "H LOO hold"),
    # supports
    ("H GRA / H LOO - NSS", "H GRA / H LOO - NSS"),
    ("H GRA S H LOO - NSS", "H GRA / H LOO - NSS"),
    ("H GRA supports H LOO moves to NSS", "H GRA / H LOO - NSS"),
    ("H GRA soutient H LOO vers NSS", "H GRA / H LOO - NSS"),
    ("L KEN / H HYD", "L KEN / H HYD"),
    ("L KEN / H HYD hold", "L KEN / H HYD"),
    ("livreur KEN soutient homme de main Hyde Park", "L KEN / H HYD"),
    ("L KEN support H LOO - NSS - KEN", "L KEN / H LOO - KEN"),
    ("H BRO / H LOO x NSS", "H BRO / H LOO x NSS"),
    ("H BRO / H LOO × NSS", "H BRO / H LOO x NSS"),
    ("H BRO soutient H LOO attaque NSS", "H BRO / H LOO - NSS"),  # "attaque" is a move (R12)
    # assaults
    ("H LOO x NSS", "H LOO x NSS"),
    ("H LOO X nss", "H LOO x NSS"),
    ("H LOO assaults NSS", "H LOO x NSS"),
    ("H LOO assaille le poste de NSS", "H LOO x NSS"),
    ("H NSS assaut LOO", "H NSS x LOO"),
    ("H NSS x Harrison Street station", "H NSS x LOO"),
    # transports
    ("L NSS -> H LOO - BRO", "L NSS -> H LOO - BRO"),
    ("L NSS –> H LOO – BRO", "L NSS -> H LOO - BRO"),
    ("L NSS —> H LOO — BRO", "L NSS -> H LOO - BRO"),
    ("L NSS → H LOO - BRO", "L NSS -> H LOO - BRO"),
    ("L NSS transports H LOO to BRO", "L NSS -> H LOO - BRO"),
    ("livreur NSS transporte homme de main LOO vers BRO", "L NSS -> H LOO - BRO"),
    ("L NSS C H LOO - BRO", "L NSS -> H LOO - BRO"),
    # retreats
    ("retreat H LOO - NSS, GRA", "retreat H LOO - NSS, GRA"),
    ("retreat H LOO NSS GRA", "retreat H LOO - NSS, GRA"),
    ("retreat H LOO to NSS or GRA", "retreat H LOO - NSS, GRA"),
    ("retraite H LOO - NSS ou GRA", "retreat H LOO - NSS, GRA"),
    ("retraite homme de main LOO vers NSS puis GRA", "retreat H LOO - NSS, GRA"),
    # economy
    ("recruit H LOO", "recruit H LOO"),
    ("recruit henchman in Loop", "recruit H LOO"),
    ("recruter H à LOO", "recruit H LOO"),
    ("recruter livreur LOO", "recruit L LOO"),
    ("disband L NOR", "disband L NOR"),
    ("licencier livreur NOR", "disband L NOR"),
    ("sell 8", "sell 8"),
    ("sell all", "sell all"),
    ("vendre tout", "sell all"),
    ("sell 8 crates", "sell 8"),
    ("vendre 8 caisses", "sell 8"),
    ("sell 0", "sell 0"),
    ("sell -3", "sell -3"),
    ("store GOL, LIT", "store GOL, LIT"),
    ("store GOL LIT", "store GOL, LIT"),
    ("store Gold Coast and Little Italy", "store GOL, LIT"),
    ("stocker GOL et LIT", "store GOL, LIT"),
    ("bribe NSS 12", "bribe NSS 12"),
    ("bribe NSS $12.50", "bribe NSS 12.50"),
    ("bribe NSS 12.5", "bribe NSS 12.50"),
    ("bribe NSS 12.50$", "bribe NSS 12.50"),
    ("bribe NSS 12 dollars", "bribe NSS 12"),
    ("bribe $3 to LOO", "bribe LOO 3"),
    ("corrompre NSS 12,50 $", "bribe NSS 12.50"),
    ("corrompre le poste de LOO avec 3 $", "bribe LOO 3"),
    ("bribe Harrison Street station 3", "bribe LOO 3"),
    ("bribe NSS 12.30", "bribe NSS 12.30"),  # parsed; validation rejects the amount (R17)
    # what email and people add around an order
    ("> H LOO - NSS", "H LOO - NSS"),
    ("> > H LOO - NSS", "H LOO - NSS"),
    (">>H LOO - NSS", "H LOO - NSS"),
    ("   H LOO - NSS   ", "H LOO - NSS"),
    ("\tH LOO - NSS", "H LOO - NSS"),
    ("H LOO - NSS # into the Levee", "H LOO - NSS"),
    ("H LOO - NSS.", "H LOO - NSS"),
    ("- H LOO - NSS", "H LOO - NSS"),
    ("* H LOO - NSS", "H LOO - NSS"),
    ("1. H LOO - NSS", "H LOO - NSS"),
    ("2) H LOO - NSS", "H LOO - NSS"),
    ("\ufeffH LOO - NSS", "H LOO - NSS"),
    ("H\u00a0LOO\u00a0-\u00a0NSS", "H LOO - NSS"),
    ("Ｈ ＬＯＯ － ＮＳＳ", "H LOO - NSS"),
]


@pytest.mark.parametrize(("typed", "canonical"), UNDERSTOOD)
def test_understood(chicago: GameMap, typed: str, canonical: str) -> None:
    order = parse_order(typed, chicago)
    assert order.text() == canonical


def test_every_order_type_is_covered(chicago: GameMap) -> None:
    kinds = {type(parse_order(t, chicago)) for t, _ in UNDERSTOOD}
    assert kinds == {
        Hold,
        Move,
        SupportHold,
        SupportMove,
        SupportAssault,
        Assault,
        Transport,
        Retreat,
        Recruit,
        Disband,
        Sell,
        Store,
        Bribe,
    }


def test_values_not_just_text(chicago: GameMap) -> None:
    assert parse_order("L LOO - NSS - KEN", chicago) == Move(UnitRef(L, "LOO"), "KEN", ("NSS",))
    assert parse_order("H LOO - BRO via NSS, GRA", chicago) == Move(UnitRef(H, "LOO"), "BRO", (), ("NSS", "GRA"))
    assert parse_order("bribe NSS $12.50", chicago) == Bribe("NSS", 1250)
    assert parse_order("retreat H LOO - NSS, GRA", chicago) == Retreat(UnitRef(H, "LOO"), ("NSS", "GRA"))


def test_delivery_man_via_is_read_as_written(chicago: GameMap) -> None:
    """An L is never carried (R10, amended): ``via X`` on an L's move is read as
    written, and the rules reject it with the reason (an L names its path, R8)."""
    assert parse_order("L LOO - KEN via NSS", chicago) == Move(UnitRef(L, "LOO"), "KEN", (), ("NSS",))
    assert parse_order("H LOO - KEN via NSS", chicago) == Move(UnitRef(H, "LOO"), "KEN", (), ("NSS",))


@pytest.mark.parametrize(
    ("line", "header"),
    [
        ("gang: Valley Gang", GangHeader("valley")),
        ("Gang: valley", GangHeader("valley")),
        ("GANG : Ragen's Colts", GangHeader("ragen")),
        ("gang: ragens colts", GangHeader("ragen")),
        ("bande : Genna Crime Family", GangHeader("genna")),
        ("> gang: outfit", GangHeader("outfit")),
        ("gang: valley # that's us", GangHeader("valley")),
        ("password: s3cret # not a comment", PasswordHeader("s3cret # not a comment")),
        ("mot de passe : Très Secret", PasswordHeader("Très Secret")),
        ("turn: spring-1924", TurnHeader("spring-1924")),
        ("tour : Autumn-1925", TurnHeader("autumn-1925")),
    ],
)
def test_headers(chicago: GameMap, line: str, header: object) -> None:
    assert parse_line(line, chicago) == header


@pytest.mark.parametrize(
    "line", ["", "   ", "# comment", "> # quoted comment", ">", "-----", "=====", "Orders for spring 1924:", "Ordres :"]
)
def test_blank_and_comment_lines_are_not_orders(chicago: GameMap, line: str) -> None:
    assert parse_line(line, chicago) is None


# (text, error class, what the message must say)
ERRORS = [
    ("H LOO - HYDE", UnknownDistrictError, "no district 'HYDE'; did you mean HYD (Hyde Park)?"),
    ("H LOO - Hyde Prk", UnknownDistrictError, "no district 'Hyde Prk'; did you mean HYD (Hyde Park)?"),
    ("H LOO - Lincoln", UnknownDistrictError, "did you mean LIP (Lincoln Park) or LIN (Lincoln Square)?"),
    ("H XYZ - NSS", UnknownDistrictError, "no district 'XYZ'"),
    ("store GOL, Hydee", UnknownDistrictError, "no district 'Hydee'"),
    ("LOO - NSS", OrderSyntaxError, "missing the unit type before LOO; write H LOO (henchman) or L LOO (delivery man)"),
    ("H GRA / LOO - NSS", OrderSyntaxError, "missing the unit type before LOO"),
    ("recruit LOO", OrderSyntaxError, "missing the unit type before LOO"),
    ("rcrt H LOO", OrderSyntaxError, "no order starts with 'rcrt'"),
    ("HLOO - NSS", OrderSyntaxError, "did you mean 'H LOO'?"),
    ("Dear referee, here are my orders", OrderSyntaxError, "no order starts with 'Dear'"),
    ("H LOO -", OrderSyntaxError, "expected a district after 'H LOO -'"),
    ("H LOO x", OrderSyntaxError, "expected a police station's district after 'H LOO x'"),
    ("H LOO - NSS via", OrderSyntaxError, "expected a district after 'H LOO - NSS via'"),
    ("H LOO ? NSS", OrderSyntaxError, "expected '-' (move), '/' (support), 'x' (assault), '->' (transport)"),
    ("H LOO @ NSS", OrderSyntaxError, "found '@'"),
    ("L NSS -> H LOO", OrderSyntaxError, "expected '-' and the destination after 'L NSS -> H LOO'"),
    (
        "H LOO - NSS, H NSS - BRO",
        OrderSyntaxError,
        "unexpected ', H NSS - BRO' after 'H LOO - NSS' (one order per line)",
    ),
    ("H LOO - NSS maybe", OrderSyntaxError, "unexpected 'maybe'"),
    ("H LOO attaque le poste de NSS", OrderSyntaxError, "'attaque' means a move (R12)"),
    ("H LOO attacks the station in NSS", OrderSyntaxError, "an assault on a police station is written 'x' (R11)"),
    ("sell", OrderSyntaxError, "expected a number of crates after 'sell'"),
    ("sell 2.5", AmountError, "'2.5' is not a whole number of crates"),
    ("bribe LOO 12.3333", AmountError, "'12.3333' is not an amount of money"),
    ("bribe LOO 1,000", AmountError, "'1,000' reads two ways"),
    ("sell 1.000", AmountError, "'1.000' reads two ways"),
    ("bribe LOO -3", AmountError, "a bribe cannot be negative"),
    ("bribe LOO", OrderSyntaxError, "expected an amount of dollars after 'bribe LOO'"),
    ("gang: Valle Gang", UnknownGangError, "no gang 'Valle Gang'; did you mean Valley Gang (valley)?"),
    ("gang:", UnknownGangError, "the gang line names no gang"),
    ("password:", OrderSyntaxError, "the password line is empty"),
    ("turn: summer-1924", OrderSyntaxError, "not a turn: 'summer-1924'"),
    ("H LOO - " + "x" * 600, OrderSyntaxError, "line too long (608 characters)"),
]


@pytest.mark.parametrize(("text", "error", "says"), ERRORS)
def test_errors(chicago: GameMap, text: str, error: type[ParseError], says: str) -> None:
    with pytest.raises(error) as caught:
        parse_line(text, chicago)
    assert says in caught.value.describe("en")
    assert isinstance(caught.value, ValueError)


def test_error_quotes_the_text(chicago: GameMap) -> None:
    with pytest.raises(UnknownDistrictError) as caught:
        parse_line("H LOO - HYDE", chicago)
    assert str(caught.value) == "'H LOO - HYDE': no district 'HYDE'; did you mean HYD (Hyde Park)?"
    assert caught.value.text == "H LOO - HYDE"
    assert caught.value.suggestion is not None


def test_errors_in_french(chicago: GameMap) -> None:
    with pytest.raises(UnknownDistrictError) as caught:
        parse_line("H LOO - HYDE", chicago)
    assert caught.value.describe("fr") == "aucun quartier 'HYDE'\u202f; vouliez-vous dire HYD (Hyde Park)\u202f?"
    with pytest.raises(OrderSyntaxError) as syntax:
        parse_line("LOO - NSS", chicago)
    assert "il manque le type d'unité avant LOO" in syntax.value.describe("fr")


def test_shared_names_are_ambiguous(chicago: GameMap) -> None:
    """A name two districts share is refused, not guessed."""
    raw_map = load_map("chicago-1920s")
    districts = dict(raw_map.districts)
    from msgspec.structs import replace

    districts["NSS"] = replace(districts["NSS"], aliases=("The Levee", "Loop"))
    other = replace(raw_map, districts=districts)
    with pytest.raises(UnknownDistrictError) as caught:
        parse_line("H NSS - Loop", other)
    assert "'Loop' could be LOO (Loop) or NSS (Near South Side)" in str(caught.value)
    assert parse_order("H NSS - LOO", other).text() == "H NSS - LOO"  # the code still works


def test_control_characters_are_escaped_in_messages(chicago: GameMap) -> None:
    with pytest.raises(ParseError) as caught:
        parse_line("\x1b[31mH LOO", chicago)
    assert "\x1b" not in str(caught.value)
    assert "\\x1b" in str(caught.value)


# -- properties --------------------------------------------------------------------------

_MAP = load_map("chicago-1920s")
CODES = list(_MAP.districts)
code = hs.sampled_from(CODES)
kind = hs.sampled_from([H, L])
unit = hs.builds(UnitRef, kind, code)
codes = hs.lists(code, min_size=1, max_size=3).map(tuple)


@hs.composite
def moves(draw: hs.DrawFn) -> Move:
    u = draw(unit)
    if u.kind is L:
        return Move(u, draw(code), draw(hs.lists(code, max_size=1).map(tuple)))
    return Move(u, draw(code), (), draw(hs.lists(code, max_size=3).map(tuple)))


orders: hs.SearchStrategy[Order] = hs.one_of(
    hs.builds(Hold, unit),
    moves(),
    hs.builds(SupportHold, unit, unit),
    hs.builds(SupportMove, unit, unit, code),
    hs.builds(SupportAssault, unit, unit, code),
    hs.builds(Assault, unit, code),
    hs.builds(Transport, unit, unit, code),
    hs.builds(Retreat, unit, codes),
    hs.builds(Recruit, kind, code),
    hs.builds(Disband, unit),
    hs.builds(Sell, hs.integers(0, 10_000)),
    hs.builds(Store, codes),
    hs.builds(Bribe, code, hs.integers(1, 400).map(lambda n: n * 50)),
)


@settings(max_examples=400, deadline=None)
@given(orders)
def test_canonical_text_round_trips(order: Order) -> None:
    text = order.text()
    assert parse_canonical(text) == order
    assert parse_line(text, _MAP) == order


@settings(max_examples=200, deadline=None)
@given(orders, hs.randoms(use_true_random=False))
def test_case_and_spacing_do_not_matter(order: Order, rnd: object) -> None:
    import random

    assert isinstance(rnd, random.Random)
    text = order.text()
    mangled = "".join(ch.lower() if rnd.random() < 0.5 else ch for ch in text)
    mangled = mangled.replace(" - ", rnd.choice([" - ", "-", " – ", "  -  "]))
    assert parse_line("  " + mangled + "\t", _MAP) == order


WORDS = [
    "H", "L", "-", "->", "/", "x", "via", ",", "hold", "retreat", "recruit", "sell", "store", "bribe", "disband",
    "gang:", "password:", "$", "12.50", "3", "#", ">", "Hyde", "Park", "Gold Coast", "LOO", "NSS", "KEN", "–", "→",
    "soutient", "livreur", "homme de main", "par", "et", "ou", "tenir", "×", "(", ")", "'", "é",
]  # fmt: skip


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hs.one_of(hs.text(max_size=200), hs.lists(hs.sampled_from(WORDS), max_size=12).map(" ".join)))
def test_any_line_parses_or_raises_a_parse_error(text: str) -> None:
    try:
        result = parse_line(text, _MAP)
    except ParseError as exc:
        assert exc.describe("en") and exc.describe("fr")
        str(exc).encode("utf-8")  # printable: no lone surrogates
    else:
        assert result is None or hasattr(result, "text")
