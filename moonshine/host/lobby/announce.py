"""Announcements to a game's players: every change a player should know of, made by
a master's command or a player's (the deadline moved, a pause, the resumption, a
side ejected, resigned or taken over, a master added, settings changed, a rollback,
a turn processed early, the end of the game and its taking back). Each recipient
gets a mail of their own, greeted by name, in their language, its times in their
time zone and in UTC (``moonshine.game.deadlines.Moment``); the master who asked
gets the lobby's reply as before.

An announcement is queued with the reply, in the transaction of the command that
owes it (``LobbyRequest.notices``). Its subject has the game's tag and its
Message-ID names the game (``moonshine.mail.outbox.compose``), so that a player's
reply to it goes to the game (``moonshine.host.run.resolve``)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta

import msgspec

from moonshine.game.deadlines import Moment
from moonshine.host.lobby.request import LobbyRequest
from moonshine.host.registry import GameRow, RegisteredPlayer
from moonshine.mail.outbox import compose
from moonshine.mail.settings import from_address
from moonshine.render import mailwords
from moonshine.render.mailwords import text_or_english as words
from moonshine.text.catalogue import languages


class Left(msgspec.Struct, frozen=True):
    """A time left, in a sentence of any language (``2 days 3 hours left``)."""

    seconds: int

    def text(self, language: str = "en") -> str:
        start = datetime(2000, 1, 1, tzinfo=UTC)
        return mailwords.describe_time_left(start + timedelta(seconds=self.seconds), start, language)


def reader_language(player: RegisteredPlayer, default: str) -> str:
    """The language a registered player reads: their own, else ``default``."""
    return player.language if player.language in languages() else default if default in languages() else "en"


def game_zone(row: GameRow, default: str) -> str:
    """The game's time zone (its schedule's), else ``default`` (the judge's)."""
    return str((row.settings.get("schedule") or {}).get("timezone") or default)


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
    their sides). ``about``: the side it is about, named in each reader's language
    (``side``); each reader's own side is ``own``; a ``turn`` is worded in the
    reader's language, a time in their zone and in UTC. ``key`` tells this
    announcement from another of the same mail (the command's line). Returns how many
    were queued."""
    from moonshine.host import games

    game = games.game_of(req.ctx.settings, row.name)
    cfg = game.config
    judge_cfg = req.ctx.settings.config
    zone = game_zone(row, req.ctx.settings.timezone)
    left_out = set(skip)
    recipients = (
        list(to)
        if to is not None
        else [
            (m.player, m.side) for m in req.reg.members(row.name) if m.side is not None and m.player.id not in left_out
        ]
    )
    n = 0
    for player, own in recipients:
        lang = reader_language(player, cfg.language)
        names = game.sides(lang)
        values: dict[str, object] = {"game": row.name, "name": player.name}
        for k, v in fields.items():
            values[k] = Moment(v, player.timezone or zone) if isinstance(v, datetime) else v
        if isinstance(fields.get("turn"), str):
            values["turn"] = game.layout.turn_in_text(str(fields["turn"]))
        if about is not None:
            values["side"] = names.get(about, about)
        if own is not None:
            values["own"] = names.get(own, own)
        head = words(lang, f"announce.{what}.head", **values)
        body = (
            words(lang, "announce.hello", name=player.name)
            + "\n\n"
            + words(lang, f"announce.{what}", **values)
            + "\n\n-- \n"
            + words(lang, "lobby.signature", title=judge_cfg.title)
            + "\n"
        )
        ident = f"{row.name}|{what}|{about}|{key}|{req.mail.digest}|{player.address}"
        msg = compose.text_message(
            sender=from_address(judge_cfg),
            to=[player.address],
            subject=f"{compose.subject_prefix(cfg)} {head}",
            body=body,
            msg_id=compose.message_id(cfg, "announce", what, ident),
            date=req.ctx.now,
            reply_to=from_address(judge_cfg),
        )
        digest = hashlib.sha256(ident.encode()).hexdigest()[:16]
        req.notices.append((f"announce-{row.name}-{digest}.eml", msg))
        n += 1
    return n
