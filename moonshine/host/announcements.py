"""Announcements to a game's players, as mails: every change a player should know of
(the deadline moved, a pause and its end, the resumption, a side ejected, resigned or
taken over, a master added, settings changed, a rollback, a turn processed early, the
end of the game and its taking back). Each recipient gets a mail of their own, greeted
by name, in their language, its times in their time zone and in UTC
(``moonshine.game.deadlines.Moment``), a new deadline in the house's sentence
(``Due``). Its subject has the game's tag and its Message-ID names the game
(``moonshine.mail.outbox.compose``), so that a player's reply to it goes to the game
(``moonshine.host.run.resolve``).

The lobby queues a master's or a player's announcements with its reply
(``moonshine.host.lobby.announce``); the pass queues those of a change nobody asked for
(a pause that ends by itself: ``moonshine.host.games.end_long_pauses``), each in the
registry's transaction of the change that owes it."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from datetime import datetime
from email.message import EmailMessage
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import msgspec

from moonshine.game.deadlines import UTC_NAMES, Moment
from moonshine.game.directory import Game
from moonshine.host.registry import GameRow, RegisteredPlayer, Registry
from moonshine.host.settings import HostSettings
from moonshine.mail.outbox import compose
from moonshine.mail.settings import from_address
from moonshine.render import mailwords
from moonshine.render.mailwords import text_or_english as words
from moonshine.text.catalogue import languages


class Due(msgspec.Struct, frozen=True):
    """A turn's new deadline, in the house's sentence for each reader (``Orders for
    Spring 1901 are due Thursday 3 December 2026, 11:00 CST = 17:00 UTC (in 3 days).``:
    ``moonshine.render.mailwords.deadline_line``), in their language and time zone;
    ``now``: when it is written (the time left is counted from it)."""

    turn: str
    when: datetime
    now: datetime


def reader_language(player: RegisteredPlayer, default: str) -> str:
    """The language a registered player reads: their own, else ``default``."""
    return player.language if player.language in languages() else default if default in languages() else "en"


def game_zone(row: GameRow, default: str) -> str:
    """The game's time zone (its schedule's), else ``default`` (the judge's)."""
    return str((row.settings.get("schedule") or {}).get("timezone") or default)


def announcements(
    settings: HostSettings,
    reg: Registry,
    row: GameRow,
    what: str,
    *,
    ident: str,
    now: datetime,
    about: str | None = None,
    to: Iterable[tuple[RegisteredPlayer, str | None]] | None = None,
    skip: Iterable[int] = (),
    **fields: object,
) -> list[tuple[str, EmailMessage]]:
    """The mails of ``announce.WHAT``, one a reader, each with the name of its file in
    the judge's outbox: to every player of the game with a side, but those of ``skip``
    (player ids), or to ``to`` (players and their sides). ``about``: the side it is
    about, named in each reader's language (``side``); each reader's own side is
    ``own``; a ``turn`` is worded in the reader's language, a time in their zone and in
    UTC, a ``Due`` in the house's deadline sentence. ``ident`` tells this announcement
    from any other of the game (the same ``ident``: the same files, the same
    Message-IDs, so that nothing is sent twice)."""
    game = Game(settings.game_dir(row.name))
    cfg = game.config
    judge_cfg = settings.config
    zone = game_zone(row, settings.timezone)
    left_out = set(skip)
    recipients = (
        list(to)
        if to is not None
        else [(m.player, m.side) for m in reg.members(row.name) if m.side is not None and m.player.id not in left_out]
    )
    out = []
    for player, own in recipients:
        lang = reader_language(player, cfg.language)
        names = game.sides(lang)
        reader_zone = player.timezone or zone
        values: dict[str, object] = {"game": row.name, "name": player.name}
        for k, v in fields.items():
            if isinstance(v, Due):
                turn = game.layout.turn_in_text(v.turn)
                values[k] = mailwords.deadline_line(lang, turn, v.when, _zone(reader_zone), now=v.now)
            else:
                values[k] = Moment(v, reader_zone) if isinstance(v, datetime) else v
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
        mark = f"{row.name}|{what}|{about}|{ident}|{player.address}"
        msg = compose.text_message(
            sender=from_address(judge_cfg),
            to=[player.address],
            subject=f"{compose.subject_prefix(cfg)} {head}",
            body=body,
            msg_id=compose.message_id(cfg, "announce", what, mark),
            date=now,
            reply_to=from_address(judge_cfg),
        )
        digest = hashlib.sha256(mark.encode()).hexdigest()[:16]
        out.append((f"announce-{row.name}-{digest}.eml", msg))
    return out


def _zone(name: str) -> ZoneInfo | None:
    """A reader's time zone for the deadline sentence (None: UTC alone, as for a zone
    this machine does not know)."""
    try:
        zone = ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return None
    return None if zone.key in UTC_NAMES else zone
