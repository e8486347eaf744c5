"""The header lines of an orders file, in English and French: ``gang:`` (whose orders
these are), ``password:`` (checked by the email intake, never echoed) and ``turn:``
(the turn they are meant for); and a gang found by its key or name."""

from __future__ import annotations

import re
from typing import TypeAlias

import msgspec

from moonshine.text.catalogue import Message, say
from moonshine.variants.moonshine.calendar import Turn
from moonshine.variants.moonshine.map import GameMap
from moonshine.variants.moonshine.parser import join, quote
from moonshine.variants.moonshine.parser.errors import OrderSyntaxError, UnknownGangError


class GangHeader(msgspec.Struct, frozen=True):
    """``gang: Valley Gang`` (``bande:`` in French): whose orders these are."""

    gang: str  # the gang's key

    def text(self) -> str:
        return f"gang: {self.gang}"


class PasswordHeader(msgspec.Struct, frozen=True):
    """``password: ...`` (``mot de passe:``): checked by the email intake, never echoed."""

    password: str

    def text(self) -> str:
        return f"password: {self.password}"


class TurnHeader(msgspec.Struct, frozen=True):
    """``turn: spring-1924`` (``tour:``): the turn the player means these orders for."""

    turn: str

    def text(self) -> str:
        return f"turn: {self.turn}"


Header: TypeAlias = GangHeader | PasswordHeader | TurnHeader


_HEADER = re.compile(
    r"^(?P<key>gang|bande|gang name|nom du gang|password|passwd|pass|mot de passe|mdp|turn|tour)\s*:\s*(?P<value>.*)$",
    re.IGNORECASE | re.DOTALL,
)


def header(body: str, gmap: GameMap) -> Header | None:
    """The header the line is (None for any other line); raises a ParseError subclass when it is a bad one."""
    m = _HEADER.match(body)
    if m is None:
        return None
    key = m.group("key").lower()
    value = m.group("value").strip()
    if key in ("password", "passwd", "pass", "mot de passe", "mdp"):
        if not value:
            raise OrderSyntaxError(body, say("the password line is empty"))
        return PasswordHeader(value)
    value = value.split("#", 1)[0].strip()
    if key in ("turn", "tour"):
        try:
            return TurnHeader(Turn.parse(value).name)
        except ValueError:
            raise OrderSyntaxError(
                body,
                say("not a turn: {q}", q=quote(value)),
                say("write it like spring-1924 or autumn-1925"),
            ) from None
    if not value:
        raise UnknownGangError(
            body,
            say("the gang line names no gang"),
            say("gangs: {g}", g=join(gmap.gangs)),
        )
    gang = gmap.gang_by_name(value)
    if gang is None:
        raise UnknownGangError(body, say("no gang {q}", q=quote(value)), _gang_hint(value, gmap))
    return GangHeader(gang.key)


def _gang_hint(value: str, gmap: GameMap) -> Message:
    choices = {g.key: g.key for g in gmap.gangs.values()} | {g.name.lower(): g.key for g in gmap.gangs.values()}
    import difflib

    close = difflib.get_close_matches(value.lower()[:60], list(choices), n=1, cutoff=0.6)
    if close:
        g = gmap.gangs[choices[close[0]]]
        return say("did you mean {name} ({key})?", name=g.name, key=g.key)
    return say("gangs: {g}", g=join(gmap.gangs))


def resolve_gang(value: str, gmap: GameMap) -> str:
    """A gang's key from its key or name (``valley``, ``Valley Gang``); raises
    UnknownGangError with a suggestion."""
    gang = gmap.gang_by_name(value)
    if gang is None:
        raise UnknownGangError(value, say("no gang {q}", q=quote(value)), _gang_hint(value, gmap))
    return gang.key
