"""What happened to an order, as a value: the adjudicators' results (Moonshine's and
the classic family's) are outcomes such as ``Bounced(attack, against)`` or
``SupportCut(by)``, each naming the units, supports and strengths involved. One
explainer (``explain``) turns an outcome into a sentence in a language, through the
message catalogue (``moonshine.text.catalogue``); reports, pictures and results files read the
values and never parse the sentence.

An outcome round-trips through plain data (``to_data``, ``from_data``), as
``turns/TURN/results.yaml`` stores it. Pure: no I/O; the catalogue is read on the
first explanation in a language other than English.
"""

from __future__ import annotations

import functools
import typing
from collections.abc import Callable, Iterable, Mapping
from typing import Any, ClassVar

import msgspec

from moonshine.text.catalogue import Message, message_data, message_from_data


class Wording(msgspec.Struct, frozen=True):
    """How a rule family's judges word a few outcomes: a value the family gives (its
    layout's ``wording``), which the explainer reads without asking which family it
    words. The defaults are Moonshine's: an H transported by delivery men (L) along a
    route, the strengths a move met, the strength a support gave."""

    convoys: bool = False  # an army convoyed by fleets (else a unit transported by carriers, along a route)
    illegal_holds: bool = False  # an illegal order: "illegal: ...; it held" (else "rejected: ...")
    strengths_when_dislodging: bool = False  # a move names the strengths it met only when it dislodges
    support_adds_one: bool = False  # a support given names no strength: it always adds 1
    blocked_plainly: bool = False  # "blocked by own X", saying neither which way nor where X stays


DEFAULT_WORDING = Wording()  # Moonshine's words


class Force(msgspec.Struct, frozen=True):
    """One side of a contest: its units (a stack may be several), the supports that
    counted for them, and the strength they had together."""

    units: tuple[str, ...]
    strength: int
    supports: tuple[str, ...] = ()


class Result(msgspec.Struct, frozen=True):
    """The base of every outcome. ``kind`` names it in a results file."""

    kind: ClassVar[str] = ""


# -- a unit that stays ------------------------------------------------------------------


class Held(Result, frozen=True):
    kind: ClassVar[str] = "held"
    against: tuple[str, ...] = ()  # the other gangs' units that moved in, and failed


class Recruited(Result, frozen=True):
    """R18: a unit recruited this turn holds."""

    kind: ClassVar[str] = "recruited"


class Dislodged(Result, frozen=True):
    kind: ClassVar[str] = "dislodged"
    by: str  # the (strongest) dislodging move, as its order's text


class Rejected(Result, frozen=True):
    """An order impossible whatever the others do (R12): the unit held."""

    kind: ClassVar[str] = "rejected"
    problem: Message
    dislodged_by: str = ""


# -- moves ----------------------------------------------------------------------------------


class Moved(Result, frozen=True):
    kind: ClassVar[str] = "moved"
    dest: str
    attack: Force
    # What opposed it: first the defence at the destination (maybe no unit and 0),
    # then the rival moves into the destination, each with its strength.
    against: tuple[Force, ...] = ()
    dislodging: tuple[str, ...] = ()
    carriers: tuple[str, ...] = ()  # the carriers on its route (transported moves)
    convoyed: bool = False  # classic: the move went by convoy
    circular: bool = False  # decided by the backup rule for circular movement


class HeadToHead(Result, frozen=True):
    """A move that lost a head-to-head battle with the units coming the other way."""

    kind: ClassVar[str] = "head to head"
    attack: Force
    against: Force
    dislodged_by: str = ""


class HeldOff(Result, frozen=True):
    """A move that did not beat the hold of the units staying at its destination."""

    kind: ClassVar[str] = "held off"
    attack: Force
    against: Force
    dislodged_by: str = ""


class Bounced(Result, frozen=True):
    """A move that beat the destination's hold, stopped by rival moves as strong."""

    kind: ClassVar[str] = "bounced"
    attack: Force
    against: tuple[Force, ...]
    dislodged_by: str = ""


