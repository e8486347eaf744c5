"""The board's picture being drawn (``Canvas``): the board, its layout and words,
where a region's unit stands and a power's colour; and the board's own layers: the
provinces filled by terrain and owner, the borders by the kind of unit that
crosses them, the walls and links, and the labels (codes, names, supply centres,
coasts)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from moonshine.picture.colours import mix
from moonshine.picture.shapes import Circle, Group, Item, Label, Line, Paint, Poly, Pt
from moonshine.variants.classic.board import ClassicMap, Terrain, province_of
from moonshine.variants.classic.scene.borders import Border, Drawing
from moonshine.variants.classic.scene.layout import BoardLayout
from moonshine.variants.classic.scene.polylines import Shape_, hatch, shift, towards
from moonshine.variants.classic.scene.style import (
    ARMY_LINE,
    CENTRE_R,
    COAST_SIZE,
    CODE_SIZE,
    FLEET_LINE,
    HALO,
    LAND,
    MARGIN,
    NAME_SIZE,
    OFFBOARD,
    OFFBOARD_LINE,
    SEA,
    SEA_TEXT,
    TEXT,
    TINT,
    TITLE_H,
    UNIT_R,
    WALL,
    text_width,
)


class Canvas:
    """The board's picture being drawn: the board, its layout and words, the language of
    its names; where things stand on it, and its own layers."""

    def __init__(self, gmap: ClassicMap, layout: BoardLayout, words: dict[str, str], language: str = "en") -> None:
        self.gmap = gmap
        self.layout = layout
        self.words = words
        self.language = language  # the names of provinces and powers
        self.dx = MARGIN
        self.dy = TITLE_H

    def xy(self, p: Pt) -> Pt:
        return p[0] + self.dx, p[1] + self.dy

    def place(self, region: str) -> Pt:
        """Where a unit in ``region`` stands (a coast has its own place)."""
        prov = self.layout.provinces[province_of(region)]
        return self.xy(prov.coasts.get(region, prov.at))

    def colour(self, power: str) -> str:
        return self.layout.colours[power]

    # -- the board ---------------------------------------------------------------------------
    def fill(self, code: str, owners: Mapping[str, str]) -> str:
        p = self.gmap.provinces[code]
        if p.terrain is Terrain.SEA:
            return SEA
        if not self.gmap.near[code]:
            return OFFBOARD  # impassable (Switzerland)
        if code in owners:
            return mix(self.colour(owners[code]), LAND, TINT)
        return LAND

    def board(self, owners: Mapping[str, str], how: Drawing) -> list[Item]:
        lay = self.layout
        items: list[Item] = []
        x0, y0 = self.xy((0.0, 0.0))
        frame = ((x0, y0), (x0 + lay.width, y0), (x0 + lay.width, y0 + lay.height), (x0, y0 + lay.height))
        items.append(Poly((frame,), Paint(fill=SEA if lay.kind != "nodes" else "#fbfaf6")))
        dx, dy = self.dx, self.dy

        def placed(poly: Shape_) -> Shape_:
            return tuple(tuple((x + dx, y + dy) for x, y in ring) for ring in poly)

        # the seas first, each polygon by its outer ring alone (the sea's colour is the
        # frame's, and the islands in its holes are drawn after it), then the land
        seas = [c for c in lay.provinces if self.gmap.provinces[c].terrain is Terrain.SEA]
        lands = [c for c in lay.provinces if c not in seas]
        for code in [*seas, "", *lands]:
            if not code:  # the land beyond the board
                paint = Paint(fill=OFFBOARD, stroke=OFFBOARD_LINE, width=1.0)
                items.extend(Poly(placed(cell), paint) for cell in lay.offboard_cells)
                continue
            name = self.gmap.province_name(code, self.language)
            parts: list[Item] = []
            if lay.kind != "nodes":
                fill = Paint(fill=self.fill(code, owners))
                sea = self.gmap.provinces[code].terrain is Terrain.SEA
                polygons = [placed(poly[:1] if sea else poly) for poly in lay.shapes.get(code, ())]
                parts.extend(Poly(poly, fill) for poly in polygons)
                if not self.gmap.near[code]:
                    hatching = Paint(stroke="#9a9a9a", width=1.2)
                    parts.extend(Line(h, hatching) for poly in polygons for h in hatch(poly[0], 9.0))
            else:
                shape = Circle(
                    self.xy(lay.provinces[code].at),
                    lay.node_radius,
                    Paint(fill=self.fill(code, owners), stroke=ARMY_LINE, width=2.0),
                )
                parts.append(shape)
            items.append(
                Group(
                    (("class", "province"), ("data-province", code), ("data-title", f"{name} ({code})")), tuple(parts)
                )
            )
        for border, segs in how.edges:
            items.append(self._border_group(border, placed(segs)))
        for (a, b), segs in how.walls:
            lines = placed(segs)
            group = tuple(Line(line, Paint(stroke=WALL, width=3.2)) for line in lines)
            items.append(Group((("class", "wall"), ("data-provinces", f"{a}-{b}")), group))
        for border in how.links:
            items.append(self._link(border))
        items.append(Poly((frame,), Paint(stroke="#8c8c8c", width=1.2)))
        return items

    def _border_group(self, border: Border, lines: Sequence[tuple[Pt, ...]]) -> Group:
        out: list[Item] = []
        for line in lines:
            out.extend(border_lines(border.kind, line))
        return Group(
            (("class", "border"), ("data-border", f"{border.a}-{border.b}"), ("data-kind", border.kind)), tuple(out)
        )

    def _link(self, border: Border) -> Group:
        lay = self.layout
        a, b = self.xy(lay.provinces[border.a].at), self.xy(lay.provinces[border.b].at)
        gap = lay.node_radius if lay.kind == "nodes" else UNIT_R + 4
        line = (towards(a, b, gap), towards(b, a, gap))
        items = border_lines(border.kind, line, width=3.0)
        return Group(
            (("class", "border link"), ("data-border", f"{border.a}-{border.b}"), ("data-kind", border.kind)), items
        )

    def labels(self, owners: Mapping[str, str]) -> list[Item]:
        lay = self.layout
        items: list[Item] = []
        left, right = self.xy((0.0, 0.0))[0] + 3.0, self.xy((lay.width, 0.0))[0] - 3.0
        for code, p in lay.provinces.items():
            prov = self.gmap.provinces[code]
            at = self.xy(p.label)
            # inside the frame: a name near the edge is moved in, with its centre's dot
            reach_left = text_width(code, CODE_SIZE) / 2 + 3.0
            reach_right = reach_left + (2 * CENTRE_R + 4 if prov.supply else 0.0)
            at = (min(max(at[0], left + reach_left), right - reach_right), at[1])
            sea = prov.terrain is Terrain.SEA
            group: list[Item] = [Label(at, code, CODE_SIZE, SEA_TEXT if sea else TEXT, bold=True, italic=sea, halo=3.0)]
            if lay.kind == "nodes":
                name = self.gmap.province_name(code, self.language)
                group.append(Label(self.xy((p.at[0], p.at[1] + UNIT_R + 16)), name, NAME_SIZE, TEXT, halo=3.0))
            if prov.supply:
                c = (at[0] + text_width(code, CODE_SIZE) / 2 + CENTRE_R + 4, at[1])
                owner = owners.get(code)
                fill = self.colour(owner) if owner else HALO
                group.append(Circle(c, CENTRE_R + 1.6, Paint(fill=HALO)))
                group.append(Circle(c, CENTRE_R, Paint(fill=fill, stroke=TEXT, width=1.5)))
            for region, cp in p.coasts.items():
                c = self.xy(cp)
                group.append(Circle(c, 3.2, Paint(fill=FLEET_LINE, stroke=HALO, width=1.0)))
                tag = region.split("/", 1)[1].lower()
                group.append(Label((c[0], c[1] - 11), tag, COAST_SIZE, SEA_TEXT, italic=True, bold=True, halo=2.5))
            items.append(Group((("class", "label"), ("data-province", code)), tuple(group)))
        return items


def border_lines(kind: str, line: tuple[Pt, ...], width: float = 2.0) -> tuple[Item, ...]:
    """The lines of a border of ``kind`` along ``line``: an army's, a fleet's, or both side by side."""
    if kind == "army":
        return (Line(line, Paint(stroke=ARMY_LINE, width=width)),)
    if kind == "fleet":
        return (Line(line, Paint(stroke=FLEET_LINE, width=width)),)
    # both: an army line and a fleet line side by side
    return (
        Line(shift(line, width * 0.55), Paint(stroke=ARMY_LINE, width=width * 0.9)),
        Line(shift(line, -width * 0.55), Paint(stroke=FLEET_LINE, width=width * 0.9)),
    )
