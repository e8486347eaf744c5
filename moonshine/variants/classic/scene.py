"""The map picture of a board of the classic family (the standard Diplomacy board,
Pure, any board folder with a ``layout.yaml``): provinces, supply centres tinted by
owner, units, the phase's orders as arrows with their results, dislodged units and
their retreats, builds and disbands, a legend and a title that says what is shown.

No published drawing of the standard board is used: ``layout.yaml`` in the board's
folder says how its provinces are drawn. With ``kind: shapes`` (the standard board)
they are read from a GeoJSON file beside it, in the picture's pixels, with where
each unit, name and coast goes: the standard board's is drawn from Natural Earth's
coastline by ``scripts/build_classic_map.py`` (see ``maps/classic/README.md``), and
the edges two provinces share are found from the corners their outlines share.
With ``kind: cells`` each province is the union of the Voronoi cells of a few
hand-placed points, clipped to the frame. Either way, neighbours on the board share
an edge drawn by the kind of border (armies only, fleets only, both); two provinces
that share an edge on the drawing but no border on the board get a heavy "no
border" line, and a border of the board that the drawing does not show as a shared
edge is drawn as a link between the two provinces. With ``kind: nodes`` (Pure) each
province is a disc and every border a link. The provinces' names are drawn over the
orders' arrows and under the units.

The picture is a scene of plain shapes (``moonshine.picture.shapes``' ``Scene``), written
out as SVG (``xml.etree.ElementTree``) or drawn as PNG (Pillow). Pure: the board,
the state at the start of the phase and the phase's outcome in; text and bytes out;
same inputs, same bytes."""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, TypeAlias

import msgspec
import yaml

from moonshine.errors import MapError
from moonshine.picture.colours import mix, rgb
from moonshine.picture.png import label_width, scene_png
from moonshine.picture.shapes import (
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
    extent,
    ink,
    labels_name,
    moved,
    text_on,
)
from moonshine.picture.svg import scene_svg
from moonshine.text.catalogue import Catalogue, fill, fmt, keyed, languages
from moonshine.variants.classic.board import MAPS_DIR, ClassicMap, Kind, Terrain, province_of
from moonshine.variants.classic.orders import (
    Build,
    Convoy,
    Disband,
    Move,
    Order,
    OrderError,
    Retreat,
    SupportHold,
    SupportMove,
    parse_order,
)
from moonshine.variants.classic.phases import PhaseOutcome
from moonshine.variants.classic.state import ClassicState, Step, Unit

LAYOUT_FILE = "layout.yaml"
LABEL_ABOVE = 27.0  # a province's code stands this far above its unit unless placed
MIN_EDGE = 10.0  # a shared edge shorter than this does not show a border: a link is drawn

# -- words ---------------------------------------------------------------------------------

_WORDS: Catalogue = {
    "classic.picture.spring": "Spring",
    "classic.picture.fall": "Autumn",
    "classic.picture.winter": "Winter",
    "classic.picture.retreats": "retreats",
    "classic.picture.movement_title": "{season} {year}: orders and results",
    "classic.picture.retreats_title": "{season} {year}, retreats: orders and results",
    "classic.picture.adjustments_title": "{season} {year}: builds and disbands",
    "classic.picture.position_title": "{season} {year}: position",
    "classic.picture.powers": "Powers",
    "classic.picture.centres": ("{n} centre", "{n} centres"),
    "classic.picture.board": "Board",
    "classic.picture.land": "land",
    "classic.picture.impassable": "impassable",
    "classic.picture.sea": "sea",
    "classic.picture.centre_mark": "supply centre (owner's colour)",
    "classic.picture.coast": "coast of a province with two",
    "classic.picture.coast_tags": "nc, sc, ec: ",
    "classic.picture.army_border": "border for armies only",
    "classic.picture.fleet_border": "border for fleets only",
    "classic.picture.both_border": "border for armies and fleets",
    "classic.picture.no_border": "no border",
    "classic.picture.link": "border where the shapes do not touch",
    "classic.picture.orders": "Units and orders",
    "classic.picture.army": "army (A)",
    "classic.picture.fleet": "fleet (F)",
    "classic.picture.move": "move",
    "classic.picture.support": "support to a move",
    "classic.picture.support_hold": "support to a unit that holds",
    "classic.picture.convoy": "convoy (ring round the fleet)",
    "classic.picture.retreat": "retreat",
    "classic.picture.failed": "failed (dashed, crossed)",
    "classic.picture.dislodged": "dislodged",
    "classic.picture.built": "built",
    "classic.picture.disbanded": "disbanded",
    "classic.picture.neutral": "neutral",
}

# -- colours -------------------------------------------------------------------------------

LAND = "#f3eee2"
SEA = "#cfe2f0"
SEA_TEXT = "#2f5f8a"
OFFBOARD = "#ececec"
OFFBOARD_LINE = "#b5b5b5"
TEXT = "#1e1e1e"
HALO = "#ffffff"
ARMY_LINE = "#8a7a66"  # a border armies cross
FLEET_LINE = "#5b8fc0"  # a border fleets cross
WALL = "#303030"
CROSS = "#111111"
DISLODGED = "#c8102e"
TINT = 0.6  # share of the owner's colour in an owned supply centre's fill


# -- the layout ------------------------------------------------------------------------------


class ProvinceLayout(msgspec.Struct, frozen=True):
    code: str
    at: Pt  # where its unit stands
    label: Pt  # where its code is written
    points: tuple[Pt, ...]  # the Voronoi sites that make its shape (``at`` alone by default)
    coasts: Mapping[str, Pt]  # a coast region (STP/NC) -> where a fleet on it stands


Path_: TypeAlias = tuple[Pt, ...]  # an open polyline
Shape_: TypeAlias = tuple[tuple[Pt, ...], ...]  # a polygon: its outer ring, then its holes


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


# -- shapes from a GeoJSON file ------------------------------------------------------------


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
        shared=_shared_edges(shapes),
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


def _shared_edges(shapes: Mapping[str, tuple[Shape_, ...]]) -> dict[tuple[str, str], tuple[Path_, ...]]:
    """The edges two provinces share: the segments both outlines have (the shapes share
    their corners exactly), joined into polylines."""
    owners: dict[tuple[Pt, Pt], list[str]] = {}
    for code, polygons in shapes.items():
        for ring in (r for polygon in polygons for r in polygon):
            for a, b in zip(ring, (*ring[1:], ring[0]), strict=True):
                if a != b:
                    owners.setdefault((a, b) if a < b else (b, a), []).append(code)
    segments: dict[tuple[str, str], list[tuple[Pt, Pt]]] = {}
    for seg, codes in owners.items():
        if len(codes) == 2 and codes[0] != codes[1]:
            x, y = sorted(codes)
            segments.setdefault((x, y), []).append(seg)
    return {pair: _joined(segs) for pair, segs in sorted(segments.items())}


