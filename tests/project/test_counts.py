"""A count agrees with its noun (issue 38, item 7): no text of the package writes
``order(s)``. The operator's text counts with ``moonshine.text.english.count``
(``1 order``, ``2 orders``), a player's sentence with the catalogue's ``say_n``. Read
from the source: every string literal of ``moonshine/``, the parts of an f-string and
the docstrings included."""

from __future__ import annotations

import ast
import re

from repokit import ROOT

PACKAGE = ROOT / "moonshine"
UNAGREED = re.compile(r"\w\((?:e?s)\)")  # order(s), match(es)


def literal_text(node: ast.AST) -> str | None:
    """The text a string literal writes (an f-string's: its literal parts, joined with
    ``{}`` where a value goes), or None for any other node."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
    return None


def unagreed(source: str, name: str) -> list[str]:
    """Each string literal of ``source`` that counts with ``(s)``, as ``name:line: text``."""
    found: list[tuple[int, str]] = []
    inner: set[int] = set()
    for node in ast.walk(ast.parse(source, name)):
        if id(node) in inner:
            continue
        if isinstance(node, ast.JoinedStr):
            inner.update(id(v) for v in node.values)
        text = literal_text(node)
        if text is not None and UNAGREED.search(text):
            found.append((node.lineno, f"{name}:{node.lineno}: {text.strip()[:100]!r}"))
    return [line for _, line in sorted(found)]


def test_the_reader_finds_a_count_with_s_in_a_literal_and_in_an_f_string() -> None:
    source = 'x = f"{n} order(s)"\ny = "1 match(es)"\ndef f(s: int) -> int:\n    """Fine."""\n    return g(s)\n'
    assert unagreed(source, "m.py") == ["m.py:1: '{} order(s)'", "m.py:2: '1 match(es)'"]


def test_no_text_of_the_package_counts_with_s() -> None:
    found = [
        line
        for path in sorted(PACKAGE.rglob("*.py"))
        for line in unagreed(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
    ]
    assert found == [], (
        "a count that does not agree with its noun: write count(n, 'order') of moonshine.text.english "
        "(the operator's text) or say_n (a player's sentence) instead of '(s)':\n" + "\n".join(found)
    )
