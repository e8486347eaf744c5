"""The bulletin's story: a headline, a few sentences and "what changed", from a
turn's opening state, its results and the next opening state; plain holds told in
one line per gang; the raid draws' section at the end, and a map without raids
told so (no "modulo 0", no one-liner dividing by zero)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from moonshine.game.directory import GameConfig
from moonshine.game.simulate import Played, play
from moonshine.render.report import end_of_turn_control, render_bulletin
from moonshine.variants.moonshine import story
from moonshine.variants.moonshine.map import GameMap, load_map
from moonshine.variants.moonshine.orders import notation, parse_canonical
from moonshine.variants.moonshine.results import read_results, to_data

LANGS = ("en", "fr")


@pytest.fixture(scope="module")
def played() -> list[Played]:
    """Four turns of a computer-played game: its second turn has a unit dislodged that
    retreats and one that is disbanded."""
    return list(play(load_map("chicago-1920s"), "a", 4))


def _turn(gmap: GameMap, p: Played) -> Any:
    return read_results(to_data(gmap, p.result, {}))


def config() -> GameConfig:
    return GameConfig(map="chicago-1920s", title="Story game")


def test_what_changed_is_every_district_that_changed_hands(chicago: GameMap, played: list[Played]) -> None:
    for p in played:
        res = _turn(chicago, p)
        st = story.story(chicago, p.state, res, p.result.next_state)
        start, end = end_of_turn_control(p.state), end_of_turn_control(p.result.next_state)
        changed = {c.code for c in st.changes if not c.station}
        assert changed == {d for d in chicago.districts if start.get(d) != end.get(d)}
        for c in st.changes:
            if not c.station:
                assert (c.before, c.after) == (start.get(c.code), end.get(c.code))
        assert sum(st.net.values()) == sum(1 for c in st.changes if not c.station and c.after) - sum(
            1 for c in st.changes if not c.station and c.before
        )
        for v in st.vp:  # the VP after are the results' own
            assert v.after == res.vp[v.gang] and v.delta != 0


@pytest.mark.parametrize("lang", LANGS)
def test_the_bulletin_tells_every_dislodgement_with_its_fate(chicago: GameMap, played: list[Played], lang: str) -> None:
    p = played[1]
    res = _turn(chicago, p)
    dislodged = [(g, d) for g, gr in res.gangs.items() for d in gr.dislodged]
    assert {d.retreated_to is None for _, d in dislodged} == {True, False}  # one of each
    text = render_bulletin(chicago, config(), res, p.result.next_state, language=lang, before=p.state)
    flat = " ".join(text.split())
    story_part = flat.split("WHAT CHANGED" if lang == "en" else "CE QUI A CHANGÉ")[0]
    counted = {"en": "2 units were dislodged", "fr": "2 unités ont été délogées"}[lang]
    assert counted in story_part
    for gang, d in dislodged:
        name = chicago.gangs[gang].name
        if d.retreated_to:
            fate = {
                "en": f"{d.unit} ({name}), which retreated to {d.retreated_to}",
                "fr": f"{d.unit} ({name}), repliée en {d.retreated_to}",
            }
        else:
            fate = {"en": f"{d.unit} ({name}), which was disbanded", "fr": f"{d.unit} ({name}), renvoyée"}
        assert fate[lang] in story_part


@pytest.mark.parametrize("lang", LANGS)
def test_headline_story_and_tables_in_text_and_html(chicago: GameMap, played: list[Played], lang: str) -> None:
    p = played[0]
    res = _turn(chicago, p)
    st = story.story(chicago, p.state, res, p.result.next_state)
    best = max(st.net.values())
    gang = next(g for g, n in st.net.items() if n == best)
    text = render_bulletin(chicago, config(), res, p.result.next_state, language=lang, before=p.state)
    headline = text.split("=" * 74 + "\n", 1)[1].strip().splitlines()[0]
    assert headline.startswith(chicago.gangs[gang].name.upper())
    page = render_bulletin(chicago, config(), res, p.result.next_state, language=lang, html=True, before=p.state)
    assert re.search(r'<p class="headline"[^>]*>[^<]*' + re.escape(chicago.gangs[gang].name), page)
    rows = re.search(r'<table[^>]*class="data changed".*?</table>', page, re.S)
    assert rows is not None
    assert rows.group(0).count("<tr") == len(st.changes) + 1  # a header, then one row per change
    for c in st.vp:
        sign = f"+{c.delta}" if c.delta > 0 else f"\u2212{-c.delta}"
        assert re.search(
            rf"{re.escape(chicago.gangs[c.gang].name)}\s+{c.before}\s+{c.after}\s+{re.escape(sign)}\n", text
        )


@pytest.mark.parametrize("lang", LANGS)
def test_plain_holds_are_one_line_per_gang(chicago: GameMap, played: list[Played], lang: str) -> None:
    p = played[0]
    res = _turn(chicago, p)
    text = render_bulletin(chicago, config(), res, p.result.next_state, language=lang, before=p.state)
    word = {"en": "held", "fr": "tenu"}[lang]
    for gang, gr in res.gangs.items():
        plain = [u.unit for u in gr.units if story.is_plain_hold(u.order, u.succeeded, u.reason)]
        for u in plain:
            assert f"  {u} hold:" not in text
        if plain:
            assert re.search(
                rf"{word}\u00a0: {re.escape(', '.join(plain))}\n"
                if lang == "fr"
                else rf"held: {re.escape(', '.join(plain))}\n",
                text,
            ), gang
        others = [u for u in gr.units if not story.is_plain_hold(u.order, u.succeeded, u.reason)]
        for u in others:  # in the notation of the bulletin's language
            assert f"  {notation(parse_canonical(u.order), lang)}" in text


def test_the_raid_draws_come_last_and_whole(chicago: GameMap, played: list[Played]) -> None:
    p = played[0]
    res = _turn(chicago, p)
    text = render_bulletin(chicago, config(), res, p.result.next_state, before=p.state)
    sections = re.findall(r"^([A-Z][A-Z0-9 ,'()]+)\n-+$", text, re.M)
    assert sections[-2:] == ["THE RAID DRAWS (R21)", "CREDITS"]
    seed_part = text.split("THE RAID DRAWS (R21)")[1]
    assert "SHA-256 of the game's secret seed" in seed_part and "% 93)" in seed_part and "ROG 3" in seed_part


@pytest.mark.parametrize("lang", LANGS)
def test_a_map_without_raids_says_so_and_divides_by_nothing(chicago: GameMap, played: list[Played], lang: str) -> None:
    from msgspec.structs import replace

    no_raids = replace(chicago, raid_table={})
    p = played[0]
    data = to_data(chicago, p.result, {})
    data["raid"] = None
    data["next"]["raid"] = None
    for html in (False, True):
        page = render_bulletin(no_raids, config(), data, p.result.next_state, language=lang, html=html, before=p.state)
        assert "modulo" not in page and "% 0" not in page and "hashlib" not in page
        assert {"en": "This map has no raid table", "fr": "Cette carte n'a pas de table des descentes"}[lang] in page
