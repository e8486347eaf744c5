"""R17 in one place: who pays what from the cash held at the start of a turn, and
what is cut when the cash is short. Used by the turn (to apply it) and by the
order check (to warn the player)."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from moonshine.text.money import Money
from moonshine.variants.moonshine.calendar import Turn
from moonshine.variants.moonshine.map import RECRUIT_COST, UPKEEP, GameMap, UnitKind
from moonshine.variants.moonshine.state import Arrested, GameState, Unit


class Bill(msgspec.Struct, frozen=True):
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


def unpaid_upkeep_order(gmap: GameMap, st: GameState, gang: str) -> list[Unit | Arrested]:
    """R17 (amended): the order in which a gang's units are disbanded for unpaid upkeep,
    arrested ones included: the most recently recruited first, starting units last (as
    recruited in one turn); among units recruited in one turn, units on the board before
    arrested ones, then the one whose district (an arrested unit's: where it was
    arrested) comes last in map order, an H before an L. A unit keeps its recruitment
    turn while arrested and after it returns."""
    area = {c: d.area for c, d in gmap.districts.items()}

    def age(recruited: str) -> int:
        if not recruited:
            return 0
        t = Turn.parse(recruited)
        return -(t.year * 2 + t.season_index)

    def kind_rank(kind: UnitKind) -> int:
        return 0 if kind is UnitKind.H else 1

    ranked: list[tuple[tuple[int, int, int, int], Unit | Arrested]] = []
    for u in st.units_of(gang):
        ranked.append(((age(u.recruited), 0, -area[u.district], kind_rank(u.kind)), u))
    for a in st.arrested:
        if a.gang == gang:
            ranked.append(((age(a.recruited), 1, -area[a.taken_in], kind_rank(a.kind)), a))
    ranked.sort(key=lambda pair: pair[0])
    return [victim for _, victim in ranked]