def _joined(segments: Sequence[tuple[Pt, Pt]]) -> tuple[Path_, ...]:
    """Segments joined end to end into as few polylines as their meeting points allow."""
    ends: dict[Pt, list[Pt]] = {}
    for a, b in segments:
        ends.setdefault(a, []).append(b)
        ends.setdefault(b, []).append(a)
    used: set[tuple[Pt, Pt]] = set()
    out: list[Path_] = []

    def free(p: Pt) -> Pt | None:
        return next((q for q in ends[p] if ((p, q) if p < q else (q, p)) not in used), None)

    for odd in (True, False):  # from the loose ends first, then round the closed loops
        for start in sorted(ends):
            if odd and len(ends[start]) % 2 == 0:
                continue
            while free(start) is not None:
                path = [start]
                here: Pt | None = start
                while here is not None and (nxt := free(here)) is not None:
                    used.add((here, nxt) if here < nxt else (nxt, here))
                    path.append(nxt)
                    here = nxt
                out.append(tuple(path))
    return tuple(out)


# -- Voronoi cells ---------------------------------------------------------------------------

# A polygon as its corners, each with the site across the edge that starts there
# (-1: the frame).
_Tagged = list[tuple[Pt, int]]


def _clip(poly: _Tagged, site: Pt, other: Pt, tag: int) -> _Tagged:
    """The part of ``poly`` nearer ``site`` than ``other``."""
    mx, my = (site[0] + other[0]) / 2, (site[1] + other[1]) / 2
    nx, ny = other[0] - site[0], other[1] - site[1]

    def side(p: Pt) -> float:
        return (p[0] - mx) * nx + (p[1] - my) * ny  # > 0: nearer ``other``

    out: _Tagged = []
    n = len(poly)
    for i in range(n):
        p, t = poly[i]
        q = poly[(i + 1) % n][0]
        sp, sq = side(p), side(q)
        if sp <= 0:
            out.append((p, t))
            if sq > 0:
                k = sp / (sp - sq)
                out.append(((p[0] + k * (q[0] - p[0]), p[1] + k * (q[1] - p[1])), tag))
        elif sq <= 0:
            k = sp / (sp - sq)
            out.append(((p[0] + k * (q[0] - p[0]), p[1] + k * (q[1] - p[1])), t))
    return out


def _cells(sites: Sequence[Pt], width: float, height: float) -> list[_Tagged]:
    frame: _Tagged = [((0.0, 0.0), -1), ((width, 0.0), -1), ((width, height), -1), ((0.0, height), -1)]
    cells: list[_Tagged] = []
    for i, s in enumerate(sites):
        others = sorted(
            (j for j in range(len(sites)) if j != i),
            key=lambda j: (sites[j][0] - s[0]) ** 2 + (sites[j][1] - s[1]) ** 2,
        )
        poly = frame
        for j in others:
            o = sites[j]
            reach = max(math.hypot(p[0] - s[0], p[1] - s[1]) for p, _ in poly)
            if math.hypot(o[0] - s[0], o[1] - s[1]) > 2 * reach:
                break  # no farther site can cut this cell
            poly = _clip(poly, s, o, j)
            if not poly:
                break
        cells.append(poly)
    return cells


def _key(p: Pt) -> tuple[int, int]:
    return round(p[0] * 8), round(p[1] * 8)


def _rings(edges: Sequence[tuple[Pt, Pt]]) -> tuple[tuple[Pt, ...], ...]:
    """Join directed edges end to start into closed rings."""
    starts: dict[tuple[int, int], list[int]] = {}
    for i, (a, _) in enumerate(edges):
        starts.setdefault(_key(a), []).append(i)
    used = [False] * len(edges)
    rings: list[tuple[Pt, ...]] = []
    for i in range(len(edges)):
        if used[i]:
            continue
        ring: list[Pt] = []
        j: int | None = i
        while j is not None and not used[j]:
            used[j] = True
            a, b = edges[j]
            ring.append(a)
            nxt = [k for k in starts.get(_key(b), []) if not used[k]]
            j = nxt[0] if nxt else None
        if len(ring) >= 3:
            rings.append(_simplify(ring))
    return tuple(rings)


def _simplify(ring: Sequence[Pt]) -> tuple[Pt, ...]:
    """Drop corners that lie on a straight line between their neighbours."""
    out = list(ring)
    changed = True
    while changed and len(out) > 3:
        changed = False
        for i in range(len(out)):
            a, b, c = out[i - 1], out[i], out[(i + 1) % len(out)]
            cross = (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0])
            if abs(cross) < 1e-6 * max(1.0, math.hypot(c[0] - a[0], c[1] - a[1])) or _key(a) == _key(b):
                del out[i]
                changed = True
                break
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
        if _key(s) in seen:
            first, second = owner[seen[_key(s)]] or "offboard", owner[i] or "offboard"
            raise MapError(
                layout.source, f"provinces.{second}", f"the point [{s[0]:g}, {s[1]:g}] is also a point of {first}"
            )
        seen[_key(s)] = i
    cells = _cells(sites, layout.width, layout.height)
    outline: dict[str, list[tuple[Pt, Pt]]] = {}
    shared: dict[tuple[str, str], list[Path_]] = {}
    for i, cell in enumerate(cells):
        mine = owner[i]
        for k, (a, t) in enumerate(cell):
            b = cell[(k + 1) % len(cell)][0]
            theirs = owner[t] if t >= 0 else None
            if theirs == mine:
                continue
            outline.setdefault(mine, []).append((a, b))
            if theirs and mine and mine < theirs and math.hypot(b[0] - a[0], b[1] - a[1]) > 0.05:
                shared.setdefault((mine, theirs), []).append((a, b))
    shapes = {code: tuple((ring,) for ring in _rings(outline.get(code, []))) for code in layout.provinces}
    off = tuple((tuple(p for p, _ in cells[i]),) for i in range(len(sites)) if owner[i] == "")
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


# -- borders ---------------------------------------------------------------------------------


class Border(msgspec.Struct, frozen=True):
    """Two provinces and who may cross between them."""

    a: str
    b: str
    army: bool
    fleet: bool

    @property
    def kind(self) -> str:
        return "both" if self.army and self.fleet else "army" if self.army else "fleet"