class Blocked(Result, frozen=True):
    """A move stopped by a unit of the mover's own gang (R6)."""

    kind: ClassVar[str] = "blocked"
    by: str
    dest: str
    head_to_head: bool = False  # the own unit came the other way
    dislodged_by: str = ""


class NoRoute(Result, frozen=True):
    """A transported move with no carrier ordered (or none in the districts it named)."""

    kind: ClassVar[str] = "no route"
    dest: str
    carrier_kinds: tuple[str, ...]
    missing: tuple[str, ...] = ()  # named districts where no carrier carries it
    dislodged_by: str = ""


class RouteBroken(Result, frozen=True):
    """A transported move whose carriers did not all hold: ``cause`` is "paradox"
    (the carriers held by Szykman's rule), "dislodged", or "unreachable"."""

    kind: ClassVar[str] = "route broken"
    cause: str
    carriers: tuple[str, ...] = ()
    dislodged_by: str = ""


class Paradox(Result, frozen=True):
    """An order of a cycle the backup rule decided: ``act`` is "move", "support" or
    "carrier"; ``rule`` "szykman" (a carrier holds) or "paradox" (all fail)."""

    kind: ClassVar[str] = "paradox"
    act: str
    rule: str = "paradox"
    dislodged_by: str = ""


# -- supports -------------------------------------------------------------------------------


class SupportGiven(Result, frozen=True):
    kind: ClassVar[str] = "support given"
    strength: int  # what it added (0: not said, classic)


class SupportCut(Result, frozen=True):
    kind: ClassVar[str] = "support cut"
    by: tuple[str, ...] = ()  # the units whose moves cut it
    dislodged_by: str = ""  # cut by its dislodgement: the dislodging move


class Void(Result, frozen=True):
    """A support or transport that matches no order of its target. ``why``:
    "moves" (a hold support of a moving unit), "elsewhere" (the target moves to
    ``other``), "over land" (a convoy of an army that moves to ``other`` over land),
    "no move" (to ``dest``), "no assault" (of the station in ``dest``),
    "over the border", "off the route" (``other``: the carrier's district), "absent"
    (no such unit on the board), or "" (said no more)."""

    kind: ClassVar[str] = "void"
    why: str = ""
    target: str = ""
    dest: str = ""
    other: str = ""
    dislodged_by: str = ""


# -- carriers -------------------------------------------------------------------------------


class Carried(Result, frozen=True):
    kind: ClassVar[str] = "carried"
    target: str
    dest: str


class RouteKept(Result, frozen=True):
    """The carrier kept its place, but the move it carried failed."""

    kind: ClassVar[str] = "route kept"
    target: str
    dest: str


class NotNeeded(Result, frozen=True):
    kind: ClassVar[str] = "not needed"
    origin: str
    dest: str


class CarrierDislodged(Result, frozen=True):
    kind: ClassVar[str] = "carrier dislodged"
    by: str


# -- assaults on police stations (R11) --------------------------------------------------------


class StationTaken(Result, frozen=True):
    kind: ClassVar[str] = "station taken"
    strength: int
    needed: int


class StationHolds(Result, frozen=True):
    kind: ClassVar[str] = "station holds"
    strength: int
    needed: int
    corrupted: bool = False  # the station is corrupted by the attacker (R11: 3)


class StoodOff(Result, frozen=True):
    """An assault stood off by a rival assault on the same station, as strong."""

    kind: ClassVar[str] = "stood off"
    attack: Force
    against: tuple[Force, ...]


class AssaultDislodged(Result, frozen=True):
    kind: ClassVar[str] = "assault dislodged"
    by: str


# -- retreats (R7) ----------------------------------------------------------------------------


class Refusal(msgspec.Struct, frozen=True):
    """One retreat choice refused, and why."""

    district: str
    problem: Message


class Retreated(Result, frozen=True):
    kind: ClassVar[str] = "retreated"
    to: str


class NoRetreatGiven(Result, frozen=True):
    kind: ClassVar[str] = "no retreat"


