"""The map picture that goes with every report: districts in the colour of the gang
that controls them, features and police stations, units, the turn's orders as
arrows, the raided district and a legend.

The picture is first built as a small scene of plain shapes (polygons, lines,
circles, labels, groups) in a fixed coordinate system 1000 units wide; the same
scene is then written out as SVG (the bytes ElementTree would write) or drawn as PNG
(with Pillow, at twice the size and scaled down to smooth the edges). Output is
deterministic: same inputs, same bytes."""

from __future__ import annotations

import bisect
import functools
import itertools
import math
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeAlias

from PIL import Image, ImageDraw, ImageFont

from moonshine.errors import MoonshineError
from moonshine.geo import Feature, GameMap, UnitKind
from moonshine.geometry import Shape, load_geometry
from moonshine.state import GameState, Unit
from moonshine.text import Catalogue, gettext_for, keyed, languages
from moonshine.turns import Turn

ARROW_KINDS = ("move", "support", "transport", "assault", "retreat")


class PictureError(MoonshineError, ValueError):
    """The picture cannot be drawn from what it was given (unknown district, gang, kind...)."""


@dataclass(frozen=True)
class Arrow:
    """One order of the turn, as drawn on the map.

    - move / retreat: ``start`` -> ``end``; ``path`` holds the intermediate district of
      an L's two-step move (or, for a transported H, its carriers' districts).
    - support: ``start`` is the supporter; ``end`` the supported unit's district;
      ``target_end`` the supported move's destination (or the assaulted station's
      district), None for the support of a unit that holds.
    - transport: ``start`` is the carried H's district, ``path`` the carriers'
      districts in order, ``end`` the destination.
    - assault: ``start`` is the H's district, ``end`` the station's district (may be
      the same district).
    """

    kind: str  # "move", "support", "transport", "assault", "retreat"
    gang: str
    start: str  # district code
    end: str  # district code (for an assault: the station's district)
    succeeded: bool
    path: tuple[str, ...] = ()  # intermediate districts (two-step L move, transport chain)
    target_end: str | None = None  # for a support of a move: the supported move's destination
    target_kind: str = ""  # the supported unit's kind ("H", "L"), to ring the right one


@dataclass(frozen=True)
class Dislodged:
    """A unit dislodged this turn, drawn faded where it stood, with its retreat
    (an arrow of kind ``retreat`` from its district) or, disbanded, crossed out."""

    gang: str
    kind: UnitKind
    district: str
    retreat: str | None  # None: disbanded

    def label(self) -> str:
        return f"{self.kind.value} {self.district}"


# -- words ------------------------------------------------------------------------------

_WORDS: Catalogue = {
    "picture.gangs": "Gangs",
    "picture.neutral": "neutral",
    "picture.units": "Units",
    "picture.H": "henchman (H)",
    "picture.L": "delivery man (L)",
    "picture.districts": "Districts",
    "picture.supply": "supply zone",
    "picture.speakeasy": "speakeasy",
    "picture.warehouse": "warehouse",
    "picture.station": "police station",
    "picture.corrupted": "station corrupted (gang colour)",
    "picture.raid": "raided this turn",
    "picture.orders": "Orders",
    "picture.move": "move",
    "picture.support": "support",
    "picture.transport": "transport",
    "picture.assault": "assault on a station",
    "picture.retreat": "retreat",
    "picture.failed": "failed (any order)",
    "picture.hold_support": "support to a unit that holds",
    "picture.dislodged": "dislodged (crossed: disbanded)",
    "picture.lake": "Lake Michigan",
    "picture.badge": "RAID",
    "picture.spring": "Spring",
    "picture.autumn": "Autumn",
}

# -- colours ----------------------------------------------------------------------------

BACKGROUND = "#ffffff"
NEUTRAL = "#f1eee6"
WATER = "#d6e6f2"
WATER_TEXT = "#5b88ad"
BORDER = "#7d7d7d"
TEXT = "#222222"
HALO = "#ffffff"
SYMBOL_INK = "#333333"
STATION_FILL = "#1f3a93"
RAID_RED = "#d0021b"
CROSS = "#111111"
TINT = 0.42  # share of the gang colour in a controlled district's fill


def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def _hex(rgb: Iterable[float]) -> str:
    return "#" + "".join(f"{max(0, min(255, round(c))):02x}" for c in rgb)


def _mix(colour: str, other: str, share: float) -> str:
    """``share`` of ``colour`` and the rest of ``other``."""
    a, b = _rgb(colour), _rgb(other)
    return _hex(share * x + (1 - share) * y for x, y in zip(a, b, strict=True))


def tint(colour: str) -> str:
    """The light fill of a district controlled by a gang of this colour."""
    return _mix(colour, "#ffffff", TINT)


def ink(colour: str) -> str:
    """A darker shade of a gang colour for lines and outlines."""
    return _mix(colour, "#000000", 0.78)


def _luminance(colour: str) -> float:
    r, g, b = _rgb(colour)
    return (0.299 * r + 0.587 * g + 0.114 * b) / 255


def _on(colour: str) -> str:
    """Text colour readable on a fill of this colour."""
    return TEXT if _luminance(colour) > 0.62 else "#ffffff"


# -- the scene --------------------------------------------------------------------------

Pt: TypeAlias = tuple[float, float]


@dataclass(frozen=True)
class Paint:
    fill: str | None = None
    stroke: str | None = None
    width: float = 0.0
    dash: tuple[float, float] | None = None


@dataclass(frozen=True)
class Poly:
    """Closed rings filled even-odd (an outer ring and its holes)."""

    rings: tuple[tuple[Pt, ...], ...]
    paint: Paint


@dataclass(frozen=True)
class Line:
    """An open polyline with round caps and joins."""

    points: tuple[Pt, ...]
    paint: Paint


@dataclass(frozen=True)
class Circle:
    centre: Pt
    r: float
    paint: Paint


@dataclass(frozen=True)
class Label:
    at: Pt
    text: str
    size: float
    colour: str = TEXT
    anchor: str = "middle"  # start, middle, end
    bold: bool = False
    italic: bool = False
    halo: float = 0.0  # width of a white outline behind the text


@dataclass(frozen=True)
class Group:
    attrs: tuple[tuple[str, str], ...]
    items: tuple[Item, ...]
    opacity: float = 1.0


Item: TypeAlias = Poly | Line | Circle | Label | Group


@dataclass(frozen=True)
class Scene:
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


# -- geometry helpers -------------------------------------------------------------------


def _sub(a: Pt, b: Pt) -> Pt:
    return a[0] - b[0], a[1] - b[1]


def _add(a: Pt, b: Pt) -> Pt:
    return a[0] + b[0], a[1] + b[1]


def _mul(a: Pt, k: float) -> Pt:
    return a[0] * k, a[1] * k


def _len(a: Pt) -> float:
    return math.hypot(a[0], a[1])


def _unit(a: Pt) -> Pt:
    n = _len(a)
    return (0.0, 0.0) if n == 0 else (a[0] / n, a[1] / n)


def _right(d: Pt) -> Pt:
    """The normal to the right of travel along ``d`` (screen coordinates, y down)."""
    return -d[1], d[0]


def _length(points: Sequence[Pt]) -> float:
    return sum(_len(_sub(q, p)) for p, q in itertools.pairwise(points))


def _at(points: Sequence[Pt], dist: float) -> Pt:
    """The point ``dist`` along the polyline (clamped to its ends)."""
    if dist <= 0:
        return points[0]
    for p, q in itertools.pairwise(points):
        seg = _len(_sub(q, p))
        if dist <= seg and seg > 0:
            return _add(p, _mul(_sub(q, p), dist / seg))
        dist -= seg
    return points[-1]


def _cut(points: Sequence[Pt], start: float, end: float) -> tuple[Pt, ...]:
    """The part of the polyline from ``start`` along it to ``end`` before its end."""
    total = _length(points)
    a, b = start, total - end
    if b - a < 1.0:  # too short to trim: keep a short stub around the middle
        mid = (a + b) / 2
        a, b = mid - 0.5, mid + 0.5
    out = [_at(points, a)]
    run = 0.0
    for p, q in itertools.pairwise(points):
        run += _len(_sub(q, p))
        if a < run < b:
            out.append(q)
    out.append(_at(points, b))
    return tuple(out)


def _smooth(points: Sequence[Pt], steps: int = 10) -> tuple[Pt, ...]:
    """A Catmull-Rom curve through the points (unchanged for a straight line)."""
    if len(points) < 3:
        return tuple(points)
    ext = [_sub(_mul(points[0], 2), points[1]), *points, _sub(_mul(points[-1], 2), points[-2])]
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


def _shift_right(points: Sequence[Pt], by: float) -> tuple[Pt, ...]:
    """Move every point ``by`` to the right of travel, so that two arrows between the
    same districts in opposite directions lie side by side."""
    if len(points) < 2:
        return tuple(points)
    out: list[Pt] = []
    for i, p in enumerate(points):
        normals = []
        if i > 0:
            normals.append(_right(_unit(_sub(p, points[i - 1]))))
        if i < len(points) - 1:
            normals.append(_right(_unit(_sub(points[i + 1], p))))
        n = _unit((sum(v[0] for v in normals), sum(v[1] for v in normals)))
        out.append(_add(p, _mul(n, by)))
    return tuple(out)


