"""The players' command language: lines of a message to the judge, next to the
orders, that ask for something other than orders (``docs/commands.md``).

A command is a line that starts with a keyword, in English or in French, in
any case and with or without accents::

    press to outfit, genna          presse à outfit, genna
    ...the message...               ...le message...
    end press                       fin presse
    broadcast                       diffusion
    ...                             ...
    end                             fin
    draw all by 2024-03-10          nulle tous avant 2024-03-10
    concede to outfit               concéder à outfit
    vote yes 1                      vote oui 1
    status  history  help  observe  état  historique  aide  observer
    predict                         prédire
    ...orders of every gang...      ...
    end predict                     fin prédire

``press``, ``broadcast`` and ``predict`` open a block that runs to a line
``end`` (``end press``, ``fin``, ``fin presse``...). Command lines never reach
the order reader: their line numbers stay those of the message, as for the
password line. A line whose first word is close to a keyword and is no order
word is an unknown command, answered with a suggestion.

``read`` is pure: text in, commands out. ``moonshine.judge.dispatch.execute``
does what they ask through ``moonshine.judge.press``, ``moonshine.judge.votes`` and the
game's family's prediction, and returns one result per command, each with its
sentence in the game's language."""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Callable, Collection
from datetime import UTC, datetime, timedelta
from typing import Any

import msgspec

from moonshine.render.mailwords import Phrase

PRESS, BROADCAST, DRAW, CONCEDE, VOTE = "press", "broadcast", "draw", "concede", "vote"
STATUS, HISTORY, HELP, PREDICT, OBSERVE, UNKNOWN = "status", "history", "help", "predict", "observe", "unknown"
ABSENT = "absent"  # moonshine.judge.absence
BLOCKS = (PRESS, BROADCAST, PREDICT)

# keyword (accents removed, lower case) -> command; English first, then French
KEYWORDS: dict[str, str] = {
    "press": PRESS,
    "presse": PRESS,
    "broadcast": BROADCAST,
    "diffusion": BROADCAST,
    "diffuser": BROADCAST,
    "draw": DRAW,
    "nulle": DRAW,
    "concede": CONCEDE,
    "conceder": CONCEDE,
    "concession": CONCEDE,
    "vote": VOTE,
    "voter": VOTE,
    "status": STATUS,
    "etat": STATUS,
    "history": HISTORY,
    "historique": HISTORY,
    "help": HELP,
    "aide": HELP,
    "predict": PREDICT,
    "predire": PREDICT,
    "prediction": PREDICT,
    "observe": OBSERVE,
    "observer": OBSERVE,
    "absent": ABSENT,
    "absence": ABSENT,
    "away": ABSENT,
}
# the keyword each command is shown with, per language
SHOWN: dict[str, dict[str, str]] = {
    "en": {c: k for k, c in reversed(list(KEYWORDS.items()))},
    "fr": {
        PRESS: "presse",
        BROADCAST: "diffusion",
        DRAW: "nulle",
        CONCEDE: "concéder",
        VOTE: "vote",
        STATUS: "état",
        HISTORY: "historique",
        HELP: "aide",
        PREDICT: "prédire",
        OBSERVE: "observer",
        ABSENT: "absent",
    },
}
_END = re.compile(r"^(?:end|fin|endpress|endpredict)(?:\s+(?:of\s+|de\s+(?:la\s+)?)?[a-z]+)?\s*\.?$")
YES = ("yes", "oui", "y", "o")
NO = ("no", "non", "n")
ALL = ("all", "tous", "toutes", "everyone", "survivors", "survivants")
ANONYMOUS = ("anonymous", "anonyme", "anon", "grey", "gris")
_FILLER = {"to", "a", "au", "aux", "pour", "and", "et", "with", "avec", "between", "entre", "of", "de"}
_BY = ("by", "before", "until", "avant", "jusqua", "le")


