"""The lobby of a judge for many games: the commands by mail that are about no one
game's turn (``docs/commands.md``, "A judge for many games"), declared in the one
grammar of mail commands (``moonshine.mail.commands.grammar``) and listed here.

Players: ``register NAME[, ZONE][, LANGUAGE]``, ``password NEW``, ``whois [NAME]`` (or
``profile``), ``rename NAME``, ``address NEW`` and, from the new address, ``confirm
CODE``, ``forgot`` and ``reset CODE`` (``moonshine.host.lobby.players``), ``join GAME
[SIDE...]``, ``leave GAME``, ``resign GAME``, ``takeover GAME SIDE``, ``observe GAME``
(``seats``), ``list [GAME | vacant]``, ``help`` (``listing``). Masters: ``create GAME
VARIANT`` (and its settings on the lines below, to an empty line or ``end``),
``start``, ``pause``, ``resume``, ``extend GAME HOURS``, ``eject GAME SIDE``,
``promote GAME ADDRESS``, ``terminate`` (``masters``); ``deadline GAME WHEN``, ``grace
GAME HOURS``, ``process GAME``, ``rollback GAME TURN`` (``clock``); ``set GAME KEY
VALUE``, ``invite GAME ADDRESS`` (``configure``). Each has its French word. A command
naming a game may leave it out when the mail names it (a ``game:`` line, ``[GAME]`` in
the subject, or a reply to a mail of the game). Every change a player should know of
is announced to the game's players (``announce``).

Every command but ``register``, ``list``, ``help``, ``forgot``, ``reset`` and
``confirm`` needs the player's password (a ``password:`` line): the one password of
all their games, kept hashed in the registry. What a message costs is bounded: its
size (``inbox.max_message_bytes``), the lines read as commands (``limits.commands``),
each distinct command answered once, the reply's size (``limits.reply_bytes``), the
messages answered per address and day and the mail sent per day to addresses that
have not proven they are a player's (``limits.requests``, ``limits.replies``,
``limits.replies_total``), the registrations per address and day, three wrong
passwords per address and pass (a mail past them waits for the next pass,
``waits``). Mail from the judge's own address, or that the trusted mail server found
forged (``inbox.authserv_id``), is never answered.

A message is answered once: what it changes in the registry, its reply and the
notices it owes (to the masters, to an ejected player) are one transaction of
the registry; the mail is written to the judge's outbox just after
(``Registry.queue_mail``, ``moonshine.host.outbox``) and sent by the pass. What it
means for a game's directory is done by ``moonshine.host.games``."""

from __future__ import annotations

import contextlib
import re

from moonshine.errors import MoonshineError
from moonshine.game.deadlines import Moment
from moonshine.host.incoming import Mail, is_password_or_game_line, looks_like_orders, replies_to_lobby
from moonshine.host.lobby import clock, configure, listing, masters, players, seats
from moonshine.host.lobby.request import (
    LobbyPass,
    LobbyRequest,
    authenticate,
    authorise,
    by_name_or_title,
    folded,
    shown_name,
    status_word,
)
from moonshine.host.registry import ACTIVE, FORMING, STARTING
from moonshine.mail import intake, outbox
from moonshine.mail.commands import grammar
from moonshine.mail.commands.grammar import Grammar, Refused, Script
from moonshine.mail.outbox import compose
from moonshine.mail.passwords import MAX_WRONG_PASSWORDS
from moonshine.mail.settings import from_address
from moonshine.render.mailwords import Phrase, phrase
from moonshine.text.catalogue import languages
from moonshine.text.english import count
from moonshine.text.wrap import line_ranges

LOBBY = Grammar(
    (
        players.REGISTER,
        players.PASSWORD,
        players.WHOIS,
        players.RENAME,
        players.ADDRESS_CHANGE,
        players.CONFIRM,
        players.FORGOT,
        players.RESET,
        listing.LIST,
        seats.JOIN,
        seats.LEAVE,
        seats.RESIGN,
        seats.TAKEOVER,
        seats.OBSERVE,
        masters.CREATE,
        masters.START,
        masters.PAUSE,
        masters.RESUME,
        masters.EXTEND,
        clock.DEADLINE,
        clock.GRACE,
        configure.SET,
        configure.INVITE,
        clock.PROCESS,
        clock.ROLLBACK,
        masters.EJECT,
        masters.PROMOTE,
        masters.TERMINATE,
        listing.HELP,
    ),
    skip=lambda line: not line.strip() or is_password_or_game_line(line),
    ignoring=True,
)


def read(mail: Mail) -> Script:
    """The lobby's commands in a mail. In a mail that names a game, ``help`` is the
    game's."""
    leave_out = ("help",) if mail.game is not None else ()
    return grammar.read(mail.lines, LOBBY, leave_out=leave_out)


def is_command_line(line: str) -> bool:
    """A line the lobby reads as its command: never orders, in a mail a game reads too."""
    return bool(grammar.read([line], LOBBY).known())