class NoUsableRetreat(Result, frozen=True):
    kind: ClassVar[str] = "no usable retreat"
    refusals: tuple[Refusal, ...]


class RetreatClash(Result, frozen=True):
    kind: ClassVar[str] = "retreat clash"
    to: str
    against: tuple[str, ...]


KINDS: dict[str, type[Result]] = {
    c.kind: c
    for c in (
        Held,
        Recruited,
        Dislodged,
        Rejected,
        Moved,
        HeadToHead,
        HeldOff,
        Bounced,
        Blocked,
        NoRoute,
        RouteBroken,
        Paradox,
        SupportGiven,
        SupportCut,
        Void,
        Carried,
        RouteKept,
        NotNeeded,
        CarrierDislodged,
        StationTaken,
        StationHolds,
        StoodOff,
        AssaultDislodged,
        Retreated,
        NoRetreatGiven,
        NoUsableRetreat,
        RetreatClash,
    )
}


# -- the explainer --------------------------------------------------------------------------


def units(names: Iterable[str]) -> str:
    """Units named in a sentence: ``H LOO, L NSS``, in order."""
    return ", ".join(sorted(names))


class _Say:
    """The catalogue's sentences in one language."""

    def __init__(self, language: str, wording: Wording) -> None:
        from moonshine.text import catalogue

        self.language = language
        self.words = wording
        self.gettext = catalogue.gettext_for(language)
        self.fill = catalogue.fill

    def __call__(self, msgid: str, /, **fields: object) -> str:
        return self.fill(self.language, self.gettext(msgid), **fields)

    def vs(self, a: int, b: int) -> str:
        s = self
        return s("({a} vs {b})", a=a, b=b)

    def then(self, first: str, second: str) -> str:
        """Two parts of a reason: ``first; second``."""
        s = self
        return first + s("; ") + second

    def dislodged(self, text: str, by: str) -> str:
        s = self
        return self.then(text, s("dislodged by {by}", by=by)) if by else text

    def message(self, m: Message) -> str:
        return m.text(self.language)


def _held(s: _Say, o: Held) -> str:
    return s("held against {units}", units=units(o.against)) if o.against else s("held")


def _rejected(s: _Say, o: Rejected) -> str:
    problem = s.message(o.problem)
    if s.words.illegal_holds:  # it held, and then it may have been dislodged
        return s.dislodged(s.then(s("illegal: {problem}", problem=problem), s("it held")), o.dislodged_by)
    first = s("rejected: {problem}", problem=problem)
    return s.then(first, s("dislodged by {by}", by=o.dislodged_by) if o.dislodged_by else s("it held"))


def _moved(s: _Say, o: Moved) -> str:
    out = s("moved to {dest}", dest=o.dest)
    if o.convoyed:
        out += s(" by convoy")
    if o.carriers:
        out += s(", carried by {units}", units=units(o.carriers))
    if o.circular:
        return out + s(" (circular movement)")
    out += _supported(s, o.attack.supports)
    if o.dislodging:
        defence = o.against[0] if o.against else Force((), 0)
        out += s(", dislodging {units}", units=units(o.dislodging)) + _supported(s, defence.supports)
        return out + " " + s.vs(o.attack.strength, defence.strength)
    opposed = max((f.strength for f in o.against), default=0)
    if s.words.strengths_when_dislodging or not opposed:
        return out
    return out + " " + s.vs(o.attack.strength, opposed)


def _supported(s: _Say, supports: tuple[str, ...]) -> str:
    """`` with L BRO's support``: the supports that counted for a side."""
    if not supports:
        return ""
    if len(supports) == 1:
        return s(" with {a}'s support", a=supports[0])
    if len(supports) == 2:
        return s(" with {a}'s and {b}'s support", a=supports[0], b=supports[1])
    return s(" with the support of {units}", units=units(supports))


def _side(s: _Say, f: Force) -> str:
    """One side of a contest: ``H NSS with L BRO's support (3)``."""
    return units(f.units) + _supported(s, f.supports) + f" ({f.strength})"


