"""The order reader reads what a lenient referee would and never misreads: a
misspelt district where one reading is an order the gang can give, a unit without
its type where the gang has one unit there, plain words around an order, keyword
typos, any arrow, amounts with a leading dot; and says in the acknowledgement how
each such line was read. The same for the classic reader."""

from __future__ import annotations

from pathlib import Path

import frtypo
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as hs

from moonshine.cli import main
from moonshine.render.ack import acknowledgement
from moonshine.render.classic.ack import check_orders, render
from moonshine.text.folding import fold
from moonshine.variants.classic.board import standard_map
from moonshine.variants.classic.state import initial_state as classic_start
from moonshine.variants.moonshine import rules
from moonshine.variants.moonshine import state as state_mod
from moonshine.variants.moonshine.checker import ACCEPTED, REJECTED, OrderLine, check_order, read_orders
from moonshine.variants.moonshine.map import UnitKind, load_map
from moonshine.variants.moonshine.orders import Bribe, Hold, Move, Order, SupportHold, SupportMove, UnitRef
from moonshine.variants.moonshine.parser.names import names_of
from moonshine.variants.moonshine.state import GameState, initial_state

GMAP = load_map()
START = initial_state(GMAP)
NAMES = names_of(GMAP)
BOARD = standard_map()


def read(line: str, gang: str = "valley", st: GameState = START) -> OrderLine:
    return read_orders(line + "\n", GMAP, st, gang).lines[0]


def said(line: OrderLine, language: str = "en") -> str:
    parts = [line.reason] if line.reason is not None else []
    parts += [line.hint] if line.hint is not None else []
    return " | ".join(m.text(language) for m in parts + line.notes)


# -- 1. amounts -----------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["bribe LOO .50", "bribe LOO .5", "bribe LOO $.50", "bribe .50 to LOO"])
def test_a_leading_dot_is_kept(text: str) -> None:
    line = read(text)
    assert line.order == Bribe("LOO", 50)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("sell .5", "'.5' is not a whole number of crates"),
        ("bribe LOO 1,000", "'1,000' reads two ways"),
        ("bribe LOO 1.000", "'1.000' reads two ways"),
        ("sell 1,000", "'1,000' reads two ways"),
    ],
)
def test_a_number_that_reads_two_ways_is_refused(text: str, says: str) -> None:
    line = read(text)
    assert line.status == REJECTED and line.order is None
    assert says in said(line)


def test_cents_are_cents() -> None:
    assert read("bribe LOO 50 cents").order == Bribe("LOO", 50)


# -- 2. attack is a move (R12) ------------------------------------------------------------------


def test_attack_is_a_move() -> None:
    assert read("H NSS attacks LOO").order == Move(UnitRef(UnitKind.H, "NSS"), "LOO")
    assert read("H LIT attaque LOO", "unione").order == Move(UnitRef(UnitKind.H, "LIT"), "LOO")
    assert read("L BRO supports H NSS attacks CHI").order == SupportMove(
        UnitRef(UnitKind.L, "BRO"), UnitRef(UnitKind.H, "NSS"), "CHI"
    )
    assert read("H NSS assaults LOO").order is not None and read("H NSS assaults LOO").order.text() == "H NSS x LOO"
    assert "'attacks' is a move (R12): an assault is written 'x'" in said(read("H NSS attacks LOO"))
    assert frtypo.fr("'attaque' désigne une avance (R12) : un assaut s'écrit 'x'") in said(
        read("H LIT attaque LOO", "unione"), "fr"
    )


@pytest.mark.parametrize("text", ["H NSS attacks the station in LOO", "H NSS attaque le poste de LOO"])
def test_an_attack_on_a_station_is_refused(text: str) -> None:
    line = read(text)
    assert line.order is None
    assert "means a move (R12): an assault on a police station is written 'x'" in said(line)


# -- 3. misspelt districts ----------------------------------------------------------------------


def test_a_misspelt_district_with_one_reading_within_reach_is_read_and_explained() -> None:
    line = read("H NSS - Chinatwn")
    assert line.status == ACCEPTED
    assert line.order == Move(UnitRef(UnitKind.H, "NSS"), "CHI")
    assert "read 'Chinatwn' as CHI (Armour Square): the only district of that spelling H NSS can reach" in said(line)
    assert frtypo.fr(
        "'Chinatwn' compris comme CHI (Armour Square) : le seul quartier d'orthographe proche que H NSS"
    ) in said(line, "fr")


