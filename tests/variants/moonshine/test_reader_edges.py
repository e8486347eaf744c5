"""The order reader's edges that no test held (each seen by a deliberate bug that passed
the suite, ``scripts/mutants.py``): the signature line ``--`` with or without its
trailing space ends the orders, the invisible characters a mail program slips into a
line (a byte-order mark, zero-width spaces and joiners, a word joiner) are no part of
it, and a word misspelt in its first letter is another word, never corrected."""

from __future__ import annotations

import pytest

from moonshine.variants.moonshine.checker import ACCEPTED, COMMENT, REJECTED, read_orders
from moonshine.variants.moonshine.map import load_map
from moonshine.variants.moonshine.parser.spelling import misspells
from moonshine.variants.moonshine.state import initial_state

GMAP = load_map()
START = initial_state(GMAP)


def statuses(text: str) -> list[tuple[str, str]]:
    return [(line.text.strip(), line.status) for line in read_orders(text, GMAP, START, "valley").lines]


@pytest.mark.parametrize("signature", ["--", "-- "])
def test_the_signature_line_ends_the_orders(signature: str) -> None:
    read = statuses(f"H LOO - NSS\n{signature}\nH NSS - LIT\nJohn, valley gang\n")
    assert read[0] == ("H LOO - NSS", ACCEPTED)
    assert [status for _, status in read[1:]] == [COMMENT] * 3  # the signature and what follows: not read


@pytest.mark.parametrize("invisible", ["\ufeff", "\u200b", "\u200c", "\u200d", "\u2060"])
def test_an_invisible_character_in_a_line_is_no_part_of_it(invisible: str) -> None:
    read = statuses(f"H LOO{invisible} - NSS\n{invisible}L KEN hold\n")
    assert [status for _, status in read] == [ACCEPTED, ACCEPTED]


def test_a_word_misspelt_in_its_first_letter_is_another_word() -> None:
    assert misspells("loup", "loop") == 1  # a letter wrong: the same name
    assert misspells("noop", "loop") is None  # its first letter wrong: another word
    assert misspells("kenwood", "kenwood") == 0
    assert misspells("benwood", "kenwood") is None
    [(_, status)] = statuses("H Noop - NSS\n")
    assert status == REJECTED
