"""The retreat phase of classic Diplomacy.

A dislodged unit may retreat to a province it could move to that is empty after
the movement, was not left empty by a standoff, and is not the province its
attacker came from, unless the attacker came by convoy (DATC 4.A.5, 2023
rules). Two or more units retreating to one province are all disbanded; a
dislodged unit without a valid retreat is disbanded. Supports and convoys do not
exist in this phase (DATC 6.H.1 to 6.H.3).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import msgspec

from moonshine.text.catalogue import Message, sentence
from moonshine.variants.classic.board import ClassicMap, province_of
from moonshine.variants.classic.movement import Result
from moonshine.variants.classic.orders import Disband, Move, Order, Retreat, unit_of
from moonshine.variants.classic.rules import retreat_problem
from moonshine.variants.classic.state import Dislodged, Unit


class RetreatOutcome(msgspec.Struct, frozen=True):
    results: list[Result]  # one per dislodged unit
    ignored: list[Result]  # orders that are not retreats of the power's dislodged units
    units: list[Unit]  # every unit on the board after the retreats


def adjudicate_retreats(
    gmap: ClassicMap,
    units: Sequence[Unit],
    dislodged: Sequence[Dislodged],
    contested: Sequence[str],
    orders: Mapping[str, Sequence[Order]],
) -> RetreatOutcome:
    """Resolve the retreats. ``units`` are the units that were not dislodged."""
    by_prov = {d.unit.province: d for d in dislodged}
    occupied = {u.province for u in units}
    standoff = set(contested)
    chosen: dict[str, Order] = {}
    ignored: list[Result] = []
    clash: dict[str, list[str]] = {}
    for power in sorted(orders):
        for order in orders[power]:
            if not isinstance(order, Retreat | Move | Disband):
                ref = unit_of(order)
                label = ref.text() if ref is not None else ""
                why = sentence(
                    "ignored: {order} is not a retreat or a disband; only those exist in the retreat phase",
                    order=order.text(),
                )
                ignored.append(Result(power, label, order.text(), False, why.text(), message=why))
                continue
            d = by_prov.get(order.unit.province)
            if d is None or d.power != power:
                prov = order.unit.province
                if d is None:
                    why = sentence("ignored: no dislodged unit of this power in {prov}", prov=prov)
                else:
                    why = sentence(
                        "ignored: no dislodged unit of this power in {prov} ({power}'s)",
                        prov=prov,
                        power=gmap.power_value(d.power),
                    )
                ignored.append(Result(power, order.unit.text(), order.text(), False, why.text(), message=why))
                continue
            prov = d.unit.province
            if prov in chosen and chosen[prov] != order:
                clash.setdefault(prov, [chosen[prov].text()]).append(order.text())
            chosen.setdefault(prov, order)
    plans: dict[str, tuple[Order | None, str | None, Message]] = {}  # province -> order, dest region, reason
    arriving: dict[str, list[str]] = {}
    for d in dislodged:
        prov = d.unit.province
        mine = chosen.get(prov)
        if prov in clash:
            several = sentence("disbanded: several different orders ({orders})", orders="; ".join(clash[prov]))
            plans[prov] = (mine, None, several)
            continue
        if mine is None:
            plans[prov] = (None, None, sentence("disbanded: no retreat ordered"))
            continue
        if isinstance(mine, Disband):
            plans[prov] = (mine, None, sentence("disbanded as ordered"))
            continue
        assert isinstance(mine, Retreat | Move)
        if isinstance(mine, Move) and mine.via_convoy:
            plans[prov] = (mine, None, sentence("disbanded: a retreat cannot go by convoy"))
            continue
        problem, region = retreat_problem(gmap, d, mine.dest, occupied, standoff)
        if problem is not None:
            why = sentence("disbanded: cannot retreat to {dest}: {problem}", dest=mine.dest, problem=problem.message())
            plans[prov] = (mine, None, why)
            continue
        plans[prov] = (mine, region, sentence("retreated to {district}", district=region))
        arriving.setdefault(province_of(region), []).append(prov)
    for dest, provs in arriving.items():
        if len(provs) > 1:
            for prov in provs:
                others = ", ".join(by_prov[q].label() for q in provs if q != prov)
                why = sentence(
                    "disbanded: its retreat to {district} clashes with that of {units}", district=dest, units=others
                )
                plans[prov] = (plans[prov][0], None, why)
    results: list[Result] = []
    after = list(units)
    for d in sorted(dislodged, key=lambda x: x.unit.province):
        given, to, reason = plans[d.unit.province]
        text = given.text() if given is not None else f"{d.label()} D"
        ok = to is not None or isinstance(given, Disband)
        results.append(Result(d.power, d.label(), text, ok, reason.text(), message=reason))
        if to is not None:
            after.append(Unit(d.power, d.kind, to))
    return RetreatOutcome(results, ignored, sorted(after))
