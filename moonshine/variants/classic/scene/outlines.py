"""The geometry of the provinces' outlines: the edges two shapes share (their common
segments joined into polylines), and Voronoi cells clipped to the frame, joined
into rings without their needless corners."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from moonshine.picture.shapes import Pt
from moonshine.variants.classic.scene.polylines import Path_, Shape_


def shared_edges(shapes: Mapping[str, tuple[Shape_, ...]]) -> dict[tuple[str, str], tuple[Path_, ...]]:
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


def cells(sites: Sequence[Pt], width: float, height: float) -> list[_Tagged]:
    """The Voronoi cell of each site, clipped to the frame, its corners tagged with the site across each edge."""
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


def key(p: Pt) -> tuple[int, int]:
    """A point rounded to an eighth of a unit, to find it again."""
    return round(p[0] * 8), round(p[1] * 8)


def rings(edges: Sequence[tuple[Pt, Pt]]) -> tuple[tuple[Pt, ...], ...]:
    """Join directed edges end to start into closed rings."""
    starts: dict[tuple[int, int], list[int]] = {}
    for i, (a, _) in enumerate(edges):
        starts.setdefault(key(a), []).append(i)
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
            nxt = [k for k in starts.get(key(b), []) if not used[k]]
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
            if abs(cross) < 1e-6 * max(1.0, math.hypot(c[0] - a[0], c[1] - a[1])) or key(a) == key(b):
                del out[i]
                changed = True
                break
    return tuple(out)
