"""The map picture of a board of the classic family (the standard Diplomacy board,
Pure, any board folder with a ``layout.yaml``): provinces, supply centres tinted by
owner, units, the phase's orders as arrows with their results, dislodged units and
their retreats, builds and disbands, a legend and a title that says what is shown.

No published drawing of the standard board is used: ``layout.yaml`` in the board's
folder says how its provinces are drawn. With ``kind: shapes`` (the standard board)
they are read from a GeoJSON file beside it, in the picture's pixels, with where
each unit, name and coast goes: the standard board's is drawn from Natural Earth's
coastline by ``scripts/build_classic_map.py`` (see ``maps/classic/README.md``), and
the edges two provinces share are found from the corners their outlines share.
With ``kind: cells`` each province is the union of the Voronoi cells of a few
hand-placed points, clipped to the frame. Either way, neighbours on the board share
an edge drawn by the kind of border (armies only, fleets only, both); two provinces
that share an edge on the drawing but no border on the board get a heavy "no
border" line, and a border of the board that the drawing does not show as a shared
edge is drawn as a link between the two provinces. With ``kind: nodes`` (Pure) each
province is a disc and every border a link. The provinces' names are drawn over the
orders' arrows and under the units.

The picture is a scene of plain shapes (``moonshine.picture.shapes``' ``Scene``), written
out as SVG (``xml.etree.ElementTree``) or drawn as PNG (Pillow). Pure: the board,
the state at the start of the phase and the phase's outcome in; text and bytes out;
same inputs, same bytes.

This module assembles the picture (``build_scene``) and writes it (SVG, PNG); the
package's modules draw its parts: ``layout`` (``layout.yaml`` read, its shapes from
GeoJSON or computed by ``outlines``), ``borders`` (each border and how it is
drawn), ``canvas`` (the board's own layers), ``markers`` (the units), ``arrows``
(the orders), ``legend``, with ``style`` (colours, measures, words) and
``polylines`` (the lines' geometry)."""

from __future__ import annotations

from moonshine.errors import MapError
from moonshine.picture.png import scene_png
from moonshine.picture.shapes import Item, Label, Pt, Scene, labels_name
from moonshine.picture.svg import scene_svg
from moonshine.text.catalogue import keyed, languages
from moonshine.variants.classic.board import ClassicMap, province_of
from moonshine.variants.classic.orders import Build, Disband, Move, Order, OrderError, Retreat, parse_order
from moonshine.variants.classic.phases import PhaseOutcome
from moonshine.variants.classic.scene.arrows import Drawn, Orders, keep_out
from moonshine.variants.classic.scene.borders import drawing
from moonshine.variants.classic.scene.canvas import Canvas
from moonshine.variants.classic.scene.layout import BoardLayout, layout_of
from moonshine.variants.classic.scene.legend import legend_group
from moonshine.variants.classic.scene.markers import unit_group
from moonshine.variants.classic.scene.style import MARGIN, TEXT, TITLE_H, TITLE_SIZE, WORDS
from moonshine.variants.classic.state import ClassicState, Step, Unit

DISLODGED_OFFSET = (20.0, 15.0)  # right of and below the unit that took its place


def _words(language: str) -> dict[str, str]:
    if language not in languages():
        raise MapError("picture", "language", f"unknown language {language!r} (expected {' or '.join(languages())})")
    return {key.removeprefix("classic.picture."): keyed(language, WORDS, key) for key in WORDS}


def _parse(text: str) -> Order | None:
    try:
        return parse_order(text)
    except OrderError:
        return None


def _title(st: ClassicState, outcome: PhaseOutcome | None, words: dict[str, str]) -> str:
    phase = st.phase
    season = words[phase.season.value]
    if outcome is None:
        key = "position_title"
    elif phase.step is Step.RETREATS:
        key = "retreats_title"
    elif phase.step is Step.ADJUSTMENTS:
        key = "adjustments_title"
    else:
        key = "movement_title"
    return words[key].format(season=season, year=phase.year)


