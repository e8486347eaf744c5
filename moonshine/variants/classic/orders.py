"""Orders of classic Diplomacy in standard notation, as plain values.

Each order has one canonical text (``text()``) that ``parse_order`` reads back to
an equal value::

    A PAR H                  F NTH C A LON - NWY        A PAR R BUR
    A PAR - BUR              A MUN S A PAR - BUR        A PAR D
    F STP/SC - BOT           A MUN S A PAR              F LON B
    A LON - NWY via convoy   WAIVE

The reader also takes the usual variants: ``->`` for ``-``, words for letters
(``supports``, ``convoys``, ``holds``, ``retreats``, ``disband``, ``remove``,
``build``, ``waive``), ``stp(sc)`` for ``STP/SC``, ``build A war`` as well as
``A war build``, any case. A supported or convoyed unit may omit its type
(``F NTH C LON - BEL``), as the DATC allows (4.C.1).

French players write the same letters (A armée, F flotte; S soutien, C convoi,
R retraite, D dissolution) or the words, which ``notation(order, "fr")`` writes
and the reader takes back::

    A PAR tient              F NTH convoie A LON - NWY   A PAR retraite BUR
    A PAR - BUR              A MUN soutient A PAR - BUR  dissoudre A PAR
    A LON - NWY par convoi   A MUN soutient A PAR        construire F LON
    renoncer
"""

from __future__ import annotations

import re
from typing import TypeAlias

import msgspec

from moonshine.errors import MoonshineError
from moonshine.variants.classic.board import Kind, province_of, region_code


class OrderError(MoonshineError):
    """An order that cannot be read."""


class UnitRef(msgspec.Struct, frozen=True, order=True):
    """A unit as an order names it: its type and region (``F STP/SC``)."""

    kind: Kind
    region: str

    @property
    def province(self) -> str:
        return province_of(self.region)

    def text(self) -> str:
        return self.kind + " " + self.region  # a Kind is its letter


class Target(msgspec.Struct, frozen=True):
    """The unit a support or convoy names; its type may be omitted (DATC 4.C.1)."""

    kind: Kind | None
    region: str

    @property
    def province(self) -> str:
        return province_of(self.region)

    def text(self) -> str:
        return f"{self.kind.value} {self.region}" if self.kind else self.region


class Hold(msgspec.Struct, frozen=True):
    unit: UnitRef

    def text(self) -> str:
        return f"{self.unit.text()} H"


class Move(msgspec.Struct, frozen=True):
    unit: UnitRef
    dest: str  # a region: a coast when the order names one
    via_convoy: bool = False

    def text(self) -> str:
        return f"{self.unit.text()} - {self.dest}" + (" via convoy" if self.via_convoy else "")


class SupportHold(msgspec.Struct, frozen=True):
    unit: UnitRef
    target: Target

    def text(self) -> str:
        return f"{self.unit.text()} S {self.target.text()}"


class SupportMove(msgspec.Struct, frozen=True):
    unit: UnitRef
    target: Target
    dest: str

    def text(self) -> str:
        return f"{self.unit.text()} S {self.target.text()} - {self.dest}"


class Convoy(msgspec.Struct, frozen=True):
    unit: UnitRef
    target: Target
    dest: str

    def text(self) -> str:
        return f"{self.unit.text()} C {self.target.text()} - {self.dest}"


class Retreat(msgspec.Struct, frozen=True):
    unit: UnitRef
    dest: str

    def text(self) -> str:
        return f"{self.unit.text()} R {self.dest}"


class Disband(msgspec.Struct, frozen=True):
    unit: UnitRef

    def text(self) -> str:
        return f"{self.unit.text()} D"


class Build(msgspec.Struct, frozen=True):
    unit: UnitRef

    def text(self) -> str:
        return f"{self.unit.text()} B"


class Waive(msgspec.Struct, frozen=True):
    """Decline one build (DATC 4.D.7)."""

    def text(self) -> str:
        return "WAIVE"


Order: TypeAlias = Hold | Move | SupportHold | SupportMove | Convoy | Retreat | Disband | Build | Waive
UnitOrder: TypeAlias = Hold | Move | SupportHold | SupportMove | Convoy | Retreat | Disband | Build


def unit_of(order: Order) -> UnitRef | None:
    """The unit an order is for (None for a waived build)."""
    return None if isinstance(order, Waive) else order.unit


