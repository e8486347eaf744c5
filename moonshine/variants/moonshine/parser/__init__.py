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

from moonshine.text.printable import printable


def join(items: Iterable[str]) -> str:
    return ", ".join(items)


def quote(text: str, limit: int = 60) -> str:
    return "'" + printable(text, limit) + "'"
