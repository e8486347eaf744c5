"""The map picture of a Moonshine turn, as a scene: districts in the colour of the
gang that controls them, features and police stations, units, the turn's orders as
arrows, the raided district and a legend, laid out from the map's geometry. The
painter (``moonshine.picture``) writes the scene as SVG or PNG."""

from __future__ import annotations

import bisect
import functools
import math
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

import msgspec

from moonshine.picture.colours import mix
from moonshine.picture.png import scene_png
from moonshine.picture.shapes import (
    BORDER,
    HALO,
    SYMBOL_INK,
    TEXT,
    Box,
    Circle,
    Group,
    Item,
    Label,
    Line,
    Paint,
    PictureError,
    Poly,
    Pt,
    Scene,
    cut_path,
    extent,
    ink,
    labels_name,
    luminance,
    moved,
    path_length,
    point_at,
    regular_polygon,
    rounded_rect,
    shift_right,
    smooth_path,
    text_on,
    vec_add,
    vec_len,
    vec_mul,
    vec_right,
    vec_sub,
    vec_unit,
)
from moonshine.picture.svg import scene_svg
from moonshine.text.catalogue import Catalogue, gettext_for, keyed, languages
from moonshine.variants.moonshine.calendar import Turn
from moonshine.variants.moonshine.geometry import Shape, load_geometry
from moonshine.variants.moonshine.map import Feature, GameMap, Gang, UnitKind
from moonshine.variants.moonshine.state import GameState, Unit

ARROW_KINDS = ("move", "support", "transport", "assault", "retreat")


class Arrow(msgspec.Struct, frozen=True):
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


class Dislodged(msgspec.Struct, frozen=True):
    """A unit dislodged this turn, drawn faded where it stood, with its retreat
    (an arrow of kind ``retreat`` from its district) or, disbanded, crossed out."""

    gang: str
    kind: UnitKind
    district: str
    retreat: str | None  # None: disbanded

    def label(self) -> str:
        return f"{self.kind.value} {self.district}"


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


NEUTRAL = "#f7f4ec"


WATER = "#d6e6f2"


WATER_TEXT = "#5b88ad"


STATION_FILL = "#1f3a93"


RAID_RED = "#d0021b"


CROSS = "#111111"


TINT = 0.42  # share of the gang colour in a controlled district's fill


def tint(colour: str) -> str:
    """The light fill of a district controlled by a gang of this colour."""
    return mix(colour, "#ffffff", TINT)


def district_fill(gang: Gang) -> str:
    """A district's fill under ``gang``: the map's ``fill`` for it (chosen so that every
    reader tells the gangs' districts apart: tests/test_colours.py), else a tint of
    its colour."""
    return gang.fill or tint(gang.colour)


CANVAS_W = 1000.0


MARGIN = 14.0


TITLE_H = 48.0


FOOT_H = 22.0


LEGEND_GAP = 14.0


class Frame(msgspec.Struct, frozen=True):
    """Equirectangular projection of lon/lat onto the canvas, north up."""

    lon0: float
    lat1: float
    kx: float  # cos of the map's middle latitude
    scale: float
    ox: float
    oy: float

    def xy(self, p: Pt) -> Pt:
        return self.ox + (p[0] - self.lon0) * self.kx * self.scale, self.oy + (self.lat1 - p[1]) * self.scale


class Layout(msgspec.Struct, frozen=True):
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
    star = regular_polygon((c[0], c[1] + 0.4 * scale), 6.6 * scale, 2.9 * scale, 5)
    disc = Paint(fill="#ffffff" if corrupter is None else corrupter, stroke=STATION_FILL if corrupter is None else TEXT)
    return (
        Circle(c, 8.6 * scale, Paint(disc.fill, disc.stroke, 1.4 * scale)),
        Poly((star,), Paint(fill=STATION_FILL if corrupter is None else "#ffffff")),
    )


def _unit_marker(kind: UnitKind, gang_colour: str, c: Pt) -> tuple[Item, ...]:
    paint = Paint(fill=gang_colour, stroke=ink(gang_colour) if luminance(gang_colour) > 0.3 else "#ffffff", width=1.3)
    if kind is UnitKind.H:
        h = UNIT_H / 2
        shape: Item = Poly((rounded_rect(c[0] - h, c[1] - h, UNIT_H, UNIT_H, 2.6),), paint)
    else:
        shape = Circle(c, UNIT_L, paint)
    outline = Circle(c, UNIT_L + 2.2, Paint(fill="#ffffff")) if kind is UnitKind.L else None
    halo: tuple[Item, ...] = (
        (outline,)
        if outline
        else (
            Poly(
                (rounded_rect(c[0] - UNIT_H / 2 - 1.8, c[1] - UNIT_H / 2 - 1.8, UNIT_H + 3.6, UNIT_H + 3.6, 4.0),),
                Paint(fill="#ffffff"),
            ),
        )
    )
    return (*halo, shape, Label((c[0], c[1] + 0.5), kind.value, UNIT_SIZE, text_on(gang_colour), bold=True))


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


