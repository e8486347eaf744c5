"""A power's close-up: the part of the board's picture around its own area (the
provinces it owns or stands in, and their neighbours), cropped to their shapes,
without the legend or the title, the provinces' names grown so that a phone reads
them (at least 11 CSS px on a 390 px phone, as the Chicago close-ups)."""

from __future__ import annotations

import math
from collections.abc import Iterable

import msgspec

from moonshine.picture.shapes import Box, Circle, Group, Item, Label, Pt, Scene, extent, moved
from moonshine.variants.classic.board import ClassicMap, province_of
from moonshine.variants.classic.scene.layout import BoardLayout, layout_of
from moonshine.variants.classic.scene.style import CODE_SIZE, MARGIN, TITLE_H
from moonshine.variants.classic.state import ClassicState

PHONE_WIDTH = 368.0  # CSS px a report's picture is shown at on a 390 px phone (less the card's padding, the border)


SMALLEST_LABEL = 11.0  # CSS px: a close-up's province codes at least this size on that phone


PAD = 24.0  # scene units around the area's shapes


def area_of(gmap: ClassicMap, st: ClassicState, power: str) -> list[str]:
    """A power's own area: the provinces it owns or stands in (dislodged units too),
    and their neighbours, in the board's order (empty for a power out of the game)."""
    own = {p for p, o in st.owners.items() if o == power} | {u.province for u in st.units_of(power)}
    own |= {province_of(d.region) for d in st.dislodged if d.power == power}
    near = own | {n for code in own for n in gmap.near.get(code, ())}
    return [p for p in gmap.provinces if p in near]


def _points(layout: BoardLayout, code: str) -> list[Pt]:
    """The points of a province on the layout: its shape's, else its places."""
    shapes = layout.shapes.get(code) or ()
    found = [p for poly in shapes for ring in poly for p in ring]
    if found:
        return found
    place = layout.provinces[code]
    return [place.at, place.label, *place.points, *place.coasts.values()]


def crop_box(gmap: ClassicMap, codes: Iterable[str], layout: BoardLayout | None = None) -> Box:
    """The part of the picture a close-up of ``codes`` shows, in scene units: their
    shapes with a margin, inside the board's frame."""
    layout = layout or layout_of(gmap)
    pts = [p for code in codes for p in _points(layout, code)]
    if not pts:
        raise ValueError("a close-up needs at least one province")
    x0 = max(0.0, min(p[0] for p in pts) - PAD) + MARGIN
    y0 = max(0.0, min(p[1] for p in pts) - PAD) + TITLE_H
    x1 = min(layout.width, max(p[0] for p in pts) + PAD) + MARGIN
    y1 = min(layout.height, max(p[1] for p in pts) + PAD) + TITLE_H
    return (x0, y0, x1, y1)


def closeup(
    gmap: ClassicMap,
    scene: Scene,
    codes: Iterable[str],
    *,
    title: str = "",
    shown_at: float = PHONE_WIDTH,
    smallest: float = SMALLEST_LABEL,
) -> Scene:
    """The part of a board's picture (``build_scene``'s) around ``codes``: cropped, its
    legend and title left out, the provinces' names (with their centres' dots and
    coasts' tags) made large enough to read at ``smallest`` CSS px when the picture is
    shown ``shown_at`` CSS px wide."""
    x0, y0, x1, y1 = crop_box(gmap, codes)
    width, height = x1 - x0, y1 - y0
    grow = max(1.0, math.ceil(100 * smallest * width / (shown_at * CODE_SIZE)) / 100)  # rounded up

    def seen(item: Item) -> bool:
        box = extent((item,))
        return box is not None and box[0] <= x1 and box[2] >= x0 and box[1] <= y1 and box[3] >= y0

    items: list[Item] = []
    for item in scene.items:
        if isinstance(item, Label):  # the title
            continue
        if isinstance(item, Group):
            cls = dict(item.attrs).get("class", "")
            if cls == "legend":
                continue
            if cls == "label":
                item = _grown(item, grow)
        if seen(item):
            items.append(moved(item, -x0, -y0))
    return Scene(width, height, title or scene.title, tuple(items), scene.labels)


def _grown(group: Group, k: float) -> Group:
    """A province's name group ``k`` times larger: the code about its point, the dot of
    its centre kept beside it, the tags of its coasts over their dots."""
    name = next((i for i in group.items if isinstance(i, Label)), None)
    if name is None or k == 1.0:
        return group
    cx, cy = name.at

    def scaled(p: Pt) -> Pt:
        return (cx + (p[0] - cx) * k, cy + (p[1] - cy) * k)

    def grow(item: Item) -> Item:
        if item is name:
            return msgspec.structs.replace(item, size=item.size * k, halo=item.halo * k)
        if isinstance(item, Circle) and abs(item.centre[1] - cy) < 0.5:  # the centre's dot, beside the name
            return msgspec.structs.replace(item, centre=scaled(item.centre), r=item.r * k)
        if isinstance(item, Label):  # a coast's tag, over its dot
            return msgspec.structs.replace(item, size=item.size * k, halo=item.halo * k)
        return item

    return Group(group.attrs, tuple(grow(i) for i in group.items), group.opacity)


__all__ = ["PHONE_WIDTH", "SMALLEST_LABEL", "area_of", "closeup", "crop_box"]