def build_scene(
    gmap: ClassicMap,
    st: ClassicState,
    outcome: PhaseOutcome | None = None,
    *,
    layout: BoardLayout | None = None,
    title: str = "",
    language: str = "en",
) -> Scene:
    """The picture of the phase ``st`` is at: the position at its start and, given the
    phase's ``outcome``, its orders and their results (dislodged units, retreats,
    builds and disbands, a build that failed); the supply centres coloured, and counted
    in the legend, as the phase leaves them (the page beside it counts them so: after
    an autumn's retreats, the centres taken are the new owner's)."""
    words = _words(language)
    layout = layout or layout_of(gmap)
    how = drawing(gmap, layout)
    sc = Canvas(gmap, layout, words, language)
    step = st.phase.step
    nxt = outcome.next_state if outcome is not None else None
    after = set(nxt.units) if nxt is not None else set()
    owners = nxt.owners if nxt is not None else st.owners  # as the phase leaves them
    items: list[Item] = sc.board(owners, how)

    # where each unit is drawn, and what its marker shows
    units: list[tuple[Unit, Pt, str, str]] = []
    dislodged_now = set()
    if nxt is not None and step is Step.MOVEMENT and nxt.phase.step is Step.RETREATS:
        dislodged_now = {(d.power, d.region) for d in nxt.dislodged}
    for u in st.units:
        mark = ""
        if (u.power, u.region) in dislodged_now:
            mark = "dislodged"
        elif step is Step.ADJUSTMENTS and nxt is not None and u not in after:
            mark = "disbanded"
        units.append((u, sc.place(u.region), mark, "unit"))
    occupied = {u.province: at for u, at, _, _ in units}
    retreat_at: dict[tuple[str, str], Pt] = {}
    for d in st.dislodged:
        base = sc.place(d.region)
        at = (base[0] + DISLODGED_OFFSET[0], base[1] + DISLODGED_OFFSET[1])
        retreat_at[(d.power, d.region)] = at
        units.append((d.unit, at, "dislodged", "unit dislodged"))
    if step is Step.ADJUSTMENTS and nxt is not None:
        before = set(st.units)
        for u in sorted(after - before):
            units.append((u, sc.place(u.region), "built", "unit"))
        for r in outcome.results if outcome is not None else ():
            order = _parse(r.order)
            if isinstance(order, Build) and not r.succeeded and province_of(order.unit.region) in sc.layout.provinces:
                # the unit that was not built, faded and crossed beside what stands there
                base = sc.place(order.unit.region)
                at = (base[0] + DISLODGED_OFFSET[0], base[1] + DISLODGED_OFFSET[1])
                units.append((Unit(r.power, order.unit.kind, order.unit.region), at, "unbuilt", "unit unbuilt"))

    # the orders
    drawn: list[Drawn] = []
    if outcome is not None:
        for r in outcome.results:
            order = _parse(r.order)
            if order is None or not r.unit:
                continue
            if step is Step.RETREATS and isinstance(order, Move):
                order = Retreat(order.unit, order.dest)  # a retreat written as a move: "A MUN - KIE"
            region = r.unit.split(" ", 1)[-1]
            found: Pt | None
            if step is Step.RETREATS:
                found = retreat_at.get((r.power, region))
                if found is None:
                    continue
                if not (isinstance(order, Retreat) and r.succeeded):
                    units = [
                        (u, p, "disbanded" if (u.power, u.region) == (r.power, region) and role != "unit" else m, role)
                        for u, p, m, role in units
                    ]
            else:
                found = occupied.get(province_of(region), sc.place(region))
            drawn.append(Drawn(r.power, order, order.text(), r.succeeded, found))
    names = sc.labels(owners)
    markers = [unit_group(sc, u, at, mark, role) for u, at, mark, role in units]
    items.extend(Orders(sc, drawn, occupied, keep_out([*names, *markers])).items())
    items.extend(names)  # over the arrows, under the units: no arrow hides a name, no name a head
    items.extend(markers)

    text = title or _title(st, outcome, words)
    width = layout.width + 2 * MARGIN
    items.append(Label((MARGIN, TITLE_H / 2 + 2), text, TITLE_SIZE, TEXT, anchor="start", bold=True))
    marks = {m for _, _, m, _ in units if m}
    kinds = {type(d.order) for d in drawn}
    failed = any(not d.succeeded for d in drawn if not isinstance(d.order, (Build, Disband)))
    legend, height = legend_group(sc, owners, how, marks, kinds, failed, TITLE_H + layout.height + 10, width)
    items.append(legend)
    labels = labels_name(layout.kind, repr(sorted(layout.provinces.items())))  # the board's own label cache
    return Scene(width, TITLE_H + layout.height + 10 + height + MARGIN, text, tuple(items), labels)


def render_svg(
    gmap: ClassicMap,
    st: ClassicState,
    outcome: PhaseOutcome | None = None,
    *,
    title: str = "",
    language: str = "en",
) -> str:
    """The picture of the phase as an SVG document."""
    return scene_svg(build_scene(gmap, st, outcome, title=title, language=language))


def render_png(
    gmap: ClassicMap,
    st: ClassicState,
    outcome: PhaseOutcome | None = None,
    *,
    title: str = "",
    language: str = "en",
    width: int = 1000,
) -> bytes:
    """The picture of the phase as PNG (mail programs do not show SVG)."""
    return scene_png(build_scene(gmap, st, outcome, title=title, language=language), width)


def render_both(
    gmap: ClassicMap, st: ClassicState, outcome: PhaseOutcome | None = None, *, language: str = "en"
) -> tuple[str, bytes]:
    """SVG and PNG of one scene, built once."""
    scene = build_scene(gmap, st, outcome, language=language)
    return scene_svg(scene), scene_png(scene)
