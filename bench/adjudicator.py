"""Adjudicator benchmark: the median CPU time to resolve one turn.

- a full 8-gang turn on the Chicago map: the starting position, random legal
  orders (moves, two-step moves, supports, transports, assaults), many repetitions;
- growth on synthetic grid maps (wrapped round, so that every district has four
  neighbours) of 1,000 and 10,000 districts with one unit in every district: 10
  times the units should cost at most 12 times the time.
"""

from __future__ import annotations

import functools
import gc
import random
import statistics
import string
import time
from collections.abc import Callable
from typing import Any

from moonshine import GC_THRESHOLDS
from moonshine.variants.moonshine.map import GameMap, UnitKind, build_map, load_map
from moonshine.variants.moonshine.movement import adjudicate
from moonshine.variants.moonshine.orders import (
    Assault,
    Hold,
    Move,
    SupportAssault,
    SupportHold,
    SupportMove,
    Transport,
    UnitOrder,
    UnitRef,
)
from moonshine.variants.moonshine.state import GameState, Unit, initial_state

CHICAGO_TARGET_MS = 1.0
GROWTH_TARGET = 12.0


def random_orders(rnd: random.Random, gmap: GameMap, st: GameState) -> dict[UnitRef, UnitOrder]:
    """Legal orders for every unit: about half move, the rest support, transport,
    assault or hold, supports mostly matching what their target does."""
    refs = [UnitRef(u.kind, u.district) for u in st.units]
    at: dict[str, list[UnitRef]] = {}
    for r in refs:
        at.setdefault(r.district, []).append(r)
    orders: dict[UnitRef, UnitOrder] = {}
    for r in refs:
        here = r.district
        x = rnd.random()
        if x < 0.5:
            if r.kind is UnitKind.L and rnd.random() < 0.5:
                mid = rnd.choice(gmap.neighbours(here))
                dest = rnd.choice([d for d in gmap.neighbours(mid) if d != here] or [mid])
                orders[r] = Move(r, dest, (mid,) if dest != mid else ())
            else:
                orders[r] = Move(r, rnd.choice(gmap.neighbours(here)))
        elif x < 0.55 and r.kind is UnitKind.H:
            stations = [s for s in (here, *gmap.neighbours(here)) if gmap.districts[s].station]
            orders[r] = Assault(r, rnd.choice(stations)) if stations else Hold(r)
    for r in refs:
        if r in orders:
            continue
        here = r.district
        near = [t for n in gmap.neighbours(here) for t in at.get(n, [])]
        if not near:
            orders[r] = Hold(r)
            continue
        target = rnd.choice(near)
        aim = orders.get(target)
        dests = [d for d in gmap.neighbours(here) if d != target.district]
        if r.kind is UnitKind.L and target.kind is UnitKind.H and dests and rnd.random() < 0.3:
            dest = rnd.choice(dests)
            orders[r] = Transport(r, target, dest)
            orders[target] = Move(target, dest)
        elif isinstance(aim, Move) and aim.dest != here and gmap.adjacent(here, aim.dest):
            orders[r] = SupportMove(r, target, aim.dest)
        elif isinstance(aim, Assault) and (aim.station == here or gmap.adjacent(here, aim.station)):
            orders[r] = SupportAssault(r, target, aim.station)
        elif not isinstance(aim, Move):
            orders[r] = SupportHold(r, target)
        else:
            orders[r] = Hold(r)
    return orders


def _code(i: int) -> str:
    letters = string.ascii_uppercase
    return letters[i // 676] + letters[i // 26 % 26] + letters[i % 26]


def grid_map(n: int) -> GameMap:
    """About ``n`` districts on a grid wrapped round (a torus): every district has
    the same four neighbours' worth of work, at any size."""
    side = int(n**0.5)
    rows = n // side
    codes = [_code(i) for i in range(rows * side)]
    districts = []
    for i, code in enumerate(codes):
        r, c = divmod(i, side)
        around = {((r + dr) % rows) * side + (c + dc) % side for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))}
        nb = [codes[j] for j in sorted(around) if j != i]
        districts.append({"code": code, "name": code, "area": i + 1, "precinct": code, "neighbours": nb})
    raw: dict[str, Any] = {
        "name": f"grid-{len(codes)}",
        "districts": districts,
        "gangs": [
            {"key": f"g{k}", "name": f"Gang {k}", "colour": "#123456", "homes": [], "units": []} for k in range(8)
        ],
        "scenario": {"start": "spring-1924", "cash": 20, "price": 3},
        "raid_table": {},
    }
    return build_map(raw, source="<grid>")


