"""The lobby of a judge for many games: the commands by mail that are about no one
game's turn (``docs/commands.md``, "A judge for many games").

Players: ``register NAME[, ZONE][, LANGUAGE]``, ``password NEW``, ``whois`` (or
``profile``), ``list [GAME | vacant]``, ``join GAME [SIDE...]``, ``leave GAME``,
``resign GAME``, ``takeover GAME SIDE``, ``help``. Masters: ``create GAME VARIANT``
(and its settings on the lines below, to an empty line or ``end``), ``start``,
``pause``, ``resume``, ``extend GAME HOURS``, ``eject GAME SIDE``, ``promote GAME
ADDRESS``, ``terminate``. Each has its French word. A command naming a game may
leave it out when the mail names it (a ``game:`` line, or ``[GAME]`` in the subject).

Every command but ``register``, ``list`` and ``help`` needs the player's password
(a ``password:`` line): the one password of all their games, kept hashed in the
registry. What a message costs is bounded: its size (``inbox.max_message_bytes``),
the commands done (``limits.commands``), the messages answered per address and
day (``limits.requests``), the registrations per address and day, three wrong
passwords per address and pass.

A message is answered once: what it changes in the registry, its reply and the
notices it owes (to the masters, to an ejected player) are one transaction of
the registry; the mail is written to the lobby's outbox just after
(``Registry.queue_mail``) and sent by the pass. What it means for a game's
directory is done by ``moonshine.judge.seating``."""

from __future__ import annotations

import difflib
import hashlib
import re
from collections import Counter
from collections.abc import Callable
from datetime import datetime, timedelta
from email.message import EmailMessage, Message
from typing import Any

import msgspec

from moonshine.errors import MoonshineError
from moonshine.judge import intake, outbox
from moonshine.judge.commands import fold
from moonshine.judge.envelope import header_text, is_automatic, received_when, sender_of
from moonshine.judge.judgefile import Settings
from moonshine.judge.registry import (
    ACTIVE,
    FORMING,
    GAME_NAME,
    PAUSED,
    RUNNING,
    STARTING,
    TERMINATED,
    GameRow,
    Player,
    Registry,
)
from moonshine.text.catalogue import Catalogue, fill, keyed, languages
from moonshine.text.wrap import line_ranges

Log = Callable[[str], None]

REGISTER, PASSWORD, WHOIS, LIST, JOIN, LEAVE, RESIGN, TAKEOVER, HELP = (
    "register",
    "password",
    "whois",
    "list",
    "join",
    "leave",
    "resign",
    "takeover",
    "help",
)
CREATE, START, PAUSE, RESUME, EXTEND, EJECT, PROMOTE, TERMINATE = (
    "create",
    "start",
    "pause",
    "resume",
    "extend",
    "eject",
    "promote",
    "terminate",
)
MASTERS_ONLY = (START, PAUSE, RESUME, EXTEND, EJECT, PROMOTE, TERMINATE)
OPEN = (REGISTER, LIST, HELP)  # without a password
# keyword (folded) -> command; French second
KEYWORDS: dict[str, str] = {
    "register": REGISTER,
    "inscription": REGISTER,
    "inscrire": REGISTER,
    "password": PASSWORD,
    "motdepasse": PASSWORD,
    "whois": WHOIS,
    "profile": WHOIS,
    "profil": WHOIS,
    "list": LIST,
    "liste": LIST,
    "join": JOIN,
    "rejoindre": JOIN,
    "leave": LEAVE,
    "quitter": LEAVE,
    "resign": RESIGN,
    "abandonner": RESIGN,
    "takeover": TAKEOVER,
    "reprendre": TAKEOVER,
    "create": CREATE,
    "creer": CREATE,
    "start": START,
    "demarrer": START,
    "pause": PAUSE,
    "resume": RESUME,
    "reprise": RESUME,
    "extend": EXTEND,
    "prolonger": EXTEND,
    "eject": EJECT,
    "expulser": EJECT,
    "promote": PROMOTE,
    "promouvoir": PROMOTE,
    "terminate": TERMINATE,
    "terminer": TERMINATE,
    "help": HELP,
    "aide": HELP,
}
FRENCH = {
    "inscription",
    "inscrire",
    "motdepasse",
    "profil",
    "liste",
    "rejoindre",
    "quitter",
    "abandonner",
    "reprendre",
    "creer",
    "demarrer",
    "reprise",
    "prolonger",
    "expulser",
    "promouvoir",
    "terminer",
    "aide",
}
SHOWN_FR = {
    REGISTER: "inscription",
    PASSWORD: "mot de passe",
    WHOIS: "profil",
    LIST: "liste",
    JOIN: "rejoindre",
    LEAVE: "quitter",
    RESIGN: "abandonner",
    TAKEOVER: "reprendre",
    CREATE: "créer",
    START: "démarrer",
    PAUSE: "pause",
    RESUME: "reprise",
    EXTEND: "prolonger",
    EJECT: "expulser",
    PROMOTE: "promouvoir",
    TERMINATE: "terminer",
    HELP: "aide",
}
_PASSWORD_LINE = re.compile(r"^\s*(?:password|mot\s+de\s+passe)\s*:\s*(.*?)\s*$", re.I)
_GAME_LINE = re.compile(r"^\s*(?:game|partie)\s*:\s*(\S+)\s*$", re.I)
_SUBJECT_GAME = re.compile(r"\[([A-Za-z][A-Za-z0-9-]{1,23})\]")
# "mot de passe NOUVEAU" (no colon): the French of "password NEW"
_MOT_DE_PASSE = re.compile(r"^\s*mot\s+de\s+passe(?!\s*:)\s+(.*?)\s*$", re.I)
# create's settings, by their folded name (English, French)
SETTINGS = {
    "title": "title",
    "titre": "title",
    "language": "language",
    "langue": "language",
    "deadlines": "deadlines",
    "echeances": "deadlines",
    "every": "every",
    "chaque": "every",
    "timezone": "timezone",
    "fuseau": "timezone",
    "grace": "grace",
    "min_gap": "min_gap",
    "ecart": "min_gap",
    "reminders": "reminders",
    "rappels": "reminders",
    "press": "press",
    "presse": "press",
    "dedication": "dedication",
    "assiduite": "dedication",
    "victory_vp": "victory_vp",
    "minimum_bribe": "minimum_bribe",
}
MAX_WRONG_PASSWORDS = 3  # per address and pass; later messages are not answered
PRESS_KINDS = ("none", "white", "grey")


