"""A mail to the lobby as a request (``LobbyRequest``): the pass it is answered in
(``LobbyPass``: the judge's settings, its registry, the clock, the wrong passwords of
the pass), the mail, its sender as a registered player, the language of the reply,
and the notices it owes. Who may send a command (``authorise``, from the command's
``who``), and the readers the lobby's commands share: the game a command names, the
side, the words after the game's name, the notices to a game's masters."""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Callable, Iterable
from datetime import datetime
from email.message import EmailMessage

import msgspec

from moonshine.game.deadlines import Moment
from moonshine.host.incoming import Mail
from moonshine.host.registry import (
    ACTIVE,
    FINISHED,
    FORMING,
    GAME_NAME,
    TERMINATED,
    GameRow,
    RegisteredPlayer,
    Registry,
)
from moonshine.host.settings import HostSettings
from moonshine.mail.commands.grammar import ANYONE, JUDGE_MASTER, MASTER, CommandLine, Refused
from moonshine.mail.outbox import compose
from moonshine.mail.passwords import MAX_WRONG_PASSWORDS
from moonshine.mail.settings import from_address
from moonshine.render.mailwords import Phrase, phrase
from moonshine.render.mailwords import text_or_english as words
from moonshine.text.catalogue import languages

Log = Callable[[str], None]


class LobbyPass(msgspec.Struct):
    """The lobby during one pass of the judge."""

    settings: HostSettings
    reg: Registry
    now: datetime
    log: Log
    wrong: Counter[str] = msgspec.field(default_factory=Counter)  # wrong passwords by address, this pass
    started: list[str] = msgspec.field(default_factory=list)  # games to start (full, or a master's start)
    passed_on: str | None = None  # the game that reads the rest of the mail being answered (its orders)

    @property
    def day(self) -> str:
        return self.now.date().isoformat()

    @property
    def budget(self) -> ReplyBudget:
        return ReplyBudget(self.reg, self.settings, self.now)


class ReplyBudget:
    """The judge's daily budget of mail to addresses that have not proven they are a
    player's (``limits.replies`` per address, ``limits.replies_total`` in all), counted
    in the registry: the lobby's replies and code mails, the passwords of new players,
    and every game's replies to messages whose sender and password did not check out
    (``moonshine.mail.inbox.context.Budget``)."""

    def __init__(self, reg: Registry, settings: HostSettings, now: datetime) -> None:
        self.reg, self.limits, self.day = reg, settings.limits, now.date().isoformat()

    def allow(self, address: str) -> bool:
        address = address.lower()
        if self.reg.requests(address, self.day, "reply") >= self.limits.replies:
            return False
        if self.reg.requests(ALL, self.day, "reply") >= self.limits.replies_total:
            return False
        with self.reg.transaction():
            self.reg.count_request(address, self.day, "reply")
            self.reg.count_request(ALL, self.day, "reply")
        return True


ALL = "*"  # the requests of every address, by day


class LobbyRequest(msgspec.Struct):
    """One mail being answered."""

    ctx: LobbyPass
    mail: Mail
    language: str
    player: RegisteredPlayer | None = None
    authenticated: bool = False
    refused: Phrase | None = None  # its password line was checked and refused: never checked twice
    notices: list[tuple[str, EmailMessage]] = msgspec.field(default_factory=list)

    @property
    def reg(self) -> Registry:
        return self.ctx.reg

    def say(self, key: str, /, **fields: object) -> str:
        return words(self.language, key, **fields)

    @property
    def zone(self) -> str:
        """The reader's time zone: their own, else the judge's."""
        if self.player is not None and self.player.timezone:
            return self.player.timezone
        return self.ctx.settings.timezone

    def moment(self, when: datetime, zone: str | None = None) -> Moment:
        """A time as the reply gives it: in the reader's zone (or ``zone``) and in UTC."""
        return Moment(when, zone or self.zone)


