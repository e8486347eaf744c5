"""The one grammar of the mail commands (``moonshine.mail.commands.grammar``): a game's
commands and the lobby's are values read by one reader, and a new command is a new
value and its handler.

The demonstration: a command the code does not have, ``ping`` (``coucou`` in French),
declared here as a value with its handler and its sentences, added to the game's
registry, and sent by mail through the real path (the inbox reads the mailbox, the
reply goes out by SMTP and is read back from the server): it is read, authorised
(the players only), handled and answered, in English and in French. In the code, such
a command is three files of ``moonshine/``: the module of its family with the value
and the handler (``moonshine/mail/commands/...``), its line in the registry
(``GAME`` in ``moonshine/mail/commands/__init__.py``), and its sentences
(``moonshine/text/commands.py``; ``scripts/catalogue.py update`` then asks the
translators for them)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from playerkit import ADDRESSES, STRANGER, make_table, message
from smtpkit import Server

from moonshine.host import lobby
from moonshine.host.incoming import Mail
from moonshine.mail import commands
from moonshine.mail.commands import grammar
from moonshine.mail.commands.grammar import (
    ANYONE,
    BLOCK,
    PLAYER,
    SETTINGS,
    Answer,
    Command,
    CommandLine,
    Grammar,
    Refused,
    read,
)
from moonshine.mail.commands.request import GameRequest
from moonshine.render import mailwords
from moonshine.render.mailwords import phrase
from moonshine.text import catalogue

# -- the demonstration command ------------------------------------------------------------------

SENTENCES = {
    "demo.pong": "pong for {gang}: the judge reads you",
    "help.cmd.ping": "{keyword}: is the judge there?",
}
FRENCH = {  # French typography: a no-break space before a colon and a question mark
    "demo.pong": "pong pour {gang}\u00a0: l'arbitre vous lit",
    "help.cmd.ping": "{keyword}\u00a0: l'arbitre est-il là\u00a0?",
}


def ping(req: GameRequest, cmd: CommandLine) -> Answer:
    assert req.gang is not None
    return Answer(cmd, True, phrase("demo.pong", gang=req.game.sides(req.language)[req.gang]))


PING = Command("ping", {"en": ("ping",), "fr": ("coucou",)}, ping, who=PLAYER, help="help.cmd.ping")


@pytest.fixture
def french_words(tmp_path: Path) -> Iterator[None]:
    """The catalogues with the demonstration's French sentences, as a translator
    would add them (``scripts/catalogue.py update``, then translate and compile)."""
    locale = tmp_path / "locale"
    shutil.copytree(catalogue.LOCALE, locale)
    po = locale / "fr" / "LC_MESSAGES" / "moonshine.po"
    with po.open("rb") as fh:
        cat = read_po(fh, locale="fr")
    for key, english in SENTENCES.items():
        cat.add(english, FRENCH[key], context=key)
    with (po.parent / "moonshine.mo").open("wb") as fh:
        write_mo(fh, cat)
    catalogue.use_locale(locale)
    try:
        yield
    finally:
        catalogue.use_locale(None)


@pytest.fixture
def with_ping(monkeypatch: pytest.MonkeyPatch, french_words: None) -> None:
    """The command and its sentences added, for this test only: a value in the game's
    registry, two entries in the mail's catalogue."""
    monkeypatch.setattr(commands, "GAME", commands.GAME.adding(PING))
    for key, english in SENTENCES.items():
        monkeypatch.setitem(mailwords.MESSAGES, key, english)


@pytest.mark.parametrize(
    ("language", "word", "heading", "answer"),
    [
        ("en", "ping", "Commands:", "-> done: pong for Valley Gang: the judge reads you"),
        ("fr", "coucou", "Commandes\u00a0:", "pong pour Valley Gang\u00a0: l'arbitre vous lit"),
        ("fr", "Ping", "Commandes\u00a0:", "pong pour Valley Gang\u00a0: l'arbitre vous lit"),  # either language's
    ],
)
def test_a_command_declared_here_is_read_authorised_done_and_answered_by_mail(
    tmp_path: Path, smtp: Server, with_ping: None, language: str, word: str, heading: str, answer: str
) -> None:
    t = make_table(tmp_path, smtp, language=language)
    t.send(ADDRESSES["valley"][0], message("valley", word))
    t.send(STRANGER, f"{word}\n")  # no player: refused
    [player, stranger] = t.judge()
    reply = t.last_reply(ADDRESSES["valley"][0])
    assert heading in reply and answer in reply, reply
    assert "done ping" in player.reason
    refused = t.last_reply(STRANGER)
    assert answer not in refused and PING.shown(language) in refused, refused
    assert "refused ping" in stranger.reason


