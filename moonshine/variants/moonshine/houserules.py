"""House rules: the rule choices a game master may make for a Moonshine game, in
``game.yaml`` under ``rules:``, as one value that the order checker, the turn's
adjudication and the first bulletin all read.

- ``victory_vp``: the score that wins at the end of a turn (R24; 30 by default);
- ``minimum_bribe``: the smallest bid for a police station (R19; $0.50 by default,
  the smallest amount of money, R17): a smaller bid is refused, and costs nothing.

Example::

    rules:
      victory_vp: 25
      minimum_bribe: 2
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from moonshine.errors import StateError
from moonshine.text import money
from moonshine.text.catalogue import Amount, Message, say
from moonshine.text.money import Money
from moonshine.variants.moonshine.scoring import VICTORY_VP

KEYS = ("victory_vp", "minimum_bribe")


class HouseRules(msgspec.Struct, frozen=True):
    """A game's rule choices (the published rules' by default)."""

    victory_vp: int = VICTORY_VP
    minimum_bribe: Money = money.STEP

    def bribe_refusal(self, amount: Money) -> Message | None:
        """Why a bid of ``amount`` is refused by this game's minimum, or None. Asked by
        the order checker and by the adjudication alike."""
        if 0 < amount < self.minimum_bribe:
            return say(
                "a bribe of {amount} is below this game's minimum of {least} (house rule, R19)",
                amount=Amount.of(amount),
                least=Amount.of(self.minimum_bribe),
            )
        return None

    def sentences(self) -> list[Message]:
        """The choices, one sentence each, as the first bulletin prints them."""
        if self.victory_vp == VICTORY_VP:
            victory = say(
                "Victory: {vp} VP at the end of a turn (R24).",
                vp=self.victory_vp,
            )
        else:
            victory = say(
                "Victory: {vp} VP at the end of a turn (R24), instead of {usual} (house rule).",
                vp=self.victory_vp,
                usual=VICTORY_VP,
            )
        if self.minimum_bribe == money.STEP:
            bribe = say(
                "Corruption: a bid for a police station is at least {least} (R19).",
                least=Amount.of(money.STEP),
            )
        else:
            bribe = say(
                "Corruption: a bid for a police station is at least {least} (R19), instead of {usual} (house rule).",
                least=Amount.of(self.minimum_bribe),
                usual=Amount.of(money.STEP),
            )
        return [victory, bribe]


DEFAULT = HouseRules()


def from_config(raw: Mapping[str, Any] | None, source: str, line: int = 0) -> HouseRules:
    """The ``rules:`` section of ``game.yaml`` (at ``line`` of ``source``; its keys and
    types already checked by ``moonshine.schema``): the values checked here, an error
    naming the file, the line and the key."""
    from moonshine import yamlio

    if not raw:
        return DEFAULT

    def at(key: str) -> str:
        return yamlio.where(source, yamlio.line_of(raw, key) or line)

    vp = raw.get("victory_vp", VICTORY_VP)
    if not isinstance(vp, int) or isinstance(vp, bool) or not 1 <= vp <= 1000:
        raise StateError(at("victory_vp"), "rules.victory_vp", f"expected a whole number from 1 to 1000, found {vp!r}")
    try:
        least = money.dollars(raw.get("minimum_bribe", money.to_yaml(money.STEP)))
    except ValueError as exc:
        raise StateError(at("minimum_bribe"), "rules.minimum_bribe", str(exc)) from None
    if least < money.STEP:
        raise StateError(
            at("minimum_bribe"), "rules.minimum_bribe", f"expected at least {money.fmt(money.STEP)}, found $0"
        )
    return HouseRules(victory_vp=vp, minimum_bribe=least)
