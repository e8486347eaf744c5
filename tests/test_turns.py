"""Turn names (R25) and the Untouchables' arrival (R23)."""

from __future__ import annotations

import pytest

from moonshine.turns import Turn, is_untouchables


def test_turn_names_follow_the_seasons() -> None:
    t = Turn.parse("spring-1924")
    names = []
    for _ in range(5):
        names.append(t.name)
        t = t.next()
    assert names == ["spring-1924", "autumn-1924", "spring-1925", "autumn-1925", "spring-1926"]
    assert Turn.parse("spring-1925").previous().name == "autumn-1924"
    assert Turn.parse("Autumn-1926 ").name == "autumn-1926"
    assert Turn.parse("autumn-1925").number(Turn.parse("spring-1924")) == 4


@pytest.mark.parametrize("bad", ["summer-1924", "spring 1924", "spring-24", "", "1924-spring"])
def test_bad_turn_names(bad: str) -> None:
    with pytest.raises(ValueError, match="not a turn name"):
        Turn.parse(bad)


def test_untouchables_from_the_eleventh_turn() -> None:
    assert Turn.parse("spring-1929").number(Turn.parse("spring-1924")) == 11
    assert not is_untouchables("autumn-1928")
    assert is_untouchables("spring-1929")
    assert is_untouchables("autumn-1933")
