"""Money read from files and orders (moonshine.text.money.dollars): the same cents, and the
same refusals, as exact fractions give, for numbers and for text in any form."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from moonshine.text.money import dollars, round_half


def reference(value: object) -> int | str:
    """R17 read with fractions.Fraction: cents, or the refusal's kind."""
    if isinstance(value, bool):
        return "not an amount"
    if isinstance(value, str):
        try:
            amount = Fraction(value.strip().lstrip("$").strip())
        except (ValueError, ZeroDivisionError):
            return "not an amount"
    elif isinstance(value, (int, float)):
        amount = Fraction(value)
    else:
        return "not an amount"
    cents = amount * 100
    if cents.denominator != 1 or cents % 50 != 0:
        return "steps"
    if cents < 0:
        return "negative"
    return int(cents)


def ours(value: object) -> int | str:
    try:
        return dollars(value)
    except ValueError as exc:
        text = str(exc)
        return "steps" if "steps" in text else "negative" if "negative" in text else "not an amount"


texts = st.one_of(
    st.from_regex(r"\A\$? ?-?[0-9]{0,4}(\.[0-9]{0,3})?\Z"),
    st.sampled_from(
        [
            "12",
            "12.5",
            "12.50",
            "$12.50",
            " 7 ",
            "0.25",
            "1/2",
            "25/2",
            "1e1",
            "1.5e1",
            ".5",
            "12.",
            "x",
            "",
            "$",
            "1_000",
            "²",
            "1/0",
            "-0.5",
            "+3",
        ]
    ),
    st.text(alphabet="0123456789.$/e_+- ", max_size=8),
)


@given(
    st.one_of(
        st.integers(-(10**6), 10**6),
        st.floats(allow_nan=False, allow_infinity=False, width=32),
        texts,
        st.booleans(),
        st.none(),
    )
)
def test_dollars_as_exact_fractions_read_them(value: object) -> None:
    assert ours(value) == reference(value)


@given(st.fractions(min_value=0, max_value=1000))
def test_round_half_to_the_nearest_half_dollar_halves_up(amount: Fraction) -> None:
    halves = amount * 2
    expected = (
        halves.numerator // halves.denominator
        + (1 if halves - halves.numerator // halves.denominator >= Fraction(1, 2) else 0)
    ) * 50
    assert round_half(amount) == expected


def test_examples() -> None:
    assert dollars("$12.50") == 1250 and dollars(12) == 1200 and dollars(0.5) == 50
    with pytest.raises(ValueError, match=r"steps of \$0\.50, not '12.25'"):
        dollars("12.25")
