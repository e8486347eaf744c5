"""The winter adjustments of classic Diplomacy: builds and disbands.

A power with more supply centres than units may build the difference, in its
empty home centres that it still owns (a fleet only on a coast, naming the coast
of a province with two); a power with fewer centres must disband the difference.
Orders are taken one by one and the first legal ones are used (DATC 4.D.4 to
4.D.6); a build may be waived (4.D.7). When too few disbands are ordered, the
units farthest from the power's owned supply centres go first, counting steps
over land and sea alike for armies and fleets; between equals a fleet goes
before an army, then the alphabetical order of the provinces' English names
(2023 rulebook, DATC 4.D.8 and 6.J). The rulebook may choose an older rule
instead (``Rulebook.civil_disorder``): the distance from the power's home centres,
an army's over any border and a fleet's as it moves (``home-distance``), or both
over any border (``home-distance-any-border``). ``civil_disorder_removals`` is
the one function that answers "which units does a power that ordered too few
lose, under this rulebook".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import msgspec

from moonshine.engine.rulebook import Rulebook
from moonshine.text.catalogue import sentence
from moonshine.variants.classic.board import ClassicMap, Kind, province_of
from moonshine.variants.classic.movement import Result
from moonshine.variants.classic.orders import Build, Disband, Order, Waive, unit_of
from moonshine.variants.classic.rules import CLASSIC, Problem
from moonshine.variants.classic.state import Unit


class AdjustmentOutcome(msgspec.Struct, frozen=True):
    results: list[Result]  # one per order given, in the order given
    problems: list[Problem | None]  # beside each result: why it failed (None when it succeeded)
    built: list[Unit]
    disbanded: list[Unit]  # as ordered
    civil_disorder: list[Unit]  # removed because too few disbands were ordered
    units: list[Unit]  # every unit after the adjustments


def adjustment_counts(gmap: ClassicMap, units: Sequence[Unit], owners: Mapping[str, str]) -> dict[str, int]:
    """Per power: builds allowed (positive) or disbands due (negative)."""
    return {p: sum(1 for o in owners.values() if o == p) - sum(1 for u in units if u.power == p) for p in gmap.powers}


def _build_problem(
    gmap: ClassicMap, power: str, order: Build, owners: Mapping[str, str], taken: set[str]
) -> Problem | None:
    prov = order.unit.province
    if prov not in gmap.provinces:
        return Problem("no_province", prov=prov)
    if gmap.provinces[prov].home != power or not gmap.provinces[prov].supply:
        return Problem("not_home", prov=prov, power=gmap.power_value(power))
    if owners.get(prov) != power:
        return Problem("not_owned", prov=prov, power=gmap.power_value(power))
    if prov in taken:
        return Problem("not_empty", prov=prov)
    if order.unit.kind is Kind.ARMY:
        return None  # a coast in an army's build is ignored
    regions = gmap.fleet_regions(prov)
    if not regions:
        return Problem("build_fleet_inland", name=gmap.names(prov))
    if len(regions) > 1 and order.unit.region not in regions:
        return Problem("build_coast_needed", coasts=tuple(regions))
    if len(regions) == 1 and "/" in order.unit.region and order.unit.region != regions[0]:
        return Problem("no_coast", prov=prov, coast=order.unit.region.split("/", 1)[1])
    return None


def civil_disorder_order(gmap: ClassicMap, units: Sequence[Unit], centres: Sequence[str]) -> list[Unit]:
    """The order in which a power's units are removed in civil disorder."""
    dist = gmap.distances_to(centres)
    far = len(gmap.provinces) + 1
    return sorted(
        units,
        key=lambda u: (-dist.get(u.province, far), 0 if u.kind is Kind.FLEET else 1, gmap.provinces[u.province].name),
    )


def home_distance_order(
    gmap: ClassicMap, units: Sequence[Unit], power: str, fleets_as_they_move: bool = True
) -> list[Unit]:
    """The order of removal by the older rule: the farthest from ``power``'s home
    supply centres first (an army counting steps over any border, a fleet its own
    moves, or over any border too), a fleet before an army between equals, then the
    provinces' English names."""
    homes = gmap.home_centres(power)
    by_land = gmap.distances_to(homes)
    by_sea = (
        gmap.fleet_steps_to(homes)
        if fleets_as_they_move
        else {r: by_land[province_of(r)] for r in gmap.regions if province_of(r) in by_land}
    )
    far = len(gmap.regions) + 1

    def steps(u: Unit) -> int:
        return by_sea.get(u.region, far) if u.kind is Kind.FLEET else by_land.get(u.province, far)

    return sorted(units, key=lambda u: (-steps(u), 0 if u.kind is Kind.FLEET else 1, gmap.provinces[u.province].name))