def borders(gmap: ClassicMap) -> list[Border]:
    """Every pair of neighbouring provinces on the board, with the kinds of unit that
    may cross (a border of any coast counts for fleets)."""
    found: dict[tuple[str, str], tuple[bool, bool]] = {}
    for a in sorted(gmap.provinces):
        for b in gmap.near[a]:
            if a < b:
                army = b in gmap.army_nb[a]
                fleet = any(
                    province_of(r) == b for ra in (gmap.fleet_regions(a) or ()) for r in gmap.fleet_nb.get(ra, ())
                )
                found[(a, b)] = (army, fleet)
    return [Border(a, b, army, fleet) for (a, b), (army, fleet) in sorted(found.items())]


class Drawing(msgspec.Struct, frozen=True):
    """How the layout shows the board's borders: shared edges (by border), links (a
    border whose provinces share no edge on the drawing) and walls (an edge shared on
    the drawing by provinces that are not neighbours)."""

    edges: tuple[tuple[Border, tuple[Path_, ...]], ...]
    links: tuple[Border, ...]
    walls: tuple[tuple[tuple[str, str], tuple[Path_, ...]], ...]


def drawing(gmap: ClassicMap, layout: BoardLayout) -> Drawing:
    edges: list[tuple[Border, tuple[Path_, ...]]] = []
    links: list[Border] = []
    pairs = set()
    for b in borders(gmap):
        pairs.add((b.a, b.b))
        segs = layout.shared.get((b.a, b.b), ())
        if layout.kind != "nodes" and sum(_polyline_length(s) for s in segs) >= MIN_EDGE:
            edges.append((b, segs))
        else:
            links.append(b)
    walls = tuple((k, v) for k, v in layout.shared.items() if k not in pairs)
    return Drawing(tuple(edges), tuple(links), walls)


# -- the scene -------------------------------------------------------------------------------

MARGIN = 14.0
TITLE_H = 46.0
TITLE_SIZE = 24.0
CODE_SIZE = 16.0
NAME_SIZE = 15.0
COAST_SIZE = 12.0
UNIT_R = 11.5  # an army's radius; a fleet is as wide
KIND_SIZE = 14.0
CENTRE_R = 5.5
ARROW_SHIFT = 3.0
HEAD_LEN = 12.0
HEAD_HALF = 6.5
DASH = (7.0, 5.0)
RING = UNIT_R + 5.5  # a support to hold, a convoy
DISLODGED_OFFSET = (20.0, 15.0)  # right of and below the unit that took its place
LEGEND_FONT = 15.0
LEGEND_ROW = 27.0
LEGEND_HEAD = 25.0


def _words(language: str) -> dict[str, str]:
    if language not in languages():
        raise MapError("picture", "language", f"unknown language {language!r} (expected {' or '.join(languages())})")
    return {key.removeprefix("classic.picture."): keyed(language, _WORDS, key) for key in _WORDS}


def _dist(a: Pt, b: Pt) -> float:
    return math.hypot(b[0] - a[0], b[1] - a[1])


def _towards(a: Pt, b: Pt, d: float) -> Pt:
    n = _dist(a, b)
    if n == 0:
        return a
    return a[0] + (b[0] - a[0]) * d / n, a[1] + (b[1] - a[1]) * d / n


def _polyline_length(points: Sequence[Pt]) -> float:
    return sum(_dist(points[i], points[i + 1]) for i in range(len(points) - 1))


def _point_along(points: Sequence[Pt], d: float) -> tuple[Pt, Pt]:
    """The point ``d`` along the polyline and the direction there."""
    for i in range(len(points) - 1):
        seg = _dist(points[i], points[i + 1])
        if d <= seg or i == len(points) - 2:
            p = _towards(points[i], points[i + 1], min(d, seg))
            return p, (points[i + 1][0] - points[i][0], points[i + 1][1] - points[i][1])
        d -= seg
    return points[-1], (1.0, 0.0)


def _trim(points: Sequence[Pt], start: float, end: float) -> tuple[Pt, ...]:
    """The polyline without its first ``start`` and last ``end`` units of length."""
    total = _polyline_length(points)
    if total - start - end < 4:
        mid = (start + total - end) / 2
        start, end = mid - 2, total - mid - 2
    a, _ = _point_along(points, start)
    b, _ = _point_along(points, total - end)
    out = [a]
    run = 0.0
    for i in range(len(points) - 1):
        run += _dist(points[i], points[i + 1])
        if start < run < total - end:
            out.append(points[i + 1])
    out.append(b)
    return tuple(out)


def _shift(points: Sequence[Pt], by: float) -> tuple[Pt, ...]:
    """Every point moved ``by`` to the right of travel (two opposite arrows side by side)."""
    out: list[Pt] = []
    for i, p in enumerate(points):
        q0 = points[max(0, i - 1)]
        q1 = points[min(len(points) - 1, i + 1)]
        dx, dy = q1[0] - q0[0], q1[1] - q0[1]
        n = math.hypot(dx, dy) or 1.0
        out.append((p[0] - dy / n * by, p[1] + dx / n * by))
    return tuple(out)


def _curve(points: Sequence[Pt], steps: int = 8) -> tuple[Pt, ...]:
    """A smooth curve through the points (Catmull-Rom)."""
    if len(points) < 3:
        return tuple(points)
    ext = [
        (2 * points[0][0] - points[1][0], 2 * points[0][1] - points[1][1]),
        *points,
        (2 * points[-1][0] - points[-2][0], 2 * points[-1][1] - points[-2][1]),
    ]
    out: list[Pt] = [points[0]]
    for i in range(1, len(ext) - 2):
        p0, p1, p2, p3 = ext[i - 1], ext[i], ext[i + 1], ext[i + 2]
        for s in range(1, steps + 1):
            t = s / steps
            out.append(
                tuple(  # type: ignore[arg-type]
                    0.5
                    * (
                        2 * p1[k]
                        + (p2[k] - p0[k]) * t
                        + (2 * p0[k] - 5 * p1[k] + 4 * p2[k] - p3[k]) * t * t
                        + (3 * p1[k] - p0[k] - 3 * p2[k] + p3[k]) * t * t * t
                    )
                    for k in (0, 1)
                )
            )
    return tuple(out)


def _head(tip: Pt, direction: Pt, length: float = HEAD_LEN, half: float = HEAD_HALF) -> tuple[Pt, ...]:
    n = math.hypot(*direction) or 1.0
    ux, uy = direction[0] / n, direction[1] / n
    bx, by = tip[0] - ux * length, tip[1] - uy * length
    return tip, (bx - uy * half, by + ux * half), (bx + uy * half, by - ux * half)


