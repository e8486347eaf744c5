"""A classic power's orders as JSON objects (``docs/orders.schema.json``, the
``classic`` family), and each one's line in standard notation
(``moonshine.variants.classic.orders``), which the classic reader reads as if the
player had typed it::

    {"type": "hold", "unit": "A PAR"}                                   A PAR H
    {"type": "move", "unit": "F STP/SC", "to": "BOT"}                   F STP/SC - BOT
    {"type": "move", "unit": "A LON", "to": "NWY", "via_convoy": true}  A LON - NWY via convoy
    {"type": "support", "unit": "A MUN", "target": "A PAR"}             A MUN S A PAR
    {"type": "support", "unit": "A MUN", "target": "A PAR", "to": "BUR"}  A MUN S A PAR - BUR
    {"type": "convoy", "unit": "F NTH", "target": "A LON", "to": "NWY"}   F NTH C A LON - NWY
    {"type": "retreat", "unit": "A PAR", "to": "BUR"}                   A PAR R BUR
    {"type": "disband", "unit": "A PAR"}                                A PAR D
    {"type": "build", "unit": "F STP/NC"}                               F STP/NC B
    {"type": "waive"}                                                   WAIVE

A supported or convoyed unit may leave out its type (``"target": "PAR"``), as the
DATC allows (4.C.1). ``disband`` is a dislodged unit's disband in a retreat phase and
a removal in winter. Pure."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from moonshine.text.catalogue import say
from moonshine.variants.classic.board import Kind
from moonshine.variants.classic.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Retreat,
    SupportHold,
    SupportMove,
    Target,
    UnitRef,
    Waive,
)
from moonshine.variants.ordersjson import Flag, OrderShape, Text

_REGION = "[A-Z]{3}(/(NC|SC|EC|WC))?"
UNIT = Text(f"^[AF] {_REGION}$", say("a unit such as {example}", example="A PAR, F STP/SC"))
TARGET = Text(f"^([AF] )?{_REGION}$", say("a unit such as {example}", example="A PAR, F STP/SC"))
REGION = Text(f"^{_REGION}$", say("a province such as {example}", example="BUR, STP/NC"))

SHAPES: dict[str, OrderShape] = {
    "hold": OrderShape({"unit": UNIT}),
    "move": OrderShape({"unit": UNIT, "to": REGION}, {"via_convoy": Flag()}),
    "support": OrderShape({"unit": UNIT, "target": TARGET}, {"to": REGION}),
    "convoy": OrderShape({"unit": UNIT, "target": TARGET, "to": REGION}),
    "retreat": OrderShape({"unit": UNIT, "to": REGION}),
    "disband": OrderShape({"unit": UNIT}),
    "build": OrderShape({"unit": UNIT}),
    "waive": OrderShape({}),
}


def _unit(text: str) -> UnitRef:
    kind, region = text.split()
    return UnitRef(Kind(kind), region)


def _target(text: str) -> Target:
    parts = text.split()
    return Target(Kind(parts[0]), parts[1]) if len(parts) == 2 else Target(None, parts[0])


class ClassicOrders:
    """The ``classic`` family's orders as JSON (``moonshine.variants.ordersjson.OrderForms``)."""

    family = "classic"
    shapes: Mapping[str, OrderShape] = SHAPES

    def line(self, order: Mapping[str, Any]) -> str:
        return self.order(order).text()

    def order(self, order: Mapping[str, Any]) -> Order:
        """The order value of an object that fits its shape."""
        kind = order["type"]
        if kind == "waive":
            return Waive()
        unit = _unit(order["unit"])
        if kind == "hold":
            return Hold(unit)
        if kind == "move":
            return Move(unit, order["to"].strip(), bool(order.get("via_convoy", False)))
        if kind == "support":
            target = _target(order["target"])
            return SupportMove(unit, target, order["to"].strip()) if "to" in order else SupportHold(unit, target)
        if kind == "convoy":
            return Convoy(unit, _target(order["target"]), order["to"].strip())
        if kind == "retreat":
            return Retreat(unit, order["to"].strip())
        if kind == "disband":
            return Disband(unit)
        if kind == "build":
            return Build(unit)
        raise ValueError(f"no order of type {kind!r} in a classic game")


FORMS = ClassicOrders()
