"""French typography, as the French catalogue writes it, for the tests to state what a
French text must look like without writing invisible characters:

- a no-break space (U+00A0) before ``:`` and between an amount and ``$`` (``3,50 $``),
  and inside guillemets (``« recruter H KEN »``);
- a narrow no-break space (U+202F) before ``;``, ``!`` and ``?``.

``fr("Prix : 3 $ par caisse")`` is that sentence with those spaces; ``plain_spaces(text)``
lists the places where a French text has an ordinary space instead."""

from __future__ import annotations

import re

NBSP = "\u00a0"
NNBSP = "\u202f"


def fr(text: str) -> str:
    """``text`` written with plain spaces, given French typography's spaces."""
    text = re.sub(r" ([:])", NBSP + r"\1", text)
    text = re.sub(r" ([;!?])", NNBSP + r"\1", text)
    text = re.sub(r"(?<=\d) \$", NBSP + "$", text)
    return text.replace("« ", "«" + NBSP).replace(" »", NBSP + "»")


# a plain space (or a line break) before : ; ! ? or before $ after an amount, or inside guillemets
_PLAIN = re.compile(r"(?:(?<=\S)[ \n]+[:;!?](?=\s|$))|(?:(?<=\d)[ \n]+\$)|(?:«[ \n])|(?:[ \n]»)")


def plain_spaces(text: str) -> list[str]:
    """Each place of ``text`` where French typography wants a no-break space and finds a
    plain one (or a line break), with a little of its context."""
    return [text[max(0, m.start() - 30) : m.end() + 10] for m in _PLAIN.finditer(text)]


def plain(text: str) -> str:
    """``text`` with its no-break spaces written as plain ones, for a test that reads the
    words (the typography is checked apart, by ``plain_spaces``)."""
    return text.replace(NBSP, " ").replace(NNBSP, " ")


def checked(text: str) -> str:
    """``text``, a French text, once checked for French typography (AssertionError naming
    each place it lacks a no-break space), with plain spaces for a test that reads the words."""
    missing = plain_spaces(text)
    assert not missing, missing
    return plain(text)
