"""The map's SVG is written by hand as ElementTree writes an indented tree: the same
bytes as the tree ``xml.etree.ElementTree`` builds (kept here as the reference), for
the sample game's map, the classic board's, and any scene, whatever its texts hold."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from hypothesis import given, settings
from hypothesis import strategies as st

from moonshine.picture import shapes, svg
from moonshine.picture.shapes import HALO, Circle, Group, Item, Label, Line, Paint, Poly, Scene
from moonshine.picture.svg import scene_svg
from moonshine.variants.moonshine import scene as chicago_scene


def _paint(el: ET.Element, paint: Paint, *, line: bool) -> None:
    el.set("fill", paint.fill or "none")
    if paint.stroke:
        el.set("stroke", paint.stroke)
        el.set("stroke-width", svg._num(paint.width))
        el.set("stroke-linejoin", "round")
        if line:
            el.set("stroke-linecap", "round")
        if paint.dash:
            el.set("stroke-dasharray", f"{svg._num(paint.dash[0])} {svg._num(paint.dash[1])}")


def _item(parent: ET.Element, item: Item) -> None:
    num, pairs = svg._num, svg._pairs
    if isinstance(item, Group):
        g = ET.SubElement(parent, "g")
        for k, v in item.attrs:
            if k != "data-title":
                g.set(k, v)
        if item.opacity < 1:
            g.set("opacity", num(item.opacity) if item.opacity >= 0.1 else f"{item.opacity:.2f}")
        for k, v in item.attrs:
            if k == "data-title":
                ET.SubElement(g, "title").text = v
        for child in item.items:
            _item(g, child)
    elif isinstance(item, Poly):
        el = ET.SubElement(parent, "path", {"d": "".join("M" + pairs(r) + "Z" for r in item.rings)})
        _paint(el, item.paint, line=False)
        if len(item.rings) > 1:
            el.set("fill-rule", "evenodd")
    elif isinstance(item, Line):
        el = ET.SubElement(parent, "path", {"d": "M" + pairs(item.points)})
        _paint(el, Paint(None, item.paint.stroke, item.paint.width, item.paint.dash), line=True)
    elif isinstance(item, Circle):
        el = ET.SubElement(parent, "circle", {"cx": num(item.centre[0]), "cy": num(item.centre[1]), "r": num(item.r)})
        _paint(el, item.paint, line=False)
    else:
        el = ET.SubElement(
            parent,
            "text",
            {
                "x": num(item.at[0]),
                "y": num(item.at[1]),
                "font-size": num(item.size),
                "fill": item.colour,
                "text-anchor": item.anchor,
                "dominant-baseline": "central",
            },
        )
        if item.bold:
            el.set("font-weight", "bold")
        if item.italic:
            el.set("font-style", "italic")
        if item.halo:
            el.set("stroke", HALO)
            el.set("stroke-width", num(item.halo))
            el.set("stroke-linejoin", "round")
            el.set("paint-order", "stroke")
        el.text = item.text


def reference_svg(scene: Scene) -> str:
    """The SVG as ElementTree writes the scene's tree."""
    root = ET.Element(
        "svg",
        {
            "xmlns": "http://www.w3.org/2000/svg",
            "width": f"{scene.width:g}",
            "height": f"{scene.height:g}",
            "viewBox": f"0 0 {scene.width:g} {scene.height:g}",
            "font-family": "Helvetica, Arial, sans-serif",
        },
    )
    ET.SubElement(root, "title").text = scene.title
    ET.SubElement(root, "rect", {"width": "100%", "height": "100%", "fill": shapes.BACKGROUND})
    for item in scene.items:
        _item(root, item)
    ET.indent(root, space=" ")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def test_the_chicago_maps_turns_are_written_as_elementtree_writes_them() -> None:
    from moonshine.game.simulate import play
    from moonshine.render.turnmap import arrows_from_results, dislodged_units
    from moonshine.variants.moonshine.map import load_map
    from moonshine.variants.moonshine.results import read_results, to_data

    gmap = load_map("chicago-1920s")
    for n, played in enumerate(play(gmap, "svg", 3)):
        res = read_results(to_data(gmap, played.result, {}))
        scene = chicago_scene.build_scene(
            gmap,
            played.result.next_state,
            arrows=arrows_from_results(res, gmap),
            title='Turn <& "after">',
            language=("en", "fr")[n % 2],
            dislodged=dislodged_units(res),
        )
        svg = scene_svg(scene)
        assert svg == reference_svg(scene)
        ET.fromstring(svg.split("\n", 1)[1])  # well-formed


def test_the_classic_map_is_written_as_elementtree_writes_it() -> None:
    from moonshine.variants.classic.board import standard_map
    from moonshine.variants.classic.scene import build_scene
    from moonshine.variants.classic.state import initial_state

    gmap = standard_map()
    scene = build_scene(gmap, initial_state(gmap), None, title="Spring 1901", language="fr")
    assert scene_svg(scene) == reference_svg(scene)


texts = st.text(alphabet=st.sampled_from(["a", "Z", " ", "&", "<", ">", '"', "'", "\n", "\t", "\r", "é", "—", "😀"]))
points = st.tuples(st.floats(-50, 1050, allow_nan=False), st.floats(-50, 1050, allow_nan=False))
paints = st.builds(
    Paint,
    st.sampled_from([None, "#ffffff", "red"]),
    st.sampled_from([None, "#000000"]),
    st.floats(0, 5, allow_nan=False),
    st.sampled_from([None, (4.0, 2.5)]),
)
leaves = st.one_of(
    st.builds(
        Poly, st.lists(st.lists(points, min_size=1, max_size=4).map(tuple), min_size=1, max_size=3).map(tuple), paints
    ),
    st.builds(Line, st.lists(points, min_size=1, max_size=4).map(tuple), paints),
    st.builds(Circle, points, st.floats(0, 30, allow_nan=False), paints),
    st.builds(
        Label,
        points,
        texts,
        st.floats(5, 30, allow_nan=False),
        st.sampled_from(["#222222", "red"]),
        st.sampled_from(["start", "middle", "end"]),
        st.booleans(),
        st.booleans(),
        st.sampled_from([0.0, 2.5]),
    ),
)
attrs = st.lists(st.tuples(st.sampled_from(["id", "class", "data-title", "data-unit"]), texts), max_size=3).map(tuple)
items = st.recursive(
    leaves,
    lambda inner: st.builds(Group, attrs, st.lists(inner, max_size=4).map(tuple), st.sampled_from([1.0, 0.5, 0.05])),
    max_leaves=12,
)


@settings(max_examples=150, deadline=None)
@given(
    st.builds(
        Scene,
        st.sampled_from([1000.0, 812.5]),
        st.sampled_from([1400.0, 960.0]),
        texts,
        st.lists(items, max_size=5).map(tuple),
    )
)
def test_any_scene_is_written_as_elementtree_writes_it(scene: Scene) -> None:
    assert scene_svg(scene) == reference_svg(scene)