def _forces(s: _Say, forces: Iterable[Force]) -> str:
    return s(" and ").join(_side(s, f) for f in forces)


def _head_to_head(s: _Say, o: HeadToHead) -> str:
    text = s("lost head to head: {attack} against {against}", attack=_side(s, o.attack), against=_side(s, o.against))
    return s.dislodged(text, o.dislodged_by)


def _held_off(s: _Say, o: HeldOff) -> str:
    text = s("held off: {attack} against {against}", attack=_side(s, o.attack), against=_side(s, o.against))
    return s.dislodged(text, o.dislodged_by)


def _bounced(s: _Say, o: Bounced) -> str:
    text = s("bounced: {attack} against {against}", attack=_side(s, o.attack), against=_forces(s, o.against))
    return s.dislodged(text, o.dislodged_by)


def _blocked(s: _Say, o: Blocked) -> str:
    if s.words.blocked_plainly:
        text = s("blocked by own {unit}", unit=o.by)
    elif o.head_to_head:
        text = s("blocked by own {unit} coming the other way", unit=o.by)
    else:
        text = s("blocked by own {unit}, which stays in {dest}", unit=o.by, dest=o.dest)
    return s.dislodged(text, o.dislodged_by)


def _no_route(s: _Say, o: NoRoute) -> str:
    if s.words.convoys:
        text = s("no convoy: no fleet is ordered to convoy it to {dest}", dest=o.dest)
    elif o.missing:
        text = s(
            "no route: no {kinds} in {districts} carries it",
            kinds=s(" or ").join(o.carrier_kinds),
            districts=", ".join(o.missing),
        )
    else:
        text = s(
            "no route: no {kinds} is ordered to carry it to {dest}", kinds=s(" or ").join(o.carrier_kinds), dest=o.dest
        )
    return s.dislodged(text, o.dislodged_by)


def _route_broken(s: _Say, o: RouteBroken) -> str:
    convoys = s.words.convoys
    carriers = units(o.carriers)
    if o.cause == "paradox":
        if convoys:
            text = s("convoy broken: convoy paradox, {units} held (Szykman rule)", units=carriers)
        elif len(o.carriers) == 1:
            text = s("route broken: transport paradox, {units} holds (Szykman rule)", units=carriers)
        else:
            text = s("route broken: transport paradox, {units} hold (Szykman rule)", units=carriers)
    elif o.cause == "dislodged":
        if convoys:
            text = s("convoy broken: {units} dislodged", units=carriers)
        else:
            text = s("route broken: {units} dislodged", units=carriers)
    elif convoys:
        text = s("no convoy route: the convoying fleets do not reach the destination")
    else:
        text = s("route broken: the carriers do not reach the destination")
    return s.dislodged(text, o.dislodged_by)


def _paradox(s: _Say, o: Paradox) -> str:
    convoys = s.words.convoys
    if o.act == "carrier":
        if o.rule == "szykman" and convoys:
            text = s("convoy paradox: the fleet holds (Szykman rule)")
        elif o.rule == "szykman":
            text = s("transport paradox: the carrier holds (Szykman rule)")
        elif convoys:
            text = s("paradox: the orders contradict each other, the fleet holds")
        else:
            text = s("paradox: the orders contradict each other, the carrier holds")
        return s.dislodged(text, o.dislodged_by)
    if o.act == "support" and convoys:
        text = s("paradox: the orders contradict each other, the support fails (backup rule)")
    elif o.act == "support":
        text = s("paradox: the orders contradict each other, support fails (backup rule)")
    else:
        text = s("paradox: the orders contradict each other, the move fails (backup rule)")
    return s.dislodged(text, o.dislodged_by)


def _support_given(s: _Say, o: SupportGiven) -> str:
    if s.words.support_adds_one or not o.strength:
        return s("support given")
    return s("support given (+{n})", n=o.strength)


