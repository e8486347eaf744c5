"""The map picture: what a player sees on it (districts, units, stations, raid,
arrows for the turn's orders, legend) in the SVG, and a PNG of the same picture."""

from __future__ import annotations

import itertools
import json
import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable
from io import BytesIO
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_
from PIL import Image, ImageChops

from moonshine.picture.png import SUPERSAMPLE, _font, _has_glyph, _Painter, _shape_text, scene_png
from moonshine.picture.shapes import Group, Item, Label, Paint, PictureError, Poly, Scene
from moonshine.picture.svg import _num, _pairs
from moonshine.text.catalogue import languages
from moonshine.variants.moonshine.map import GameMap, UnitKind, build_map
from moonshine.variants.moonshine.scene import (
    Arrow,
    Dislodged,
    _words,
    build_scene,
    png_size,
    render_png,
    render_svg,
)
from moonshine.variants.moonshine.scene.symbols import NEUTRAL, district_fill
from moonshine.variants.moonshine.state import Arrested, GameState, Raid, Unit, initial_state

NS = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg.encode("utf-8"))


def groups(root: ET.Element, cls: str) -> list[ET.Element]:
    """Groups whose class list holds every word of ``cls``."""
    want = set(cls.split())
    return [g for g in root.iter(f"{NS}g") if want <= set(g.get("class", "").split())]


def texts(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iter(f"{NS}text")]


def path_points(d: str) -> list[tuple[float, float]]:
    nums = [float(x) for x in re.findall(r"-?\d+(?:\.\d+)?", d)]
    return list(zip(nums[0::2], nums[1::2], strict=True))


def drawn_line(group: ET.Element) -> list[tuple[float, float]]:
    """The points of an arrow's coloured line (not its white casing, not its head)."""
    lines = [p for p in group.iter(f"{NS}path") if p.get("fill") == "none" and p.get("stroke") != "#ffffff"]
    return path_points(lines[0].get("d", ""))


def distance_to_line(p: tuple[float, float], line: list[tuple[float, float]]) -> float:
    best = math.inf
    for a, b in itertools.pairwise(line):
        ab = (b[0] - a[0], b[1] - a[1])
        t = ((p[0] - a[0]) * ab[0] + (p[1] - a[1]) * ab[1]) / max(1e-9, ab[0] ** 2 + ab[1] ** 2)
        t = min(1.0, max(0.0, t))
        best = min(best, math.dist(p, (a[0] + t * ab[0], a[1] + t * ab[1])))
    return best


def code_position(root: ET.Element, code: str) -> tuple[float, float]:
    labels = root.find(f".//{NS}g[@id='labels']")
    assert labels is not None
    label = next(t for t in labels.iter(f"{NS}text") if t.text == code)
    return float(label.get("x", "0")), float(label.get("y", "0"))


def sample_arrows() -> list[Arrow]:
    return [
        Arrow("move", "valley", "LOO", "GOL", False),
        Arrow("move", "unione", "GOL", "LOO", False),
        Arrow("support", "valley", "NSS", "LOO", False, target_end="GOL"),
        Arrow("move", "outfit", "UPT", "LIP", True, path=("LAK",)),
        Arrow("support", "outfit", "NOC", "UPT", True, target_end="LIP"),
        Arrow("support", "valley", "FIV", "KEN", True),
        Arrow("transport", "southside", "BOY", "FUL", True, path=("WAS",)),
        Arrow("move", "southside", "BOY", "FUL", True, path=("WAS",)),
        Arrow("assault", "unione", "LIT", "LOO", True),
        Arrow("assault", "northside", "IRV", "JEF", False),
        Arrow("retreat", "westside", "SLA", "ARC", True),
        Arrow("retreat", "ragen", "WLA", "CLE", False),
    ]