CIVIL_DISORDER_RULES = ("owned-distance", "home-distance", "home-distance-any-border")


def civil_disorder_removals(
    gmap: ClassicMap,
    power: str,
    units: Sequence[Unit],
    owners: Mapping[str, str],
    count: int,
    rules: Rulebook = CLASSIC,
) -> list[Unit]:
    """The ``count`` units of ``power`` that civil disorder removes under ``rules``
    (``Rulebook.civil_disorder``), when it ordered too few disbands: ``units`` are the
    units left to choose from (any power's: the others are passed over), ``owners``
    the supply centres' owners."""
    mine = [u for u in units if u.power == power]
    if count <= 0 or not mine:
        return []
    if rules.civil_disorder == "home-distance":
        return home_distance_order(gmap, mine, power)[:count]
    if rules.civil_disorder == "home-distance-any-border":
        return home_distance_order(gmap, mine, power, False)[:count]
    if rules.civil_disorder != "owned-distance":  # pragma: no cover - a Rulebook made by hand
        raise ValueError(f"unknown civil disorder rule {rules.civil_disorder!r} (expected {CIVIL_DISORDER_RULES})")
    centres = sorted(c for c, o in owners.items() if o == power)
    return civil_disorder_order(gmap, mine, centres)[:count]


def adjudicate_adjustments(
    gmap: ClassicMap,
    units: Sequence[Unit],
    owners: Mapping[str, str],
    orders: Mapping[str, Sequence[Order]],
    rules: Rulebook = CLASSIC,
) -> AdjustmentOutcome:
    counts = adjustment_counts(gmap, units, owners)
    results: list[Result] = []
    problems: list[Problem | None] = []
    built: list[Unit] = []
    disbanded: list[Unit] = []
    disorder: list[Unit] = []
    taken = {u.province for u in units}
    for power in sorted(gmap.powers):
        n = counts[power]
        used = 0
        gone: set[Unit] = set()
        mine = [u for u in units if u.power == power]
        for order in orders.get(power, ()):
            ref = unit_of(order)
            label = ref.text() if ref is not None else ""
            ok, why, said = False, None, None
            if isinstance(order, Build | Waive):
                if n <= 0:
                    why = Problem("no_build", power=gmap.power_value(power), centres=n + len(mine), units=len(mine))
                elif used >= n:
                    why = Problem("no_build_left", power=gmap.power_value(power), n=n)
                elif isinstance(order, Waive):
                    ok, said = True, sentence("build waived")
                else:
                    problem = _build_problem(gmap, power, order, owners, taken)
                    if problem is None:
                        prov = order.unit.province
                        region = prov if order.unit.kind is Kind.ARMY else order.unit.region
                        if order.unit.kind is Kind.FLEET and "/" not in region:
                            region = gmap.fleet_regions(prov)[0]
                        new = Unit(power, order.unit.kind, region)
                        built.append(new)
                        taken.add(prov)
                        ok, said = True, sentence("built {unit}", unit=new.label())
                    else:
                        why, said = problem, sentence("build fails: {problem}", problem=problem.message())
                if ok:
                    used += 1
            elif isinstance(order, Disband):
                unit = next((u for u in mine if u.province == order.unit.province), None)
                if n >= 0:
                    why = Problem("no_disband", power=gmap.power_value(power), centres=n + len(mine), units=len(mine))
                elif unit is None:
                    why = Problem("no_power_unit", power=gmap.power_value(power), prov=order.unit.province)
                elif unit in gone:
                    why = Problem("already_disbanded", unit=unit.label())
                elif used >= -n:
                    why = Problem("no_disband_left", power=gmap.power_value(power), n=-n)
                else:
                    gone.add(unit)
                    disbanded.append(unit)
                    used += 1
                    ok, said = True, sentence("disbanded {unit}", unit=unit.label())
            else:
                why = Problem("not_adjustment", order=order.text())
            if said is None:  # a failed order: its problem says why
                assert why is not None
                said = why.message()
            results.append(Result(power, label, order.text(), ok, said.text(), message=said))
            problems.append(why)
        if n < 0 and used < -n:
            left = [u for u in mine if u not in gone]
            disorder.extend(civil_disorder_removals(gmap, power, left, owners, -n - used, rules))
    removed = set(disbanded) | set(disorder)
    after = sorted([u for u in units if u not in removed] + built)
    return AdjustmentOutcome(results, problems, built, disbanded, disorder, after)