def fold(text: str) -> str:
    """Lower case, accents removed: ``État`` and ``etat`` are the same word."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c)).replace("’", "'")


class Command(msgspec.Struct, frozen=True):
    """One command of a message: its name (one of the commands, or UNKNOWN), the
    line it starts on and its last line (from 1), the first line as written, the
    words after the keyword, and a block's lines."""

    name: str
    line: int
    last: int
    written: str
    args: str = ""
    body: tuple[str, ...] = ()
    closed: bool = True  # a block ended with its ``end`` line (else it ran to the end of the text)
    suggestion: str = ""  # for an unknown command: the keyword meant

    @property
    def lines(self) -> range:
        """The lines the command takes, never read as orders: a block that was never
        closed takes its first line only, and the lines after it are read as orders
        (a forgotten ``end press`` must not swallow the orders below it)."""
        return range(self.line, (self.last if self.closed else self.line) + 1)


class Script(msgspec.Struct, frozen=True):
    commands: tuple[Command, ...] = ()

    def lines(self) -> set[int]:
        """The line numbers (from 1) the commands take: never read as orders."""
        return {n for c in self.commands for n in c.lines}

    def __bool__(self) -> bool:
        return bool(self.commands)


def _first_word(line: str) -> tuple[str, str]:
    # the words after the keyword: first to last non-blank, run by run, never given back
    m = re.match(r"^\s*+([^\W\d_]++)[:\s]*+((?:\S++|\s++(?=\S))*+)\s*+$", line)
    if not m:
        return "", ""
    return fold(m.group(1)), m.group(2)


def read(text: str, order_words: Collection[str] = ()) -> Script:
    """The commands of ``text`` (its lines numbered from 1). ``order_words``: words
    the order language uses, never taken for a misspelt command."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    out: list[Command] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        word, rest = _first_word(line)
        name = KEYWORDS.get(word)
        if name is None:
            guess = _suggest(word, line, order_words)
            if guess:
                out.append(Command(UNKNOWN, i + 1, i + 1, line.strip(), rest, suggestion=guess))
            i += 1
            continue
        if name not in BLOCKS:
            out.append(Command(name, i + 1, i + 1, line.strip(), rest))
            i += 1
            continue
        j = i + 1
        while j < len(lines) and not _END.match(fold(lines[j].strip())):
            j += 1
        closed = j < len(lines)
        body = tuple(lines[i + 1 : j])
        while body and not body[-1].strip():
            body = body[:-1]
        out.append(Command(name, i + 1, j + 1 if closed else len(lines), line.strip(), rest, body, closed))
        i = j + 1
    return Script(tuple(out))


def _suggest(word: str, line: str, order_words: Collection[str]) -> str:
    """The keyword a misspelt first word was meant to be, or "" when the line is
    not taken for a command (short words, order words, lines with digits or
    arrows, long sentences)."""
    if len(word) < 4 or word in order_words or re.search(r"[\d\-=>]", line) or len(line.split()) > 6:
        return ""
    # not ``absent``: its line has dates (no suggestion anyway), and "Sent from my iPhone" is no absence
    candidates = [k for k, c in KEYWORDS.items() if c != ABSENT]
    found = difflib.get_close_matches(word, candidates, n=1, cutoff=0.75)
    return found[0] if found else ""


# -- doing what the commands ask ---------------------------------------------------


class Request(msgspec.Struct):
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

    @property
    def language(self) -> str:
        """The language of what the sender reads: their side's own
        (``players.SIDE.language``), else the game's."""
        from moonshine.game.directory import player_language

        return player_language(self.game.config, self.gang)

    @property
    def observer(self) -> bool:
        from moonshine.judge import observers

        return self.sender in observers.addresses(self.game.config)


class Result(msgspec.Struct, frozen=True):
    """What became of one command: done or refused, and why (a phrase)."""

    command: Command
    done: bool
    say: Phrase
    more: str = ""  # text to quote under the line (a status, a prediction, the help)


Handler = Callable[[Request, Command], Result]


def render(language: str, results: list[Result]) -> str:
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


def sides_named(req: Request, names: list[str]) -> tuple[list[str], list[str]]:
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
