"""A command of a game's mail as a request (``GameRequest``): who asks (their side,
once their password checked out, or an observer's address), about which game and
turn, and when; whether they may send a command (``authorise``, from the command's
``who``); the acknowledgement's section on the commands (``render``); and the small
readers the commands share (words, the sides a command names, a date)."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

import msgspec

from moonshine.mail.commands.grammar import ANYONE, OBSERVER, Answer, CommandLine, Grammar, Refused
from moonshine.render.mailwords import phrase
from moonshine.text.folding import fold

YES = ("yes", "oui", "y", "o")
NO = ("no", "non", "n")
ALL = ("all", "tous", "toutes", "everyone", "survivors", "survivants")
ANONYMOUS = ("anonymous", "anonyme", "anon", "grey", "gris")
_FILLER = {"to", "a", "au", "aux", "pour", "and", "et", "with", "avec", "between", "entre", "of", "de"}
_BY = ("by", "before", "until", "avant", "jusqua", "le")


class GameRequest(msgspec.Struct):
    """Who asks, about which game and turn, and when."""

    game: Any  # a moonshine.game.directory.Game
    turn: str
    st: Any  # the turn's state (a GameState, or a classic game's ClassicState)
    now: datetime
    sender: str
    gang: str | None  # the gang (or power) whose password checked out, or None
    message_id: str
    due: datetime | None = None  # the turn's deadline
    secrets: tuple[str, ...] = ()  # what the message's password lines say: masked in anything relayed
    outgoing: list[Any] = msgspec.field(default_factory=list)  # mail.Outgoing written to the outbox
    processed: datetime | None = None  # when the judge read the message (relayed mail is dated so, not as sent)
    grammar: Grammar | None = None  # the commands the mail was read with (help lists them)
    paused: bool = False  # its master paused the game: no deadline runs
    orders_refused: bool = False  # the message's orders were refused (a ``ready`` with them is not taken)

    @property
    def language(self) -> str:
        """The language of what the sender reads: their side's own
        (``players.SIDE.language``), else the game's."""
        from moonshine.game.directory import player_language

        return player_language(self.game.config, self.gang)

    @property
    def observer(self) -> bool:
        from moonshine.mail import observers

        return self.sender in observers.addresses(self.game.config)


def authorise(req: GameRequest, cmd: CommandLine) -> None:
    """Whether the sender may send ``cmd`` (its command's ``who``): anyone; a player,
    or an observer; a player (whose password checked out). Raises ``Refused`` with the
    command's own refusal."""
    command = cmd.command
    assert command is not None
    if command.who == ANYONE or req.gang is not None:
        return
    if command.who == OBSERVER and req.observer:
        return
    raise Refused(phrase(command.refusal, command=command.shown(req.language), sender=req.sender))


def render(language: str, results: list[Answer]) -> str:
    """The acknowledgement's section on commands: one line per command, with what
    was done, and any text it returns indented under it."""
    from moonshine.render import mailwords

    if not results:
        return ""
    out = [mailwords.text(language, "cmd.heading")]
    for r in results:
        mark = mailwords.text(language, "cmd.done" if r.done else "cmd.refused")
        written = r.command.written if len(r.command.written) <= 60 else r.command.written[:57] + "..."
        head = mailwords.text(language, "cmd.line", n=r.command.line, written=written, mark=mark)
        out.append(f"  {head} {r.say.text(language)}")
        if r.more:
            out.extend(f"      {line}".rstrip() for line in r.more.rstrip("\n").split("\n"))
    return "\n".join(out)


# -- small readers shared by the commands ---------------------------------------------


def words(args: str) -> list[str]:
    """The words of a command's arguments (commas and ``and``/``et`` separate)."""
    return [w for w in re.split(r"[\s,;]+", args.strip()) if w]


def sides_named(req: GameRequest, names: list[str]) -> tuple[list[str], list[str]]:
    """The gangs (or powers) ``names`` names, by key, in the game's order, and the
    words that name none; filler words (to, à, and, et...) are skipped. A
    two-word name (``the outfit``) is read as one."""
    found: list[str] = []
    unknown: list[str] = []
    i = 0
    while i < len(names):
        w = names[i]
        if fold(w) in _FILLER:
            i += 1
            continue
        for span in (3, 2, 1):
            candidate = " ".join(names[i : i + span])
            key = req.game.side_by_name(candidate) if span <= len(names) - i else None
            if key is not None:
                if key not in found:
                    found.append(key)
                i += span
                break
        else:
            unknown.append(w)
            i += 1
    order = list(req.game.sides())
    return sorted(found, key=order.index), unknown


_DATE = re.compile(r"(\d{4}-\d{2}-\d{2})(?:[ T](\d{1,2}):(\d{2}))?(?:\s*(?:utc|z))?", re.IGNORECASE)


def split_deadline(args: str) -> tuple[str, datetime | None, bool]:
    """``args`` without its ``by DATE`` part, the date (UTC; a day alone means its
    end, 23:59), and whether a date was given but could not be read."""
    m = _DATE.search(args)
    if not m:
        head = args
        bad = any(fold(w) in _BY for w in words(args))
        return head, None, bad
    day, hour, minute = m.group(1), m.group(2), m.group(3)
    try:
        when = datetime.fromisoformat(day).replace(tzinfo=UTC)
        when = when + (timedelta(hours=int(hour), minutes=int(minute)) if hour else timedelta(hours=23, minutes=59))
    except ValueError:
        return args[: m.start()], None, True
    head = args[: m.start()]
    head_words = words(head)
    while head_words and fold(head_words[-1]) in _BY:
        head_words.pop()
    return " ".join(head_words), when, False
