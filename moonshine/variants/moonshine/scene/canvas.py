"""The districts of a Moonshine map laid out on the picture's canvas: the map's
geometry projected (north up) onto a canvas 1,000 units wide below the title, each
district's outline and label point there, and the lake's shore east of the city.
Worked out once per geometry and kept in the referee's cache."""

from __future__ import annotations

import bisect
import functools
import math
from pathlib import Path

import msgspec

from moonshine.picture.shapes import PictureError, Pt
from moonshine.variants.moonshine.geometry import Shape, load_geometry
from moonshine.variants.moonshine.map import GameMap

CANVAS_W = 1000.0


MARGIN = 14.0


TITLE_H = 48.0


FOOT_H = 22.0


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
def layout(path: Path) -> Layout:
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


def lake(layout: Layout, right: float) -> tuple[tuple[Pt, ...], ...]:
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


def check_district(gmap: GameMap, code: str, what: str) -> str:
    """``code``, a district of the map; else a PictureError that names ``what`` drew it."""
    if code not in gmap.districts:
        raise PictureError(f"{what}: unknown district {code!r}")
    return code
