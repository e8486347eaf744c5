"""The classic board on a phone (issue 38): each power's report shows first a
close-up of its area, its province codes at least 11 CSS px on a 390 px phone (as the
Chicago close-ups); no name is clipped at the board's edge; every picture is in the
reader's language; the legend counts the centres the page counts (after an autumn's
retreats, the new owners'); a build that failed is marked on the winter map; the
centres chart labels its lines where they end, inside the picture."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import pytest
from handplayed import classic_game

from moonshine.game.families.classic import centres_chart
from moonshine.picture import charts
from moonshine.picture.shapes import Group, Label
from moonshine.variants.classic.board import standard_map
from moonshine.variants.classic.layout import load_state
from moonshine.variants.classic.scene import build_scene
from moonshine.variants.classic.scene.style import CODE_SIZE, MARGIN
from moonshine.variants.classic.state import initial_state

POWERS = ("AUS", "ENG", "FRA", "GER", "ITA", "RUS", "TUR")


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return classic_game(tmp_path_factory.mktemp("board") / "classic")


def _reports(game: Path, phase: str) -> Path:
    return game / "turns" / phase / "reports"


def _codes(scene_items: object) -> list[Label]:
    out = []
    for item in scene_items:  # type: ignore[attr-defined]
        if isinstance(item, Group) and dict(item.attrs).get("class") == "label":
            out += [i for i in item.items if isinstance(i, Label) and len(i.text) == 3 and i.text.isupper()]
    return out


def test_each_power_reads_its_close_up_first_its_codes_large_enough_for_a_phone(game: Path) -> None:
    from moonshine.variants.classic.scene.closeup import PHONE_WIDTH, area_of, closeup

    gmap = standard_map()
    for phase in ("spring-1901", "fall-1901", "fall-1901-retreats", "winter-1901"):
        base = _reports(game, phase)
        for power in POWERS:
            page = (base / f"{power}.html").read_text(encoding="utf-8")
            shown = re.findall(r'<img\b[^>]*\bsrc="([\w.-]+\.png)"', page)
            assert shown[0] == f"closeup-{power.lower()}.png", (phase, power, shown)
            assert (base / shown[0]).is_file()
    st = load_state(game, "fall-1901-retreats", gmap)
    whole = build_scene(gmap, st)
    for power in POWERS:
        near = closeup(gmap, whole, area_of(gmap, st, power))
        smallest = min(label.size for label in _codes(near.items)) * PHONE_WIDTH / near.width
        assert smallest >= 11.0, (power, smallest)
    assert CODE_SIZE * 368 / whole.width < 6  # the whole board alone: unreadable on a phone


def test_no_province_name_is_clipped_at_the_boards_edge() -> None:
    gmap = standard_map()
    scene = build_scene(gmap, initial_state(gmap))
    right = scene.width - MARGIN
    out = []
    for label in _codes(scene.items):
        half = 0.62 * label.size * len(label.text) / 2
        if label.at[0] - half < MARGIN or label.at[0] + half > right:
            out.append(label.text)
    assert out == []


def test_a_french_reader_gets_every_picture_in_french(game: Path) -> None:
    base = _reports(game, "fall-1901")
    page = (base / "FRA.html").read_text(encoding="utf-8")
    shown = re.findall(r'<img\b[^>]*\bsrc="([\w.-]+\.png)"', page)
    assert shown == ["closeup-fra.png", "map.fr.png", "legend.fr.png"]
    assert "Automne 1901\u00a0: ordres et résultats" in (base / "map.fr.svg").read_text(encoding="utf-8")
    assert "Autumn 1901" in (base / "map.svg").read_text(encoding="utf-8")
    english = re.findall(r'<img\b[^>]*\bsrc="([\w.-]+\.png)"', (base / "ENG.html").read_text(encoding="utf-8"))
    assert english == ["closeup-eng.png", "map.png", "legend.png"]
    assert "map.fr.png" in (base / "FRA.txt").read_text(encoding="utf-8")


def test_the_retreat_phase_legend_counts_the_centres_the_page_counts(game: Path) -> None:
    base = _reports(game, "fall-1901-retreats")
    legend = re.findall(r">([A-Z][a-z]+): (\d+) centres?<", (base / "map.svg").read_text(encoding="utf-8"))
    page = unescape((base / "ENG.html").read_text(encoding="utf-8"))
    table = re.search(r'<table[^>]*class="data centres".*?</table>', page, re.S)
    assert table is not None
    rows = re.findall(r"([A-Z][a-z]+) \([A-Z]{3}\)</td><td[^>]*>(\d+)</td>", table.group(0))
    assert dict(legend) == dict(rows)
    assert dict(legend)["France"] == "4"  # Spain, taken in the autumn, is France's before the builds


def test_a_build_that_failed_is_marked_on_the_winter_map(game: Path) -> None:
    svg = (_reports(game, "winter-1901") / "map.svg").read_text(encoding="utf-8")
    assert 'class="unit unbuilt" data-unit="F KIE" data-power="GER"' in svg
    assert "build that failed" in svg


def test_the_centres_chart_labels_its_lines_where_they_end_inside_the_picture(game: Path) -> None:
    gmap = standard_map()
    nxt = load_state(game, "spring-1902", gmap)
    scene = charts.scene(centres_chart(game, gmap, nxt, "en"))
    ends = [i for i in scene.items if isinstance(i, Label) and re.fullmatch(r"[A-Z][a-z]+ \d+", i.text)]
    assert len(ends) == 7
    for label in ends:
        assert label.at[0] + 0.62 * label.size * len(label.text) <= scene.width, label.text
    # seven lines ending at 4 or 5 centres: labelled about there, not fanned down to 0
    zero = scene.height - 40.0
    assert all(label.at[1] < zero - 13 for label in ends)