def authenticate(req: LobbyRequest) -> RegisteredPlayer:
    """The sender, registered, with the right password line (once per mail)."""
    from moonshine.mail.passwords import verify_password

    player = req.player
    if player is None:
        raise Refused(phrase("lobby.auth.not_registered", address=req.mail.sender))
    if req.authenticated:
        return player
    if req.refused is not None:
        raise Refused(req.refused)
    given = req.mail.password
    if given is None:
        raise Refused(phrase("lobby.auth.no_password"))
    stored = req.reg.password_hash(player.id)
    if stored is None:
        raise Refused(phrase("lobby.auth.no_password_yet"))
    if req.ctx.wrong[req.mail.sender] >= MAX_WRONG_PASSWORDS:
        raise Refused(phrase("lobby.auth.wrong_password", address=req.mail.sender))
    try:
        good = verify_password(given, stored)
    except ValueError:
        good = False
    if not good:
        req.ctx.wrong[req.mail.sender] += 1
        req.refused = phrase("lobby.auth.wrong_password", address=req.mail.sender)
        raise Refused(req.refused)
    req.authenticated = True
    req.reg.confirm(player.id, req.ctx.now)  # the password mailed to the address came back: it is proven
    return player


def authorise(req: LobbyRequest, cmd: CommandLine) -> None:
    """Whether the sender may send ``cmd`` (its command's ``who``): anyone; a
    registered player with their password; a master of the game it names; a master of
    the judge. Raises ``Refused`` saying why not."""
    assert cmd.command is not None
    who = cmd.command.who
    if who == ANYONE:
        return
    player = authenticate(req)
    if who == MASTER:
        row = game_named(req, cmd)
        if all(p.id != player.id for p in req.reg.masters(row.name)):
            raise Refused(phrase("lobby.master.not_master", game=row.name))
    elif who == JUDGE_MASTER and player.address not in req.ctx.settings.masters:
        raise Refused(phrase("lobby.master.not_creator"))


def game_named(req: LobbyRequest, cmd: CommandLine, word: str | None = None) -> GameRow:
    """The game a command names (its first word), else the mail's."""
    name = (word if word is not None else (cmd.args.split() or [""])[0]).lower()
    row = req.reg.game(name) if name and GAME_NAME.fullmatch(name) else None
    if row is None and word is None and req.mail.game is not None:
        row = req.reg.game(req.mail.game)
        if row is None:
            raise Refused(phrase("lobby.game.unknown", game=shown_name(req.mail.game)))
        return row
    if row is None:
        if not name:
            games = ", ".join(g.name for g in req.reg.games(FORMING, *ACTIVE)[:20])
            raise Refused(phrase("lobby.game.none", games=games or "-"))
        raise Refused(phrase("lobby.game.unknown", game=shown_name(name)))
    return row


def shown_name(word: str) -> str:
    """A game's name as a stranger wrote it, written back only when it could be one (a
    short word of letters, digits and dashes): never a link or a sentence of theirs."""
    return word if re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9-]{0,23}", word) else "?"


def after_game(cmd: CommandLine, row: GameRow) -> list[str]:
    """The words of the command after the game's name (when it was given)."""
    given = cmd.args.split()
    return given[1:] if given and given[0].lower() == row.name else given


def side_key(req: LobbyRequest, row: GameRow, word: str) -> str:
    """The side of ``row``'s game that ``word`` names (its key, or a name)."""
    from moonshine.host import games

    game = games.game_of(req.ctx.settings, row.name)
    key = game.side_by_name(word)
    if key is None:
        raise Refused(phrase("lobby.join.bad_side", side=word[:30], game=row.name, sides=", ".join(game.sides())))
    return key


def dedication_ok(req: LobbyRequest, player: RegisteredPlayer, row: GameRow) -> None:
    minimum = int(row.settings.get("dedication") or 0)
    percent = req.reg.dedication(player.id).percent
    if percent < minimum:
        raise Refused(phrase("lobby.join.dedication", game=row.name, minimum=minimum, percent=percent))


def is_anonymous(row: GameRow) -> bool:
    """Whether a game hides who plays which side (``anonymous`` at its creation;
    ``moonshine.game.identities``)."""
    return row.settings.get("anonymous") is True


