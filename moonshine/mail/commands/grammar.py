"""The one grammar of the mail commands, a game's and the lobby's of a judge for many
games (``docs/commands.md``).

A command is one value, ``Command``: its name, its words in each language (the
first is the one shown; every word is read in any case, with or without accents),
who may send it, what it reads (its line; a block to an ``end`` line; settings lines
to an empty line or ``end``), its handler, its line in the context's ``help``, and
the sentence that refuses a sender who may not send it. Each context lists its
commands in a ``Grammar``: the game's (``moonshine.mail.commands``), the lobby's
(``moonshine.host.lobby``). Adding a command is a new value and its handler (in the
module of its family of commands), one line in its context's registry, and its
sentences in the catalogue.

``read`` is the one reader: a mail's lines in, the commands found (``Script``) out,
each with its line numbers; a line whose first word is close to a keyword is an
unknown command with a suggestion. ``answer`` does one command for a request: the
context's ``authorise`` says whether its sender may send it, the handler answers
(``Answer``: done or refused, its sentence as a value the context words in the
reader's language, and text to quote under it). A handler refuses by returning a
refused answer or by raising ``Refused``."""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any, Protocol

import msgspec

from moonshine.text.folding import fold

# who may send a command
ANYONE = "anyone"  # a stranger too (help, observe, register, list)
OBSERVER = "observer"  # a player of the game, or one of its observers (status, history)
PLAYER = "player"  # a player whose password checked out
MASTER = "master"  # a master of the game the command names (a judge for many games)
JUDGE_MASTER = "judge's master"  # a master of the judge itself (create)
WHO = (ANYONE, OBSERVER, PLAYER, MASTER, JUDGE_MASTER)

# what a command reads after its keyword
LINE = "line"  # the rest of its line
BLOCK = "block"  # the lines below it, to a line ``end`` (``end press``, ``fin``...)
SETTINGS = "settings"  # ``key: value`` lines below it, to an empty line, ``end`` or the next command
READS = (LINE, BLOCK, SETTINGS)

UNKNOWN = "unknown"  # the name of a line taken for a misspelt command

# A line's first word and the words after it: the value runs from its first to its last
# non-blank character, taken run by run (\S++, \s++ followed by a non-blank); possessive
# runs (*+, ++) are never given back, so a line costs one pass ("(.*?)\s*$" cost one per character).
_VALUE = r"((?:\S++|\s++(?=\S))*+)"
_WORD = re.compile(rf"^\s*+([^\W\d_]++)[:\s]*+{_VALUE}\s*+$")
_KEY = re.compile(r"^\s*+[^\W\d_]++\s*+:")  # a setting's line (``grace: 12h``), never a command
_END = re.compile(r"^(?:end|fin|endpress|endpredict)(?:\s+(?:of\s+|de\s+(?:la\s+)?)?[a-z]+)?\s*\.?$")
_SETTINGS_END = ("end", "fin")


class Command(msgspec.Struct, frozen=True):
    """A mail command, declared once."""

    name: str
    words: Mapping[str, tuple[str, ...]]  # language -> its keywords, the first as shown; English first
    handler: Callable[[Any, CommandLine], Answer]  # (the context's request, the command as written)
    who: str = PLAYER
    reads: str = LINE
    help: str = ""  # the catalogue key of its line in the context's help ("" when the help is one text)
    refusal: str = "cmd.players_only"  # the catalogue key that refuses a sender who may not send it
    suggested: bool = True  # a misspelt keyword of it is answered with a suggestion
    after_orders: bool = False  # done once the message's orders are taken (it tells the game as it stands)

    def __post_init__(self) -> None:
        if self.who not in WHO or self.reads not in READS or "en" not in self.words:
            raise ValueError(f"command {self.name!r}: who in {WHO}, reads in {READS}, English words needed")

    def shown(self, language: str) -> str:
        """Its keyword as a reader of ``language`` writes it (English without words of
        the language)."""
        return (self.words.get(language) or self.words["en"])[0]