TEXTS: Catalogue = {
    "lobby.subject": "{prefix} Your mail to the judge",
    "lobby.hello": "Hello {name},",
    "lobby.hello_stranger": "Hello,",
    "lobby.intro": "The judge read your mail of {received}. What it did:",
    "lobby.done": "line {line}: {command}: done. {text}",
    "lobby.refused": "line {line}: {command}: refused. {text}",
    "lobby.ignored": (
        "Lines {lines}: no command of the judge; ignored. Orders go in a mail of their own with a 'game:' line."
    ),
    "lobby.nothing": "Your mail holds no command of the judge. Send 'help' for the list.",
    "lobby.too_many": ("Only the first command of a mail is done.", "Only the first {n} commands of a mail are done."),
    "lobby.unknown": "'{word}' is no command of the judge. Did you mean '{keyword}'?",
    "lobby.unknown_plain": "'{word}' is no command of the judge. Send 'help' for the list.",
    "lobby.failed": "The judge could not do it ({error}); the judge's masters are told.",
    "lobby.signature": "{title}",
    # -- who is writing -------------------------------------------------------------------
    "lobby.auth.not_registered": "{address} is not registered: send 'register Your Name' first.",
    "lobby.auth.no_password": "This command needs your password: add a line 'password: ...'.",
    "lobby.auth.wrong_password": "Wrong password for {address}. Nothing was changed.",
    "lobby.auth.no_password_yet": "Your password is on its way in a mail of its own; send this again with it.",
    # -- register, password, whois ----------------------------------------------------------
    "lobby.register.done": (
        "You are registered as {name} ({address}). Your password comes in a mail of its own: one "
        "password for all your games."
    ),
    "lobby.register.already": "{address} is registered already, as {name}.",
    "lobby.register.no_name": (
        "Give your name: register Your Name, Europe/Paris, fr (the time zone and the language may be left out)."
    ),
    "lobby.register.bad_zone": "Unknown time zone '{zone}' (for example Europe/Paris, America/Chicago, UTC).",
    "lobby.register.bad_language": "Unknown language '{language}' (expected {languages}).",
    "lobby.register.limit": "Too many registrations from this address today; try again tomorrow.",
    "lobby.password.done": "Your password is changed, for all your games.",
    "lobby.password.weak": (
        "That password is too short or too easy: at least 10 characters, words rather than one "
        "character repeated or only digits."
    ),
    "lobby.password.subject": "{prefix} Your password",
    "lobby.password.body": (
        "{name},\n\nYou are registered with the judge {title} as {name} ({address}).\n\n"
        "Your password, for all your games: {password}\n\n"
        "Put it on a line 'password: ...' in every mail to the judge. To change it, send "
        "'password NEW' with your password line. Keep this mail private."
    ),
    "lobby.whois": (
        "{name} <{address}>, time zone {zone}, language {language}, registered {registered}. "
        "Dedication {percent}%: turns ordered on time, {on_time} of {due}; resignations: {resigned}; "
        "games finished: {finished}. Games: {games}."
    ),
    "lobby.whois.none": "none",
    # -- list ---------------------------------------------------------------------------------
    "lobby.list.forming": "Games waiting for players:",
    "lobby.list.no_forming": "No game is waiting for players.",
    "lobby.list.forming_line": (
        "  {game}: {variant}, sides free: {free} of {sides}, deadlines {rule}, press {press}, "
        "dedication at least {dedication}%"
    ),
    "lobby.list.running": "Games being played:",
    "lobby.list.no_running": "No game is being played.",
    "lobby.list.running_line": "  {game}: {variant}, {status}, vacant sides: {vacant}",
    "lobby.list.vacant": "Vacant sides (takeover GAME SIDE):",
    "lobby.list.no_vacant": "No side is vacant.",
    "lobby.list.vacant_line": (
        "  {game}: {side} ({name}), {variant}, vacant since {since}, dedication at least {dedication}%"
    ),
    "lobby.list.game": (
        "{game}: {title}, {variant}, {status}. Masters: {masters}. Deadlines {rule} ({zone}), "
        "press {press}, dedication at least {dedication}%. Sides: {sides}. Players: {players}. "
        "Seed hash of the draw of sides: {seed_hash}."
    ),
    "lobby.list.game_turn": "Turn {turn}, deadline {due}.",
    "lobby.list.nobody": "none yet",
    "lobby.status.forming": "waiting for players",
    "lobby.status.starting": "starting",
    "lobby.status.running": "being played",
    "lobby.status.paused": "paused",
    "lobby.status.finished": "finished",
    "lobby.status.terminated": "terminated",
    # -- join, leave, resign, takeover ------------------------------------------------------
    "lobby.game.none": "Name the game: a line 'game: NAME', or the command followed by its name ({games}).",
    "lobby.game.unknown": "No game '{game}' (send 'list' for the games).",
    "lobby.join.done": "You joined {game}: places taken, {n} of {sides}. It starts when it is full.",
    "lobby.join.full": "You joined {game}, and it is full: it starts now. Your side comes in the start mail.",
    "lobby.join.not_forming": (
        "{game} is not waiting for players (it is {status}); 'list vacant' shows the sides to take over."
    ),
    "lobby.join.already": "You are in {game} already.",
    "lobby.join.dedication": "{game} asks for a dedication of at least {minimum}%; yours is {percent}%.",
    "lobby.join.bad_side": "No side '{side}' in {game} (sides: {sides}).",
    "lobby.leave.done": "You left {game}.",
    "lobby.leave.not_member": "You are not in {game}.",
    "lobby.leave.started": "{game} has started: 'resign {game}' leaves your side vacant.",
    "lobby.resign.done": (
        "You resigned from {game}: {side} is vacant, its units hold until someone takes it over; the masters are told."
    ),
    "lobby.resign.not_playing": "You play no side in {game}.",
    "lobby.takeover.done": (
        "{side} of {game} is yours. Its history (every report so far) comes in a mail of its own; "
        "send your orders with 'game: {game}'."
    ),
    "lobby.takeover.not_vacant": "{side} is not vacant in {game} (vacant: {vacant}).",
    "lobby.takeover.in_game": "You play in {game} already.",
    "lobby.takeover.usage": "Name the side: takeover GAME SIDE.",
    # -- masters ----------------------------------------------------------------------------
    "lobby.master.not_master": "Only a master of {game} may do this.",
    "lobby.master.not_creator": "Only the judge's masters may create games.",
    "lobby.create.done": (
        "{game} is created: {variant}, sides: {sides}, deadlines {rule}, press {press}, dedication "
        "at least {dedication}%. Seed hash of the draw of sides: {seed_hash}."
    ),
    "lobby.create.usage": (
        "Create a game with: create NAME VARIANT (variants: {variants}), its settings on the lines below."
    ),
    "lobby.create.bad_name": (
        "'{game}' cannot name a game: 2 to 24 lower-case letters, digits or dashes, starting with a letter."
    ),
    "lobby.create.exists": "There is a game '{game}' already.",
    "lobby.create.bad_setting": "Setting '{key}': {why}",
    "lobby.create.unknown_setting": "Unknown setting '{key}' (settings: {keys}).",
    "lobby.create.failed": "The game could not be made: {why}",
    "lobby.start.done": "{game} starts now; players: {n}; sides without a player (their units hold): {vacant}.",
    "lobby.start.not_forming": "{game} has started already.",
    "lobby.start.nobody": "{game} has no player yet.",
    "lobby.pause.done": (
        "{game} is paused: no deadline runs until 'resume', which gives its players back the time "
        "they had left. Orders and press sent meanwhile are read and answered as usual."
    ),
    "lobby.pause.not_running": "{game} is not being played (it is {status}).",
    "lobby.resume.done": "{game} goes on: the deadline of {turn} is {due}.",
    "lobby.resume.not_paused": "{game} is not paused.",
    "lobby.extend.done": "The deadline of {turn} in {game} is now {due}.",
    "lobby.extend.paused": (
        "{game} is paused: when it resumes, its players will have {n} hour more than they had left.",
        "{game} is paused: when it resumes, its players will have {n} hours more than they had left.",
    ),
    "lobby.extend.usage": "Give the hours, from 1 to 720: extend GAME 24.",
    "lobby.extend.no_deadline": "{game} has no deadline to extend.",
    "lobby.eject.done": "{side} ({name}) is ejected from {game}: the side is vacant, its units hold.",
    "lobby.eject.no_player": "No player plays '{side}' in {game}.",
    "lobby.promote.done": "{name} is a master of {game} too.",
    "lobby.promote.usage": "Name the new master's address: promote GAME ADDRESS (a registered player).",
    "lobby.terminate.done": "{game} is terminated: no more turns. Its players are told.",
    # -- notices ---------------------------------------------------------------------------
    "lobby.notice.subject": "{prefix} {game}: {what}",
    "lobby.notice.resigned": "{name} resigned {side}",
    "lobby.notice.taken": "{name} took over {side}",
    "lobby.notice.ejected": "{side} ejected",
    "lobby.notice.terminated": "the game is terminated",
    "lobby.notice.body": "{text}\n\n{more}",
    "lobby.notice.resigned_more": (
        "The side is vacant and its units hold; 'list vacant' offers it to the judge's players."
    ),
    "lobby.notice.ejected_more": (
        "A master of {game} ejected {side}; its units hold until another player takes it over."
    ),
    "lobby.notice.terminated_more": "A master of {game} ended it: no turn will be adjudicated any more.",
    # -- routing ----------------------------------------------------------------------------
    "lobby.route.which": "You play in {games}: name the game with a line 'game: NAME' (or [NAME] in the subject).",
    "lobby.route.no_game": "You play in no game: 'list' shows the games waiting for players, 'join GAME' joins one.",
    "lobby.route.over": "{game} is over ({status}): nothing sent to it is read any more.",
    "lobby.route.forming": "{game} has not started yet: orders are taken once it has.",
    "lobby.help": (
        "Commands of the judge (one a line; a password line 'password: ...' for all but register, list and help):\n"
        "  register NAME[, TIME ZONE][, LANGUAGE]   your password comes by mail\n"
        "  password NEW           change your password\n"
        "  whois                  your record and dedication\n"
        "  list [GAME | vacant]   games waiting for players and being played; a game; vacant sides\n"
        "  join GAME [SIDE...]    join a game (the sides you prefer, in order)\n"
        "  leave GAME             leave a game before it starts\n"
        "  resign GAME            leave a game being played: your side is vacant\n"
        "  takeover GAME SIDE     take a vacant side\n"
        "Masters: create GAME VARIANT (settings below), start, pause, resume, extend GAME HOURS, "
        "eject GAME SIDE, promote GAME ADDRESS, terminate GAME.\n"
        "Orders and a game's commands go in a mail with 'game: NAME', your side's line and your password."
    ),
}