def _regular(centre: Pt, r_out: float, r_in: float, spikes: int, turn: float = -math.pi / 2) -> tuple[Pt, ...]:
    """A star (or, with r_in == r_out, a regular polygon) around ``centre``."""
    pts: list[Pt] = []
    for i in range(spikes * 2):
        r = r_out if i % 2 == 0 else r_in
        a = turn + math.pi * i / spikes
        pts.append((centre[0] + r * math.cos(a), centre[1] + r * math.sin(a)))
    return tuple(pts)


def _rounded_rect(x: float, y: float, w: float, h: float, r: float) -> tuple[Pt, ...]:
    pts: list[Pt] = []
    corners = ((x + w - r, y + r, -90), (x + w - r, y + h - r, 0), (x + r, y + h - r, 90), (x + r, y + r, 180))
    for cx, cy, a0 in corners:
        for s in range(5):
            a = math.radians(a0 + s * 22.5)
            pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return tuple(pts)


# -- projection and layout ----------------------------------------------------------------

CANVAS_W = 1000.0
MARGIN = 14.0
TITLE_H = 48.0
FOOT_H = 22.0
LEGEND_GAP = 14.0


@dataclass(frozen=True)
class Frame:
    """Equirectangular projection of lon/lat onto the canvas, north up."""

    lon0: float
    lat1: float
    kx: float  # cos of the map's middle latitude
    scale: float
    ox: float
    oy: float

    def xy(self, p: Pt) -> Pt:
        return self.ox + (p[0] - self.lon0) * self.kx * self.scale, self.oy + (self.lat1 - p[1]) * self.scale


@dataclass(frozen=True)
class Layout:
    frame: Frame
    outlines: dict[str, tuple[tuple[tuple[Pt, ...], ...], ...]]  # code -> polygons -> rings, on canvas
    labels: dict[str, Pt]  # code -> label point on canvas
    map_w: float
    map_h: float
    east: tuple[tuple[float, float], ...]  # (y, easternmost x of the city) per scan row


@functools.lru_cache(maxsize=8)
def _shapes(path: Path) -> dict[str, Shape]:
    return load_geometry(path)


@functools.lru_cache(maxsize=8)
def _layout(path: Path) -> Layout:
    """The districts on the canvas, and the lake's shore: from the cache directory
    (``moonshine.cache``, keyed by the geometry file's bytes and the canvas's measures),
    or worked out from the GeoJSON and kept there."""
    from moonshine import cache

    try:
        key = f"layout {CANVAS_W!r} {MARGIN!r} {TITLE_H!r}\n".encode() + path.read_bytes()
    except OSError:
        return _make_layout(path)  # the geometry's reader says what is wrong
    found = cache.load_value("layout", key)
    if isinstance(found, tuple) and len(found) == 6:
        frame, outlines, labels, map_w, map_h, east = found
        return Layout(Frame(*frame), outlines, labels, map_w, map_h, east)
    layout = _make_layout(path)
    f = layout.frame
    value = ((f.lon0, f.lat1, f.kx, f.scale, f.ox, f.oy), layout.outlines, layout.labels)
    cache.store_value("layout", key, (*value, layout.map_w, layout.map_h, layout.east))
    return layout


def _make_layout(path: Path) -> Layout:
    shapes = _shapes(path)
    pts = [p for s in shapes.values() for poly in s.polygons for ring in poly for p in ring]
    lon0, lon1 = min(p[0] for p in pts), max(p[0] for p in pts)
    lat0, lat1 = min(p[1] for p in pts), max(p[1] for p in pts)
    kx = math.cos(math.radians((lat0 + lat1) / 2))
    map_w = CANVAS_W - 2 * MARGIN
    scale = map_w / ((lon1 - lon0) * kx)
    frame = Frame(lon0, lat1, kx, scale, MARGIN, TITLE_H)
    outlines = {
        code: tuple(tuple(tuple(frame.xy(p) for p in ring) for ring in poly) for poly in s.polygons)
        for code, s in shapes.items()
    }
    labels = {code: frame.xy(s.label) for code, s in shapes.items()}
    map_h = (lat1 - lat0) * scale
    return Layout(frame, outlines, labels, map_w, map_h, _east_profile(outlines, TITLE_H, TITLE_H + map_h))


def _east_profile(
    outlines: dict[str, tuple[tuple[tuple[Pt, ...], ...], ...]], top: float, bottom: float, step: float = 2.0
) -> tuple[tuple[float, float], ...]:
    """For each scan row, the easternmost x of the city (rows crossing no district are left out).
    Each edge visits only the rows it crosses."""
    ys: list[float] = []
    y = top + step / 2
    while y < bottom:
        ys.append(y)
        y += step
    east: list[float | None] = [None] * len(ys)
    for polys in outlines.values():
        for poly in polys:
            for ring in poly:
                for p, q in zip(ring, (*ring[1:], ring[0]), strict=True):
                    lo, hi = (p[1], q[1]) if p[1] <= q[1] else (q[1], p[1])
                    # rows with lo < y <= hi ... or lo <= y < hi: (p[1] <= y) != (q[1] <= y) means lo <= y < hi
                    first = bisect.bisect_left(ys, lo)
                    for i in range(first, len(ys)):
                        row = ys[i]
                        if row >= hi:
                            break
                        x = p[0] + (row - p[1]) * (q[0] - p[0]) / (q[1] - p[1])
                        best = east[i]
                        if best is None or x > best:
                            east[i] = x
    return tuple((row, x) for row, x in zip(ys, east, strict=True) if x is not None)


def _lake(layout: Layout, right: float) -> tuple[tuple[Pt, ...], ...]:
    """Lake Michigan: the water east of the city, from its northern edge down to where
    the city reaches the map's eastern edge (the Indiana line)."""
    rows: list[tuple[float, float]] = []
    for y, x in layout.east:
        if x >= MARGIN + layout.map_w - 1.0:
            break
        rows.append((y, x))
    if len(rows) < 2:
        return ()
    top, bottom = rows[0][0] - 1.0, rows[-1][0] + 1.0
    shore = [(x, y) for y, x in rows]
    return (((right, top), (shore[0][0], top), *shore, (shore[-1][0], bottom), (right, bottom)),)


# -- district furniture -----------------------------------------------------------------------

CODE_SIZE = 16.0  # 10.7 px when the 1000 px picture is shown at a mail's 672 px
UNIT_SIZE = 15.0  # the letter on a unit's marker (10 px at 672 px)
UNIT_H = 19.0  # side of an H marker
UNIT_L = 9.8  # radius of an L marker
UNIT_GAP = 11.0  # half the distance between an H and an L side by side


def _code_at(p: Pt) -> Pt:
    return p[0], p[1] - 9.0


def _units_at(p: Pt) -> Pt:
    return p[0], p[1] + 11.0


def _feature_at(p: Pt) -> Pt:
    return p[0] - 29.0, p[1] - 9.0


def _station_at(p: Pt) -> Pt:
    return p[0] + 30.0, p[1] - 9.0


def _feature_symbol(kind: Feature, c: Pt, scale: float = 1.0) -> tuple[Item, ...]:
    x, y = c
    k = scale
    if kind is Feature.SUPPLY:  # a barrel
        w, h = 4.6 * k, 6.0 * k
        bulge = [math.sin(math.pi * i / 8) for i in range(9)]
        left = [(x - w * (0.78 + 0.22 * b), y - h + 2 * h * i / 8) for i, b in enumerate(bulge)]
        outline = (*left, *((2 * x - px, py) for px, py in reversed(left)))
        return (
            Poly((outline,), Paint(fill="#c98b4b", stroke=SYMBOL_INK, width=1.2 * k)),
            Line(((x - w * 0.93, y - h * 0.45), (x + w * 0.93, y - h * 0.45)), Paint(stroke=SYMBOL_INK, width=1.0 * k)),
            Line(((x - w * 0.93, y + h * 0.45), (x + w * 0.93, y + h * 0.45)), Paint(stroke=SYMBOL_INK, width=1.0 * k)),
        )
    if kind is Feature.SPEAKEASY:  # a cocktail glass
        bowl = ((x - 5.8 * k, y - 5.5 * k), (x + 5.8 * k, y - 5.5 * k), (x, y + 0.8 * k))
        return (
            Line(((x, y + 0.5 * k), (x, y + 5.0 * k)), Paint(stroke=SYMBOL_INK, width=1.4 * k)),
            Line(((x - 3.4 * k, y + 5.4 * k), (x + 3.4 * k, y + 5.4 * k)), Paint(stroke=SYMBOL_INK, width=1.4 * k)),
            Poly((bowl,), Paint(fill="#e84393", stroke=SYMBOL_INK, width=1.2 * k)),
        )
    if kind is Feature.WAREHOUSE:  # a shed with a roof
        w, h = 5.5 * k, 5.5 * k
        house = ((x - w, y + h), (x - w, y - h * 0.2), (x, y - h), (x + w, y - h * 0.2), (x + w, y + h))
        door = ((x - 1.8 * k, y + h), (x - 1.8 * k, y + h * 0.1), (x + 1.8 * k, y + h * 0.1), (x + 1.8 * k, y + h))
        return (
            Poly((house,), Paint(fill="#f5f1e3", stroke=SYMBOL_INK, width=1.2 * k)),
            Poly((door,), Paint(fill=SYMBOL_INK)),
        )
    return ()


