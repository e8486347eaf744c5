"""R17 in one place: who pays what from the cash held at the start of a turn, and
what is cut when the cash is short. Used by the turn (to apply it) and by the
order check (to warn the player)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from moonshine.geo import RECRUIT_COST, UPKEEP
from moonshine.money import Money


@dataclass(frozen=True)
class Bill:
    upkeep: Money  # for the units that pay, before any unpaid-upkeep disbanding
    kept_recruits: int  # the first N recruits, in written order, go ahead
    paid_bids: tuple[Money, ...]  # each bid, in written order, after cuts
    unpaid_units: int  # units to disband because their upkeep cannot be paid

    @property
    def recruit_cost(self) -> Money:
        return RECRUIT_COST * self.kept_recruits


def settle(cash: Money, paying_units: int, recruits: int, bids: Sequence[Money]) -> Bill:
    """Upkeep $2 per paying unit, $2 per recruit, bids as written, all from ``cash``
    (R17). Cash never goes negative: recruits are cancelled first (last written
    first), then bids cut (last written first, each to what cash remains), then units
    disbanded for unpaid upkeep."""
    upkeep = UPKEEP * paying_units
    kept = recruits
    while kept and upkeep + RECRUIT_COST * kept + sum(bids) > cash:
        kept -= 1
    left = max(0, cash - upkeep - RECRUIT_COST * kept)
    paid: list[Money] = []
    for amount in bids:
        pay = min(amount, left)
        left -= pay
        paid.append(pay)
    unpaid = -(-(upkeep - cash) // UPKEEP) if upkeep > cash else 0
    return Bill(upkeep, kept, tuple(paid), unpaid)