def say(language: str, key: str, /, **fields: object) -> str:
    lang = language if language in languages() else "en"
    return fill(lang, keyed(lang, TEXTS, key, fields.get("n")), **fields)


# -- reading a mail ---------------------------------------------------------------------------


class Mail(msgspec.Struct):
    """A message to the judge, as far as the lobby and the routing need it."""

    raw: bytes
    digest: str
    sender: str = ""
    subject: str = ""
    message_id: str = ""
    received: datetime | None = None
    automatic: bool = False
    problem: str = ""  # unread: too big, too many parts, not parsed
    lines: list[str] = msgspec.field(default_factory=list)  # the sender's own text, by line

    @property
    def game(self) -> str | None:
        """The game the mail names: a ``game:`` line, else ``[GAME]`` in the subject."""
        for line in self.lines:
            m = _GAME_LINE.match(line)
            if m:
                return m.group(1).lower()
        m = _SUBJECT_GAME.search(self.subject)
        return m.group(1).lower() if m else None

    @property
    def password(self) -> str | None:
        for line in self.lines:
            m = _PASSWORD_LINE.match(line)
            if m:
                return m.group(1)
        return None


def read_mail(raw: bytes, limit: int) -> Mail:
    from email import policy
    from email.parser import BytesParser

    digest = hashlib.sha256(raw).hexdigest()
    mail = Mail(raw, digest)
    parser = BytesParser(policy=policy.default)
    too_big = len(raw) > limit
    try:
        head = raw.split(b"\n\n", 1)[0] if too_big else raw
        msg: Message = parser.parsebytes(head, headersonly=True)
    except Exception:  # malformed mail must never stop the pass
        mail.problem = "unreadable"
        return mail
    mail.sender = sender_of(msg)
    mail.subject = header_text(msg, "Subject")[:200]
    mail.message_id = header_text(msg, "Message-ID")[:250]
    mail.received = received_when(msg)[0]
    mail.automatic = is_automatic(msg, mail.sender)
    if too_big:
        mail.problem = "too big"
        return mail
    if intake.too_many_parts(raw):
        mail.problem = "too many parts"
        return mail
    try:
        full = parser.parsebytes(raw)
        for _, text in intake.texts(full):
            own = intake.own_text(text)
            if own.text.strip():
                mail.lines = own.text.split("\n")[:2000]
                break
    except Exception:
        mail.problem = "unreadable"
    return mail


class Line(msgspec.Struct, frozen=True):
    """A command of the lobby: its line (from 1), name, the words after it, the
    keyword as written, and for ``create`` its settings lines."""

    line: int
    name: str
    args: str
    word: str
    french: bool
    settings: tuple[tuple[int, str, str], ...] = ()


