"""Colours every reader can tell apart (moonshine/picture/colours.py): the formula
checked against published data, then the gangs' colours on the map."""

from __future__ import annotations

import pytest

from moonshine.picture.colours import closest_pairs, delta_e, difference, mix, seen
from moonshine.picture.shapes import TEXT, contrast_ratio
from moonshine.variants.moonshine.map import load_map
from moonshine.variants.moonshine.scene.symbols import NEUTRAL, district_fill

# Sharma, Wu and Dalal (2005), "The CIEDE2000 color-difference formula:
# implementation notes, supplementary test data": pairs 1, 2, 3, 7, 17, 25, 34.
SHARMA = [
    ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
    ((50.0, 3.1571, -77.2803), (50.0, 0.0, -82.7485), 2.8615),
    ((50.0, 2.8361, -74.0200), (50.0, 0.0, -82.7485), 3.4412),
    ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
    ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ((2.0776, 0.0795, -1.1350), (0.9033, -0.0636, -0.5514), 0.9082),
]
VISIONS = ("normal", "deuteranopia", "protanopia")
SOLID, FILLED = 10.0, 8.0  # the least CIEDE2000 difference between two gangs' colours, and their districts' fills
ALL_VISIONS = (*VISIONS, "tritanopia")


@pytest.mark.parametrize(("one", "two", "expected"), SHARMA)
def test_ciede2000_matches_the_published_data(
    one: tuple[float, float, float], two: tuple[float, float, float], expected: float
) -> None:
    assert delta_e(one, two) == pytest.approx(expected, abs=1e-4)
    assert delta_e(two, one) == pytest.approx(expected, abs=1e-4)


def test_simulation_keeps_greys_and_merges_reds_with_browns() -> None:
    for vision in VISIONS:
        r, g, b = seen("#808080", vision)
        assert abs(r - g) < 1 and abs(g - b) < 1
    # A red and a brown that differ plainly to most readers look alike without
    # the red cones.
    assert difference("#c0392b", "#7f5539") > 15
    assert difference("#c0392b", "#7f5539", "protanopia") < 5


def test_the_check_fails_on_the_old_palette() -> None:
    old = {"outfit": "#c0392b", "genna": "#27ae60", "westside": "#16a085", "ragen": "#7f5539"}
    worst = {p.vision: p for p in closest_pairs(old, VISIONS)}
    assert worst["protanopia"].difference < SOLID
    assert (worst["protanopia"].first, worst["protanopia"].second) == ("outfit", "ragen")


def test_gang_colours_stay_apart_for_every_reader() -> None:
    gangs = load_map("chicago-1920s").gangs
    solid = {k: g.colour for k, g in gangs.items()}
    for pair in closest_pairs(solid, VISIONS):
        assert pair.difference >= SOLID, pair


def test_district_fills_stay_apart_for_every_reader() -> None:
    """Any two gangs' districts, and a neutral one, differ by 8 or more under every
    simulated vision (the tints of before were 4.3 apart under tritanopia); the
    district codes' dark letters stand out on every fill."""
    gangs = load_map("chicago-1920s").gangs
    fills = {k: district_fill(g) for k, g in gangs.items()} | {"neutral": NEUTRAL}
    for pair in closest_pairs(fills, ALL_VISIONS):
        assert pair.difference >= FILLED, pair
    for colour in fills.values():
        assert contrast_ratio(colour, TEXT) >= 4.5, colour
    tints = {k: mix(g.colour, "#ffffff", 0.42) for k, g in gangs.items()}
    assert min(p.difference for p in closest_pairs(tints, ALL_VISIONS)) < FILLED  # the old fills fail


def test_the_letters_on_every_unit_stand_out() -> None:
    """A unit's letter (H, L; A, F) on its gang's or power's colour: WCAG's 4.5:1 for
    text, which white letters on Westside's sky blue (2.3:1) and on Outfit's vermilion
    (3.9:1) missed."""
    from moonshine.picture.shapes import contrast_ratio, text_on
    from moonshine.variants.classic.board import standard_map
    from moonshine.variants.classic.scene.layout import layout_of

    assert contrast_ratio("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast_ratio("#56b4e9", "#ffffff") == pytest.approx(2.3, abs=0.05)
    colours = [g.colour for g in load_map("chicago-1920s").gangs.values()]
    colours += list(layout_of(standard_map()).colours.values())
    for colour in colours:
        assert contrast_ratio(colour, text_on(colour)) >= 4.5, colour
    assert text_on("#56b4e9") == "#000000" and text_on("#0072b2") == "#ffffff"
