"""Bounded cost for anything a stranger sends: every reader of a stranger's text (the
judge's lobby, a game's inbox for both variants, the players' commands, press,
what-if, both variants' order readers and acknowledgements) is fed hostile lines of
100 KB (``bench.readercost.fixed_lines``: blanks of every kind, each keyword followed
by its colon and 100 KB of blanks and a letter, near-keywords, separators repeated),
and must read each in a bounded CPU time. These are no benchmarks but a guard against
super-linear work: a pattern that backtracks quadratically costs tens of seconds on
such a line (and one that backtracks cubically, days), a linear reader milliseconds,
so a bound of half a second per line holds on a loaded machine and fails at once
(``bench.readercost.cpu`` stops a reader at four times the bound).

Then the patterns themselves: none of the family that backtracks on a line of blanks
(``\\s*(.*?)\\s*$``), and every pattern of the package, matched the way the code
matches it, on hostile strings of 20,000 characters. Then mails whose text is a
hostile document of orders as JSON, read by the lobby and both variants' inboxes in a
bounded time and answered with the document's problems. And the mail layer's cap: a
line longer than ``intake.MAX_LINE`` is left out whole, and the reply says so."""

from __future__ import annotations

import ast
import functools
import importlib
import json
import pkgutil
import re
import shutil
import sys
from collections.abc import Callable, Iterator
from email import message_from_bytes, policy
from pathlib import Path

import pytest
from repokit import ROOT

sys.path.insert(0, str(ROOT))

import moonshine
from bench.readercost import KEYWORDS, NOW, PASSWORD, PLAYER, Line, Readers, cpu, fixed_lines, mail
from moonshine.mail import intake

BOUND = 0.5  # CPU seconds per line of 100 KB: linear readers take a few hundredths
SIZE = 100_000


@pytest.fixture(scope="module")
def readers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Readers]:
    made = Readers(tmp_path_factory.mktemp("cost"))
    yield made
    made.close()


def batches(lines: list[Line], size: int, budget: int) -> Iterator[list[str]]:
    """The lines grown to ``size`` characters, in batches of at most ``budget`` bytes:
    as many as one mail under the size limit holds."""
    batch: list[str] = []
    used = 0
    for line in lines:
        text = line.within(size).text
        n = len(text.encode("utf-8")) + 1
        if batch and used + n > budget:
            yield batch
            batch, used = [], 0
        batch.append(text)
        used += n
    if batch:
        yield batch


def slowest(read: Callable[[str], object], texts: Iterator[tuple[str, int]], bound: float) -> list[str]:
    """Each text read, with its bound (``bound`` per line it holds): the first three over
    it (a reader that fails, fails on many: no need to wait for them all)."""
    over: list[str] = []
    for text, lines in texts:
        took, stopped = cpu(read, text, 4 * bound * lines)
        if took > bound * lines:
            head = text[:40].encode("unicode_escape").decode()
            said = f"{'stopped at ' if stopped else ''}{took:.2f} s"
            over.append(f"{said} for {lines} line(s), {len(text):,} characters: {head}...")
            if len(over) == 3:
                break
    return over


# The readers a line comes to alone: the order readers and the commands.
@pytest.mark.parametrize("name", ["commands", "orders (Moonshine)", "orders (classic)"])
def test_a_reader_reads_each_hostile_line_of_100_kb_in_bounded_time(readers: Readers, name: str) -> None:
    read = readers.all()[name]
    over = slowest(read, ((line.within(SIZE).text, 1) for line in fixed_lines()), BOUND)
    assert not over, "\n".join(over)


# The readers of blocks and of whole mails: the lines come as many to a block or a mail
# as a mail of 512 KB holds (five of 100 KB).
@pytest.mark.parametrize("name", ["press", "what-if", "lobby", "inbox (Moonshine)", "inbox (classic)"])
def test_a_reader_of_mail_reads_hostile_lines_of_100_kb_in_bounded_time(readers: Readers, name: str) -> None:
    read = readers.all()[name]
    batched = (("\n".join(b), len(b)) for b in batches(fixed_lines(), SIZE, readers.limit - 8192))
    over = slowest(read, batched, BOUND)
    assert not over, "\n".join(over)


