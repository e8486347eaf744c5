"""The adjudicator pauses the cyclic garbage collector during a turn; that is safe
only while a turn creates no reference cycles. This test keeps it so."""

from __future__ import annotations

import gc
import random

from moonshine.variants.moonshine.bots import random_plan
from moonshine.variants.moonshine.map import GameMap
from moonshine.variants.moonshine.movement import adjudicate
from moonshine.variants.moonshine.state import GameState


def test_a_turn_leaves_no_cyclic_garbage(chicago: GameMap, start: GameState) -> None:
    rng = random.Random(7)
    plans = [random_plan(chicago, start, g, rng) for g in chicago.gangs for _ in range(5)]
    was_enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        gc.collect()
        for plan in plans:
            adjudicate(chicago, start, plan.unit_orders, plan.retreats)
        found = gc.collect()
    finally:
        if was_enabled:
            gc.enable()
    assert found == 0
    assert gc.isenabled() == was_enabled
