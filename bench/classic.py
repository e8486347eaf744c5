"""Classic Diplomacy benchmark: the CPU time of one whole movement phase from
realistic mid-game positions, here and in the ``diplomacy`` package (a DATC-compliant
Python engine from PyPI), in one run, as a ratio of medians.

Positions: random legal games from the standard start with a fixed seed, played
through movement, retreats and adjustments; every movement position from 1902 on is kept
with one set of random legal orders (moves, supports that mostly match, convoys).
Each is an independent phase. Both engines do the same work on the same order texts,
timed as CPU time of this process (``time.process_time``): reading the orders,
adjudicating with every unit's result, and building the next position (here:
``parse_order`` and ``adjudicate_phase``; for ``diplomacy``: ``set_orders`` and
``process`` on a game already holding the position). The final positions of the two
engines (the units not dislodged) are compared as a cross-check.

``diplomacy`` is not a dependency of the project: ``make bench`` installs it into the
virtual environment from ``requirements/bench.txt``. Without it, the benchmark says so
and exits 0.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from moonshine.variants.classic.adjustments import adjustment_counts
from moonshine.variants.classic.board import ClassicMap, Kind, province_of, standard_map
from moonshine.variants.classic.orders import Build, Order, Retreat, UnitRef, parse_order
from moonshine.variants.classic.phases import adjudicate_phase
from moonshine.variants.classic.state import ClassicState, Step, Unit, initial_state

SEED = 1901
GAMES = 40
YEARS = 5
REPEAT = 9
TARGET_RATIO = 5.0
DIPLOMACY_NAMES = {
    "AUS": "AUSTRIA",
    "ENG": "ENGLAND",
    "FRA": "FRANCE",
    "GER": "GERMANY",
    "ITA": "ITALY",
    "RUS": "RUSSIA",
    "TUR": "TURKEY",
}


# -- random legal orders ----------------------------------------------------------------


def _moves(gmap: ClassicMap, u: Unit) -> list[str]:
    """Destinations (regions) unit u can move to over a border."""
    if u.kind is Kind.ARMY:
        return sorted(p for p in gmap.army_nb[u.province] if not gmap.is_sea(p))
    return sorted(gmap.fleet_nb[u.region])


def random_orders(rnd: random.Random, gmap: ClassicMap, units: Sequence[Unit]) -> dict[str, list[str]]:
    """Order texts for every unit: about half move, a quarter support (mostly what
    the supported unit does), some fleets at sea convoy an army next to them."""
    at = {u.province: u for u in units}
    plan: dict[str, str] = {}  # province -> order text
    dest_of: dict[str, str] = {}  # province -> destination region of its move
    for u in units:
        if rnd.random() < 0.5:
            dest = rnd.choice(_moves(gmap, u))
            plan[u.province] = f"{u.label()} - {dest}"
            dest_of[u.province] = dest
    for u in units:
        if u.province in plan:
            continue
        x = rnd.random()
        if x < 0.15 and u.kind is Kind.FLEET and gmap.is_sea(u.province):
            armies = [at[p] for p in sorted(gmap.near[u.province]) if p in at and at[p].kind is Kind.ARMY]
            dests = [p for p in sorted(gmap.near[u.province]) if gmap.is_coastal(p)]
            if armies and len(dests) > 1:
                a = rnd.choice(armies)
                d = rnd.choice([p for p in dests if p != a.province])
                plan[u.province] = f"{u.label()} C {a.label()} - {d}"
                plan[a.province] = f"{a.label()} - {d} via convoy"
                dest_of[a.province] = d
                continue
        if x < 0.6:
            reach = {province_of(r) for r in _moves(gmap, u)}
            helped = [
                v
                for v in units
                if v.province != u.province
                and (province_of(dest_of[v.province]) if v.province in dest_of else v.province) in reach
                and province_of(dest_of.get(v.province, v.province)) != u.province
            ]
            if helped:
                v = rnd.choice(helped)
                if v.province in dest_of:
                    plan[u.province] = f"{u.label()} S {v.label()} - {dest_of[v.province]}"
                else:
                    plan[u.province] = f"{u.label()} S {v.label()}"
                continue
        plan[u.province] = f"{u.label()} H"
    out: dict[str, list[str]] = {p: [] for p in standard_map().powers}
    for u in units:
        out[u.power].append(plan[u.province])
    return out


def _parse(texts: dict[str, list[str]]) -> dict[str, list[Order]]:
    return {p: [parse_order(t) for t in ts] for p, ts in texts.items()}


def _other_phase_orders(rnd: random.Random, gmap: ClassicMap, st: ClassicState) -> dict[str, list[Order]]:
    """Retreats to a random reachable empty province; builds in free home centres."""
    orders: dict[str, list[Order]] = {}
    if st.phase.step is Step.RETREATS:
        taken = {u.province for u in st.units} | set(st.contested)
        for d in st.dislodged:
            options = [r for r in _moves(gmap, d.unit) if province_of(r) not in taken | {d.attacker_from}]
            if options:
                orders.setdefault(d.power, []).append(Retreat(UnitRef(d.kind, d.region), rnd.choice(options)))
        return orders
    counts = adjustment_counts(standard_map(), st.units, st.owners)
    taken = {u.province for u in st.units}
    for power, n in counts.items():
        free = [c for c in gmap.home_centres(power) if st.owners.get(c) == power and c not in taken]
        rnd.shuffle(free)
        for prov in free[: max(n, 0)]:
            regions = gmap.fleet_regions(prov)
            if regions and rnd.random() < 0.4:
                orders.setdefault(power, []).append(Build(UnitRef(Kind.FLEET, rnd.choice(regions))))
            else:
                orders.setdefault(power, []).append(Build(UnitRef(Kind.ARMY, prov)))
    return orders  # too few disbands: civil disorder picks them


def positions(seed: int = SEED) -> list[tuple[ClassicState, dict[str, list[str]]]]:
    """Mid-game positions (every movement phase from 1902 on) with one set of order texts each."""
    gmap = standard_map()
    rnd = random.Random(seed)
    out: list[tuple[ClassicState, dict[str, list[str]]]] = []
    for _ in range(GAMES):
        st = initial_state(gmap)
        while st.phase.year < 1901 + YEARS and not st.winner:
            if st.phase.step is Step.MOVEMENT:
                texts = random_orders(rnd, gmap, st.units)
                if st.phase.year >= 1902:
                    out.append((st, texts))
                orders = _parse(texts)
            else:
                orders = _other_phase_orders(rnd, gmap, st)
            st = adjudicate_phase(gmap, st, orders).next_state
    return out


# -- timing ------------------------------------------------------------------------------


def _median_ms(fn: Callable[[], Any], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.process_time()
        fn()
        times.append((time.process_time() - t) * 1000)
    return statistics.median(times)


def ours(st: ClassicState, texts: dict[str, list[str]]) -> set[str]:
    """The whole phase: the orders read, adjudicated with every unit's result and its
    reason (as ``diplomacy``'s ``process`` works out each order's result), and the next
    position built; the units that were not dislodged, where they now stand."""
    gmap = standard_map()
    out = adjudicate_phase(gmap, st, _parse(texts))
    if len(out.results) != len(st.units):  # the results are built when first read: read here, timed
        raise SystemExit(f"classic: {len(out.results)} results for {len(st.units)} units")
    return {f"{u.power} {u.label()}" for u in out.next_state.units}


def _their_game(diplomacy: Any, units: list[Unit]) -> Any:
    game = diplomacy.Game()
    game.clear_units()
    for power, name in DIPLOMACY_NAMES.items():
        game.set_units(name, [u.label() for u in units if u.power == power], reset=True)
    return game


def _their_texts(texts: dict[str, list[str]]) -> dict[str, list[str]]:
    return {p: [t.replace(" via convoy", " VIA") for t in ts] for p, ts in texts.items()}


def theirs(game: Any, texts: dict[str, list[str]]) -> None:
    for power, ts in texts.items():
        game.set_orders(DIPLOMACY_NAMES[power], ts)
    game.process()


def _their_units(game: Any) -> set[str]:
    """The units not dislodged (``diplomacy`` marks the dislodged with '*' and removes
    at once those that have nowhere to retreat)."""
    code = {v: k for k, v in DIPLOMACY_NAMES.items()}
    return {f"{code[name]} {u}" for name in DIPLOMACY_NAMES.values() for u in game.get_units(name) if "*" not in u}


def main() -> int:
    try:
        import diplomacy
    except ImportError:
        print("classic: the 'diplomacy' package is not installed; skipped (make bench installs it into .venv)")
        return 0
    pos = positions()
    units_n = statistics.median(len(st.units) for st, _ in pos)
    ours_ms = []
    theirs_ms = []
    agree = 0
    for st, texts in pos:
        ours_ms.append(_median_ms(lambda s=st, t=texts: ours(s, t), REPEAT))  # type: ignore[misc]
        dtexts = _their_texts(texts)
        samples = []
        for _ in range(REPEAT):
            game = _their_game(diplomacy, st.units)
            t = time.process_time()
            theirs(game, dtexts)
            samples.append((time.process_time() - t) * 1000)
        theirs_ms.append(statistics.median(samples))
        if _their_units(game) == ours(st, texts):
            agree += 1
    mine, other = statistics.median(ours_ms), statistics.median(theirs_ms)
    ratio = other / mine
    each = statistics.median(b / a for a, b in zip(ours_ms, theirs_ms, strict=True))
    verdict = "met" if ratio >= TARGET_RATIO else "MISSED"
    print(
        f"classic: {len(pos)} independent mid-game movement phases (median {units_n:.0f} units), "
        f"median CPU per whole phase (orders read, adjudicated, next position built): "
        f"moonshine {mine:.3f} ms, diplomacy {other:.3f} ms, "
        f"moonshine is {ratio:.1f}x as fast (target {TARGET_RATIO:.0f}x: {verdict}; "
        f"the median of the phases' own ratios: {each:.1f}x); "
        f"same final positions in {agree}/{len(pos)}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
