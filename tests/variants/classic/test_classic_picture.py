"""The map picture of the classic family's boards (moonshine.variants.classic.scene): what a
player must find on it (every province, unit and order; dislodged units and their
retreats; builds and disbands), the layout's faithfulness to the board's borders,
readable labels, colours told apart by colour-blind readers, the files `adjudicate`
writes, and clear errors for a board without a layout or a broken one."""

from __future__ import annotations

import itertools
import shutil
import xml.etree.ElementTree as ET
from io import BytesIO
from pathlib import Path

import frtypo
import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st_
from PIL import Image

from moonshine.errors import MapError
from moonshine.game.families.classic import adjudicate_phase_dir, create
from moonshine.picture.colours import closest_pairs, mix
from moonshine.picture.shapes import Circle, Group, Label, extent
from moonshine.picture.svg import scene_svg
from moonshine.variants.classic import scene as classic_scene
from moonshine.variants.classic.board import MAPS_DIR, ClassicMap, board, load_classic_map, province_of
from moonshine.variants.classic.orders import Convoy, Move, Order, SupportHold, SupportMove, parse_order
from moonshine.variants.classic.phases import PhaseOutcome, adjudicate_phase
from moonshine.variants.classic.scene import layout as classic_layout
from moonshine.variants.classic.scene.borders import borders, drawing
from moonshine.variants.classic.scene.style import LAND, SEA, TINT
from moonshine.variants.classic.state import ClassicState, from_data, initial_state

SVG = "{http://www.w3.org/2000/svg}"

# A busy autumn on the standard board: a convoy, supports to moves and to holds, a
# cut support, bounces, two dislodgements (one retreats, one is disbanded).
BUSY = """
phase: fall-1901
units:
  AUS: [A SER, F GRE, A VIE, A GAL]
  ENG: [F NTH, A YOR, F NWG, F ENG]
  FRA: [A BUR, A PIC, F MAO, A MAR]
  GER: [A RUH, A MUN, F BEL, F DEN]
  ITA: [A APU, F ION, A VEN, F TYS]
  RUS: [A UKR, F SEV, A WAR, F STP/SC]
  TUR: [A BUL, F BLA, A ARM, F CON]
owners:
  AUS: [BUD, TRI, VIE]
  ENG: [EDI, LON, LVP]
  FRA: [BRE, MAR, PAR]
  GER: [BER, KIE, MUN]
  ITA: [NAP, ROM, VEN]
  RUS: [MOS, SEV, STP, WAR]
  TUR: [ANK, CON, SMY]
"""
BUSY_ORDERS = {
    "AUS": ["A SER - BUL", "F GRE S A SER - BUL", "A GAL - RUM", "A VIE S A GAL"],
    "ENG": ["F NTH C A YOR - NWY", "A YOR - NWY", "F NWG S A YOR - NWY", "F ENG - MAO"],
    "FRA": ["A PIC S A BUR", "A MAR - SPA", "F MAO - SPA/NC", "A BUR H"],
    "GER": ["A RUH - BUR", "A MUN S A RUH - BUR", "F BEL - PIC", "F DEN - SWE"],
    "ITA": ["A APU - TUN", "F ION C A APU - TUN", "A VEN - TRI", "F TYS - LYO"],
    "RUS": ["A UKR S A GAL - RUM", "F SEV - BLA", "A WAR - GAL", "F STP/SC - BOT"],
    "TUR": ["A BUL H", "F BLA S A BUL", "A ARM - SEV", "F CON - AEG"],
}


def _orders(texts: dict[str, list[str]]) -> dict[str, list[Order]]:
    return {p: [parse_order(t) for t in ts] for p, ts in texts.items()}


@pytest.fixture(scope="module")
def classic() -> ClassicMap:
    return board("classic")


@pytest.fixture(scope="module")
def busy(classic: ClassicMap) -> tuple[ClassicState, PhaseOutcome]:
    st = from_data(yaml.safe_load(BUSY), classic)
    return st, adjudicate_phase(classic, st, _orders(BUSY_ORDERS))


def _svg(text: str) -> ET.Element:
    return ET.fromstring(text.encode("utf-8"))


def _groups(root: ET.Element, cls: str) -> list[ET.Element]:
    return [g for g in root.iter(f"{SVG}g") if cls in (g.get("class") or "").split()]


