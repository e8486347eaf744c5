"""The turn's orders drawn as arrows: the route of each between the districts'
units (through a delivery man's steps or a transport's carriers, side by side when
two go opposite ways), where it stops short of its ends, its shape (a head, a
chevron, a dot, a ring round a held unit, a burst round an assaulted station), and
the mark of a failed order, placed clear of the district codes."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Protocol

from moonshine.picture.clearance import KeepOut, clear_end, other_aims, square
from moonshine.picture.shapes import (
    HALO,
    Box,
    Circle,
    Group,
    Item,
    Line,
    Paint,
    PictureError,
    Poly,
    Pt,
    cut_path,
    ink,
    path_length,
    point_at,
    regular_polygon,
    shift_right,
    smooth_path,
    vec_add,
    vec_len,
    vec_mul,
    vec_right,
    vec_sub,
    vec_unit,
)
from moonshine.variants.moonshine.map import Feature, GameMap
from moonshine.variants.moonshine.scene.canvas import Layout, check_district
from moonshine.variants.moonshine.scene.symbols import CODE_SIZE, code_at, cross, feature_at, station_at, units_at

ARROW_KINDS = ("move", "support", "transport", "assault", "retreat")


class Drawn(Protocol):
    """What the arrows read of one order to draw: ``moonshine.variants.moonshine.scene.Arrow``
    is one, and says what each field means."""

    @property
    def kind(self) -> str: ...
    @property
    def gang(self) -> str: ...
    @property
    def start(self) -> str: ...
    @property
    def end(self) -> str: ...
    @property
    def succeeded(self) -> bool: ...
    @property
    def path(self) -> tuple[str, ...]: ...
    @property
    def target_end(self) -> str | None: ...
    @property
    def target_kind(self) -> str: ...


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


UNIT_REACH = 12.4  # half the side of the box a unit's marker covers, with its white halo


GHOST_REACH = 15.6  # half the side of the box a dislodged unit covers, with its dashed ring


SYMBOL_REACH = 10.0  # half the side of the box a feature's or a station's symbol covers


def keep_out(gmap: GameMap, layout: Layout, placed: Mapping[tuple[str, str], Pt], ghosts: Mapping[str, Pt]) -> KeepOut:
    """What an arrow's end stops short of: every district's code (its box as a close-up
    grows it), feature and station, and every unit, dislodged ones included."""
    boxes: list[Box] = []
    for code, d in gmap.districts.items():
        p = layout.labels[code]
        boxes.append(_codesquare(code, code_at(p)))
        if d.feature is not Feature.NONE:
            boxes.append(square(feature_at(p), SYMBOL_REACH))
        if d.station is not None:
            boxes.append(square(station_at(p), SYMBOL_REACH))
    boxes += [square(c, UNIT_REACH) for c in placed.values()]
    boxes += [square(c, GHOST_REACH) for c in ghosts.values()]
    return KeepOut(boxes)


def _head(tip: Pt, direction: Pt, length: float = HEAD_LEN, half: float = HEAD_HALF) -> tuple[Pt, ...]:
    d = vec_unit(direction)
    base = vec_sub(tip, vec_mul(d, length))
    n = vec_right(d)
    return tip, vec_add(base, vec_mul(n, half)), vec_add(base, vec_mul(n, -half))


def arrow_shape(kind: str, points: Sequence[Pt], colour: str, failed: bool, station: Pt | None) -> tuple[Item, ...]:
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


def _check_arrow(gmap: GameMap, a: Drawn) -> None:
    what = f"arrow {a.kind} {a.start} -> {a.end}"
    if a.kind not in ARROW_KINDS:
        raise PictureError(f"{what}: unknown kind {a.kind!r} (expected {', '.join(ARROW_KINDS)})")
    if a.gang not in gmap.gangs:
        raise PictureError(f"{what}: unknown gang {a.gang!r} (gangs: {', '.join(gmap.gangs)})")
    for code in (a.start, a.end, *a.path, *([a.target_end] if a.target_end else [])):
        check_district(gmap, code, what)
    if a.kind == "assault" and gmap.districts[a.end].station is None:
        raise PictureError(f"{what}: {a.end} has no police station")


def _codesquare(code: str, at: Pt, size: float = CODE_SIZE * MARK_CODE_GROWTH, halo: float = 2.4) -> Box:
    """The box a district code's ink covers, centred on ``at``: capitals of the bold
    font are at most 0.8 of its size across (the widest, M and W, about that) and 0.85
    high with their stroke, and the halo round them."""
    half_w = 0.4 * size * len(code) + halo
    half_h = 0.425 * size + halo
    return (at[0] - half_w, at[1] - half_h, at[0] + half_w, at[1] + half_h)


def arrow_items(
    gmap: GameMap,
    layout: Layout,
    arrows: Sequence[Drawn],
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
    first: dict[Drawn, None] = {}  # each arrow once, in the order given
    for a in arrows:
        if a not in first:
            _check_arrow(gmap, a)
            first[a] = None
    unique = list(first)
    moves: dict[tuple[str, str], Drawn] = {}  # (start, end) -> the first move or assault between them
    for b in unique:
        if b.kind in ("move", "assault"):
            moves.setdefault((b.start, b.end), b)

    def anchor(code: str) -> Pt:
        return units_at(layout.labels[code])

    def station(code: str) -> Pt:
        return station_at(layout.labels[code])

    def route(a: Drawn, aim: Pt | None = None) -> tuple[Pt, ...]:
        """The drawn centre line of a move, retreat, transport or assault before trimming
        (``aim``: another end than the destination's units or station)."""
        end = aim if aim is not None else station(a.end) if a.kind == "assault" else anchor(a.end)
        first = ghosts.get(a.start, anchor(a.start)) if a.kind == "retreat" else anchor(a.start)
        raw = [first, *(anchor(p) for p in a.path), end]
        if a.kind == "assault" and a.start == a.end:
            return (anchor(a.start), end)
        return shift_right(smooth_path(raw), ARROW_SHIFT)

    def supported_point(a: Drawn) -> Pt:
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
                x0, y0, x1, y1 = _codesquare(code, code_at(layout.labels[code]))
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

    keep = keep_out(gmap, layout, placed, ghosts)

    def ended(a: Drawn) -> tuple[Pt, ...]:
        """A move's, retreat's, transport's or assault's line, its end short of the codes,
        units and symbols drawn over it, its head in sight: on its way to the
        destination, or else aimed at the nearest clear spot round it."""
        target = square(station(a.end), SYMBOL_REACH) if a.kind == "assault" else None
        head = {"transport": (0.0, 4.5), "retreat": (9.0, 5.5)}.get(a.kind, (HEAD_LEN, HEAD_HALF))
        least = HEAD_LEN * (2.0 if a.kind == "transport" else 1.5)

        def cut(aim: Pt | None) -> tuple[tuple[Pt, ...], float]:
            line = route(a, aim)
            start_gap, end_gap = (0.0, 0.0) if a.kind == "transport" else (9.0, 13.0 if a.kind == "assault" else 11.0)
            points = cut_path(line, start_gap, end_gap)
            return clear_end(points, keep, length=head[0], half=head[1], least=least, spared=target)

        best, depth = cut(None)
        if depth > 0:
            goal = station(a.end) if a.kind == "assault" else anchor(a.end)
            last = anchor(a.path[-1]) if a.path else anchor(a.start)
            for aim in other_aims(goal, last):
                points, d = cut(aim)
                if d < depth:
                    best, depth = points, d
                if d <= 0:
                    break
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
            shapes = (*arrow_shape(a.kind, points, colour, failed, None)[:-1], ring)
        elif a.kind == "support":
            points = cut_path((anchor(a.start), supported_point(a)), 10.0, 2.0)
            shapes = arrow_shape(a.kind, points, colour, failed, None)
        elif a.kind == "assault" and a.start == a.end:
            points = (station(a.end),)
            shapes = _burst(station(a.end), ink(colour), DASH if failed else None)
        else:
            points = ended(a)
            shapes = arrow_shape(a.kind, points, colour, failed, station(a.end) if a.kind == "assault" else None)
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
                crosses.append(Group((("class", "failure-mark"),), cross(where)))
    drawn.sort(key=lambda t: (t[0], t[1]))
    return [g for _, _, g in drawn], crosses
