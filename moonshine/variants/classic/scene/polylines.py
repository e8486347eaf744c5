"""Points and polylines, for the picture's lines: the distance between two points, a
point along a polyline, a polyline trimmed at its ends, shifted sideways, smoothed
into a curve; hatching inside a ring."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TypeAlias

from moonshine.picture.shapes import Pt

Path_: TypeAlias = tuple[Pt, ...]  # an open polyline
Shape_: TypeAlias = tuple[tuple[Pt, ...], ...]  # a polygon: its outer ring, then its holes


def dist(a: Pt, b: Pt) -> float:
    """The distance between two points."""
    return math.hypot(b[0] - a[0], b[1] - a[1])


def towards(a: Pt, b: Pt, d: float) -> Pt:
    """The point ``d`` from ``a`` towards ``b`` (``a`` when they are one)."""
    n = dist(a, b)
    if n == 0:
        return a
    return a[0] + (b[0] - a[0]) * d / n, a[1] + (b[1] - a[1]) * d / n


def polyline_length(points: Sequence[Pt]) -> float:
    """The length of a polyline."""
    return sum(dist(points[i], points[i + 1]) for i in range(len(points) - 1))


def point_along(points: Sequence[Pt], d: float) -> tuple[Pt, Pt]:
    """The point ``d`` along the polyline and the direction there."""
    for i in range(len(points) - 1):
        seg = dist(points[i], points[i + 1])
        if d <= seg or i == len(points) - 2:
            p = towards(points[i], points[i + 1], min(d, seg))
            return p, (points[i + 1][0] - points[i][0], points[i + 1][1] - points[i][1])
        d -= seg
    return points[-1], (1.0, 0.0)


def trim(points: Sequence[Pt], start: float, end: float) -> tuple[Pt, ...]:
    """The polyline without its first ``start`` and last ``end`` units of length."""
    total = polyline_length(points)
    if total - start - end < 4:
        mid = (start + total - end) / 2
        start, end = mid - 2, total - mid - 2
    a, _ = point_along(points, start)
    b, _ = point_along(points, total - end)
    out = [a]
    run = 0.0
    for i in range(len(points) - 1):
        run += dist(points[i], points[i + 1])
        if start < run < total - end:
            out.append(points[i + 1])
    out.append(b)
    return tuple(out)


def shift(points: Sequence[Pt], by: float) -> tuple[Pt, ...]:
    """Every point moved ``by`` to the right of travel (two opposite arrows side by side)."""
    out: list[Pt] = []
    for i, p in enumerate(points):
        q0 = points[max(0, i - 1)]
        q1 = points[min(len(points) - 1, i + 1)]
        dx, dy = q1[0] - q0[0], q1[1] - q0[1]
        n = math.hypot(dx, dy) or 1.0
        out.append((p[0] - dy / n * by, p[1] + dx / n * by))
    return tuple(out)


def curve(points: Sequence[Pt], steps: int = 8) -> tuple[Pt, ...]:
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


def hatch(ring: Sequence[Pt], gap: float) -> list[tuple[Pt, Pt]]:
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
