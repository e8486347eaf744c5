"""The map tells the turn: on the sample game's map, the turn after a turn with
dislodgements shows every dislodged unit where it stood, with its retreat (an arrow
from that spot) or crossed out when disbanded; a support to hold rings the unit it
supports; the legend shows those marks; the title says what is shown."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from moonshine.game.reports import render_map
from moonshine.game.simulate import Played, play
from moonshine.render.turnmap import arrows_from_results
from moonshine.variants.moonshine.map import GameMap, load_map
from moonshine.variants.moonshine.results import read_results, to_data

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def chicago_map() -> GameMap:
    return load_map("chicago-1920s")


@pytest.fixture(scope="module")
def played(chicago_map: GameMap) -> list[Played]:
    """Turns of a game on the sample game's map, played by the computer players."""
    return list(play(chicago_map, "a", 4))


def _svg(gmap: GameMap, p: Played, language: str = "en") -> tuple[Any, ET.Element]:
    res = read_results(to_data(gmap, p.result, {}))
    svg, _ = render_map(gmap, res, p.result.next_state, language)
    return res, ET.fromstring(svg)


def _groups(root: ET.Element, cls: str) -> list[ET.Element]:
    return [g for g in root.iter(f"{SVG}g") if cls in (g.get("class") or "").split()]


def test_every_dislodged_unit_and_retreat_is_on_the_map(chicago_map: GameMap, played: list[Played]) -> None:
    turns = checked = 0
    for p in played:
        res, root = _svg(chicago_map, p)
        expected = {
            (gang, d.unit, d.retreated_to if not d.disbanded else None)
            for gang, gr in res.gangs.items()
            for d in gr.dislodged
        }
        drawn = {(g.get("data-gang"), g.get("data-unit"), g.get("data-retreat")) for g in _groups(root, "dislodged")}
        assert drawn == expected, res.turn
        disbanded = {g.get("data-unit") for g in _groups(root, "disbanded")}
        assert disbanded == {u for _, u, r in expected if r is None}
        retreats = {(g.get("data-gang"), g.get("data-from"), g.get("data-to")) for g in _groups(root, "retreat")}
        assert retreats == {(gang, u.split()[-1], r) for gang, u, r in expected if r is not None}
        turns += bool(expected)
        if expected and {r is None for *_, r in expected} == {True, False}:
            # the retreat starts from the faded unit, not from the unit now in the district
            for g in _groups(root, "dislodged"):
                if g.get("data-retreat"):
                    ring = next(c for c in g.iter(f"{SVG}circle") if c.get("stroke-dasharray"))
                    centre = (float(ring.get("cx", "0")), float(ring.get("cy", "0")))
                    arrow = next(
                        a for a in _groups(root, "retreat") if a.get("data-from") == g.get("data-unit", "").split()[-1]
                    )
                    line = next(el for el in arrow.iter() if el.tag in (f"{SVG}polyline", f"{SVG}path", f"{SVG}line"))
                    first = _first_point(line)
                    here = g.get("data-unit", "").split()[-1]
                    now = [_centre(_shape(u)) for u in _groups(root, "unit") if _in(u, here)]
                    for other in now:  # nearer the faded unit than the unit now standing there
                        assert math.dist(first, centre) < math.dist(first, other)
                    checked += 1
    assert turns >= 3  # the game has dislodgements in most of its turns
    assert checked > 0


def _shape(marker: ET.Element) -> ET.Element:
    return next(el for el in marker if el.tag in (f"{SVG}rect", f"{SVG}circle", f"{SVG}path", f"{SVG}polygon"))


def _in(unit: ET.Element, district: str) -> bool:
    return "dislodged" not in (unit.get("class") or "") and (unit.get("data-unit") or "").endswith(" " + district)


def _first_point(el: ET.Element) -> tuple[float, float]:
    if el.tag.endswith("line") and el.get("x1") is not None:
        return float(el.get("x1", "0")), float(el.get("y1", "0"))
    raw = el.get("points") or el.get("d") or ""
    nums = [float(x) for x in raw.replace("M", " ").replace("L", " ").replace(",", " ").split()[:2]]
    return nums[0], nums[1]