def busy(start: GameState) -> GameState:
    """A position with a stacked L and H, corrupted stations, a raid and an arrested unit."""
    st = start.copy()
    st.units = [u for u in st.units if u.district not in ("NSS", "LOO")]
    st.units += [Unit("LOO", UnitKind.H, "valley"), Unit("LOO", UnitKind.L, "valley")]
    st.arrested.append(Arrested("LOO", UnitKind.H, "valley", "NSS"))
    st.corruption = {"LOO": "valley", "ENG": "ragen"}
    st.raid = Raid("NSS", "police", "LOO", False, "valley", 3, ("valley H NSS",))
    return st


# -- the SVG ---------------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(
    st_.lists(
        st_.tuples(
            st_.one_of(st_.floats(-2000, 2000), st_.sampled_from([-0.0, -0.04, -0.05, -0.06, -0.95, -10.04])),
            st_.floats(-2000, 2000),
        ),
        min_size=1,
        max_size=8,
    )
)
def test_svg_coordinates_have_one_decimal_and_no_negative_zero(points: list[tuple[float, float]]) -> None:
    """A path's points as ``x y`` pairs joined by ``L``, each number as ``_num`` writes
    it: one decimal, and never ``-0.0`` (a coordinate that rounds to zero is ``0.0``)."""
    assert _pairs(points).split("L") == [f"{_num(x)} {_num(y)}" for x, y in points]
    assert all(_num(v) != "-0.0" and _num(v) == f"{v:.1f}".replace("-0.0", "0.0") for v in (-0.04, 0.04, -0.0))


def test_svg_has_every_district_with_its_controller(chicago: GameMap, start: GameState) -> None:
    root = parse(render_svg(chicago, start))
    districts = {g.get("data-code"): g for g in groups(root, "district")}
    assert set(districts) == set(chicago.districts)
    for code in chicago.districts:
        assert districts[code].get("id") == f"district-{code}"
        assert districts[code].get("data-controller") == start.control.get(code)
    assert districts["LOO"].get("data-controller") == "valley"
    assert districts["EDI"].get("data-controller") is None
    assert set(texts(root)) >= set(chicago.districts)  # every district's code is written on it


def test_svg_has_every_unit(chicago: GameMap, start: GameState) -> None:
    root = parse(render_svg(chicago, start))
    drawn = sorted((g.get("data-unit"), g.get("data-gang")) for g in groups(root, "unit"))
    assert drawn == sorted((u.label(), u.gang) for u in start.units)
    assert ("H LOO", "valley") in drawn


def test_stacked_units_stand_side_by_side_and_arrested_units_are_off_the_board(
    chicago: GameMap, start: GameState
) -> None:
    root = parse(render_svg(chicago, busy(start)))
    units = {g.get("data-unit"): g for g in groups(root, "unit")}
    assert "H NSS" not in units  # arrested in the raid
    h, lu = units["H LOO"].find(f"{NS}text"), units["L LOO"].find(f"{NS}text")
    assert h is not None and lu is not None
    assert (h.text, lu.text) == ("H", "L")
    assert float(h.get("y", "0")) == float(lu.get("y", "0"))
    assert float(lu.get("x", "0")) - float(h.get("x", "0")) >= 15  # no overlap: H on the left, L on the right


def test_stations_show_their_corruption_and_features_are_marked(chicago: GameMap, start: GameState) -> None:
    root = parse(render_svg(chicago, busy(start)))
    stations = {g.get("data-code"): g for g in groups(root, "station")}
    assert set(stations) == set(chicago.stations())
    corrupted = {g.get("data-code"): g.get("data-corrupted-by") for g in groups(root, "station corrupted")}
    assert corrupted == {"LOO": "valley", "ENG": "ragen"}
    valley_colour = chicago.gangs["valley"].colour
    assert any(c.get("fill") == valley_colour for c in stations["LOO"].iter(f"{NS}circle"))
    for kind in ("supply", "speakeasy", "warehouse"):
        marked = {g.get("data-code") for g in groups(root, f"feature {kind}")}
        assert marked == {c for c, d in chicago.districts.items() if d.feature.value == kind}


