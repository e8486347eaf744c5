"""Text wrapped for a mail's plain-text part, never splitting a unit from its place:
``H LOO``, ``L GGC``, ``A PAR``, ``F STP/NC`` stay on one line, and a contest's
strengths, ``(3 vs 2)``, too (a reader scanning for
"L GGC" must find it whole). No-break spaces (French typography, ``3,50 $``) are never
break points either: Python's ``textwrap`` breaks at ASCII white space only. And a
list of line numbers written short, as ranges (``line_ranges``)."""

from __future__ import annotations

import re
import textwrap

UNIT = re.compile(r"\b([AFHL]) ([A-Z]{3}(?:/[A-Z]{2})?)\b")
STRENGTHS = re.compile(r"\((\d+) (\w+) (\d+)\)")  # a contest's strengths: (3 vs 2), (3 contre 2)
_GLUE = "\x00"  # holds a unit together while wrapping


def wrap(text: str, width: int, *, indent: str = "", hang: str = "", break_long_words: bool = False) -> list[str]:
    """``text`` in lines of at most ``width`` characters (a word longer than that has
    a line of its own, or is cut with ``break_long_words``), the first indented by
    ``indent``, the others by ``indent + hang``; never an empty list."""
    glued = UNIT.sub(rf"\1{_GLUE}\2", text.replace(_GLUE, ""))
    glued = STRENGTHS.sub(rf"(\1{_GLUE}\2{_GLUE}\3)", glued)
    lines = textwrap.wrap(
        glued,
        width,
        initial_indent=indent,
        subsequent_indent=indent + hang,
        break_long_words=break_long_words,
        break_on_hyphens=False,
    )
    return [line.replace(_GLUE, " ") for line in lines] or [indent]


def line_ranges(numbers: list[int]) -> str:
    """``3-9, 12``: line numbers as ranges."""
    out: list[str] = []
    for n in sorted(set(numbers)):
        if out and out[-1].split("-")[-1] == str(n - 1):
            out[-1] = out[-1].split("-")[0] + f"-{n}"
        else:
            out.append(str(n))
    return ", ".join(out)
