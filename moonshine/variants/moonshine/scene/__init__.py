"""The map picture of a Moonshine turn, as a scene: districts in the colour of the
gang that controls them, features and police stations, units, the turn's orders as
arrows, the raided district and a legend, laid out from the map's geometry. The
painter (``moonshine.picture``) writes the scene as SVG or PNG.

This module assembles the picture (``build_scene``: what it shows of the turn,
``Arrow`` and ``Dislodged``; its title, words and credits) and writes it; the
package's modules draw its parts: ``canvas`` (the districts on the canvas, the
lake's shore), ``symbols`` (the palette, features, stations, units' markers),
``arrows`` (the orders' routes, shapes and failure marks), ``legend`` (in the lake,
or as a picture of its own) and ``closeup`` (a gang's area, cropped from the
whole)."""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from pathlib import Path

import msgspec

from moonshine.picture.png import scene_png
from moonshine.picture.shapes import (
    BORDER,
    TEXT,
    Group,
    Item,
    Label,
    Line,
    Paint,
    PictureError,
    Poly,
    Pt,
    Scene,
    labels_name,
    vec_add,
)
from moonshine.picture.svg import scene_svg
from moonshine.text.catalogue import Catalogue, gettext_for, keyed, languages
from moonshine.variants.moonshine.calendar import Turn
from moonshine.variants.moonshine.map import Feature, GameMap, UnitKind
from moonshine.variants.moonshine.scene import canvas
from moonshine.variants.moonshine.scene.arrows import arrow_items
from moonshine.variants.moonshine.scene.canvas import FOOT_H, MARGIN, TITLE_H, Layout, check_district
from moonshine.variants.moonshine.scene.legend import LEGEND_W, legend_group, legend_height, place_legend
from moonshine.variants.moonshine.scene.symbols import (
    CODE_SIZE,
    GHOST_SHIFT,
    NEUTRAL,
    RAID_RED,
    UNIT_GAP,
    WATER,
    WATER_TEXT,
    code_at,
    district_fill,
    feature_at,
    feature_symbol,
    ghost_marker,
    raid_badge,
    station_at,
    station_symbol,
    unit_marker,
    unit_positions,
    units_at,
)
from moonshine.variants.moonshine.state import GameState, Unit


class Arrow(msgspec.Struct, frozen=True):
    """One order of the turn, as drawn on the map.

    - move / retreat: ``start`` -> ``end``; ``path`` holds the intermediate district of
      an L's two-step move (or, for a transported H, its carriers' districts).
    - support: ``start`` is the supporter; ``end`` the supported unit's district;
      ``target_end`` the supported move's destination (or the assaulted station's
      district), None for the support of a unit that holds.
    - transport: ``start`` is the carried H's district, ``path`` the carriers'
      districts in order, ``end`` the destination.
    - assault: ``start`` is the H's district, ``end`` the station's district (may be
      the same district).
    """

    kind: str  # "move", "support", "transport", "assault", "retreat"
    gang: str
    start: str  # district code
    end: str  # district code (for an assault: the station's district)
    succeeded: bool
    path: tuple[str, ...] = ()  # intermediate districts (two-step L move, transport chain)
    target_end: str | None = None  # for a support of a move: the supported move's destination
    target_kind: str = ""  # the supported unit's kind ("H", "L"), to ring the right one


class Dislodged(msgspec.Struct, frozen=True):
    """A unit dislodged this turn, drawn faded where it stood, with its retreat
    (an arrow of kind ``retreat`` from its district) or, disbanded, crossed out."""

    gang: str
    kind: UnitKind
    district: str
    retreat: str | None  # None: disbanded

    def label(self) -> str:
        return f"{self.kind.value} {self.district}"


_WORDS: Catalogue = {
    "picture.gangs": "Gangs",
    "picture.neutral": "neutral",
    "picture.units": "Units",
    "picture.H": "henchman (H)",
    "picture.L": "delivery man (L)",
    "picture.districts": "Districts",
    "picture.supply": "supply zone",
    "picture.speakeasy": "speakeasy",
    "picture.warehouse": "warehouse",
    "picture.station": "police station",
    "picture.corrupted": "station corrupted (gang colour)",
    "picture.raid": "raided this turn",
    "picture.orders": "Orders",
    "picture.move": "move",
    "picture.support": "support",
    "picture.transport": "transport",
    "picture.assault": "assault on a station",
    "picture.retreat": "retreat",
    "picture.failed": "failed (any order)",
    "picture.hold_support": "support to a unit that holds",
    "picture.dislodged": "dislodged (crossed: disbanded)",
    "picture.lake": "Lake Michigan",
    "picture.badge": "RAID",
    "picture.spring": "Spring",
    "picture.autumn": "Autumn",
}


def _words(language: str) -> dict[str, str]:
    if language not in languages():
        raise PictureError(f"unknown language {language!r} (expected {' or '.join(languages())})")
    return {key.removeprefix("picture."): keyed(language, _WORDS, key) for key in _WORDS}