def test_the_raided_district_is_marked(chicago: GameMap, start: GameState) -> None:
    root = parse(render_svg(chicago, busy(start)))
    raid = root.find(f".//{NS}g[@id='raid']")
    assert raid is not None
    assert raid.get("data-code") == "NSS"
    badge = root.find(f".//{NS}g[@id='raid-badge']")
    assert badge is not None
    assert texts(badge) == ["RAID"]
    assert parse(render_svg(chicago, start)).find(f".//{NS}g[@id='raid']") is None


def test_arrows_for_every_kind_with_failure_distinguishable(chicago: GameMap, start: GameState) -> None:
    arrows = sample_arrows()
    root = parse(render_svg(chicago, start, arrows=arrows))
    drawn = groups(root, "arrow")
    assert len(drawn) == len(arrows)
    for a in arrows:
        state = "succeeded" if a.succeeded else "failed"
        match = [
            g
            for g in groups(root, f"arrow {a.kind} {state}")
            if (g.get("data-gang"), g.get("data-from"), g.get("data-to")) == (a.gang, a.start, a.end)
        ]
        assert len(match) == 1, a
    failed = groups(root, "arrow failed")
    assert len(failed) == sum(1 for a in arrows if not a.succeeded)
    for g in failed:  # dashed and faded
        assert float(g.get("opacity", "1")) < 1
        assert any(p.get("stroke-dasharray") for p in g.iter(f"{NS}path"))
    for g in groups(root, "arrow succeeded"):
        if "transport" not in g.get("class", ""):  # a transport is a light band even when it works
            assert g.get("opacity") is None
        assert not any(p.get("stroke-dasharray") for p in g.iter(f"{NS}path"))
    # one cross per failed order, except a head-to-head pair that shares one
    assert 1 <= len(groups(root, "failure-mark")) <= len(failed)
    assert len(groups(root, "failure-mark")) >= len(failed) - 1


def test_support_of_a_move_points_at_the_middle_of_the_move(chicago: GameMap, start: GameState) -> None:
    arrows = [
        Arrow("move", "valley", "LOO", "GOL", True),
        Arrow("support", "valley", "NSS", "LOO", True, target_end="GOL"),
    ]
    root = parse(render_svg(chicago, start, arrows=arrows))
    (move,) = groups(root, "arrow move")
    (support,) = groups(root, "arrow support")
    line = drawn_line(move)
    (dot,) = list(support.iter(f"{NS}circle"))
    tip = (float(dot.get("cx", "0")), float(dot.get("cy", "0")))
    loo, gol = code_position(root, "LOO"), code_position(root, "GOL")
    middle = ((loo[0] + gol[0]) / 2, (loo[1] + gol[1]) / 2 + 15.5)
    assert math.dist(tip, middle) < 10
    assert distance_to_line(tip, line) < 6


def test_a_two_step_move_is_drawn_through_its_path(chicago: GameMap, start: GameState) -> None:
    root = parse(render_svg(chicago, start, arrows=[Arrow("move", "genna", "BUR", "EAS", True, path=("SOD",))]))
    (move,) = groups(root, "arrow move")
    assert move.get("data-path") == "SOD"
    line = drawn_line(move)
    code = code_position(root, "SOD")
    sod = (code[0], code[1] + 15.5)  # where SOD's units stand, under its code
    assert distance_to_line(sod, line) < 6
    assert distance_to_line(sod, [line[0], line[-1]]) > 30  # not the straight line BUR - EAS


def test_assault_arrows_end_at_the_station(chicago: GameMap, start: GameState) -> None:
    arrows = [Arrow("assault", "unione", "LIT", "LOO", True), Arrow("assault", "valley", "LOO", "LOO", False)]
    root = parse(render_svg(chicago, start, arrows=arrows))
    assert len(groups(root, "arrow assault succeeded")) == 1
    assert len(groups(root, "arrow assault failed")) == 1


def test_identical_inputs_give_identical_bytes(chicago: GameMap, start: GameState) -> None:
    st = busy(start)
    assert render_svg(chicago, st, arrows=sample_arrows()) == render_svg(chicago, st.copy(), arrows=sample_arrows())
    png = render_png(chicago, st, arrows=sample_arrows(), width=500)
    assert png == render_png(chicago, st.copy(), arrows=sample_arrows(), width=500)
    # the order of the state's lists does not matter either
    shuffled = st.copy()
    shuffled.units.reverse()
    assert render_svg(chicago, shuffled) == render_svg(chicago, st)


