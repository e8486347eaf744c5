"""Money in the game moves in steps of $0.50 (R17). Internally it is a whole
number of cents, so that sums are exact; files show dollars."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fractions import Fraction

Money = int  # cents

STEP = 50  # $0.50


def ratio(text: str) -> tuple[int, int]:
    """A number written as text, as an exact ratio: plain decimals (``12``,
    ``12.50``) here, any other form ``fractions.Fraction`` reads (``25/2``,
    ``1.25e1``) there. Raises ValueError or ZeroDivisionError as it does."""
    whole, dot, part = text.partition(".")
    if whole.isascii() and whole.isdigit() and (not dot or (part.isascii() and part.isdigit())):
        return int(whole + part), 10 ** len(part)
    from fractions import Fraction

    exact = Fraction(text)
    return exact.numerator, exact.denominator


def dollars(value: object, *, where: str = "") -> Money:
    """Read a dollar amount (``12``, ``12.5``, ``"12.50"``, ``"$12.50"``) into cents.

    Raises ValueError when it is not a non-negative multiple of $0.50.
    """
    if isinstance(value, bool):
        raise ValueError(f"{where}not an amount of money: {value!r}")
    if isinstance(value, str):
        text = value.strip().lstrip("$").strip()
        try:
            numerator, denominator = ratio(text)
        except (ValueError, ZeroDivisionError):
            raise ValueError(f"{where}not an amount of money: {value!r}") from None
    elif isinstance(value, int):
        numerator, denominator = value, 1
    elif isinstance(value, float):
        try:
            numerator, denominator = value.as_integer_ratio()
        except (OverflowError, ValueError):  # inf, nan: no amount of money
            raise ValueError(f"{where}not an amount of money: {value!r}") from None
    else:
        raise ValueError(f"{where}not an amount of money: {value!r}")
    cents, rest = divmod(numerator * 100, denominator)
    if rest != 0 or cents % STEP != 0:
        raise ValueError(f"{where}money moves in steps of $0.50, not {value!r}")
    if cents < 0:
        raise ValueError(f"{where}an amount of money cannot be negative: {value!r}")
    return cents


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
    if 2 * (halves - whole) >= 1:
        whole += 1
    return int(whole) * STEP
