"""Orders as plain values. Every order has one canonical text form (``text()``)
that ``parse_canonical`` reads back to an equal object. The lenient reader for
what players actually type (full names, French, typographic dashes) produces
these same objects."""

from __future__ import annotations

import functools
import re
from typing import TypeAlias

import msgspec

from moonshine.text import money
from moonshine.text.money import Money
from moonshine.variants.moonshine.map import UnitKind


class UnitRef(msgspec.Struct, frozen=True, order=True):
    """A unit on the board: its type and district. Unique, since a district holds at
    most one L and one H (R4)."""

    kind: UnitKind
    district: str

    def text(self) -> str:
        return f"{self.kind.value} {self.district}"

    def __str__(self) -> str:
        return self.text()


# -- unit orders (resolved by the adjudicator) ----------------------------------


class Hold(msgspec.Struct, frozen=True):
    unit: UnitRef

    def text(self) -> str:
        return f"{self.unit.text()} hold"


class Move(msgspec.Struct, frozen=True):
    """``H LOO - NSS``; an L may go two steps, naming its path: ``L LOO - NSS - KEN``
    (path = ("NSS",)); a transported H may name its carriers: ``H LOO - BRO via NSS``."""

    unit: UnitRef
    dest: str
    path: tuple[str, ...] = ()  # intermediate district of an L's two-step move
    via: tuple[str, ...] = ()  # carriers' districts, in order, for a transported H

    def text(self) -> str:
        steps = " - ".join((self.unit.text(), *self.path, self.dest))
        return steps + (f" via {', '.join(self.via)}" if self.via else "")


class SupportHold(msgspec.Struct, frozen=True):
    """``L KEN / H HYD``: support the unit in HYD where it stands."""

    unit: UnitRef
    target: UnitRef

    def text(self) -> str:
        return f"{self.unit.text()} / {self.target.text()}"


class SupportMove(msgspec.Struct, frozen=True):
    """``H GRA / H LOO - NSS``."""

    unit: UnitRef
    target: UnitRef
    dest: str

    def text(self) -> str:
        return f"{self.unit.text()} / {self.target.text()} - {self.dest}"


class SupportAssault(msgspec.Struct, frozen=True):
    """``H BRO / H LOO x NSS``: support an assault on the station in NSS."""

    unit: UnitRef
    target: UnitRef
    station: str

    def text(self) -> str:
        return f"{self.unit.text()} / {self.target.text()} x {self.station}"


class Assault(msgspec.Struct, frozen=True):
    """``H LOO x NSS``: a henchman assaults the police station in NSS (R11)."""

    unit: UnitRef
    station: str

    def text(self) -> str:
        return f"{self.unit.text()} x {self.station}"


class Transport(msgspec.Struct, frozen=True):
    """``L NSS -> H LOO - BRO``: the L in NSS carries the H from LOO to BRO (R10)."""

    unit: UnitRef
    target: UnitRef
    dest: str

    def text(self) -> str:
        return f"{self.unit.text()} -> {self.target.text()} - {self.dest}"


UnitOrder: TypeAlias = Hold | Move | SupportHold | SupportMove | SupportAssault | Assault | Transport


class Retreat(msgspec.Struct, frozen=True):
    """``retreat H LOO - NSS, GRA``: where the unit goes if dislodged, in preference order (R7)."""

    unit: UnitRef
    choices: tuple[str, ...]

    def text(self) -> str:
        return f"retreat {self.unit.text()} - {', '.join(self.choices)}"


# -- economy orders ---------------------------------------------------------------


class Recruit(msgspec.Struct, frozen=True):
    kind: UnitKind
    district: str

    def text(self) -> str:
        return f"recruit {self.kind.value} {self.district}"


class Disband(msgspec.Struct, frozen=True):
    unit: UnitRef

    def text(self) -> str:
        return f"disband {self.unit.text()}"


class Sell(msgspec.Struct, frozen=True):
    """``sell 8``; ``sell all`` (crates None) sells the most the gang can, as no order does (R15)."""

    crates: int | None

    def text(self) -> str:
        return "sell all" if self.crates is None else f"sell {self.crates}"


class Store(msgspec.Struct, frozen=True):
    warehouses: tuple[str, ...]

    def text(self) -> str:
        return f"store {', '.join(self.warehouses)}"


