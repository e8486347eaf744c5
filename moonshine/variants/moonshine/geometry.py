"""District shapes from the map's GeoJSON file: outlines for the map picture and
shared-border lengths for the map check (R1: a border of positive length makes
neighbours; a corner-only contact does not)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from pathlib import Path

import msgspec

from moonshine.errors import MapError

Point = tuple[float, float]  # (longitude, latitude)
Ring = list[Point]

# Shorter shared borders count as corner contacts (street jogs): the data's own rule.
MIN_BORDER_M = 50.0


class Shape(msgspec.Struct, frozen=True):
    code: str
    name: str
    polygons: tuple[tuple[Ring, ...], ...]  # each polygon: outer ring, then holes
    label: Point


def load_geometry(path: Path) -> dict[str, Shape]:
    import json  # here: a picture whose layout is in the cache reads no GeoJSON

    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise MapError(str(path), "", f"cannot read the geometry file ({exc.strerror or exc})") from None
    except json.JSONDecodeError as exc:
        raise MapError(str(path), "", f"not valid JSON: {exc}") from None
    shapes: dict[str, Shape] = {}
    features = raw.get("features") if isinstance(raw, dict) else None
    if not isinstance(features, list):
        raise MapError(str(path), "features", "expected a GeoJSON FeatureCollection")
    for i, f in enumerate(features):
        try:
            props = f["properties"]
            code = str(props["code"])
            geom = f["geometry"]
            if geom["type"] == "Polygon":
                coords = [geom["coordinates"]]
            elif geom["type"] == "MultiPolygon":
                coords = geom["coordinates"]
            else:
                raise MapError(str(path), f"features[{i}].geometry", f"unsupported type {geom['type']!r}")
            polygons = tuple(tuple([(float(x), float(y)) for x, y, *_ in ring] for ring in poly) for poly in coords)
            lx, ly = props.get("label_point") or _centre(polygons)
            shapes[code] = Shape(code, str(props.get("name", code)), polygons, (float(lx), float(ly)))
        except (KeyError, TypeError, ValueError) as exc:
            raise MapError(str(path), f"features[{i}]", f"malformed feature ({exc})") from None
    return shapes


def _centre(polygons: tuple[tuple[Ring, ...], ...]) -> Point:
    pts = [p for poly in polygons for p in poly[0]]
    return (sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts))


def _metres(a: Point, b: Point, lat0: float) -> float:
    dx = (a[0] - b[0]) * 111_320.0 * math.cos(math.radians(lat0))
    dy = (a[1] - b[1]) * 110_574.0
    return math.hypot(dx, dy)


class Contacts(msgspec.Struct, frozen=True):
    borders: Mapping[tuple[str, str], float]  # pairs (sorted) sharing a border, length in metres
    corners: Mapping[tuple[str, str], float]  # pairs that touch only at a corner (or < MIN_BORDER_M)


def contacts(shapes: Mapping[str, Shape]) -> Contacts:
    """Which districts share a border and which only touch at a corner. Shapes
    must share exact vertices along common borders (a topological simplification)."""
    lat0 = sum(s.label[1] for s in shapes.values()) / max(1, len(shapes))
    edges: dict[str, set[tuple[Point, Point]]] = {}
    vertices: dict[str, set[Point]] = {}
    for code, s in shapes.items():
        es: set[tuple[Point, Point]] = set()
        for poly in s.polygons:
            for ring in poly:
                for p, q in itertools.pairwise(ring):
                    if p != q:
                        es.add((min(p, q), max(p, q)))
        edges[code] = es
        vertices[code] = {p for e in es for p in e}
    borders: dict[tuple[str, str], float] = {}
    corners: dict[tuple[str, str], float] = {}
    for a, b in itertools.combinations(sorted(shapes), 2):
        common = edges[a] & edges[b]
        length = sum(_metres(p, q, lat0) for p, q in common)
        if length >= MIN_BORDER_M:
            borders[(a, b)] = length
        elif common or vertices[a] & vertices[b]:
            corners[(a, b)] = length
    return Contacts(borders, corners)