def test_two_readings_within_reach_are_refused_and_named_by_reach() -> None:
    line = read("H CHI - BRU", "unione")
    assert line.status == REJECTED and line.order is None
    assert said(line) == "'BRU' could be BRI (Bridgeport) or BRO (Douglas) | write the district's code"


def test_no_reading_within_reach_is_refused_with_the_nearest_first() -> None:
    line = read("H LOO - Englewod")
    assert line.order is None
    assert "no district 'Englewod'" in said(line)
    assert "ENG (Englewood)" in said(line)


def test_a_name_shared_by_two_districts_is_still_refused() -> None:
    for text in ("H LOO - Lincoln", "H HYD - Garfield Park"):
        assert read(text).order is None


def test_misspellings_in_the_acknowledgement() -> None:
    orders = read_orders("gang: valley\nH NSS - Chinatwn\nL FIV - Bronzevile\n", GMAP, START)
    text = acknowledgement(orders, GMAP, START, language="en")
    assert "you wrote: H NSS - Chinatwn" in text
    assert "note: read 'Bronzevile' as BRO (Douglas): the only district of that" in text


def _typos(word: str) -> list[str]:
    """Every single-letter typo of ``word`` that keeps its first letter: a letter
    changed, left out, doubled or swapped with the next."""
    letters = "abcdefghijklmnopqrstuvwxyz"
    out = set()
    for i in range(1, len(word)):
        out.add(word[:i] + word[i + 1 :])
        out.add(word[:i] + word[i] + word[i:])
        for c in letters:
            out.add(word[:i] + c + word[i + 1 :])
        if i + 1 < len(word):
            out.add(word[:i] + word[i + 1] + word[i] + word[i + 2 :])
    out.discard(word)
    return sorted(out)


@hs.composite
def orders_and_slots(draw: hs.DrawFn) -> tuple[str, Order, str, str]:
    """A valid order of a gang at the start, and which of its districts is misspelt."""
    gang = draw(hs.sampled_from(sorted(GMAP.gangs)))
    mine = [UnitRef(u.kind, u.district) for u in START.units_of(gang)]
    unit = draw(hs.sampled_from(mine))
    neighbours = GMAP.neighbours(unit.district)
    kind = draw(hs.sampled_from(["move", "support hold", "support move"]))
    order: Order
    if kind == "move":
        order = Move(unit, draw(hs.sampled_from(neighbours)))
        slot = draw(hs.sampled_from(["unit", "dest"]))
    else:
        near = [UnitRef(u.kind, u.district) for n in neighbours for u in START.units_in(n)]
        assume(near)
        target = draw(hs.sampled_from(near))
        if kind == "support hold":
            order = SupportHold(unit, target)
            slot = draw(hs.sampled_from(["unit", "target"]))
        else:
            dests = [d for d in GMAP.neighbours(target.district) if d in neighbours]
            assume(dests)
            order = SupportMove(unit, target, draw(hs.sampled_from(dests)))
            slot = draw(hs.sampled_from(["unit", "target", "dest"]))
    assume(check_order(order, GMAP, START, gang).ok)
    return gang, order, slot, draw(hs.sampled_from(["code", "code", "name"]))


def _with(order: Order, slot: str, code: str) -> Order:
    unit = order.unit
    if slot == "unit":
        unit = UnitRef(unit.kind, code)
    if isinstance(order, Move):
        return Move(unit, code if slot == "dest" else order.dest)
    assert isinstance(order, SupportHold | SupportMove)
    target = UnitRef(order.target.kind, code) if slot == "target" else order.target
    if isinstance(order, SupportHold):
        return SupportHold(unit, target)
    return SupportMove(unit, target, code if slot == "dest" else order.dest)


def _written(order: Order, slot: str, typed: str) -> str:
    text = order.text().split(" ")
    # H NSS - CHI / L BRO / H NSS - CHI / L KEN / H HYD: the district's place in the text
    place = {"unit": 1, "target": 4, "dest": len(text) - 1}[slot]
    text[place] = typed
    return " ".join(text)


