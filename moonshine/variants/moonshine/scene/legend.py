"""The map picture's legend: the gangs, the units, the districts' symbols and the
orders, each with its sample, drawn in the lake when it fits there (else beside
the map); and the legend as a picture of its own, for a page to show beside the
map."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from moonshine.picture.shapes import (
    BORDER,
    TEXT,
    Circle,
    Group,
    Item,
    Label,
    Line,
    Paint,
    PictureError,
    Poly,
    Scene,
    cut_path,
    extent,
    ink,
    moved,
    rounded_rect,
)
from moonshine.variants.moonshine.map import Feature, GameMap, UnitKind
from moonshine.variants.moonshine.scene.arrows import FAILED_OPACITY, arrow_shape
from moonshine.variants.moonshine.scene.canvas import CANVAS_W, MARGIN, TITLE_H, Layout
from moonshine.variants.moonshine.scene.symbols import (
    NEUTRAL,
    RAID_RED,
    cross,
    district_fill,
    feature_symbol,
    ghost_marker,
    station_symbol,
    unit_marker,
)

# The legend fits in the lake (the picture stays 1000 wide): beside the Near North Side
# the lake leaves it 274 px across and 518 px down, hence a 13 px font (8.7 px at a
# mail's 672 px) rather than the map's 16 px labels.
LEGEND_W = 272.0


ROW = 16.5


HEAD_ROW = 21.0


PAD = 12.0


LEGEND_FONT = 13.0


HEADING_FONT = 14.0


LEGEND_GAP = 14.0


def legend_height(gmap: GameMap) -> float:
    """The legend's height: a row for each gang and each sample, a heading for each group."""
    return 2 * PAD + 4 * HEAD_ROW + (len(gmap.gangs) + 1 + 3 + 6 + 7) * ROW - 6


def legend_group(gmap: GameMap, words: dict[str, str], x: float, y: float) -> Group:
    """The legend drawn with its top left corner at (``x``, ``y``), in ``words``."""
    items: list[Item] = []
    h = legend_height(gmap)
    items.append(Poly((rounded_rect(x, y, LEGEND_W, h, 7.0),), Paint(fill="#ffffff", stroke="#9aa5b1", width=1.0)))
    cx = x + PAD + 17.0  # centre of the symbol column
    tx = x + PAD + 42.0  # start of the text column
    cy = y + PAD

    def heading(text: str) -> None:
        nonlocal cy
        items.append(Label((x + PAD, cy + 9.0), text, HEADING_FONT, TEXT, anchor="start", bold=True))
        cy += HEAD_ROW

    def row(symbol: Sequence[Item], text: str) -> None:
        nonlocal cy
        mid = cy + ROW / 2 - 2.0
        items.extend(_recentre(symbol, mid))
        items.append(Label((tx, mid), text, LEGEND_FONT, TEXT, anchor="start"))
        cy += ROW

    heading(words["gangs"])
    for g in gmap.gangs.values():
        swatch = rounded_rect(cx - 12.0, -6.5, 24.0, 13.0, 2.0)
        row(
            [
                Poly((swatch,), Paint(fill=district_fill(g), stroke=BORDER, width=0.8)),
                Circle((cx, 0.0), 4.6, Paint(fill=g.colour, stroke=ink(g.colour), width=1.0)),
            ],
            g.name,
        )
    row(
        [Poly((rounded_rect(cx - 12.0, -6.5, 24.0, 13.0, 2.0),), Paint(fill=NEUTRAL, stroke=BORDER, width=0.8))],
        words["neutral"],
    )

    heading(words["units"])
    grey = "#5d6d7e"
    row(unit_marker(UnitKind.H, grey, (cx, 0.0)), words["H"])
    row(unit_marker(UnitKind.L, grey, (cx, 0.0)), words["L"])
    row(list(ghost_marker(UnitKind.H, grey, (cx, 0.0), disbanded=True)), words["dislodged"])

    heading(words["districts"])
    row(feature_symbol(Feature.SUPPLY, (cx, 0.0)), words["supply"])
    row(feature_symbol(Feature.SPEAKEASY, (cx, 0.0)), words["speakeasy"])
    row(feature_symbol(Feature.WAREHOUSE, (cx, 0.0)), words["warehouse"])
    row(station_symbol((cx, 0.0), None), words["station"])
    row(station_symbol((cx, 0.0), "#7f8c8d"), words["corrupted"])
    patch = rounded_rect(cx - 13.0, -7.0, 26.0, 14.0, 1.0)
    row(
        [
            Poly((patch,), Paint(fill=NEUTRAL)),
            Line((*patch, patch[0]), Paint(stroke=RAID_RED, width=2.6, dash=(5.0, 3.0))),
        ],
        words["raid"],
    )

    heading(words["orders"])
    sample = ((cx - 16.0, 0.0), (cx + 16.0, 0.0))
    dark = "#4d5656"
    for kind in ("move", "support", "transport", "assault", "retreat"):
        pts = (
            sample
            if kind not in ("assault", "transport")
            else ((cx - 13.0, 0.0), (cx + 13.0, 0.0))
            if kind == "transport"
            else ((cx - 17.0, 0.0), (cx + 5.0, 0.0))
        )
        extra: tuple[Item, ...] = ()
        if kind == "assault":
            extra = station_symbol((cx + 14.0, 0.0), None, 0.75)
        shapes = arrow_shape(kind, pts, dark, False, (cx + 14.0, 0.0) if kind == "assault" else None)
        if kind == "assault":
            shapes = shapes[:-2]  # the burst does not fit the legend's row
        row([*extra, *shapes] if kind != "transport" else list(shapes), words[kind])
    ring_at = (cx + 9.0, 0.0)
    row(
        [
            *arrow_shape("support", cut_path(((cx - 18.0, 0.0), ring_at), 0.0, 8.0), dark, False, None)[:-1],
            Circle(ring_at, 8.0, Paint(stroke=dark, width=1.8)),
            Circle(ring_at, 3.0, Paint(fill=dark)),
        ],
        words["hold_support"],
    )
    failed = arrow_shape("move", sample, dark, True, None)
    row([Group((), failed, FAILED_OPACITY), *cross((cx - 1.0, 0.0), 4.5)], words["failed"])
    return Group((("id", "legend"),), tuple(items))