def _cross(c: Pt, r: float = 6.0) -> tuple[Item, ...]:
    a = ((c[0] - r, c[1] - r), (c[0] + r, c[1] + r))
    b = ((c[0] - r, c[1] + r), (c[0] + r, c[1] - r))
    return (
        Line(a, Paint(stroke=HALO, width=5.5)),
        Line(b, Paint(stroke=HALO, width=5.5)),
        Line(a, Paint(stroke=CROSS, width=2.6)),
        Line(b, Paint(stroke=CROSS, width=2.6)),
    )


def _fleet_hull(c: Pt, r: float = UNIT_R) -> tuple[Pt, ...]:
    """A fleet's marker: a boat's hull, as wide as an army's disc."""
    x, y = c
    w, h = r * 1.25, r * 0.95
    return (
        (x - w, y - h),
        (x + w, y - h),
        (x + w * 0.62, y + h),
        (x - w * 0.62, y + h),
    )


def _unit_marker(kind: Kind, colour: str, c: Pt) -> tuple[Item, ...]:
    outline = Paint(fill=colour, stroke=ink(colour), width=1.6)
    shape: Item = Circle(c, UNIT_R, outline) if kind is Kind.ARMY else Poly((_fleet_hull(c),), outline)
    halo: Item = (
        Circle(c, UNIT_R + 1.8, Paint(fill=HALO))
        if kind is Kind.ARMY
        else Poly((_fleet_hull(c, UNIT_R + 1.8),), Paint(fill=HALO))
    )
    return (halo, shape, Label((c[0], c[1] + 0.5), kind.value, KIND_SIZE, text_on(colour), bold=True))


class _Drawn(msgspec.Struct, frozen=True):
    """An order to draw: its power, its order, whether it succeeded, where its unit
    stands on the drawing."""

    power: str
    order: Order
    text: str
    succeeded: bool
    at: Pt


class _Scene:
    def __init__(self, gmap: ClassicMap, layout: BoardLayout, words: dict[str, str], language: str = "en") -> None:
        self.gmap = gmap
        self.layout = layout
        self.words = words
        self.language = language  # the names of provinces and powers
        self.dx = MARGIN
        self.dy = TITLE_H

    def xy(self, p: Pt) -> Pt:
        return p[0] + self.dx, p[1] + self.dy

    def place(self, region: str) -> Pt:
        """Where a unit in ``region`` stands (a coast has its own place)."""
        prov = self.layout.provinces[province_of(region)]
        return self.xy(prov.coasts.get(region, prov.at))

    def colour(self, power: str) -> str:
        return self.layout.colours[power]

    # -- the board ---------------------------------------------------------------------------
    def fill(self, code: str, owners: Mapping[str, str]) -> str:
        p = self.gmap.provinces[code]
        if p.terrain is Terrain.SEA:
            return SEA
        if not self.gmap.near[code]:
            return OFFBOARD  # impassable (Switzerland)
        if code in owners:
            return mix(self.colour(owners[code]), LAND, TINT)
        return LAND

    def board(self, owners: Mapping[str, str], how: Drawing) -> list[Item]:
        lay = self.layout
        items: list[Item] = []
        x0, y0 = self.xy((0.0, 0.0))
        frame = ((x0, y0), (x0 + lay.width, y0), (x0 + lay.width, y0 + lay.height), (x0, y0 + lay.height))
        items.append(Poly((frame,), Paint(fill=SEA if lay.kind != "nodes" else "#fbfaf6")))
        dx, dy = self.dx, self.dy

        def placed(poly: Shape_) -> Shape_:
            return tuple(tuple((x + dx, y + dy) for x, y in ring) for ring in poly)

        # the seas first, each polygon by its outer ring alone (the sea's colour is the
        # frame's, and the islands in its holes are drawn after it), then the land
        seas = [c for c in lay.provinces if self.gmap.provinces[c].terrain is Terrain.SEA]
        lands = [c for c in lay.provinces if c not in seas]
        for code in [*seas, "", *lands]:
            if not code:  # the land beyond the board
                paint = Paint(fill=OFFBOARD, stroke=OFFBOARD_LINE, width=1.0)
                items.extend(Poly(placed(cell), paint) for cell in lay.offboard_cells)
                continue
            name = self.gmap.province_name(code, self.language)
            parts: list[Item] = []
            if lay.kind != "nodes":
                fill = Paint(fill=self.fill(code, owners))
                sea = self.gmap.provinces[code].terrain is Terrain.SEA
                polygons = [placed(poly[:1] if sea else poly) for poly in lay.shapes.get(code, ())]
                parts.extend(Poly(poly, fill) for poly in polygons)
                if not self.gmap.near[code]:
                    hatch = Paint(stroke="#9a9a9a", width=1.2)
                    parts.extend(Line(h, hatch) for poly in polygons for h in _hatch(poly[0], 9.0))
            else:
                shape = Circle(
                    self.xy(lay.provinces[code].at),
                    lay.node_radius,
                    Paint(fill=self.fill(code, owners), stroke=ARMY_LINE, width=2.0),
                )
                parts.append(shape)
            items.append(
                Group(
                    (("class", "province"), ("data-province", code), ("data-title", f"{name} ({code})")), tuple(parts)
                )
            )
        for border, segs in how.edges:
            items.append(self._border_group(border, placed(segs)))
        for (a, b), segs in how.walls:
            lines = placed(segs)
            group = tuple(Line(line, Paint(stroke=WALL, width=3.2)) for line in lines)
            items.append(Group((("class", "wall"), ("data-provinces", f"{a}-{b}")), group))
        for border in how.links:
            items.append(self._link(border))
        items.append(Poly((frame,), Paint(stroke="#8c8c8c", width=1.2)))
        return items

    def _border_group(self, border: Border, lines: Sequence[tuple[Pt, ...]]) -> Group:
        out: list[Item] = []
        for line in lines:
            out.extend(_border_lines(border.kind, line))
        return Group(
            (("class", "border"), ("data-border", f"{border.a}-{border.b}"), ("data-kind", border.kind)), tuple(out)
        )

    def _link(self, border: Border) -> Group:
        lay = self.layout
        a, b = self.xy(lay.provinces[border.a].at), self.xy(lay.provinces[border.b].at)
        gap = lay.node_radius if lay.kind == "nodes" else UNIT_R + 4
        line = (_towards(a, b, gap), _towards(b, a, gap))
        items = _border_lines(border.kind, line, width=3.0)
        return Group(
            (("class", "border link"), ("data-border", f"{border.a}-{border.b}"), ("data-kind", border.kind)), items
        )

    def labels(self, owners: Mapping[str, str]) -> list[Item]:
        lay = self.layout
        items: list[Item] = []
        for code, p in lay.provinces.items():
            prov = self.gmap.provinces[code]
            at = self.xy(p.label)
            sea = prov.terrain is Terrain.SEA
            group: list[Item] = [Label(at, code, CODE_SIZE, SEA_TEXT if sea else TEXT, bold=True, italic=sea, halo=3.0)]
            if lay.kind == "nodes":
                name = self.gmap.province_name(code, self.language)
                group.append(Label(self.xy((p.at[0], p.at[1] + UNIT_R + 16)), name, NAME_SIZE, TEXT, halo=3.0))
            if prov.supply:
                c = (at[0] + _text_width(code, CODE_SIZE) / 2 + CENTRE_R + 4, at[1])
                owner = owners.get(code)
                fill = self.colour(owner) if owner else HALO
                group.append(Circle(c, CENTRE_R + 1.6, Paint(fill=HALO)))
                group.append(Circle(c, CENTRE_R, Paint(fill=fill, stroke=TEXT, width=1.5)))
            for region, cp in p.coasts.items():
                c = self.xy(cp)
                group.append(Circle(c, 3.2, Paint(fill=FLEET_LINE, stroke=HALO, width=1.0)))
                tag = region.split("/", 1)[1].lower()
                group.append(Label((c[0], c[1] - 11), tag, COAST_SIZE, SEA_TEXT, italic=True, bold=True, halo=2.5))
            items.append(Group((("class", "label"), ("data-province", code)), tuple(group)))
        return items