# -- what the picture holds ------------------------------------------------------------------


def test_svg_holds_every_province_unit_and_order(classic: ClassicMap, busy: tuple[ClassicState, PhaseOutcome]) -> None:
    st, outcome = busy
    root = _svg(classic_scene.render_svg(classic, st, outcome))
    assert root.findtext(f"{SVG}title") == "Autumn 1901: orders and results"
    assert {g.get("data-province") for g in _groups(root, "province")} == set(classic.provinces)
    drawn_units = {(g.get("data-power"), g.get("data-unit")) for g in _groups(root, "unit")}
    assert drawn_units == {(u.power, u.label()) for u in st.units}
    orders = {g.get("data-order"): g.get("data-result") for g in _groups(root, "order")}
    drawable = (Move, SupportMove, SupportHold, Convoy)
    expected = {
        r.order: "succeeds" if r.succeeded else "fails"
        for r in outcome.results
        if isinstance(parse_order(r.order), drawable)
    }
    assert len(expected) == 26  # all but the two holds
    assert orders == expected
    # the convoyed army's arrow, the cut support and the bounce are there with their results
    assert orders["A YOR - NWY"] == "succeeds"
    assert orders["A PIC S A BUR"] == "fails"
    assert orders["F MAO - SPA/NC"] == "fails"


def _points(group: ET.Element) -> int:
    """How many points the longest line (not the head) of an order's arrow has."""
    return max(len((p.get("d") or "").split("L")) for p in group.iter(f"{SVG}path") if p.get("fill") == "none")


def test_convoyed_moves_go_through_their_fleets(classic: ClassicMap, busy: tuple[ClassicState, PhaseOutcome]) -> None:
    st, outcome = busy
    root = _svg(classic_scene.render_svg(classic, st, outcome))
    arrows = {g.get("data-order"): g for g in _groups(root, "order")}
    assert _points(arrows["A YOR - NWY"]) > 5  # a curve through F NTH
    assert _points(arrows["A APU - TUN"]) > 5  # through F ION
    assert _points(arrows["A RUH - BUR"]) == 2  # straight
    # next door, another power's convoy order does not take an army off the land route
    orders = _orders({"FRA": ["A PIC - BRE"], "ENG": ["F ENG C A PIC - BRE"]})
    root = _svg(classic_scene.render_svg(classic, st, adjudicate_phase(classic, st, orders)))
    arrows = {g.get("data-order"): g for g in _groups(root, "order")}
    assert _points(arrows["A PIC - BRE"]) == 2


def test_failed_orders_are_dashed_and_crossed(classic: ClassicMap, busy: tuple[ClassicState, PhaseOutcome]) -> None:
    st, outcome = busy
    root = _svg(classic_scene.render_svg(classic, st, outcome))
    for g in _groups(root, "order"):
        dashed = [p for p in g.iter(f"{SVG}path") if p.get("stroke-dasharray")]
        crosses = len(list(g.iter(f"{SVG}path"))) >= 4
        if g.get("data-result") == "fails":
            assert dashed and crosses, g.get("data-order")
        else:
            assert not dashed, g.get("data-order")


def test_dislodged_units_are_marked_and_their_retreats_drawn(
    classic: ClassicMap, busy: tuple[ClassicState, PhaseOutcome]
) -> None:
    st, outcome = busy
    dislodged = {(d.power, d.label()) for d in outcome.next_state.dislodged}
    assert dislodged == {("FRA", "A BUR"), ("TUR", "A BUL")}
    moves = _svg(classic_scene.render_svg(classic, st, outcome))
    marked = {(g.get("data-power"), g.get("data-unit")) for g in _groups(moves, "unit") if g.get("data-mark")}
    assert marked == dislodged

    # the retreat phase: France retreats to Paris, Turkey orders nothing and is disbanded
    st2 = outcome.next_state
    out2 = adjudicate_phase(classic, st2, _orders({"FRA": ["A BUR R PAR"]}))
    root = _svg(classic_scene.render_svg(classic, st2, out2))
    assert root.findtext(f"{SVG}title") == "Autumn 1901, retreats: orders and results"
    shown = {(g.get("data-power"), g.get("data-unit"), g.get("data-mark")) for g in _groups(root, "dislodged")}
    assert shown == {("FRA", "A BUR", "dislodged"), ("TUR", "A BUL", "disbanded")}
    # the winner of BUR stands there too, and the retreat has its arrow
    assert ("GER", "A BUR") in {(g.get("data-power"), g.get("data-unit")) for g in _groups(root, "unit")}
    orders = {g.get("data-order"): g.get("data-result") for g in _groups(root, "order")}
    assert orders == {"A BUR R PAR": "succeeds"}


