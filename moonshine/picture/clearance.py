"""Where an arrow stops so that its head is seen: the boxes of what a picture draws over
its arrows (names, units, symbols), and the end of a line cut back until its head
stands clear of them, for any variant's map."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from moonshine.picture.shapes import (
    Box,
    Pt,
    cut_path,
    path_length,
    point_at,
    vec_add,
    vec_len,
    vec_mul,
    vec_right,
    vec_sub,
    vec_unit,
)

CLEAR = 2.0  # how far a head keeps off what is drawn over it
CELL = 64.0  # the grid (scene units) the boxes are sorted into


def square(c: Pt, reach: float) -> Box:
    """The box ``reach`` on each side of ``c``."""
    return (c[0] - reach, c[1] - reach, c[0] + reach, c[1] + reach)


def head_points(tip: Pt, direction: Pt, length: float, half: float) -> tuple[Pt, ...]:
    """The points of a head (or a chevron) ``length`` long and ``half`` wide at ``tip``,
    pointing along ``direction``, that must stay in sight: its tip, its base's corners
    and middle, the middles of its sides."""
    d = vec_unit(direction)
    base = vec_sub(tip, vec_mul(d, length))
    n = vec_right(d)
    a, b = vec_add(base, vec_mul(n, half)), vec_add(base, vec_mul(n, -half))
    mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    return tip, a, b, mid, ((tip[0] + a[0]) / 2, (tip[1] + a[1]) / 2), ((tip[0] + b[0]) / 2, (tip[1] + b[1]) / 2)


class KeepOut:
    """The boxes of what a picture draws over its arrows, found by cell."""

    def __init__(self, boxes: Iterable[Box]) -> None:
        self.cells: dict[tuple[int, int], list[Box]] = {}
        for b in boxes:
            for cx in range(math.floor(b[0] / CELL), math.floor(b[2] / CELL) + 1):
                for cy in range(math.floor(b[1] / CELL), math.floor(b[3] / CELL) + 1):
                    self.cells.setdefault((cx, cy), []).append(b)

    def depth(self, points: Sequence[Pt], margin: float = CLEAR, spared: Box | None = None) -> float:
        """How deep ``points`` reach into the boxes (widened by ``margin``), summed; 0
        when all are clear. ``spared``: a box that does not count (what the arrow points
        at, such as an assaulted station)."""
        total = 0.0
        for p in points:
            for b in self.cells.get((math.floor(p[0] / CELL), math.floor(p[1] / CELL)), ()):
                if b == spared:
                    continue
                d = min(p[0] - b[0] + margin, b[2] + margin - p[0], p[1] - b[1] + margin, b[3] + margin - p[1])
                if d > 0:
                    total += d
        return total


def clear_end(
    points: Sequence[Pt], keep: KeepOut, *, length: float, half: float, least: float, spared: Box | None = None
) -> tuple[tuple[Pt, ...], float]:
    """``points`` cut at their end so that a head ``length`` long and ``half`` wide at
    the end (or, for ``length`` 0, the end itself, ``half`` its reach) stands clear of
    what ``keep`` holds; never shorter than ``least``. When no end is clear, the one
    that covers least. With how deep it still reaches into ``keep`` (0: clear)."""
    total = path_length(points)
    best_t, best_depth = total, math.inf
    t = total
    while t >= least:
        tip = point_at(points, t)
        if length > 0:
            direction = vec_sub(tip, point_at(points, max(0.0, t - length)))
            probe = head_points(tip, direction if vec_len(direction) > 0 else (1.0, 0.0), length, half)
            depth = keep.depth(probe, spared=spared)
        else:
            depth = keep.depth((tip,), CLEAR + half, spared=spared)
        if depth <= 0:
            return cut_path(points, 0.0, total - t), 0.0
        if depth < best_depth:
            best_t, best_depth = t, depth
        t -= 1.0
    return cut_path(points, 0.0, total - best_t), best_depth


AIM_RINGS = (22.0, 32.0)  # how far from a crowded destination the other ends tried are
AIM_TURNS = 16  # the directions tried on each ring


def other_aims(goal: Pt, start: Pt, rings: Sequence[float] = AIM_RINGS) -> list[Pt]:
    """Points round a destination ``goal`` for an arrow whose end finds no clear spot on
    its way there from ``start``: on rings about it, those nearest the way it comes first."""
    come = math.atan2(start[1] - goal[1], start[0] - goal[0])
    out = []
    for r in rings:
        for i in range(AIM_TURNS):
            a = come + 2 * math.pi * i / AIM_TURNS
            out.append(
                (abs(math.remainder(a - come, 2 * math.pi)), r, (goal[0] + r * math.cos(a), goal[1] + r * math.sin(a)))
            )
    return [p for _, _, p in sorted(out, key=lambda t: (t[0], t[1]))]


__all__ = ["CLEAR", "KeepOut", "clear_end", "head_points", "other_aims", "square"]
