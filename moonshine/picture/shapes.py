"""The scene a picture is built as, before it is written: plain shapes (polygons,
lines, circles, labels, groups) in a coordinate system 1000 units wide, with their
paint; the palette every picture shares, and the geometry of points and paths the
scenes are drawn with. A variant builds its scene from its state
(``moonshine.variants.moonshine.scene``, ``moonshine.variants.classic.scene``);
``moonshine.picture.svg`` and ``moonshine.picture.png`` write any scene out."""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from typing import TypeAlias

import msgspec

from moonshine.errors import MoonshineError
from moonshine.picture.colours import mix


class PictureError(MoonshineError, ValueError):
    """The picture cannot be drawn from what it was given (unknown district, gang, kind...)."""


BACKGROUND = "#ffffff"


BORDER = "#7d7d7d"


TEXT = "#222222"


HALO = "#ffffff"


SYMBOL_INK = "#333333"


def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def ink(colour: str) -> str:
    """A darker shade of a gang colour for lines and outlines."""
    return mix(colour, "#000000", 0.78)


def luminance(colour: str) -> float:
    r, g, b = _rgb(colour)
    return (0.299 * r + 0.587 * g + 0.114 * b) / 255


def relative_luminance(colour: str) -> float:
    """WCAG 2's relative luminance of an sRGB colour: 0 for black, 1 for white."""

    def linear(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = _rgb(colour)
    return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)


def contrast_ratio(one: str, other: str) -> float:
    """WCAG 2's contrast ratio of two colours, from 1 (the same) to 21 (black on white);
    text wants 4.5 or more."""
    a, b = sorted((relative_luminance(one), relative_luminance(other)), reverse=True)
    return (a + 0.05) / (b + 0.05)


def text_on(colour: str) -> str:
    """The letters on a fill of this colour: black or white, whichever stands out more
    (WCAG's contrast ratio: at least 4.58 on any fill, since the two ratios multiply
    to 21)."""
    return "#000000" if contrast_ratio(colour, "#000000") >= contrast_ratio(colour, "#ffffff") else "#ffffff"


Pt: TypeAlias = tuple[float, float]


class Paint(msgspec.Struct, frozen=True):
    fill: str | None = None
    stroke: str | None = None
    width: float = 0.0
    dash: tuple[float, float] | None = None


class Poly(msgspec.Struct, frozen=True):
    """Closed rings filled even-odd (an outer ring and its holes)."""

    rings: tuple[tuple[Pt, ...], ...]
    paint: Paint


class Line(msgspec.Struct, frozen=True):
    """An open polyline with round caps and joins."""

    points: tuple[Pt, ...]
    paint: Paint


class Circle(msgspec.Struct, frozen=True):
    centre: Pt
    r: float
    paint: Paint


class Label(msgspec.Struct, frozen=True):
    at: Pt
    text: str
    size: float
    colour: str = TEXT
    anchor: str = "middle"  # start, middle, end
    bold: bool = False
    italic: bool = False
    halo: float = 0.0  # width of a white outline behind the text


class Group(msgspec.Struct, frozen=True):
    attrs: tuple[tuple[str, str], ...]
    items: tuple[Item, ...]
    opacity: float = 1.0


Item: TypeAlias = Poly | Line | Circle | Label | Group


class Scene(msgspec.Struct, frozen=True):
    width: float
    height: float
    title: str
    items: tuple[Item, ...]
    # the label cache the PNG writer keeps this picture's labels in: one per map, named
    # by the map's content (``labels_name``); "" for pictures of no map (the charts)
    labels: str = ""


def labels_name(*content: str | bytes) -> str:
    """The name of the label cache of the pictures of a map, from what makes the map
    (its geometry, its codes...): each map gets its own, so that one map's labels never
    weigh on another's pictures."""
    import hashlib

    digest = hashlib.sha256()
    for part in content:
        data = part.encode() if isinstance(part, str) else part
        digest.update(len(data).to_bytes(8, "big") + data)
    return digest.hexdigest()[:32]


