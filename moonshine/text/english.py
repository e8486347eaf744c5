"""The English of the operator's text: the command line's output and the run logs, read
by a game master or the judge's operator, never by a player (what a player reads goes
through the catalogue: ``moonshine.text.catalogue.say_n`` for a sentence with a count).
A count agrees with its noun: ``1 order``, ``2 orders``, never a noun with ``(s)``."""

from __future__ import annotations


def count(n: int, one: str, many: str = "") -> str:
    """``n`` and its noun in the form that agrees with it: ``count(1, "order")`` is
    ``1 order``, ``count(2, "order")`` and ``count(0, "order")`` are ``2 orders`` and
    ``0 orders`` (English takes the plural for every number but one). ``many`` is the
    plural where adding an ``s`` does not make it (``count(2, "delivery", "deliveries")``;
    for several words, the whole phrase: ``count(1, "file or folder", "files and
    folders")`` is ``1 file or folder``)."""
    return f"{n} {one if n == 1 else many or one + 's'}"