class Parsed(msgspec.Struct):
    commands: list[Line] = msgspec.field(default_factory=list)
    unknown: list[tuple[int, str, str]] = msgspec.field(default_factory=list)  # line, word, suggestion
    ignored: list[int] = msgspec.field(default_factory=list)


def _first_word(line: str) -> tuple[str, str]:
    m = _MOT_DE_PASSE.match(line)
    if m:
        return "motdepasse", m.group(1)
    m = re.match(r"^\s*([^\W\d_]+)\s*(.*?)\s*$", line)
    if not m:
        return "", line.strip()
    return fold(m.group(1)), m.group(2)


def parse(lines: list[str], *, game_named: bool = False) -> Parsed:
    """The lobby's commands of a text. ``game_named``: the mail names a game, and
    ``help`` there is the game's."""
    out = Parsed()
    i = 0
    while i < len(lines):
        line = lines[i]
        n = i + 1
        i += 1
        if not line.strip() or _PASSWORD_LINE.match(line) or _GAME_LINE.match(line):
            continue
        word, rest = _first_word(line)
        name = KEYWORDS.get(word)
        if name == HELP and game_named:
            name = None
        if name is None:
            close = difflib.get_close_matches(word, list(KEYWORDS), n=1, cutoff=0.75) if len(word) >= 4 else []
            if close:
                out.unknown.append((n, word, close[0]))
            else:
                out.ignored.append(n)
            continue
        settings: list[tuple[int, str, str]] = []
        if name == CREATE:
            while i < len(lines) and lines[i].strip() and fold(lines[i].strip()) not in ("end", "fin"):
                key, sep, value = lines[i].partition(":")
                if sep and not _PASSWORD_LINE.match(lines[i]) and not _GAME_LINE.match(lines[i]):
                    settings.append((i + 1, fold(key.strip()), value.strip()))
                elif not _PASSWORD_LINE.match(lines[i]) and not _GAME_LINE.match(lines[i]):
                    out.ignored.append(i + 1)
                i += 1
            if i < len(lines) and fold(lines[i].strip()) in ("end", "fin"):
                i += 1
        out.commands.append(Line(n, name, rest, word, word in FRENCH, tuple(settings)))
    return out


def has_commands(mail: Mail) -> bool:
    """Whether the lobby is the mail's reader: a command of the lobby in it."""
    parsed = parse(mail.lines, game_named=mail.game is not None)
    return bool(parsed.commands)


# -- doing them -----------------------------------------------------------------------------


class Refused(Exception):
    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


class Context(msgspec.Struct):
    settings: Settings
    reg: Registry
    now: datetime
    log: Log
    wrong: Counter[str] = msgspec.field(default_factory=Counter)  # wrong passwords by address, this pass
    started: list[str] = msgspec.field(default_factory=list)  # games to start (full, or a master's start)

    @property
    def day(self) -> str:
        return self.now.date().isoformat()


class Request(msgspec.Struct):
    """One mail being answered."""

    ctx: Context
    mail: Mail
    language: str
    player: Player | None = None
    authenticated: bool = False
    notices: list[tuple[str, EmailMessage]] = msgspec.field(default_factory=list)

    @property
    def reg(self) -> Registry:
        return self.ctx.reg

    def say(self, key: str, /, **fields: object) -> str:
        return say(self.language, key, **fields)


def answer(ctx: Context, mail: Mail) -> str:
    """Do the mail's commands and queue its reply, in one transaction; returns what
    became of it, for the log."""
    cfg = ctx.settings.config
    reg = ctx.reg
    if mail.automatic:
        return "automatic reply or bounce: not answered"
    if not mail.sender:
        return "no sender: not answered"
    if reg.requests(mail.sender, ctx.day, "message") >= ctx.settings.limits.requests:
        return f"more than {ctx.settings.limits.requests} mails from {mail.sender} today: not answered"
    if ctx.wrong[mail.sender] >= MAX_WRONG_PASSWORDS:
        return f"{MAX_WRONG_PASSWORDS} wrong passwords from {mail.sender} in this pass: not answered"
    parsed = parse(mail.lines, game_named=mail.game is not None)
    player = reg.player(mail.sender)
    language = player.language if player is not None else _guess_language(ctx, parsed)
    req = Request(ctx, mail, language, player)
    results: list[str] = []
    with reg.transaction():
        reg.count_request(mail.sender, ctx.day, "message")
        limit = ctx.settings.limits.commands
        for cmd in parsed.commands[:limit]:
            shown = SHOWN_FR[cmd.name] if req.language == "fr" else cmd.name
            written = shown if cmd.name == PASSWORD else f"{shown} {cmd.args}".strip()[:60]  # never the password
            try:
                text = _do(req, cmd)
                results.append(req.say("lobby.done", line=cmd.line, command=written, text=text))
                ctx.log(f"lobby: {mail.sender}: {written}: done")
            except Refused as no:
                results.append(req.say("lobby.refused", line=cmd.line, command=written, text=no.text))
                ctx.log(f"lobby: {mail.sender}: {written}: refused: {no.text}")
            except MoonshineError as exc:
                why = req.say("lobby.failed", error=str(exc)[:300])
                results.append(req.say("lobby.refused", line=cmd.line, command=written, text=why))
                ctx.log(f"ERROR lobby: {mail.sender}: {written}: {exc}")
        for _line, word, close in parsed.unknown:
            results.append(req.say("lobby.unknown", word=word[:30], keyword=close))
        if len(parsed.commands) > limit:
            results.append(req.say("lobby.too_many", n=limit))
        if parsed.ignored and (parsed.commands or parsed.unknown):
            results.append(req.say("lobby.ignored", lines=line_ranges(parsed.ignored)))
        if not parsed.commands and not parsed.unknown:
            if player is None and mail.game is None:
                reg.mark_answered(mail.digest, sender=mail.sender, outcome="unsolicited", now=ctx.now)
                return "not from a player, and no command in it: not answered"
            results.append(_route_note(req))
        _queue_reply(req, results)
        for name, msg in req.notices:
            reg.queue_mail(ctx.day, name, outbox.serialise(msg))
        outcome = f"answered ({len(parsed.commands)} command(s))"
        reg.mark_answered(mail.digest, sender=mail.sender, outcome=outcome, now=ctx.now)
    del cfg
    return outcome


def _route_note(req: Request) -> str:
    """Why a mail with no command of the lobby came to it: the game it names is not
    being played, or it names none and the player plays several (or none)."""
    reg = req.reg
    named = req.mail.game
    if named is not None:
        row = reg.game(named)
        if row is None:
            return req.say("lobby.game.unknown", game=named[:30])
        if row.status in (FORMING, STARTING):
            return req.say("lobby.route.forming", game=row.name)
        return req.say("lobby.route.over", game=row.name, status=_status(req, row.status))
    if req.player is None:
        return req.say("lobby.nothing")
    games = [g.name for g, side in reg.games_of(req.player.id) if side is not None and g.status == RUNNING]
    if not games:
        return req.say("lobby.route.no_game")
    return req.say("lobby.route.which", games=", ".join(games))


