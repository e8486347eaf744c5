"""Charts of a game over its turns: victory points per gang, the price of
alcohol, supply centres per power. A chart is a value (``Chart``); ``scene``
lays it out as a picture scene, which ``moonshine.picture.svg`` and ``moonshine.picture.png`` write,
so charts and maps share one drawing code and no plotting library is needed.

Each line ends in a label with the series' name and its last value, so a reader
never has to match colours against a legend; a series also carries a letter
drawn in its markers, for readers who tell colours apart badly. Pure: values in,
a scene out.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import msgspec

from moonshine.picture.colours import mix
from moonshine.picture.png import scene_png
from moonshine.picture.shapes import TEXT, Circle, Item, Label, Line, Paint, Scene
from moonshine.picture.svg import scene_svg

WIDTH, HEIGHT = 640.0, 360.0
GRID = "#d9d4c7"
AXIS = "#6b6457"
TARGET = "#9b2d20"
FONT, SMALL, TITLE = 12.0, 11.0, 16.0
LABEL_GAP = 13.0  # the least vertical distance between two end labels
LABEL_ADVANCE = 0.62  # a generous mean advance of a character of the labels, in ems


class Series(msgspec.Struct, frozen=True):
    name: str
    colour: str
    values: tuple[float | None, ...]  # one per turn; None: not in the game then
    letter: str = ""


class Chart(msgspec.Struct, frozen=True):
    title: str
    turns: tuple[str, ...]  # the x axis, oldest first
    series: tuple[Series, ...]
    unit: str = ""  # after each end value: "$" before it when unit == "$"
    target: float | None = None  # a dashed line, e.g. the VP that win
    target_label: str = ""


def nice_ticks(low: float, high: float, most: int = 6) -> list[float]:
    """Round numbers from at most ``low`` to at least ``high``."""
    if high <= low:
        high = low + 1
    raw = (high - low) / max(most - 1, 1)
    step = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 2.5, 5, 10):
        if raw <= m * step:
            step *= m
            break
    first = math.floor(low / step) * step
    if first > low:  # low / step underflowed to zero
        first -= step
    ticks = [round(first, 10)]
    while ticks[-1] < high - 1e-9 * step or len(ticks) < 2:
        ticks.append(round(ticks[-1] + step, 10))
    return ticks


def _fmt(v: float, unit: str = "") -> str:
    if unit == "$":
        return f"${v:.2f}" if v != int(v) else f"${int(v)}"
    text = f"{v:g}" if v != int(v) else str(int(v))
    return f"{text}{unit}"


def _spread(wanted: list[tuple[float, int]], low: float, high: float) -> dict[int, float]:
    """Label heights near the wanted ones, at least LABEL_GAP apart, inside [low, high]:
    labels that would overlap are stacked centred on the heights they want (so a
    crowd of lines ending together is labelled about where they end, not fanned out
    below them)."""
    clusters: list[list[tuple[float, int]]] = []  # each: its labels, wanted heights in order
    for y, i in sorted(wanted):
        clusters.append([(y, i)])
        while len(clusters) > 1 and _first(clusters[-1]) < _first(clusters[-2]) + LABEL_GAP * len(clusters[-2]):
            last = clusters.pop()
            clusters[-1].extend(last)
    order = [i for cluster in clusters for _, i in cluster]
    heights = [_first(cluster) + LABEL_GAP * k for cluster in clusters for k in range(len(cluster))]
    # then kept inside [low, high] and LABEL_GAP apart: pushed up from the bottom edge,
    # then down from the top one (both hold whenever the labels fit between them)
    for k in reversed(range(len(heights))):
        heights[k] = min(heights[k], high if k == len(heights) - 1 else heights[k + 1] - LABEL_GAP)
    for k in range(len(heights)):
        heights[k] = max(heights[k], low if k == 0 else heights[k - 1] + LABEL_GAP)
    return {int(i): y for i, y in zip(order, heights, strict=True)}


def _first(cluster: list[tuple[float, int]]) -> float:
    """Where a stack of labels starts when centred on the heights they want."""
    mean = sum(y for y, _ in cluster) / len(cluster)
    return mean - LABEL_GAP * (len(cluster) - 1) / 2


def scene(chart: Chart) -> Scene:
    """The chart laid out on a 640 x 360 canvas."""
    values = [v for s in chart.series for v in s.values if v is not None]
    if chart.target is not None:
        values.append(chart.target)
    low = min([0.0, *values])
    high = max([1.0, *values])
    ticks = nice_ticks(low, high)
    y0, y1 = ticks[0], ticks[-1]
    label_width = max((len(f"{s.name} {_fmt(_last(s) or 0, chart.unit)}") for s in chart.series), default=0)
    # the end labels (a badge, then the name and value from right + 27) fit inside the picture
    left, right = 44.0, WIDTH - min(260.0, 27.0 + LABEL_ADVANCE * FONT * label_width + 8.0)
    top, bottom = 48.0, HEIGHT - 40.0

    def x(i: int) -> float:
        n = len(chart.turns)
        return left + (right - left) * (i / (n - 1) if n > 1 else 0.5)

    def y(v: float) -> float:
        return bottom - (bottom - top) * (v - y0) / (y1 - y0)

    items: list[Item] = [Label((12.0, 22.0), chart.title, TITLE, TEXT, "start", bold=True)]
    for t in ticks:
        items.append(Line(((left, y(t)), (right, y(t))), Paint(stroke=GRID, width=1.0)))
        items.append(Label((left - 6, y(t)), _fmt(t, chart.unit), SMALL, AXIS, "end"))
    step = max(1, math.ceil(len(chart.turns) / 8))  # at most about eight turn names
    final = len(chart.turns) - 1
    for i, name in enumerate(chart.turns):
        if i % step == 0 or (i == final and (final % step) * (x(1) - x(0)) >= 36):
            items.append(Line(((x(i), bottom), (x(i), bottom + 4)), Paint(stroke=AXIS, width=1.0)))
            items.append(Label((x(i), bottom + 16), name, SMALL, AXIS, "middle"))
    items.append(Line(((left, bottom), (right, bottom)), Paint(stroke=AXIS, width=1.2)))
    if chart.target is not None:
        ty = y(chart.target)
        items.append(Line(((left, ty), (right, ty)), Paint(stroke=TARGET, width=1.4, dash=(6.0, 4.0))))
        if chart.target_label:
            items.append(Label((left + 4, ty - 9), chart.target_label, SMALL, TARGET, "start", halo=3.0))
    ends: list[tuple[float, int]] = []
    for k, s in enumerate(chart.series):
        runs: list[list[tuple[float, float]]] = [[]]
        for i, v in enumerate(s.values):
            if v is None:
                runs.append([])
            else:
                runs[-1].append((x(i), y(v)))
        for run in (r for r in runs if len(r) > 1):
            if _light(s.colour):  # a pale line gets a darker edge to stand out on white
                items.append(Line(tuple(run), Paint(stroke=_edge(s.colour), width=4.0)))
            items.append(Line(tuple(run), Paint(stroke=s.colour, width=2.4)))
        last = _last(s)
        if last is not None:
            ends.append((y(last), k))
    for s in chart.series:
        for i, v in enumerate(s.values):
            if v is not None:
                edge = _edge(s.colour) if _light(s.colour) else "#ffffff"
                items.append(Circle((x(i), y(v)), 3.2, Paint(fill=s.colour, stroke=edge, width=1.0)))
    heights = _spread(ends, top, bottom)
    for k, s in enumerate(chart.series):
        if k not in heights:
            continue
        i = max(i for i, v in enumerate(s.values) if v is not None)
        ly = heights[k]
        end = (x(i), y(_last(s) or 0.0))
        items.append(Line((end, (right + 8, ly)), Paint(stroke=s.colour, width=1.0)))
        badge = (right + 16, ly)
        items.append(
            Circle(badge, 7.0, Paint(fill=s.colour, stroke=_edge(s.colour) if _light(s.colour) else None, width=1.0))
        )
        if s.letter:
            items.append(Label(badge, s.letter, 9.0, _ink(s.colour), "middle", bold=True))
        text = f"{s.name} {_fmt(_last(s) or 0.0, chart.unit)}"
        items.append(Label((right + 27, ly), text, FONT, TEXT, "start"))
    return Scene(WIDTH, HEIGHT, chart.title, tuple(items))


def _last(s: Series) -> float | None:
    return next((v for v in reversed(s.values) if v is not None), None)


def _brightness(colour: str) -> float:
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255


def _light(colour: str) -> bool:
    return _brightness(colour) > 0.75


def _edge(colour: str) -> str:
    return mix(colour, TEXT, 0.55)


def _ink(colour: str) -> str:
    return TEXT if _brightness(colour) > 0.6 else "#ffffff"


def svg(chart: Chart) -> str:
    return scene_svg(scene(chart))


def png(chart: Chart, width: int = 640) -> bytes:
    return scene_png(scene(chart), width)


# -- charts of a game ---------------------------------------------------------------


def vp_chart(
    title: str,
    turns: Sequence[str],
    vp: Sequence[Mapping[str, int]],
    gangs: Mapping[str, tuple[str, str]],
    *,
    target: float | None = None,
    target_label: str = "",
) -> Chart:
    """Victory points per gang after each turn. ``gangs``: key -> (name, colour),
    in the map's order; ``vp``: one mapping per turn."""
    series = tuple(
        Series(name, colour, tuple(float(v[k]) if k in v else None for v in vp), name[:1].upper())
        for k, (name, colour) in gangs.items()
    )
    return Chart(title, tuple(turns), series, target=target, target_label=target_label)


def price_chart(title: str, turns: Sequence[str], prices: Sequence[float], name: str, colour: str = TEXT) -> Chart:
    """The price of a crate of alcohol at each turn."""
    return Chart(title, tuple(turns), (Series(name, colour, tuple(float(p) for p in prices)),), unit="$")


def centres_chart(
    title: str,
    turns: Sequence[str],
    owners: Sequence[Mapping[str, str]],
    powers: Mapping[str, tuple[str, str]],
    *,
    target: float | None = None,
    target_label: str = "",
) -> Chart:
    """Supply centres per power after each year (classic family): ``owners`` maps
    each centre to its owner, one mapping per point of the chart."""
    series = tuple(
        Series(name, colour, tuple(float(sum(1 for o in own.values() if o == p)) for own in owners), name[:1].upper())
        for p, (name, colour) in powers.items()
    )
    return Chart(title, tuple(turns), series, target=target, target_label=target_label)