def test_a_support_to_hold_rings_the_supported_unit(chicago_map: GameMap, played: list[Played]) -> None:
    seen = 0
    for p in played:
        res, root = _svg(chicago_map, p)
        units = {g.get("data-unit"): g for g in _groups(root, "unit") if "dislodged" not in (g.get("class") or "")}
        for a in arrows_from_results(res, chicago_map):
            if a.kind != "support" or a.target_end is not None:
                continue
            label = f"{a.target_kind} {a.end}"
            if label not in units:
                continue  # dislodged: ringed where it stood
            marker = units[label]
            shape = next(el for el in marker if el.tag in (f"{SVG}rect", f"{SVG}circle", f"{SVG}path", f"{SVG}polygon"))
            centre = _centre(shape)
            drawn = next(
                g for g in _groups(root, "support") if g.get("data-from") == a.start and g.get("data-to") == a.end
            )
            rings = [c for c in drawn.iter(f"{SVG}circle") if c.get("fill") in (None, "none")]
            assert any(
                abs(float(c.get("cx", "0")) - centre[0]) < 3 and abs(float(c.get("cy", "0")) - centre[1]) < 3
                for c in rings
            ), label
            seen += 1
    assert seen > 0


def _centre(el: ET.Element) -> tuple[float, float]:
    if el.get("cx") is not None:
        return float(el.get("cx", "0")), float(el.get("cy", "0"))
    raw = el.get("points") or el.get("d") or ""
    nums = [float(x) for x in raw.replace("M", " ").replace("L", " ").replace("Z", " ").replace(",", " ").split()]
    xs, ys = nums[0::2], nums[1::2]
    return (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        (
            "en",
            (
                "the orders, and the position after them",
                "dislodged (crossed: disbanded)",
                "support to a unit that holds",
            ),
        ),
        (
            "fr",
            (
                "les ordres, et la position qui en résulte",
                "délogée (barrée\u00a0: licenciée)",
                "soutien d'une unité qui tient",
            ),
        ),
    ],
)
def test_the_title_and_legend_say_what_is_shown(
    chicago_map: GameMap, played: list[Played], lang: str, words: tuple[str, ...]
) -> None:
    _, root = _svg(chicago_map, played[1], lang)
    title = root.find(f"{SVG}title")
    assert title is not None and title.text is not None and title.text.endswith(words[0])
    legend = next(g for g in root.iter(f"{SVG}g") if g.get("id") == "legend")
    texts = {t.text for t in legend.iter(f"{SVG}text")}
    assert words[1] in texts and words[2] in texts


def test_a_turns_map_marks_the_turns_own_raid_not_the_next(tmp_path: Path) -> None:
    """The map of a turn is drawn on the board the turn left, whose state already holds
    the next turn's raid: "raided this turn" is the turn's own raid."""
    import re

    import yaml
    from click.testing import CliRunner
    from samplegame import copy_sample

    from moonshine.cli import main

    game = copy_sample(tmp_path / "g")
    done = CliRunner().invoke(main, ["adjudicate", "spring-1924", "--no-commit", "--force", "--game", str(game)])
    assert done.exit_code == 0, done.output
    results = yaml.safe_load((game / "turns" / "spring-1924" / "results.yaml").read_text())
    own, following = results["raid"]["district"], results["next"]["raid"]["district"]
    assert own != following  # the sample's seed draws two different districts
    svg = (game / "turns" / "spring-1924" / "reports" / "map.svg").read_text()
    assert re.search(rf'id="raid"[^>]*data-code="{own}"', svg), own
    assert f'data-code="{following}" data-by' not in svg


def test_failure_marks_leave_the_district_codes_readable(chicago_map: GameMap) -> None:
    """A failed order's cross goes along its arrow where it covers no district code (the
    middle of the arrow when that is clear): measured with the picture's own font, at
    most one cross in twenty touches a code's ink (in 8 turns of a played game, 12 in
    100 did when every cross stood at its arrow's middle)."""
    from PIL import ImageFont

    from moonshine.game.reports import map_scene
    from moonshine.picture.shapes import Group, Label, extent

    marks = touching = 0
    for p in play(chicago_map, "a", 8):
        res = read_results(to_data(chicago_map, p.result, {}))
        scene = map_scene(chicago_map, res, p.result.next_state, "en")
        parts = {dict(i.attrs).get("id"): i for i in scene.items if isinstance(i, Group)}
        inks = []
        for label in parts["labels"].items:
            assert isinstance(label, Label)
            font = ImageFont.load_default(size=label.size)
            x0, y0, x1, y1 = font.getbbox(label.text, anchor="mm", stroke_width=2)
            inks.append((label.at[0] + x0, label.at[1] + y0, label.at[0] + x1, label.at[1] + y1))
        for mark in parts["failure-marks"].items:
            box = extent((mark,))
            assert box is not None
            marks += 1
            touching += any(b[0] < box[2] and box[0] < b[2] and b[1] < box[3] and box[1] < b[3] for b in inks)
    assert marks > 100
    assert touching <= marks // 20
