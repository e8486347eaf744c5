"""The errors of a line that is not an order: a small family of ``ValueError``
subclasses that quote the text and say what is wrong, in any language of the
catalogue (``ParseError.describe(language)``), with a suggestion where one helps."""

from __future__ import annotations

from moonshine.text.catalogue import Message, fmt
from moonshine.variants.moonshine.parser import quote


class ParseError(ValueError):
    """A line that is not an order. ``reason`` says why, ``suggestion`` how to fix it."""

    def __init__(self, text: str, reason: Message, suggestion: Message | None = None) -> None:
        self.text = text
        self.reason = reason
        self.suggestion = suggestion
        super().__init__(f"{quote(text)}: {self.describe()}")

    def describe(self, language: str = "en") -> str:
        out = self.reason.text(language)
        if self.suggestion is not None:
            out += fmt(language, "format.semicolon") + self.suggestion.text(language)
        return out


class OrderSyntaxError(ParseError):
    """The words are not in an order's shape."""


class UnknownDistrictError(ParseError):
    """A district the map does not know (or a name shared by several districts)."""


class UnknownGangError(ParseError):
    """A ``gang:`` header naming no gang of the map."""


class AmountError(ParseError):
    """An amount of money or crates that is not a number the game uses."""