def has_commands(mail: Mail) -> bool:
    """Whether the lobby is the mail's reader: a command of the lobby in it."""
    return bool(read(mail).known())


WAITS = f"held for the next pass: {MAX_WRONG_PASSWORDS} wrong passwords from this address in this pass"


def waits(ctx: LobbyPass, mail: Mail) -> bool:
    """Whether the mail is left unread for the next pass: its password line would be
    checked, and its address gave ``MAX_WRONG_PASSWORDS`` wrong ones in this pass.
    Wrong passwords throttle what is checked, never what is kept: the owner's mail
    behind forged guesses is read, first, by the next pass."""
    return (
        bool(mail.sender)
        and mail.password is not None
        and ctx.wrong[mail.sender] >= MAX_WRONG_PASSWORDS
        and ctx.reg.player(mail.sender) is not None
    )


def answer(ctx: LobbyPass, mail: Mail) -> str:
    """Do the mail's commands and queue its reply, in one transaction; returns what
    became of it, for the log. Its password line, when it has one, is checked first:
    a mail whose sender has not proven it is a player's costs within the day's bounds
    (``limits.requests``, ``limits.replies``), a player's always gets its answer."""
    reg = ctx.reg
    limits = ctx.settings.limits
    if mail.automatic:
        return "automatic reply or bounce: not answered"
    if not mail.sender:
        return "no sender: not answered"
    if mail.own:
        reg.mark_answered(mail.digest, sender=mail.sender, outcome="own address", now=ctx.now)
        return "from the judge's own address: not answered"
    if mail.forged:
        outcome = f"forged sender: the mail server says {mail.forged} for {mail.sender}; not answered"
        reg.mark_answered(mail.digest, sender=mail.sender, outcome="forged sender", now=ctx.now)
        return outcome
    script = read(mail)
    player = reg.player(mail.sender)
    if not script.commands and player is None and mail.game is None:
        reg.mark_answered(mail.digest, sender=mail.sender, outcome="unsolicited", now=ctx.now)
        return "not from a player, and no command in it: not answered"
    language = player.language if player is not None else _guess_language(ctx, script)
    req = LobbyRequest(ctx, mail, language, player)
    if player is not None and mail.password is not None:
        with contextlib.suppress(Refused):  # a wrong one is said by the commands that need it
            authenticate(req)
    if not req.authenticated:
        why = ""
        if reg.requests(mail.sender, ctx.day, "message") >= limits.requests:
            why = f"more than {limits.requests} mails from {mail.sender} today"
        elif not ctx.budget.allow(mail.sender):
            why = f"the day's mail to {mail.sender} (not proven a player's) is spent"
        if why:
            reg.mark_answered(mail.digest, sender=mail.sender, outcome="over the day's bounds", now=ctx.now)
            return f"{why}: not answered"
    with reg.transaction():
        reg.count_request(mail.sender, ctx.day, "message")
        results = _results(req, script)
        if not script.commands:
            domain = compose.mail_domain(ctx.settings.config)
            if mail.game is None and replies_to_lobby(mail, domain) and not looks_like_orders(mail):
                # "Thanks!" to the judge's reply: nothing to answer
                reg.mark_answered(mail.digest, sender=mail.sender, outcome="a reply to the judge", now=ctx.now)
                return "a reply to the judge's mail, with no command: not answered"
            results.append(_route_note(req).text(_wording(req.language)))
        _queue_reply(req, results)
        for name, msg in req.notices:
            reg.queue_mail(ctx.day, name, outbox.serialise(msg))
        outcome = f"answered ({count(len(script.known()), 'command')})"
        reg.mark_answered(mail.digest, sender=mail.sender, outcome=outcome, now=ctx.now)
    return outcome


