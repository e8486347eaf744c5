"""The order language as players type it: one order per line, in English or French,
with district codes, full names or the map's aliases, typographic dashes, email
quoting and comments. ``parser.reader.parse_line`` turns one line into the order
objects of ``moonshine.variants.moonshine.orders`` (or a header line's value);
``orders.parse_canonical`` reads only the canonical form, this package reads what
people write:

- ``lexer``: a line cleaned (email quoting, bullets, invisible characters) and cut
  into tokens, words folded to lower case without accents;
- ``phrases``: the words of orders in English and French, by meaning;
- ``spelling`` and ``names``: every way the map lets a player name a district, and
  how far a misspelling may go;
- ``headers``: the ``gang:``, ``password:`` and ``turn:`` lines;
- ``grammar``: the shapes of the orders, read from the tokens;
- ``reader``: a whole line read, never two ways;
- ``errors``: a small family of ``ValueError`` subclasses that quote the text and
  say what is wrong, in English and in French (``ParseError.describe(language)``),
  with a suggestion where one helps ("no district 'HYDE'; did you mean HYD (Hyde
  Park)?").

This module: player text as the messages quote it, which the reader's errors, the
checker and the acknowledgements share."""

from __future__ import annotations

from collections.abc import Iterable


def join(items: Iterable[str]) -> str:
    return ", ".join(items)


def printable(text: str, limit: int = 80) -> str:
    """Player text made safe to print: control characters and lone surrogates escaped,
    long text cut with an ellipsis."""
    out: list[str] = []
    size = 0
    for ch in text:
        piece = ch if ch.isprintable() else ascii(ch)[1:-1]
        out.append(piece)
        size += len(piece)
        if size > limit:
            break
    shown = "".join(out)
    return shown if size <= limit else shown[: limit - 1] + "…"


def quote(text: str, limit: int = 60) -> str:
    return "'" + printable(text, limit) + "'"
