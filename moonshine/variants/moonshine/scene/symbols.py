"""The map picture's palette and symbols: the colours of districts, water, stations
and raids; the features (a barrel, a glass, a shed), a police badge, a unit's
marker and a dislodged unit's faded one, the cross of a failure or a disband, the
raid's badge; and where each stands about a district's label point."""

from __future__ import annotations

import math
from collections.abc import Sequence

from moonshine.picture.colours import mix
from moonshine.picture.shapes import (
    SYMBOL_INK,
    TEXT,
    Circle,
    Group,
    Item,
    Label,
    Line,
    Paint,
    Poly,
    Pt,
    ink,
    luminance,
    regular_polygon,
    rounded_rect,
    text_on,
)
from moonshine.variants.moonshine.map import Feature, Gang, UnitKind
from moonshine.variants.moonshine.state import Unit

NEUTRAL = "#f7f4ec"


WATER = "#d6e6f2"


WATER_TEXT = "#5b88ad"


STATION_FILL = "#1f3a93"


RAID_RED = "#d0021b"


CROSS = "#111111"


TINT = 0.42  # share of the gang colour in a controlled district's fill


def tint(colour: str) -> str:
    """The light fill of a district controlled by a gang of this colour."""
    return mix(colour, "#ffffff", TINT)


def district_fill(gang: Gang) -> str:
    """A district's fill under ``gang``: the map's ``fill`` for it (chosen so that every
    reader tells the gangs' districts apart: tests/picture/test_colours.py), else a tint of
    its colour."""
    return gang.fill or tint(gang.colour)


CODE_SIZE = 16.0  # 10.7 px when the 1000 px picture is shown at a mail's 672 px


UNIT_SIZE = 15.0  # the letter on a unit's marker (10 px at 672 px)


UNIT_H = 19.0  # side of an H marker


UNIT_L = 9.8  # radius of an L marker


UNIT_GAP = 11.0  # half the distance between an H and an L side by side


def code_at(p: Pt) -> Pt:
    """Where a district's code is written, about its label point ``p``."""
    return p[0], p[1] - 9.0


def units_at(p: Pt) -> Pt:
    """Where a district's units stand, about its label point ``p``."""
    return p[0], p[1] + 11.0


def feature_at(p: Pt) -> Pt:
    """Where a district's feature is drawn, about its label point ``p``."""
    return p[0] - 29.0, p[1] - 9.0


def station_at(p: Pt) -> Pt:
    """Where a district's police station is drawn, about its label point ``p``."""
    return p[0] + 30.0, p[1] - 9.0


def feature_symbol(kind: Feature, c: Pt, scale: float = 1.0) -> tuple[Item, ...]:
    """A feature's symbol centred on ``c``: a barrel (supply), a glass (speakeasy), a shed (warehouse)."""
    x, y = c
    k = scale
    if kind is Feature.SUPPLY:  # a barrel
        w, h = 4.6 * k, 6.0 * k
        bulge = [math.sin(math.pi * i / 8) for i in range(9)]
        left = [(x - w * (0.78 + 0.22 * b), y - h + 2 * h * i / 8) for i, b in enumerate(bulge)]
        outline = (*left, *((2 * x - px, py) for px, py in reversed(left)))
        return (
            Poly((outline,), Paint(fill="#c98b4b", stroke=SYMBOL_INK, width=1.2 * k)),
            Line(((x - w * 0.93, y - h * 0.45), (x + w * 0.93, y - h * 0.45)), Paint(stroke=SYMBOL_INK, width=1.0 * k)),
            Line(((x - w * 0.93, y + h * 0.45), (x + w * 0.93, y + h * 0.45)), Paint(stroke=SYMBOL_INK, width=1.0 * k)),
        )
    if kind is Feature.SPEAKEASY:  # a cocktail glass
        bowl = ((x - 5.8 * k, y - 5.5 * k), (x + 5.8 * k, y - 5.5 * k), (x, y + 0.8 * k))
        return (
            Line(((x, y + 0.5 * k), (x, y + 5.0 * k)), Paint(stroke=SYMBOL_INK, width=1.4 * k)),
            Line(((x - 3.4 * k, y + 5.4 * k), (x + 3.4 * k, y + 5.4 * k)), Paint(stroke=SYMBOL_INK, width=1.4 * k)),
            Poly((bowl,), Paint(fill="#e84393", stroke=SYMBOL_INK, width=1.2 * k)),
        )
    if kind is Feature.WAREHOUSE:  # a shed with a roof
        w, h = 5.5 * k, 5.5 * k
        house = ((x - w, y + h), (x - w, y - h * 0.2), (x, y - h), (x + w, y - h * 0.2), (x + w, y + h))
        door = ((x - 1.8 * k, y + h), (x - 1.8 * k, y + h * 0.1), (x + 1.8 * k, y + h * 0.1), (x + 1.8 * k, y + h))
        return (
            Poly((house,), Paint(fill="#f5f1e3", stroke=SYMBOL_INK, width=1.2 * k)),
            Poly((door,), Paint(fill=SYMBOL_INK)),
        )
    return ()