def _station_symbol(c: Pt, corrupter: str | None, scale: float = 1.0) -> tuple[Item, ...]:
    """A police badge: a blue star on a white disc; on a corrupted station, a white
    star on a disc of the corrupting gang's colour."""
    star = _regular((c[0], c[1] + 0.4 * scale), 6.6 * scale, 2.9 * scale, 5)
    disc = Paint(fill="#ffffff" if corrupter is None else corrupter, stroke=STATION_FILL if corrupter is None else TEXT)
    return (
        Circle(c, 8.6 * scale, Paint(disc.fill, disc.stroke, 1.4 * scale)),
        Poly((star,), Paint(fill=STATION_FILL if corrupter is None else "#ffffff")),
    )


def _unit_marker(kind: UnitKind, gang_colour: str, c: Pt) -> tuple[Item, ...]:
    paint = Paint(fill=gang_colour, stroke=ink(gang_colour) if _luminance(gang_colour) > 0.3 else "#ffffff", width=1.3)
    if kind is UnitKind.H:
        h = UNIT_H / 2
        shape: Item = Poly((_rounded_rect(c[0] - h, c[1] - h, UNIT_H, UNIT_H, 2.6),), paint)
    else:
        shape = Circle(c, UNIT_L, paint)
    outline = Circle(c, UNIT_L + 2.2, Paint(fill="#ffffff")) if kind is UnitKind.L else None
    halo: tuple[Item, ...] = (
        (outline,)
        if outline
        else (
            Poly(
                (_rounded_rect(c[0] - UNIT_H / 2 - 1.8, c[1] - UNIT_H / 2 - 1.8, UNIT_H + 3.6, UNIT_H + 3.6, 4.0),),
                Paint(fill="#ffffff"),
            ),
        )
    )
    return (*halo, shape, Label((c[0], c[1] + 0.5), kind.value, UNIT_SIZE, _on(gang_colour), bold=True))


GHOST_OPACITY = 0.5
GHOST_SHIFT = 21.0  # how far left of the units now in its district a dislodged unit is drawn


def _ghost_marker(kind: UnitKind, gang_colour: str, c: Pt, *, disbanded: bool) -> tuple[Item, ...]:
    """A dislodged unit: its marker faded, ringed by a dashed line; crossed out when disbanded."""
    ring = Circle(c, UNIT_H * 0.78, Paint(stroke=ink(gang_colour), width=1.3, dash=(3.0, 2.2)))
    faded = Group((), _unit_marker(kind, gang_colour, c), GHOST_OPACITY)
    return (faded, ring, *(_cross(c, 6.0) if disbanded else ()))


def _unit_positions(units: Sequence[Unit], at: Pt) -> list[tuple[Unit, Pt]]:
    """Units of one district side by side (H on the left, L on the right)."""
    ordered = sorted(units, key=lambda u: (u.kind is not UnitKind.H, u.gang))
    n = len(ordered)
    return [(u, (at[0] + (2 * i - (n - 1)) * UNIT_GAP, at[1])) for i, u in enumerate(ordered)]


# -- arrows -------------------------------------------------------------------------------------

ARROW_SHIFT = 2.6
HEAD_LEN = 11.0
HEAD_HALF = 5.6
DASH = (6.0, 4.5)
FAILED_OPACITY = 0.7
HOLD_RING = 13.5  # radius of the ring a support to hold draws round the held unit
MARK_GAP = 9.0  # failure marks nearer than this to one already drawn are left out (a head-to-head pair)


def _head(tip: Pt, direction: Pt, length: float = HEAD_LEN, half: float = HEAD_HALF) -> tuple[Pt, ...]:
    d = _unit(direction)
    base = _sub(tip, _mul(d, length))
    n = _right(d)
    return tip, _add(base, _mul(n, half)), _add(base, _mul(n, -half))


def _cross(c: Pt, r: float = 5.5) -> tuple[Item, ...]:
    a = ((c[0] - r, c[1] - r), (c[0] + r, c[1] + r))
    b = ((c[0] - r, c[1] + r), (c[0] + r, c[1] - r))
    return (
        Line(a, Paint(stroke="#ffffff", width=5.2)),
        Line(b, Paint(stroke="#ffffff", width=5.2)),
        Line(a, Paint(stroke=CROSS, width=2.4)),
        Line(b, Paint(stroke=CROSS, width=2.4)),
    )


def _arrow_shape(kind: str, points: Sequence[Pt], colour: str, failed: bool, station: Pt | None) -> tuple[Item, ...]:
    """The shapes of one arrow along ``points`` (already trimmed), in ``colour``."""
    line = ink(colour)
    dash = DASH if failed else None
    items: list[Item] = []
    if kind == "transport":
        width = 9.0
        items.append(Line(tuple(points), Paint(stroke=colour, width=width, dash=dash)))
        items.append(Line(tuple(points), Paint(stroke="#ffffff", width=3.0, dash=dash)))
        return tuple(items)
    width = {"move": 3.2, "assault": 3.2, "support": 2.0, "retreat": 2.2}[kind]
    body = list(points)
    tip = body[-1]
    direction = _sub(body[-1], _at(body, max(0.0, _length(body) - HEAD_LEN)))
    if kind in ("move", "assault") and _length(body) > HEAD_LEN:
        body = list(_cut(body, 0.0, HEAD_LEN * 0.7))
    casing = Paint(stroke=HALO, width=width + 2.6)
    if len(body) >= 2 and _length(body) > 0.5:
        items.append(Line(tuple(body), casing))
        items.append(Line(tuple(body), Paint(stroke=line, width=width, dash=dash)))
    if kind in ("move", "assault"):
        items.append(Poly((_head(tip, direction),), Paint(fill=line, stroke=HALO, width=1.0)))
    elif kind == "retreat":
        h = _head(tip, direction, 9.0, 5.5)
        chevron = (h[1], h[0], h[2])
        items.append(Line(chevron, Paint(stroke=HALO, width=5.0)))
        items.append(Line(chevron, Paint(stroke=line, width=2.4)))
    elif kind == "support":
        items.append(Circle(tip, 3.6, Paint(fill=line, stroke=HALO, width=1.0)))
    if kind == "assault" and station is not None:
        items.extend(_burst(station, line, dash))
    return tuple(items)


def _burst(c: Pt, colour: str, dash: tuple[float, float] | None = None) -> tuple[Item, ...]:
    """The spiky ring an assault draws around the attacked station."""
    ring = _regular(c, 14.0, 9.5, 8, -math.pi / 8)
    return (
        Poly((ring,), Paint(stroke=HALO, width=4.2)),
        Line((*ring, ring[0]), Paint(stroke=colour, width=2.0, dash=dash)),
    )


def _check_district(gmap: GameMap, code: str, what: str) -> str:
    if code not in gmap.districts:
        raise PictureError(f"{what}: unknown district {code!r}")
    return code


def _check_arrow(gmap: GameMap, a: Arrow) -> None:
    what = f"arrow {a.kind} {a.start} -> {a.end}"
    if a.kind not in ARROW_KINDS:
        raise PictureError(f"{what}: unknown kind {a.kind!r} (expected {', '.join(ARROW_KINDS)})")
    if a.gang not in gmap.gangs:
        raise PictureError(f"{what}: unknown gang {a.gang!r} (gangs: {', '.join(gmap.gangs)})")
    for code in (a.start, a.end, *a.path, *([a.target_end] if a.target_end else [])):
        _check_district(gmap, code, what)
    if a.kind == "assault" and gmap.districts[a.end].station is None:
        raise PictureError(f"{what}: {a.end} has no police station")


