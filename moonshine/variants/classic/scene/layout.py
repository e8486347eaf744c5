"""The layout of a board's picture, read from ``layout.yaml`` in the board's folder:
where each province's unit, code and coasts go, the powers' colours, and the
provinces' shapes: with ``kind: shapes`` read from a GeoJSON file beside it (in the
picture's pixels, the edges two provinces share found from the corners their
outlines share), with ``kind: cells`` the union of the Voronoi cells of a few
hand-placed points, with ``kind: nodes`` none (each province a disc). Checked
against the board, and kept once read."""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import msgspec
import yaml

from moonshine.errors import MapError
from moonshine.picture.colours import rgb
from moonshine.picture.shapes import Pt
from moonshine.variants.classic.board import MAPS_DIR, ClassicMap, province_of
from moonshine.variants.classic.scene.outlines import cells, key, rings, shared_edges
from moonshine.variants.classic.scene.polylines import Path_, Shape_

LAYOUT_FILE = "layout.yaml"
LABEL_ABOVE = 27.0  # a province's code stands this far above its unit unless placed


class ProvinceLayout(msgspec.Struct, frozen=True):
    code: str
    at: Pt  # where its unit stands
    label: Pt  # where its code is written
    points: tuple[Pt, ...]  # the Voronoi sites that make its shape (``at`` alone by default)
    coasts: Mapping[str, Pt]  # a coast region (STP/NC) -> where a fleet on it stands


class BoardLayout(msgspec.Struct, frozen=True):
    """A board's picture layout, read from its ``layout.yaml`` (see the module's text)."""

    source: str
    kind: str  # "shapes", "cells" or "nodes"
    width: float
    height: float
    provinces: Mapping[str, ProvinceLayout]
    colours: Mapping[str, str]  # power -> colour
    offboard: tuple[Pt, ...] = ()
    node_radius: float = 60.0
    # read for ``shapes``, computed for ``cells``: each province's polygons, the land
    # beyond the board, and the edges two provinces share on the drawing (as polylines)
    shapes: Mapping[str, tuple[Shape_, ...]] = msgspec.field(default_factory=dict)
    offboard_cells: tuple[Shape_, ...] = ()
    shared: Mapping[tuple[str, str], tuple[Path_, ...]] = msgspec.field(default_factory=dict)


def _point(value: Any, src: str, key: str, width: float, height: float) -> Pt:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)
    ):
        raise MapError(src, key, f"expected a point [x, y], found {value!r}")
    x, y = float(value[0]), float(value[1])
    if not (0 <= x <= width and 0 <= y <= height):
        raise MapError(src, key, f"the point [{x:g}, {y:g}] is outside the frame (0..{width:g}, 0..{height:g})")
    return x, y


def has_layout(gmap: ClassicMap) -> bool:
    """Whether the board's folder has a picture layout."""
    return (_board_dir(gmap) / LAYOUT_FILE).is_file()


def _board_dir(gmap: ClassicMap) -> Path:
    return gmap.directory if gmap.directory is not None else MAPS_DIR / gmap.info.name


def layout_of(gmap: ClassicMap) -> BoardLayout:
    """The layout of the board's picture, from ``layout.yaml`` in its folder."""
    path = _board_dir(gmap) / LAYOUT_FILE
    if not path.is_file():
        raise MapError(
            str(path),
            "",
            f"the board {gmap.info.name!r} has no map picture: its folder has no {LAYOUT_FILE} "
            f"(write one: see {MAPS_DIR / 'classic' / LAYOUT_FILE} or {MAPS_DIR / 'pure' / LAYOUT_FILE})",
        )
    return _load_layout(path, _board_key(gmap))


def _board_key(gmap: ClassicMap) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...], tuple[str, ...]]:
    """What the layout is checked against (hashable, for the cache)."""
    provinces = tuple(sorted(gmap.provinces))
    coasts = tuple(tuple(v) for _, v in sorted(gmap.coasts.items()))
    return provinces, coasts, tuple(gmap.powers)