def test_builds_and_disbands_are_shown(classic: ClassicMap, busy: tuple[ClassicState, PhaseOutcome]) -> None:
    _, outcome = busy
    out2 = adjudicate_phase(classic, outcome.next_state, _orders({"FRA": ["A BUR R PAR"]}))
    winter = out2.next_state
    assert winter.phase.name == "winter-1901"
    out3 = adjudicate_phase(classic, winter, _orders({"AUS": ["A BUD B"], "FRA": ["F MAO D"]}))
    root = _svg(classic_scene.render_svg(classic, winter, out3))
    assert root.findtext(f"{SVG}title") == "Winter 1901: builds and disbands"
    marks = {(g.get("data-unit"), g.get("data-mark")) for g in _groups(root, "unit") if g.get("data-mark")}
    assert ("A BUD", "built") in marks
    assert ("F MAO", "disbanded") in marks


def test_opening_position_and_french_title(classic: ClassicMap) -> None:
    st = initial_state(classic)
    root = _svg(classic_scene.render_svg(classic, st))
    assert root.findtext(f"{SVG}title") == "Spring 1901: position"
    assert len(_groups(root, "unit")) == 22 and not _groups(root, "order")
    fr = _svg(classic_scene.render_svg(classic, st, language="fr"))
    assert fr.findtext(f"{SVG}title") == frtypo.fr("Printemps 1901 : position")
    with pytest.raises(MapError, match="unknown language 'de'"):
        classic_scene.render_svg(classic, st, language="de")


def test_orders_naming_places_off_the_board_are_drawn_as_failures(classic: ClassicMap) -> None:
    """Illegal orders reach the picture as given: unknown provinces and coasts must
    not break it."""
    st = initial_state(classic)
    given = {
        "FRA": ["A PAR - XYZ", "A MAR S A XYZ - BUR", "F BRE C A QQQ - PIC"],
        "ENG": ["A LVP - CLY/NC", "F LON S F XXX"],
    }
    outcome = adjudicate_phase(classic, st, _orders(given))
    root = _svg(classic_scene.render_svg(classic, st, outcome))
    orders = {g.get("data-order"): g.get("data-result") for g in _groups(root, "order")}
    assert orders == {
        "A PAR - XYZ": "fails",
        "A MAR S A XYZ - BUR": "fails",
        "F BRE C A QQQ - PIC": "fails",
        "A LVP - CLY/NC": "succeeds",
        "F LON S F XXX": "fails",
    }
    assert classic_scene.render_png(classic, st, outcome)[:4] == b"\x89PNG"


_PLACES = ["PAR", "BUR", "MAR", "SPA", "SPA/NC", "STP/SC", "NTH", "LON", "BEL", "MUN", "XYZ", "CLY/NC"]


@st_.composite
def _random_orders(draw: st_.DrawFn) -> list[str]:
    units = [u.label() for u in initial_state(board("classic")).units]
    out = []
    for _ in range(draw(st_.integers(0, 12))):
        unit = draw(st_.sampled_from(units))
        kind = draw(st_.sampled_from(["-", "S", "S-", "C", "H"]))
        a, b = draw(st_.sampled_from(_PLACES)), draw(st_.sampled_from(_PLACES))
        other = draw(st_.sampled_from(units))
        out.append(
            {
                "-": f"{unit} - {a}",
                "S": f"{unit} S {other}",
                "S-": f"{unit} S {other} - {b}",
                "C": f"{unit} C A {a} - {b}",
                "H": f"{unit} H",
            }[kind]
        )
    return out


@settings(max_examples=40, deadline=None)
@given(_random_orders())
def test_any_orders_give_a_picture(texts: list[str]) -> None:
    """Whatever the powers order, the picture is drawn, with one group per drawn order."""
    gmap = board("classic")
    start = initial_state(gmap)
    orders: dict[str, list[Order]] = {}
    for t in texts:
        power = next(u.power for u in start.units if u.label() == " ".join(t.split()[:2]))
        orders.setdefault(power, []).append(parse_order(t))
    outcome = adjudicate_phase(gmap, start, orders)
    root = _svg(scene_svg(classic_scene.build_scene(gmap, start, outcome)))
    assert len(_groups(root, "unit")) == len(start.units)


