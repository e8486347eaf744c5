"""The operator's English (``moonshine.text.english``): a count agrees with its noun."""

from __future__ import annotations

import pytest

from moonshine.text.english import count


@pytest.mark.parametrize(
    ("n", "one", "many", "written"),
    [
        (0, "order", "", "0 orders"),
        (1, "order", "", "1 order"),
        (2, "order", "", "2 orders"),
        (1, "delivery", "deliveries", "1 delivery"),
        (3, "delivery", "deliveries", "3 deliveries"),
        (1, "file or folder", "files and folders", "1 file or folder"),
        (2, "file or folder", "files and folders", "2 files and folders"),
        (1, "gang", "", "1 gang"),
        (7, "power", "", "7 powers"),
    ],
)
def test_a_count_agrees_with_its_noun(n: int, one: str, many: str, written: str) -> None:
    assert count(n, one, many) == written