@pytest.mark.parametrize(
    ("text", "gang", "order"),
    [
        ("H Morgan Par hold", "ragen", Hold(UnitRef(UnitKind.H, "MOR"))),
        ("L BEV / H Morgan Par", "ragen", SupportHold(UnitRef(UnitKind.L, "BEV"), UnitRef(UnitKind.H, "MOR"))),
        ("L Lincoln Par - GOL", "unione", Move(UnitRef(UnitKind.L, "LIP"), "GOL")),
    ],
)
def test_a_name_whose_misspelt_last_word_is_a_keyword_is_read(text: str, gang: str, order: Order) -> None:
    """'Par' is French for 'via'; 'Morgan Par' is still Morgan Park misspelt, since
    'Morgan' alone names no district."""
    line = read(text, gang)
    assert line.order == order, said(line)
    assert "read 'Morgan Par' as MOR (" in said(line) or "read 'Lincoln Par' as LIP (" in said(line), said(line)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(case=orders_and_slots(), data=hs.data())
def test_a_typo_is_read_when_one_reading_is_within_reach(
    case: tuple[str, Order, str, str], data: hs.DataObject
) -> None:
    """For any valid order and any single-character typo of one of its districts: with
    exactly one candidate the order can use, the reading is the original order; with
    two or more, a refusal naming them."""
    gang, order, slot, how = case
    code = order.unit.district if slot == "unit" else order.target.district if slot == "target" else order.dest  # type: ignore[union-attr]
    word = code if how == "code" else GMAP.districts[code].name.split("(")[0].strip()
    typed = data.draw(hs.sampled_from(_typos(word)))
    assume(NAMES.at([fold(w) for w in typed.split()], 0)[1] == 0)  # a typo, not another name
    assume(fold(typed) not in ("h", "l") and all(c.isalpha() or c == " " for c in typed))
    candidates = NAMES.close(typed)
    position = rules.Position.of(GMAP, START)
    usable = [c for c in candidates if check_order(_with(order, slot, c), GMAP, START, gang, position=position).ok]
    line = read(_written(order, slot, typed), gang)
    among = "the original among them" if code in usable else "not the original"
    event(f"{min(len(usable), 2)} usable reading(s), {among}")
    if code in usable and len(usable) == 1:
        assert line.order == order, said(line)
        assert f"read '{typed}' as {code} (" in said(line)
    elif len(usable) >= 2:
        assert line.order is None
        named = [c for c in usable if f"{c} (" in said(line)]
        assert len(named) >= 2, said(line)
    else:
        assert line.order is None or line.order == _with(order, slot, usable[0])


# -- 4. a unit without its type ------------------------------------------------------------------


def test_a_unit_without_its_type_is_the_gangs_only_unit_there() -> None:
    line = read("BRO - CHI")
    assert line.order == Move(UnitRef(UnitKind.L, "BRO"), "CHI")
    assert "read 'BRO' as L BRO: your only unit in BRO" in said(line)
    assert read("Irving Park - Albany Park", "northside").order == Move(UnitRef(UnitKind.H, "IRV"), "ALB")
    assert read("KEN / HYD").order == SupportHold(UnitRef(UnitKind.L, "KEN"), UnitRef(UnitKind.H, "HYD"))
    assert "read 'HYD' as H HYD: the only unit in HYD" in said(read("KEN / HYD"))


def test_two_units_in_the_district_are_named_and_refused() -> None:
    data = state_mod.to_data(START)
    data["units"]["valley"].append("L LOO")
    line = read("LOO - NSS", st=state_mod.from_data(data, GMAP))
    assert line.order is None
    assert said(line) == "'LOO' names a district with two units: H LOO and L LOO | write which: H LOO or L LOO"


def test_a_district_with_no_unit_of_the_gang_is_refused() -> None:
    line = read("LIT - LOO")
    assert line.order is None
    assert "missing the unit type before LIT" in said(line)


# -- 5. plain words -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "ignored"),
    [
        ("Please move H LOO to NSS", "'Please'"),
        ("I want H LOO to move to NSS", "'I', 'want'"),
        ("Move H LOO to NSS", None),
        ("H LOO - NSS please", "'please'"),
        ("my henchman in Loop moves to Near South Side", "'my'"),
        ("Je veux que H LOO aille à NSS", "'Je', 'veux', 'que'"),
    ],
)
def test_plain_words_around_an_order_are_left_out_and_named(text: str, ignored: str | None) -> None:
    line = read(text)
    assert line.order == Move(UnitRef(UnitKind.H, "LOO"), "NSS")
    if ignored is None:
        assert not line.notes
    else:
        assert f"left out, as no part of an order: {ignored}" in said(line)