class CommandLine(msgspec.Struct, frozen=True):
    """A command as a mail writes it: the command (None: a misspelt one, whose
    ``suggestion`` is the keyword meant), the line it starts on and its last line
    (from 1), its first line as written, the words after the keyword, a block's
    lines (``BLOCK``), or ``SETTINGS``'s (line, folded key, value), and the language
    of its keyword."""

    command: Command | None
    line: int
    last: int
    written: str
    args: str = ""
    body: tuple[str, ...] = ()
    closed: bool = True  # a block ended with its ``end`` line (else it ran to the end of the text)
    suggestion: str = ""  # for a misspelt command: the keyword meant (folded)
    word: str = ""  # the keyword as read (folded)
    language: str = "en"  # the language of its keyword
    settings: tuple[tuple[int, str, str], ...] = ()

    @property
    def name(self) -> str:
        return self.command.name if self.command is not None else UNKNOWN

    @property
    def lines(self) -> range:
        """The lines the command takes, never read as orders: a block that was never
        closed takes its first line only, and the lines after it are read as orders
        (a forgotten ``end press`` must not swallow the orders below it)."""
        return range(self.line, (self.last if self.closed else self.line) + 1)


class Script(msgspec.Struct, frozen=True):
    """The commands of a mail, in its order, and the lines that hold nothing a
    context reads (``Grammar.ignoring``)."""

    commands: tuple[CommandLine, ...] = ()
    ignored: tuple[int, ...] = ()

    def lines(self) -> set[int]:
        """The line numbers (from 1) the commands take: never read as orders."""
        return {n for c in self.commands for n in c.lines}

    def known(self) -> tuple[CommandLine, ...]:
        """The commands read, without the misspelt ones."""
        return tuple(c for c in self.commands if c.command is not None)

    def unknown(self) -> tuple[CommandLine, ...]:
        return tuple(c for c in self.commands if c.command is None)

    def __bool__(self) -> bool:
        return bool(self.commands)


class Grammar(msgspec.Struct, frozen=True):
    """A context's commands, and how its mail is read: ``skip`` says which lines are
    never commands (the lobby's password and ``game:`` lines); ``careful``: a line
    is taken for a misspelt command only when it is short, has no digit, dash or
    arrow and its first word is no order word (the game's mail, where orders are);
    ``ignoring``: the lines of no command are listed (the lobby says so)."""

    commands: tuple[Command, ...]
    skip: Callable[[str], bool] | None = None
    careful: bool = False
    ignoring: bool = False

    def __post_init__(self) -> None:
        seen: dict[str, str] = {}
        for c in self.commands:
            for w in self.keywords(c):
                if seen.setdefault(w, c.name) != c.name:
                    raise ValueError(f"the keyword {w!r} is both {seen[w]!r}'s and {c.name!r}'s")

    @staticmethod
    def keywords(command: Command) -> list[str]:
        """A command's keywords, folded, every language's (English first)."""
        return list(dict.fromkeys(fold(w) for words in command.words.values() for w in words))

    def adding(self, *commands: Command) -> Grammar:
        """The grammar with more commands (a test's demonstration command)."""
        return msgspec.structs.replace(self, commands=(*self.commands, *commands))

    def named(self, name: str) -> Command | None:
        return next((c for c in self.commands if c.name == name), None)

    def of_word(self, word: str) -> Command | None:
        """The command a folded keyword is one of."""
        found = self.index().get(word)
        return found[0] if found is not None else None

    def index(self) -> dict[str, tuple[Command, str]]:
        """Every keyword, folded, with its command and its language (the first language
        that has it: ``pause`` is English and French, and English)."""
        found: dict[str, tuple[Command, str]] = {}
        for c in self.commands:
            for language, words in c.words.items():
                for w in words:
                    found.setdefault(fold(w), (c, language))
        return found

    def suggestion(self, word: str, line: str, order_words: Collection[str] = ()) -> str:
        """The keyword a misspelt first word was meant to be, or "" when the line is
        not taken for a command."""
        if len(word) < 4:
            return ""
        if self.careful and (word in order_words or re.search(r"[\d\-=>]", line) or len(line.split()) > 6):
            return ""
        candidates = [w for c in self.commands if c.suggested for w in self.keywords(c) if " " not in w]
        found = difflib.get_close_matches(word, candidates, n=1, cutoff=0.75)
        return found[0] if found else ""


