"""Civil-disorder player benchmark (R26): the median CPU time to write one side's
orders, values and file text, with the seed derived from the secret: a Chicago gang
on the positions of a simulated game, and a classic power (``hold`` and ``smart``)
on random positions of the standard board in each kind of phase. Beside each, in the
same run, the time to adjudicate the same positions (a Chicago turn's movement with
the computer players' orders; a classic phase with no orders), as a ratio: the
player must not slow a turn noticeably (target: a few milliseconds)."""

from __future__ import annotations

import functools
import random
import statistics

from bench.adjudicator import median_ms
from moonshine.game.simulate import play
from moonshine.variants.civil_disorder import HOLD, SMART, civil_disorder_seed
from moonshine.variants.classic import civil_disorder as classic_cd
from moonshine.variants.classic.board import Kind, standard_map
from moonshine.variants.classic.phases import adjudicate_phase
from moonshine.variants.classic.state import ClassicState, Dislodged, Phase, Season, Step, Unit
from moonshine.variants.moonshine import civil_disorder as moonshine_cd
from moonshine.variants.moonshine.bots import random_plans
from moonshine.variants.moonshine.map import load_map
from moonshine.variants.moonshine.movement import adjudicate

TARGET_MS = 5.0
REPEAT = 15
SECRET = "bench-secret"


def chicago(turns: int = 12) -> tuple[float, float, int]:
    """Median ms for one gang's orders over the gangs and positions of a simulated
    game; median ms of the movement of those positions; the number of positions."""
    gmap = load_map("chicago-1920s")
    rng = random.Random(26)
    player, turn = [], []
    positions = [p.state for p in play(gmap, "bench", turns)]
    for st in positions:
        orders = {r: o for plan in random_plans(gmap, st, rng).values() for r, o in plan.unit_orders.items()}
        for gang in gmap.gangs:
            seed = civil_disorder_seed(SECRET, st.turn, gang)
            moonshine_cd.civil_disorder(gmap, st, gang, seed)  # warm
            player.append(median_ms(functools.partial(moonshine_cd.civil_disorder, gmap, st, gang, seed), REPEAT))
        turn.append(median_ms(functools.partial(adjudicate, gmap, st, orders), REPEAT))
    return statistics.median(player), statistics.median(turn), len(positions)


def _classic_position(rng: random.Random, step: Step) -> ClassicState:
    gmap = standard_map()
    places = sorted(p for p in gmap.provinces if gmap.near[p])
    powers = sorted(gmap.powers)
    units = []
    for prov in rng.sample(places, 22):
        kinds = ([Kind.ARMY] if not gmap.is_sea(prov) else []) + ([Kind.FLEET] if gmap.fleet_regions(prov) else [])
        kind = rng.choice(kinds)
        units.append(
            Unit(rng.choice(powers), kind, rng.choice(gmap.fleet_regions(prov)) if kind is Kind.FLEET else prov)
        )
    owners = {c: rng.choice(powers) for c in rng.sample(gmap.supply_centres, 24)}
    season = Season.WINTER if step is Step.ADJUSTMENTS else Season.FALL
    st = ClassicState(Phase(1903, season, step), units, owners)
    if step is Step.RETREATS:
        for u in rng.sample(units, 5):
            st.units.remove(u)
            st.dislodged.append(Dislodged(u.power, u.kind, u.region, rng.choice(sorted(gmap.near[u.province]))))
    st.normalise()
    return st


def classic(positions: int = 20) -> dict[tuple[str, Step], tuple[float, float]]:
    """Per player and phase: the median ms for one power's orders, and the median ms
    to adjudicate those phases."""
    gmap = standard_map()
    rng = random.Random(1901)
    out = {}
    for step in Step:
        states = [_classic_position(rng, step) for _ in range(positions)]
        phase = statistics.median(median_ms(functools.partial(adjudicate_phase, gmap, st, {}), REPEAT) for st in states)
        for player in (HOLD, SMART):
            times = []
            for st in states:
                sides = [u.power for u in st.units] + [d.power for d in st.dislodged]
                power = max(sorted(set(sides)), key=sides.count)  # the power with the most units
                seed = civil_disorder_seed(SECRET, st.phase.name, power)
                call = functools.partial(classic_cd.civil_disorder, gmap, st, power, player, seed)
                call()  # warm
                times.append(median_ms(call, REPEAT))
            out[(player, step)] = (statistics.median(times), phase)
    return out


def _verdict(ms: float) -> str:
    return "ok" if ms < TARGET_MS else f"over the {TARGET_MS:g} ms target"


def run() -> list[str]:
    player, turn, n = chicago()
    lines = [
        f"civil disorder: a Chicago gang's orders (R26, keep), {n} positions of a simulated game: median "
        f"{player:.2f} ms CPU ({_verdict(player)}); the movement of those turns {turn:.2f} ms, "
        f"ratio {player / turn:.2f}"
    ]
    for (name, step), (ms, phase) in classic().items():
        lines.append(
            f"civil disorder: a classic power's orders ({name}, {step.value}): median {ms:.2f} ms CPU "
            f"({_verdict(ms)}); the phase adjudicated {phase:.2f} ms, ratio {ms / phase:.2f}"
        )
    return lines


def main() -> int:
    for line in run():
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
