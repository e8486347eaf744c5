"""A line of an orders file read as a lenient referee would, never two ways: a blank
or comment line, a header, or an order (``parse_line``, ``read_line``,
``parse_order``), with notes that say how it was read; a misspelt district read
only when one of its readings makes an order the gang can give."""

from __future__ import annotations

import contextlib
import unicodedata
from typing import TypeAlias

import msgspec

from moonshine.text.catalogue import Choices, Message, say
from moonshine.variants.moonshine.map import GameMap
from moonshine.variants.moonshine.orders import Order
from moonshine.variants.moonshine.parser import quote
from moonshine.variants.moonshine.parser.errors import OrderSyntaxError, ParseError, UnknownDistrictError
from moonshine.variants.moonshine.parser.grammar import Parser, Position, Slot
from moonshine.variants.moonshine.parser.headers import GangHeader, Header, PasswordHeader, TurnHeader, header
from moonshine.variants.moonshine.parser.lexer import BULLET, DASHES, RULE, unquote
from moonshine.variants.moonshine.parser.names import Names, names_of

MAX_LINE = 500  # characters; an order is a few words


Parsed: TypeAlias = Order | Header


class Reading(msgspec.Struct, frozen=True):
    """A line as read: the order or header (None for a blank or comment line), and
    what the acknowledgement says about how it was read."""

    parsed: Parsed | None
    notes: tuple[Message, ...] = ()


def _strip_comment(body: str) -> str:
    return body.split("#", 1)[0]


def parse_line(text: str, gmap: GameMap) -> Parsed | None:
    """One line of an orders file: an order, a header (``gang:``, ``password:``,
    ``turn:``) or None for a blank or comment line. Raises a ParseError subclass."""
    return read_line(text, gmap).parsed


def read_line(text: str, gmap: GameMap, position: Position | None = None) -> Reading:
    """One line of an orders file read as a lenient referee would, never two ways:
    the order or header (None for a blank or comment line) and the notes that say
    how it was read (plain words left out, a misspelt keyword). Given the
    ``position``, a misspelt district is read when only one of the districts it may
    stand for makes an order the gang can give, and a unit written without its type
    is the one unit standing there. Raises a ParseError subclass."""
    body = unquote(text)
    if not body or body.startswith("#"):
        return Reading(None)
    if len(body) > MAX_LINE:
        raise OrderSyntaxError(
            body,
            say("line too long ({n} characters)", n=len(body)),
            say("write one order per line"),
        )
    head = header(body, gmap)
    if head is not None:
        return Reading(head)
    body = _strip_comment(body).strip()
    if RULE.match(body):  # a drawn line orders nothing
        return Reading(None)
    heading = body.endswith(":")  # a heading ("Orders:") orders nothing; "H LOO - NSS:" is an order
    body = BULLET.sub("", body.rstrip(":") if heading else body).strip().rstrip(",").strip()
    if not body:
        return Reading(None)
    line = unicodedata.normalize("NFKC", body).translate(DASHES)
    try:
        return _read(line, names_of(gmap), position)
    except ParseError:
        if heading:
            return Reading(None)
        raise


_MOST_READINGS = 64  # a line's misspelt districts are read in at most this many ways


def _read(line: str, names: Names, position: Position | None) -> Reading:
    first = Parser(line, names, position)
    order: Order | None = None
    error: ParseError | None = None
    try:
        order = first.order()
    except ParseError as exc:
        if not first.slots:
            raise
        error = exc
    if not first.slots:
        return Reading(order, tuple(first.notes))
    assert position is not None  # a misspelling is read only with the position
    # Every reading of the misspelt districts, each a run of the parser.
    runs: list[tuple[Parser, Order]] = [] if order is None else [(first, order)]
    plans = [(0,) * j + (alt,) for j in range(len(first.slots)) for alt in range(1, len(first.slots[j].codes))]
    tried = 1
    while plans and tried < _MOST_READINGS:
        plan = plans.pop(0)
        parser = Parser(line, names, position, plan)
        tried += 1
        with contextlib.suppress(ParseError):
            runs.append((parser, parser.order()))
        plans += [
            plan + (0,) * (j - len(plan)) + (alt,)
            for j in range(len(plan), len(parser.slots))
            for alt in range(1, len(parser.slots[j].codes))
        ]
    usable: dict[Order, Parser] = {}
    for parser, candidate in runs:
        if position.usable(candidate):
            usable.setdefault(candidate, parser)
    if len(usable) == 1:
        [(order, parser)] = usable.items()
        notes = [_slot_note(slot, parser.plan, i, names) for i, slot in enumerate(parser.slots)]
        return Reading(order, tuple(notes + parser.notes))
    slot = first.slots[0]
    if len(usable) > 1:  # the first misspelt district that the readings differ on
        plans_used = [p.plan + (0,) * (len(p.slots) - len(p.plan)) for p in usable.values()]
        at = next((i for i in range(len(first.slots)) if len({plan[i] for plan in plans_used if i < len(plan)}) > 1), 0)
        slot = first.slots[at]
        codes = [slot.codes[i] for i in sorted({plan[at] for plan in plans_used if at < len(plan)})]
        codes = _by_reach(codes, slot, position)
        if slot.unit is not None:  # the nearest: those no farther than the second
            start = slot.unit.district
            codes = [c for c in codes if position.steps(start, c) <= position.steps(start, codes[1])]
        raise UnknownDistrictError(
            line,
            say("{q} could be {choices}", q=quote(slot.typed), choices=Choices(tuple(names.labels[c] for c in codes))),
            say("write the district's code"),
        )
    if error is not None and not runs and not isinstance(error, UnknownDistrictError):
        raise error
    codes = _by_reach(list(slot.codes), slot, position)
    raise UnknownDistrictError(
        line,
        say("no district {q}", q=quote(slot.typed)),
        say("did you mean {choices}?", choices=Choices(tuple(names.labels[c] for c in codes[:3]))),
    )


def _by_reach(codes: list[str], slot: Slot, position: Position) -> list[str]:
    """Districts nearest the unit whose order it is first, then by spelling."""
    if slot.unit is None:
        return codes
    start = slot.unit.district
    return sorted(codes, key=lambda c: (position.steps(start, c), codes.index(c)))


def _slot_note(slot: Slot, plan: tuple[int, ...], i: int, names: Names) -> Message:
    code = slot.codes[plan[i] if i < len(plan) else 0]
    label = names.labels[code]
    if slot.role == "dest" and slot.unit is not None:
        return say(
            "read {q} as {d}: the only district of that spelling {u} can reach",
            q=quote(slot.typed),
            d=label,
            u=slot.unit.text(),
        )
    if slot.role == "unit":
        return say(
            "read {q} as {d}: the only district of that spelling where you have that unit", q=quote(slot.typed), d=label
        )
    return say("read {q} as {d}: the only district of that spelling this order can use", q=quote(slot.typed), d=label)


def parse_order(text: str, gmap: GameMap) -> Order:
    """One order (not a header, not blank); raises a ParseError subclass."""
    parsed = parse_line(text, gmap)
    if parsed is None or isinstance(parsed, GangHeader | PasswordHeader | TurnHeader):
        raise OrderSyntaxError(text, say("not an order: {q}", q=quote(text)))
    return parsed