def _default_title(gmap: GameMap, st: GameState, words: dict[str, str]) -> str:
    try:
        t = Turn.parse(st.turn)
    except ValueError:
        return st.turn
    return f"{words[t.season]} {t.year}"


def _lake_label(layout: Layout, text: str, avoid: tuple[float, float, float, float], right: float) -> Label | None:
    """Lake Michigan's name where the lake is widest, clear of the legend."""
    _, y0, x1, y1 = avoid
    lake_end = next((ry for ry, rx in layout.east if rx >= MARGIN + layout.map_w - 1.0), math.inf)
    best: tuple[float, float, float] | None = None
    for y, x in layout.east:
        if y >= lake_end - 20 or (y0 - 20 <= y <= y1 + 20 and x1 > x):
            continue
        room = right - x
        if best is None or room > best[0] + 1e-9:
            best = (room, y, x)
    if best is None or best[0] < 8.0 * len(text):
        return None
    room, y, x = best
    return Label(((x + right) / 2, y), text, 17.0, WATER_TEXT, italic=True, halo=0.0)


def build_scene(
    gmap: GameMap,
    st: GameState,
    *,
    arrows: Sequence[Arrow] = (),
    title: str = "",
    language: str = "en",
    dislodged: Sequence[Dislodged] = (),
) -> Scene:
    """The picture as plain shapes, shared by the SVG and PNG writers. ``dislodged``:
    units dislodged this turn, drawn faded where they stood (their retreats start
    there), crossed out when disbanded."""
    words = _words(language)
    if gmap.geometry is None:
        raise PictureError(f"map {gmap.name!r} has no geometry file: it cannot be drawn")
    layout = canvas.layout(gmap.geometry)
    for code in gmap.districts:
        if code not in layout.outlines:
            raise PictureError(f"district {code} has no shape in {gmap.geometry}")
    for u in st.units:
        check_district(gmap, u.district, f"unit {u.label()}")
        if u.gang not in gmap.gangs:
            raise PictureError(f"unit {u.label()}: unknown gang {u.gang!r}")
    if st.raid is not None:
        check_district(gmap, st.raid.district, "raid")
    for dl in dislodged:
        check_district(gmap, dl.district, f"dislodged unit {dl.label()}")
        if dl.retreat is not None:
            check_district(gmap, dl.retreat, f"retreat of {dl.label()}")
        if dl.gang not in gmap.gangs:
            raise PictureError(f"dislodged unit {dl.label()}: unknown gang {dl.gang!r}")

    legend_h = legend_height(gmap)
    lx, ly, width = place_legend(layout, legend_h)
    height = float(math.ceil(max(TITLE_H + layout.map_h + FOOT_H, ly + legend_h + MARGIN)))
    right = MARGIN + layout.map_w + MARGIN / 2
    colours = {k: g.colour for k, g in gmap.gangs.items()}

    items: list[Item] = []
    lake = canvas.lake(layout, right)
    if lake:
        items.append(Group((("id", "lake"),), (Poly(lake, Paint(fill=WATER)),)))
        name = _lake_label(layout, words["lake"], (lx, ly, lx + LEGEND_W, ly + legend_h), right)
        if name is not None:
            items.append(Group((("id", "lake-name"),), (name,)))

    districts: list[Item] = []
    for code, d in gmap.districts.items():
        controller = st.control.get(code)
        fill = district_fill(gmap.gangs[controller]) if controller is not None and controller in gmap.gangs else NEUTRAL
        polys = tuple(Poly(rings, Paint(fill=fill, stroke=BORDER, width=0.7)) for rings in layout.outlines[code])
        attrs = [("id", f"district-{code}"), ("class", "district"), ("data-code", code)]
        if controller:
            attrs.append(("data-controller", controller))
        tip = f"{code} {d.name}" + (f" — {d.feature.label}" if d.feature is not Feature.NONE else "")
        tip += f" — {d.station}" if d.station else ""
        attrs.append(("data-title", tip))
        districts.append(Group(tuple(attrs), polys))
    items.append(Group((("id", "districts"),), tuple(districts)))

    if st.raid is not None:
        code = st.raid.district
        rings = [ring for poly in layout.outlines[code] for ring in poly[:1]]
        outline = [Line((*ring, ring[0]), Paint(stroke=RAID_RED, width=3.2, dash=(7.0, 3.5))) for ring in rings]
        raid_attrs = (("id", "raid"), ("class", "raid"), ("data-code", code), ("data-by", st.raid.by))
        items.append(Group(raid_attrs, tuple(outline)))

    symbols: list[Item] = []
    for code, d in gmap.districts.items():
        p = layout.labels[code]
        if d.feature is not Feature.NONE:
            symbols.append(
                Group(
                    (("class", f"feature {d.feature.value}"), ("data-code", code)),
                    feature_symbol(d.feature, feature_at(p)),
                )
            )
        if d.station is not None:
            corrupter = st.corruption.get(code)
            station_attrs = [("class", "station" + (" corrupted" if corrupter else "")), ("data-code", code)]
            if corrupter:
                station_attrs.append(("data-corrupted-by", corrupter))
            symbols.append(
                Group(
                    tuple(station_attrs), station_symbol(station_at(p), colours.get(corrupter) if corrupter else None)
                )
            )
    area = {c: d.area for c, d in gmap.districts.items()}
    by_district: dict[str, list[Unit]] = {}
    for u in sorted(st.units, key=lambda u: (area[u.district], u.kind.value, u.gang)):
        by_district.setdefault(u.district, []).append(u)
    placed: dict[tuple[str, str], Pt] = {}
    for code, here in by_district.items():
        for u, c in unit_positions(here, units_at(layout.labels[code])):
            placed.setdefault((code, u.kind.value), c)
    ghosts: dict[str, Pt] = {}
    for dl in dislodged:
        at = units_at(layout.labels[dl.district])
        n = len(by_district.get(dl.district, ()))
        ghosts.setdefault(dl.district, vec_add(at, (-(UNIT_GAP * (n - 1)) - GHOST_SHIFT, 3.0)) if n else at)
    lines, crosses = arrow_items(gmap, layout, arrows, placed, ghosts)
    items.append(Group((("id", "arrows"),), tuple(lines)))
    items.append(Group((("id", "symbols"),), tuple(symbols)))
    labels = [
        Label(code_at(layout.labels[code]), code, CODE_SIZE, TEXT, bold=True, halo=2.4) for code in gmap.districts
    ]
    items.append(Group((("id", "labels"),), tuple(labels)))
    if st.raid is not None:
        badge = raid_badge(words["badge"], vec_add(layout.labels[st.raid.district], (0.0, -27.0)))
        items.append(Group((("id", "raid-badge"), ("data-code", st.raid.district)), badge))
    items.append(Group((("id", "failure-marks"),), tuple(crosses)))

    units: list[Item] = []
    for dl in dislodged:
        ghost_attrs = [
            ("class", "unit dislodged" + (" disbanded" if dl.retreat is None else "")),
            ("data-unit", dl.label()),
            ("data-gang", dl.gang),
        ]
        if dl.retreat is not None:
            ghost_attrs.append(("data-retreat", dl.retreat))
        ghost = ghost_marker(dl.kind, colours[dl.gang], ghosts[dl.district], disbanded=dl.retreat is None)
        units.append(Group(tuple(ghost_attrs), ghost))
    for code, here in by_district.items():
        for u, c in unit_positions(here, units_at(layout.labels[code])):
            unit_attrs = (("class", "unit"), ("data-unit", u.label()), ("data-gang", u.gang))
            units.append(Group(unit_attrs, unit_marker(u.kind, colours[u.gang], c)))
    items.append(Group((("id", "units"),), tuple(units)))

    items.append(legend_group(gmap, words, lx, ly))
    text = title or _default_title(gmap, st, words)
    items.append(Group((("id", "title"),), (Label((MARGIN, 28.0), text, 22.0, TEXT, anchor="start", bold=True),)))
    credits = gettext_for(language)(gmap.credits) if gmap.credits else ""
    credit = credits.split(". ")[0].strip().rstrip(".")
    if credit:
        items.append(
            Group(
                (("id", "credits"),),
                (Label((MARGIN, height - 8.0), credit + ".", 11.0, "#6b6b6b", anchor="start"),),
            )
        )
    return Scene(width, height, text, tuple(items), _map_labels(gmap.geometry, tuple(gmap.districts)))