def _arrow_items(
    gmap: GameMap,
    layout: Layout,
    arrows: Sequence[Arrow],
    placed: Mapping[tuple[str, str], Pt] | None = None,
    ghosts: Mapping[str, Pt] | None = None,
) -> tuple[list[Item], list[Item]]:
    """Arrows in drawing order (transports under supports under moves) and the marks
    of failed orders, drawn later on top of the district codes. ``placed``: where
    each (district, kind) unit is drawn, so that a support to hold rings that unit;
    ``ghosts``: where the units dislodged from a district are drawn, so that their
    retreats start there (and a support to a unit that was dislodged rings it)."""
    placed = placed or {}
    ghosts = ghosts or {}
    first: dict[Arrow, None] = {}  # each arrow once, in the order given
    for a in arrows:
        if a not in first:
            _check_arrow(gmap, a)
            first[a] = None
    unique = list(first)
    moves: dict[tuple[str, str], Arrow] = {}  # (start, end) -> the first move or assault between them
    for b in unique:
        if b.kind in ("move", "assault"):
            moves.setdefault((b.start, b.end), b)

    def anchor(code: str) -> Pt:
        return _units_at(layout.labels[code])

    def station(code: str) -> Pt:
        return _station_at(layout.labels[code])

    def route(a: Arrow) -> tuple[Pt, ...]:
        """The drawn centre line of a move, retreat, transport or assault before trimming."""
        end = station(a.end) if a.kind == "assault" else anchor(a.end)
        first = ghosts.get(a.start, anchor(a.start)) if a.kind == "retreat" else anchor(a.start)
        raw = [first, *(anchor(p) for p in a.path), end]
        if a.kind == "assault" and a.start == a.end:
            return (anchor(a.start), end)
        return _shift_right(_smooth(raw), ARROW_SHIFT)

    def supported_point(a: Arrow) -> Pt:
        if a.target_end is None:
            return anchor(a.end)
        b = moves.get((a.end, a.target_end))
        if b is not None:
            line = route(b)
            if b.path:  # the middle of the move's last leg, into the contested district
                leg = _len(_sub(anchor(b.end), anchor(b.path[-1])))
                return _at(line, _length(line) - leg / 2)
            return _at(line, _length(line) / 2)
        far = station(a.target_end) if a.target_end == a.end else anchor(a.target_end)
        return _add(anchor(a.end), _mul(_sub(far, anchor(a.end)), 0.5))

    order = {"transport": 0, "support": 1, "retreat": 2, "assault": 3, "move": 4}
    drawn: list[tuple[int, int, Group]] = []
    crosses: list[Item] = []
    marked: dict[tuple[int, int], list[Pt]] = {}  # failure marks by cell of MARK_GAP x MARK_GAP
    for i, a in enumerate(unique):
        colour = gmap.gangs[a.gang].colour
        failed = not a.succeeded
        points: tuple[Pt, ...]
        if a.kind == "support" and a.target_end is None:  # support to hold: a ring round the held unit
            held = placed.get((a.end, a.target_kind)) or ghosts.get(a.end) or anchor(a.end)
            points = _cut((anchor(a.start), held), 10.0, HOLD_RING)
            ring = Circle(held, HOLD_RING, Paint(stroke=ink(colour), width=1.8))
            shapes = (*_arrow_shape(a.kind, points, colour, failed, None)[:-1], ring)
        elif a.kind == "support":
            points = _cut((anchor(a.start), supported_point(a)), 10.0, 2.0)
            shapes = _arrow_shape(a.kind, points, colour, failed, None)
        elif a.kind == "assault" and a.start == a.end:
            points = (station(a.end),)
            shapes = _burst(station(a.end), ink(colour), DASH if failed else None)
        else:
            line = route(a)
            end_gap = 13.0 if a.kind == "assault" else 11.0
            points = _cut(line, 0.0 if a.kind == "transport" else 9.0, 0.0 if a.kind == "transport" else end_gap)
            shapes = _arrow_shape(a.kind, points, colour, failed, station(a.end) if a.kind == "assault" else None)
        state = "failed" if failed else "succeeded"
        attrs = [
            ("class", f"arrow {a.kind} {state}"),
            ("data-gang", a.gang),
            ("data-from", a.start),
            ("data-to", a.end),
        ]
        if a.path:
            attrs.append(("data-path", " ".join(a.path)))
        if a.target_end:
            attrs.append(("data-target", a.target_end))
        opacity = {True: FAILED_OPACITY, False: 1.0}[failed] * (0.55 if a.kind == "transport" else 1.0)
        drawn.append((order[a.kind], i, Group(tuple(attrs), shapes, opacity)))
        if failed:
            where = _at(points, _length(points) / 2) if _length(points) > 0 else points[0]
            cell = (math.floor(where[0] / MARK_GAP), math.floor(where[1] / MARK_GAP))
            near = (p for dx in (-1, 0, 1) for dy in (-1, 0, 1) for p in marked.get((cell[0] + dx, cell[1] + dy), ()))
            if all(_len(_sub(where, seen)) > MARK_GAP for seen in near):  # one mark for a head-to-head pair
                marked.setdefault(cell, []).append(where)
                crosses.append(Group((("class", "failure-mark"),), _cross(where)))
    drawn.sort(key=lambda t: (t[0], t[1]))
    return [g for _, _, g in drawn], crosses


# -- the legend -------------------------------------------------------------------------------

# The legend fits in the lake (the picture stays 1000 wide): beside the Near North Side
# the lake leaves it 274 px across and 518 px down, hence a 13 px font (8.7 px at a
# mail's 672 px) rather than the map's 16 px labels.
LEGEND_W = 272.0
ROW = 16.5
HEAD_ROW = 21.0
PAD = 12.0
LEGEND_FONT = 13.0
HEADING_FONT = 14.0


def _legend_height(gmap: GameMap) -> float:
    return 2 * PAD + 4 * HEAD_ROW + (len(gmap.gangs) + 1 + 3 + 6 + 7) * ROW - 6


def _legend(gmap: GameMap, words: dict[str, str], x: float, y: float) -> Group:
    items: list[Item] = []
    h = _legend_height(gmap)
    items.append(Poly((_rounded_rect(x, y, LEGEND_W, h, 7.0),), Paint(fill="#ffffff", stroke="#9aa5b1", width=1.0)))
    cx = x + PAD + 17.0  # centre of the symbol column
    tx = x + PAD + 42.0  # start of the text column
    cy = y + PAD

    def heading(text: str) -> None:
        nonlocal cy
        items.append(Label((x + PAD, cy + 9.0), text, HEADING_FONT, TEXT, anchor="start", bold=True))
        cy += HEAD_ROW

    def row(symbol: Sequence[Item], text: str) -> None:
        nonlocal cy
        mid = cy + ROW / 2 - 2.0
        items.extend(_recentre(symbol, mid))
        items.append(Label((tx, mid), text, LEGEND_FONT, TEXT, anchor="start"))
        cy += ROW

    heading(words["gangs"])
    for g in gmap.gangs.values():
        swatch = _rounded_rect(cx - 12.0, -6.5, 24.0, 13.0, 2.0)
        row(
            [
                Poly((swatch,), Paint(fill=tint(g.colour), stroke=BORDER, width=0.8)),
                Circle((cx, 0.0), 4.6, Paint(fill=g.colour, stroke=ink(g.colour), width=1.0)),
            ],
            g.name,
        )
    row(
        [Poly((_rounded_rect(cx - 12.0, -6.5, 24.0, 13.0, 2.0),), Paint(fill=NEUTRAL, stroke=BORDER, width=0.8))],
        words["neutral"],
    )

    heading(words["units"])
    grey = "#5d6d7e"
    row(_unit_marker(UnitKind.H, grey, (cx, 0.0)), words["H"])
    row(_unit_marker(UnitKind.L, grey, (cx, 0.0)), words["L"])
    row(list(_ghost_marker(UnitKind.H, grey, (cx, 0.0), disbanded=True)), words["dislodged"])

    heading(words["districts"])
    row(_feature_symbol(Feature.SUPPLY, (cx, 0.0)), words["supply"])
    row(_feature_symbol(Feature.SPEAKEASY, (cx, 0.0)), words["speakeasy"])
    row(_feature_symbol(Feature.WAREHOUSE, (cx, 0.0)), words["warehouse"])
    row(_station_symbol((cx, 0.0), None), words["station"])
    row(_station_symbol((cx, 0.0), "#7f8c8d"), words["corrupted"])
    patch = _rounded_rect(cx - 13.0, -7.0, 26.0, 14.0, 1.0)
    row(
        [
            Poly((patch,), Paint(fill=NEUTRAL)),
            Line((*patch, patch[0]), Paint(stroke=RAID_RED, width=2.6, dash=(5.0, 3.0))),
        ],
        words["raid"],
    )

    heading(words["orders"])
    sample = ((cx - 16.0, 0.0), (cx + 16.0, 0.0))
    dark = "#4d5656"
    for kind in ("move", "support", "transport", "assault", "retreat"):
        pts = (
            sample
            if kind not in ("assault", "transport")
            else ((cx - 13.0, 0.0), (cx + 13.0, 0.0))
            if kind == "transport"
            else ((cx - 17.0, 0.0), (cx + 5.0, 0.0))
        )
        extra: tuple[Item, ...] = ()
        if kind == "assault":
            extra = _station_symbol((cx + 14.0, 0.0), None, 0.75)
        shapes = _arrow_shape(kind, pts, dark, False, (cx + 14.0, 0.0) if kind == "assault" else None)
        if kind == "assault":
            shapes = shapes[:-2]  # the burst does not fit the legend's row
        row([*extra, *shapes] if kind != "transport" else list(shapes), words[kind])
    ring_at = (cx + 9.0, 0.0)
    row(
        [
            *_arrow_shape("support", _cut(((cx - 18.0, 0.0), ring_at), 0.0, 8.0), dark, False, None)[:-1],
            Circle(ring_at, 8.0, Paint(stroke=dark, width=1.8)),
            Circle(ring_at, 3.0, Paint(fill=dark)),
        ],
        words["hold_support"],
    )
    failed = _arrow_shape("move", sample, dark, True, None)
    row([Group((), failed, FAILED_OPACITY), *_cross((cx - 1.0, 0.0), 4.5)], words["failed"])
    return Group((("id", "legend"),), tuple(items))


def _recentre(items: Iterable[Item], dy: float) -> list[Item]:
    """Shift items drawn around y = 0 down to ``dy``."""
    return [moved(i, 0.0, dy) for i in items]


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


def _raid_badge(text: str, c: Pt) -> tuple[Item, ...]:
    size = 11.0
    w, h = len(text) * 0.68 * size + 8.0, 15.0
    box = _rounded_rect(c[0] - w / 2, c[1] - h / 2, w, h, 3.0)
    return (
        Poly((box,), Paint(fill=RAID_RED, stroke="#ffffff", width=1.2)),
        Label((c[0], c[1] + 0.4), text, size, "#ffffff", bold=True),
    )


# -- the whole picture ----------------------------------------------------------------------


def _words(language: str) -> dict[str, str]:
    if language not in languages():
        raise PictureError(f"unknown language {language!r} (expected {' or '.join(languages())})")
    return {key.removeprefix("picture."): keyed(language, _WORDS, key) for key in _WORDS}


def _default_title(gmap: GameMap, st: GameState, words: dict[str, str]) -> str:
    try:
        t = Turn.parse(st.turn)
    except ValueError:
        return st.turn
    return f"{words[t.season]} {t.year}"