def _hatch(ring: Sequence[Pt], gap: float) -> list[tuple[Pt, Pt]]:
    """Diagonal lines (x + y constant) ``gap`` apart, clipped to the inside of ``ring``."""
    out: list[tuple[Pt, Pt]] = []
    lo = min(p[0] + p[1] for p in ring)
    hi = max(p[0] + p[1] for p in ring)
    k = math.floor(lo / gap) * gap + gap
    while k < hi:
        xs: list[float] = []
        for i in range(len(ring)):
            (x1, y1), (x2, y2) = ring[i], ring[(i + 1) % len(ring)]
            s1, s2 = x1 + y1 - k, x2 + y2 - k
            if (s1 < 0) != (s2 < 0):
                t = s1 / (s1 - s2)
                xs.append(x1 + t * (x2 - x1))
        xs.sort()
        for a, b in zip(xs[::2], xs[1::2], strict=False):
            out.append(((a, k - a), (b, k - b)))
        k += gap
    return out


def _text_width(text: str, size: float, advance: float = 0.62) -> float:
    """A generous estimate of a label's width (``advance``: the mean advance of a
    character in ems; 0.62 fits bold capitals)."""
    return advance * size * len(text)


def _border_lines(kind: str, line: tuple[Pt, ...], width: float = 2.0) -> tuple[Item, ...]:
    if kind == "army":
        return (Line(line, Paint(stroke=ARMY_LINE, width=width)),)
    if kind == "fleet":
        return (Line(line, Paint(stroke=FLEET_LINE, width=width)),)
    # both: an army line and a fleet line side by side
    return (
        Line(_shift(line, width * 0.55), Paint(stroke=ARMY_LINE, width=width * 0.9)),
        Line(_shift(line, -width * 0.55), Paint(stroke=FLEET_LINE, width=width * 0.9)),
    )


# -- orders ------------------------------------------------------------------------------------


def _arrow(
    points: Sequence[Pt], colour: str, failed: bool, *, width: float, end: str, mark_at: float = 0.55
) -> list[Item]:
    """A line along ``points`` ending with ``end`` ("head", "chevron", "dot", "none");
    dashed and crossed when ``failed``."""
    line = ink(colour)
    dash = DASH if failed else None
    body = list(points)
    total = _polyline_length(body)
    tip = body[-1]
    _, direction = _point_along(body, max(0.0, total - 1.0))
    if end == "head" and total > HEAD_LEN:
        body = list(_trim(body, 0.0, HEAD_LEN * 0.7))
    items: list[Item] = [
        Line(tuple(body), Paint(stroke=HALO, width=width + 2.8)),
        Line(tuple(body), Paint(stroke=line, width=width, dash=dash)),
    ]
    if end == "head":
        items.append(Poly((_head(tip, direction),), Paint(fill=line, stroke=HALO, width=1.2)))
    elif end == "chevron":
        h = _head(tip, direction, 11.0, 7.0)
        chevron = (h[1], h[0], h[2])
        items.append(Line(chevron, Paint(stroke=HALO, width=width + 3.0)))
        items.append(Line(chevron, Paint(stroke=line, width=width + 0.6)))
    elif end == "dot":
        items.append(Circle(tip, 4.2, Paint(fill=line, stroke=HALO, width=1.2)))
    if failed:
        items.extend(_cross(_point_along(points, total * mark_at)[0]))
    return items


def _ring(c: Pt, colour: str, failed: bool, r: float = RING, width: float = 2.4) -> list[Item]:
    return [
        Circle(c, r, Paint(stroke=HALO, width=width + 2.6)),
        Circle(c, r, Paint(stroke=ink(colour), width=width, dash=DASH if failed else None)),
    ]


def _chain(start: Pt, stops: Sequence[Pt]) -> list[Pt]:
    """``stops`` in the order a route from ``start`` visits them (nearest first)."""
    left = list(stops)
    out: list[Pt] = []
    here = start
    while left:
        nxt = min(left, key=lambda p: (_dist(here, p), p))
        left.remove(nxt)
        out.append(nxt)
        here = nxt
    return out