# And forty at a time just under the mail layer's cap, the longest a line reaches the
# readers behind it: a tenth of the bound per line.
@pytest.mark.parametrize("name", ["lobby", "inbox (Moonshine)", "inbox (classic)"])
def test_a_reader_of_mail_reads_hostile_lines_as_long_as_the_cap_in_bounded_time(readers: Readers, name: str) -> None:
    read = readers.all()[name]
    batched = (("\n".join(b), len(b)) for b in batches(fixed_lines(), intake.MAX_LINE, 40 * intake.MAX_LINE))
    over = slowest(read, batched, BOUND / 10)
    assert not over, "\n".join(over)


def test_the_hostile_lines_hold_every_keyword_and_every_kind_of_blank() -> None:
    lines = fixed_lines(1000)
    texts = {line.text for line in lines}
    assert len(texts) == len(lines) > 200
    for key in KEYWORDS:
        assert key + ":" + " " * 994 + "x" in texts or any(t.startswith(key + ":") for t in texts)
    assert " " * 1000 in texts and "\t" * 1000 in texts and "\u00a0" * 1000 in texts
    assert all(abs(len(line.within(SIZE).text.encode()) - SIZE) < 100 for line in lines if line.text.isascii())


# -- the patterns ---------------------------------------------------------------------

PACKAGE = Path(moonshine.__file__).parent
# what the repository's hook looks for: a value between blanks, lazily or not, at the end
BACKTRACKING = re.compile(r"\\s\*\(\.\*\?\)\\s\*\$|\\s\*\(\.\*\)\\s\*\$")
SEARCHING = {"search", "findall", "finditer", "sub", "subn", "split"}
METHODS = {"match", "fullmatch", *SEARCHING}


