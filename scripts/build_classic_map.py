"""Build the picture of the standard board, maps/classic/geometry.geojson, from
the coastline of Natural Earth and the sites of maps/classic/sites.yaml.

A developer's tool, run by hand when sites.yaml changes; the picture reads only the
file it writes, so neither shapely (a dev dependency) nor the coastline's data is
needed at run time. The coastline is Natural Earth's 1:50m land (public domain) as
the npm package world-atlas@2 ships it (TopoJSON, ISC licence):

    cd /tmp && npm pack world-atlas@2 && tar xzf world-atlas-2.0.2.tgz
    .venv/bin/python scripts/build_classic_map.py --land /tmp/package/land-50m.json

How a province gets its shape (maps/classic/README.md says why):

1. the land, projected (Lambert's conformal conic, sites.yaml's ``projection``) and
   cut to the board's frame, with the straits the board closes filled in;
2. land sites share out the land and sea sites the sea, each the Voronoi cell of
   its sites: a land province is its cells cut by the coastline, a sea province its
   cells cut by the shore, so every coast is the real coastline;
3. an island small enough goes whole to one owner (named in sites.yaml, else the
   province whose cell holds it); the islands of no province, and the mainland cells
   of the offboard sites, are land beyond the board;
4. a piece of a province cut off from all its sites (a cell reaching across water)
   goes to the neighbour it shares the longest edge with;
5. the shapes are simplified together (shared edges stay shared), rounded to 0.1 px.

The file holds one feature per province (its shape in board pixels, where its unit,
its label and its coasts' fleets stand) and one for the land beyond the board. The
script then checks the picture against borders.csv, as the tests do: every border
is an edge the two provinces share, at least MIN_EDGE px long, and no two provinces
without a border share an edge (Switzerland, impassable, excepted); units, labels
and coasts stand inside their province. It prints what is wrong and exits 1.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import shapely
import yaml
from shapely.geometry import LineString, MultiPolygon, Point, Polygon, box
from shapely.geometry.base import BaseGeometry

ROOT = Path(__file__).resolve().parent.parent
BOARD = ROOT / "maps" / "classic"
SITES = BOARD / "sites.yaml"
OUT = BOARD / "geometry.geojson"

GRID = 0.01  # the precision of the overlays, px
ISLAND_AREA = 2500.0  # a piece of land smaller than this (px²) goes whole to one owner
SIMPLIFY = 1.2  # coverage simplification's tolerance, px
LABEL_ABOVE = 24.0  # a label stands this far above its unit unless placed
MIN_EDGE = 10.0  # as the picture's: a shorter shared edge does not show a border
OFFBOARD = ""

Pt = tuple[float, float]


# -- the coastline -------------------------------------------------------------------------------


def read_land(path: Path) -> BaseGeometry:
    """Natural Earth's land from world-atlas's TopoJSON, in degrees: the arcs
    delta-decoded and scaled by the file's transform, each ring unwrapped across the
    antimeridian (Eurasia crosses it)."""
    topo = json.loads(path.read_text(encoding="utf-8"))
    (sx, sy), (tx, ty) = topo["transform"]["scale"], topo["transform"]["translate"]
    arcs: list[list[Pt]] = []
    for arc in topo["arcs"]:
        x = y = 0
        pts: list[Pt] = []
        for dx, dy in arc:
            x += dx
            y += dy
            pts.append((x * sx + tx, y * sy + ty))
        arcs.append(pts)

    def ring(indices: Sequence[int]) -> list[Pt]:
        out: list[Pt] = []
        for i in indices:
            arc = arcs[i] if i >= 0 else arcs[~i][::-1]
            out.extend(arc if not out else arc[1:])
        unwrapped = [out[0]]
        shift = 0.0
        for (x0, _), (x1, y1) in itertools.pairwise(out):
            if x1 - x0 > 180:
                shift -= 360
            elif x1 - x0 < -180:
                shift += 360
            unwrapped.append((x1 + shift, y1))
        if min(x for x, _ in unwrapped) < -200:
            unwrapped = [(x + 360, y) for x, y in unwrapped]
        return unwrapped

    polygons = []
    for geometry in topo["objects"]["land"]["geometries"]:
        parts = geometry["arcs"] if geometry["type"] == "MultiPolygon" else [geometry["arcs"]]
        for part in parts:
            rings = [ring(r) for r in part]
            if len(rings[0]) >= 4:
                polygons.append(Polygon(rings[0], rings[1:]))
    window = box(-40, 20, 70, 80)
    near = [p for p in polygons if p.is_valid and window.intersects(box(*p.bounds))]
    return shapely.union_all(near).intersection(window)


# -- the projection ---------------------------------------------------------------------------------


class Projection:
    """Lambert's conformal conic projection of a sphere, magnified round a centre
    (``magnify`` times there, less and less outwards: the board's crowded west gets
    the room its units and names need, as on the printed board), then scaled and moved
    so that the frame's four extreme points fall on the edges of a picture ``width``
    wide."""

    def __init__(self, spec: dict[str, Any], frame: dict[str, Any]) -> None:
        r = math.radians
        self.lon0 = float(spec["centre"])
        p1, p2 = (r(float(p)) for p in spec["parallels"])
        self.n = math.log(math.cos(p1) / math.cos(p2)) / math.log(
            math.tan(math.pi / 4 + p2 / 2) / math.tan(math.pi / 4 + p1 / 2)
        )
        self.f = math.cos(p1) * math.tan(math.pi / 4 + p1 / 2) ** self.n / self.n
        self.rho0 = self.rho(float(spec["origin"]))
        self.magnify = float(spec.get("magnify", 1.0))
        self.centre = self.conic(*spec.get("magnified", [spec["centre"], spec["origin"]]))
        extremes = [self.conic(*frame[k]) for k in ("west", "east", "north", "south")]
        self.reach = max(math.dist(self.centre, p) for p in extremes)
        self.x0 = self.raw(*frame["west"])[0]
        x1 = self.raw(*frame["east"])[0]
        self.y0 = self.raw(*frame["north"])[1]
        y1 = self.raw(*frame["south"])[1]
        self.scale = float(frame["width"]) / (x1 - self.x0)
        self.width = float(frame["width"])
        self.height = round((self.y0 - y1) * self.scale, 1)

    def rho(self, lat: float) -> float:
        return self.f / math.tan(math.pi / 4 + math.radians(lat) / 2) ** self.n

    def conic(self, lon: float, lat: float) -> Pt:
        rho = self.rho(lat)
        t = self.n * math.radians(lon - self.lon0)
        return rho * math.sin(t), self.rho0 - rho * math.cos(t)

    def raw(self, lon: float, lat: float) -> Pt:
        """The conic's point moved away from the centre: at distance r, to R g(r / R)
        with g(t) = m t / (1 + (m - 1) t), which magnifies m times at the centre and
        is 1 at the frame's farthest extreme point (R)."""
        x, y = self.conic(lon, lat)
        cx, cy = self.centre
        r = math.dist((x, y), self.centre)
        if r == 0 or self.magnify == 1.0:
            return x, y
        t = r / self.reach
        k = self.magnify / (1 + (self.magnify - 1) * t)
        return cx + (x - cx) * k, cy + (y - cy) * k

    def __call__(self, lon: float, lat: float) -> Pt:
        x, y = self.raw(lon, lat)
        return (x - self.x0) * self.scale, (self.y0 - y) * self.scale

    def geometry(self, geom: BaseGeometry) -> BaseGeometry:
        import numpy as np

        def each(coords: Any) -> Any:
            return np.array([self(float(x), float(y)) for x, y in coords])

        return shapely.transform(geom, each)

    def km(self, lon: float, lat: float) -> float:
        """Pixels per kilometre at a place (north to south)."""
        a, b = self(lon, lat - 0.5), self(lon, lat + 0.5)
        return math.dist(a, b) / 111.2