def _support_cut(s: _Say, o: SupportCut) -> str:
    if o.dislodged_by:
        return s("support cut: dislodged by {by}", by=o.dislodged_by)
    return s("support cut by {units}", units=units(o.by))


def _void(s: _Say, o: Void) -> str:
    if o.why == "moves":
        text = s("void: {unit} moves, and hold support only helps a unit that stays", unit=o.target)
    elif o.why == "elsewhere":
        text = s("void: {unit} moves to {other}, not {dest}", unit=o.target, other=o.other, dest=o.dest)
    elif o.why == "over land":
        text = s("void: {unit} moves to {other} over land, not by convoy", unit=o.target, other=o.other)
    elif o.why == "no move":
        text = s("void: {unit} does not move to {dest}", unit=o.target, dest=o.dest)
    elif o.why == "no assault":
        text = s("void: {unit} does not assault the station in {dest}", unit=o.target, dest=o.dest)
    elif o.why == "over the border":
        text = s("void: {unit} goes over the border to {dest}, not by transport", unit=o.target, dest=o.dest)
    elif o.why == "off the route":
        text = s("void: {district} is not on the route {unit} names", district=o.other, unit=o.target)
    elif o.why == "absent":
        text = s("void: no {t} on the board to support", t=o.target)
    else:
        text = s("void")
    return s.dislodged(text, o.dislodged_by)


def _carried(s: _Say, o: Carried) -> str:
    if s.words.convoys:
        return s("convoyed {unit} to {dest}", unit=o.target, dest=o.dest)
    return s("carried {unit} to {dest}", unit=o.target, dest=o.dest)


def _route_kept(s: _Say, o: RouteKept) -> str:
    if s.words.convoys:
        return s("the fleet held its place, but {unit} did not reach {dest}", unit=o.target, dest=o.dest)
    return s("kept the route, but {unit} did not reach {dest}", unit=o.target, dest=o.dest)


def _carrier_dislodged(s: _Say, o: CarrierDislodged) -> str:
    if s.words.convoys:
        return s("convoy disrupted: dislodged by {by}", by=o.by)
    return s("route broken: dislodged by {by}", by=o.by)


def _station_holds(s: _Say, o: StationHolds) -> str:
    text = s("station holds") + " " + s.vs(o.strength, o.needed)
    return text + s(", corrupted by the attacker") if o.corrupted else text


def _stood_off(s: _Say, o: StoodOff) -> str:
    return s("stood off: {attack} against {against}", attack=_side(s, o.attack), against=_forces(s, o.against))


def _no_usable_retreat(s: _Say, o: NoUsableRetreat) -> str:
    parts = [r.district + s(": ") + s.message(r.problem) for r in o.refusals]
    return s("disbanded: no usable retreat ({refusals})", refusals=s("; ").join(parts))


_EXPLAIN: dict[type[Result], Callable[[_Say, Any], str]] = {
    Held: _held,
    Recruited: lambda s, o: s("recruited this turn, it holds (R18)"),
    Dislodged: lambda s, o: s("dislodged by {by}", by=o.by),
    Rejected: _rejected,
    Moved: _moved,
    HeadToHead: _head_to_head,
    HeldOff: _held_off,
    Bounced: _bounced,
    Blocked: _blocked,
    NoRoute: _no_route,
    RouteBroken: _route_broken,
    Paradox: _paradox,
    SupportGiven: _support_given,
    SupportCut: _support_cut,
    Void: _void,
    Carried: _carried,
    RouteKept: _route_kept,
    NotNeeded: lambda s, o: s("not needed: not on a kept route from {origin} to {dest}", origin=o.origin, dest=o.dest),
    CarrierDislodged: _carrier_dislodged,
    StationTaken: lambda s, o: s("station taken") + " " + s.vs(o.strength, o.needed),
    StationHolds: _station_holds,
    StoodOff: _stood_off,
    AssaultDislodged: lambda s, o: s("assault fails: dislodged by {by}", by=o.by),
    Retreated: lambda s, o: s("retreated to {district}", district=o.to),
    NoRetreatGiven: lambda s, o: s("disbanded: no retreat given"),
    NoUsableRetreat: _no_usable_retreat,
    RetreatClash: lambda s, o: s(
        "disbanded: its retreat to {district} clashes with that of {units}", district=o.to, units=units(o.against)
    ),
}