def station_symbol(c: Pt, corrupter: str | None, scale: float = 1.0) -> tuple[Item, ...]:
    """A police badge: a blue star on a white disc; on a corrupted station, a white
    star on a disc of the corrupting gang's colour."""
    star = regular_polygon((c[0], c[1] + 0.4 * scale), 6.6 * scale, 2.9 * scale, 5)
    disc = Paint(fill="#ffffff" if corrupter is None else corrupter, stroke=STATION_FILL if corrupter is None else TEXT)
    return (
        Circle(c, 8.6 * scale, Paint(disc.fill, disc.stroke, 1.4 * scale)),
        Poly((star,), Paint(fill=STATION_FILL if corrupter is None else "#ffffff")),
    )


def unit_marker(kind: UnitKind, gang_colour: str, c: Pt) -> tuple[Item, ...]:
    """A unit's marker centred on ``c`` in its gang's colour: a rounded square for an H, a disc for an L."""
    paint = Paint(fill=gang_colour, stroke=ink(gang_colour) if luminance(gang_colour) > 0.3 else "#ffffff", width=1.3)
    if kind is UnitKind.H:
        h = UNIT_H / 2
        shape: Item = Poly((rounded_rect(c[0] - h, c[1] - h, UNIT_H, UNIT_H, 2.6),), paint)
    else:
        shape = Circle(c, UNIT_L, paint)
    outline = Circle(c, UNIT_L + 2.2, Paint(fill="#ffffff")) if kind is UnitKind.L else None
    halo: tuple[Item, ...] = (
        (outline,)
        if outline
        else (
            Poly(
                (rounded_rect(c[0] - UNIT_H / 2 - 1.8, c[1] - UNIT_H / 2 - 1.8, UNIT_H + 3.6, UNIT_H + 3.6, 4.0),),
                Paint(fill="#ffffff"),
            ),
        )
    )
    return (*halo, shape, Label((c[0], c[1] + 0.5), kind.value, UNIT_SIZE, text_on(gang_colour), bold=True))


GHOST_OPACITY = 0.5


GHOST_SHIFT = 21.0  # how far left of the units now in its district a dislodged unit is drawn


def ghost_marker(kind: UnitKind, gang_colour: str, c: Pt, *, disbanded: bool) -> tuple[Item, ...]:
    """A dislodged unit: its marker faded, ringed by a dashed line; crossed out when disbanded."""
    ring = Circle(c, UNIT_H * 0.78, Paint(stroke=ink(gang_colour), width=1.3, dash=(3.0, 2.2)))
    faded = Group((), unit_marker(kind, gang_colour, c), GHOST_OPACITY)
    return (faded, ring, *(cross(c, 6.0) if disbanded else ()))


def unit_positions(units: Sequence[Unit], at: Pt) -> list[tuple[Unit, Pt]]:
    """Units of one district side by side (H on the left, L on the right)."""
    ordered = sorted(units, key=lambda u: (u.kind is not UnitKind.H, u.gang))
    n = len(ordered)
    return [(u, (at[0] + (2 * i - (n - 1)) * UNIT_GAP, at[1])) for i, u in enumerate(ordered)]


def cross(c: Pt, r: float = 5.5) -> tuple[Item, ...]:
    """The cross of a failed order or a disbanded unit, centred on ``c``."""
    a = ((c[0] - r, c[1] - r), (c[0] + r, c[1] + r))
    b = ((c[0] - r, c[1] + r), (c[0] + r, c[1] - r))
    return (
        Line(a, Paint(stroke="#ffffff", width=5.2)),
        Line(b, Paint(stroke="#ffffff", width=5.2)),
        Line(a, Paint(stroke=CROSS, width=2.4)),
        Line(b, Paint(stroke=CROSS, width=2.4)),
    )


def raid_badge(text: str, c: Pt) -> tuple[Item, ...]:
    """The raid's badge (``text`` on red) centred on ``c``."""
    size = 11.0
    w, h = len(text) * 0.68 * size + 8.0, 15.0
    box = rounded_rect(c[0] - w / 2, c[1] - h / 2, w, h, 3.0)
    return (
        Poly((box,), Paint(fill=RAID_RED, stroke="#ffffff", width=1.2)),
        Label((c[0], c[1] + 0.4), text, size, "#ffffff", bold=True),
    )