# -- the partition -------------------------------------------------------------------------------


class Board:
    """The sites read from sites.yaml, projected."""

    def __init__(self, raw: dict[str, Any], proj: Projection, sea: set[str]) -> None:
        self.proj = proj
        self.sea = sea
        self.provinces: dict[str, dict[str, Any]] = raw["provinces"]
        self.sites: dict[str, list[Pt]] = {
            code: [proj(*p) for p in entry["sites"]] for code, entry in self.provinces.items()
        }
        off = raw.get("offboard") or {}
        self.offboard_islands = {name: proj(*p) for name, p in (off.get("islands") or {}).items()}
        self.offboard_sites = [proj(*p) for p in off.get("sites") or []]
        self.islands = {
            name: (proj(*entry["at"]), str(entry["province"])) for name, entry in (raw.get("islands") or {}).items()
        }
        self.straits = [
            (LineString([proj(*p) for p in s["line"]]), float(s["width"]) * proj.km(*s["line"][len(s["line"]) // 2]))
            for s in raw.get("straits") or []
        ]

    def unit(self, code: str) -> Pt:
        entry = self.provinces[code]
        return self.proj(*entry["unit"]) if "unit" in entry else self.sites[code][0]

    def label(self, code: str) -> Pt:
        entry = self.provinces[code]
        if "label" in entry:
            return self.proj(*entry["label"])
        x, y = self.unit(code)
        return x, y - LABEL_ABOVE

    def coasts(self, code: str) -> dict[str, Pt]:
        return {f"{code}/{c}": self.proj(*p) for c, p in (self.provinces[code].get("coasts") or {}).items()}


def voronoi(sites: Sequence[Pt], frame: Polygon) -> list[BaseGeometry]:
    """Each site's Voronoi cell, cut to the frame, in the sites' order."""
    cells = shapely.voronoi_polygons(shapely.MultiPoint(list(sites)), extend_to=frame, ordered=True)
    return [shapely.intersection(c, frame, grid_size=GRID) for c in cells.geoms]


def partition(board: Board, land_deg: BaseGeometry) -> dict[str, BaseGeometry]:
    proj = board.proj
    frame = box(0, 0, proj.width, proj.height)
    land = shapely.set_precision(shapely.make_valid(proj.geometry(land_deg)), GRID)
    land = shapely.intersection(land, frame, grid_size=GRID)
    for line, width in board.straits:
        land = shapely.union(land, line.buffer(width / 2), grid_size=GRID)

    land_owner: list[str] = []
    land_sites: list[Pt] = []
    sea_owner: list[str] = []
    sea_sites: list[Pt] = []
    for code, pts in board.sites.items():
        for p in pts:
            if code in board.sea:
                sea_owner.append(code)
                sea_sites.append(p)
            else:
                land_owner.append(code)
                land_sites.append(p)
    for p in board.offboard_sites:
        land_owner.append(OFFBOARD)
        land_sites.append(p)
    land_cells = voronoi(land_sites, frame)
    sea_cells = voronoi(sea_sites, frame)

    # the land in pieces: each small island whole, the rest cut by the land cells
    pieces = list(getattr(land, "geoms", [land]))
    big = [p for p in pieces if p.area >= ISLAND_AREA]
    mainland = shapely.union_all(big, grid_size=GRID)
    lines: list[BaseGeometry] = [land.boundary, frame.boundary]
    lines += [shapely.intersection(c.boundary, mainland, grid_size=GRID) for c in land_cells]
    lines += [shapely.difference(c.boundary, land, grid_size=GRID) for c in sea_cells]
    noded = shapely.union_all([g for g in lines if not g.is_empty], grid_size=GRID)
    faces = list(shapely.polygonize(list(getattr(noded, "geoms", [noded]))).geoms)
    print(f"{len(faces)} faces", file=sys.stderr)

    def cell_of(p: Point, cells: list[BaseGeometry], owners: list[str]) -> str:
        best = min(range(len(cells)), key=lambda i: cells[i].distance(p))
        return owners[best]

    small = [p for p in pieces if p.area < ISLAND_AREA]
    off_points = [
        next((p for p in pieces if p.contains(Point(at))), Point(at)) for at in board.offboard_islands.values()
    ]
    small_tree = shapely.STRtree(small)
    owner: list[str] = []
    fixed: list[bool] = []  # an island given whole: never moved
    kind: list[str] = []
    for f in faces:
        rp = f.representative_point()
        if land.contains(rp):
            kind.append("land")
            hits = [small[i] for i in small_tree.query(rp, predicate="within")]
            whole = hits[0] if hits else None
            named = [(name, code) for name, (at, code) in board.islands.items() if (whole or f).contains(Point(at))] + [
                (name, OFFBOARD) for name, at in board.offboard_islands.items() if (whole or f).contains(Point(at))
            ]
            if named:
                owner.append(named[0][1])
                fixed.append(True)
            elif whole is not None:
                # beside an island of no province (Sardinia's islets): no province's either
                near_off = min((whole.distance(g) for g in off_points if g is not whole), default=math.inf)
                near_main = mainland.distance(whole)
                if near_off < near_main:
                    owner.append(OFFBOARD)
                else:
                    owner.append(cell_of(whole.representative_point(), land_cells, land_owner))
                fixed.append(True)
            else:
                owner.append(cell_of(rp, land_cells, land_owner))
                fixed.append(False)
        else:
            kind.append("sea")
            owner.append(cell_of(rp, sea_cells, sea_owner))
            fixed.append(False)

    # which faces touch which, and how long their shared edge is
    tree = shapely.STRtree(faces)
    touching: dict[int, dict[int, float]] = {i: {} for i in range(len(faces))}
    for i, f in enumerate(faces):
        for j in tree.query(f, predicate="touches"):
            j = int(j)
            if j > i:
                length = shapely.intersection(f.boundary, faces[j].boundary, grid_size=GRID).length
                if length > 0:
                    touching[i][j] = touching[j][i] = length

    anchors = {code: [Point(p) for p in pts] for code, pts in board.sites.items()}
    while True:
        moved = False
        for code in sorted(set(owner)):
            if code == OFFBOARD:
                continue
            mine = [i for i, o in enumerate(owner) if o == code]
            for piece in _components(mine, touching):
                if any(fixed[i] for i in piece) or any(faces[i].intersects(a) for i in piece for a in anchors[code]):
                    continue
                near: dict[str, float] = {}
                for i in piece:
                    for j, length in touching[i].items():
                        if owner[j] != code:
                            near[owner[j]] = near.get(owner[j], 0.0) + length
                same = {o: v for o, v in near.items() if o != OFFBOARD and kind[piece[0]] == _kind(o, board)}
                pool = same or {o: v for o, v in near.items() if o == OFFBOARD} or near
                if not pool:
                    continue
                to = max(sorted(pool), key=lambda o: pool[o])
                for i in piece:
                    owner[i] = to
                moved = True
        if not moved:
            break

    shapes: dict[str, BaseGeometry] = {}
    for code in sorted(set(owner)):
        shapes[code] = shapely.coverage_union_all([faces[i] for i, o in enumerate(owner) if o == code])
    return shapes


def _kind(code: str, board: Board) -> str:
    return "sea" if code in board.sea else "land"


def _components(members: list[int], touching: dict[int, dict[int, float]]) -> list[list[int]]:
    left = set(members)
    out: list[list[int]] = []
    while left:
        start = min(left)
        left.discard(start)
        group = [start]
        todo = [start]
        while todo:
            i = todo.pop()
            for j in touching[i]:
                if j in left:
                    left.discard(j)
                    group.append(j)
                    todo.append(j)
        out.append(sorted(group))
    return out


# -- output and checks ----------------------------------------------------------------------------


def _rounded(geom: BaseGeometry) -> list[list[list[list[float]]]]:
    """A (multi)polygon as GeoJSON MultiPolygon coordinates, rounded to 0.1 px, with
    repeated points and rings of fewer than three corners dropped."""
    out = []
    for poly in getattr(geom, "geoms", [geom]):
        if not isinstance(poly, Polygon) or poly.is_empty:
            continue
        rings = []
        for ring in (poly.exterior, *poly.interiors):
            pts: list[list[float]] = []
            for x, y in ring.coords:
                p = [round(x, 1), round(y, 1)]
                if not pts or p != pts[-1]:
                    pts.append(p)
            if len(pts) >= 4 and pts[0] == pts[-1]:
                rings.append(pts)
        if rings and len(rings[0]) >= 4:
            out.append(rings)
    return out


def _pt(p: Pt) -> list[float]:
    return [round(p[0], 1), round(p[1], 1)]


def shared_lengths(polygons: dict[str, list[list[list[list[float]]]]]) -> dict[tuple[str, str], float]:
    """How long an edge each two provinces share (the picture's way: equal segments)."""
    owners: dict[tuple[tuple[float, float], tuple[float, float]], set[str]] = {}
    for code, polys in polygons.items():
        for poly in polys:
            for ring in poly:
                for a, b in itertools.pairwise(ring):
                    key = (min((a[0], a[1]), (b[0], b[1])), max((a[0], a[1]), (b[0], b[1])))
                    owners.setdefault(key, set()).add(code)
    out: dict[tuple[str, str], float] = {}
    for (a, b), codes in owners.items():
        for x, y in itertools.combinations(sorted(codes), 2):
            out[(x, y)] = out.get((x, y), 0.0) + math.dist(a, b)
    return out


# the picture's measures (moonshine.variants.classic.scene's modules): a unit's box, a label's
CODE_SIZE = 16.0
UNIT_BOX = 11.5 * 1.25 + 1.0  # a unit's marker
CLEAR_BOX = 11.5 + 5 + 2.5 + 0.5  # a dislodged unit's ring, its halo included: no name under it
CENTRE_W = 4 + 2 * (5.5 + 1.6)  # the supply centre's dot right of the code
DISLODGED_OFFSET = (20.0, 15.0)


def label_box(code: str, at: Pt, supply: bool) -> BaseGeometry:
    w = 0.62 * CODE_SIZE * len(code)
    return box(
        at[0] - w / 2 - 1, at[1] - CODE_SIZE / 2, at[0] + w / 2 + (CENTRE_W if supply else 1), at[1] + CODE_SIZE / 2
    )


def unit_box(at: Pt, r: float = UNIT_BOX) -> BaseGeometry:
    return box(at[0] - r, at[1] - r, at[0] + r, at[1] + r)


def place_labels(board: Board, polygons: dict[str, Any]) -> dict[str, Pt]:
    """Where each province's code goes: sites.yaml's ``label`` if given, else the place
    near its unit, inside its shape, that covers no unit (nor where a dislodged unit
    stands), no other code, and the fewest lines between neighbours' units (the moves'
    arrows)."""
    from moonshine.variants.classic.board import board as load_board
    from moonshine.variants.classic.scene.borders import borders

    gmap = load_board("classic")
    shapes = {c: MultiPolygon([Polygon(p[0], p[1:]) for p in polys]) for c, polys in polygons.items() if c}
    # where units stand (an impassable province's never holds one)
    places = {code: [board.unit(code), *board.coasts(code).values()] for code in board.provinces if gmap.near[code]}
    units = shapely.union_all([unit_box(p, CLEAR_BOX) for ps in places.values() for p in ps])
    dislodged = shapely.union_all(
        [unit_box((p[0] + DISLODGED_OFFSET[0], p[1] + DISLODGED_OFFSET[1])) for ps in places.values() for p in ps]
    )
    pairs = [(p, q) for b in borders(gmap) for p in places[b.a] for q in places[b.b]]

    lines = shapely.STRtree([LineString(pq) for pq in pairs])
    # a support goes from the supporter to the middle of the move it supports
    near = {c: set(gmap.near[c]) for c in places}
    supports = shapely.STRtree(
        [
            LineString([p, ((q[0] + r[0]) / 2, (q[1] + r[1]) / 2)])
            for a in places
            for dest in near[a]
            for mover in near[dest] - {a}
            for p in places[a]
            for q in places[mover]
            for r in places[dest]
        ]
    )
    taken: list[BaseGeometry] = []
    out: dict[str, Pt] = {}
    fixed = {code for code, e in board.provinces.items() if "label" in e}
    for code in fixed:
        out[code] = board.label(code)
        taken.append(label_box(code, out[code], gmap.provinces[code].supply))

    def crowd(code: str) -> int:
        at = board.unit(code)
        return -sum(1 for ps in places.values() for p in ps if math.dist(p, at) < 70)

    for code in sorted((c for c in board.provinces if c not in fixed), key=lambda c: (crowd(c), c)):
        at = board.unit(code)
        supply = gmap.provinces[code].supply
        best: tuple[float, Pt] | None = None
        for d in (24.0, 28.0, 33.0, 39.0, 46.0, 54.0):
            for angle in range(0, 360, 15):
                a = math.radians(angle)
                p = (round(at[0] + d * math.sin(a), 1), round(at[1] - d * math.cos(a), 1))
                b = label_box(code, p, supply)
                cost = d / 2.5 + (0 if angle in (0, 345, 15) else 2)
                if b.intersects(units):
                    cost += 1000
                if any(b.intersects(t) for t in taken):
                    cost += 1000
                if not shapes[code].contains(Point(p)):
                    cost += 500
                cost += 40 * (1 - shapes[code].intersection(b).area / b.area)
                if b.intersects(dislodged):
                    cost += 30
                for weight, tree in ((15, lines), (4, supports)):
                    cost += weight * len(tree.query(b, predicate="intersects"))
                if best is None or cost < best[0]:
                    best = (cost, p)
        assert best is not None
        out[code] = best[1]
        taken.append(label_box(code, best[1], supply))
    return out


def check(
    board: Board, polygons: dict[str, Any], pairs: dict[tuple[str, str], float], labels: dict[str, Pt]
) -> list[str]:
    from moonshine.variants.classic.board import board as load_board
    from moonshine.variants.classic.scene.borders import borders

    gmap = load_board("classic")
    wanted = {(b.a, b.b) for b in borders(gmap)}
    impassable = {p for p in gmap.provinces if not gmap.near[p]}
    problems = []
    for pair in sorted(wanted):
        if pairs.get(pair, 0.0) < MIN_EDGE:
            problems.append(f"border {pair[0]}-{pair[1]}: shared edge {pairs.get(pair, 0.0):.1f} px")
    for pair, length in sorted(pairs.items()):
        if pair not in wanted and OFFBOARD not in pair and not impassable & set(pair):
            problems.append(f"no border {pair[0]}-{pair[1]}: yet they share {length:.1f} px")
    boxes: list[tuple[str, str, BaseGeometry]] = []
    for code in board.provinces:
        shape = MultiPolygon([Polygon(p[0], p[1:]) for p in polygons.get(code, [])])
        places = {"unit": board.unit(code), "label": labels[code], **board.coasts(code)}
        for what, p in places.items():
            if not shape.contains(Point(p)):
                problems.append(f"{code}: its {what} stands outside it")
            if what == "label":
                boxes.append((code, what, label_box(code, p, gmap.provinces[code].supply)))
            elif gmap.near[code]:
                boxes.append((code, what, p))
    for (c1, w1, p1), (c2, w2, p2) in itertools.combinations(boxes, 2):
        if w1 == "label" and w2 == "label":
            clash = p1.intersects(p2)
        elif w1 == "label" or w2 == "label":
            name, place = (p1, p2) if w1 == "label" else (p2, p1)
            clash = name.intersects(unit_box(place, CLEAR_BOX))
        else:
            clash = c1 != c2 and unit_box(p1).intersects(unit_box(p2))
        if clash:
            problems.append(f"{c1}'s {w1} and {c2}'s {w2} overlap")
    return problems


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--land", type=Path, required=True, help="world-atlas@2's land-50m.json")
    parser.add_argument("--out", type=Path, default=OUT, help=f"where to write (default: {OUT.relative_to(ROOT)})")
    args = parser.parse_args(argv)

    from moonshine.variants.classic.board import board as load_board

    gmap = load_board("classic")
    sea = {code for code in gmap.provinces if gmap.is_sea(code)}
    raw = yaml.safe_load(SITES.read_text(encoding="utf-8"))
    proj = Projection(raw["projection"], raw["frame"])
    board = Board(raw, proj, sea)
    missing = sorted(set(gmap.provinces) - set(board.provinces))
    if missing:
        print(f"{SITES}: no sites for {', '.join(missing)}", file=sys.stderr)
        return 1
    shapes = partition(board, read_land(args.land))
    codes = [c for c in shapes if c != OFFBOARD]
    simplified = shapely.coverage_simplify([shapes[c] for c in [*codes, OFFBOARD] if c in shapes], SIMPLIFY)
    polygons = {c: _rounded(g) for c, g in zip([*codes, OFFBOARD], simplified, strict=False)}
    labels = place_labels(board, polygons)
    features = []
    for code in sorted(board.provinces):
        props: dict[str, Any] = {"code": code, "unit": _pt(board.unit(code)), "label": _pt(labels[code])}
        coasts = board.coasts(code)
        if coasts:
            props["coasts"] = {c: _pt(p) for c, p in sorted(coasts.items())}
        features.append(
            {
                "type": "Feature",
                "properties": props,
                "geometry": {"type": "MultiPolygon", "coordinates": polygons.get(code, [])},
            }
        )
    if polygons.get(OFFBOARD):
        features.append(
            {
                "type": "Feature",
                "properties": {"offboard": True},
                "geometry": {"type": "MultiPolygon", "coordinates": polygons[OFFBOARD]},
            }
        )
    doc = {
        "type": "FeatureCollection",
        "name": "classic",
        "size": [proj.width, proj.height],
        "features": features,
    }
    text = json.dumps(doc, separators=(",", ":"), ensure_ascii=False)
    args.out.write_text(text.replace('{"type":"Feature"', '\n{"type":"Feature"') + "\n", encoding="utf-8")
    points = sum(len(r) for ps in polygons.values() for p in ps for r in p)
    print(f"{args.out}: {len(features)} features, {points} points, {len(text)} bytes", file=sys.stderr)
    problems = check(board, polygons, shared_lengths(polygons), labels)
    for p in problems:
        print(p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