@pytest.mark.parametrize(
    "text",
    ["Move H LOO", "Don't move H LOO", "H LOO - NSS if L BRO holds", "H LOO - NSS or GOL", "H LOO ne bouge pas"],
)
def test_words_that_change_an_order_are_refused(text: str) -> None:
    assert read(text).order is None


# -- 6. arrows and keywords -----------------------------------------------------------------------


def test_an_arrow_inside_a_support() -> None:
    line = read("L BRO supports H NSS → CHI")
    assert line.order == SupportMove(UnitRef(UnitKind.L, "BRO"), UnitRef(UnitKind.H, "NSS"), "CHI")


@pytest.mark.parametrize(("typed", "word"), [("suports", "supports"), ("supprots", "supports"), ("soutein", "soutien")])
def test_a_misspelt_keyword_is_read_and_said(typed: str, word: str) -> None:
    line = read(f"L KEN {typed} H HYD")
    assert line.order == SupportHold(UnitRef(UnitKind.L, "KEN"), UnitRef(UnitKind.H, "HYD"))
    assert f"read '{typed}' as '{word}'" in said(line)


# -- 7. the classic reader ---------------------------------------------------------------------------


def classic(line: str, power: str = "FRA") -> tuple[str | None, str]:
    st = classic_start(BOARD)
    ack = check_orders(BOARD, st, power, line)
    [x] = [x for x in ack.lines if not x.noted]
    return (x.order.text() if x.order is not None and x.ok else None), render(ack, BOARD)


@pytest.mark.parametrize(
    ("text", "reading", "says"),
    [
        ("Pari - Bur", "A PAR - BUR", "read 'Pari' as PAR (Paris): the only province of that spelling A PAR can use"),
        ("A Paris - Burgundy", "A PAR - BUR", None),
        ("Paris - Bourgogne", "A PAR - BUR", "read 'Paris' as A PAR: your unit there"),
        ("F Brest - Manche", "F BRE - ENG", None),
        ("Please move A PAR to BUR", "A PAR - BUR", "left out, as no part of an order: 'Please'"),
        ("A MAR suports A PAR - BUR", "A MAR S A PAR - BUR", "read 'suports' as 'supports'"),
        ("Je veux que A PAR aille en BUR", "A PAR - BUR", "left out, as no part of an order: 'Je', 'veux', 'que'"),
    ],
)
def test_the_classic_reader_is_as_lenient(text: str, reading: str, says: str | None) -> None:
    got, shown = classic(text)
    assert got == reading
    if says is not None:
        assert says in shown


@pytest.mark.parametrize("text", ["A MUN - Bor", "A PAR - BUR or PIC", "Move A PAR", "A PAR ne bouge pas"])
def test_the_classic_reader_never_guesses(text: str) -> None:
    power = "GER" if "MUN" in text else "FRA"
    assert classic(text, power)[0] is None


def test_two_classic_readings_are_named() -> None:
    _, shown = classic("A MUN - Bor", "GER")
    assert "'Bor' could be BER, BOH, BUR: write the province's code" in shown


def test_the_classic_adjudication_reads_as_the_acknowledgement(tmp_path: Path) -> None:
    game = tmp_path / "g"
    made = CliRunner().invoke(main, ["new", str(game), "--variant", "classic", "--no-git"])
    assert made.exit_code == 0, made.output
    (game / "orders" / "spring-1901" / "FRA.txt").write_text("Pari - Bourgone\nMarseilles - Spian\n", encoding="utf-8")
    done = CliRunner().invoke(main, ["adjudicate", "spring-1901", "--game", str(game), "--no-commit"])
    assert done.exit_code == 0, done.output
    state = (game / "turns" / "fall-1901" / "state.yaml").read_text(encoding="utf-8")
    assert "FRA: [F BRE, A BUR, A SPA]" in state


def test_a_keyword_misspelt_twice_over_is_suggested() -> None:
    line = read("H LOO sopprt H NSS")
    assert line.order is None
    assert "did you mean 'support'?" in said(line)
