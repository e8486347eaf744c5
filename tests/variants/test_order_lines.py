"""Order lines as players write them (``tests/data/cases/order_lines.yaml``): every line
is read as a lenient referee would read it, or refused; none is read as an order the
player did not write. ``scripts/order_lines.py`` prints the same count as a table."""

from __future__ import annotations

from typing import Any

import pytest
import yaml
from repokit import DATA

from moonshine.render.classic.ack import check_orders
from moonshine.variants.classic.board import standard_map
from moonshine.variants.classic.state import initial_state as classic_start
from moonshine.variants.moonshine import state as state_mod
from moonshine.variants.moonshine.checker import BLANK, COMMENT, HEADER, read_orders
from moonshine.variants.moonshine.map import load_map

CASES = DATA / "cases" / "order_lines.yaml"
SECTIONS: list[dict[str, Any]] = yaml.safe_load(CASES.read_text(encoding="utf-8"))["sections"]
REFUSE = "refuse"
GMAP = load_map()
BOARD = standard_map()

# Lines a referee would read that the reader still refuses (it refuses rather than
# guess): a verb phrase it does not know, a name misspelt twice over, two letters
# swapped apart.
STILL_REFUSED = {
    "H LOO is to move to NSS",
    "F BRE - Mid-Atlantic Ocaen",
    "A SMY - Sirya",
}


def _moonshine_reading(section: dict[str, Any], line: str) -> str:
    st = state_mod.initial_state(GMAP)
    if section.get("extra_units"):
        data = state_mod.to_data(st)
        data["units"][section["side"]] += section["extra_units"]
        st = state_mod.from_data(data, GMAP)
    lines = [x for x in read_orders(line + "\n", GMAP, st, section["side"]).lines if x.status not in (BLANK, COMMENT)]
    assert lines and lines[0].status != HEADER
    return REFUSE if lines[0].order is None else lines[0].order.text()


def _classic_reading(section: dict[str, Any], line: str) -> str:
    read = [x for x in check_orders(BOARD, classic_start(BOARD), section["side"], line).lines if not x.noted]
    if not read or read[0].order is None:
        return REFUSE
    if read[0].detail is not None and read[0].detail[0] in ("unknown_place", "unreadable", "could_be"):
        return REFUSE
    return read[0].order.text()


CASE_LINES = [
    pytest.param(section, line, meant, id=f"{section['family']}-{section['language']}-{line}")
    for section in SECTIONS
    for line, meant in section["lines"]
]


def test_the_set_is_large_and_mixed() -> None:
    lines = [(s["family"], s["language"], line) for s in SECTIONS for line, _ in s["lines"]]
    assert len(lines) >= 500
    for family in ("moonshine", "classic"):
        for language in ("en", "fr"):
            assert sum(1 for f, lang, _ in lines if (f, lang) == (family, language)) >= 40


@pytest.mark.parametrize(("section", "line", "meant"), CASE_LINES)
def test_each_line_reads_as_a_lenient_referee_reads_it(section: dict[str, Any], line: str, meant: str) -> None:
    read = _moonshine_reading(section, line) if section["family"] == "moonshine" else _classic_reading(section, line)
    if line in STILL_REFUSED:
        assert read == REFUSE
    else:
        assert read == meant