ARROW_SHIFT = 2.6


HEAD_LEN = 11.0


HEAD_HALF = 5.6


DASH = (6.0, 4.5)


FAILED_OPACITY = 0.7


HOLD_RING = 13.5  # radius of the ring a support to hold draws round the held unit


MARK_GAP = 9.0  # failure marks nearer than this to one already drawn are left out (a head-to-head pair)


MARK_SHARES = (
    0.5,
    0.42,
    0.58,
    0.34,
    0.66,
    0.26,
    0.74,
    0.18,
    0.82,
)  # where along its arrow a failure mark may go, best first


MARK_CLEAR = 6.0  # a failure mark's reach (its cross's half-width and a little)


MARK_CELL = 64.0  # the grid (scene units) the district codes are sorted into for the marks


MARK_CODE_GROWTH = 1.3  # the district codes' boxes a failure mark keeps off, as a close-up grows them


def _head(tip: Pt, direction: Pt, length: float = HEAD_LEN, half: float = HEAD_HALF) -> tuple[Pt, ...]:
    d = vec_unit(direction)
    base = vec_sub(tip, vec_mul(d, length))
    n = vec_right(d)
    return tip, vec_add(base, vec_mul(n, half)), vec_add(base, vec_mul(n, -half))


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
    direction = vec_sub(body[-1], point_at(body, max(0.0, path_length(body) - HEAD_LEN)))
    if kind in ("move", "assault") and path_length(body) > HEAD_LEN:
        body = list(cut_path(body, 0.0, HEAD_LEN * 0.7))
    casing = Paint(stroke=HALO, width=width + 2.6)
    if len(body) >= 2 and path_length(body) > 0.5:
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
    ring = regular_polygon(c, 14.0, 9.5, 8, -math.pi / 8)
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