def vec_sub(a: Pt, b: Pt) -> Pt:
    return a[0] - b[0], a[1] - b[1]


def vec_add(a: Pt, b: Pt) -> Pt:
    return a[0] + b[0], a[1] + b[1]


def vec_mul(a: Pt, k: float) -> Pt:
    return a[0] * k, a[1] * k


def vec_len(a: Pt) -> float:
    return math.hypot(a[0], a[1])


def vec_unit(a: Pt) -> Pt:
    n = vec_len(a)
    return (0.0, 0.0) if n == 0 else (a[0] / n, a[1] / n)


def vec_right(d: Pt) -> Pt:
    """The normal to the right of travel along ``d`` (screen coordinates, y down)."""
    return -d[1], d[0]


def path_length(points: Sequence[Pt]) -> float:
    return sum(vec_len(vec_sub(q, p)) for p, q in itertools.pairwise(points))


def point_at(points: Sequence[Pt], dist: float) -> Pt:
    """The point ``dist`` along the polyline (clamped to its ends)."""
    if dist <= 0:
        return points[0]
    for p, q in itertools.pairwise(points):
        seg = vec_len(vec_sub(q, p))
        if dist <= seg and seg > 0:
            return vec_add(p, vec_mul(vec_sub(q, p), dist / seg))
        dist -= seg
    return points[-1]


def cut_path(points: Sequence[Pt], start: float, end: float) -> tuple[Pt, ...]:
    """The part of the polyline from ``start`` along it to ``end`` before its end."""
    total = path_length(points)
    a, b = start, total - end
    if b - a < 1.0:  # too short to trim: keep a short stub around the middle
        mid = (a + b) / 2
        a, b = mid - 0.5, mid + 0.5
    out = [point_at(points, a)]
    run = 0.0
    for p, q in itertools.pairwise(points):
        run += vec_len(vec_sub(q, p))
        if a < run < b:
            out.append(q)
    out.append(point_at(points, b))
    return tuple(out)


def smooth_path(points: Sequence[Pt], steps: int = 10) -> tuple[Pt, ...]:
    """A Catmull-Rom curve through the points (unchanged for a straight line)."""
    if len(points) < 3:
        return tuple(points)
    ext = [vec_sub(vec_mul(points[0], 2), points[1]), *points, vec_sub(vec_mul(points[-1], 2), points[-2])]
    out: list[Pt] = [points[0]]
    for i in range(1, len(ext) - 2):
        p0, p1, p2, p3 = ext[i - 1], ext[i], ext[i + 1], ext[i + 2]
        for s in range(1, steps + 1):
            t = s / steps
            t2, t3 = t * t, t * t * t
            out.append(
                (
                    0.5
                    * (
                        2 * p1[0]
                        + (-p0[0] + p2[0]) * t
                        + (2 * p0[0] - 5 * p1[0] + 4 * p2[0] - p3[0]) * t2
                        + (-p0[0] + 3 * p1[0] - 3 * p2[0] + p3[0]) * t3
                    ),
                    0.5
                    * (
                        2 * p1[1]
                        + (-p0[1] + p2[1]) * t
                        + (2 * p0[1] - 5 * p1[1] + 4 * p2[1] - p3[1]) * t2
                        + (-p0[1] + 3 * p1[1] - 3 * p2[1] + p3[1]) * t3
                    ),
                )
            )
    return tuple(out)


def shift_right(points: Sequence[Pt], by: float) -> tuple[Pt, ...]:
    """Move every point ``by`` to the right of travel, so that two arrows between the
    same districts in opposite directions lie side by side."""
    if len(points) < 2:
        return tuple(points)
    out: list[Pt] = []
    for i, p in enumerate(points):
        normals = []
        if i > 0:
            normals.append(vec_right(vec_unit(vec_sub(p, points[i - 1]))))
        if i < len(points) - 1:
            normals.append(vec_right(vec_unit(vec_sub(points[i + 1], p))))
        n = vec_unit((sum(v[0] for v in normals), sum(v[1] for v in normals)))
        out.append(vec_add(p, vec_mul(n, by)))
    return tuple(out)


