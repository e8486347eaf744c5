"""The acknowledgement a player reads: every line as understood, accepted, rejected
with its reason or replaced; units that hold; the money; in English and French."""

from __future__ import annotations

import frtypo
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from moonshine.render.ack import acknowledgement
from moonshine.variants.moonshine.checker import read_orders
from moonshine.variants.moonshine.map import GameMap, load_map
from moonshine.variants.moonshine.state import GameState, initial_state

SAMPLE = """gang: valley
password: hunter2
H LOO - Near South Side
H NSS - KEN
H NSS - LIT
L KEN - NSS
recruit H KEN
bribe LOO 12
"""

EXPECTED_EN = """Moonshine: orders for Spring 1924
Gang: Valley Gang (valley)
File: orders/spring-1924/valley.txt
Password: given

ORDERS AS UNDERSTOOD
  line   1  gang: Valley Gang (valley)         noted
  line   2  password: ****                     noted
  line   3  H LOO - NSS                        accepted
           you wrote: H LOO - Near South Side
  line   4  H NSS - KEN                        replaced
           replaced by line 5
  line   5  H NSS - LIT                        accepted
           note: replaces line 4
  line   6  L KEN - NSS                        REJECTED
           NSS is more than two districts from KEN (R8); within reach of
             L KEN: BRO, FIV, FUL, GRA, WAS, HYD, WOO
           note: L KEN holds (R12)
  line   7  recruit H KEN                      accepted
  line   8  bribe LOO 12                       accepted

UNITS
  Without a valid order, these units hold: L BRO, L FIV, L GRA, L KEN, H HYD

SALES AND STORAGE
  Sell: no sell order, the most you can is sold (R15)
  Store: your warehouses in map order (R16)

MONEY (R17)
  cash at the start of the turn                               $20
  upkeep: 7 units × $2                                        $14
  recruits: 1 × $2                                             $2
  bribes                                                      $12
  total to pay                                                $28
  left (sales are paid at the end of the turn)                -$8

  WARNING: these orders need $8 more than your cash. R17 will:
    - cancel recruit H KEN (line 7)
    - cut bribe LOO 12 (line 8) to $6

SUMMARY
  6 order lines: 4 accepted, 1 rejected, 1 replaced.
  Rejected orders are not carried out (a unit whose order is rejected holds).
  To change your orders, send a complete new file before the deadline: the
  latest one replaces the earlier ones (R12).
"""


def ack(chicago: GameMap, st: GameState, text: str, language: str = "en", gang: str | None = None) -> str:
    orders = read_orders(text, chicago, st, gang, source="orders/spring-1924/valley.txt")
    return acknowledgement(orders, chicago, st, language=language)


def test_the_whole_acknowledgement(chicago: GameMap, start: GameState) -> None:
    assert ack(chicago, start, SAMPLE) == EXPECTED_EN


def test_in_french(chicago: GameMap, start: GameState) -> None:
    text = frtypo.checked(ack(chicago, start, SAMPLE, "fr"))
    for expected in [
        "Moonshine : ordres pour le printemps 1924",
        "Mot de passe : fourni",
        "ORDRES TELS QUE COMPRIS",
        "  ligne   3  H LOO - NSS                        accepté",
        "           vous avez écrit : H LOO - Near South Side",
        "  ligne   4  H NSS - KEN                        remplacé",
        "           remplacé par la ligne 5",
        "  ligne   6  L KEN - NSS                        REJETÉ",
        "           NSS est à plus de deux quartiers de KEN (R8) ; à portée de L KEN :",
        "           remarque : L KEN tient sa position (R12)",
        "  Sans ordre valable, ces unités tiennent leur position : L BRO, L FIV, L GRA,",
        "  ATTENTION : ces ordres demandent 8 $ de plus que votre argent. R17 va :",
        "  ligne   7  recruter H KEN                     accepté",
        "    - annuler « recruter H KEN » (ligne 7)",
        "  6 lignes d'ordres : 4 acceptées, 1 rejetée, 1 remplacée.",
    ]:
        assert expected in text.splitlines(), expected
    assert "REJECTED" not in text and "accepted" not in text


def test_french_echoes_orders_in_french_notation(chicago: GameMap, start: GameState) -> None:
    orders = "H LOO tient\nH NSS / H LOO\nL KEN soutient H HYD\nH HYD - WAS\nL BRO -> H HYD - WAS\nvendre tout"
    french = frtypo.checked(ack(chicago, start, orders, "fr", gang="valley")).splitlines()
    for expected in [
        "  ligne   1  H LOO tient                        accepté",
        "  ligne   2  H NSS soutient H LOO               accepté",
        "  ligne   3  L KEN soutient H HYD               accepté",
        "           remarque : l'ordre de H HYD (ligne 4) n'est pas « H HYD tient » :",
        "  ligne   5  L BRO transporte H HYD - WAS       accepté",
        "  ligne   6  vendre tout                        accepté",
    ]:
        assert expected in french, expected
    assert not any("vous avez écrit" in line for line in french)  # both notations are read as they are
    english = ack(chicago, start, orders, "en", gang="valley").splitlines()
    for expected in [
        "  line   1  H LOO hold                         accepted",
        "           you wrote: H LOO tient",
        "  line   2  H NSS / H LOO                      accepted",
        "           note: H HYD's own order (line 4) is not 'H HYD hold': this order",
        "  line   6  sell all                           accepted",
    ]:
        assert expected in english, expected


def test_password_is_never_echoed(chicago: GameMap, start: GameState) -> None:
    for language in ("en", "fr"):
        assert "hunter2" not in ack(chicago, start, SAMPLE, language)


