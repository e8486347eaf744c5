"""A gang's close-up: the part of the whole map picture around its own area,
cropped to the districts' outlines, without the legend, the title or the credits,
the district codes grown to be read on a phone."""

from __future__ import annotations

import math
from collections.abc import Iterable

import msgspec

from moonshine.picture.shapes import Box, Group, Item, Label, PictureError, Scene, extent, moved
from moonshine.variants.moonshine.map import GameMap
from moonshine.variants.moonshine.scene import canvas
from moonshine.variants.moonshine.scene.canvas import MARGIN
from moonshine.variants.moonshine.scene.symbols import CODE_SIZE
from moonshine.variants.moonshine.state import GameState

PHONE_WIDTH = 368.0  # CSS px a report's picture is shown at on a 390 px phone (less the card's padding, the border)


SMALLEST_LABEL = 11.0  # CSS px: a close-up's district codes at least this size on that phone


def area_of(gmap: GameMap, st: GameState, gang: str) -> list[str]:
    """A gang's own area, in map order: the districts it controls or stands on, and
    their neighbours (empty for a gang with neither)."""
    own = set(st.controlled_by(gang)) | {u.district for u in st.units if u.gang == gang}
    return gmap.map_order(own | {n for code in own for n in gmap.neighbours(code)})


def closeup(
    gmap: GameMap,
    scene: Scene,
    codes: Iterable[str],
    *,
    title: str = "",
    shown_at: float = PHONE_WIDTH,
    smallest: float = SMALLEST_LABEL,
    boxes: dict[int, Box | None] | None = None,
) -> Scene:
    """The part of a map picture (``build_scene``'s) around ``codes``: cropped to
    their outlines, without the legend, title or credits, the district codes made
    large enough to read at ``smallest`` CSS px when the picture is shown ``shown_at``
    CSS px wide. ``boxes``: the extents of the scene's items, by item, kept across the
    close-ups of one scene."""
    if gmap.geometry is None:
        raise PictureError(f"map {gmap.name!r} has no geometry file: it cannot be drawn")
    layout = canvas.layout(gmap.geometry)
    points = [p for code in codes for poly in layout.outlines[code] for ring in poly for p in ring]
    if not points:
        raise PictureError("a close-up needs at least one district")
    x0 = max(0.0, min(p[0] for p in points) - MARGIN)
    y0 = max(0.0, min(p[1] for p in points) - MARGIN)
    x1 = min(scene.width, max(p[0] for p in points) + MARGIN)
    y1 = min(scene.height, max(p[1] for p in points) + MARGIN)
    width, height = x1 - x0, y1 - y0
    grow = max(1.0, math.ceil(100 * smallest * width / (shown_at * CODE_SIZE)) / 100)  # rounded up
    dropped = {"legend", "title", "credits", "lake-name"}

    known = boxes if boxes is not None else {}

    def seen(item: Item, *, keep: bool = True) -> bool:  # drawn at least in part inside the crop
        """``keep``: the item is the scene's own, alive as long as it, so its extent may
        be kept by its id (a label grown here is not: its id may serve another later)."""
        box = known.get(id(item)) if keep else None
        if box is None:
            box = extent((item,))
            if keep:
                known[id(item)] = box
        return box is not None and box[0] <= x1 and box[2] >= x0 and box[1] <= y1 and box[3] >= y0

    items: list[Item] = []
    for item in scene.items:
        name = dict(item.attrs).get("id") if isinstance(item, Group) else None
        if name in dropped:
            continue
        if isinstance(item, Group):
            grown = name == "labels"
            inner = tuple(_grown(i, grow) for i in item.items) if grown else item.items
            kept = tuple(i for i in inner if seen(i, keep=not grown))  # the rest of the map: never painted
            if not kept:
                continue
            item = Group(item.attrs, kept, item.opacity)
        elif not seen(item):
            continue
        items.append(moved(item, -x0, -y0))
    return Scene(width, height, title or scene.title, tuple(items), scene.labels)


def _grown(item: Item, k: float) -> Item:
    """A label ``k`` times larger (its halo too), about the same point."""
    if not isinstance(item, Label):
        return item
    return msgspec.structs.replace(item, size=item.size * k, halo=item.halo * k)