@functools.lru_cache(maxsize=8)
def _load_layout(path: Path, key: tuple[tuple[str, ...], tuple[tuple[str, ...], ...], tuple[str, ...]]) -> BoardLayout:
    provinces, coast_lists, powers = key
    coasts = {c: province_of(c) for regs in coast_lists for c in regs}
    src = str(path)
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise MapError(src, "", f"cannot read ({exc.strerror or exc})") from None
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        raise MapError(src, "", f"not valid YAML ({exc})") from None
    if not isinstance(raw, dict):
        raise MapError(src, "", "expected a mapping (kind, size, colours, provinces)")
    kind = raw.get("kind", "cells")
    if kind not in ("shapes", "cells", "nodes"):
        raise MapError(src, "kind", f"expected shapes, cells or nodes, found {kind!r}")
    known = (
        {"kind", "colours", "geometry"}
        if kind == "shapes"
        else {"kind", "size", "colours", "provinces", "offboard", "node_radius"}
    )
    unknown = sorted(str(k) for k in raw if k not in known)
    if unknown:
        raise MapError(src, unknown[0], f"unknown key (expected one of {', '.join(sorted(known))})")
    colours = _colours(raw.get("colours"), src, powers)
    if kind == "shapes":
        name = raw.get("geometry")
        if not isinstance(name, str) or not name or "/" in name or "\\" in name:
            raise MapError(src, "geometry", "expected the name of a GeoJSON file beside this one")
        return _read_shapes(path.parent / name, src, provinces, coasts, colours)
    size = raw.get("size")
    if (
        not isinstance(size, list)
        or len(size) != 2
        or not all(isinstance(v, (int, float)) and not isinstance(v, bool) and v > 0 for v in size)
    ):
        raise MapError(src, "size", "expected the frame's [width, height], e.g. [1000, 860]")
    width, height = float(size[0]), float(size[1])
    entries = raw.get("provinces")
    if not isinstance(entries, dict):
        raise MapError(src, "provinces", "expected a mapping of province codes to their places")
    missing = [p for p in provinces if p not in entries]
    if missing:
        raise MapError(src, "provinces", f"no place for {', '.join(missing)} (every province of the board needs one)")
    out: dict[str, ProvinceLayout] = {}
    for code, entry in entries.items():
        k = f"provinces.{code}"
        if code not in provinces:
            raise MapError(src, k, "no such province on this board (see its provinces.csv)")
        if not isinstance(entry, dict) or "at" not in entry:
            raise MapError(src, k, "expected {at: [x, y]} and optionally label, points, coasts")
        bad = sorted(str(x) for x in entry if x not in ("at", "label", "points", "coasts"))
        if bad:
            raise MapError(src, f"{k}.{bad[0]}", "unknown key (expected at, label, points, coasts)")
        at = _point(entry["at"], src, f"{k}.at", width, height)
        label = (
            _point(entry["label"], src, f"{k}.label", width, height)
            if "label" in entry
            else (at[0], at[1] - LABEL_ABOVE)
        )
        more = entry.get("points") or []
        if not isinstance(more, list):
            raise MapError(src, f"{k}.points", "expected a list of points [[x, y], ...]")
        pts = tuple(_point(p, src, f"{k}.points", width, height) for p in more) or (at,)
        own = {c: p for c, p in coasts.items() if p == code}
        given = entry.get("coasts") or {}
        if not isinstance(given, dict):
            raise MapError(src, f"{k}.coasts", "expected a mapping of coasts to points, e.g. {NC: [x, y]}")
        places: dict[str, Pt] = {}
        for c, p in given.items():
            region = f"{code}/{str(c).upper()}"
            if region not in own:
                raise MapError(
                    src, f"{k}.coasts.{c}", f"{code} has no such coast (its coasts: {', '.join(own) or 'none'})"
                )
            places[region] = _point(p, src, f"{k}.coasts.{c}", width, height)
        lacking = [c for c in own if c not in places]
        if lacking:
            raise MapError(src, f"{k}.coasts", f"no place for {', '.join(sorted(lacking))}")
        out[code] = ProvinceLayout(code, at, label, pts, dict(sorted(places.items())))
    off_raw = raw.get("offboard") or []
    if not isinstance(off_raw, list):
        raise MapError(src, "offboard", "expected a list of points [[x, y], ...]")
    offboard = tuple(_point(p, src, "offboard", width, height) for p in off_raw)
    radius = raw.get("node_radius", 60)
    if not isinstance(radius, (int, float)) or isinstance(radius, bool) or radius <= 0:
        raise MapError(src, "node_radius", "expected a positive number")
    layout = BoardLayout(src, kind, width, height, dict(sorted(out.items())), colours, offboard, float(radius))
    if kind == "cells":
        layout = _with_cells(layout)
    return layout