def test_legend_title_and_language(chicago: GameMap, start: GameState) -> None:
    en = parse(render_svg(chicago, start))
    assert "Spring 1924" in texts(en)
    assert en.findtext(f"{NS}title") == "Spring 1924"
    legend = en.find(f".//{NS}g[@id='legend']")
    assert legend is not None
    words = texts(legend)
    assert {g.name for g in chicago.gangs.values()} <= set(words)
    assert {"delivery man (L)", "henchman (H)", "supply zone", "move", "support", "retreat"} <= set(words)
    fr = parse(render_svg(chicago, start, title="Automne 1925 — bulletin", language="fr"))
    assert "Automne 1925 — bulletin" in texts(fr)
    assert {"livreur (L)", "entrepôt", "avance", "soutien", "Lac Michigan"} <= set(texts(fr))
    with pytest.raises(PictureError, match="unknown language 'de'"):
        render_svg(chicago, start, language="de")


@pytest.mark.parametrize(
    ("arrow", "message"),
    [
        (Arrow("move", "valley", "LOO", "XYZ", True), "unknown district 'XYZ'"),
        (Arrow("jump", "valley", "LOO", "NSS", True), "unknown kind 'jump'"),
        (Arrow("move", "capone", "LOO", "NSS", True), "unknown gang 'capone'"),
        (Arrow("assault", "valley", "LOO", "NSS", True), "NSS has no police station"),
    ],
)
def test_bad_arrows_are_refused_with_a_reason(chicago: GameMap, start: GameState, arrow: Arrow, message: str) -> None:
    with pytest.raises(PictureError, match=re.escape(message)):
        render_svg(chicago, start, arrows=[arrow])


# -- the PNG ---------------------------------------------------------------------------


def test_png_opens_at_the_requested_width_with_the_svg_proportions(chicago: GameMap, start: GameState) -> None:
    root = parse(render_svg(chicago, start))
    ratio = float(root.get("height", "0")) / float(root.get("width", "1"))
    for width in (1000, 640):
        image = Image.open(BytesIO(render_png(chicago, busy(start), arrows=sample_arrows(), width=width)))
        assert image.format == "PNG"
        assert image.size == (width, round(width * ratio)) == png_size(chicago, start, width)
    with pytest.raises(PictureError, match="width 50"):
        render_png(chicago, start, width=50)


def _pixels(png: bytes) -> dict[tuple[int, int, int], int]:
    image = Image.open(BytesIO(png)).convert("RGB")
    return {colour: n for n, colour in image.getcolors(1 << 22) or []}


def test_png_fills_districts_in_their_controllers_fill(chicago: GameMap, start: GameState) -> None:
    def rgb(colour: str) -> tuple[int, int, int]:
        return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)

    pixels = _pixels(render_png(chicago, start, width=600))
    for g in chicago.gangs.values():
        assert pixels.get(rgb(district_fill(g)), 0) > 2000, g.key
    neutral = start.copy()
    neutral.control.clear()
    pixels = _pixels(render_png(chicago, neutral, width=600))
    for g in chicago.gangs.values():
        assert pixels.get(rgb(district_fill(g)), 0) < 500, g.key  # only the legend's swatch is left
    assert pixels.get(rgb(NEUTRAL), 0) > 100_000


class _FullCanvasPainter(_Painter):
    """The plain way, for reference: every translucent group on a layer as big as the
    canvas (shapes are drawn by the painter's own methods)."""

    def draw(self, items: Iterable[Item], image: Image.Image) -> None:
        for item in items:
            if isinstance(item, Group) and item.opacity < 1:
                layer = Image.new("RGBA", image.size, (0, 0, 0, 0))
                self.draw(item.items, layer)
                layer.putalpha(layer.getchannel("A").point([round(a * item.opacity) for a in range(256)]))
                if image.mode == "RGBA":
                    image.alpha_composite(layer)
                else:
                    image.paste(layer, (0, 0), layer)
            elif isinstance(item, Group):
                self.draw(item.items, image)
            else:
                super().draw([item], image)


