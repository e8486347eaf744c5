"""The bulletin's story: a headline, a few sentences and "what changed", from a
turn's opening state, its results and the next opening state; plain holds told in
one line per gang; the raid draws' section at the end, and a map without raids
told so (no "modulo 0", no one-liner dividing by zero)."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from frtypo import plain as frtypo_plain

from moonshine.game.directory import GameConfig
from moonshine.game.simulate import Played, play
from moonshine.render.bulletin import render_bulletin
from moonshine.render.turnpage import end_of_turn_control
from moonshine.text.catalogue import fill, named
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
                "fr": f"{d.unit} ({name}), qui a retraité vers {d.retreated_to}",
            }
        else:
            fate = {"en": f"{d.unit} ({name}), which was disbanded", "fr": f"{d.unit} ({name}), qui a été licenciée"}
        assert fate[lang] in story_part


@pytest.mark.parametrize("lang", LANGS)
def test_headline_story_and_tables_in_text_and_html(chicago: GameMap, played: list[Played], lang: str) -> None:
    p = played[0]
    res = _turn(chicago, p)
    st = story.story(chicago, p.state, res, p.result.next_state)
    text = render_bulletin(chicago, config(), res, p.result.next_state, language=lang, before=p.state)
    headline = text.split("=" * 74 + "\n", 1)[1].strip().splitlines()[0]
    gang = chicago.gangs[st.news[0].gangs[0]].name
    assert gang.upper() in headline and headline == headline.upper()
    page = render_bulletin(chicago, config(), res, p.result.next_state, language=lang, html=True, before=p.state)
    assert re.search(r'<p class="headline"[^>]*>[^<]*' + re.escape(gang), page)
    rows = re.search(r'<table[^>]*class="data changed".*?</table>', page, re.S)
    assert rows is not None
    assert rows.group(0).count("<tr") == len(st.changes) + 1  # a header, then one row per change
    for c in st.vp:
        sign = f"+{c.delta}" if c.delta > 0 else f"\u2212{-c.delta}"
        assert re.search(
            rf"{re.escape(chicago.gangs[c.gang].name)}\s+{c.before}\s+{c.after}\s+{re.escape(sign)}\n", text
        )


# -- the news, as a reader meets it: a whole computer-played game ---------------------------------

# each kind of headline as the English bulletin words it, and its rank (the biggest news first)
HEADLINES = [
    (1, r"WINS THE GANG WAR$|SHARE THE SPOILS"),
    (2, r" STORMED BY "),
    (3, r"^POLICE ON THE TAKE: "),  # 3 when a rival paid the station before, else 10
    (4, r"^RAID ON THE LEADER: "),
    (5, r" WIPED OFF THE MAP$"),
    (6, r" LOSES ITS LAST SPEAKEASY$"),
    (7, r"^CRATE PRICE (SOARS|SLUMPS) TO "),
    (8, r" TAKES THE LEAD$"),
    (9, r" GAINS (A|\d+) DISTRICTS?$"),  # 9 for three or more, else 11
    (12, r"^A QUIET TURN"),
]


@pytest.fixture(scope="module")
def whole_game() -> list[Played]:
    """A game played to its end (a win in autumn 1927)."""
    return list(play(load_map("chicago-1920s"), "a", 30))


def _bulletin_top(page: str) -> tuple[str, list[str]]:
    """The headline and the story's sentences, as the HTML bulletin shows them."""
    headline = re.search(r'<p class="headline"[^>]*>(.*?)</p>', page, re.S)
    assert headline is not None
    sentences = re.findall(r'<p class="story"[^>]*>(.*?)</p>', page, re.S)
    return unescape(headline.group(1)), [unescape(x) for x in sentences]


def _rank(headline: str, switched: bool, gained: int) -> int:
    for rank, pattern in HEADLINES:
        if re.search(pattern, headline, re.I):
            if rank == 3 and not switched:
                return 10
            if rank == 9 and gained < 3:
                return 11
            return rank
    raise AssertionError(f"a headline of no known kind: {headline}")