class Bribe(msgspec.Struct, frozen=True):
    station: str
    amount: Money  # cents

    def text(self) -> str:
        return f"bribe {self.station} {money.fmt(self.amount).lstrip('$')}"


EconomyOrder: TypeAlias = Recruit | Disband | Sell | Store | Bribe
Order: TypeAlias = UnitOrder | Retreat | EconomyOrder

UNIT_ORDER_TYPES = (Hold, Move, SupportHold, SupportMove, SupportAssault, Assault, Transport)


def unit_of(order: Order) -> UnitRef | None:
    """The unit an order is given to (None for orders to the gang: recruit, sell, ...)."""
    if isinstance(order, Recruit | Sell | Store | Bribe):
        return None
    return order.unit


# -- the canonical form, read back ------------------------------------------------

_CODE = r"[A-Z]{3}"
_UNIT = rf"([LH]) ({_CODE})"
_LIST = rf"{_CODE}(?:, {_CODE})*"
_FORM_TEXTS: tuple[tuple[str, str], ...] = (
    (rf"^{_UNIT} hold$", "hold"),
    (rf"^{_UNIT} - ({_CODE})(?: - ({_CODE}))?(?: via ({_LIST}))?$", "move"),
    (rf"^{_UNIT} / {_UNIT}$", "support_hold"),
    (rf"^{_UNIT} / {_UNIT} - ({_CODE})$", "support_move"),
    (rf"^{_UNIT} / {_UNIT} x ({_CODE})$", "support_assault"),
    (rf"^{_UNIT} x ({_CODE})$", "assault"),
    (rf"^{_UNIT} -> {_UNIT} - ({_CODE})$", "transport"),
    (rf"^retreat {_UNIT} - ({_LIST})$", "retreat"),
    (rf"^recruit ([LH]) ({_CODE})$", "recruit"),
    (rf"^disband {_UNIT}$", "disband"),
    (r"^sell (\d+|all)$", "sell"),
    (rf"^store ({_LIST})$", "store"),
    (rf"^bribe ({_CODE}) (\d+(?:\.\d\d?)?)$", "bribe"),
)


@functools.cache
def _forms() -> list[tuple[re.Pattern[str], str]]:
    """The canonical forms' patterns, compiled when a saved order is first read back
    (checking a player's orders never needs them)."""
    return [(re.compile(text), form) for text, form in _FORM_TEXTS]


def _ref(kind: str, district: str) -> UnitRef:
    return UnitRef(UnitKind(kind), district)


def _codes(text: str) -> tuple[str, ...]:
    return tuple(text.split(", "))


def parse_canonical(text: str) -> Order:
    """Read an order in exactly its canonical form (as ``text()`` prints it).
    Raises ValueError otherwise. Case files and saved results use this form."""
    t = text.strip()
    for pattern, form in _forms():
        m = pattern.match(t)
        if not m:
            continue
        g = m.groups()
        if form == "hold":
            return Hold(_ref(g[0], g[1]))
        if form == "move":
            if g[3] is not None:  # two steps: the first code is the path
                return Move(_ref(g[0], g[1]), g[3], (g[2],), _codes(g[4]) if g[4] else ())
            return Move(_ref(g[0], g[1]), g[2], (), _codes(g[4]) if g[4] else ())
        if form == "support_hold":
            return SupportHold(_ref(g[0], g[1]), _ref(g[2], g[3]))
        if form == "support_move":
            return SupportMove(_ref(g[0], g[1]), _ref(g[2], g[3]), g[4])
        if form == "support_assault":
            return SupportAssault(_ref(g[0], g[1]), _ref(g[2], g[3]), g[4])
        if form == "assault":
            return Assault(_ref(g[0], g[1]), g[2])
        if form == "transport":
            return Transport(_ref(g[0], g[1]), _ref(g[2], g[3]), g[4])
        if form == "retreat":
            return Retreat(_ref(g[0], g[1]), _codes(g[2]))
        if form == "recruit":
            return Recruit(UnitKind(g[0]), g[1])
        if form == "disband":
            return Disband(_ref(g[0], g[1]))
        if form == "sell":
            return Sell(None if g[0] == "all" else int(g[0]))
        if form == "store":
            return Store(_codes(g[0]))
        if form == "bribe":
            return Bribe(g[0], money.dollars(g[1]))
    raise ValueError(f"not an order in canonical form: {text!r}")