def _guess_language(ctx: Context, parsed: Parsed) -> str:
    if any(c.french for c in parsed.commands):
        return "fr" if "fr" in languages() else ctx.settings.config.language
    return ctx.settings.config.language


def _queue_reply(req: Request, results: list[str]) -> None:
    ctx = req.ctx
    cfg = ctx.settings.config
    mail = req.mail
    player = req.reg.player(mail.sender) if req.player is None else req.player
    hello = req.say("lobby.hello", name=player.name) if player is not None else req.say("lobby.hello_stranger")
    received = (mail.received or ctx.now).strftime("%Y-%m-%d %H:%M UTC")
    body = (
        f"{hello}\n\n{req.say('lobby.intro', received=received)}\n\n"
        + "\n\n".join(results)
        + "\n\n-- \n"
        + req.say("lobby.signature", title=cfg.title)
        + "\n"
    )
    reference = mail.message_id if re.fullmatch(r"<[!-;=?-~]{1,250}>", mail.message_id) else None
    msg = outbox.text_message(
        sender=outbox.from_address(cfg),
        to=[mail.sender],
        subject=req.say("lobby.subject", prefix=outbox.subject_prefix(cfg)),
        body=body,
        msg_id=outbox.message_id(cfg, "lobby", "reply", mail.digest),
        date=ctx.now,
        reply_to=outbox.from_address(cfg),
        in_reply_to=reference,
        auto="auto-replied",
    )
    req.reg.queue_mail(ctx.day, f"reply-{mail.digest[:16]}.eml", outbox.serialise(msg))


def _do(req: Request, cmd: Line) -> str:
    if cmd.name not in OPEN:
        _authenticate(req)
    handlers: dict[str, Callable[[Request, Line], str]] = {
        REGISTER: _register,
        PASSWORD: _password,
        WHOIS: _whois,
        LIST: _list,
        JOIN: _join,
        LEAVE: _leave,
        RESIGN: _resign,
        TAKEOVER: _takeover,
        HELP: lambda r, c: r.say("lobby.help"),
        CREATE: _create,
        START: _start,
        PAUSE: _pause,
        RESUME: _resume,
        EXTEND: _extend,
        EJECT: _eject,
        PROMOTE: _promote,
        TERMINATE: _terminate,
    }
    return handlers[cmd.name](req, cmd)


def _authenticate(req: Request) -> Player:
    from moonshine.judge.passwords import verify_password

    player = req.player
    if player is None:
        raise Refused(req.say("lobby.auth.not_registered", address=req.mail.sender))
    if req.authenticated:
        return player
    given = req.mail.password
    if given is None:
        raise Refused(req.say("lobby.auth.no_password"))
    stored = req.reg.password_hash(player.id)
    if stored is None:
        raise Refused(req.say("lobby.auth.no_password_yet"))
    if req.ctx.wrong[req.mail.sender] >= MAX_WRONG_PASSWORDS:
        raise Refused(req.say("lobby.auth.wrong_password", address=req.mail.sender))
    try:
        good = verify_password(given, stored)
    except ValueError:
        good = False
    if not good:
        req.ctx.wrong[req.mail.sender] += 1
        raise Refused(req.say("lobby.auth.wrong_password", address=req.mail.sender))
    req.authenticated = True
    return player


# -- players ---------------------------------------------------------------------------------------


def _register(req: Request, cmd: Line) -> str:
    from zoneinfo import ZoneInfo

    ctx = req.ctx
    if req.player is not None:
        raise Refused(req.say("lobby.register.already", address=req.player.address, name=req.player.name))
    if ctx.reg.requests(req.mail.sender, ctx.day, "register") >= ctx.settings.limits.registrations:
        raise Refused(req.say("lobby.register.limit"))
    ctx.reg.count_request(req.mail.sender, ctx.day, "register")
    parts = [p.strip() for p in cmd.args.split(",")]
    name = " ".join(parts[0].split())[:60] if parts else ""
    if not name or not any(ch.isalpha() for ch in name):
        raise Refused(req.say("lobby.register.no_name"))
    zone: str | None = None
    language = req.language
    for part in parts[1:]:
        if not part:
            continue
        if re.fullmatch(r"[a-z]{2}", part.lower()):
            if part.lower() not in languages():
                raise Refused(
                    req.say("lobby.register.bad_language", language=part[:10], languages=", ".join(languages()))
                )
            language = part.lower()
            continue
        try:
            ZoneInfo(part)
        except (ValueError, KeyError, OSError):
            raise Refused(req.say("lobby.register.bad_zone", zone=part[:40])) from None
        zone = part
    player = ctx.reg.register(req.mail.sender, name, timezone=zone, language=language, now=ctx.now, password_hash=None)
    req.player = player
    req.language = language
    return req.say("lobby.register.done", name=name, address=player.address)


def _password(req: Request, cmd: Line) -> str:
    from moonshine.judge.passwords import check_new_password, hash_password

    player = _authenticate(req)
    new = cmd.args.strip()
    try:
        check_new_password(new)
    except MoonshineError:
        raise Refused(req.say("lobby.password.weak")) from None
    req.reg.set_password(player.id, hash_password(new), mailed=True)
    return req.say("lobby.password.done")


def _whois(req: Request, cmd: Line) -> str:
    player = _authenticate(req)
    d = req.reg.dedication(player.id)
    games = [f"{g.name} ({side})" if side else g.name for g, side in req.reg.games_of(player.id)]
    return req.say(
        "lobby.whois",
        name=player.name,
        address=player.address,
        zone=player.timezone or req.ctx.settings.timezone,
        language=player.language,
        registered=player.registered[:10],
        percent=d.percent,
        on_time=d.on_time,
        due=d.due,
        resigned=d.resigned,
        finished=d.finished,
        games=", ".join(games) or req.say("lobby.whois.none"),
    )


def _rule(settings: dict[str, Any]) -> str:
    schedule = settings.get("schedule") or {}
    if "deadlines" in schedule:
        return str(schedule["deadlines"])
    return f"every {schedule.get('every', '?')}"


def _press(settings: dict[str, Any]) -> str:
    return str((settings.get("press") or {}).get("kind", "white"))


def _status(req: Request, status: str) -> str:
    return req.say(f"lobby.status.{status}")


def _variant_title(variant: str) -> str:
    from moonshine import variants

    return variants.get(variant).title if variants.is_known(variant) else variant