def test_no_pattern_of_the_family_that_backtracks_on_blanks() -> None:
    found = [
        f"{path.relative_to(PACKAGE.parent)}:{n}: {line.strip()}"
        for path in sorted(PACKAGE.rglob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if BACKTRACKING.search(line)
    ]
    assert not found, "\n".join(found)


def _flags(call: ast.Call, position: int, scope: dict[str, object]) -> int:
    given = [*call.args[position : position + 1], *(k.value for k in call.keywords if k.arg == "flags")]
    return int(eval(compile(ast.Expression(given[0]), "<flags>", "eval"), scope)) if given else 0


@functools.cache
def patterns() -> dict[str, tuple[re.Pattern[str], set[str]]]:
    """Every pattern of the package and how the code matches it: the compiled patterns
    of its modules (by name, with the methods called on that name anywhere in the
    package; both ways when none is), and the patterns written where they are used
    (``re.match(r"...", line)``, an f-string of module names included)."""
    modules = {
        info.name: importlib.import_module(info.name)
        for info in pkgutil.walk_packages(moonshine.__path__, "moonshine.")
    }
    found: dict[str, tuple[re.Pattern[str], set[str]]] = {}
    used: dict[str, set[str]] = {}
    for name, module in modules.items():
        path = Path(module.__file__ or "")
        if path.suffix != ".py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        scope = {**vars(module), "re": re}
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            method, owner = node.func.attr, node.func.value
            if isinstance(owner, ast.Name | ast.Attribute) and method in METHODS:
                used.setdefault(owner.id if isinstance(owner, ast.Name) else owner.attr, set()).add(method)
            if isinstance(owner, ast.Name) and owner.id == "re" and method in METHODS and node.args:
                try:
                    text = eval(compile(ast.Expression(node.args[0]), "<pattern>", "eval"), scope)
                    flags = _flags(node, 4 if method in ("sub", "subn") else 2, scope)
                except Exception:  # a pattern made of a function's own values: not known here
                    continue
                if isinstance(text, str):
                    found[f"{name}:{node.lineno}"] = (re.compile(text, flags), {method})
    seen: set[int] = set()  # a pattern imported by other modules is one pattern
    for name, module in modules.items():
        for attr, value in vars(module).items():
            if isinstance(value, re.Pattern) and isinstance(value.pattern, str) and id(value) not in seen:
                seen.add(id(value))
                found[f"{name}.{attr}"] = (value, used.get(attr) or {"match", "search"})
    return found


def test_the_patterns_are_found() -> None:
    found = patterns()
    assert len(found) > 40
    assert found["moonshine.mail.inbox.accept._GANG_LINE"][1] == {"match", "search"}  # passed to find_line
    assert found["moonshine.game.masking._PASSWORD_LINE"][1] >= {"finditer", "sub"}
    # the first word of a command, a game's or the lobby's (the one reader), and the lobby's password line
    assert found["moonshine.mail.commands.grammar._WORD"][1] >= {"match"}
    assert "moonshine.host.incoming.PASSWORD_LINE" in found


def hostile_strings(pattern: re.Pattern[str], size: int) -> Iterator[str]:
    """Blanks, separators and letters, alone and after each keyword the pattern holds
    (and each word of its own), with a colon, a colon and a letter, or a blank; with a
    letter at the end and without."""
    source = pattern.pattern.lower()
    words = {w for w in re.findall(r"[^\W\d_]{2,}", source) if f"\\{w[0]}" not in source}
    keys = sorted({k for k in KEYWORDS if k.lower() in source} | words)
    for key in ("", *keys):
        for after in (":", ":x", " ") if key else ("",):
            for fill in (" ", "\t", " \t", "\u00a0", "\n", ":", "a ", "-", "_", ">", "1"):
                body = key + after + fill * ((size - len(key)) // len(fill))
                yield body
                yield body + "x"


def _all(found: object) -> object:
    """Every match of an iterator (``finditer``), or the one match."""
    return list(found) if isinstance(found, Iterator) else found


def test_every_pattern_reads_hostile_strings_in_linear_time() -> None:
    bound = 0.25  # CPU seconds for a string of 20,000 characters: linear takes a millisecond
    over: list[str] = []
    for name, (pattern, methods) in sorted(patterns().items()):
        strings = list(hostile_strings(pattern, 20_000))
        for method in sorted(methods):
            run = getattr(pattern, "finditer" if method in SEARCHING else method)
            for text in strings:
                took, _ = cpu(lambda s, run=run: _all(run(s)), text, 4 * bound)
                if took > bound:
                    shown = text[:30].encode("unicode_escape").decode()
                    over.append(f"{name}.{method}: {took:.2f} s on {shown!r}... ({pattern.pattern[:60]!r})")
                    break
    assert not over, "\n".join(over)


# -- orders as JSON by mail -------------------------------------------------------------


def hostile_documents() -> list[str]:
    """Mails whose text is a document of orders as JSON (``intake.json_documents``), made
    to cost: nested deep, escapes, a string never closed, a number of 60,000 digits,
    thousands of keys and a duplicate last, blanks, an order text of every hostile line,
    200 orders of 300 characters for the game's own sides, and one past the document's
    size (``ordersjson.MAX_BYTES``)."""
    from moonshine.variants.ordersjson import MAX_BYTES, MAX_ORDERS, MAX_TEXT

    room = MAX_BYTES - 100
    keys = "".join(f'"k{i}": 0, ' for i in range(room // 12))
    docs = [
        '{"orders": ' + "[" * room,
        '{"game": "' + "\\u00e9" * (room // 6) + '"}',
        '{"game": "' + '\\"' * (room // 2),
        '{"version": ' + "9" * room + "}",
        "{" + keys + '"k1": 1}',
        "{" + " \t\r\n" * (room // 4) + "}",
        '{"orders": ['
        + ", ".join('{"text": ' + json.dumps(line.within(MAX_TEXT).text) + "}" for line in fixed_lines())
        + "]}",
        '{"orders": [' + '{"text": "H LOO hold"}, ' * (room // 24) + '{"text": "H LOO hold"}]}',
    ]
    for family, side, turn, line in (
        ("moonshine", "valley", "spring-1924", "H LOO - NSS - KEN - "),
        ("classic", "FRA", "spring-1901", "A PAR S A MAR - BUR "),
    ):
        orders = [{"text": (line * MAX_TEXT)[:MAX_TEXT]}] * MAX_ORDERS
        head = {"format": "moonshine-orders", "version": 1, "family": family, "game": "game", "side": side}
        docs.append(json.dumps({**head, "turn": turn, "password": PASSWORD, "orders": orders}))
    docs.append('{"orders": "' + "x" * (3 * MAX_BYTES) + '"}')
    return docs


# The readers of a whole mail, each document a mail of its own (a mail holds one).
@pytest.mark.parametrize("name", ["lobby", "inbox (Moonshine)", "inbox (classic)"])
def test_a_reader_of_mail_reads_hostile_json_documents_in_bounded_time(readers: Readers, name: str) -> None:
    read = readers.all()[name]
    docs = hostile_documents()
    for n, doc in enumerate(docs):  # each is read as a document of orders as JSON
        parsed = message_from_bytes(mail(PLAYER, doc, n), policy=policy.default)
        assert [where for where, _ in intake.json_documents(parsed, intake.texts(parsed))] == [intake.JSON_TEXT]
    over = slowest(read, ((doc, 1) for doc in docs), BOUND)
    assert not over, "\n".join(over)


def test_a_hostile_json_document_is_answered_with_its_problems(readers: Readers, tmp_path: Path) -> None:
    from moonshine.game.directory import Game
    from moonshine.mail import inbox

    game = Game(shutil.copytree(readers.game, tmp_path / "game"))
    box = tmp_path / "box"
    box.mkdir()
    docs = hostile_documents()
    for n, doc in enumerate(docs):
        (box / f"m{n:02}.eml").write_bytes(mail(PLAYER, doc + "\n", n))
    outcomes = inbox.process(game, box, now=NOW)
    assert len(outcomes) == len(docs)
    turn = game.current_turn()
    for doc, outcome in zip(docs, outcomes, strict=True):
        assert outcome.reply is not None, doc[:40]
        reply = _body((game.root / "outbox" / turn / outcome.reply).read_bytes())
        if '"family": "moonshine"' in doc:  # the game's own document: read as orders, each line refused
            assert "200 order lines: 0 accepted, 200 rejected" in reply, reply
        else:
            assert outcome.status == "rejected" and "do not fit the format of orders as JSON" in reply, reply


# -- the mail layer's cap on a line -----------------------------------------------------


def test_a_line_longer_than_the_cap_is_left_out_whole_and_said(readers: Readers, tmp_path: Path) -> None:
    from moonshine.game.directory import Game
    from moonshine.mail import inbox

    order = "H LOO - LIT" + " " * intake.MAX_LINE + "x"  # cut short, it would be an order
    own = intake.own_text(f"gang: valley\n{order}\nL KEN hold\n{'L' * intake.MAX_LINE}\n")
    assert own.lines_dropped(intake.TOO_LONG) == [2]
    assert own.text == f"gang: valley\n\nL KEN hold\n{'L' * intake.MAX_LINE}\n"  # a line as long as the cap is read
    quoted = intake.own_text("> " + "x" * intake.MAX_LINE + "\nH LOO hold\n")
    assert quoted.lines_dropped(intake.QUOTED) == [1] and not quoted.lines_dropped(intake.TOO_LONG)

    game = Game(shutil.copytree(readers.game, tmp_path / "game"))
    box = tmp_path / "box"
    box.mkdir()
    (box / "m.eml").write_bytes(mail(PLAYER, f"gang: valley\npassword: {PASSWORD}\n{order}\nL KEN hold\n", 1))
    [outcome] = inbox.process(game, box, now=NOW)
    assert outcome.status == "accepted", outcome.reason
    turn = game.current_turn()
    saved = (game.root / "orders" / turn / "valley.txt").read_text(encoding="utf-8")
    assert "L KEN hold" in saved and "LIT" not in saved
    assert outcome.reply is not None
    assert f"Longer than {intake.MAX_LINE} characters, not read: lines 3." in _body(
        (game.root / "outbox" / turn / outcome.reply).read_bytes()
    )


def test_the_lobby_says_which_lines_it_did_not_read(readers: Readers) -> None:
    from moonshine.host import lobby
    from moonshine.host.incoming import read_mail
    from moonshine.host.lobby.request import LobbyPass

    body = "whois\nlist " + "x" * intake.MAX_LINE + "\n"
    got = read_mail(mail("p@example.org", body, 7), readers.limit)
    assert got.too_long == [2] and got.lines[:2] == ["whois", ""]
    before = len(readers.registry.queued_mail())
    lobby.answer(LobbyPass(readers.judge, readers.registry, NOW, lambda _line: None), got)
    [(_, _, reply)] = readers.registry.queued_mail()[before:]
    assert f"Longer than {intake.MAX_LINE} characters, not read: lines 2." in _body(reply.encode())


def _body(raw: bytes) -> str:
    msg = message_from_bytes(raw, policy=policy.default)
    part = msg.get_body(("plain",))  # type: ignore[attr-defined]
    assert part is not None
    return str(part.get_content())