def _reference_png(scene: Scene, width: int) -> Image.Image:
    """The picture drawn the plain way: full-canvas layers, scaled down with LANCZOS."""
    k = width / scene.width
    painter = _FullCanvasPainter(scene, k * SUPERSAMPLE)
    painter.draw(scene.items, painter.image)
    return painter.image.resize((width, round(scene.height * k)), Image.Resampling.LANCZOS)


def test_png_layers_at_their_own_size_give_the_same_picture(chicago: GameMap, start: GameState) -> None:
    """Translucent arrows are drawn on layers just their size and the picture is scaled
    down in one pass: the pixels differ from the plain way's only at smoothed edges."""
    scene = build_scene(chicago, busy(start), arrows=sample_arrows() * 3)
    width = 800
    ours = Image.open(BytesIO(scene_png(scene, width))).convert("RGB")
    ref = _reference_png(scene, width)
    assert ours.size == ref.size
    diff = ImageChops.difference(ours, ref).convert("L").histogram()
    n = ours.size[0] * ours.size[1]
    mean = sum(level * count for level, count in enumerate(diff)) / n
    assert mean < 1.5  # grey levels out of 255, over the whole picture
    assert sum(diff[33:]) / n < 0.005  # a visible difference on fewer than 0.5% of the pixels
    assert sum(diff[97:]) < 20  # and nothing stands out: no arrow moved, lost or doubled
    # before the scaling down, the layers at their own size change no pixel at all
    k = width / scene.width * SUPERSAMPLE
    plain, small = _FullCanvasPainter(scene, k), _Painter(scene, k)
    plain.draw(scene.items, plain.image)
    small.draw(scene.items, small.image)
    assert ImageChops.difference(plain.image, small.image).getbbox() is None


def test_png_translucent_labels_on_layers_their_size_change_no_pixel(chicago: GameMap, start: GameState) -> None:
    """Dislodged units are faded markers with their letter on them, a translucent group
    holding text: its layer is just the size the text can reach, and the picture is the
    one full-canvas layers give, pixel for pixel, at the edges of the picture too."""
    ghosts = (
        Dislodged("westside", UnitKind.H, "SLA", "ARC"),
        Dislodged("ragen", UnitKind.L, "WLA", None),
        Dislodged("valley", UnitKind.L, "LOO", "GOL"),
    )
    scene = build_scene(chicago, busy(start), arrows=sample_arrows(), dislodged=ghosts)
    words = ("W", "Wagon — MMM", "entrepôt Unités", "iiii", "H")
    edges = tuple(
        Group(
            (),
            (
                Poly((((x - 4.0, y - 4.0), (x + 4.0, y - 4.0), (x + 4.0, y + 4.0)),), Paint(fill="#aa3322")),
                Label((x, y), text, size, "#224488", anchor=anchor, bold=bold, halo=halo),
            ),
            0.6,
        )
        for (x, y), text, size, anchor, bold, halo in zip(
            ((1.0, 1.0), (scene.width - 2.0, 5.0), (0.5, scene.height - 1.0), (300.0, 400.0), (999.0, 1.0)),
            words,
            (16.0, 22.0, 13.0, 30.0, 9.5),
            ("start", "end", "middle", "middle", "end"),
            (True, False, True, False, True),
            (0.0, 2.5, 1.0, 3.0, 0.0),
            strict=True,
        )
    )
    scene = Scene(scene.width, scene.height, scene.title, (*scene.items, *edges))
    for k in (1.6, 800 / scene.width * SUPERSAMPLE, 2.0):
        plain, small = _FullCanvasPainter(scene, k), _Painter(scene, k)
        plain.draw(scene.items, plain.image)
        small.draw(scene.items, small.image)
        assert ImageChops.difference(plain.image, small.image).getbbox() is None, k