class _Orders:
    """The arrows of a phase's orders, and what each unit's marker must show."""

    def __init__(self, sc: _Scene, drawn: Sequence[_Drawn], occupied: Mapping[str, Pt]) -> None:
        self.sc = sc
        self.drawn = drawn
        self.occupied = occupied  # province -> where the unit standing there is drawn

    def dest(self, region: str) -> Pt:
        return self.sc.place(region)

    @property
    def start_gap(self) -> float:
        """A line leaves its unit here (on a board of discs: the disc's rim)."""
        lay = self.sc.layout
        return lay.node_radius - 6 if lay.kind == "nodes" else UNIT_R + 3

    def _end_gap(self, region: str) -> float:
        lay = self.sc.layout
        if lay.kind == "nodes":
            return lay.node_radius - 6
        return UNIT_R + 4 if province_of(region) in self.occupied else 5.0

    def move_line(self, d: _Drawn, dest: str) -> tuple[Pt, ...]:
        """The path of a move (through its convoying fleets, if any), trimmed and shifted."""
        start, end = d.at, self.dest(dest)
        fleets: list[_Drawn] = []
        o = d.order
        if isinstance(o, Move) and o.unit.kind is Kind.ARMY:
            fleets = [
                c
                for c in self.drawn
                if isinstance(c.order, Convoy)
                and c.order.target.province == o.unit.province
                and province_of(c.order.dest) == province_of(dest)
            ]
            # next door, an army goes by land unless it asked for a convoy or its own power convoys it
            if self.sc.gmap.army_adjacent(o.unit.region, dest) and not (
                o.via_convoy or any(c.power == d.power for c in fleets)
            ):
                fleets = []
        stops = [c.at for c in fleets]
        pts = [start, *_chain(start, stops), end] if stops else [start, end]
        path = _curve(pts) if len(pts) > 2 else tuple(pts)
        return _shift(_trim(path, self.start_gap, self._end_gap(dest)), ARROW_SHIFT)

    def items(self) -> list[Item]:
        out: list[Item] = []
        moves = {}
        for d in self.drawn:
            if isinstance(d.order, (Move, Retreat)):
                moves[province_of(d.order.unit.region)] = d
        for d in self.drawn:
            colour = self.sc.colour(d.power)
            failed = not d.succeeded
            o = d.order
            shapes: list[Item] = []
            if not all(province_of(r) in self.sc.layout.provinces for r in _regions(o)):
                # it names a place that is not on the board: nothing to point at; its failure is marked on the unit
                shapes = list(_cross((d.at[0] + UNIT_R + 4, d.at[1] - UNIT_R)))
            elif isinstance(o, Move):
                shapes = _arrow(self.move_line(d, o.dest), colour, failed, width=3.4, end="head")
            elif isinstance(o, Retreat):
                line = _shift(_trim((d.at, self.dest(o.dest)), self.start_gap, self._end_gap(o.dest)), ARROW_SHIFT)
                shapes = _arrow(line, colour, failed, width=2.6, end="chevron")
            elif isinstance(o, SupportMove):
                a = self.occupied.get(o.target.province, self.sc.place(o.target.region))
                b = self.dest(o.dest)
                mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
                supported = moves.get(o.target.province)
                if (
                    supported is not None
                    and isinstance(supported.order, Move)
                    and province_of(supported.order.dest) == province_of(o.dest)
                ):
                    path = self.move_line(supported, supported.order.dest)
                    mid = _point_along(path, _polyline_length(path) / 2)[0]
                line = _trim((d.at, mid), self.start_gap, 2.0)
                shapes = _arrow(line, colour, failed, width=2.0, end="dot", mark_at=0.5)
            elif isinstance(o, SupportHold):
                c = self.occupied.get(o.target.province, self.sc.place(o.target.region))
                line = _trim((d.at, c), self.start_gap, RING)
                shapes = [*_ring(c, colour, failed, width=2.0), *_arrow(line, colour, failed, width=2.0, end="none")]
            elif isinstance(o, Convoy):
                shapes = _ring(d.at, colour, failed, r=RING + 1.5, width=2.2)
                army = moves.get(o.target.province)
                through = (
                    army is not None
                    and isinstance(army.order, Move)
                    and province_of(army.order.dest) == province_of(o.dest)
                )
                if not through:
                    a = self.occupied.get(o.target.province, self.sc.place(o.target.region))
                    b = self.dest(o.dest)
                    mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
                    line = _trim((d.at, mid), RING + 1.5, 2.0)
                    shapes += _arrow(line, colour, failed, width=2.0, end="dot")
                elif failed:
                    shapes += _cross((d.at[0] + RING, d.at[1] - RING))
            else:
                continue  # holds, builds and disbands are shown on the unit's marker
            out.append(
                Group(
                    (
                        ("class", "order"),
                        ("data-order", d.text),
                        ("data-power", d.power),
                        ("data-result", "succeeds" if d.succeeded else "fails"),
                    ),
                    tuple(shapes),
                    opacity=0.92,
                )
            )
        return out


# -- units -------------------------------------------------------------------------------------


def _unit_group(sc: _Scene, unit: Unit, at: Pt, mark: str, role: str = "unit") -> Group:
    colour = sc.colour(unit.power)
    items: list[Item] = list(_unit_marker(unit.kind, colour, at))
    if mark == "dislodged":
        items[:0] = [
            Circle(at, UNIT_R + 5.0, Paint(stroke=HALO, width=5.0)),
            Circle(at, UNIT_R + 5.0, Paint(stroke=DISLODGED, width=2.6)),
        ]
    elif mark == "disbanded":
        items.extend(_cross(at, 9.0))
    elif mark == "built":
        badge = (at[0] + UNIT_R * 0.95, at[1] + UNIT_R * 0.95)
        items.append(Circle(badge, 6.5, Paint(fill=HALO, stroke=TEXT, width=1.4)))
        items.append(Line(((badge[0] - 3.6, badge[1]), (badge[0] + 3.6, badge[1])), Paint(stroke=TEXT, width=1.8)))
        items.append(Line(((badge[0], badge[1] - 3.6), (badge[0], badge[1] + 3.6)), Paint(stroke=TEXT, width=1.8)))
    attrs = [("class", role), ("data-unit", unit.label()), ("data-power", unit.power)]
    if mark:
        attrs.append(("data-mark", mark))
    title = f"{sc.gmap.power_name(unit.power, sc.language)}{fmt(sc.language, 'format.colon')}{unit.label()}" + (
        f" ({sc.words[mark]})" if mark else ""
    )
    attrs.append(("data-title", title))
    return Group(tuple(attrs), tuple(items))


def _regions(order: Order) -> tuple[str, ...]:
    """Every region an order names."""
    out: list[str] = []
    for attr in ("unit", "target"):
        ref = getattr(order, attr, None)
        if ref is not None:
            out.append(ref.region)
    dest = getattr(order, "dest", None)
    if isinstance(dest, str):
        out.append(dest)
    return tuple(out)


def _parse(text: str) -> Order | None:
    try:
        return parse_order(text)
    except OrderError:
        return None


def _title(st: ClassicState, outcome: PhaseOutcome | None, words: dict[str, str]) -> str:
    phase = st.phase
    season = words[phase.season.value]
    if outcome is None:
        key = "position_title"
    elif phase.step is Step.RETREATS:
        key = "retreats_title"
    elif phase.step is Step.ADJUSTMENTS:
        key = "adjustments_title"
    else:
        key = "movement_title"
    return words[key].format(season=season, year=phase.year)


