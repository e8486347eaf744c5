"""The text part of a mail never splits a unit from its place across two lines
(moonshine/text/wrap.py): "; L" at the end of one line and "GGC" on the next is not a
unit a player can find."""

from __future__ import annotations

import textwrap

from moonshine.render import pages
from moonshine.text.wrap import wrap


def test_a_unit_stays_on_one_line() -> None:
    text = "held against bouncers L GGC, then F STP/NC and A PAR"
    assert textwrap.wrap(text, 23)[0] == "held against bouncers L"  # where a plain wrap breaks it
    lines = wrap(text, 23)
    assert lines[:2] == ["held against bouncers", "L GGC, then F STP/NC"]
    assert " ".join(lines) == text and all(len(line) <= 23 for line in lines)


def test_no_break_spaces_are_never_break_points() -> None:
    text = "Prix : " + "y" * 66 + " 3,50\u00a0$"
    assert wrap(text, 74)[-1] == "3,50\u00a0$"


def test_the_report_templates_wrap_so() -> None:
    template = pages.environment().from_string('{% import "_macros.txt.j2" as t %}{{ t.para(text) }}')
    text = "bounced against " + "z" * 52 + " H LOO"
    assert textwrap.wrap(text, 72)[0].endswith(" H")  # where a plain wrap breaks it
    out = template.render(text=text)
    assert "H LOO" in out and not any(line.rstrip().endswith(" H") for line in out.splitlines())