def test_supply_centres_are_tinted_by_owner(classic: ClassicMap) -> None:
    st = initial_state(classic)
    root = _svg(classic_scene.render_svg(classic, st))
    layout = classic_layout.layout_of(classic)
    fills = {g.get("data-province"): g.find(f"{SVG}path").get("fill") for g in _groups(root, "province")}  # type: ignore[union-attr]
    assert fills["PAR"] == mix(layout.colours["FRA"], LAND, TINT)
    assert fills["BEL"] == LAND  # a neutral centre
    assert fills["NTH"] == SEA
    assert fills["BUR"] == LAND


# -- the layout is faithful to the board -------------------------------------------------------


def test_every_border_of_the_standard_board_is_a_shared_edge(classic: ClassicMap) -> None:
    layout = classic_layout.layout_of(classic)
    how = drawing(classic, layout)
    assert how.links == ()  # no border needs a link: the shapes touch
    assert {b.a + "-" + b.b for b, _ in how.edges} == {b.a + "-" + b.b for b in borders(classic)}
    # two provinces share an edge on the drawing only where the board has a border,
    # but for impassable Switzerland
    assert all("SWI" in pair for pair, _ in how.walls)
    assert {b.kind for b in borders(classic) if {b.a, b.b} == {"BRE", "PIC"}} == {"both"}
    assert {b.kind for b in borders(classic) if {b.a, b.b} == {"ANK", "SMY"}} == {"army"}
    assert {b.kind for b in borders(classic) if {b.a, b.b} == {"BOT", "STP"}} == {"fleet"}


def test_every_border_is_drawn_in_the_svg(classic: ClassicMap) -> None:
    root = _svg(classic_scene.render_svg(classic, initial_state(classic)))
    drawn = {(g.get("data-border"), g.get("data-kind")) for g in _groups(root, "border")}
    assert drawn == {(f"{b.a}-{b.b}", b.kind) for b in borders(classic)}


def _inside(p: tuple[float, float], ring: tuple[tuple[float, float], ...]) -> bool:
    x, y = p
    hit = False
    for (x1, y1), (x2, y2) in itertools.pairwise((*ring, ring[0])):
        if (y1 > y) != (y2 > y) and x < (x2 - x1) * (y - y1) / (y2 - y1) + x1:
            hit = not hit
    return hit


def test_units_names_and_coasts_stand_in_their_own_province(classic: ClassicMap) -> None:
    layout = classic_layout.layout_of(classic)
    for code, p in layout.provinces.items():
        rings = [ring for polygon in layout.shapes[code] for ring in polygon]
        for what, point in (("unit", p.at), ("label", p.label), *((c, q) for c, q in p.coasts.items())):
            assert sum(_inside(point, r) for r in rings) % 2 == 1, f"{code}: its {what} stands outside it"


def test_the_coasts_are_natural_earths_and_islands_are_kept(classic: ClassicMap) -> None:
    """The shapes follow the real coastline: Great Britain, Sicily, Zealand and Crete
    are drawn (the first three inside their provinces, Crete as land of no province),
    and a coast is an outline of many points, not a straight cell edge."""
    layout = classic_layout.layout_of(classic)
    assert len(layout.shapes["NAP"]) >= 2  # the mainland and Sicily
    assert len(layout.shapes["DEN"]) >= 2  # Jutland and the islands
    assert len(layout.offboard_cells) >= 5  # Ireland, Iceland, Corsica, Sardinia, Crete...
    coast = layout.shared[("BRE", "ENG")]
    assert sum(len(path) for path in coast) > 20
    for pair in (("NWY", "NWG"), ("SPA", "MAO"), ("GRE", "ION")):
        a, b = sorted(pair)
        assert sum(len(path) for path in layout.shared[(a, b)]) > 20, pair


def _font_box(text: str, size: float) -> tuple[float, float]:
    """The width and height of a label as the PNG writer's font draws it (bold adds a
    stroke round the glyphs)."""
    from PIL import ImageFont

    left, top, right, bottom = ImageFont.load_default(size=size).getbbox(text)
    bold = 2 * max(1.0, size * 0.035)
    return right - left + bold, bottom - top + bold


