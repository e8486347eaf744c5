"""The order notation in the player's language, for Moonshine and the classic family:
each order written by ``notation(order, language)`` (English: the canonical text;
French: ``H LOO tient``, ``recruter H LOO``, ``A MUN soutient A PAR - BUR``...) is
read back by the order reader to the same order, and a file the checker accepts
is accepted the same way when written in either notation."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from moonshine.render.classic.ack import check_orders
from moonshine.variants.classic import orders as classic
from moonshine.variants.classic.board import Kind, standard_map
from moonshine.variants.classic.state import initial_state as classic_start
from moonshine.variants.moonshine import bots
from moonshine.variants.moonshine.checker import ACCEPTED, read_orders
from moonshine.variants.moonshine.map import UnitKind, load_map
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
    notation,
    parse_canonical,
)
from moonshine.variants.moonshine.parser.reader import parse_line
from moonshine.variants.moonshine.state import initial_state

H, L = UnitKind.H, UnitKind.L
LOO, KEN = UnitRef(H, "LOO"), UnitRef(L, "KEN")

# (order, its French notation): the words French players use, the rules' symbols
FRENCH: list[tuple[Order, str]] = [
    (Hold(LOO), "H LOO tient"),
    (Move(LOO, "NSS"), "H LOO - NSS"),
    (Move(KEN, "NSS", ("BRO",)), "L KEN - BRO - NSS"),
    (Move(LOO, "BRO", (), ("NSS",)), "H LOO - BRO par NSS"),
    (Move(LOO, "BRO", (), ("NSS", "GRA")), "H LOO - BRO par NSS, GRA"),
    (SupportHold(KEN, UnitRef(H, "HYD")), "L KEN soutient H HYD"),
    (SupportMove(UnitRef(H, "GRA"), LOO, "NSS"), "H GRA soutient H LOO - NSS"),
    (SupportAssault(UnitRef(H, "BRO"), LOO, "NSS"), "H BRO soutient H LOO x NSS"),
    (Assault(LOO, "NSS"), "H LOO x NSS"),
    (Transport(UnitRef(L, "NSS"), LOO, "BRO"), "L NSS transporte H LOO - BRO"),
    (Retreat(LOO, ("NSS", "GRA")), "retraite H LOO - NSS, GRA"),
    (Recruit(H, "LOO"), "recruter H LOO"),
    (Disband(KEN), "licencier L KEN"),
    (Sell(8), "vendre 8"),
    (Sell(None), "vendre tout"),
    (Store(("NSS", "GRA")), "stocker NSS, GRA"),
    (Bribe("NSS", 1250), "corrompre NSS 12,50"),
    (Bribe("NSS", 1200), "corrompre NSS 12"),
]


@pytest.mark.parametrize(("order", "french"), FRENCH)
def test_french_notation(order: Order, french: str) -> None:
    gmap = load_map("chicago-1920s")
    assert notation(order, "fr") == french
    assert parse_line(french, gmap) == order
    assert notation(order, "en") == order.text()


def test_a_language_without_grammar_gets_the_canonical_text() -> None:
    assert notation(Hold(LOO), "de") == "H LOO hold"


A, F = Kind.ARMY, Kind.FLEET
CLASSIC_FRENCH: list[tuple[classic.Order, str]] = [
    (classic.Hold(classic.UnitRef(A, "PAR")), "A PAR tient"),
    (classic.Move(classic.UnitRef(A, "PAR"), "BUR"), "A PAR - BUR"),
    (classic.Move(classic.UnitRef(A, "LON"), "NWY", True), "A LON - NWY par convoi"),
    (classic.Move(classic.UnitRef(F, "STP/SC"), "BOT"), "F STP/SC - BOT"),
    (
        classic.SupportHold(classic.UnitRef(A, "MUN"), classic.Target(A, "PAR")),
        "A MUN soutient A PAR",
    ),
    (
        classic.SupportMove(classic.UnitRef(A, "MUN"), classic.Target(A, "PAR"), "BUR"),
        "A MUN soutient A PAR - BUR",
    ),
    (
        classic.Convoy(classic.UnitRef(F, "NTH"), classic.Target(None, "LON"), "NWY"),
        "F NTH convoie LON - NWY",
    ),
    (classic.Retreat(classic.UnitRef(A, "PAR"), "BUR"), "A PAR retraite BUR"),
    (classic.Disband(classic.UnitRef(A, "PAR")), "dissoudre A PAR"),
    (classic.Build(classic.UnitRef(F, "BRE")), "construire F BRE"),
    (classic.Waive(), "renoncer"),
]


@pytest.mark.parametrize(("order", "french"), CLASSIC_FRENCH)
def test_classic_french_notation(order: classic.Order, french: str) -> None:
    assert classic.notation(order, "fr") == french
    assert classic.parse_order(french) == order
    assert classic.notation(order, "en") == order.text()


@pytest.mark.parametrize(
    ("typed", "canonical"),
    [
        ("armée PAR - BUR", "A PAR - BUR"),
        ("flotte BRE tient", "F BRE H"),
        ("A MUN soutien A PAR - BUR", "A MUN S A PAR - BUR"),
        ("F NTH convoi A LON - NWY", "F NTH C A LON - NWY"),
        ("A PAR retraite - BUR", "A PAR R BUR"),
        ("A PAR dissoute", "A PAR D"),
        ("A MAR - PAR", "A MAR - PAR"),  # Paris is not the French "par"
        ("A PAR - MAR par convoi", "A PAR - MAR via convoy"),
    ],
)
def test_classic_reader_takes_french_words(typed: str, canonical: str) -> None:
    assert classic.parse_order(typed).text() == canonical


# -- properties: every order, in every notation, reads back --------------------------

_MAP = load_map("chicago-1920s")
code = hs.sampled_from(sorted(_MAP.districts))
kind = hs.sampled_from([H, L])
unit = hs.builds(UnitRef, kind, code)
codes = hs.lists(code, min_size=1, max_size=3).map(tuple)


@hs.composite
def moves(draw: hs.DrawFn) -> Move:
    u = draw(unit)
    via = draw(hs.lists(code, max_size=3).map(tuple))  # an L's is kept as written, and rejected
    if u.kind is L:
        return Move(u, draw(code), draw(hs.lists(code, max_size=1).map(tuple)), via)
    return Move(u, draw(code), (), via)


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
    hs.builds(Sell, hs.one_of(hs.none(), hs.integers(0, 10_000))),
    hs.builds(Store, codes),
    hs.builds(Bribe, code, hs.integers(0, 400).map(lambda n: n * 50)),
)
languages = hs.sampled_from(["en", "fr"])


@settings(max_examples=400, deadline=None)
@given(orders, languages)
def test_every_order_reads_back_from_its_notation(order: Order, language: str) -> None:
    text = notation(order, language)
    assert parse_line(text, _MAP) == order
    assert parse_line(text.lower(), _MAP) == order
    if language == "en":
        assert text == order.text()
        assert parse_canonical(text) == order


_START = initial_state(_MAP)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hs.sampled_from(sorted(_MAP.gangs)), hs.integers(0, 2**32), hs.lists(orders, max_size=4), languages)
def test_what_the_checker_accepts_it_accepts_in_either_notation(
    gang: str, seed: int, extra: list[Order], language: str
) -> None:
    plan = bots.random_plan(_MAP, _START, gang, random.Random(seed))
    written: list[Order] = [
        *plan.unit_orders.values(),
        *plan.recruits,
        *plan.bribes,
        *extra,
        Sell(seed % 7),
        Store(tuple(sorted(_MAP.districts)[seed % 5 : seed % 5 + 2])),
    ]
    first = read_orders("\n".join(o.text() for o in written), _MAP, _START, gang)
    accepted = [(ln.number, ln.order) for ln in first.lines if ln.status == ACCEPTED]
    assert accepted  # the bot's orders are legal
    again = read_orders("\n".join(notation(o, language) for o in written), _MAP, _START, gang)
    assert [(ln.number, ln.order) for ln in again.lines if ln.status == ACCEPTED] == accepted
    assert [(ln.status, ln.order) for ln in again.lines] == [(ln.status, ln.order) for ln in first.lines]


_CLASSIC = standard_map()
_region = hs.sampled_from(sorted(_CLASSIC.regions))
_unit = hs.builds(classic.UnitRef, hs.sampled_from(list(Kind)), _region)
_target = hs.builds(classic.Target, hs.one_of(hs.none(), hs.sampled_from(list(Kind))), _region)
classic_orders: hs.SearchStrategy[classic.Order] = hs.one_of(
    hs.builds(classic.Hold, _unit),
    hs.builds(classic.Move, _unit, _region, hs.booleans()),
    hs.builds(classic.SupportHold, _unit, _target),
    hs.builds(classic.SupportMove, _unit, _target, _region),
    hs.builds(classic.Convoy, _unit, _target, _region),
    hs.builds(classic.Retreat, _unit, _region),
    hs.builds(classic.Disband, _unit),
    hs.builds(classic.Build, _unit),
    hs.just(classic.Waive()),
)


@settings(max_examples=300, deadline=None)
@given(classic_orders, languages)
def test_every_classic_order_reads_back_from_its_notation(order: classic.Order, language: str) -> None:
    text = classic.notation(order, language)
    assert classic.parse_order(text) == order
    assert classic.parse_order(text.lower()) == order


_CLASSIC_START = classic_start(_CLASSIC)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hs.sampled_from(sorted(_CLASSIC.powers)), hs.lists(classic_orders, max_size=6), languages, hs.randoms())
def test_what_the_classic_checker_accepts_it_accepts_in_either_notation(
    power: str, extra: list[classic.Order], language: str, rnd: random.Random
) -> None:
    own = [u for u in _CLASSIC_START.units if u.power == power]
    written: list[classic.Order] = list(extra)
    for u in own:  # a legal order for each unit: an army moves to a neighbour, a fleet holds
        ref = classic.UnitRef(u.kind, u.region)
        dests = [p for p in sorted(_CLASSIC.provinces) if u.kind is A and _CLASSIC.army_adjacent(u.region, p)]
        written.append(classic.Move(ref, rnd.choice(dests)) if dests else classic.Hold(ref))
    first = check_orders(_CLASSIC, _CLASSIC_START, power, "\n".join(o.text() for o in written))
    again = check_orders(_CLASSIC, _CLASSIC_START, power, "\n".join(classic.notation(o, language) for o in written))
    assert any(line.ok for line in first.lines)
    assert [(line.order, line.ok) for line in again.lines] == [(line.order, line.ok) for line in first.lines]


def test_a_classic_reason_names_the_order_in_the_readers_notation() -> None:
    from moonshine.render.classic.ack import render

    ack = check_orders(_CLASSIC, _CLASSIC_START, "FRA", "A PAR R BUR\n")
    french = render(ack, _CLASSIC, language="fr").splitlines()
    assert "           A PAR retraite BUR n'est pas un ordre de la phase de mouvement" in french
    english = render(ack, _CLASSIC, language="en").splitlines()
    assert "           A PAR R BUR is not an order of the movement phase" in english
    problem = ack.lines[0].problem
    assert problem is not None  # and as a message of the catalogue (a results file stores it)
    assert problem.message().text("fr") == "A PAR retraite BUR n'est pas un ordre de la phase de mouvement"


def test_a_stored_order_is_restated_in_the_readers_notation() -> None:
    from moonshine.variants.moonshine.orders import restate

    assert restate("L KEN / H HYD", "fr") == "L KEN soutient H HYD"
    assert restate("L KEN / H HYD", "en") == "L KEN / H HYD"
    assert restate("not an order", "fr") == "not an order"  # a file of an earlier version: as it is
    assert classic.restate("F NTH C A LON - NWY", "fr") == "F NTH convoie A LON - NWY"
    assert classic.restate("?", "fr") == "?"