def _place_legend(layout: Layout, height: float) -> tuple[float, float, float]:
    """Legend position (x, y) and the canvas width: in the lake when it fits there,
    otherwise in a column east of the map."""
    x = CANVAS_W - MARGIN - LEGEND_W
    y = TITLE_H + 4.0
    rows = [(ry, rx) for ry, rx in layout.east if y - 4 <= ry <= y + height + 4]
    lake_end = next((ry for ry, rx in layout.east if rx >= MARGIN + layout.map_w - 1.0), math.inf)
    if rows and y + height + 10 < lake_end and all(rx + LEGEND_GAP <= x for _, rx in rows):
        return x, y, CANVAS_W
    return CANVAS_W - MARGIN + LEGEND_GAP, y, CANVAS_W + LEGEND_GAP + LEGEND_W


def _lake_label(layout: Layout, text: str, avoid: tuple[float, float, float, float], right: float) -> Label | None:
    """Lake Michigan's name where the lake is widest, clear of the legend."""
    _, y0, x1, y1 = avoid
    lake_end = next((ry for ry, rx in layout.east if rx >= MARGIN + layout.map_w - 1.0), math.inf)
    best: tuple[float, float, float] | None = None
    for y, x in layout.east:
        if y >= lake_end - 20 or (y0 - 20 <= y <= y1 + 20 and x1 > x):
            continue
        room = right - x
        if best is None or room > best[0] + 1e-9:
            best = (room, y, x)
    if best is None or best[0] < 8.0 * len(text):
        return None
    room, y, x = best
    return Label(((x + right) / 2, y), text, 17.0, WATER_TEXT, italic=True, halo=0.0)


def build_scene(
    gmap: GameMap,
    st: GameState,
    *,
    arrows: Sequence[Arrow] = (),
    title: str = "",
    language: str = "en",
    dislodged: Sequence[Dislodged] = (),
) -> Scene:
    """The picture as plain shapes, shared by the SVG and PNG writers. ``dislodged``:
    units dislodged this turn, drawn faded where they stood (their retreats start
    there), crossed out when disbanded."""
    words = _words(language)
    if gmap.geometry is None:
        raise PictureError(f"map {gmap.name!r} has no geometry file: it cannot be drawn")
    layout = _layout(gmap.geometry)
    for code in gmap.districts:
        if code not in layout.outlines:
            raise PictureError(f"district {code} has no shape in {gmap.geometry}")
    for u in st.units:
        _check_district(gmap, u.district, f"unit {u.label()}")
        if u.gang not in gmap.gangs:
            raise PictureError(f"unit {u.label()}: unknown gang {u.gang!r}")
    if st.raid is not None:
        _check_district(gmap, st.raid.district, "raid")
    for dl in dislodged:
        _check_district(gmap, dl.district, f"dislodged unit {dl.label()}")
        if dl.retreat is not None:
            _check_district(gmap, dl.retreat, f"retreat of {dl.label()}")
        if dl.gang not in gmap.gangs:
            raise PictureError(f"dislodged unit {dl.label()}: unknown gang {dl.gang!r}")

    legend_h = _legend_height(gmap)
    lx, ly, width = _place_legend(layout, legend_h)
    height = float(math.ceil(max(TITLE_H + layout.map_h + FOOT_H, ly + legend_h + MARGIN)))
    right = MARGIN + layout.map_w + MARGIN / 2
    colours = {k: g.colour for k, g in gmap.gangs.items()}

    items: list[Item] = []
    lake = _lake(layout, right)
    if lake:
        items.append(Group((("id", "lake"),), (Poly(lake, Paint(fill=WATER)),)))
        name = _lake_label(layout, words["lake"], (lx, ly, lx + LEGEND_W, ly + legend_h), right)
        if name is not None:
            items.append(Group((("id", "lake-name"),), (name,)))

    districts: list[Item] = []
    for code, d in gmap.districts.items():
        controller = st.control.get(code)
        fill = tint(colours[controller]) if controller in colours else NEUTRAL
        polys = tuple(Poly(rings, Paint(fill=fill, stroke=BORDER, width=0.7)) for rings in layout.outlines[code])
        attrs = [("id", f"district-{code}"), ("class", "district"), ("data-code", code)]
        if controller:
            attrs.append(("data-controller", controller))
        tip = f"{code} {d.name}" + (f" — {d.feature.label}" if d.feature is not Feature.NONE else "")
        tip += f" — {d.station}" if d.station else ""
        attrs.append(("data-title", tip))
        districts.append(Group(tuple(attrs), polys))
    items.append(Group((("id", "districts"),), tuple(districts)))

    if st.raid is not None:
        code = st.raid.district
        rings = [ring for poly in layout.outlines[code] for ring in poly[:1]]
        outline = [Line((*ring, ring[0]), Paint(stroke=RAID_RED, width=3.2, dash=(7.0, 3.5))) for ring in rings]
        raid_attrs = (("id", "raid"), ("class", "raid"), ("data-code", code), ("data-by", st.raid.by))
        items.append(Group(raid_attrs, tuple(outline)))

    symbols: list[Item] = []
    for code, d in gmap.districts.items():
        p = layout.labels[code]
        if d.feature is not Feature.NONE:
            symbols.append(
                Group(
                    (("class", f"feature {d.feature.value}"), ("data-code", code)),
                    _feature_symbol(d.feature, _feature_at(p)),
                )
            )
        if d.station is not None:
            corrupter = st.corruption.get(code)
            station_attrs = [("class", "station" + (" corrupted" if corrupter else "")), ("data-code", code)]
            if corrupter:
                station_attrs.append(("data-corrupted-by", corrupter))
            symbols.append(
                Group(
                    tuple(station_attrs), _station_symbol(_station_at(p), colours.get(corrupter) if corrupter else None)
                )
            )
    area = {c: d.area for c, d in gmap.districts.items()}
    by_district: dict[str, list[Unit]] = {}
    for u in sorted(st.units, key=lambda u: (area[u.district], u.kind.value, u.gang)):
        by_district.setdefault(u.district, []).append(u)
    placed: dict[tuple[str, str], Pt] = {}
    for code, here in by_district.items():
        for u, c in _unit_positions(here, _units_at(layout.labels[code])):
            placed.setdefault((code, u.kind.value), c)
    ghosts: dict[str, Pt] = {}
    for dl in dislodged:
        at = _units_at(layout.labels[dl.district])
        n = len(by_district.get(dl.district, ()))
        ghosts.setdefault(dl.district, _add(at, (-(UNIT_GAP * (n - 1)) - GHOST_SHIFT, 3.0)) if n else at)
    lines, crosses = _arrow_items(gmap, layout, arrows, placed, ghosts)
    items.append(Group((("id", "arrows"),), tuple(lines)))
    items.append(Group((("id", "symbols"),), tuple(symbols)))
    labels = [
        Label(_code_at(layout.labels[code]), code, CODE_SIZE, TEXT, bold=True, halo=2.4) for code in gmap.districts
    ]
    items.append(Group((("id", "labels"),), tuple(labels)))
    if st.raid is not None:
        badge = _raid_badge(words["badge"], _add(layout.labels[st.raid.district], (0.0, -27.0)))
        items.append(Group((("id", "raid-badge"), ("data-code", st.raid.district)), badge))
    items.append(Group((("id", "failure-marks"),), tuple(crosses)))

    units: list[Item] = []
    for dl in dislodged:
        ghost_attrs = [
            ("class", "unit dislodged" + (" disbanded" if dl.retreat is None else "")),
            ("data-unit", dl.label()),
            ("data-gang", dl.gang),
        ]
        if dl.retreat is not None:
            ghost_attrs.append(("data-retreat", dl.retreat))
        ghost = _ghost_marker(dl.kind, colours[dl.gang], ghosts[dl.district], disbanded=dl.retreat is None)
        units.append(Group(tuple(ghost_attrs), ghost))
    for code, here in by_district.items():
        for u, c in _unit_positions(here, _units_at(layout.labels[code])):
            unit_attrs = (("class", "unit"), ("data-unit", u.label()), ("data-gang", u.gang))
            units.append(Group(unit_attrs, _unit_marker(u.kind, colours[u.gang], c)))
    items.append(Group((("id", "units"),), tuple(units)))

    items.append(_legend(gmap, words, lx, ly))
    text = title or _default_title(gmap, st, words)
    items.append(Group((("id", "title"),), (Label((MARGIN, 28.0), text, 22.0, TEXT, anchor="start", bold=True),)))
    credits = gettext_for(language)(gmap.credits) if gmap.credits else ""
    credit = credits.split(". ")[0].strip().rstrip(".")
    if credit:
        items.append(
            Group(
                (("id", "credits"),),
                (Label((MARGIN, height - 8.0), credit + ".", 11.0, "#6b6b6b", anchor="start"),),
            )
        )
    return Scene(width, height, text, tuple(items), _map_labels(gmap.geometry, tuple(gmap.districts)))


@functools.lru_cache(maxsize=8)
def _map_labels(geometry: Path, codes: tuple[str, ...]) -> str:
    """The label cache of a map's pictures, named by its geometry's bytes and its codes."""
    try:
        shapes = geometry.read_bytes()
    except OSError:
        shapes = str(geometry).encode()
    return labels_name(shapes, "\n".join(codes))


# -- SVG --------------------------------------------------------------------------------------


def _num(v: float) -> str:
    s = f"{v:.1f}"
    return "0.0" if s == "-0.0" else s


def _pairs(points: Sequence[Pt]) -> str:
    # each number as _num writes it: with one decimal, "-0.0" can only be a whole number
    return "L".join([f"{x:.1f} {y:.1f}" for x, y in points]).replace("-0.0", "0.0")