def build_scene(
    gmap: ClassicMap,
    st: ClassicState,
    outcome: PhaseOutcome | None = None,
    *,
    layout: BoardLayout | None = None,
    title: str = "",
    language: str = "en",
) -> Scene:
    """The picture of the phase ``st`` is at: the position at its start and, given the
    phase's ``outcome``, its orders and their results (dislodged units, retreats,
    builds and disbands)."""
    words = _words(language)
    layout = layout or layout_of(gmap)
    how = drawing(gmap, layout)
    sc = _Scene(gmap, layout, words, language)
    step = st.phase.step
    nxt = outcome.next_state if outcome is not None else None
    after = set(nxt.units) if nxt is not None else set()
    items: list[Item] = sc.board(st.owners, how)

    # where each unit is drawn, and what its marker shows
    units: list[tuple[Unit, Pt, str, str]] = []
    dislodged_now = set()
    if nxt is not None and step is Step.MOVEMENT and nxt.phase.step is Step.RETREATS:
        dislodged_now = {(d.power, d.region) for d in nxt.dislodged}
    for u in st.units:
        mark = ""
        if (u.power, u.region) in dislodged_now:
            mark = "dislodged"
        elif step is Step.ADJUSTMENTS and nxt is not None and u not in after:
            mark = "disbanded"
        units.append((u, sc.place(u.region), mark, "unit"))
    occupied = {u.province: at for u, at, _, _ in units}
    retreat_at: dict[tuple[str, str], Pt] = {}
    for d in st.dislodged:
        base = sc.place(d.region)
        at = (base[0] + DISLODGED_OFFSET[0], base[1] + DISLODGED_OFFSET[1])
        retreat_at[(d.power, d.region)] = at
        units.append((d.unit, at, "dislodged", "unit dislodged"))
    if step is Step.ADJUSTMENTS and nxt is not None:
        before = set(st.units)
        for u in sorted(after - before):
            units.append((u, sc.place(u.region), "built", "unit"))

    # the orders
    drawn: list[_Drawn] = []
    if outcome is not None:
        for r in outcome.results:
            order = _parse(r.order)
            if order is None or not r.unit:
                continue
            if step is Step.RETREATS and isinstance(order, Move):
                order = Retreat(order.unit, order.dest)  # a retreat written as a move: "A MUN - KIE"
            region = r.unit.split(" ", 1)[-1]
            found: Pt | None
            if step is Step.RETREATS:
                found = retreat_at.get((r.power, region))
                if found is None:
                    continue
                if not (isinstance(order, Retreat) and r.succeeded):
                    units = [
                        (u, p, "disbanded" if (u.power, u.region) == (r.power, region) and role != "unit" else m, role)
                        for u, p, m, role in units
                    ]
            else:
                found = occupied.get(province_of(region), sc.place(region))
            drawn.append(_Drawn(r.power, order, order.text(), r.succeeded, found))
    items.extend(_Orders(sc, drawn, occupied).items())
    items.extend(sc.labels(st.owners))  # over the arrows, under the units: no arrow hides a name
    for u, at, mark, role in units:
        items.append(_unit_group(sc, u, at, mark, role))

    text = title or _title(st, outcome, words)
    width = layout.width + 2 * MARGIN
    items.append(Label((MARGIN, TITLE_H / 2 + 2), text, TITLE_SIZE, TEXT, anchor="start", bold=True))
    marks = {m for _, _, m, _ in units if m}
    kinds = {type(d.order) for d in drawn}
    failed = any(not d.succeeded for d in drawn if not isinstance(d.order, (Build, Disband)))
    legend, height = _legend(sc, st, how, marks, kinds, failed, TITLE_H + layout.height + 10, width)
    items.append(legend)
    labels = labels_name(layout.kind, repr(sorted(layout.provinces.items())))  # the board's own label cache
    return Scene(width, TITLE_H + layout.height + 10 + height + MARGIN, text, tuple(items), labels)


# -- the legend --------------------------------------------------------------------------------


def _legend(
    sc: _Scene,
    st: ClassicState,
    how: Drawing,
    marks: set[str],
    kinds: set[type],
    failed: bool,
    top: float,
    width: float,
) -> tuple[Group, float]:
    w = sc.words
    gmap = sc.gmap
    columns: list[tuple[str, list[tuple[list[Item], str]]]] = []

    def at(x: float, y: float) -> Pt:
        return x + 16, y

    powers: list[tuple[list[Item], str]] = []
    for p, name in gmap.power_names(sc.language).items():
        n = len(st.centres_of(p))
        count = fill(sc.language, keyed(sc.language, _WORDS, "classic.picture.centres", n), n=n)

        def swatch(x: float, y: float, p: str = p) -> list[Item]:
            return [
                Poly(((_sq(at(x, y), 9.0)),), Paint(fill=mix(sc.colour(p), LAND, TINT), stroke=ARMY_LINE, width=1.0))
            ]

        powers.append((swatch(0, 0), f"{name}{fmt(sc.language, 'format.colon')}{count}"))
    columns.append((w["powers"], powers))

    board: list[tuple[list[Item], str]] = []
    if sc.layout.kind != "nodes":
        board.append(([Poly((_sq((16, 0), 9.0),), Paint(fill=LAND, stroke=ARMY_LINE, width=1.0))], w["land"]))
        board.append(([Poly((_sq((16, 0), 9.0),), Paint(fill=SEA, stroke=FLEET_LINE, width=1.0))], w["sea"]))
    if any(not gmap.near[p] for p in gmap.provinces) and sc.layout.kind != "nodes":
        sample = _sq((16, 0), 9.0)
        hatch = [Line(h, Paint(stroke="#9a9a9a", width=1.2)) for h in _hatch(sample, 6.0)]
        board.append(([Poly((sample,), Paint(fill=OFFBOARD, stroke=WALL, width=1.6)), *hatch], w["impassable"]))
    if gmap.supply_centres:
        board.append(([Circle((16, 0), CENTRE_R, Paint(fill=HALO, stroke=TEXT, width=1.5))], w["centre_mark"]))
    if gmap.coasts:
        board.append(
            ([Circle((16, 0), 3.2, Paint(fill=FLEET_LINE, stroke=HALO, width=1.0))], w["coast_tags"] + w["coast"])
        )
    present = {b.kind for b, _ in how.edges} | {b.kind for b in how.links}
    for kind, key in (("army", "army_border"), ("both", "both_border"), ("fleet", "fleet_border")):
        if kind in present:
            board.append((list(_border_lines(kind, ((2.0, 0.0), (30.0, 0.0)), width=2.4)), w[key]))
    if how.walls:
        board.append(([Line(((2.0, 0.0), (30.0, 0.0)), Paint(stroke=WALL, width=3.2))], w["no_border"]))
    columns.append((w["board"], board))

    grey = "#8c8c8c"
    orders: list[tuple[list[Item], str]] = [(list(_unit_marker(Kind.ARMY, grey, (16, 0))), w["army"])]
    if any(gmap.fleet_regions(p) for p in gmap.provinces):
        orders.append((list(_unit_marker(Kind.FLEET, grey, (16, 0))), w["fleet"]))
    line = ((0.0, 0.0), (34.0, 0.0))
    if Move in kinds:
        orders.append((_arrow(line, grey, False, width=3.4, end="head"), w["move"]))
    if SupportMove in kinds:
        orders.append((_arrow(line, grey, False, width=2.0, end="dot"), w["support"]))
    if SupportHold in kinds:
        short = ((0.0, 0.0), (18.0, 0.0))
        ring = _ring((27.0, 0.0), grey, False, r=8.0, width=2.0)
        orders.append(([*_arrow(short, grey, False, width=2.0, end="none"), *ring], w["support_hold"]))
    if Convoy in kinds:
        orders.append((_ring((16, 0), grey, False, r=10.0, width=2.2), w["convoy"]))
    if Retreat in kinds:
        orders.append((_arrow(line, grey, False, width=2.6, end="chevron"), w["retreat"]))
    if failed:
        orders.append((_arrow(line, grey, True, width=2.4, end="head", mark_at=0.4), w["failed"]))
    probe = Unit(next(iter(gmap.powers)), Kind.ARMY, "")
    for mark in ("dislodged", "built", "disbanded"):
        if mark in marks:
            g = _unit_group(_GreyScene(sc), probe, (16, 0), mark)
            orders.append((list(g.items), w[mark]))
    columns.append((w["orders"], orders))

    # each column as wide as its longest line (an estimate: the font's mean advance),
    # the spare width shared between the gaps
    needs = [
        max(_text_width(head, LEGEND_FONT + 1, 0.55), *(44 + _text_width(t, LEGEND_FONT, 0.52) for _, t in entries))
        for head, entries in columns
    ]
    gap = max(16.0, (width - 2 * MARGIN - sum(needs)) / max(1, len(columns) - 1))
    items: list[Item] = []
    rows = max(len(c[1]) for c in columns)
    x = MARGIN
    for (head, entries), need in zip(columns, needs, strict=True):
        column: list[Item] = [Label((x, top + 10), head, LEGEND_FONT + 1, TEXT, anchor="start", bold=True)]
        for j, (symbol, text) in enumerate(entries):
            y = top + LEGEND_HEAD + 8 + j * LEGEND_ROW
            column.extend(moved(s, x, y) for s in symbol)
            column.append(Label((x + 44, y), text, LEGEND_FONT, TEXT, anchor="start"))
        items.append(Group((("class", "legend-column"),), tuple(column)))  # one group each: ``legend`` stacks them
        x += need + gap
    height = LEGEND_HEAD + 8 + rows * LEGEND_ROW
    return Group((("class", "legend"),), tuple(items)), height


