"""A whole game played by the computer players (``moonshine.variants.moonshine.bots``): for testing
and for demos. In memory, or written out as a real game directory."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import msgspec

from moonshine.variants.moonshine.bots import random_plans
from moonshine.variants.moonshine.map import GameMap
from moonshine.variants.moonshine.police import open_turn
from moonshine.variants.moonshine.state import GameState, initial_state
from moonshine.variants.moonshine.turn import TurnResult, run_turn


class Played(msgspec.Struct, frozen=True):
    result: TurnResult
    state: GameState  # the state the turn started from


def play(gmap: GameMap, seed: str, turns: int) -> Iterator[Played]:
    """Play up to ``turns`` turns, stopping early at a victory (R24)."""
    rng = random.Random(seed)
    st = initial_state(gmap)
    open_turn(gmap, st, seed)
    for _ in range(turns):
        result = run_turn(gmap, st, random_plans(gmap, st, rng), seed)
        yield Played(result, st)
        st = result.next_state
        if result.winners:
            return


def play_into(root: Path, gmap_name: str, seed: str, turns: int) -> Iterator[TurnResult]:
    """The same game, written as a game directory turn by turn through the game
    master's own path (orders files, ``adjudicate``)."""
    from moonshine.game.families import new_game
    from moonshine.game.jobs import adjudicate_game, orders_file

    game = new_game(root, map_name=gmap_name, seed=seed, use_git=False)
    rng = random.Random(seed)
    for _ in range(turns):
        turn = game.current_turn()
        st = game.load_state(turn)
        for gang, plan in random_plans(game.map, st, rng).items():
            lines = [f"gang: {gang}"]
            lines += [o.text() for o in plan.unit_orders.values()]
            lines += [r.text() for r in plan.retreats.values()]
            lines += [r.text() for r in plan.recruits]
            lines += [b.text() for b in plan.bribes]
            path = orders_file(game, turn, gang)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        done = adjudicate_game(game, turn, commit=False, reports=False)
        yield done.result
        if done.result.winners:
            return