def _list(req: Request, cmd: Line) -> str:
    from moonshine.judge import seating

    reg = req.reg
    settings = req.ctx.settings
    word = cmd.args.strip().lower()
    if word in ("vacant", "vacants", "vacantes", "vacances"):
        lines = [req.say("lobby.list.vacant")]
        for game, side, since in reg.vacancies():
            row = reg.game(game)
            assert row is not None
            names = seating.vacant_sides(settings, game)
            lines.append(
                req.say(
                    "lobby.list.vacant_line",
                    game=game,
                    side=side,
                    name=names.get(side, side),
                    variant=_variant_title(row.variant),
                    since=since[:10],
                    dedication=row.settings.get("dedication", 0),
                )
            )
        return "\n".join(lines) if len(lines) > 1 else req.say("lobby.list.no_vacant")
    if word:
        return _list_game(req, _game(req, cmd, word))
    forming = reg.games(FORMING, STARTING)
    out = [req.say("lobby.list.forming") if forming else req.say("lobby.list.no_forming")]
    for row in forming:
        sides = len(row.settings.get("sides") or [])
        out.append(
            req.say(
                "lobby.list.forming_line",
                game=row.name,
                variant=_variant_title(row.variant),
                free=sides - reg.count_members(row.name),
                sides=sides,
                rule=_rule(row.settings),
                press=_press(row.settings),
                dedication=row.settings.get("dedication", 0),
            )
        )
    running = reg.games(*ACTIVE)
    out.append(req.say("lobby.list.running") if running else req.say("lobby.list.no_running"))
    for row in running:
        out.append(
            req.say(
                "lobby.list.running_line",
                game=row.name,
                variant=_variant_title(row.variant),
                status=_status(req, row.status),
                vacant=len(reg.vacancies(row.name)),
            )
        )
    return "\n".join(out)


def _list_game(req: Request, row: GameRow) -> str:
    from moonshine.judge import seating
    from moonshine.judge.judgefile import draw_seed

    reg = req.reg
    settings = req.ctx.settings
    members = reg.members(row.name)
    players = ", ".join(
        f"{m.player.name} ({m.side + ', ' if m.side else ''}{reg.dedication(m.player.id).percent}%)" for m in members
    )
    text = req.say(
        "lobby.list.game",
        game=row.name,
        title=row.settings.get("title") or row.name,
        variant=_variant_title(row.variant),
        status=_status(req, row.status),
        masters=", ".join(p.name for p in reg.masters(row.name)),
        rule=_rule(row.settings),
        zone=(row.settings.get("schedule") or {}).get("timezone", settings.timezone),
        press=_press(row.settings),
        dedication=row.settings.get("dedication", 0),
        sides=", ".join(row.settings.get("sides") or []),
        players=players or req.say("lobby.list.nobody"),
        seed_hash=hashlib.sha256(draw_seed(settings.root, row.name).encode()).hexdigest(),
    )
    if row.status in ACTIVE:
        turn, due = seating.current_deadline(settings, reg, row)
        text += " " + req.say("lobby.list.game_turn", turn=turn, due=_when(due) if due else "-")
    return text


def _when(when: datetime) -> str:
    from datetime import UTC

    return when.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")


def _game(req: Request, cmd: Line, word: str | None = None) -> GameRow:
    """The game a command names (its first word), else the mail's."""
    name = (word if word is not None else (cmd.args.split() or [""])[0]).lower()
    row = req.reg.game(name) if name and GAME_NAME.fullmatch(name) else None
    if row is None and word is None and req.mail.game is not None:
        row = req.reg.game(req.mail.game)
        if row is None:
            raise Refused(req.say("lobby.game.unknown", game=req.mail.game[:30]))
        return row
    if row is None:
        if not name:
            games = ", ".join(g.name for g in req.reg.games(FORMING, *ACTIVE)[:20])
            raise Refused(req.say("lobby.game.none", games=games or "-"))
        raise Refused(req.say("lobby.game.unknown", game=name[:30]))
    return row


def _rest(req: Request, cmd: Line, row: GameRow) -> list[str]:
    """The words of the command after the game's name (when it was given)."""
    words = cmd.args.split()
    return words[1:] if words and words[0].lower() == row.name else words


def _dedication_ok(req: Request, player: Player, row: GameRow) -> None:
    minimum = int(row.settings.get("dedication") or 0)
    percent = req.reg.dedication(player.id).percent
    if percent < minimum:
        raise Refused(req.say("lobby.join.dedication", game=row.name, minimum=minimum, percent=percent))


def _side_key(req: Request, row: GameRow, word: str) -> str:
    from moonshine.judge import seating

    game = seating.game_of(req.ctx.settings, row.name)
    key = game.side_by_name(word)
    if key is None:
        raise Refused(req.say("lobby.join.bad_side", side=word[:30], game=row.name, sides=", ".join(game.sides())))
    return key


def _join(req: Request, cmd: Line) -> str:
    player = _authenticate(req)
    row = _game(req, cmd)
    if row.status != FORMING:
        raise Refused(req.say("lobby.join.not_forming", game=row.name, status=_status(req, row.status)))
    if req.reg.member(row.name, player.id) is not None:
        raise Refused(req.say("lobby.join.already", game=row.name))
    _dedication_ok(req, player, row)
    prefs: list[str] = []
    for word in _rest(req, cmd, row)[:10]:
        key = _side_key(req, row, word.strip(","))
        if key not in prefs:
            prefs.append(key)
    req.reg.join(row.name, player.id, prefs, req.ctx.now)
    sides = len(row.settings.get("sides") or [])
    n = req.reg.count_members(row.name)
    if n >= sides:
        req.reg.set_status(row.name, STARTING)
        req.ctx.started.append(row.name)
        return req.say("lobby.join.full", game=row.name)
    return req.say("lobby.join.done", game=row.name, n=n, sides=sides)


def _leave(req: Request, cmd: Line) -> str:
    player = _authenticate(req)
    row = _game(req, cmd)
    if req.reg.member(row.name, player.id) is None:
        raise Refused(req.say("lobby.leave.not_member", game=row.name))
    if row.status != FORMING:
        raise Refused(req.say("lobby.leave.started", game=row.name))
    req.reg.leave(row.name, player.id)
    return req.say("lobby.leave.done", game=row.name)


def _resign(req: Request, cmd: Line) -> str:
    player = _authenticate(req)
    row = _game(req, cmd)
    m = req.reg.member(row.name, player.id)
    if m is None or m.side is None or row.status not in ACTIVE:
        if m is not None and row.status == FORMING:
            raise Refused(req.say("lobby.resign.not_playing", game=row.name))
        raise Refused(req.say("lobby.resign.not_playing", game=row.name))
    side = req.reg.vacate(row.name, player.id, "resigned", req.ctx.now)
    _notice(req, row, "resigned", name=player.name, side=side)
    return req.say("lobby.resign.done", game=row.name, side=side)