_WORDS = {
    "-": "-",
    "->": "-",
    "–": "-",
    "—": "-",
    "→": "-",
    "to": "-",
    "m": "-",
    "moves": "-",
    "move": "-",
    "h": "H",
    "hold": "H",
    "holds": "H",
    "s": "S",
    "support": "S",
    "supports": "S",
    "c": "C",
    "convoy": "C",
    "convoys": "C",
    "r": "R",
    "retreat": "R",
    "retreats": "R",
    "d": "D",
    "disband": "D",
    "disbands": "D",
    "remove": "D",
    "removes": "D",
    "b": "B",
    "build": "B",
    "builds": "B",
    # French
    "tient": "H",
    "tenir": "H",
    "soutient": "S",
    "soutien": "S",
    "soutenir": "S",
    "convoie": "C",
    "convoi": "C",
    "convoyer": "C",
    "retraite": "R",
    "dissoudre": "D",
    "dissous": "D",
    "dissoute": "D",
    "construire": "B",
    "construit": "B",
    "construction": "B",
}
_WAIVE = ("waive", "waived", "renoncer", "renonce", "renonciation")
_LOC = re.compile(r"^([a-z]{3})(?:[/(]?(nc|sc|ec|wc)\)?)?$", re.IGNORECASE)
_TOKEN = re.compile(r"->|[-–—→]|[^\s\-–—→]+")
# The reader's words, places and waivers, for the acknowledgement's lenient reading.
KEYWORDS = _WORDS
WAIVE_WORDS = _WAIVE
PLACE = _LOC


def _tokens(text: str) -> list[str]:
    raw = _TOKEN.findall(text.strip().rstrip(".,;"))
    out: list[str] = []
    for t in raw:
        low = t.lower()
        if low in ("a", "army", "armée", "armee"):
            out.append("A")
        elif low in ("f", "fleet", "flotte"):
            out.append("F")
        elif low in _WORDS:
            out.append(_WORDS[low])
        else:
            out.append(t)
    # "via convoy" / "by convoy" / "par convoi" at the end
    english = len(out) >= 2 and out[-2].lower() in ("via", "by") and out[-1] == "C"
    if english or [t.lower() for t in raw[-2:]] == ["par", "convoi"]:
        out[-2:] = ["VIA"]
    return out


def _loc(tok: str, text: str) -> str:
    m = _LOC.match(tok)
    if not m:
        raise OrderError(f"{text!r}: {tok!r} is not a province code like PAR or STP/SC")
    return region_code(m.group(1) + (f"/{m.group(2)}" if m.group(2) else ""))


def _unit(toks: list[str], i: int, text: str) -> tuple[UnitRef, int]:
    if i >= len(toks) or toks[i] not in ("A", "F"):
        found = toks[i] if i < len(toks) else "nothing"
        raise OrderError(f"{text!r}: expected a unit (A or F) at {found!r}")
    if i + 1 >= len(toks):
        raise OrderError(f"{text!r}: the unit has no province")
    return UnitRef(Kind(toks[i]), _loc(toks[i + 1], text)), i + 2


def _target(toks: list[str], i: int, text: str) -> tuple[Target, int]:
    if i < len(toks) and toks[i] in ("A", "F"):
        if i + 1 >= len(toks):
            raise OrderError(f"{text!r}: the supported or convoyed unit has no province")
        return Target(Kind(toks[i]), _loc(toks[i + 1], text)), i + 2
    if i >= len(toks):
        raise OrderError(f"{text!r}: the order names no unit to support or convoy")
    return Target(None, _loc(toks[i], text)), i + 1


# An order in canonical text (as ``text()`` writes it), read in one match; any other
# writing goes through the tokenising reader below, which gives the same value.
_REGION = r"[A-Z]{3}(?:/(?:NC|SC|EC|WC))?"
_CANONICAL = re.compile(
    rf"([AF]) ({_REGION})(?:"
    rf"( H)"
    rf"| - ({_REGION})( via convoy)?"
    rf"| ([SC]) (?:([AF]) )?({_REGION})(?: - ({_REGION}))?"
    r")"
)
_KINDS = {"A": Kind.ARMY, "F": Kind.FLEET}


def _canonical(text: str) -> Order | None:
    m = _CANONICAL.fullmatch(text)
    if m is None:
        return None
    kind, region, hold, dest, via, verb, tkind, tregion, tdest = m.groups()
    unit = UnitRef(_KINDS[kind], region)
    if hold is not None:
        return Hold(unit)
    if dest is not None:
        return Move(unit, dest, via is not None)
    target = Target(_KINDS[tkind] if tkind is not None else None, tregion)
    if tdest is None:
        return SupportHold(unit, target) if verb == "S" else None  # a convoy needs a destination
    return SupportMove(unit, target, tdest) if verb == "S" else Convoy(unit, target, tdest)


def parse_order(text: str) -> Order:
    """Read one order; raise ``OrderError`` quoting the text when it cannot be read."""
    fast = _canonical(text)
    return fast if fast is not None else _read(text)