def test_png_font_draws_every_legend_word(chicago: GameMap) -> None:
    """The font Pillow always has lacks accents and dashes: they are drawn by hand."""
    for words in (_words(lang) for lang in languages()):
        for text in [*words.values(), *(g.name for g in chicago.gangs.values()), "Automne 1925 — bulletin"]:
            base, _ = _shape_text(text)
            assert all(_has_glyph(ch) for ch in base), text
            assert "?" not in base or "?" in text
    assert _shape_text("entrepôt")[1] == ((6, 6, "circumflex"),)
    assert _shape_text("Unités")[0] == "Unites"
    assert _shape_text("a — b")[1] == ((2, 4, "dash"),)


# -- any position ---------------------------------------------------------------------


@st_.composite
def positions(draw: st_.DrawFn, gmap: GameMap) -> tuple[GameState, list[Arrow]]:
    st = initial_state(gmap)
    codes = list(gmap.districts)
    gangs = list(gmap.gangs)
    places = draw(st_.lists(st_.sampled_from(codes), min_size=0, max_size=30, unique=True))
    st.units = []
    for code in places:
        gang = draw(st_.sampled_from(gangs))
        kinds = draw(st_.sampled_from([("H",), ("L",), ("H", "L")]))
        st.units += [Unit(code, UnitKind(k), gang) for k in kinds]
    st.control = {c: draw(st_.sampled_from(gangs)) for c in draw(st_.lists(st_.sampled_from(codes), unique=True))}
    arrows = []
    for _ in range(draw(st_.integers(0, 8))):
        kind = draw(st_.sampled_from(["move", "support", "transport", "retreat", "assault"]))
        a, b = draw(st_.sampled_from(codes)), draw(st_.sampled_from(codes))
        if kind == "assault":
            b = draw(st_.sampled_from(gmap.stations()))
        path = tuple(draw(st_.lists(st_.sampled_from(codes), max_size=2)))
        target = draw(st_.none() | st_.sampled_from(codes)) if kind == "support" else None
        arrows.append(Arrow(kind, draw(st_.sampled_from(gangs)), a, b, draw(st_.booleans()), path, target))
    return st, arrows


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st_.data())
def test_any_position_renders(chicago: GameMap, data: st_.DataObject) -> None:
    st, arrows = data.draw(positions(chicago))
    root = parse(render_svg(chicago, st, arrows=arrows))
    assert len(groups(root, "unit")) == len(st.units)
    assert len(groups(root, "arrow")) == len(set(arrows))
    assert len(groups(root, "district")) == len(chicago.districts)


def test_a_map_without_a_lake_gets_its_legend_beside_it(tmp_path: Path) -> None:
    """Another map: two square districts side by side, no water east of them."""
    square = [[0.0, 0.0], [0.01, 0.0], [0.01, 0.01], [0.0, 0.01], [0.0, 0.0]]
    features = [
        {
            "type": "Feature",
            "properties": {"code": code, "name": code.title()},
            "geometry": {"type": "Polygon", "coordinates": [[[x + dx, y] for x, y in square]]},
        }
        for code, dx in (("AAA", 0.0), ("BBB", 0.01))
    ]
    (tmp_path / "tiny.geojson").write_text(json.dumps({"type": "FeatureCollection", "features": features}))
    raw = {
        "name": "tiny",
        "geometry": "tiny.geojson",
        "districts": [
            {"code": "AAA", "name": "Aaa", "area": 1, "precinct": "AAA", "neighbours": ["BBB"], "station": "A st."},
            {"code": "BBB", "name": "Bbb", "area": 2, "precinct": "AAA", "neighbours": ["AAA"], "feature": "supply"},
        ],
        "gangs": [{"key": "reds", "name": "Reds", "colour": "#c0392b", "homes": ["AAA"], "units": ["H AAA"]}],
        "scenario": {"start": "spring-1924", "cash": 20.0, "price": 3.0},
        "raid_table": {"BBB": 1},
    }
    gmap = build_map(raw, source=str(tmp_path / "tiny.yaml"), base=tmp_path)
    st = initial_state(gmap)
    root = parse(render_svg(gmap, st, arrows=[Arrow("assault", "reds", "AAA", "AAA", True)]))
    assert root.find(f".//{NS}g[@id='lake']") is None
    width = float(root.get("width", "0"))
    assert width > 1000  # the legend stands in a column east of the map
    legend = root.find(f".//{NS}g[@id='legend']")
    assert legend is not None
    box = path_points(legend[0].get("d", ""))
    assert min(x for x, _ in box) > 986 and max(x for x, _ in box) <= width
    assert max(y for _, y in box) <= float(root.get("height", "0"))
    image = Image.open(BytesIO(render_png(gmap, st, width=800)))
    assert image.size == (800, round(800 * float(root.get("height", "0")) / width))


