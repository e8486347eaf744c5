"""The board's borders as the picture shows them: every pair of neighbouring provinces
with the kinds of unit that may cross, and how the layout draws each (a shared edge,
a link where the shapes do not touch, a wall where shapes touch but the provinces
are not neighbours)."""

from __future__ import annotations

import msgspec

from moonshine.variants.classic.board import ClassicMap, province_of
from moonshine.variants.classic.scene.layout import BoardLayout
from moonshine.variants.classic.scene.polylines import Path_, polyline_length

MIN_EDGE = 10.0  # a shared edge shorter than this does not show a border: a link is drawn


class Border(msgspec.Struct, frozen=True):
    """Two provinces and who may cross between them."""

    a: str
    b: str
    army: bool
    fleet: bool

    @property
    def kind(self) -> str:
        return "both" if self.army and self.fleet else "army" if self.army else "fleet"


def borders(gmap: ClassicMap) -> list[Border]:
    """Every pair of neighbouring provinces on the board, with the kinds of unit that
    may cross (a border of any coast counts for fleets)."""
    found: dict[tuple[str, str], tuple[bool, bool]] = {}
    for a in sorted(gmap.provinces):
        for b in gmap.near[a]:
            if a < b:
                army = b in gmap.army_nb[a]
                fleet = any(
                    province_of(r) == b for ra in (gmap.fleet_regions(a) or ()) for r in gmap.fleet_nb.get(ra, ())
                )
                found[(a, b)] = (army, fleet)
    return [Border(a, b, army, fleet) for (a, b), (army, fleet) in sorted(found.items())]


class Drawing(msgspec.Struct, frozen=True):
    """How the layout shows the board's borders: shared edges (by border), links (a
    border whose provinces share no edge on the drawing) and walls (an edge shared on
    the drawing by provinces that are not neighbours)."""

    edges: tuple[tuple[Border, tuple[Path_, ...]], ...]
    links: tuple[Border, ...]
    walls: tuple[tuple[tuple[str, str], tuple[Path_, ...]], ...]


def drawing(gmap: ClassicMap, layout: BoardLayout) -> Drawing:
    edges: list[tuple[Border, tuple[Path_, ...]]] = []
    links: list[Border] = []
    pairs = set()
    for b in borders(gmap):
        pairs.add((b.a, b.b))
        segs = layout.shared.get((b.a, b.b), ())
        if layout.kind != "nodes" and sum(polyline_length(s) for s in segs) >= MIN_EDGE:
            edges.append((b, segs))
        else:
            links.append(b)
    walls = tuple((k, v) for k, v in layout.shared.items() if k not in pairs)
    return Drawing(tuple(edges), tuple(links), walls)