def _colours(raw: Any, src: str, powers: Sequence[str]) -> dict[str, str]:
    if not isinstance(raw, dict):
        raise MapError(src, "colours", f"expected a colour for each power ({', '.join(powers)})")
    colours: dict[str, str] = {}
    for p in powers:
        c = raw.get(p)
        if not isinstance(c, str) or len(c) != 7 or not c.startswith("#"):
            raise MapError(src, f"colours.{p}", f"expected a colour like '#d55e00', found {c!r}")
        try:
            rgb(c)
        except ValueError:
            raise MapError(src, f"colours.{p}", f"expected a colour like '#d55e00', found {c!r}") from None
        colours[p] = c.lower()
    extra = sorted(str(k) for k in raw if k not in powers)
    if extra:
        raise MapError(src, f"colours.{extra[0]}", f"no such power on this board (the powers: {', '.join(powers)})")
    return colours


def _read_shapes(
    path: Path, layout_src: str, provinces: Sequence[str], coasts: Mapping[str, str], colours: dict[str, str]
) -> BoardLayout:
    """A ``shapes`` layout: the province shapes, unit and label places of a GeoJSON
    file in the picture's pixels (``scripts/build_classic_map.py`` writes the standard
    board's): a FeatureCollection with the frame's ``size``, one feature per province
    (``code``, ``unit``, ``label``, ``coasts``; a Polygon or MultiPolygon) and any
    number with ``offboard: true`` (land beyond the board)."""
    import json  # here: only a board drawn from shapes reads JSON

    src = str(path)
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise MapError(src, "", f"cannot read the geometry named by {layout_src} ({exc.strerror or exc})") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise MapError(src, "", f"not valid JSON ({exc})") from None
    features = raw.get("features") if isinstance(raw, dict) else None
    size = raw.get("size") if isinstance(raw, dict) else None
    if not isinstance(features, list):
        raise MapError(src, "features", "expected a GeoJSON FeatureCollection")
    if (
        not isinstance(size, list)
        or len(size) != 2
        or not all(isinstance(v, (int, float)) and not isinstance(v, bool) and v > 0 for v in size)
    ):
        raise MapError(src, "size", "expected the frame's [width, height] in pixels")
    width, height = float(size[0]), float(size[1])
    out: dict[str, ProvinceLayout] = {}
    shapes: dict[str, tuple[Shape_, ...]] = {}
    offboard: list[Shape_] = []
    for i, f in enumerate(features):
        k = f"features[{i}]"
        props = f.get("properties") if isinstance(f, dict) else None
        geometry = f.get("geometry") if isinstance(f, dict) else None
        if not isinstance(props, dict) or not isinstance(geometry, dict):
            raise MapError(src, k, "expected a feature with properties and a geometry")
        polygons = _polygons_of(geometry, src, f"{k}.geometry")
        if props.get("offboard") is True:
            offboard.extend(polygons)
            continue
        code = props.get("code")
        if not isinstance(code, str) or code not in provinces:
            raise MapError(src, f"{k}.properties.code", f"no such province on this board: {code!r}")
        if code in out:
            raise MapError(src, f"{k}.properties.code", f"{code} is given twice")
        at = _point(props.get("unit"), src, f"{k}.properties.unit", width, height)
        label = _point(props.get("label"), src, f"{k}.properties.label", width, height)
        own = sorted(c for c, p in coasts.items() if p == code)
        given = props.get("coasts") or {}
        if not isinstance(given, dict) or sorted(given) != own:
            raise MapError(src, f"{k}.properties.coasts", f"expected a place for each of {code}'s coasts: {own}")
        places = {c: _point(p, src, f"{k}.properties.coasts.{c}", width, height) for c, p in sorted(given.items())}
        out[code] = ProvinceLayout(code, at, label, (at,), places)
        shapes[code] = polygons
    missing = [p for p in provinces if p not in out]
    if missing:
        raise MapError(src, "features", f"no shape for {', '.join(missing)} (every province of the board needs one)")
    return BoardLayout(
        src,
        "shapes",
        width,
        height,
        dict(sorted(out.items())),
        colours,
        shapes=dict(sorted(shapes.items())),
        offboard_cells=tuple(offboard),
        shared=shared_edges(shapes),
    )