def test_the_help_lists_the_new_command_in_the_readers_language(tmp_path: Path, smtp: Server, with_ping: None) -> None:
    t = make_table(tmp_path, smtp, language="fr")
    t.send(ADDRESSES["valley"][0], message("valley", "aide"))
    t.judge()
    reply = t.last_reply(ADDRESSES["valley"][0])
    assert "coucou\u00a0: l'arbitre est-il là\u00a0?" in reply
    assert reply.index("presse à GANG") < reply.index("coucou\u00a0:")  # after the game's own, in the registry's order


def test_a_misspelt_new_command_is_answered_with_its_keyword(with_ping: None) -> None:
    script = commands.read("pnig\n")
    [unknown] = script.commands
    assert (unknown.command, unknown.suggestion) == (None, "ping")


# -- one reader for every context ---------------------------------------------------------------


def test_the_game_and_the_lobby_are_read_by_the_one_reader(monkeypatch: pytest.MonkeyPatch) -> None:
    contexts: list[Grammar] = []
    real = grammar.read

    def spy(lines: list[str], g: Grammar, **options: object) -> grammar.Script:
        contexts.append(g)
        return real(lines, g, **options)

    monkeypatch.setattr(grammar, "read", spy)
    assert [c.name for c in commands.read("status\n").commands] == ["status"]
    mail = Mail(b"", "digest", sender="x@example.org", lines=["list vacant"])
    assert [c.name for c in lobby.read(mail).commands] == ["list"]
    assert contexts == [commands.GAME, lobby.LOBBY]
    assert all(isinstance(c, Command) for g in contexts for c in g.commands)


def _handler(req: object, cmd: CommandLine) -> Answer:
    raise Refused(phrase("cmd.heading"))


TOY = Grammar(
    (
        Command("status", {"en": ("status",), "fr": ("état",)}, _handler),
        Command("note", {"en": ("note",), "fr": ("note",)}, _handler, reads=BLOCK),
        Command("password", {"en": ("password",), "fr": ("mot de passe",)}, _handler),
        Command("create", {"en": ("create",), "fr": ("créer",)}, _handler, who=ANYONE, reads=SETTINGS),
    ),
    skip=lambda line: line.lower().startswith(("password:", "game:")) or not line.strip(),
    ignoring=True,
)


def test_the_reader_folds_keywords_and_keeps_the_mails_line_numbers() -> None:
    lines = ["ÉTAT", "Note to all", "one", "", "fin de la note", "status: now"]
    script = read(lines, TOY)
    assert [(c.name, c.line, c.last, c.language) for c in script.commands] == [
        ("status", 1, 1, "fr"),
        ("note", 2, 5, "en"),
        ("status", 6, 6, "en"),
    ]
    assert script.commands[1].body == ("one",) and script.commands[2].args == "now"
    assert script.lines() == {1, 2, 3, 4, 5, 6}


def test_a_keyword_of_several_words_and_a_settings_block() -> None:
    lines = ["password: secret", "mot de passe nouveau-secret", "créer alpha classic", "title: A", "hello", "end", "x"]
    script = read(lines, TOY)
    [password, create] = script.commands
    assert (password.name, password.args, password.language) == ("password", "nouveau-secret", "fr")
    assert (create.args, create.settings) == ("alpha classic", ((4, "title", "A"),))
    assert script.ignored == (5, 7)  # neither a setting nor a command


def test_a_near_miss_is_an_unknown_command_with_its_suggestion_and_a_careful_reader_spares_orders() -> None:
    [unknown] = read(["stauts"], TOY).commands
    assert (unknown.name, unknown.suggestion) == ("unknown", "status")
    careful = Grammar(TOY.commands, careful=True)
    assert read(["stauts LOO - NSS"], careful).commands == ()  # an order's arrow: no command
    assert read(["stauts"], careful, order_words={"stauts"}).commands == ()


def test_a_keyword_two_commands_claim_is_refused_when_the_grammar_is_made() -> None:
    with pytest.raises(ValueError, match="'etat' is both"):
        Grammar((*TOY.commands, Command("mood", {"en": ("mood",), "fr": ("État",)}, _handler)))
    with pytest.raises(ValueError, match="who in"):
        Command("x", {"en": ("x",)}, _handler, who="everybody")