LEGEND_PAD = 8.0  # scene units around the legend in its own picture
LEGEND_STACK_GAP = 14.0  # between its columns, one under the other


def _drawn_box(items: Sequence[Item]) -> tuple[float, float, float, float]:
    """The box of what the items draw: the labels by their drawn width, the rest by
    their shapes (``extent``)."""
    boxes = []
    for item in items:
        if isinstance(item, Label):
            w = label_width(item)
            left = item.at[0] - {"start": 0.0, "middle": w / 2, "end": w}[item.anchor]
            rise = 0.7 * item.size + item.halo
            boxes.append((left - item.halo, item.at[1] - rise, left + w + item.halo, item.at[1] + rise))
        else:
            box = extent((item,))
            if box is not None:
                boxes.append(box)
    if not boxes:
        raise PictureError("the legend has an empty column")
    return min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes)


def legend(scene: Scene, *, title: str = "") -> Scene:
    """The legend of a phase's picture (``build_scene``'s) as a picture of its own, for
    a page to show beside the map at a size a phone reader reads: the scene's legend
    group (the same symbols, in the same words), its columns one under the other
    rather than side by side under the map."""
    group = next((i for i in scene.items if isinstance(i, Group) and dict(i.attrs).get("class") == "legend"), None)
    if group is None:
        raise PictureError("the map picture has no legend")
    columns = [(c, _drawn_box(c.items)) for c in group.items if isinstance(c, Group) and c.items]
    if not columns:
        raise PictureError("the map picture's legend has no column")
    # aligned on their headings (a column's first item), whatever reaches left of one
    starts = [c.items[0].at[0] if isinstance(c.items[0], Label) else box[0] for c, box in columns]
    left = max(start - box[0] for (_, box), start in zip(columns, starts, strict=True))
    stacked: list[Item] = []
    y, width = LEGEND_PAD, 0.0
    for (column, (_, y0, x1, y1)), start in zip(columns, starts, strict=True):
        stacked.append(moved(column, LEGEND_PAD + left - start, y - y0))
        width = max(width, left + x1 - start)
        y += y1 - y0 + LEGEND_STACK_GAP
    height = y - LEGEND_STACK_GAP + LEGEND_PAD
    shown = Group(group.attrs, tuple(stacked), group.opacity)
    return Scene(math.ceil(width + 2 * LEGEND_PAD), math.ceil(height), title or scene.title, (shown,), scene.labels)


class _GreyScene(_Scene):
    """The scene's words and layout, with every power grey (for the legend's samples)."""

    def __init__(self, sc: _Scene) -> None:
        super().__init__(sc.gmap, sc.layout, sc.words)

    def colour(self, power: str) -> str:
        return "#8c8c8c"


def _sq(c: Pt, r: float) -> tuple[Pt, ...]:
    return ((c[0] - r, c[1] - r), (c[0] + r, c[1] - r), (c[0] + r, c[1] + r), (c[0] - r, c[1] + r))


# -- output ------------------------------------------------------------------------------------


def render_svg(
    gmap: ClassicMap,
    st: ClassicState,
    outcome: PhaseOutcome | None = None,
    *,
    title: str = "",
    language: str = "en",
) -> str:
    """The picture of the phase as an SVG document."""
    return scene_svg(build_scene(gmap, st, outcome, title=title, language=language))


def render_png(
    gmap: ClassicMap,
    st: ClassicState,
    outcome: PhaseOutcome | None = None,
    *,
    title: str = "",
    language: str = "en",
    width: int = 1000,
) -> bytes:
    """The picture of the phase as PNG (mail programs do not show SVG)."""
    return scene_png(build_scene(gmap, st, outcome, title=title, language=language), width)


def render_both(
    gmap: ClassicMap, st: ClassicState, outcome: PhaseOutcome | None = None, *, language: str = "en"
) -> tuple[str, bytes]:
    """SVG and PNG of one scene, built once."""
    scene = build_scene(gmap, st, outcome, language=language)
    return scene_svg(scene), scene_png(scene)