# The SVG is written as ElementTree writes an element tree indented by ``ET.indent(root,
# space=" ")`` (the same bytes: attributes in the order set, ``" />"`` for an empty
# element, the same escapes), without building the tree or loading the module.
_ATTR_ESCAPES = str.maketrans(
    {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "\r": "&#13;", "\n": "&#10;", "\t": "&#09;"}
)
_TEXT_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;"})


_ESCAPED = re.compile('[&<>"\r\n\t]').search  # a value holding none is written as it is


def _tag(name: str, attrs: dict[str, str]) -> str:
    """An element's start tag, without its closing ``>``."""
    return (
        "<" + name + "".join([f' {k}="{v.translate(_ATTR_ESCAPES) if _ESCAPED(v) else v}"' for k, v in attrs.items()])
    )


def _leaf(out: list[str], name: str, attrs: dict[str, str], text: str | None = None) -> None:
    """An element without children: with its text, or empty."""
    if text:
        out.append(f"{_tag(name, attrs)}>{text.translate(_TEXT_ESCAPES)}</{name}>")
    else:
        out.append(_tag(name, attrs) + " />")


def _svg_paint(attrs: dict[str, str], paint: Paint, *, line: bool) -> None:
    attrs["fill"] = paint.fill or "none"
    if paint.stroke:
        attrs["stroke"] = paint.stroke
        attrs["stroke-width"] = _num(paint.width)
        attrs["stroke-linejoin"] = "round"
        if line:
            attrs["stroke-linecap"] = "round"
        if paint.dash:
            attrs["stroke-dasharray"] = f"{_num(paint.dash[0])} {_num(paint.dash[1])}"


def _svg_item(out: list[str], item: Item, level: int) -> None:
    """The item's element, at ``level`` (its children indented one space more)."""
    attrs: dict[str, str]
    if isinstance(item, Group):
        attrs = {k: v for k, v in item.attrs if k != "data-title"}
        if item.opacity < 1:
            attrs["opacity"] = _num(item.opacity) if item.opacity >= 0.1 else f"{item.opacity:.2f}"
        titles = [v for k, v in item.attrs if k == "data-title"]
        if not titles and not item.items:
            out.append(_tag("g", attrs) + " />")
            return
        out.append(_tag("g", attrs) + ">")
        inner = "\n" + " " * (level + 1)
        for title in titles:
            out.append(inner)
            _leaf(out, "title", {}, title)
        for child in item.items:
            out.append(inner)
            _svg_item(out, child, level + 1)
        out.append("\n" + " " * level + "</g>")
    elif isinstance(item, Poly):
        attrs = {"d": "".join("M" + _pairs(r) + "Z" for r in item.rings)}
        _svg_paint(attrs, item.paint, line=False)
        if len(item.rings) > 1:
            attrs["fill-rule"] = "evenodd"
        _leaf(out, "path", attrs)
    elif isinstance(item, Line):
        attrs = {"d": "M" + _pairs(item.points)}
        _svg_paint(attrs, Paint(None, item.paint.stroke, item.paint.width, item.paint.dash), line=True)
        _leaf(out, "path", attrs)
    elif isinstance(item, Circle):
        attrs = {"cx": _num(item.centre[0]), "cy": _num(item.centre[1]), "r": _num(item.r)}
        _svg_paint(attrs, item.paint, line=False)
        _leaf(out, "circle", attrs)
    else:
        attrs = {
            "x": _num(item.at[0]),
            "y": _num(item.at[1]),
            "font-size": _num(item.size),
            "fill": item.colour,
            "text-anchor": item.anchor,
            "dominant-baseline": "central",
        }
        if item.bold:
            attrs["font-weight"] = "bold"
        if item.italic:
            attrs["font-style"] = "italic"
        if item.halo:
            attrs["stroke"] = HALO
            attrs["stroke-width"] = _num(item.halo)
            attrs["stroke-linejoin"] = "round"
            attrs["paint-order"] = "stroke"
        _leaf(out, "text", attrs, item.text)


def scene_svg(scene: Scene) -> str:
    """The scene as an SVG document."""
    root = {
        "xmlns": "http://www.w3.org/2000/svg",
        "width": f"{scene.width:g}",
        "height": f"{scene.height:g}",
        "viewBox": f"0 0 {scene.width:g} {scene.height:g}",
        "font-family": "Helvetica, Arial, sans-serif",
    }
    out = ['<?xml version="1.0" encoding="UTF-8"?>\n', _tag("svg", root), ">\n "]
    _leaf(out, "title", {}, scene.title)
    out.append("\n ")
    _leaf(out, "rect", {"width": "100%", "height": "100%", "fill": BACKGROUND})
    for item in scene.items:
        out.append("\n ")
        _svg_item(out, item, 1)
    out.append("\n</svg>\n")
    return "".join(out)


def render_svg(
    gmap: GameMap,
    st: GameState,
    *,
    arrows: Sequence[Arrow] = (),
    title: str = "",
    language: str = "en",
    dislodged: Sequence[Dislodged] = (),
) -> str:
    """The map picture as an SVG document."""
    return scene_svg(build_scene(gmap, st, arrows=arrows, title=title, language=language, dislodged=dislodged))


# -- PNG --------------------------------------------------------------------------------------

SUPERSAMPLE = 2
MIN_WIDTH, MAX_WIDTH = 300, 6000


@functools.lru_cache(maxsize=64)
def _font(size: float) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def _dashes(points: Sequence[Pt], on: float, off: float) -> list[tuple[Pt, ...]]:
    """Split a polyline into its dashes."""
    total = _length(points)
    out: list[tuple[Pt, ...]] = []
    s = 0.0
    while s < total:
        out.append(_cut(points, s, max(0.0, total - min(total, s + on))) if s + on < total else _cut(points, s, 0.0))
        s += on + off
    return out


Box: TypeAlias = tuple[float, float, float, float]  # x0, y0, x1, y1 in scene units


def _reach(paint: Paint) -> float:
    """How far a shape's paint reaches beyond its geometry (half the stroke)."""
    return paint.width / 2 if paint.stroke else 0.0


def _label_reach(label: Label) -> tuple[float, float]:
    """How far a label's ink can reach from its point, across and up or down, in scene
    units: more than its glyphs (none of the font's is wider than its size), their
    stroke and halo, and the accents and dashes drawn by hand can take."""
    margin = label.size + label.halo
    return label.size * len(label.text) + margin, 1.5 * label.size + margin


def _bounds(items: Iterable[Item]) -> Box | None:
    """The scene-unit box holding everything these items draw (a label's by a generous
    estimate), or None when there is nothing to draw."""
    x0 = y0 = math.inf
    x1 = y1 = -math.inf
    for item in items:
        if isinstance(item, Group):
            inner = _bounds(item.items)
            if inner is None:
                return None
            box = inner
        elif isinstance(item, Poly):
            pts = [p for ring in item.rings for p in ring]
            r = _reach(item.paint)
            box = (
                (
                    min(p[0] for p in pts) - r,
                    min(p[1] for p in pts) - r,
                    max(p[0] for p in pts) + r,
                    max(p[1] for p in pts) + r,
                )
                if pts
                else (math.inf, math.inf, -math.inf, -math.inf)
            )
        elif isinstance(item, Line):
            pts = list(item.points)
            r = _reach(item.paint)
            box = (
                (
                    min(p[0] for p in pts) - r,
                    min(p[1] for p in pts) - r,
                    max(p[0] for p in pts) + r,
                    max(p[1] for p in pts) + r,
                )
                if pts
                else (math.inf, math.inf, -math.inf, -math.inf)
            )
        elif isinstance(item, Circle):
            r = item.r + _reach(item.paint)
            box = (item.centre[0] - r, item.centre[1] - r, item.centre[0] + r, item.centre[1] + r)
        else:
            across, up = _label_reach(item)
            box = (item.at[0] - across, item.at[1] - up, item.at[0] + across, item.at[1] + up)
        x0, y0, x1, y1 = min(x0, box[0]), min(y0, box[1]), max(x1, box[2]), max(y1, box[3])
    return (x0, y0, x1, y1) if x0 <= x1 else None


def _blend(image: Image.Image, layer: Image.Image, at: tuple[int, int]) -> None:
    """Lay a translucent RGBA layer over ``image`` at ``at``: on the opaque canvas, its
    alpha as the mask; on another layer, alpha compositing."""
    if image.mode == "RGBA":
        image.alpha_composite(layer, at)
    else:
        image.paste(layer, at, layer)


