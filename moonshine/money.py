"""Money in the game moves in steps of $0.50 (R17). Internally it is a whole
number of cents, so that sums are exact; files show dollars."""

from __future__ import annotations

from fractions import Fraction

Money = int  # cents

STEP = 50  # $0.50


def dollars(value: object, *, where: str = "") -> Money:
    """Read a dollar amount (``12``, ``12.5``, ``"12.50"``, ``"$12.50"``) into cents.

    Raises ValueError when it is not a non-negative multiple of $0.50.
    """
    if isinstance(value, bool):
        raise ValueError(f"{where}not an amount of money: {value!r}")
    if isinstance(value, str):
        text = value.strip().lstrip("$").strip()
        try:
            amount = Fraction(text)
        except (ValueError, ZeroDivisionError):
            raise ValueError(f"{where}not an amount of money: {value!r}") from None
    elif isinstance(value, (int, float)):
        amount = Fraction(value)
    else:
        raise ValueError(f"{where}not an amount of money: {value!r}")
    cents = amount * 100
    if cents.denominator != 1 or cents % STEP != 0:
        raise ValueError(f"{where}money moves in steps of $0.50, not {value!r}")
    if cents < 0:
        raise ValueError(f"{where}an amount of money cannot be negative: {value!r}")
    return int(cents)


def to_yaml(cents: Money) -> int | float:
    """Dollars for a YAML file: ``12`` or ``12.5`` (exact: halves are binary fractions)."""
    if cents % 100 == 0:
        return cents // 100
    return cents / 100


def fmt(cents: Money) -> str:
    """``$12.50``; whole dollars print as ``$12``."""
    sign = "-" if cents < 0 else ""
    cents = abs(cents)
    if cents % 100 == 0:
        return f"{sign}${cents // 100}"
    return f"{sign}${cents // 100}.{cents % 100:02d}"


def round_half(amount: Fraction) -> Money:
    """Round an exact dollar amount to the nearest $0.50, halves up (R20); cents out."""
    halves = amount * 2
    whole = halves.numerator // halves.denominator
    if halves - whole >= Fraction(1, 2):
        whole += 1
    return int(whole) * STEP