def _names(scene: classic_scene.Scene) -> list[tuple[str, tuple[float, float, float, float]]]:
    """Each province's name on the drawing (its code and its supply centre's dot), as a box."""
    out = []
    for group in scene.items:
        if isinstance(group, Group) and ("class", "label") in group.attrs:
            code = dict(group.attrs)["data-province"]
            text = next(i for i in group.items if isinstance(i, Label) and i.text == code)
            w, h = _font_box(text.text, text.size)
            x0, y0, x1, y1 = text.at[0] - w / 2, text.at[1] - h / 2, text.at[0] + w / 2, text.at[1] + h / 2
            dots = [i for i in group.items if isinstance(i, Circle) and i.r > 4]  # not a coast's marker
            for c in dots[:2]:
                x1 = max(x1, c.centre[0] + c.r)
            out.append((code, (x0, y0, x1, y1)))
    return out


def _markers(scene: classic_scene.Scene) -> list[tuple[str, tuple[float, float, float, float]]]:
    """Each unit's marker on the drawing, as a box."""
    out = []
    for group in scene.items:
        if isinstance(group, Group) and "unit" in dict(group.attrs).get("class", "").split():
            box = extent([i for i in group.items if not isinstance(i, Label)])
            assert box is not None
            out.append((dict(group.attrs)["data-unit"], box))
    return out


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _phases(classic: ClassicMap, busy: tuple[ClassicState, PhaseOutcome]) -> dict[str, classic_scene.Scene]:
    st, outcome = busy
    retreats = outcome.next_state
    out2 = adjudicate_phase(classic, retreats, _orders({"FRA": ["A BUR R PAR"]}))
    return {
        "start": classic_scene.build_scene(classic, initial_state(classic)),
        "busy autumn": classic_scene.build_scene(classic, st, outcome),
        "its retreats": classic_scene.build_scene(classic, retreats, out2),
    }


def test_no_unit_covers_a_name_and_no_two_names_overlap(
    classic: ClassicMap, busy: tuple[ClassicState, PhaseOutcome]
) -> None:
    """In the drawn scene of the opening, of a busy autumn and of its retreats
    (dislodged units stand beside the winner), no unit's marker covers a province's
    name, nor do two names overlap."""
    for phase, scene in _phases(classic, busy).items():
        names = _names(scene)
        assert len(names) == len(classic.provinces)
        covered = [(unit, code) for unit, u in _markers(scene) for code, n in names if _overlap(u, n)]
        assert covered == [], phase
        piled = [(a, b) for (a, x), (b, y) in itertools.combinations(names, 2) if _overlap(x, y)]
        assert piled == [], phase


def test_the_names_are_drawn_over_the_arrows_and_under_the_units(
    classic: ClassicMap, busy: tuple[ClassicState, PhaseOutcome]
) -> None:
    """No arrow hides a name: the names come after every order's arrow, and the units
    after the names."""
    scene = _phases(classic, busy)["busy autumn"]
    kinds = [dict(g.attrs).get("class", "").split()[0] for g in scene.items if isinstance(g, Group) and g.attrs]
    last_order = max(i for i, k in enumerate(kinds) if k == "order")
    names = [i for i, k in enumerate(kinds) if k == "label"]
    first_unit = min(i for i, k in enumerate(kinds) if k == "unit")
    assert last_order < min(names) and max(names) < first_unit


# -- colour-blind readers ----------------------------------------------------------------------

VISIONS = ("normal", "deuteranopia", "protanopia")
SOLID, TINTED = 10.0, 4.5  # least CIEDE2000 difference between two powers' colours (units), and their tints (centres)


@pytest.mark.parametrize("name", ["classic", "pure"])
def test_power_colours_stay_apart_for_colour_blind_readers(name: str) -> None:
    """Every two powers' colours (units) and their tints of owned centres, with land
    and sea, as seen with normal vision and under simulated deuteranopia and
    protanopia (moonshine.picture.colours)."""
    layout = classic_layout.layout_of(board(name))
    solid = dict(layout.colours)
    tints = {p: mix(c, LAND, TINT) for p, c in solid.items()} | {
        "land": LAND,
        "sea": SEA,
    }
    for pair in closest_pairs(solid, VISIONS):
        assert pair.difference >= SOLID, pair
    for pair in closest_pairs(tints, VISIONS):
        assert pair.difference >= TINTED, pair


