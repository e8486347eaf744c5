"""Announcements to a game's players: every change a player should know of, made by
a master's command or a player's (the deadline moved, a pause, the resumption, a
side ejected, resigned or taken over, a master added, settings changed, a rollback,
a turn processed early, the end of the game and its taking back). Each recipient
gets a mail of their own (``moonshine.host.announcements``: greeted by name, in their
language, its times in their time zone and in UTC); the master who asked gets the
lobby's reply as before.

An announcement is queued with the reply, in the transaction of the command that
owes it (``LobbyRequest.notices``)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime, timedelta

import msgspec

from moonshine.host.announcements import announcements
from moonshine.host.lobby.request import LobbyRequest
from moonshine.host.registry import GameRow, RegisteredPlayer
from moonshine.render import mailwords


class Left(msgspec.Struct, frozen=True):
    """A time left, in a sentence of any language (``2 days 3 hours left``)."""

    seconds: int

    def text(self, language: str = "en") -> str:
        start = datetime(2000, 1, 1, tzinfo=UTC)
        return mailwords.describe_time_left(start + timedelta(seconds=self.seconds), start, language)


def turn_words(req: LobbyRequest, row: GameRow, turn: str) -> object:
    """A turn of the game as a sentence words it in the reader's language (``Spring
    1901``, ``le printemps 1901``; a Moonshine turn or a classic phase)."""
    from moonshine.host import games

    return games.game_of(req.ctx.settings, row.name).layout.turn_in_text(turn)


def announce(
    req: LobbyRequest,
    row: GameRow,
    what: str,
    *,
    key: str,
    about: str | None = None,
    to: Iterable[tuple[RegisteredPlayer, str | None]] | None = None,
    skip: Iterable[int] = (),
    **fields: object,
) -> int:
    """``announce.WHAT`` (its subject ``announce.WHAT.head``) to every player of the
    game with a side, but those of ``skip`` (player ids), or to ``to`` (players and
    their sides), queued with the command's reply (``announcements``). ``key`` tells
    this announcement from another of the same mail (the command's line). Returns how
    many were queued."""
    found = announcements(
        req.ctx.settings,
        req.reg,
        row,
        what,
        ident=f"{key}|{req.mail.digest}",
        now=req.ctx.now,
        about=about,
        to=to,
        skip=skip,
        **fields,
    )
    req.notices.extend(found)
    return len(found)
