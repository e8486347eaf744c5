"""docs/commands.md lists every command by mail, a game's and a judge's (the lobby's),
with its English and French keywords, who may send it, what it does and an example:
each keyword it names is one the reader knows, of the command the row is about and in
its language; each example is read as that command; the row's "Who" says who the
command is for; and every command the readers know is named by a row."""

from __future__ import annotations

import re

from repokit import ROOT

from moonshine.host.lobby import LOBBY
from moonshine.mail.commands import GAME
from moonshine.mail.commands.grammar import ANYONE, JUDGE_MASTER, MASTER, OBSERVER, PLAYER, Command, Grammar
from moonshine.mail.commands.grammar import read as read_lines
from moonshine.text.folding import fold

DOC = ROOT / "docs" / "commands.md"
# what the "Who" column says of each command's ``who``
WHO = {
    ANYONE: ("anyone",),
    OBSERVER: ("players, observers",),
    PLAYER: ("players", "surviving players"),
    MASTER: ("its masters",),
    JUDGE_MASTER: ("the judge's masters",),
}


def table(section: str) -> list[list[str]]:
    """The rows of the first table with an Example column after the heading ``section``."""
    text = DOC.read_text(encoding="utf-8")
    start = text.index(section)
    lines = text[start:].splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith("| English | French | Who | What | Example |"))
    rows = []
    for line in lines[head + 2 :]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))]
        rows.append(cells)
    return rows


def keyword(grammar: Grammar, cell: str) -> str:
    """The keyword a cell's first code span starts with: its longest first words the
    grammar knows as one keyword (``mot de passe``), else its first word."""
    code = re.search(r"`([^`]+)`", cell)
    assert code is not None, cell
    words = code.group(1).split()
    known = set(grammar.index())
    for k in range(len(words), 0, -1):
        if fold(" ".join(words[:k])) in known:
            return " ".join(words[:k])
    return words[0]


def command_of(grammar: Grammar, english: str, french: str) -> Command:
    """The command both keywords are of, each in its own language."""
    found = next((c for c in grammar.commands if fold(english) in {fold(w) for w in c.words["en"]}), None)
    assert found is not None, english
    assert fold(french) in {fold(w) for w in found.words.get("fr", ())}, (english, french, found.words)
    return found


def rows_of(grammar: Grammar, section: str) -> set[str]:
    named = set()
    for english, french, who, what, example in table(section):
        command = command_of(grammar, keyword(grammar, english), keyword(grammar, french))
        named.add(command.name)
        assert who in WHO[command.who], (english, who, command.who)
        assert what, english
        line = re.fullmatch(r"`([^`]+)`", example)
        assert line is not None, (english, example)
        script = read_lines([line.group(1)], grammar)
        assert [c.name for c in script.known()] == [command.name], (english, example)
    return named


def test_every_game_command_is_named_with_its_french_word_who_and_an_example() -> None:
    assert rows_of(GAME, "## The commands") == {c.name for c in GAME.commands}


def test_every_judge_command_is_named_with_its_french_word_who_and_an_example() -> None:
    assert rows_of(LOBBY, "## A judge for many games") == {c.name for c in LOBBY.commands}