def _events(chicago: GameMap, p: Played, res: Any) -> dict[int, str]:
    """The news this turn holds, read from the states and results (rank -> who it names)."""
    before, nxt = p.state, p.result.next_state
    start, end = end_of_turn_control(before), end_of_turn_control(nxt)
    out: dict[int, str] = {}
    if res.winners:
        out[1] = res.winners[0]
    for a in res.assaults:
        if a.succeeded:
            out.setdefault(2, a.gang)
    for s, g in res.corruption.items():
        old = before.corruption.get(s)
        if old != g:
            out.setdefault(3 if old is not None else 10, g)
    for g in chicago.gangs:
        had = g in start.values() or any(u.gang == g for u in before.units)
        if had and g not in end.values() and all(u.gang != g for u in nxt.units):
            out.setdefault(5, g)
            continue
        speakeasies = [d for d, x in start.items() if x == g and chicago.districts[d].feature == "speakeasy"]
        if speakeasies and not any(x == g and chicago.districts[d].feature == "speakeasy" for d, x in end.items()):
            out.setdefault(6, g)
    if abs(nxt.price - before.price) >= 100:
        out[7] = ""
    net = {g: sum(1 for d in end if end[d] == g) - sum(1 for d in start if start[d] == g) for g in chicago.gangs}
    best = max(net.values())
    if best > 0:
        out.setdefault(9 if best >= 3 else 11, next(g for g in chicago.gangs if net[g] == best))
    return out


def test_each_bulletin_leads_with_its_biggest_news(chicago: GameMap, whole_game: list[Played]) -> None:
    """Over a whole game: no headline is of a kind below another event of its turn (a
    win over an assault, over a station changing hands, ... over a few districts
    gained), the first sentence tells the headline's news, and the headlines are of
    at least three kinds."""
    kinds = set()
    for p in whole_game:
        res = _turn(chicago, p)
        page = render_bulletin(chicago, config(), res, p.result.next_state, html=True, before=p.state)
        headline, sentences = _bulletin_top(page)
        events = _events(chicago, p, res)
        switched = 3 in events
        gained = int(m.group(1)) if (m := re.search(r" gains (\d+) districts$", headline)) else 1
        rank = _rank(headline, switched, gained)
        kinds.add(rank)
        assert rank <= min(events, default=12), (p.state.turn, headline, events)
        if events.get(rank):
            name = chicago.gangs[events[rank]].name
            assert name in headline or rank in (3, 10), (headline, name)  # stations: the first in map order
        named = [g.name for g in chicago.gangs.values() if g.name in headline]
        for name in named[:1]:
            assert name in sentences[0], (headline, sentences[0])
    assert len(kinds) >= 3, kinds


@pytest.mark.parametrize("lang", LANGS)
def test_the_final_bulletin_names_the_winner_once_and_no_command(
    chicago: GameMap, whole_game: list[Played], lang: str
) -> None:
    p = whole_game[-1]
    res = _turn(chicago, p)
    assert res.winners
    winner = chicago.gangs[res.winners[0]].name
    for html_page in (False, True):
        page = render_bulletin(
            chicago, config(), res, p.result.next_state, language=lang, html=html_page, before=p.state
        )
        flat = " ".join(frtypo_plain(unescape(page)).split())
        french = fill("fr", "Victoire de {gang} dans la guerre des gangs", gang=named("fr", "map.gang", winner))
        won = {"en": f"{winner} wins the gang war", "fr": french}[lang]
        assert (won if html_page else won.upper()) in flat
        assert {"en": "leads with", "fr": "En tête avec"}[lang] not in flat  # the winner is the winner
        assert {"en": "ends the game with", "fr": "Fin de la partie"}[lang] in flat
        assert "moonshine " not in flat.lower() and "reveal" not in flat


@pytest.mark.parametrize("lang", LANGS)
def test_district_changes_are_net_gains_and_losses(chicago: GameMap, whole_game: list[Played], lang: str) -> None:
    """ "8 districts changed hands. Net gains: A, 2 districts; B, one district. Net
    losses: C, 3 districts.": each gang's districts at the end less those at the start."""
    words = {
        "en": ("Net gains: ", "Net losses: ", "one district", "{n} districts"),
        "fr": ("Gains nets : ", "Pertes nettes : ", "un quartier", "{n} quartiers"),
    }[lang]
    seen = 0
    for p in whole_game:
        res = _turn(chicago, p)
        start, end = end_of_turn_control(p.state), end_of_turn_control(p.result.next_state)
        flat = " ".join(
            frtypo_plain(
                render_bulletin(chicago, config(), res, p.result.next_state, language=lang, before=p.state)
            ).split()
        )
        for g, gang in chicago.gangs.items():
            n = sum(1 for x in end.values() if x == g) - sum(1 for x in start.values() if x == g)
            if n == 0:
                continue
            said = f"{gang.name}, " + (words[2] if abs(n) == 1 else words[3].format(n=abs(n)))
            side = words[0] if n > 0 else words[1]
            part = flat.split(side, 1)[1].split(".")[0]
            assert said in part, (p.state.turn, said, part)
            seen += 1
    assert seen > 10


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