def regular_polygon(centre: Pt, r_out: float, r_in: float, spikes: int, turn: float = -math.pi / 2) -> tuple[Pt, ...]:
    """A star (or, with r_in == r_out, a regular polygon) around ``centre``."""
    pts: list[Pt] = []
    for i in range(spikes * 2):
        r = r_out if i % 2 == 0 else r_in
        a = turn + math.pi * i / spikes
        pts.append((centre[0] + r * math.cos(a), centre[1] + r * math.sin(a)))
    return tuple(pts)


def rounded_rect(x: float, y: float, w: float, h: float, r: float) -> tuple[Pt, ...]:
    pts: list[Pt] = []
    corners = ((x + w - r, y + r, -90), (x + w - r, y + h - r, 0), (x + r, y + h - r, 90), (x + r, y + r, 180))
    for cx, cy, a0 in corners:
        for s in range(5):
            a = math.radians(a0 + s * 22.5)
            pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return tuple(pts)


def moved(item: Item, dx: float, dy: float) -> Item:
    """The item shifted by (dx, dy); a group with everything in it."""

    def mv(p: Pt) -> Pt:
        return p[0] + dx, p[1] + dy

    if isinstance(item, Poly):
        return Poly(tuple(tuple(mv(p) for p in ring) for ring in item.rings), item.paint)
    if isinstance(item, Line):
        return Line(tuple(mv(p) for p in item.points), item.paint)
    if isinstance(item, Circle):
        return Circle(mv(item.centre), item.r, item.paint)
    if isinstance(item, Label):
        return Label(mv(item.at), item.text, item.size, item.colour, item.anchor, item.bold, item.italic, item.halo)
    return Group(item.attrs, tuple(moved(i, dx, dy) for i in item.items), item.opacity)


Box: TypeAlias = tuple[float, float, float, float]  # x0, y0, x1, y1 in scene units


def paint_reach(paint: Paint) -> float:
    """How far a shape's paint reaches beyond its geometry (half the stroke)."""
    return paint.width / 2 if paint.stroke else 0.0


def label_reach(label: Label) -> tuple[float, float]:
    """How far a label's ink can reach from its point, across and up or down, in scene
    units: more than its glyphs (none of the font's is wider than its size), their
    stroke and halo, and the accents and dashes drawn by hand can take."""
    margin = label.size + label.halo
    return label.size * len(label.text) + margin, 1.5 * label.size + margin


def _around(points: Sequence[Pt], reach: float) -> Box:
    """The box of ``points`` widened by ``reach`` on every side (an empty one for none)."""
    if not points:
        return (math.inf, math.inf, -math.inf, -math.inf)
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    return (min(xs) - reach, min(ys) - reach, max(xs) + reach, max(ys) + reach)


def extent(items: Iterable[Item]) -> Box | None:
    """The scene-unit box holding everything these items draw (a label's by a generous
    estimate), or None when there is nothing to draw."""
    x0 = y0 = math.inf
    x1 = y1 = -math.inf
    for item in items:
        if isinstance(item, Group):
            inner = extent(item.items)
            if inner is None:
                return None
            box = inner
        elif isinstance(item, Poly):
            box = _around([p for ring in item.rings for p in ring], paint_reach(item.paint))
        elif isinstance(item, Line):
            box = _around(item.points, paint_reach(item.paint))
        elif isinstance(item, Circle):
            r = item.r + paint_reach(item.paint)
            box = (item.centre[0] - r, item.centre[1] - r, item.centre[0] + r, item.centre[1] + r)
        else:
            across, up = label_reach(item)
            box = (item.at[0] - across, item.at[1] - up, item.at[0] + across, item.at[1] + up)
        x0, y0, x1, y1 = min(x0, box[0]), min(y0, box[1]), max(x1, box[2]), max(y1, box[3])
    return (x0, y0, x1, y1) if x0 <= x1 else None
