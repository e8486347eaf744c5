"""A scene (``moonshine.picture.shapes``) written as SVG: the bytes ElementTree would
write, so that the same scene gives the same file on every run."""

from __future__ import annotations

import re
from collections.abc import Sequence

from moonshine.picture.shapes import BACKGROUND, HALO, Circle, Group, Item, Line, Paint, Poly, Pt, Scene


def _num(v: float) -> str:
    s = f"{v:.1f}"
    return "0.0" if s == "-0.0" else s


def _pairs(points: Sequence[Pt]) -> str:
    # each number as _num writes it: with one decimal, "-0.0" can only be a whole number
    return "L".join([f"{x:.1f} {y:.1f}" for x, y in points]).replace("-0.0", "0.0")


# The SVG is written as ElementTree writes an element tree indented by ``ET.indent(root,
# space=" ")`` (the same bytes: attributes in the order set, ``" />"`` for an empty
# element, the same escapes), without building the tree or loading the module.
_ATTR_ESCAPES = str.maketrans(
    {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "\r": "&#13;", "\n": "&#10;", "\t": "&#09;"}
)


_TEXT_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;"})


_ESCAPED = re.compile('[&<>"\r\n\t]').search  # a value holding none is written as it is


def _tag(name: str, attrs: dict[str, str]) -> str:
    """An element's start tag, without its closing ``>``."""
    return (
        "<" + name + "".join([f' {k}="{v.translate(_ATTR_ESCAPES) if _ESCAPED(v) else v}"' for k, v in attrs.items()])
    )


def _leaf(out: list[str], name: str, attrs: dict[str, str], text: str | None = None) -> None:
    """An element without children: with its text, or empty."""
    if text:
        out.append(f"{_tag(name, attrs)}>{text.translate(_TEXT_ESCAPES)}</{name}>")
    else:
        out.append(_tag(name, attrs) + " />")


def _svg_paint(attrs: dict[str, str], paint: Paint, *, line: bool) -> None:
    attrs["fill"] = paint.fill or "none"
    if paint.stroke:
        attrs["stroke"] = paint.stroke
        attrs["stroke-width"] = _num(paint.width)
        attrs["stroke-linejoin"] = "round"
        if line:
            attrs["stroke-linecap"] = "round"
        if paint.dash:
            attrs["stroke-dasharray"] = f"{_num(paint.dash[0])} {_num(paint.dash[1])}"


def _svg_item(out: list[str], item: Item, level: int) -> None:
    """The item's element, at ``level`` (its children indented one space more)."""
    attrs: dict[str, str]
    if isinstance(item, Group):
        attrs = {k: v for k, v in item.attrs if k != "data-title"}
        if item.opacity < 1:
            attrs["opacity"] = _num(item.opacity) if item.opacity >= 0.1 else f"{item.opacity:.2f}"
        titles = [v for k, v in item.attrs if k == "data-title"]
        if not titles and not item.items:
            out.append(_tag("g", attrs) + " />")
            return
        out.append(_tag("g", attrs) + ">")
        inner = "\n" + " " * (level + 1)
        for title in titles:
            out.append(inner)
            _leaf(out, "title", {}, title)
        for child in item.items:
            out.append(inner)
            _svg_item(out, child, level + 1)
        out.append("\n" + " " * level + "</g>")
    elif isinstance(item, Poly):
        attrs = {"d": "".join("M" + _pairs(r) + "Z" for r in item.rings)}
        _svg_paint(attrs, item.paint, line=False)
        if len(item.rings) > 1:
            attrs["fill-rule"] = "evenodd"
        _leaf(out, "path", attrs)
    elif isinstance(item, Line):
        attrs = {"d": "M" + _pairs(item.points)}
        _svg_paint(attrs, Paint(None, item.paint.stroke, item.paint.width, item.paint.dash), line=True)
        _leaf(out, "path", attrs)
    elif isinstance(item, Circle):
        attrs = {"cx": _num(item.centre[0]), "cy": _num(item.centre[1]), "r": _num(item.r)}
        _svg_paint(attrs, item.paint, line=False)
        _leaf(out, "circle", attrs)
    else:
        attrs = {
            "x": _num(item.at[0]),
            "y": _num(item.at[1]),
            "font-size": _num(item.size),
            "fill": item.colour,
            "text-anchor": item.anchor,
            "dominant-baseline": "central",
        }
        if item.bold:
            attrs["font-weight"] = "bold"
        if item.italic:
            attrs["font-style"] = "italic"
        if item.halo:
            attrs["stroke"] = HALO
            attrs["stroke-width"] = _num(item.halo)
            attrs["stroke-linejoin"] = "round"
            attrs["paint-order"] = "stroke"
        _leaf(out, "text", attrs, item.text)


def scene_svg(scene: Scene) -> str:
    """The scene as an SVG document."""
    root = {
        "xmlns": "http://www.w3.org/2000/svg",
        "width": f"{scene.width:g}",
        "height": f"{scene.height:g}",
        "viewBox": f"0 0 {scene.width:g} {scene.height:g}",
        "font-family": "Helvetica, Arial, sans-serif",
    }
    out = ['<?xml version="1.0" encoding="UTF-8"?>\n', _tag("svg", root), ">\n "]
    _leaf(out, "title", {}, scene.title)
    out.append("\n ")
    _leaf(out, "rect", {"width": "100%", "height": "100%", "fill": BACKGROUND})
    for item in scene.items:
        out.append("\n ")
        _svg_item(out, item, 1)
    out.append("\n</svg>\n")
    return "".join(out)