def _read(text: str) -> Order:
    """The tokenising reader: every writing the notation allows."""
    toks = _tokens(text)
    if not toks:
        raise OrderError(f"{text!r}: empty order")
    if len(toks) == 1 and toks[0].lower() in _WAIVE:
        return Waive()
    if toks[0] == "B":  # "build A WAR"
        unit, i = _unit(toks, 1, text)
        _end(toks, i, text)
        return Build(unit)
    if toks[0] == "D" and len(toks) > 1 and toks[1] in ("A", "F"):  # "disband A PAR"
        unit, i = _unit(toks, 1, text)
        _end(toks, i, text)
        return Disband(unit)
    unit, i = _unit(toks, 0, text)
    if i >= len(toks) or toks[i] == "H":
        _end(toks, i + 1 if i < len(toks) else i, text)
        return Hold(unit)
    verb = toks[i]
    i += 1
    if verb == "-":
        dest = _loc(_need(toks, i, text, "a destination"), text)
        via = i + 1 < len(toks) and toks[i + 1] == "VIA"
        _end(toks, i + 2 if via else i + 1, text)
        return Move(unit, dest, via)
    if verb == "R":
        if i < len(toks) and toks[i] == "-":
            i += 1
        dest = _loc(_need(toks, i, text, "a destination"), text)
        _end(toks, i + 1, text)
        return Retreat(unit, dest)
    if verb in ("D", "B"):
        _end(toks, i, text)
        return Disband(unit) if verb == "D" else Build(unit)
    if verb in ("S", "C"):
        target, i = _target(toks, i, text)
        if i >= len(toks) or toks[i] == "H":
            if verb == "C":
                raise OrderError(f"{text!r}: a convoy needs a destination (C A LON - NWY)")
            _end(toks, i + 1 if i < len(toks) else i, text)
            return SupportHold(unit, target)
        if toks[i] != "-":
            raise OrderError(f"{text!r}: expected '-' and a destination after {target.text()}, found {toks[i]!r}")
        dest = _loc(_need(toks, i + 1, text, "a destination"), text)
        _end(toks, i + 2, text)
        return SupportMove(unit, target, dest) if verb == "S" else Convoy(unit, target, dest)
    raise OrderError(f"{text!r}: {verb!r} is not an order (expected H, -, S, C, R, D or B)")


def _need(toks: list[str], i: int, text: str, what: str) -> str:
    if i >= len(toks):
        raise OrderError(f"{text!r}: {what} is missing")
    return toks[i]


def _end(toks: list[str], i: int, text: str) -> None:
    if i < len(toks):
        raise OrderError(f"{text!r}: unexpected {' '.join(toks[i:])!r} at the end")


# -- the notation in a player's language ---------------------------------------------


class Grammar(msgspec.Struct, frozen=True):
    """The words of the classic notation in one language; the provinces are the
    board's codes, the unit letters A and F the same in English and French."""

    hold: str  # "{u} H"
    move: str  # "{u} - {d}"
    by_convoy: str  # " via convoy"
    support: str  # "{u} S {t}"
    convoy: str  # "{u} C {t} - {d}"
    retreat: str  # "{u} R {d}"
    disband: str  # "{u} D"
    build: str  # "{u} B"
    waive: str


GRAMMARS: dict[str, Grammar] = {
    "en": Grammar(
        hold="{u} H",
        move="{u} - {d}",
        by_convoy=" via convoy",
        support="{u} S {t}",
        convoy="{u} C {t} - {d}",
        retreat="{u} R {d}",
        disband="{u} D",
        build="{u} B",
        waive="WAIVE",
    ),
    "fr": Grammar(
        hold="{u} tient",
        move="{u} - {d}",
        by_convoy=" par convoi",
        support="{u} soutient {t}",
        convoy="{u} convoie {t} - {d}",
        retreat="{u} retraite {d}",
        disband="dissoudre {u}",
        build="construire {u}",
        waive="renoncer",
    ),
}


def notation(order: Order, language: str = "en") -> str:
    """``order`` as a player of ``language`` writes it: English is the standard
    notation (``text()``), French says ``A MUN soutient A PAR - BUR``, ``F NTH
    convoie A LON - NWY``, ``construire F LON``. ``parse_order`` reads every one of
    them back to ``order``; a language without a grammar gets the standard text."""
    g = GRAMMARS.get(language)
    if g is None:
        return order.text()
    if isinstance(order, Waive):
        return g.waive
    u = order.unit.text()
    if isinstance(order, Hold):
        return g.hold.format(u=u)
    if isinstance(order, Move):
        return g.move.format(u=u, d=order.dest) + (g.by_convoy if order.via_convoy else "")
    if isinstance(order, SupportHold):
        return g.support.format(u=u, t=order.target.text())
    if isinstance(order, SupportMove):
        return g.support.format(u=u, t=order.target.text()) + f" - {order.dest}"
    if isinstance(order, Convoy):
        return g.convoy.format(u=u, t=order.target.text(), d=order.dest)
    if isinstance(order, Retreat):
        return g.retreat.format(u=u, d=order.dest)
    if isinstance(order, Disband):
        return g.disband.format(u=u)
    return g.build.format(u=u)


def restate(text: str, language: str) -> str:
    """An order's standard text (as results files store it) in the notation of
    ``language``; a text that is no order stays as it is."""
    if language == "en" or not text:
        return text
    try:
        return notation(parse_order(text), language)
    except OrderError:
        return text