def test_rejected_parse_shows_what_was_written_and_the_suggestion(chicago: GameMap, start: GameState) -> None:
    text = ack(chicago, start, "H LOO - HYDE", gang="valley")
    assert "  line   1  'H LOO - HYDE'                     REJECTED" in text.splitlines()
    assert "           no district 'HYDE'; did you mean HYD (Hyde Park)?" in text.splitlines()


def test_all_accepted(chicago: GameMap, start: GameState) -> None:
    text = ack(chicago, start, "H LOO - NSS\nsell 3\nstore HYD", gang="valley")
    assert "  All your orders are accepted." in text
    assert "  Sell: 3 crates (at most what you hold and your territory absorbs, R15)" in text
    assert "  Store: HYD, then your other warehouses in map order (R16)" in text
    assert "  left (sales are paid at the end of the turn)                 $6" in text
    assert "WARNING" not in text


def test_every_unit_ordered(chicago: GameMap, start: GameState) -> None:
    orders = "\n".join(f"{u.label()} hold" for u in start.units_of("valley"))
    assert "  Every unit of yours has an order." in ack(chicago, start, orders, gang="valley")


def test_empty_file(chicago: GameMap, start: GameState) -> None:
    text = ack(chicago, start, "", gang="valley")
    assert "  No orders in this file: your units hold, the most you can is sold, no bribe\n    (R12)." in text
    assert "  0 order lines: 0 accepted, 0 rejected, 0 replaced." in text


def test_no_gang(chicago: GameMap, start: GameState) -> None:
    text = ack(chicago, start, "H LOO - NSS")
    assert "Gang: unknown" in text
    assert "PROBLEMS\n  - no gang: add a line 'gang: NAME'" in text
    assert "MONEY" not in text


def test_arrested_units_are_listed(chicago: GameMap, start: GameState) -> None:
    from moonshine.variants.moonshine.map import UnitKind
    from moonshine.variants.moonshine.state import Arrested, Unit

    start.units.remove(Unit("HYD", UnitKind.H, "valley"))
    start.arrested.append(Arrested("SSH", UnitKind.H, "valley", "HYD"))
    assert "  Arrested this turn (no orders; back next turn, R22): H HYD" in ack(chicago, start, "", gang="valley")


def test_signature_is_reported(chicago: GameMap, start: GameState) -> None:
    text = ack(chicago, start, "H LOO - NSS\n-- \nAl Capone\n555-1234", gang="valley")
    assert "  line 2: signature: the rest is not read" in text
    assert "Capone" not in text


def test_player_text_is_made_safe(chicago: GameMap, start: GameState) -> None:
    text = ack(chicago, start, "\x1b[2J\x07 H LOO\ud800 - NSS", gang="valley")
    assert "\x1b" not in text and "\x07" not in text and "\ud800" not in text
    assert "\\x1b[2J" in text
    text.encode("utf-8")


def test_long_lines_are_cut(chicago: GameMap, start: GameState) -> None:
    text = ack(chicago, start, "H LOO - " + "NSS " * 100, gang="valley")
    assert max(len(line) for line in text.splitlines()) <= 100


def test_pure(chicago: GameMap, start: GameState) -> None:
    orders = read_orders(SAMPLE, chicago, start, source="orders/spring-1924/valley.txt")
    before = start.copy()
    first = acknowledgement(orders, chicago, start)
    assert acknowledgement(orders, chicago, start) == first
    assert start == before


# -- anything a player may send ------------------------------------------------------------

_MAP = load_map("chicago-1920s")
_START = initial_state(_MAP)

ORDERISH = hs.lists(
    hs.sampled_from(
        [
            "H LOO - NSS",
            "L KEN - FIV - BRO",
            "H NSS - FIV via BRO",
            "L BRO -> H NSS - FIV",
            "H LOO x LOO",
            "recruit H KEN",
            "disband L GRA",
            "sell 5",
            "store HYD",
            "bribe LOO 2.50",
            "retreat H LOO - NSS",
            "gang: valley",
            "gang: outfit",
            "password: x",
            "turn: autumn-1924",
            "-- ",
            "> H HYD - KEN",
            "# note",
            "",
            "H LOO - HYDE",
            "garbage",
            "L GRA / H HYD",
        ]
    ),
    max_size=20,
).map("\n".join)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    hs.one_of(
        hs.text(max_size=500),
        hs.binary(max_size=500).map(lambda b: b.decode("utf-8", errors="replace")),
        hs.binary(max_size=500).map(lambda b: b.decode("latin-1")),
        ORDERISH,
    ),
    hs.sampled_from([None, "valley", "Valley Gang", "zorro"]),
    hs.sampled_from(["en", "fr"]),
)
def test_any_text_gives_an_acknowledgement(text: str, gang: str | None, language: str) -> None:
    orders = read_orders(text, _MAP, _START, gang)
    reply = acknowledgement(orders, _MAP, _START, language=language)
    assert reply.endswith("\n")
    reply.encode("utf-8")  # printable, no lone surrogates
    assert orders.ok == (orders.rejected == 0 and not orders.problems)
    shown = sum(1 for line in orders.lines if line.status in ("accepted", "rejected", "replaced", "header"))
    assert reply.count("\n  line ") + reply.count("\n  ligne ") >= shown


def test_a_one_megabyte_line(chicago: GameMap, start: GameState) -> None:
    text = ack(chicago, start, "H LOO - " + "x" * 1_000_000 + "\nH NSS - LIT", gang="valley")
    assert "line too long (1000008 characters)" in text
    assert "  line   2  H NSS - LIT" in text
    assert len(text) < 5000
