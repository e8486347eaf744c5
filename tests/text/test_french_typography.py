"""French as a French reader expects it: a no-break space before ``:`` and between an
amount and ``$``, a narrow one before ``;``, ``!`` and ``?`` (so that no wrapped line,
in the mail or on a phone's screen, starts with one of them), plurals that agree with
their count, and the turns named in words, in both languages."""

from __future__ import annotations

import copy
import html
import re
from typing import Any

import frtypo
import pytest
import yaml
from babel.messages.pofile import read_po
from repokit import DATA, ROOT

from moonshine.engine import outcome as oc
from moonshine.game.directory import Game, GameConfig
from moonshine.game.simulate import play
from moonshine.render import mailwords, phrasebook
from moonshine.render.ack import acknowledgement
from moonshine.render.bulletin import render_bulletin
from moonshine.render.classic.report import render_text
from moonshine.render.report import render_all
from moonshine.text.catalogue import LOCALE, number
from moonshine.variants.classic.board import standard_map
from moonshine.variants.classic.state import initial_state as classic_start
from moonshine.variants.moonshine.checker import read_orders
from moonshine.variants.moonshine.map import GameMap, load_map
from moonshine.variants.moonshine.results import to_data
from moonshine.variants.moonshine.state import GameState
from moonshine.variants.moonshine.state import loads as load_state_text

FIXTURE = DATA / "golden" / "fixture"


@pytest.fixture(scope="module")
def data() -> dict[str, Any]:
    raw = yaml.safe_load((FIXTURE / "results.yaml").read_text(encoding="utf-8"))
    assert isinstance(raw, dict)
    return raw


@pytest.fixture
def nxt(chicago: GameMap) -> GameState:
    return load_state_text((FIXTURE / "next-state.yaml").read_text(encoding="utf-8"), chicago)


def _text_of(page: str) -> str:
    """What a reader sees of an HTML page: its text, without the markup."""
    body = re.sub(r"<(style|script)\b.*?</\1>", " ", page, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", body))


def _lines_starting_badly(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip()[:1] in (":", ";", "!", "?", "$")]


def test_the_french_catalogue_writes_french_spaces() -> None:
    with (LOCALE / "fr" / "LC_MESSAGES" / "moonshine.po").open("rb") as f:
        catalogue = read_po(f)
    missing = []
    for m in catalogue:
        for text in m.string if isinstance(m.string, tuple) else (m.string,):
            missing += [(m.context, place) for place in frtypo.plain_spaces(text or "")]
    assert missing == []


def test_sums_and_numbers_keep_together_in_french() -> None:
    assert phrasebook.money_text("fr", 350) == "3,50\u00a0$"
    assert number("fr", 4096) == "4\u00a0096"
    assert phrasebook.colon("fr") == "\u00a0: " and phrasebook.semicolon("fr") == "\u202f; "
    assert phrasebook.money_text("en", 350) == "$3.50" and phrasebook.colon("en") == ": "


def test_no_wrapped_line_of_a_french_report_starts_with_punctuation(
    chicago: GameMap, data: dict[str, Any], nxt: GameState
) -> None:
    config = Game(ROOT).config
    pages = render_all(chicago, config, data, nxt, language="fr", seed="s" * 64)
    assert len(pages) == 2 * (len(chicago.gangs) + 1)
    for name, page in pages.items():
        text = page if name.endswith(".txt") else _text_of(page)
        assert frtypo.plain_spaces(text) == [], name
        if name.endswith(".txt"):
            assert _lines_starting_badly(text) == [], name


def test_a_played_french_game_reads_with_french_spaces_every_turn(chicago: GameMap) -> None:
    config = GameConfig(map="chicago-1920s", title="Partie de test", language="fr")
    for p in play(load_map("chicago-1920s"), "typography", 4):
        results = to_data(chicago, p.result, {})
        pages = render_all(chicago, config, results, p.result.next_state, language="fr", before=p.state)
        for name, page in pages.items():
            text = page if name.endswith(".txt") else _text_of(page)
            assert frtypo.plain_spaces(text) == [], (p.state.turn, name)
            assert _lines_starting_badly(text) == [], (p.state.turn, name)


def test_a_french_acknowledgement_and_a_classic_report_keep_their_punctuation(chicago: GameMap) -> None:
    st = Game(ROOT).load_state("spring-1924")
    source = "orders/spring-1924/valley.txt"
    orders = read_orders((ROOT / source).read_text(encoding="utf-8"), chicago, st, source=source)
    ack = acknowledgement(orders, chicago, st, language="fr")
    assert frtypo.plain_spaces(ack) == [] and _lines_starting_badly(ack) == []
    board = standard_map()
    report = render_text(
        board, {"phase": "spring-1901", "results": {}}, classic_start(board), power=None, language="fr"
    )
    assert frtypo.plain_spaces(report) == [] and _lines_starting_badly(report) == []
    assert "Autriche (AUS)\u00a0: 3 centres, 3 unités" in report


def test_one_unit_is_singular_and_two_are_plural(chicago: GameMap, data: dict[str, Any], nxt: GameState) -> None:
    config = Game(ROOT).config
    one = frtypo.plain(render_bulletin(chicago, config, data, nxt, language="fr"))
    assert "recruté : H ASH\n" in one and "recrutés" not in one
    assert "H NOC (Chicago Outfit) arrêtée." in " ".join(one.split()) and "arrêtées" not in one
    two = copy.deepcopy(data)
    two["gangs"]["ragen"]["adjustments"].append(dict(two["gangs"]["ragen"]["adjustments"][0], order="recruit L ASH"))
    both = frtypo.plain(render_bulletin(chicago, config, two, nxt, language="fr"))
    assert "recrutés : H ASH, L ASH\n" in both
    english = render_bulletin(chicago, config, data, nxt, language="en")
    assert "recruited: H ASH\n" in english


def test_the_raid_is_one_sentence_with_one_colon(chicago: GameMap, data: dict[str, Any], nxt: GameState) -> None:
    config = Game(ROOT).config
    text = " ".join(frtypo.plain(render_bulletin(chicago, config, data, nxt, language="fr")).split())
    assert (
        "Ce tour-ci, la police (poste Shakespeare Avenue, LOG) a fait une descente à NOC (North Center), "
        "quartier du Chicago Outfit : 5 caisses saisies ; H NOC (Chicago Outfit) arrêtée."
    ) in text
    assert "Descente de ce tour" not in text and "Prix de ce tour : 3 $ par caisse." in text
    assert "stocks et trésorerie restent privés" in text  # cash is not "caisses"


def test_a_unit_blocked_by_its_own_side_is_told_in_the_third_person() -> None:
    for blocked in (oc.Blocked("L ROS", "WAH"), oc.Blocked("L ROS", "WAH", head_to_head=True)):
        said = oc.explain(blocked, "fr")
        assert said.startswith("bloquée par sa propre L ROS") and "votre" not in said


def test_the_turns_are_named_in_words_in_subjects_and_sentences() -> None:
    assert mailwords.subject_turn("en", "spring-1927") == "Spring 1927"
    assert mailwords.subject_turn("fr", "autumn-1926") == "automne 1926"
    assert mailwords.text("en", "deadline.next", turn=mailwords.sentence_turn("en", "spring-1927"), due="x") == (
        "Orders for Spring 1927 are due x."
    )
    assert mailwords.sentence_turn("fr", "spring-1927") == "le printemps 1927"
    assert phrasebook.turn_label("en", "autumn-1926") == "Autumn 1926"
