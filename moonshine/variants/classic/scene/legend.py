"""The legend of a board's picture: the powers with their centres, the board's
symbols and the units and orders the phase shows, in columns under the map; and the
legend as a picture of its own, its columns one under the other, for a page to
show beside the map."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from moonshine.picture.colours import mix
from moonshine.picture.png import label_width
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
    moved,
)
from moonshine.text.catalogue import fill, fmt, keyed
from moonshine.variants.classic.board import Kind
from moonshine.variants.classic.orders import Convoy, Move, Retreat, SupportHold, SupportMove
from moonshine.variants.classic.scene.arrows import arrow, ring
from moonshine.variants.classic.scene.borders import Drawing
from moonshine.variants.classic.scene.canvas import Canvas, border_lines
from moonshine.variants.classic.scene.markers import unit_group, unit_marker
from moonshine.variants.classic.scene.polylines import hatch
from moonshine.variants.classic.scene.style import (
    ARMY_LINE,
    CENTRE_R,
    FLEET_LINE,
    HALO,
    LAND,
    MARGIN,
    OFFBOARD,
    SEA,
    TEXT,
    TINT,
    WALL,
    WORDS,
    text_width,
)
from moonshine.variants.classic.state import Unit

LEGEND_FONT = 15.0
LEGEND_ROW = 27.0
LEGEND_HEAD = 25.0


def legend_group(
    sc: Canvas,
    owners: Mapping[str, str],
    how: Drawing,
    marks: set[str],
    kinds: set[type],
    failed: bool,
    top: float,
    width: float,
) -> tuple[Group, float]:
    """The legend under the map, from ``top`` across ``width``, in columns; and its height."""
    w = sc.words
    gmap = sc.gmap
    columns: list[tuple[str, list[tuple[list[Item], str]]]] = []

    def at(x: float, y: float) -> Pt:
        return x + 16, y

    powers: list[tuple[list[Item], str]] = []
    for p, name in gmap.power_names(sc.language).items():
        n = sum(1 for o in owners.values() if o == p)
        count = fill(sc.language, keyed(sc.language, WORDS, "classic.picture.centres", n), n=n)

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
        hatching = [Line(h, Paint(stroke="#9a9a9a", width=1.2)) for h in hatch(sample, 6.0)]
        board.append(([Poly((sample,), Paint(fill=OFFBOARD, stroke=WALL, width=1.6)), *hatching], w["impassable"]))
    if gmap.supply_centres:
        board.append(([Circle((16, 0), CENTRE_R, Paint(fill=HALO, stroke=TEXT, width=1.5))], w["centre_mark"]))
    if gmap.coasts:
        board.append(
            ([Circle((16, 0), 3.2, Paint(fill=FLEET_LINE, stroke=HALO, width=1.0))], w["coast_tags"] + w["coast"])
        )
    present = {b.kind for b, _ in how.edges} | {b.kind for b in how.links}
    for kind, key in (("army", "army_border"), ("both", "both_border"), ("fleet", "fleet_border")):
        if kind in present:
            board.append((list(border_lines(kind, ((2.0, 0.0), (30.0, 0.0)), width=2.4)), w[key]))
    if how.walls:
        board.append(([Line(((2.0, 0.0), (30.0, 0.0)), Paint(stroke=WALL, width=3.2))], w["no_border"]))
    columns.append((w["board"], board))

    grey = "#8c8c8c"
    orders: list[tuple[list[Item], str]] = [(list(unit_marker(Kind.ARMY, grey, (16, 0))), w["army"])]
    if any(gmap.fleet_regions(p) for p in gmap.provinces):
        orders.append((list(unit_marker(Kind.FLEET, grey, (16, 0))), w["fleet"]))
    line = ((0.0, 0.0), (34.0, 0.0))
    if Move in kinds:
        orders.append((arrow(line, grey, False, width=3.4, end="head"), w["move"]))
    if SupportMove in kinds:
        orders.append((arrow(line, grey, False, width=2.0, end="dot"), w["support"]))
    if SupportHold in kinds:
        short = ((0.0, 0.0), (18.0, 0.0))
        circle = ring((27.0, 0.0), grey, False, r=8.0, width=2.0)
        orders.append(([*arrow(short, grey, False, width=2.0, end="none"), *circle], w["support_hold"]))
    if Convoy in kinds:
        orders.append((ring((16, 0), grey, False, r=10.0, width=2.2), w["convoy"]))
    if Retreat in kinds:
        orders.append((arrow(line, grey, False, width=2.6, end="chevron"), w["retreat"]))
    if failed:
        orders.append((arrow(line, grey, True, width=2.4, end="head", mark_at=0.4), w["failed"]))
    probe = Unit(next(iter(gmap.powers)), Kind.ARMY, "")
    for mark in ("dislodged", "built", "disbanded", "unbuilt"):
        if mark in marks:
            g = unit_group(_GreyCanvas(sc), probe, (16, 0), mark)
            orders.append((list(g.items), w[mark]))
    columns.append((w["orders"], orders))

    # each column as wide as its longest line (an estimate: the font's mean advance),
    # the spare width shared between the gaps
    needs = [
        max(text_width(head, LEGEND_FONT + 1, 0.55), *(44 + text_width(t, LEGEND_FONT, 0.52) for _, t in entries))
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


class _GreyCanvas(Canvas):
    """The scene's words and layout, with every power grey (for the legend's samples)."""

    def __init__(self, sc: Canvas) -> None:
        super().__init__(sc.gmap, sc.layout, sc.words)

    def colour(self, power: str) -> str:
        return "#8c8c8c"


def _sq(c: Pt, r: float) -> tuple[Pt, ...]:
    return ((c[0] - r, c[1] - r), (c[0] + r, c[1] - r), (c[0] + r, c[1] + r), (c[0] - r, c[1] + r))
