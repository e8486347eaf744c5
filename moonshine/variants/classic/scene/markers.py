"""A unit's marker (an army's disc, a fleet's hull, in its power's colour) and what it
shows: a ring round a dislodged unit, a badge on a built one, a cross over a
disbanded one or over a faded one that could not be built; the cross of a failure."""

from __future__ import annotations

from moonshine.picture.shapes import Circle, Group, Item, Label, Line, Paint, Poly, Pt, ink, text_on
from moonshine.text.catalogue import fmt
from moonshine.variants.classic.board import Kind
from moonshine.variants.classic.scene.canvas import Canvas
from moonshine.variants.classic.scene.style import CROSS, DISLODGED, HALO, KIND_SIZE, TEXT, UNIT_R
from moonshine.variants.classic.state import Unit


def cross(c: Pt, r: float = 6.0) -> tuple[Item, ...]:
    """The cross of a failed order or a disbanded unit, centred on ``c``."""
    a = ((c[0] - r, c[1] - r), (c[0] + r, c[1] + r))
    b = ((c[0] - r, c[1] + r), (c[0] + r, c[1] - r))
    return (
        Line(a, Paint(stroke=HALO, width=5.5)),
        Line(b, Paint(stroke=HALO, width=5.5)),
        Line(a, Paint(stroke=CROSS, width=2.6)),
        Line(b, Paint(stroke=CROSS, width=2.6)),
    )


def _fleet_hull(c: Pt, r: float = UNIT_R) -> tuple[Pt, ...]:
    """A fleet's marker: a boat's hull, as wide as an army's disc."""
    x, y = c
    w, h = r * 1.25, r * 0.95
    return (
        (x - w, y - h),
        (x + w, y - h),
        (x + w * 0.62, y + h),
        (x - w * 0.62, y + h),
    )


def unit_marker(kind: Kind, colour: str, c: Pt) -> tuple[Item, ...]:
    """A unit's marker centred on ``c`` in ``colour``: an army's disc or a fleet's hull, with its letter."""
    outline = Paint(fill=colour, stroke=ink(colour), width=1.6)
    shape: Item = Circle(c, UNIT_R, outline) if kind is Kind.ARMY else Poly((_fleet_hull(c),), outline)
    halo: Item = (
        Circle(c, UNIT_R + 1.8, Paint(fill=HALO))
        if kind is Kind.ARMY
        else Poly((_fleet_hull(c, UNIT_R + 1.8),), Paint(fill=HALO))
    )
    return (halo, shape, Label((c[0], c[1] + 0.5), kind.value, KIND_SIZE, text_on(colour), bold=True))


def unit_group(sc: Canvas, unit: Unit, at: Pt, mark: str, role: str = "unit") -> Group:
    """A unit as drawn at ``at``, with what ``mark`` shows of it ("dislodged", "built",
    "disbanded", "unbuilt": a build that failed, or "")."""
    colour = sc.colour(unit.power)
    items: list[Item] = list(unit_marker(unit.kind, colour, at))
    if mark == "dislodged":
        items[:0] = [
            Circle(at, UNIT_R + 5.0, Paint(stroke=HALO, width=5.0)),
            Circle(at, UNIT_R + 5.0, Paint(stroke=DISLODGED, width=2.6)),
        ]
    elif mark == "disbanded":
        items.extend(cross(at, 9.0))
    elif mark == "unbuilt":  # a build that failed: the unit that was not built, faded and crossed
        items = [Group((), tuple(items), 0.45), *cross(at, 9.0)]
    elif mark == "built":
        badge = (at[0] + UNIT_R * 0.95, at[1] + UNIT_R * 0.95)
        items.append(Circle(badge, 6.5, Paint(fill=HALO, stroke=TEXT, width=1.4)))
        items.append(Line(((badge[0] - 3.6, badge[1]), (badge[0] + 3.6, badge[1])), Paint(stroke=TEXT, width=1.8)))
        items.append(Line(((badge[0], badge[1] - 3.6), (badge[0], badge[1] + 3.6)), Paint(stroke=TEXT, width=1.8)))
    attrs = [("class", role), ("data-unit", unit.label()), ("data-power", unit.power)]
    if mark:
        attrs.append(("data-mark", mark))
    title = f"{sc.gmap.power_name(unit.power, sc.language)}{fmt(sc.language, 'format.colon')}{unit.label()}" + (
        f" ({sc.words[mark]})" if mark else ""
    )
    attrs.append(("data-title", title))
    return Group(tuple(attrs), tuple(items))
