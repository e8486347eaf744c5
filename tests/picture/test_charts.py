"""Charts over a game's turns (moonshine/picture/charts.py): what the SVG holds, the end
labels that never overlap, gaps for turns a series was not there, the PNG."""

from __future__ import annotations

import io
import itertools
import xml.etree.ElementTree as ET

from hypothesis import example, given, settings
from hypothesis import strategies as st
from PIL import Image

from moonshine.picture import charts
from moonshine.picture.charts import LABEL_GAP, Chart, Series, nice_ticks
from moonshine.picture.shapes import Label, Line
from moonshine.variants.moonshine.map import load_map

NS = {"s": "http://www.w3.org/2000/svg"}


def _vp_chart() -> Chart:
    gmap = load_map("chicago-1920s")
    gangs = {k: (g.name, g.colour) for k, g in gmap.gangs.items()}
    vp = [
        {k: 10 + i for i, k in enumerate(gangs)},
        {k: 12 + (i % 3) for i, k in enumerate(gangs) if k != "unione"},
        {k: 14 + (i % 4) for i, k in enumerate(gangs)},
    ]
    return charts.vp_chart("Victory points", ["S24", "A24", "S25"], vp, gangs, target=30, target_label="30 VP win")


def test_svg_holds_a_line_and_an_end_label_per_gang() -> None:
    root = ET.fromstring(charts.svg(_vp_chart()))
    texts = [t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert "Victory points" in texts and "30 VP win" in texts
    assert "Valley Gang 15" in texts and "Ragen's Colts 17" in texts
    assert {"S24", "A24", "S25"} <= set(texts)
    assert {"C", "V", "G", "N", "U", "S", "W", "R"} <= set(texts)  # each gang's letter in its badge


def test_a_gap_splits_the_line() -> None:
    chart = _vp_chart()
    lines = [i for i in charts.scene(chart).items if isinstance(i, Line) and i.paint.width >= 2.4]
    unione = chart.series[[s.name for s in chart.series].index("Unione Siciliana")]
    assert unione.values[1] is None
    drawn = [ln for ln in lines if ln.paint.stroke == unione.colour]
    assert drawn == []  # no two points in a row: a lone point, then another, never joined across the gap
    valley = chart.series[1]
    assert len([ln for ln in lines if ln.paint.stroke == valley.colour]) == 1


def test_png_opens_at_its_size_and_is_the_same_every_time() -> None:
    data = charts.png(_vp_chart(), 640)
    assert data == charts.png(_vp_chart(), 640)
    image = Image.open(io.BytesIO(data))
    assert image.size == (640, 360)


def test_money_is_written_as_money() -> None:
    chart = charts.price_chart("Price", ["S24", "A24"], [3, 3.5], "Price of a crate")
    texts = [i.text for i in charts.scene(chart).items if isinstance(i, Label)]
    assert "Price of a crate $3.50" in texts and "$3" in texts


def test_classic_centres() -> None:
    chart = charts.centres_chart(
        "Supply centres",
        ["1901", "1902"],
        [{"PAR": "FRA", "LON": "ENG"}, {"PAR": "FRA", "LON": "FRA"}],
        {"ENG": ("England", "#1f3b73"), "FRA": ("France", "#56b4e9")},
        target=18,
    )
    assert [s.values for s in chart.series] == [(1.0, 0.0), (1.0, 2.0)]


@settings(max_examples=200, deadline=None)
@example([[None, None, None, 0]] * 3 + [[None, None, None, 1], [None, None, None, 7]])  # stacked at the bottom edge
@given(
    st.lists(
        st.lists(st.one_of(st.none(), st.integers(-5, 60)), min_size=4, max_size=4).filter(
            lambda v: any(x is not None for x in v)
        ),
        min_size=1,
        max_size=12,
    )
)
def test_end_labels_never_overlap_and_stay_on_the_canvas(rows: list[list[int | None]]) -> None:
    series = tuple(
        Series(f"Gang {i}", "#0072b2", tuple(None if v is None else float(v) for v in row), "G")
        for i, row in enumerate(rows)
    )
    scene = charts.scene(Chart("t", ("a", "b", "c", "d"), series))
    ends = sorted(i.at[1] for i in scene.items if isinstance(i, Label) and i.text.startswith("Gang "))
    assert len(ends) == len(rows)
    assert all(b - a >= LABEL_GAP - 1e-6 for a, b in itertools.pairwise(ends))
    assert all(0 <= y <= scene.height for y in ends)


@example(-5e-324, 6.0)  # low / step underflows to zero
@example(1.192092896e-07, 1000.0)  # a top a ten-millionth over a round tick: no extra tick for it
@given(st.floats(-1000, 1000), st.floats(0.001, 1000))
def test_ticks_cover_the_range_with_round_steps(low: float, span: float) -> None:
    ticks = nice_ticks(low, low + span)
    steps = {round(b - a, 9) for a, b in itertools.pairwise(ticks)}
    assert len(steps) <= 1 and 2 <= len(ticks) <= 8
    step = ticks[1] - ticks[0]
    # the ticks cover the range, but for a top over the last tick by less than a
    # billionth of a step (float noise, not a value a chart shows)
    assert ticks[0] <= low and ticks[-1] >= low + span - 1e-9 * step