def _polygons_of(geometry: dict[str, Any], src: str, key: str) -> tuple[Shape_, ...]:
    """The polygons of a Polygon or MultiPolygon, each ring without its repeated last point."""
    kind, coords = geometry.get("type"), geometry.get("coordinates")
    if kind not in ("Polygon", "MultiPolygon") or not isinstance(coords, list):
        raise MapError(src, key, f"expected a Polygon or a MultiPolygon, found {kind!r}")
    out: list[Shape_] = []
    try:
        for polygon in [coords] if kind == "Polygon" else coords:
            rings: list[tuple[Pt, ...]] = []
            for ring in polygon:
                pts = tuple((float(x), float(y)) for x, y in ring)
                if len(pts) < 4 or pts[0] != pts[-1]:
                    raise MapError(src, key, "a ring must be closed and have three corners at least")
                rings.append(pts[:-1])
            out.append(tuple(rings))
    except (TypeError, ValueError):
        raise MapError(src, key, "expected polygons of rings of [x, y] points") from None
    return tuple(out)


def _with_cells(layout: BoardLayout) -> BoardLayout:
    sites: list[Pt] = []
    owner: list[str] = []
    for code, p in layout.provinces.items():
        for pt in p.points:
            sites.append(pt)
            owner.append(code)
    for pt in layout.offboard:
        sites.append(pt)
        owner.append("")
    seen: dict[tuple[int, int], int] = {}
    for i, s in enumerate(sites):
        if key(s) in seen:
            first, second = owner[seen[key(s)]] or "offboard", owner[i] or "offboard"
            raise MapError(
                layout.source, f"provinces.{second}", f"the point [{s[0]:g}, {s[1]:g}] is also a point of {first}"
            )
        seen[key(s)] = i
    tagged = cells(sites, layout.width, layout.height)
    outline: dict[str, list[tuple[Pt, Pt]]] = {}
    shared: dict[tuple[str, str], list[Path_]] = {}
    for i, cell in enumerate(tagged):
        mine = owner[i]
        for k, (a, t) in enumerate(cell):
            b = cell[(k + 1) % len(cell)][0]
            theirs = owner[t] if t >= 0 else None
            if theirs == mine:
                continue
            outline.setdefault(mine, []).append((a, b))
            if theirs and mine and mine < theirs and math.hypot(b[0] - a[0], b[1] - a[1]) > 0.05:
                shared.setdefault((mine, theirs), []).append((a, b))
    shapes = {code: tuple((ring,) for ring in rings(outline.get(code, []))) for code in layout.provinces}
    off = tuple((tuple(p for p, _ in tagged[i]),) for i in range(len(sites)) if owner[i] == "")
    return BoardLayout(
        layout.source,
        layout.kind,
        layout.width,
        layout.height,
        layout.provinces,
        layout.colours,
        layout.offboard,
        layout.node_radius,
        shapes,
        off,
        {k: tuple(v) for k, v in sorted(shared.items())},
    )