@functools.lru_cache(maxsize=8)
def _say(language: str, wording: Wording) -> _Say:
    return _Say(language, wording)


def explain(outcome: Result, language: str = "en", wording: Wording = DEFAULT_WORDING) -> str:
    """The outcome as a sentence a player reads, in ``language``, with the words a
    rule family gives (``wording``; the default, Moonshine's: transports and L; the
    classic family's, ``moonshine.variants.classic.rules.WORDING``: convoys and fleets)."""
    return _EXPLAIN[type(outcome)](_say(language, wording), outcome)


# -- as data (results files) ------------------------------------------------------------------


def _value_to_data(v: object) -> Any:
    if isinstance(v, Force):
        out: dict[str, Any] = {"units": list(v.units), "strength": v.strength}
        if v.supports:
            out["supports"] = list(v.supports)
        return out
    if isinstance(v, Refusal):
        return {"district": v.district, "problem": message_data(v.problem)}
    if isinstance(v, Message):
        return message_data(v)
    if isinstance(v, tuple):
        return [_value_to_data(x) for x in v]
    return v


def to_data(outcome: Result) -> dict[str, Any]:
    """The outcome as plain data: its kind and its fields that differ from their
    defaults."""
    out: dict[str, Any] = {"kind": outcome.kind}
    for name, default in _defaults(type(outcome)):
        v = getattr(outcome, name)
        if default is not msgspec.NODEFAULT and v == default:
            continue
        out[name] = _value_to_data(v)
    return out


@functools.cache
def _defaults(cls: type[Result]) -> tuple[tuple[str, Any], ...]:
    """Each field of an outcome's class and its default (``msgspec.NODEFAULT`` for
    none), asked once per class: ``msgspec.structs.fields`` also resolves the
    annotations, which costs more than writing the outcome."""
    return tuple((f.name, f.default) for f in msgspec.structs.fields(cls))


def _force(data: Mapping[str, Any]) -> Force:
    return Force(
        tuple(str(u) for u in data.get("units") or ()),
        int(data.get("strength", 0)),
        tuple(str(u) for u in data.get("supports") or ()),
    )


def _field_from_data(hint: Any, v: Any) -> Any:
    if hint is Force:
        return _force(v)
    if hint is Message:
        return message_from_data(v)
    if hint == tuple[Force, ...]:
        return tuple(_force(x) for x in v)
    if hint == tuple[Refusal, ...]:
        return tuple(Refusal(str(x["district"]), message_from_data(x["problem"])) for x in v)
    if hint == tuple[str, ...]:
        return tuple(str(x) for x in v)
    if hint is bool:
        return bool(v)
    if hint is int:
        return int(v)
    return str(v)


_HINTS: dict[str, dict[str, Any]] = {}


def _hints(cls: type[Result]) -> dict[str, Any]:
    hints = _HINTS.get(cls.kind)
    if hints is None:
        hints = _HINTS[cls.kind] = typing.get_type_hints(cls)
    return hints


def from_data(data: Mapping[str, Any]) -> Result:
    """The outcome ``to_data`` wrote. Raises ValueError on an unknown kind or field,
    KeyError on a missing field."""
    cls = KINDS.get(str(data.get("kind")))
    if cls is None:
        raise ValueError(f"unknown outcome {data.get('kind')!r} (expected one of {', '.join(sorted(KINDS))})")
    hints = _hints(cls)
    unknown = sorted(set(data) - set(cls.__struct_fields__) - {"kind"})
    if unknown:
        raise ValueError(f"{cls.kind}: unknown field {unknown[0]!r}")
    values = {k: _field_from_data(hints[k], v) for k, v in data.items() if k != "kind"}
    return cls(**values)