def grid_state(rnd: random.Random, gmap: GameMap) -> GameState:
    st = GameState(turn="spring-1924", price=300)
    gangs = list(gmap.gangs)
    for code in gmap.districts:
        st.units.append(Unit(code, rnd.choice(list(UnitKind)), rnd.choice(gangs)))
    return st


def samples_ms(fn: Callable[[], object], repeat: int) -> list[float]:
    """The time of each of ``repeat`` calls, in ms, with the cyclic collector set as a
    command sets it (``moonshine.GC_THRESHOLDS``): with the interpreter's defaults, its
    full passes over the benchmark's own objects (a 10,000-district board, its states)
    would weigh on the big grid more than on the small one."""
    before = gc.get_threshold()
    gc.set_threshold(*GC_THRESHOLDS)
    try:
        times = []
        for _ in range(repeat):
            t0 = time.process_time()
            fn()
            times.append((time.process_time() - t0) * 1000)
    finally:
        gc.set_threshold(*before)
    return times


def median_ms(fn: Callable[[], object], repeat: int) -> float:
    return statistics.median(samples_ms(fn, repeat))


def chicago_turn(seeds: int = 40, repeat: int = 25) -> tuple[float, int, int]:
    """Median over seeds of the median time of one Chicago turn; units and orders."""
    gmap = load_map("chicago-1920s")
    st = initial_state(gmap)
    medians = []
    n_orders = 0
    for seed in range(seeds):
        orders = random_orders(random.Random(seed), gmap, st)
        n_orders = len(orders)
        adjudicate(gmap, st, orders)  # warm
        medians.append(median_ms(functools.partial(adjudicate, gmap, st, orders), repeat))
    return statistics.median(medians), len(st.units), n_orders


def grid_samples(n: int, repeat: int) -> tuple[list[float], int, GameState]:
    """The times of ``repeat`` turns on a grid of about ``n`` districts (after one to
    warm up), its number of units and its state."""
    rnd = random.Random(n)
    gmap = grid_map(n)
    st = grid_state(rnd, gmap)
    orders = random_orders(rnd, gmap, st)
    adjudicate(gmap, st, orders)  # warm
    return samples_ms(functools.partial(adjudicate, gmap, st, orders), repeat), len(st.units), st


def grid_turn(n: int, repeat: int) -> tuple[float, int, GameState]:
    times, units, st = grid_samples(n, repeat)
    return statistics.median(times), units, st


def baseline_pass(st: GameState) -> dict[UnitRef, tuple[Hold, str, Unit]]:
    """For reference: the least an adjudicator does per unit, one result object each."""
    out = {}
    for u in st.units:
        ref = UnitRef(u.kind, u.district)
        out[ref] = (Hold(ref), f"{ref.text()} held", Unit(u.district, u.kind, u.gang, u.recruited))
    return out


def run() -> list[str]:
    lines = []
    ms, units, orders = chicago_turn()
    verdict = "ok" if ms < CHICAGO_TARGET_MS else f"over the {CHICAGO_TARGET_MS:g} ms target"
    lines.append(f"adjudicator: Chicago turn, {units} units, {orders} orders: median {ms:.2f} ms CPU ({verdict})")
    sizes = {}
    base = {}
    for n, repeat in ((1_000, 9), (10_000, 5)):
        times, units, st = grid_samples(n, repeat)
        t = statistics.median(times)
        sizes[n] = (t, units)
        base[n] = median_ms(functools.partial(baseline_pass, st), 3 * repeat)
        lines.append(
            f"adjudicator: grid of {n:,} districts, {units:,} units: median {t:.1f} ms "
            f"({t * 1000 / units:.1f} µs a unit; the {repeat} runs took {min(times):.1f} to {max(times):.1f} ms)"
        )
    (t1, u1), (t2, u2) = sizes[1_000], sizes[10_000]
    ratio = t2 / t1
    verdict = "ok" if ratio <= GROWTH_TARGET else f"over the {GROWTH_TARGET:g}x target"
    lines.append(f"adjudicator: growth {u2 / u1:.1f}x the units in {ratio:.1f}x the CPU time ({verdict})")
    lines.append(
        f"adjudicator: for reference, one result object per unit and nothing else grows "
        f"{base[10_000] / base[1_000]:.1f}x on this machine"
    )
    return lines


def main() -> int:
    for line in run():
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