@functools.lru_cache(maxsize=8)
def _map_labels(geometry: Path, codes: tuple[str, ...]) -> str:
    """The label cache of a map's pictures, named by its geometry's bytes and its codes."""
    try:
        shapes = geometry.read_bytes()
    except OSError:
        shapes = str(geometry).encode()
    return labels_name(shapes, "\n".join(codes))


def render_svg(
    gmap: GameMap,
    st: GameState,
    *,
    arrows: Sequence[Arrow] = (),
    title: str = "",
    language: str = "en",
    dislodged: Sequence[Dislodged] = (),
) -> str:
    """The map picture as an SVG document."""
    return scene_svg(build_scene(gmap, st, arrows=arrows, title=title, language=language, dislodged=dislodged))


def png_size(gmap: GameMap, st: GameState, width: int = 1000) -> tuple[int, int]:
    """The pixel size ``render_png`` gives for this map at this width."""
    scene = build_scene(gmap, st)
    return width, max(1, round(scene.height * width / scene.width))


def render_png(
    gmap: GameMap,
    st: GameState,
    *,
    arrows: Sequence[Arrow] = (),
    title: str = "",
    language: str = "en",
    width: int = 1000,
) -> bytes:
    """The map picture as PNG (for email: mail programs do not show SVG)."""
    return scene_png(build_scene(gmap, st, arrows=arrows, title=title, language=language), width)