def _takeover(req: Request, cmd: Line) -> str:
    player = _authenticate(req)
    row = _game(req, cmd)
    words = _rest(req, cmd, row)
    if not words:
        raise Refused(req.say("lobby.takeover.usage"))
    side = _side_key(req, row, " ".join(words))
    vacant = [s for _, s, _ in req.reg.vacancies(row.name)]
    if side not in vacant or row.status not in ACTIVE:
        raise Refused(req.say("lobby.takeover.not_vacant", side=side, game=row.name, vacant=", ".join(vacant) or "-"))
    if req.reg.member(row.name, player.id) is not None:
        raise Refused(req.say("lobby.takeover.in_game", game=row.name))
    _dedication_ok(req, player, row)
    req.reg.take_over(row.name, side, player.id, req.ctx.now)
    _notice(req, row, "taken", name=player.name, side=side)
    return req.say("lobby.takeover.done", side=side, game=row.name)


# -- masters ----------------------------------------------------------------------------------------


def _master(req: Request, cmd: Line) -> GameRow:
    player = _authenticate(req)
    row = _game(req, cmd)
    if all(p.id != player.id for p in req.reg.masters(row.name)):
        raise Refused(req.say("lobby.master.not_master", game=row.name))
    return row


def _options(req: Request, cmd: Line) -> dict[str, Any]:
    """create's settings, checked."""
    from moonshine.game.schedule import parse_schedule

    schedule: dict[str, Any] = {"timezone": req.ctx.settings.timezone}
    options: dict[str, Any] = {"press": {"kind": "white"}, "dedication": 0}
    rules: dict[str, Any] = {}
    for _, key, value in cmd.settings:
        name = SETTINGS.get(key.replace(" ", "_"))
        if name is None:
            raise Refused(
                req.say("lobby.create.unknown_setting", key=key[:30], keys=", ".join(sorted(set(SETTINGS.values()))))
            )
        if name in ("deadlines", "every", "timezone", "grace", "min_gap"):
            schedule[name] = value
        elif name == "reminders":
            schedule[name] = [v.strip() for v in value.split(",") if v.strip()]
        elif name == "press":
            if value.lower() not in PRESS_KINDS:
                raise Refused(req.say("lobby.create.bad_setting", key=key, why=" / ".join(PRESS_KINDS)))
            options["press"] = {"kind": value.lower()}
        elif name == "dedication":
            digits = value.rstrip("%").strip()
            if not digits.isdigit() or int(digits) > 100:
                raise Refused(req.say("lobby.create.bad_setting", key=key, why="0-100"))
            options["dedication"] = int(digits)
        elif name in ("victory_vp", "minimum_bribe"):  # a Moonshine game's house rules (others refuse them)
            try:
                rules[name] = int(value) if name == "victory_vp" else float(value)
            except ValueError:
                raise Refused(req.say("lobby.create.bad_setting", key=key, why=value[:30])) from None
        elif name == "language":
            if value.lower() not in languages():
                raise Refused(req.say("lobby.create.bad_setting", key=key, why=", ".join(languages())))
            options["language"] = value.lower()
        else:
            options[name] = value[:80]
    if "deadlines" not in schedule and "every" not in schedule:
        schedule["every"] = "72h"
    try:
        parse_schedule(schedule)
    except MoonshineError as exc:
        raise Refused(req.say("lobby.create.bad_setting", key="schedule", why=str(exc)[:200])) from None
    options["schedule"] = schedule
    if rules:
        options["rules"] = rules
    return options


def _create(req: Request, cmd: Line) -> str:
    from moonshine import variants
    from moonshine.judge import seating
    from moonshine.judge.judgefile import draw_seed

    player = _authenticate(req)
    settings = req.ctx.settings
    if player.address not in settings.masters:
        raise Refused(req.say("lobby.master.not_creator"))
    words = cmd.args.split()
    if len(words) != 2 or not variants.is_known(words[1].lower()):
        raise Refused(req.say("lobby.create.usage", variants=", ".join(variants.names())))
    name, variant = words[0].lower(), words[1].lower()
    if not GAME_NAME.fullmatch(name) or name in (".building",):
        raise Refused(req.say("lobby.create.bad_name", game=name[:30]))
    if req.reg.game(name) is not None:
        raise Refused(req.say("lobby.create.exists", game=name))
    options = _options(req, cmd)
    try:
        sides = seating.build(settings, name, variant, options, player.address)
    except MoonshineError as exc:
        raise Refused(req.say("lobby.create.failed", why=str(exc)[:300])) from None
    options["sides"] = list(sides)
    req.reg.add_game(name, variant, options, player.id, req.ctx.now)
    return req.say(
        "lobby.create.done",
        game=name,
        variant=_variant_title(variant),
        sides=len(sides),
        rule=_rule(options),
        press=_press(options),
        dedication=options["dedication"],
        seed_hash=hashlib.sha256(draw_seed(settings.root, name).encode()).hexdigest(),
    )


def _start(req: Request, cmd: Line) -> str:
    row = _master(req, cmd)
    if row.status != FORMING:
        raise Refused(req.say("lobby.start.not_forming", game=row.name))
    n = req.reg.count_members(row.name)
    if n == 0:
        raise Refused(req.say("lobby.start.nobody", game=row.name))
    req.reg.set_status(row.name, STARTING)
    req.ctx.started.append(row.name)
    sides = len(row.settings.get("sides") or [])
    return req.say("lobby.start.done", game=row.name, n=n, vacant=sides - n)


def _pause(req: Request, cmd: Line) -> str:
    from moonshine.judge import seating

    row = _master(req, cmd)
    if row.status != RUNNING:
        raise Refused(req.say("lobby.pause.not_running", game=row.name, status=_status(req, row.status)))
    turn, due = seating.current_deadline(req.ctx.settings, req.reg, row)
    left = max(0, int((due - req.ctx.now).total_seconds())) if due is not None else None
    req.reg.set_paused(row.name, req.ctx.now.isoformat(), left)
    req.reg.set_deadline(row.name, f"{turn} {seating.NO_DEADLINE}")  # none while paused: nothing is late
    req.reg.set_status(row.name, PAUSED)
    return req.say("lobby.pause.done", game=row.name)