class _Painter:
    """Draws a scene's items on an image whose top-left corner stands at ``origin`` (in
    pixels of the whole canvas); a translucent group is drawn on a layer just the size
    of what it holds, then blended in."""

    def __init__(self, scene: Scene, k: float) -> None:
        self.k = k
        self.labels = scene.labels
        size = (max(1, round(scene.width * k)), max(1, round(scene.height * k)))
        self.image = Image.new("RGB", size, BACKGROUND)  # opaque: no alpha to carry or drop
        self.origin = (0, 0)

    def xy(self, p: Pt) -> tuple[float, float]:
        return p[0] * self.k - self.origin[0], p[1] * self.k - self.origin[1]

    def _layer_box(self, items: Sequence[Item], image: Image.Image) -> tuple[int, int, int, int] | None:
        """The pixel box (on ``image``) of a translucent group's layer; None if empty."""
        w, h = image.size
        bounds = _bounds(items)
        if bounds is None:
            return None
        pad = 3  # round caps, curved joints and anti-aliasing slack, in pixels
        x0 = max(0, math.floor(bounds[0] * self.k - self.origin[0]) - pad)
        y0 = max(0, math.floor(bounds[1] * self.k - self.origin[1]) - pad)
        x1 = min(w, math.ceil(bounds[2] * self.k - self.origin[0]) + pad)
        y1 = min(h, math.ceil(bounds[3] * self.k - self.origin[1]) + pad)
        if x0 >= x1 or y0 >= y1:
            return None
        return x0, y0, x1, y1

    def draw(self, items: Iterable[Item], image: Image.Image) -> None:
        d = ImageDraw.Draw(image)
        for item in items:
            if isinstance(item, Group):
                if item.opacity < 1:
                    layer_box = self._layer_box(item.items, image)
                    if layer_box is not None:
                        x0, y0, x1, y1 = layer_box
                        layer = Image.new("RGBA", (x1 - x0, y1 - y0), (0, 0, 0, 0))
                        outer = self.origin
                        self.origin = (outer[0] + x0, outer[1] + y0)
                        try:
                            self.draw(item.items, layer)
                        finally:
                            self.origin = outer
                        table = [round(a * item.opacity) for a in range(256)]
                        layer.putalpha(layer.getchannel("A").point(table))
                        _blend(image, layer, (x0, y0))
                else:
                    self.draw(item.items, image)
                d = ImageDraw.Draw(image)
            elif isinstance(item, Poly):
                self.poly(d, image, item)
            elif isinstance(item, Line):
                self.line(d, item.points, item.paint)
            elif isinstance(item, Circle):
                c, r = self.xy(item.centre), item.r * self.k
                box = (c[0] - r, c[1] - r, c[0] + r, c[1] + r)
                w = round(item.paint.width * self.k) if item.paint.stroke else 0
                d.ellipse(box, fill=item.paint.fill, outline=item.paint.stroke if w else None, width=w)
            else:
                self.text(d, image, item)

    def poly(self, d: ImageDraw.ImageDraw, image: Image.Image, item: Poly) -> None:
        k, (ox, oy) = self.k, self.origin
        rings = [[(x * k - ox, y * k - oy) for x, y in ring] for ring in item.rings]  # self.xy, inlined
        if item.paint.fill:
            if len(rings) == 1:
                d.polygon(rings[0], fill=item.paint.fill)
            else:
                xs = [p[0] for p in rings[0]]
                ys = [p[1] for p in rings[0]]
                x0, y0 = math.floor(min(xs)), math.floor(min(ys))
                x1, y1 = math.ceil(max(xs)) + 1, math.ceil(max(ys)) + 1
                mask = Image.new("L", (x1 - x0, y1 - y0), 0)
                md = ImageDraw.Draw(mask)
                for i, ring in enumerate(rings):
                    md.polygon([(x - x0, y - y0) for x, y in ring], fill=255 if i == 0 else 0)
                image.paste(item.paint.fill, (x0, y0, x1, y1), mask)
        if item.paint.stroke:
            for outline in item.rings:
                self.line(d, (*outline, outline[0]), Paint(stroke=item.paint.stroke, width=item.paint.width))

    def line(self, d: ImageDraw.ImageDraw, points: Sequence[Pt], paint: Paint) -> None:
        if not paint.stroke or len(points) < 2:
            return
        pieces = [tuple(points)] if paint.dash is None else _dashes(points, *paint.dash)
        w = paint.width * self.k
        k, (ox, oy) = self.k, self.origin
        for piece in pieces:
            pts = [(x * k - ox, y * k - oy) for x, y in piece]  # self.xy, inlined
            d.line(pts, fill=paint.stroke, width=max(1, round(w)), joint="curve")
            if w >= 2.5:
                r = w / 2
                for x, y in (pts[0], pts[-1]):
                    d.ellipse((x - r, y - r, x + r, y + r), fill=paint.stroke)

    def text(self, d: ImageDraw.ImageDraw, image: Image.Image, item: Label) -> None:
        size = round(item.size * self.k, 1)
        font = _font(size)
        anchor = {"start": "lm", "middle": "mm", "end": "rm"}[item.anchor]
        at = self.xy(item.at)
        base, marks = _shape_text(item.text)
        placed = _place_marks(font, base, marks, at, item.anchor, size) if marks else []
        bold = max(0, round(size * 0.035)) if item.bold else 0
        mark_w = size * (0.11 if item.bold else 0.085)
        if item.halo:
            halo = max(1, round(item.halo * self.k))
            _draw_text(d, image, at, base, size, anchor, halo, HALO, self.labels)
            for points, dot in placed:
                _draw_mark(d, points, dot, mark_w + 2 * halo, HALO)
        _draw_text(d, image, at, base, size, anchor, bold, item.colour, self.labels)
        for points, dot in placed:
            _draw_mark(d, points, dot, mark_w, item.colour)


# -- labels drawn once ----------------------------------------------------------------------
# Drawing a label is FreeType rendering its glyphs (with a stroke for bold text and
# halos): most of a picture's drawing time, for labels that are the same from one
# picture to the next (district codes, unit letters, the legend's words). A label is
# drawn once as a greyscale mask, a sprite, kept for the process and in the cache
# directory (moonshine.cache; one file per map, ``Scene.labels``, so that a map's
# many labels never make another map's pictures read them), and laid on the picture
# in its colour. The mask is the
# one Pillow draws (the same text, font size, stroke, anchor and fraction of a pixel
# where it starts), and laying it in a colour is what Pillow's text drawing does with
# it: the same pixels. A label near the picture's top or left edge is drawn directly.

SpriteKey: TypeAlias = tuple[str, float, int, str, float, float]  # text, size, stroke, anchor, x and y fractions
Sprite: TypeAlias = tuple[int, int, int, int, bytes]  # offset from the label's pixel, width, height, mask
MAX_SPRITES = 5000  # kept in the cache for one map: beyond, only those of the last process
_sprites: dict[str, dict[SpriteKey, Sprite]] = {}  # label cache name (Scene.labels) -> its sprites
_sprites_used: dict[str, set[SpriteKey]] = {}
_sprites_new: set[str] = set()  # the label caches this process drew new sprites into
_sprites_made = 0


def _sprite_cache_key() -> bytes:
    import sys

    from PIL import __version__ as pillow

    freetype = getattr(ImageFont.core, "freetype2_version", "")
    return f"labels {pillow} {freetype} python {sys.version_info[:2]} {SUPERSAMPLE}".encode()


def _sprite_store(name: str) -> dict[SpriteKey, Sprite]:
    """The sprites of the label cache ``name``, read from the cache directory at first use."""
    store = _sprites.get(name)
    if store is None:
        from moonshine import cache

        found = cache.load_value("labels", _sprite_cache_key() + b" " + name.encode())
        store = _sprites[name] = found if isinstance(found, dict) else {}
    return store


def save_sprites() -> None:
    """Keep the labels drawn by this process (and what it learnt of the font's
    characters) in the cache directory, when it drew new ones."""
    global _sprites_made, _glyphs_made
    from moonshine import cache

    if _glyphs_made and _glyphs is not None:
        cache.store_value("glyphs", _sprite_cache_key(), _glyphs)
        _glyphs_made = 0
    for name in sorted(_sprites_new & set(_sprites)):
        store, used = _sprites[name], _sprites_used.get(name, set())
        kept = store if len(store) <= MAX_SPRITES else {k: store[k] for k in used}
        cache.store_value("labels", _sprite_cache_key() + b" " + name.encode(), kept)
    _sprites_new.clear()
    _sprites_made = 0


def _render_sprite(font: ImageFont.FreeTypeFont | ImageFont.ImageFont, key: SpriteKey, x: int, y: int) -> Sprite | None:
    """The label's mask, for a label whose pixel on the picture is ``(x, y)``; None
    when the picture's edge cuts it (then it is drawn directly)."""
    text, size, stroke, anchor, fx, fy = key
    span = int(size * (len(text) + 2)) + 4 * stroke + 8
    rise = int(2 * size) + 2 * stroke + 8
    while span < 100_000:
        left, top = min(span, x), min(rise, y)  # the canvas's edge stops at the picture's
        w, h = left + span, top + rise
        canvas = Image.new("L", (w, h), 0)
        # at (left + fx, top + fy): the same fractions of a pixel as on the picture, exactly
        # (a fraction of x plus a whole number not above x's is exact in floating point)
        draw = ImageDraw.Draw(canvas)
        draw.text((left + fx, top + fy), text, fill=255, font=font, anchor=anchor, stroke_width=stroke, stroke_fill=255)
        box = canvas.getbbox()
        if box is None:
            return 0, 0, 0, 0, b""
        if (box[0] == 0 and left == x) or (box[1] == 0 and top == y):
            return None  # the picture's edge cuts the label
        if box[0] > 0 and box[1] > 0 and box[2] < w and box[3] < h:
            mask = canvas.crop(box)
            return box[0] - left, box[1] - top, mask.width, mask.height, mask.tobytes()
        span, rise = 2 * span, 2 * rise  # the canvas was too small
    return None


