"""A line as typed, made ready to read: email quoting, bullets, drawn lines and
invisible characters taken off, typographic dashes made plain, and the line cut
into tokens (words, numbers, signs), each word folded to lower case without
accents, the form keywords and names are compared in."""

from __future__ import annotations

import re
import unicodedata

import msgspec

_QUOTING = re.compile(r"^(?:[ \t]*>)+[ \t]?")
BULLET = re.compile(r"^(?:[-*•·+]|\(?\d{1,3}[.)])\s+")
_INVISIBLE = dict.fromkeys(map(ord, "\ufeff\u200b\u200c\u200d\u2060"), None) | {0xA0: " ", 0x202F: " "}


def unquote(line: str) -> str:
    """The line without email quoting (``> `` prefixes), byte-order mark, zero-width
    characters and surrounding whitespace."""
    return _QUOTING.sub("", line.translate(_INVISIBLE)).strip()


def is_signature(line: str) -> bool:
    """The email signature delimiter ``-- `` (not quoted): what follows is not orders."""
    return line.rstrip("\r\n") in ("-- ", "--")


RULE = re.compile(r"^[-_=*~.]+$")  # "-----", "=====": a drawn line


DASHES = dict.fromkeys(map(ord, "‐‑‒–—―−﹘﹣－"), "-")
_TOKEN = re.compile(
    r"""
     (?P<arrow>-+>|=+>|[→⟶➔➜⇒>])
    |(?P<dash>-+)
    |(?P<num>[0-9]+(?:[.,][0-9]+)?|[.,][0-9]+)
    |(?P<word>[^\W\d_]+(?:['’][^\W\d_]+)*)
    |(?P<sym>[/,:$×])
    |(?P<space>(?:[\s();!?"«»“”'’`]|\.(?![0-9]))+)
    |(?P<other>.)
    """,
    re.VERBOSE | re.DOTALL,
)


def fold(text: str) -> str:
    """Lower case without accents: the form keywords and names are compared in."""
    decomposed = unicodedata.normalize("NFKD", text.replace("’", "'"))
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold()


class Tok(msgspec.Struct, frozen=True):
    """A token of a line: a word, a number, a sign, or any other character."""

    kind: str  # word, num, sym, other
    text: str  # as typed
    key: str  # folded word, or the symbol's canonical form
    start: int  # offset in the line


def tokens(line: str) -> list[Tok]:
    """The line's tokens, spaces and punctuation between words left out."""
    out: list[Tok] = []
    for m in _TOKEN.finditer(line):
        group = m.lastgroup
        text = m.group()
        if group == "space":
            continue
        if group == "arrow":
            out.append(Tok("sym", text, "->", m.start()))
        elif group == "dash":
            out.append(Tok("sym", text, "-", m.start()))
        elif group == "sym":
            out.append(Tok("sym", text, "x" if text == "×" else text, m.start()))
        elif group == "word":
            out.append(Tok("word", text, fold(text), m.start()))
        elif group == "num":
            out.append(Tok("num", text, text, m.start()))
        else:
            out.append(Tok("other", text, text, m.start()))
    return out


def words(text: str) -> tuple[str, ...]:
    """The text's words, folded (numbers and signs left out)."""
    return tuple(t.key for t in tokens(unicodedata.normalize("NFKC", text).translate(DASHES)) if t.kind == "word")