def read(
    lines: Sequence[str], grammar: Grammar, *, order_words: Collection[str] = (), leave_out: Collection[str] = ()
) -> Script:
    """The commands of a mail's ``lines`` (numbered from 1) in ``grammar``.
    ``order_words``: words the order language uses, never taken for a misspelt command;
    ``leave_out``: names of commands not read here (the lobby's ``help`` in a mail that
    names a game, which is the game's)."""
    out: list[CommandLine] = []
    ignored: list[int] = []
    skip = grammar.skip or (lambda line: False)
    index = grammar.index()
    phrases = [  # keywords of several words ("mot de passe NEW"), read before single words
        (_phrase(w), w, c, language) for w, (c, language) in index.items() if " " in w
    ]
    i = 0
    while i < len(lines):
        line = lines[i]
        n = i + 1
        if skip(line):
            i += 1
            continue
        command, rest, word, language = _match(line, index, phrases)
        if command is None or command.name in leave_out:
            guess = grammar.suggestion(word, line, order_words)
            if guess:
                out.append(CommandLine(None, n, n, line.strip(), rest, suggestion=guess, word=word))
            elif grammar.ignoring:
                ignored.append(n)
            i += 1
            continue
        found = CommandLine(command, n, n, line.strip(), rest, word=word, language=language)
        if command.reads == BLOCK:
            j = i + 1
            while j < len(lines) and not _END.match(fold(lines[j].strip())):
                j += 1
            closed = j < len(lines)
            body = tuple(lines[i + 1 : j])
            while body and not body[-1].strip():
                body = body[:-1]
            found = msgspec.structs.replace(found, last=j + 1 if closed else len(lines), body=body, closed=closed)
            i = j + 1
        elif command.reads == SETTINGS:
            settings: list[tuple[int, str, str]] = []
            j = i + 1
            # to an empty line, an end line, or the next command (a line that starts with a
            # keyword not followed by a colon: ``create beta pure`` ends ``create alpha``'s block)
            while (
                j < len(lines)
                and lines[j].strip()
                and fold(lines[j].strip()) not in _SETTINGS_END
                and not (_match(lines[j], index, phrases)[0] is not None and not _KEY.match(lines[j]))
            ):
                key, sep, value = lines[j].partition(":")
                if not skip(lines[j]):
                    if sep:
                        settings.append((j + 1, fold(key.strip()), value.strip()))
                    elif grammar.ignoring:
                        ignored.append(j + 1)
                j += 1
            if j < len(lines) and fold(lines[j].strip()) in _SETTINGS_END:
                j += 1
            found = msgspec.structs.replace(found, last=j, settings=tuple(settings))
            i = j
        else:
            i += 1
        out.append(found)
    return Script(tuple(out), tuple(ignored))


def _phrase(words: str) -> re.Pattern[str]:
    """A keyword of several words at the start of a line, followed by its words (a
    ``mot de passe :`` line is a password line, no command)."""
    return re.compile(
        r"^\s*+" + r"\s++".join(map(re.escape, words.split())) + r"(?!\s*+:)\s++" + _VALUE + r"\s*+$", re.I
    )


def _match(
    line: str, index: Mapping[str, tuple[Command, str]], phrases: Sequence[tuple[re.Pattern[str], str, Command, str]]
) -> tuple[Command | None, str, str, str]:
    """The command a line starts with (None), the rest of the line, its first word
    (folded) and the keyword's language."""
    for pattern, words, command, language in phrases:
        m = pattern.match(line)
        if m:
            return command, m.group(1), words.replace(" ", ""), language
    m = _WORD.match(line)
    if not m:
        return None, "", "", "en"
    word, rest = fold(m.group(1)), m.group(2)
    found = index.get(word)
    return (found[0], rest, word, found[1]) if found is not None else (None, rest, word, "en")


class Worded(Protocol):
    """A sentence as a value, worded in a reader's language (``moonshine.render.mailwords.Phrase``)."""

    def text(self, language: str) -> str: ...


class Answer(msgspec.Struct, frozen=True):
    """What became of one command: done or refused, and why (a sentence as a value,
    worded in the reader's language), with text to quote under it (a status, the
    help)."""

    command: CommandLine
    done: bool
    say: Worded
    more: str = ""


class Refused(Exception):
    """A command its handler (or the context's authorisation) refuses, and why."""

    def __init__(self, say: Worded) -> None:
        super().__init__(say.text("en"))
        self.say = say


def answer(req: Any, line: CommandLine, authorise: Callable[[Any, CommandLine], None]) -> Answer:
    """Do one command read in a mail (not a misspelt one) for ``req``, the context's
    request: ``authorise`` raises ``Refused`` when its sender may not send it."""
    command = line.command
    assert command is not None
    try:
        authorise(req, line)
        return command.handler(req, line)
    except Refused as no:
        return Answer(line, False, no.say)