def _resume(req: Request, cmd: Line) -> str:
    from moonshine.judge import seating

    row = _master(req, cmd)
    if row.status != PAUSED:
        raise Refused(req.say("lobby.resume.not_paused", game=row.name))
    turn, due = seating.current_deadline(req.ctx.settings, req.reg, row)
    if row.paused_left is not None:
        due = req.ctx.now + timedelta(seconds=max(row.paused_left, 3600))
        req.reg.set_deadline(row.name, f"{turn} {due.isoformat()}")
    req.reg.set_paused(row.name, None, None)
    req.reg.set_status(row.name, RUNNING)
    return req.say("lobby.resume.done", game=row.name, turn=turn, due=_when(due) if due else "-")


def _extend(req: Request, cmd: Line) -> str:
    from moonshine.judge import seating

    row = _master(req, cmd)
    if row.status not in ACTIVE:
        raise Refused(req.say("lobby.pause.not_running", game=row.name, status=_status(req, row.status)))
    words = _rest(req, cmd, row)
    hours = words[0].lower().rstrip("h") if words else ""
    if not hours.isdigit() or not 1 <= int(hours) <= 720:
        raise Refused(req.say("lobby.extend.usage"))
    if row.status == PAUSED and row.paused_left is not None:  # the time left grows
        req.reg.set_paused(row.name, row.paused_at, row.paused_left + int(hours) * 3600)
        return req.say("lobby.extend.paused", game=row.name, n=int(hours))
    turn, due = seating.current_deadline(req.ctx.settings, req.reg, row)
    if due is None:
        raise Refused(req.say("lobby.extend.no_deadline", game=row.name))
    new = due + timedelta(hours=int(hours))
    req.reg.set_deadline(row.name, f"{turn} {new.isoformat()}")
    return req.say("lobby.extend.done", turn=turn, game=row.name, due=_when(new))


def _eject(req: Request, cmd: Line) -> str:
    row = _master(req, cmd)
    words = _rest(req, cmd, row)
    if not words:
        raise Refused(req.say("lobby.takeover.usage"))
    side = _side_key(req, row, " ".join(words))
    holder = next((m for m in req.reg.members(row.name) if m.side == side), None)
    if holder is None:
        raise Refused(req.say("lobby.eject.no_player", side=side, game=row.name))
    req.reg.vacate(row.name, holder.player.id, "ejected", req.ctx.now)
    _notice(req, row, "ejected", name=holder.player.name, side=side, also=[holder.player])
    return req.say("lobby.eject.done", side=side, name=holder.player.name, game=row.name)


def _promote(req: Request, cmd: Line) -> str:
    row = _master(req, cmd)
    words = _rest(req, cmd, row)
    other = req.reg.player(words[0]) if words else None
    if other is None:
        raise Refused(req.say("lobby.promote.usage"))
    req.reg.add_master(row.name, other.id)
    return req.say("lobby.promote.done", name=other.name, game=row.name)


def _terminate(req: Request, cmd: Line) -> str:
    row = _master(req, cmd)
    if row.status not in (FORMING, STARTING, *ACTIVE):
        raise Refused(req.say("lobby.pause.not_running", game=row.name, status=_status(req, row.status)))
    req.reg.set_status(row.name, TERMINATED)
    _notice(req, row, "terminated", also=[m.player for m in req.reg.members(row.name)])
    if row.status in ACTIVE:  # played: its raid seed is public now
        from moonshine.judge import seating

        seating.queue_reveal(req.ctx.settings, req.reg, row, req.ctx.now)
    return req.say("lobby.terminate.done", game=row.name)


def _notice(
    req: Request, row: GameRow, what: str, *, name: str = "", side: str | None = None, also: list[Player] | None = None
) -> None:
    """A notice to each of the game's masters (and to each of ``also``): one mail a
    recipient, in their language, naming nobody else's address."""
    cfg = req.ctx.settings.config
    recipients = {p.address: p for p in [*req.reg.masters(row.name), *(also or [])]}
    key = f"{row.name}|{what}|{side}|{name}|{req.mail.digest}"
    for address, player in sorted(recipients.items()):
        lang = player.language if player.language in languages() else cfg.language
        head = say(lang, f"lobby.notice.{what}", name=name, side=side or "")
        more_key = {"resigned": "resigned_more", "ejected": "ejected_more", "terminated": "terminated_more"}.get(what)
        more = say(lang, f"lobby.notice.{more_key}", game=row.name, side=side or "") if more_key else ""
        body = say(lang, "lobby.notice.body", text=head, more=more).rstrip() + "\n\n-- \n"
        body += say(lang, "lobby.signature", title=cfg.title) + "\n"
        msg = outbox.text_message(
            sender=outbox.from_address(cfg),
            to=[address],
            subject=say(lang, "lobby.notice.subject", prefix=outbox.subject_prefix(cfg), game=row.name, what=head),
            body=body,
            msg_id=outbox.message_id(cfg, "lobby", "notice", key, address),
            date=req.ctx.now,
            reply_to=outbox.from_address(cfg),
        )
        digest = hashlib.sha256(f"{key}|{address}".encode()).hexdigest()[:16]
        req.notices.append((f"notice-{digest}.eml", msg))


# -- the password of a new player ---------------------------------------------------------------------


def mail_passwords(settings: Settings, reg: Registry, now: datetime, log: Log) -> None:
    """Each player whose password has not reached them gets a new one, mailed at once
    in a message kept nowhere (``outbox.deliver_now``): the registry keeps its hash
    only. When the mail server is down, the next pass makes another and tries again."""
    from moonshine.judge.passwords import hash_password, new_passphrase

    todo = reg.passwords_to_mail(settings.limits.passwords)
    if not todo:
        return
    cfg = settings.config
    try:
        smtp = outbox.smtp_settings(cfg)
        secret = smtp.password()
    except MoonshineError as exc:
        log(f"ERROR passwords: {exc}")
        return
    for player in todo:
        password = new_passphrase()
        reg.set_password(player.id, hash_password(password), mailed=False)
        lang = player.language if player.language in languages() else cfg.language
        msg = outbox.text_message(
            sender=outbox.from_address(cfg),
            to=[player.address],
            subject=say(lang, "lobby.password.subject", prefix=outbox.subject_prefix(cfg)),
            body=say(
                lang,
                "lobby.password.body",
                name=player.name,
                title=cfg.title,
                address=player.address,
                password=password,
            )
            + "\n",
            msg_id=outbox.message_id(cfg, "lobby", "password", player.address, now.isoformat()),
            date=now,
        )
        done = outbox.deliver_now(msg, [player.address], smtp, secret)
        if player.address in done.delivered:
            reg.password_mailed(player.id)
            log(f"lobby: password mailed to {player.address}")
        else:
            why = done.failed.get(player.address) or done.unknown.get(player.address) or "not delivered"
            log(f"lobby: password for {player.address} not delivered ({why}); a new one at the next pass")
            if player.address not in done.unknown:
                break  # the server is down: the others wait for the next pass too