def _code_box(code: str, at: Pt, size: float = CODE_SIZE * MARK_CODE_GROWTH, halo: float = 2.4) -> Box:
    """The box a district code's ink covers, centred on ``at``: capitals of the bold
    font are at most 0.8 of its size across (the widest, M and W, about that) and 0.85
    high with their stroke, and the halo round them."""
    half_w = 0.4 * size * len(code) + halo
    half_h = 0.425 * size + halo
    return (at[0] - half_w, at[1] - half_h, at[0] + half_w, at[1] + half_h)


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
        return shift_right(smooth_path(raw), ARROW_SHIFT)

    def supported_point(a: Arrow) -> Pt:
        if a.target_end is None:
            return anchor(a.end)
        b = moves.get((a.end, a.target_end))
        if b is not None:
            line = route(b)
            if b.path:  # the middle of the move's last leg, into the contested district
                leg = vec_len(vec_sub(anchor(b.end), anchor(b.path[-1])))
                return point_at(line, path_length(line) - leg / 2)
            return point_at(line, path_length(line) / 2)
        far = station(a.target_end) if a.target_end == a.end else anchor(a.target_end)
        return vec_add(anchor(a.end), vec_mul(vec_sub(far, anchor(a.end)), 0.5))

    # the district codes' boxes (widened by a mark's reach) by cell of MARK_CELL, found
    # at the first failure mark: a mark looks only at the codes of its own cell
    code_cells: dict[tuple[int, int], list[Box]] = {}

    def mark_at(points: Sequence[Pt]) -> Pt:
        """Where a failed order's mark goes: the middle of its arrow, or the point
        nearest it that leaves every district code uncovered, or else covers them
        least (a close-up grows the codes: their boxes are taken a little larger)."""
        total = path_length(points)
        if total <= 0:
            return points[0]
        r = MARK_CLEAR
        if not code_cells:
            for code in gmap.districts:
                x0, y0, x1, y1 = _code_box(code, _code_at(layout.labels[code]))
                wide = (x0 - r, y0 - r, x1 + r, y1 + r)
                for cx in range(math.floor(wide[0] / MARK_CELL), math.floor(wide[2] / MARK_CELL) + 1):
                    for cy in range(math.floor(wide[1] / MARK_CELL), math.floor(wide[3] / MARK_CELL) + 1):
                        code_cells.setdefault((cx, cy), []).append(wide)

        def overlap(p: Pt) -> float:  # how deep the mark reaches into the codes it covers
            deepest = 0.0
            for b in code_cells.get((math.floor(p[0] / MARK_CELL), math.floor(p[1] / MARK_CELL)), ()):
                deepest = max(deepest, min(p[0] - b[0], b[2] - p[0], p[1] - b[1], b[3] - p[1]))
            return deepest

        best, least = points[0], math.inf
        for share in MARK_SHARES:
            p = point_at(points, total * share)
            depth = overlap(p)
            if depth <= 0:
                return p
            if depth < least:
                best, least = p, depth
        return best

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
            points = cut_path((anchor(a.start), held), 10.0, HOLD_RING)
            ring = Circle(held, HOLD_RING, Paint(stroke=ink(colour), width=1.8))
            shapes = (*_arrow_shape(a.kind, points, colour, failed, None)[:-1], ring)
        elif a.kind == "support":
            points = cut_path((anchor(a.start), supported_point(a)), 10.0, 2.0)
            shapes = _arrow_shape(a.kind, points, colour, failed, None)
        elif a.kind == "assault" and a.start == a.end:
            points = (station(a.end),)
            shapes = _burst(station(a.end), ink(colour), DASH if failed else None)
        else:
            line = route(a)
            end_gap = 13.0 if a.kind == "assault" else 11.0
            points = cut_path(line, 0.0 if a.kind == "transport" else 9.0, 0.0 if a.kind == "transport" else end_gap)
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
            where = mark_at(points)
            cell = (math.floor(where[0] / MARK_GAP), math.floor(where[1] / MARK_GAP))
            near = (p for dx in (-1, 0, 1) for dy in (-1, 0, 1) for p in marked.get((cell[0] + dx, cell[1] + dy), ()))
            if all(vec_len(vec_sub(where, seen)) > MARK_GAP for seen in near):  # one mark for a head-to-head pair
                marked.setdefault(cell, []).append(where)
                crosses.append(Group((("class", "failure-mark"),), _cross(where)))
    drawn.sort(key=lambda t: (t[0], t[1]))
    return [g for _, _, g in drawn], crosses


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
    items.append(Poly((rounded_rect(x, y, LEGEND_W, h, 7.0),), Paint(fill="#ffffff", stroke="#9aa5b1", width=1.0)))
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
        swatch = rounded_rect(cx - 12.0, -6.5, 24.0, 13.0, 2.0)
        row(
            [
                Poly((swatch,), Paint(fill=district_fill(g), stroke=BORDER, width=0.8)),
                Circle((cx, 0.0), 4.6, Paint(fill=g.colour, stroke=ink(g.colour), width=1.0)),
            ],
            g.name,
        )
    row(
        [Poly((rounded_rect(cx - 12.0, -6.5, 24.0, 13.0, 2.0),), Paint(fill=NEUTRAL, stroke=BORDER, width=0.8))],
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
    patch = rounded_rect(cx - 13.0, -7.0, 26.0, 14.0, 1.0)
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
            *_arrow_shape("support", cut_path(((cx - 18.0, 0.0), ring_at), 0.0, 8.0), dark, False, None)[:-1],
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


def _raid_badge(text: str, c: Pt) -> tuple[Item, ...]:
    size = 11.0
    w, h = len(text) * 0.68 * size + 8.0, 15.0
    box = rounded_rect(c[0] - w / 2, c[1] - h / 2, w, h, 3.0)
    return (
        Poly((box,), Paint(fill=RAID_RED, stroke="#ffffff", width=1.2)),
        Label((c[0], c[1] + 0.4), text, size, "#ffffff", bold=True),
    )


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
        fill = district_fill(gmap.gangs[controller]) if controller is not None and controller in gmap.gangs else NEUTRAL
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
        ghosts.setdefault(dl.district, vec_add(at, (-(UNIT_GAP * (n - 1)) - GHOST_SHIFT, 3.0)) if n else at)
    lines, crosses = _arrow_items(gmap, layout, arrows, placed, ghosts)
    items.append(Group((("id", "arrows"),), tuple(lines)))
    items.append(Group((("id", "symbols"),), tuple(symbols)))
    labels = [
        Label(_code_at(layout.labels[code]), code, CODE_SIZE, TEXT, bold=True, halo=2.4) for code in gmap.districts
    ]
    items.append(Group((("id", "labels"),), tuple(labels)))
    if st.raid is not None:
        badge = _raid_badge(words["badge"], vec_add(layout.labels[st.raid.district], (0.0, -27.0)))
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


PHONE_WIDTH = 368.0  # CSS px a report's picture is shown at on a 390 px phone (less the card's padding, the border)


SMALLEST_LABEL = 11.0  # CSS px: a close-up's district codes at least this size on that phone


def area_of(gmap: GameMap, st: GameState, gang: str) -> list[str]:
    """A gang's own area, in map order: the districts it controls or stands on, and
    their neighbours (empty for a gang with neither)."""
    own = set(st.controlled_by(gang)) | {u.district for u in st.units if u.gang == gang}
    return gmap.map_order(own | {n for code in own for n in gmap.neighbours(code)})


def closeup(
    gmap: GameMap,
    scene: Scene,
    codes: Iterable[str],
    *,
    title: str = "",
    shown_at: float = PHONE_WIDTH,
    smallest: float = SMALLEST_LABEL,
    boxes: dict[int, Box | None] | None = None,
) -> Scene:
    """The part of a map picture (``build_scene``'s) around ``codes``: cropped to
    their outlines, without the legend, title or credits, the district codes made
    large enough to read at ``smallest`` CSS px when the picture is shown ``shown_at``
    CSS px wide. ``boxes``: the extents of the scene's items, by item, kept across the
    close-ups of one scene."""
    if gmap.geometry is None:
        raise PictureError(f"map {gmap.name!r} has no geometry file: it cannot be drawn")
    layout = _layout(gmap.geometry)
    points = [p for code in codes for poly in layout.outlines[code] for ring in poly for p in ring]
    if not points:
        raise PictureError("a close-up needs at least one district")
    x0 = max(0.0, min(p[0] for p in points) - MARGIN)
    y0 = max(0.0, min(p[1] for p in points) - MARGIN)
    x1 = min(scene.width, max(p[0] for p in points) + MARGIN)
    y1 = min(scene.height, max(p[1] for p in points) + MARGIN)
    width, height = x1 - x0, y1 - y0
    grow = max(1.0, math.ceil(100 * smallest * width / (shown_at * CODE_SIZE)) / 100)  # rounded up
    dropped = {"legend", "title", "credits", "lake-name"}

    known = boxes if boxes is not None else {}

    def seen(item: Item, *, keep: bool = True) -> bool:  # drawn at least in part inside the crop
        """``keep``: the item is the scene's own, alive as long as it, so its extent may
        be kept by its id (a label grown here is not: its id may serve another later)."""
        box = known.get(id(item)) if keep else None
        if box is None:
            box = extent((item,))
            if keep:
                known[id(item)] = box
        return box is not None and box[0] <= x1 and box[2] >= x0 and box[1] <= y1 and box[3] >= y0

    items: list[Item] = []
    for item in scene.items:
        name = dict(item.attrs).get("id") if isinstance(item, Group) else None
        if name in dropped:
            continue
        if isinstance(item, Group):
            grown = name == "labels"
            inner = tuple(_grown(i, grow) for i in item.items) if grown else item.items
            kept = tuple(i for i in inner if seen(i, keep=not grown))  # the rest of the map: never painted
            if not kept:
                continue
            item = Group(item.attrs, kept, item.opacity)
        elif not seen(item):
            continue
        items.append(moved(item, -x0, -y0))
    return Scene(width, height, title or scene.title, tuple(items), scene.labels)


LEGEND_MARGIN = 2.0  # scene units around the legend's frame in its own picture


def legend(scene: Scene, *, title: str = "") -> Scene:
    """The legend of a map picture (``build_scene``'s) as a picture of its own: the
    scene's legend group as it is (the same symbols, in the same words), cropped to its
    frame, for a page to show beside the map at a size a phone reader reads."""
    group = next((i for i in scene.items if isinstance(i, Group) and dict(i.attrs).get("id") == "legend"), None)
    # the frame holds the words: the box of what is not a label (a label's extent is an estimate)
    box = extent(i for i in group.items if not isinstance(i, Label)) if group is not None else None
    if group is None or box is None:
        raise PictureError("the map picture has no legend")
    x0, y0, x1, y1 = box
    m = LEGEND_MARGIN
    shown = moved(group, m - x0, m - y0)
    return Scene(x1 - x0 + 2 * m, y1 - y0 + 2 * m, title or scene.title, (shown,), scene.labels)


def _grown(item: Item, k: float) -> Item:
    """A label ``k`` times larger (its halo too), about the same point."""
    if not isinstance(item, Label):
        return item
    return msgspec.structs.replace(item, size=item.size * k, halo=item.halo * k)


@functools.lru_cache(maxsize=8)
def _map_labels(geometry: Path, codes: tuple[str, ...]) -> str:
    """The label cache of a map's pictures, named by its geometry's bytes and its codes."""
    try:
        shapes = geometry.read_bytes()
    except OSError:
        shapes = str(geometry).encode()
    return labels_name(shapes, "\n".join(codes))


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