# -- the notation in a player's language ------------------------------------------


class Grammar(msgspec.Struct, frozen=True):
    """The words of the order notation in one language. The symbols are the rules':
    ``-`` a move, ``x`` an assault (R11); the districts are the map's codes and
    the unit letters H and L are the same in English and French (homme de main,
    livreur). What English writes with a symbol (``/``, ``->``) French writes with
    its verb (``soutient``, ``transporte``), as French players do."""

    hold: str  # "{u} hold"
    support: str  # "{u} / {t}"
    transport: str  # "{u} -> {t}"
    via: str
    retreat: str
    recruit: str
    disband: str
    sell: str
    sell_all: str
    store: str
    bribe: str
    decimal: str  # the decimal mark of a bribe's amount


GRAMMARS: dict[str, Grammar] = {
    "en": Grammar(
        hold="{u} hold",
        support="{u} / {t}",
        transport="{u} -> {t}",
        via="via",
        retreat="retreat",
        recruit="recruit",
        disband="disband",
        sell="sell",
        sell_all="all",
        store="store",
        bribe="bribe",
        decimal=".",
    ),
    "fr": Grammar(
        hold="{u} tient",
        support="{u} soutient {t}",
        transport="{u} transporte {t}",
        via="par",
        retreat="retraite",
        recruit="recruter",
        disband="licencier",
        sell="vendre",
        sell_all="tout",
        store="stocker",
        bribe="corrompre",
        decimal=",",
    ),
}


def notation(order: Order, language: str = "en") -> str:
    """``order`` as a player of ``language`` writes it: English is the canonical text
    (``text()``), French says ``H LOO tient``, ``L KEN soutient H HYD``, ``recruter H
    LOO``, ``corrompre NSS 12,50``. The order parser (``moonshine.variants.moonshine.parser``) reads every
    one of them back to ``order``; a language without a grammar gets the canonical text."""
    g = GRAMMARS.get(language)
    if g is None:
        return order.text()
    if isinstance(order, Hold):
        return g.hold.format(u=order.unit.text())
    if isinstance(order, Move):
        steps = " - ".join((order.unit.text(), *order.path, order.dest))
        return steps + (f" {g.via} {', '.join(order.via)}" if order.via else "")
    if isinstance(order, SupportHold):
        return g.support.format(u=order.unit.text(), t=order.target.text())
    if isinstance(order, SupportMove):
        return g.support.format(u=order.unit.text(), t=order.target.text()) + f" - {order.dest}"
    if isinstance(order, SupportAssault):
        return g.support.format(u=order.unit.text(), t=order.target.text()) + f" x {order.station}"
    if isinstance(order, Assault):
        return f"{order.unit.text()} x {order.station}"
    if isinstance(order, Transport):
        return g.transport.format(u=order.unit.text(), t=order.target.text()) + f" - {order.dest}"
    if isinstance(order, Retreat):
        return f"{g.retreat} {order.unit.text()} - {', '.join(order.choices)}"
    if isinstance(order, Recruit):
        return f"{g.recruit} {order.kind.value} {order.district}"
    if isinstance(order, Disband):
        return f"{g.disband} {order.unit.text()}"
    if isinstance(order, Sell):
        return f"{g.sell} {g.sell_all if order.crates is None else order.crates}"
    if isinstance(order, Store):
        return f"{g.store} {', '.join(order.warehouses)}"
    amount = money.fmt(order.amount).lstrip("$").replace(".", g.decimal)
    return f"{g.bribe} {order.station} {amount}"


class Spoken(msgspec.Struct, frozen=True):
    """An order inside a sentence for a player, in the notation of the sentence's
    language (``H HYD tient`` in French): a ``moonshine.text.catalogue.Localized`` value."""

    order: Order

    def text(self, language: str = "en") -> str:
        return notation(self.order, language)


def spoken(order: Order) -> Spoken:
    """The order as a value inside a sentence for a player (``Spoken``)."""
    return Spoken(order)


def restate(text: str, language: str) -> str:
    """An order's canonical text (as results files store it) in the notation of
    ``language``; a text that is no canonical order stays as it is."""
    if language == "en" or not text:
        return text
    try:
        return notation(parse_canonical(text), language)
    except ValueError:
        return text