def _results(req: LobbyRequest, script: Script) -> list[str]:
    """Each command's line of the reply: at most ``limits.commands`` lines read as
    commands (misspelt ones too), each distinct command answered once. A stranger's
    words are never sent back: the command is named by its keyword, and only a
    player who proved their password reads their own line again."""
    ctx = req.ctx
    mail = req.mail
    limit = ctx.settings.limits.commands
    results: list[str] = []
    seen: dict[tuple[str, str, tuple[tuple[str, str], ...]], int] = {}
    for cmd in script.commands[:limit]:
        if cmd.command is None:
            results.append(req.say("lobby.unknown", word=cmd.word[:20], keyword=cmd.suggestion))
            continue
        key = (cmd.command.name, " ".join(cmd.args.lower().split()), tuple((k, v) for _, k, v in cmd.settings))
        if key in seen:
            results.append(req.say("lobby.same", line=str(cmd.line), first=str(seen[key])))
            continue
        seen[key] = cmd.line
        shown = cmd.command.shown(req.language)
        secret = cmd.command.name in SECRET_ARGUMENTS  # never written back, nor logged
        written = shown if secret else f"{shown} {cmd.args}".strip()[:60]
        echoed = written if req.authenticated else shown
        try:
            done = grammar.answer(req, cmd, authorise)
        except MoonshineError as exc:
            why = req.say("lobby.failed", error=str(exc)[:300])
            results.append(req.say("lobby.refused", line=str(cmd.line), command=echoed, text=why))
            ctx.log(f"ERROR lobby: {mail.sender}: {written}: {exc}")
            continue
        if req.authenticated:
            echoed = written
        text = done.say.text(_wording(req.language))
        if done.done:
            results.append(req.say("lobby.done", line=str(cmd.line), command=echoed, text=text))
            ctx.log(f"lobby: {mail.sender}: {written}: done")
        else:
            results.append(req.say("lobby.refused", line=str(cmd.line), command=echoed, text=text))
            ctx.log(f"lobby: {mail.sender}: {written}: refused: {text}")
    if len(script.commands) > limit:
        results.append(req.say("lobby.too_many", n=limit))
    if mail.too_long:
        results.append(req.say("lobby.too_long", lines=line_ranges(mail.too_long), n=intake.MAX_LINE))
    if script.ignored and script.commands:
        lines = line_ranges(list(script.ignored))
        if ctx.passed_on is not None:
            results.append(req.say("lobby.passed_on", lines=lines, game=ctx.passed_on))
        else:
            results.append(req.say("lobby.ignored", lines=lines))
    return _within(req, results)


# Commands whose words are a secret (a password, a code): never echoed, never logged.
SECRET_ARGUMENTS = ("password", "confirm", "reset")


def _within(req: LobbyRequest, results: list[str]) -> list[str]:
    """The reply's lines, cut to ``limits.reply_bytes`` in all, the cut said."""
    limit = req.ctx.settings.limits.reply_bytes
    kept: list[str] = []
    size = 0
    for i, text in enumerate(results):
        size += len(text.encode("utf-8")) + 2
        if size > limit:
            kept.append(req.say("lobby.cut", n=len(results) - i, size=limit // 1024))
            break
        kept.append(text)
    return kept


def _wording(language: str) -> str:
    """The language a reply is worded in: English for one the judge has no catalogue of."""
    return language if language in languages() else "en"


def _route_note(req: LobbyRequest) -> Phrase:
    """Why a mail with no command of the lobby came to it: the game it names (a ``game:``
    line, ``[GAME]`` in the subject, or its orders as JSON's ``game``) is not being
    played, or it names none and the player plays several (or none)."""
    reg = req.reg
    named = req.mail.game
    if named is None and req.mail.json_game is not None:  # by its name or its title
        named = by_name_or_title(reg.games()).get(folded(req.mail.json_game), req.mail.json_game)
    if named is not None:
        row = reg.game(named)
        if row is None:
            return phrase("lobby.game.unknown", game=shown_name(named))
        if row.status in (FORMING, STARTING):
            return phrase("lobby.route.forming", game=row.name)
        left = reg.left(row.name, req.player.id) if req.player is not None else None
        if row.status in ACTIVE and left is not None:
            return phrase(f"lobby.route.{left}", game=row.name)
        return phrase("lobby.route.over", game=row.name, status=status_word(row.status))
    if req.player is None:
        return phrase("lobby.nothing")
    games = [g.name for g, side in reg.games_of(req.player.id) if side is not None and g.status in ACTIVE]
    if not games:
        return phrase("lobby.route.no_game")
    return phrase("lobby.route.which", games=", ".join(games))


def _guess_language(ctx: LobbyPass, script: Script) -> str:
    if any(c.language == "fr" for c in script.known()):
        return "fr" if "fr" in languages() else ctx.settings.config.language
    return ctx.settings.config.language


def _queue_reply(req: LobbyRequest, results: list[str]) -> None:
    ctx = req.ctx
    cfg = ctx.settings.config
    mail = req.mail
    player = req.reg.player(mail.sender) if req.player is None else req.player
    hello = req.say("lobby.hello", name=player.name) if player is not None else req.say("lobby.hello_stranger")
    received = Moment(mail.received or ctx.now, req.zone)
    body = (
        f"{hello}\n\n{req.say('lobby.intro', received=received)}\n\n"
        + "\n\n".join(results)
        + "\n\n-- \n"
        + req.say("lobby.signature", title=cfg.title)
        + "\n"
    )
    reference = mail.message_id if re.fullmatch(r"<[!-;=?-~]{1,250}>", mail.message_id) else None
    msg = compose.text_message(
        sender=from_address(cfg),
        to=[mail.sender],
        subject=req.say("lobby.subject", prefix=compose.subject_prefix(cfg)),
        body=body,
        msg_id=compose.message_id(cfg, "lobby", "reply", mail.digest),
        date=ctx.now,
        reply_to=from_address(cfg),
        in_reply_to=reference,
        auto="auto-replied",
    )
    req.reg.queue_mail(ctx.day, f"reply-{mail.digest[:16]}.eml", outbox.serialise(msg))