# -- readable at the mail's width ------------------------------------------------------

MAIL_WIDTH = 672  # the width the reports' HTML shows the map at (img.map)


def _text_box(t: ET.Element) -> tuple[float, float, float, float]:
    """A label's box as the PNG draws it (its font's advance, the text's height)."""
    size = float(t.get("font-size", "0"))
    x, y = float(t.get("x", "0")), float(t.get("y", "0"))
    w = _font(size).getlength(t.text or "") + (2 * round(size * 0.035) if t.get("font-weight") == "bold" else 0)
    left = {"start": x, "middle": x - w / 2, "end": x - w}[t.get("text-anchor", "start")]
    return left, y - 0.36 * size, left + w, y + 0.36 * size


def _apart(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]


@pytest.mark.parametrize("language", ["en", "fr"])
def test_labels_are_readable_at_the_mails_width(chicago: GameMap, start: GameState, language: str) -> None:
    """Shown 672 px wide in a mail, the 1000 px picture keeps its district codes and unit
    letters at 10 px or more, its legend at 8.5 px, every other word at 7 px; the legend
    stays in the lake (the picture 1000 wide) with its words inside its box; no district
    code runs into another or into its own district's symbols."""
    root = parse(render_svg(chicago, busy(start), arrows=sample_arrows(), language=language))
    width = float(root.get("width", "0"))
    assert width == 1000
    shown = MAIL_WIDTH / width

    def sizes(group_id: str) -> list[float]:
        group = root.find(f".//{NS}g[@id='{group_id}']")
        assert group is not None
        return [float(t.get("font-size", "0")) * shown for t in group.iter(f"{NS}text")]

    codes, letters, legend = sizes("labels"), sizes("units"), sizes("legend")
    assert len(codes) == len(chicago.districts) and len(letters) == len(busy(start).units)
    assert min(codes + letters) >= 10.0
    assert min(legend) >= 8.5
    assert min(float(t.get("font-size", "0")) * shown for t in root.iter(f"{NS}text")) >= 7.0

    box = root.find(f".//{NS}g[@id='legend']/{NS}path")
    assert box is not None
    xs = [x for x, _ in path_points(box.get("d", ""))]
    legend_group = root.find(f".//{NS}g[@id='legend']")
    assert legend_group is not None
    for t in legend_group.iter(f"{NS}text"):
        left, _, right, _ = _text_box(t)
        assert min(xs) < left and right < max(xs) <= width, t.text

    labels = root.find(f".//{NS}g[@id='labels']")
    assert labels is not None
    boxes = {t.text or "": _text_box(t) for t in labels.iter(f"{NS}text")}
    for (a, box_a), (b, box_b) in itertools.combinations(boxes.items(), 2):
        assert _apart(box_a, box_b), (a, b)
    for g in groups(root, "station") + [g for g in root.iter(f"{NS}g") if "feature" in g.get("class", "")]:
        points = [p for d in g.iter(f"{NS}path") for p in path_points(d.get("d", ""))]
        points += [
            (float(c.get("cx", "0")) + dx * float(c.get("r", "0")), float(c.get("cy", "0")))
            for c in g.iter(f"{NS}circle")
            for dx in (-1, 1)
        ]
        symbol = (
            min(x for x, _ in points),
            min(y for _, y in points),
            max(x for x, _ in points),
            max(y for _, y in points),
        )
        assert _apart(boxes[g.get("data-code", "")], symbol), g.get("data-code")