def _draw_text(
    d: ImageDraw.ImageDraw,
    image: Image.Image,
    at: tuple[float, float],
    text: str,
    size: float,
    anchor: str,
    stroke: int,
    colour: str,
    labels: str,
) -> None:
    """``d.text`` with ``stroke_fill`` the same as ``fill``, by way of the label's sprite
    (kept in the label cache ``labels``, ``Scene.labels``)."""
    global _sprites_made
    font = _font(size)
    x, y = at
    if x < 0 or y < 0:
        d.text(at, text, fill=colour, font=font, anchor=anchor, stroke_width=stroke, stroke_fill=colour)
        return
    key: SpriteKey = (text, size, stroke, anchor, math.modf(x)[0], math.modf(y)[0])
    store = _sprite_store(labels)
    sprite = store.get(key)
    if sprite is None:
        sprite = _render_sprite(font, key, int(x), int(y))
        if sprite is None:
            d.text(at, text, fill=colour, font=font, anchor=anchor, stroke_width=stroke, stroke_fill=colour)
            return
        store[key] = sprite
        _sprites_made += 1
        _sprites_new.add(labels)
    _sprites_used.setdefault(labels, set()).add(key)
    dx, dy, w, h, mask = sprite
    if w and h:
        image.paste(colour, (int(x) + dx, int(y) + dy), Image.frombytes("L", (w, h), mask))


# The font Pillow always has (a subset of Aileron) covers ASCII only: accented
# letters are drawn as their base letter plus the accent, dashes as a line.
_COMBINING = {"\u0301": "acute", "\u0300": "grave", "\u0302": "circumflex", "\u0308": "diaeresis", "\u0327": "cedilla"}
_SUBSTITUTES: dict[str, tuple[str, str | None]] = {
    "\u2014": ("   ", "dash"),
    "\u2013": ("  ", "dash"),
    "\u2212": ("  ", "dash"),
    "\u2010": ("-", None),
    "\u2011": ("-", None),
    "\u00d7": ("x", None),
    "\u00a0": (" ", None),
    "\u202f": (" ", None),
    "\u0153": ("oe", None),
    "\u0152": ("OE", None),
    "\u00e6": ("ae", None),
    "\u00c6": ("AE", None),
    "\u00df": ("ss", None),
}
Mark: TypeAlias = tuple[int, int, str]  # first and last index in the base text, kind


def _ink(ch: str) -> bytes:
    image = Image.new("L", (32, 32), 0)
    ImageDraw.Draw(image).text((4, 4), ch, font=_font(20.0), fill=255)
    return image.tobytes()


@functools.cache
def _no_glyph() -> bytes:
    """What the font draws for a character it does not have (a box)."""
    return _ink("\uffff")


_glyphs: dict[str, bool] | None = None  # character -> whether the font draws it, kept with the sprites
_glyphs_made = 0


def _has_glyph(ch: str) -> bool:
    """Whether the default font really draws this character (the others come out as boxes)."""
    global _glyphs, _glyphs_made
    if _glyphs is None:
        from moonshine import cache

        found = cache.load_value("glyphs", _sprite_cache_key())
        _glyphs = found if isinstance(found, dict) else {}
    known = _glyphs.get(ch)
    if known is None:
        known = _glyphs[ch] = ch == " " or _ink(ch) != _no_glyph()
        _glyphs_made += 1
    return known


@functools.lru_cache(maxsize=1024)
def _shape_text(text: str) -> tuple[str, tuple[Mark, ...]]:
    """The text as the default font can draw it, and the marks to add by hand."""
    base: list[str] = []
    marks: list[Mark] = []
    for ch in text:
        if _has_glyph(ch):
            base.append(ch)
            continue
        if ch in _SUBSTITUTES:
            rep, mark = _SUBSTITUTES[ch]
            i = len(base)
            base.extend(rep)
            if mark:
                marks.append((i, len(base) - 1, mark))
            continue
        decomposed = unicodedata.normalize("NFD", ch)
        first, rest = decomposed[0], decomposed[1:]
        if _has_glyph(first) and rest and all(c in _COMBINING for c in rest):
            marks.extend((len(base), len(base), _COMBINING[c]) for c in rest)
            base.append(first)
        else:
            base.append("?")
    return "".join(base), tuple(marks)


def _place_marks(
    font: ImageFont.FreeTypeFont | ImageFont.ImageFont,
    base: str,
    marks: Sequence[Mark],
    at: Pt,
    anchor: str,
    s: float,
) -> list[tuple[tuple[Pt, ...], bool]]:
    """Accents and dashes in pixels: polylines, or dots (``True``) given as their centre."""
    if not isinstance(font, ImageFont.FreeTypeFont):
        return []
    width = font.getlength(base)
    left = at[0] - {"start": 0.0, "middle": width / 2, "end": width}[anchor]
    ascent, descent = font.getmetrics()
    baseline = at[1] + (ascent - descent) / 2
    out: list[tuple[tuple[Pt, ...], bool]] = []
    for first, last, kind in marks:
        xa = left + font.getlength(base[:first])
        xb = left + font.getlength(base[: last + 1])
        cx = (xa + xb) / 2
        top = baseline + font.getbbox(base[first], anchor="ls")[1]
        if kind == "acute":
            out.append((((cx - 0.06 * s, top - 0.07 * s), (cx + 0.09 * s, top - 0.25 * s)), False))
        elif kind == "grave":
            out.append((((cx + 0.06 * s, top - 0.07 * s), (cx - 0.09 * s, top - 0.25 * s)), False))
        elif kind == "circumflex":
            out.append(
                (((cx - 0.13 * s, top - 0.07 * s), (cx, top - 0.22 * s), (cx + 0.13 * s, top - 0.07 * s)), False)
            )
        elif kind == "diaeresis":
            out.append((((cx - 0.11 * s, top - 0.14 * s),), True))
            out.append((((cx + 0.11 * s, top - 0.14 * s),), True))
        elif kind == "cedilla":
            hook = ((cx, baseline), (cx, baseline + 0.09 * s), (cx + 0.08 * s, baseline + 0.15 * s))
            out.append(((*hook, (cx - 0.07 * s, baseline + 0.25 * s)), False))
        elif kind == "dash":
            y = baseline - 0.3 * s
            out.append((((xa + 0.06 * s, y), (xb - 0.06 * s, y)), False))
    return out


def _draw_mark(d: ImageDraw.ImageDraw, points: tuple[Pt, ...], dot: bool, width: float, colour: str) -> None:
    if dot:
        (x, y), r = points[0], width * 0.65
        d.ellipse((x - r, y - r, x + r, y + r), fill=colour)
        return
    d.line(list(points), fill=colour, width=max(1, round(width)), joint="curve")
    r = width / 2
    for x, y in (points[0], points[-1]):
        d.ellipse((x - r, y - r, x + r, y + r), fill=colour)


PNG_COMPRESS_LEVEL = 3


PNG_ROWS = 65536  # bytes of rows compressed at a time


def png_bytes(image: Image.Image, level: int = PNG_COMPRESS_LEVEL) -> bytes:
    """An RGB image as a PNG file, written here rather than by Pillow's PNG plugin:
    every row unfiltered (filter type 0), then zlib at ``level``. A map is mostly
    flat colour, which deflate packs well as it is: the file is smaller than with
    Pillow's adaptive filters (which try five filters on every row, two thirds of its
    encoding time), it is written in a third of the time, and saving loads none of
    Pillow's file-format plugins. The pixels are Pillow's public ``tobytes()``; the
    rows go to zlib some 64 KB at a time (the same stream as all at once).
    Deterministic: same pixels, same bytes."""
    import struct
    import zlib

    if image.mode != "RGB":
        raise PictureError(f"a PNG is written from an RGB image, not {image.mode}")
    width, height = image.size
    stride = width * 3
    packer = zlib.compressobj(level)
    packed: list[bytes] = []
    pixels = memoryview(image.tobytes())
    step = max(1, PNG_ROWS // stride) if stride else height
    for first in range(0, height, step):
        rows = range(first, min(first + step, height))
        packed.append(packer.compress(b"".join([b"\x00" + pixels[y * stride : (y + 1) * stride] for y in rows])))
    packed.append(packer.flush())

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8 bits, RGB, deflate, no interlace
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", b"".join(packed)) + chunk(b"IEND", b"")


def scene_png(scene: Scene, width: int = 1000) -> bytes:
    if not MIN_WIDTH <= width <= MAX_WIDTH:
        raise PictureError(f"picture width {width} is out of range ({MIN_WIDTH} to {MAX_WIDTH} pixels)")
    k = width / scene.width
    height = max(1, round(scene.height * k))
    painter = _Painter(scene, k * SUPERSAMPLE)
    painter.draw(scene.items, painter.image)
    save_sprites()
    image = painter.image
    if image.size == (width * SUPERSAMPLE, height * SUPERSAMPLE):
        image = image.reduce(SUPERSAMPLE)  # the mean of each 2 x 2 block: smooth edges, one pass
    else:
        image = image.resize((width, height), Image.Resampling.BOX)
    # zlib's level 3: levels 4 and up use the slower lazy matching, which buys little on a map
    return png_bytes(image)


def png_size(gmap: GameMap, st: GameState, width: int = 1000) -> tuple[int, int]:
    """The pixel size ``render_png`` gives for this map at this width."""
    scene = build_scene(gmap, st)
    return width, max(1, round(scene.height * width / scene.width))


def render_png(
    gmap: GameMap,
    st: GameState,
    *,
    arrows: Sequence[Arrow] = (),
    title: str = "",
    language: str = "en",
    width: int = 1000,
) -> bytes:
    """The map picture as PNG (for email: mail programs do not show SVG)."""
    return scene_png(build_scene(gmap, st, arrows=arrows, title=title, language=language), width)
