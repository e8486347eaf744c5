"""A Moonshine gang's orders as JSON objects (``docs/orders.schema.json``, the
``moonshine`` family), and each one's canonical line (``moonshine.variants.moonshine.orders``),
which the order reader reads as if the player had typed it::

    {"type": "hold", "unit": "H LOO"}                                  H LOO hold
    {"type": "move", "unit": "L LOO", "to": "KEN", "path": ["NSS"]}    L LOO - NSS - KEN
    {"type": "move", "unit": "H LOO", "to": "BRO", "via": ["NSS"]}     H LOO - BRO via NSS
    {"type": "support", "unit": "L KEN", "target": "H HYD"}            L KEN / H HYD
    {"type": "support", "unit": "H GRA", "target": "H LOO", "to": "NSS"}      H GRA / H LOO - NSS
    {"type": "support", "unit": "H BRO", "target": "H LOO", "assault": "NSS"} H BRO / H LOO x NSS
    {"type": "transport", "unit": "L NSS", "target": "H LOO", "to": "BRO"}    L NSS -> H LOO - BRO
    {"type": "assault", "unit": "H LOO", "station": "NSS"}             H LOO x NSS
    {"type": "retreat", "unit": "H LOO", "to": ["NSS", "GRA"]}         retreat H LOO - NSS, GRA
    {"type": "recruit", "unit": "H LOO"}                               recruit H LOO
    {"type": "disband", "unit": "H LOO"}                               disband H LOO
    {"type": "sell", "crates": 8}, {"type": "sell", "crates": "all"}   sell 8, sell all
    {"type": "store", "warehouses": ["NOC", "ALB"]}                    store NOC, ALB
    {"type": "bribe", "station": "LOG", "amount": 4.5}                 bribe LOG 4.50

Pure."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from moonshine.text import money
from moonshine.text.catalogue import say
from moonshine.variants.moonshine.map import UnitKind
from moonshine.variants.moonshine.orders import (
    Assault,
    Bribe,
    Disband,
    Hold,
    Move,
    Order,
    Recruit,
    Retreat,
    Sell,
    Store,
    SupportAssault,
    SupportHold,
    SupportMove,
    Transport,
    UnitRef,
)
from moonshine.variants.ordersjson import Crates, Dollars, OrderShape, Text, Texts

UNIT = Text("^[HL] [A-Z]{3}$", say("a unit such as {example}", example="H LOO"))
DISTRICT = Text("^[A-Z]{3}$", say("a district such as {example}", example="NSS"))
STATION = Text("^[A-Z]{3}$", say("a district with a police station, such as {example}", example="LOG"))
DISTRICTS = Texts(DISTRICT, say("a list of districts, such as {example}", example='["NSS", "GRA"]'))

SHAPES: dict[str, OrderShape] = {
    "hold": OrderShape({"unit": UNIT}),
    "move": OrderShape(
        {"unit": UNIT, "to": DISTRICT},
        {
            "path": Texts(
                DISTRICT, say("the district an L passes through, such as {example}", example='["NSS"]'), 1, 1
            ),
            "via": Texts(DISTRICT, say("the carriers' districts, such as {example}", example='["NSS"]')),
        },
    ),
    "support": OrderShape({"unit": UNIT, "target": UNIT}, {"to": DISTRICT, "assault": STATION}, ("to", "assault")),
    "transport": OrderShape({"unit": UNIT, "target": UNIT, "to": DISTRICT}),
    "assault": OrderShape({"unit": UNIT, "station": STATION}),
    "retreat": OrderShape({"unit": UNIT, "to": DISTRICTS}),
    "recruit": OrderShape({"unit": UNIT}),
    "disband": OrderShape({"unit": UNIT}),
    "sell": OrderShape({"crates": Crates()}),
    "store": OrderShape({"warehouses": Texts(DISTRICT, DISTRICTS.what, 1, 20)}),
    "bribe": OrderShape({"station": STATION, "amount": Dollars()}),
}


def _ref(text: str) -> UnitRef:
    kind, district = text.split()
    return UnitRef(UnitKind(kind), district)


def _code(text: str) -> str:
    """A district's code as the object gives it (a line break after it, which a JSON
    Schema pattern lets through, left out)."""
    return text.strip()


def _codes(texts: list[str]) -> tuple[str, ...]:
    return tuple(_code(t) for t in texts)


def _dollars(amount: float) -> str:
    """An amount as the notation writes it: ``4.50``; an amount the rules do not allow
    (``4.25``) as written, for the order reader to refuse with its reason."""
    cents = float(amount) * 100
    if cents.is_integer() and int(cents) % money.STEP == 0:
        return money.fmt(int(cents)).lstrip("$")
    return f"{amount:g}"


class MoonshineOrders:
    """The ``moonshine`` family's orders as JSON (``moonshine.variants.ordersjson.OrderForms``)."""

    family = "moonshine"
    shapes: Mapping[str, OrderShape] = SHAPES

    def line(self, order: Mapping[str, Any]) -> str:
        kind = order["type"]
        if kind == "bribe":  # not through Bribe: an amount the rules refuse is the reader's to refuse
            return f"bribe {_code(order['station'])} {_dollars(order['amount'])}"
        return self.order(order).text()

    def order(self, order: Mapping[str, Any]) -> Order:
        """The order value of an object that fits its shape (a bribe of whole steps)."""
        kind = order["type"]
        if kind == "hold":
            return Hold(_ref(order["unit"]))
        if kind == "move":
            return Move(
                _ref(order["unit"]), _code(order["to"]), _codes(order.get("path", [])), _codes(order.get("via", []))
            )
        if kind == "support":
            unit, target = _ref(order["unit"]), _ref(order["target"])
            if "to" in order:
                return SupportMove(unit, target, _code(order["to"]))
            if "assault" in order:
                return SupportAssault(unit, target, _code(order["assault"]))
            return SupportHold(unit, target)
        if kind == "transport":
            return Transport(_ref(order["unit"]), _ref(order["target"]), _code(order["to"]))
        if kind == "assault":
            return Assault(_ref(order["unit"]), _code(order["station"]))
        if kind == "retreat":
            return Retreat(_ref(order["unit"]), _codes(order["to"]))
        if kind == "recruit":
            ref = _ref(order["unit"])
            return Recruit(ref.kind, ref.district)
        if kind == "disband":
            return Disband(_ref(order["unit"]))
        if kind == "sell":
            crates = order["crates"]
            return Sell(None if crates == "all" else int(crates))
        if kind == "store":
            return Store(_codes(order["warehouses"]))
        if kind == "bribe":
            return Bribe(_code(order["station"]), money.dollars(order["amount"]))
        raise ValueError(f"no order of type {kind!r} in a Moonshine game")


FORMS = MoonshineOrders()