def _recentre(items: Iterable[Item], dy: float) -> list[Item]:
    """Shift items drawn around y = 0 down to ``dy``."""
    return [moved(i, 0.0, dy) for i in items]


def place_legend(layout: Layout, height: float) -> tuple[float, float, float]:
    """Legend position (x, y) and the canvas width: in the lake when it fits there,
    otherwise in a column east of the map."""
    x = CANVAS_W - MARGIN - LEGEND_W
    y = TITLE_H + 4.0
    rows = [(ry, rx) for ry, rx in layout.east if y - 4 <= ry <= y + height + 4]
    lake_end = next((ry for ry, rx in layout.east if rx >= MARGIN + layout.map_w - 1.0), math.inf)
    if rows and y + height + 10 < lake_end and all(rx + LEGEND_GAP <= x for _, rx in rows):
        return x, y, CANVAS_W
    return CANVAS_W - MARGIN + LEGEND_GAP, y, CANVAS_W + LEGEND_GAP + LEGEND_W


LEGEND_MARGIN = 2.0  # scene units around the legend's frame in its own picture


def legend(scene: Scene, *, title: str = "") -> Scene:
    """The legend of a map picture (``build_scene``'s) as a picture of its own: the
    scene's legend group as it is (the same symbols, in the same words), cropped to its
    frame, for a page to show beside the map at a size a phone reader reads."""
    group = next((i for i in scene.items if isinstance(i, Group) and dict(i.attrs).get("id") == "legend"), None)
    # the frame holds the words: the box of what is not a label (a label's extent is an estimate)
    box = extent(i for i in group.items if not isinstance(i, Label)) if group is not None else None
    if group is None or box is None:
        raise PictureError("the map picture has no legend")
    x0, y0, x1, y1 = box
    m = LEGEND_MARGIN
    shown = moved(group, m - x0, m - y0)
    return Scene(x1 - x0 + 2 * m, y1 - y0 + 2 * m, title or scene.title, (shown,), scene.labels)
