"""The phase's orders drawn as arrows: a move's route (through its convoying fleets),
where each line leaves its unit and stops short of its end, its shape (a head for a
move, a chevron for a retreat, a dot for a support, a ring round a held unit or a
convoying fleet), dashed and crossed when it failed."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence

import msgspec

from moonshine.picture.clearance import KeepOut, clear_end, other_aims
from moonshine.picture.shapes import Box, Circle, Group, Item, Label, Line, Paint, Poly, Pt, extent, ink
from moonshine.variants.classic.board import Kind, province_of
from moonshine.variants.classic.orders import Convoy, Move, Order, Retreat, SupportHold, SupportMove
from moonshine.variants.classic.scene.canvas import Canvas
from moonshine.variants.classic.scene.markers import cross
from moonshine.variants.classic.scene.polylines import curve, dist, point_along, polyline_length, shift, trim
from moonshine.variants.classic.scene.style import HALO, UNIT_R, text_width

ARROW_SHIFT = 3.0
HEAD_LEN = 12.0
HEAD_HALF = 6.5
DASH = (7.0, 5.0)
RING = UNIT_R + 5.5  # a support to hold, a convoy


def _head(tip: Pt, direction: Pt, length: float = HEAD_LEN, half: float = HEAD_HALF) -> tuple[Pt, ...]:
    n = math.hypot(*direction) or 1.0
    ux, uy = direction[0] / n, direction[1] / n
    bx, by = tip[0] - ux * length, tip[1] - uy * length
    return tip, (bx - uy * half, by + ux * half), (bx + uy * half, by - ux * half)


class Drawn(msgspec.Struct, frozen=True):
    """An order to draw: its power, its order, whether it succeeded, where its unit
    stands on the drawing."""

    power: str
    order: Order
    text: str
    succeeded: bool
    at: Pt


def arrow(
    points: Sequence[Pt], colour: str, failed: bool, *, width: float, end: str, mark_at: float = 0.55
) -> list[Item]:
    """A line along ``points`` ending with ``end`` ("head", "chevron", "dot", "none");
    dashed and crossed when ``failed``."""
    line = ink(colour)
    dash = DASH if failed else None
    body = list(points)
    total = polyline_length(body)
    tip = body[-1]
    _, direction = point_along(body, max(0.0, total - 1.0))
    if end == "head" and total > HEAD_LEN:
        body = list(trim(body, 0.0, HEAD_LEN * 0.7))
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
        items.extend(cross(point_along(points, total * mark_at)[0]))
    return items


def ring(c: Pt, colour: str, failed: bool, r: float = RING, width: float = 2.4) -> list[Item]:
    """A ring round ``c`` (a support to a unit that holds, a convoying fleet); dashed when it failed."""
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
        nxt = min(left, key=lambda p: (dist(here, p), p))
        left.remove(nxt)
        out.append(nxt)
        here = nxt
    return out


def keep_out(over: Iterable[Item]) -> KeepOut:
    """The boxes of what is drawn over the arrows (the provinces' names, their centres'
    dots and coasts' tags, the units), for an arrow's head to stop short of."""
    boxes: list[Box] = []

    def add(item: Item) -> None:
        if isinstance(item, Group):
            for i in item.items:
                add(i)
        elif isinstance(item, Label):
            half_w = text_width(item.text, item.size) / 2 + item.halo
            half_h = 0.425 * item.size + item.halo
            boxes.append((item.at[0] - half_w, item.at[1] - half_h, item.at[0] + half_w, item.at[1] + half_h))
        else:
            box = extent((item,))
            if box is not None:
                boxes.append(box)

    for item in over:
        add(item)
    return KeepOut(boxes)


class Orders:
    """The arrows of a phase's orders, and what each unit's marker must show.
    ``keep``: what is drawn over the arrows, which their heads stop short of."""

    def __init__(
        self, sc: Canvas, drawn: Sequence[Drawn], occupied: Mapping[str, Pt], keep: KeepOut | None = None
    ) -> None:
        self.sc = sc
        self.drawn = drawn
        self.occupied = occupied  # province -> where the unit standing there is drawn
        self.keep = keep

    def clear(
        self, line: Sequence[Pt], start: Pt, goal: Pt, route: Callable[[Pt], Sequence[Pt]], head: tuple[float, float]
    ) -> tuple[Pt, ...]:
        """``line`` cut back so that its head (``head``: its length and half width)
        stands clear of what is drawn over it; when no spot on its way is, aimed at the
        nearest clear spot round ``goal`` (``route``: the line to such an aim)."""
        if self.keep is None:
            return tuple(line)
        best, depth = clear_end(line, self.keep, length=head[0], half=head[1], least=head[0] * 1.5)
        if depth > 0:
            for aim in other_aims(goal, start, (UNIT_R + 14.0, UNIT_R + 24.0)):
                points, d = clear_end(route(aim), self.keep, length=head[0], half=head[1], least=head[0] * 1.5)
                if d < depth:
                    best, depth = points, d
                if d <= 0:
                    break
        return best

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

    def _straight(self, at: Pt) -> Callable[[Pt], tuple[Pt, ...]]:
        """The straight line from ``at`` to an aim, leaving the unit at ``at``, shifted."""

        def route(aim: Pt) -> tuple[Pt, ...]:
            return shift(trim((at, aim), self.start_gap, 0.0), ARROW_SHIFT)

        return route

    def move_line(self, d: Drawn, dest: str) -> tuple[Pt, ...]:
        """The path of a move (through its convoying fleets, if any), trimmed and shifted."""
        start, end = d.at, self.dest(dest)
        fleets: list[Drawn] = []
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
        chain = _chain(start, stops)

        def route(aim: Pt, gap: float = 0.0) -> tuple[Pt, ...]:
            pts = [start, *chain, aim]
            path = curve(pts) if len(pts) > 2 else tuple(pts)
            return shift(trim(path, self.start_gap, gap), ARROW_SHIFT)

        line = route(end, self._end_gap(dest))
        return self.clear(line, chain[-1] if chain else start, end, route, (HEAD_LEN, HEAD_HALF))

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
                shapes = list(cross((d.at[0] + UNIT_R + 4, d.at[1] - UNIT_R)))
            elif isinstance(o, Move):
                shapes = arrow(self.move_line(d, o.dest), colour, failed, width=3.4, end="head")
            elif isinstance(o, Retreat):
                at, goal = d.at, self.dest(o.dest)
                line = shift(trim((at, goal), self.start_gap, self._end_gap(o.dest)), ARROW_SHIFT)
                line = self.clear(line, at, goal, self._straight(at), (11.0, 7.0))
                shapes = arrow(line, colour, failed, width=2.6, end="chevron")
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
                    mid = point_along(path, polyline_length(path) / 2)[0]
                line = trim((d.at, mid), self.start_gap, 2.0)
                shapes = arrow(line, colour, failed, width=2.0, end="dot", mark_at=0.5)
            elif isinstance(o, SupportHold):
                c = self.occupied.get(o.target.province, self.sc.place(o.target.region))
                line = trim((d.at, c), self.start_gap, RING)
                shapes = [*ring(c, colour, failed, width=2.0), *arrow(line, colour, failed, width=2.0, end="none")]
            elif isinstance(o, Convoy):
                shapes = ring(d.at, colour, failed, r=RING + 1.5, width=2.2)
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
                    line = trim((d.at, mid), RING + 1.5, 2.0)
                    shapes += arrow(line, colour, failed, width=2.0, end="dot")
                elif failed:
                    shapes += cross((d.at[0] + RING, d.at[1] - RING))
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