# -- Pure ---------------------------------------------------------------------------------------


def test_pure_draws_seven_discs_and_a_line_for_each_border() -> None:
    gmap = board("pure")
    st = initial_state(gmap)
    out = adjudicate_phase(gmap, st, _orders({"ENG": ["A LON - ROM"], "FRA": ["A PAR S A LON - ROM"]}))
    root = _svg(classic_scene.render_svg(gmap, st, out))
    assert {g.get("data-province") for g in _groups(root, "province")} == set(gmap.provinces)
    links = _groups(root, "link")
    assert len(links) == 21 == len(borders(gmap))
    assert {(g.get("data-power"), g.get("data-unit"), g.get("data-mark")) for g in _groups(root, "unit")} >= {
        ("ITA", "A ROM", "dislodged")
    }
    assert {g.get("data-order") for g in _groups(root, "order")} == {"A LON - ROM", "A PAR S A LON - ROM"}


# -- PNG, determinism ---------------------------------------------------------------------------


@pytest.mark.parametrize("width", [1000, 600])
def test_png_opens_at_its_size(classic: ClassicMap, busy: tuple[ClassicState, PhaseOutcome], width: int) -> None:
    st, outcome = busy
    scene = classic_scene.build_scene(classic, st, outcome)
    png = classic_scene.render_png(classic, st, outcome, width=width)
    image = Image.open(BytesIO(png))
    assert image.format == "PNG"
    assert image.size == (width, round(scene.height * width / scene.width))


def test_same_inputs_give_the_same_bytes(classic: ClassicMap, busy: tuple[ClassicState, PhaseOutcome]) -> None:
    st, outcome = busy
    first = classic_scene.render_both(classic, st, outcome)
    classic_layout._load_layout.cache_clear()
    again = classic_scene.render_both(classic, st, outcome)
    assert first == again
    assert first[0] != classic_scene.render_svg(classic, st)  # and the orders do change it


# -- errors -------------------------------------------------------------------------------------


def _board_copy(tmp_path: Path, name: str = "pure") -> Path:
    folder = tmp_path / "board"
    shutil.copytree(Path(MAPS_DIR) / name, folder)
    return folder


def test_a_board_without_a_layout_gets_a_clear_error(tmp_path: Path) -> None:
    folder = _board_copy(tmp_path)
    (folder / "layout.yaml").unlink()
    gmap = load_classic_map(folder)
    assert not classic_layout.has_layout(gmap)
    with pytest.raises(MapError) as err:
        classic_scene.render_svg(gmap, initial_state(gmap))
    text = str(err.value)
    assert str(folder / "layout.yaml") in text
    assert "has no map picture" in text and "classic/layout.yaml" in text


LAYOUT_ERRORS = [
    # (change to pure's layout.yaml, key named, words of the problem)
    ({"kind": "hexes"}, "kind", "expected shapes, cells or nodes"),
    ({"size": [1000]}, "size", "expected the frame's [width, height]"),
    ({"colours": {"AUS": "red"}}, "colours.AUS", "expected a colour like"),
    ({"provinces": {"LON": {"at": [500, 100]}}}, "provinces", "no place for BER, CON, MOS, PAR, ROM, VIE"),
    ({"provinces.LON": {"at": [5000, 100]}}, "provinces.LON.at", "outside the frame"),
    ({"provinces.LON": {"where": [1, 1], "at": [1, 1]}}, "provinces.LON.where", "unknown key"),
    ({"provinces.XYZ": {"at": [1, 1]}}, "provinces.XYZ", "no such province on this board"),
    ({"provinces.LON": {"at": [1, 1], "coasts": {"NC": [2, 2]}}}, "provinces.LON.coasts.NC", "LON has no such coast"),
    ({"wind": 3}, "wind", "unknown key"),
]


@pytest.mark.parametrize(("change", "key", "problem"), LAYOUT_ERRORS)
def test_a_broken_layout_names_its_file_key_and_problem(
    tmp_path: Path, change: dict[str, object], key: str, problem: str
) -> None:
    folder = _board_copy(tmp_path)
    path = folder / "layout.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    for k, v in change.items():
        if k.startswith("provinces."):
            data["provinces"][k.split(".", 1)[1]] = v
        else:
            data[k] = v
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    gmap = load_classic_map(folder)
    with pytest.raises(MapError) as err:
        classic_layout.layout_of(gmap)
    assert err.value.source == str(path)
    assert err.value.key == key
    assert problem in err.value.problem