def names_shown(req: LobbyRequest, row: GameRow) -> bool:
    """Whether the lobby may name a game's players to this mail's sender: always in a
    game that is not anonymous; in an anonymous one, once it is over and revealed at
    its end, or to one of its masters who gave their password (the masters know who is
    who; a sender's address alone proves nothing)."""
    if not is_anonymous(row):
        return True
    if row.status in (FINISHED, TERMINATED) and row.settings.get("reveal_identities", "at-end") == "at-end":
        return True
    if req.player is None or req.mail.password is None or all(p.id != req.player.id for p in req.reg.masters(row.name)):
        return False
    try:
        authenticate(req)
    except Refused:
        return False
    return True


def games_on_record(req: LobbyRequest, player: RegisteredPlayer) -> list[tuple[GameRow, str | None]]:
    """The games on ``player``'s record (``whois``), with their sides, as this mail's
    sender may read them: every one to the player themselves; to anyone else, no
    anonymous game whose players are not named to them (``names_shown``), so that a
    record never tells which anonymous game a player is in."""
    games = req.reg.games_of(player.id)
    if req.player is not None and req.player.id == player.id:
        return games
    return [(row, side) for row, side in games if names_shown(req, row)]


def by_name_or_title(rows: Iterable[GameRow]) -> dict[str, str]:
    """The games of ``rows`` (their names) by their names and by their titles, folded (a
    run of blanks as one space, no case): how a document of orders as JSON names its
    game (``docs/orders-json.md``); look a name up folded the same way (``folded``)."""
    found = {folded(str(g.settings.get("title") or "")): g.name for g in rows}
    found.pop("", None)
    return found | {g.name: g.name for g in rows}


def folded(name: str) -> str:
    """A game's name or title as ``by_name_or_title`` compares them."""
    return " ".join(name.split()).casefold()


def status_word(status: str) -> Phrase:
    """A game's status in the reader's words (``being played``)."""
    return phrase(f"lobby.status.{status}")


def variant_title(variant: str) -> str:
    from moonshine import variants

    return variants.get(variant).title if variants.is_known(variant) else variant


def notice(
    req: LobbyRequest,
    row: GameRow,
    what: str,
    *,
    name: str = "",
    side: str | None = None,
    also: list[RegisteredPlayer] | None = None,
) -> None:
    """A notice to each of the game's masters (and to each of ``also``): one mail a
    recipient, in their language, naming nobody else's address."""
    from moonshine.host import games

    cfg = req.ctx.settings.config
    game = games.game_of(req.ctx.settings, row.name)
    recipients = {p.address: p for p in [*req.reg.masters(row.name), *(also or [])]}
    key = f"{row.name}|{what}|{side}|{name}|{req.mail.digest}"
    for address, player in sorted(recipients.items()):
        lang = player.language if player.language in languages() else cfg.language
        lang = lang if lang in languages() else "en"
        shown = game.sides(lang).get(side, side) if side else ""
        head = words(lang, f"lobby.notice.{what}", name=name, side=shown)
        more_key = {
            "resigned": "resigned_more",
            "ejected": "ejected_more",
            "terminated": "terminated_more",
        }.get(what)
        more = words(lang, f"lobby.notice.{more_key}", game=row.name, side=shown) if more_key else ""
        body = words(lang, "announce.hello", name=player.name) + "\n\n"
        body += words(lang, "lobby.notice.body", text=head, more=more).rstrip() + "\n\n-- \n"
        body += words(lang, "lobby.signature", title=cfg.title) + "\n"
        msg = compose.text_message(
            sender=from_address(cfg),
            to=[address],
            subject=words(lang, "lobby.notice.subject", prefix=compose.subject_prefix(game.config), what=head),
            body=body,
            msg_id=compose.message_id(game.config, "notice", what, key, address),
            date=req.ctx.now,
            reply_to=from_address(cfg),
        )
        digest = hashlib.sha256(f"{key}|{address}".encode()).hexdigest()[:16]
        req.notices.append((f"notice-{digest}.eml", msg))