# -- adjudicate writes the picture ----------------------------------------------------------------


@pytest.mark.parametrize("name", ["classic", "pure"])
def test_adjudicate_writes_the_map_beside_the_results(tmp_path: Path, name: str) -> None:
    gmap = board(name)
    create(tmp_path, "Test", use_git=False, board_name=name)
    first = gmap.powers and next(iter(gmap.info.start))
    unit = gmap.info.start[first][0]
    target = sorted(gmap.army_nb[province_of(unit.split()[1])])[0]
    (tmp_path / "orders" / "spring-1901" / f"{first}.txt").write_text(f"{unit} - {target}\n", encoding="utf-8")
    done = adjudicate_phase_dir(tmp_path, "spring-1901", commit=False, gmap=gmap)
    folder = done.results_path.parent
    root = _svg((folder / "map.svg").read_text(encoding="utf-8"))
    assert {g.get("data-order") for g in _groups(root, "order")} == {f"{unit} - {target}"}
    assert Image.open(folder / "map.png").size[0] == 1000


def test_adjudicate_without_a_layout_writes_no_map(tmp_path: Path) -> None:
    folder = _board_copy(tmp_path)
    (folder / "layout.yaml").unlink()
    gmap = load_classic_map(folder)
    game = tmp_path / "game"
    game.mkdir()
    from moonshine.game.directory import atomic_write_text
    from moonshine.game.families import classic as game_mod
    from moonshine.variants.classic import state as state_mod

    atomic_write_text(game_mod.state_path(game, "spring-1901"), state_mod.dumps(initial_state(gmap)))
    done = adjudicate_phase_dir(game, "spring-1901", commit=False, gmap=gmap)
    assert done.results_path.is_file()
    assert not (done.results_path.parent / "map.svg").exists()


def test_the_legend_counts_centres_as_the_language_counts() -> None:
    """French counts 0 and 1 in the singular: ``Autriche : 0 centre``; English
    ``Austria: 0 centres``; both ``Turkey: 1 centre``."""
    from moonshine.picture.svg import scene_svg
    from moonshine.variants.classic.board import standard_map
    from moonshine.variants.classic.scene import build_scene
    from moonshine.variants.classic.state import initial_state

    gmap = standard_map()
    st = initial_state(gmap)
    for centre, owner in list(st.owners.items()):
        if owner == "AUS":
            del st.owners[centre]
    st.owners = {c: o for c, o in st.owners.items() if o != "TUR"} | {"CON": "TUR"}
    french = scene_svg(build_scene(gmap, st, None, title="x", language="fr"))
    english = scene_svg(build_scene(gmap, st, None, title="x", language="en"))
    assert frtypo.fr("Autriche : 0 centre<") in french and frtypo.fr("Turquie : 1 centre<") in french
    assert frtypo.fr("Russie : 4 centres<") in french
    assert "Austria: 0 centres<" in english and "Turkey: 1 centre<" in english


def test_a_retreat_written_as_a_move_is_drawn_as_a_retreat(
    classic: ClassicMap, busy: tuple[ClassicState, PhaseOutcome]
) -> None:
    """'A BUR - PAR' in a retreat phase is a retreat: the unit is drawn retreating,
    not crossed out as disbanded with no unit where it went."""
    _, outcome = busy
    st2 = outcome.next_state
    out2 = adjudicate_phase(classic, st2, _orders({"FRA": ["A BUR - PAR"]}))
    assert [r.succeeded for r in out2.results if r.power == "FRA"] == [True]
    root = _svg(classic_scene.render_svg(classic, st2, out2))
    shown = {(g.get("data-power"), g.get("data-unit"), g.get("data-mark")) for g in _groups(root, "dislodged")}
    assert ("FRA", "A BUR", "dislodged") in shown and ("FRA", "A BUR", "disbanded") not in shown
    orders = {g.get("data-order"): g.get("data-result") for g in _groups(root, "order")}
    assert orders == {"A BUR R PAR": "succeeds"}
