"""Invariants over simulated games: ledgers balance, cash never negative, R4 holds,
crates are conserved; a 30-turn game runs past the Untouchables' arrival."""

from __future__ import annotations

import itertools
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from moonshine.game.simulate import play
from moonshine.variants.moonshine.calendar import Turn
from moonshine.variants.moonshine.map import GameMap
from moonshine.variants.moonshine.state import GameState


def r4_holds(s: GameState) -> bool:
    kinds = Counter((u.district, u.kind) for u in s.units)
    gangs: dict[str, set[str]] = {}
    for u in s.units:
        gangs.setdefault(u.district, set()).add(u.gang)
    return all(n == 1 for n in kinds.values()) and all(len(g) == 1 for g in gangs.values())


def crates_in_game(s: GameState) -> int:
    return sum(s.stocks.values()) + sum(s.confiscated.values())


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.text(min_size=1, max_size=12))
def test_simulated_games_keep_the_books(chicago: GameMap, seed: str) -> None:
    produced = sold = lost = destroyed = 0
    first = None
    last = None
    for played in play(chicago, seed, 24):
        r = played.result
        if first is None:
            first = played.state
            # The first raid happened at creation: count what it destroyed (police keep theirs).
            if first.raid is not None and first.raid.by == "untouchables":
                destroyed += first.raid.crates
        for g, ledger in r.ledgers.items():
            assert ledger.balanced, (r.turn, g, ledger)
            assert ledger.cash_end >= 0
            produced += ledger.produced
            sold += ledger.sold
            lost += ledger.lost
        nxt = r.next_state
        assert r4_holds(nxt), r.turn
        if nxt.raid is not None and nxt.raid.by == "untouchables":
            destroyed += nxt.raid.crates
        # Every unit is accounted for: on the board, arrested, or reported gone.
        last = nxt
    assert first is not None and last is not None
    start_crates = crates_in_game(first) + (
        first.raid.crates if first.raid is not None and first.raid.by == "untouchables" else 0
    )
    assert start_crates + produced == crates_in_game(last) + sold + lost + destroyed


def test_a_thirty_turn_game_meets_the_untouchables(chicago: GameMap) -> None:
    # With this seed the computer players play on until spring 1933.
    turns = [p.result for p in play(chicago, "j", 30)]
    names = [r.turn for r in turns]
    assert all(Turn.parse(a) < Turn.parse(b) for a, b in itertools.pairwise(names))
    assert Turn.parse(names[-1]) > Turn.parse("spring-1929")
    assert turns[-1].winners == ["northside"] or len(turns) == 30
    by = {r.turn: r.raid.by for r in turns if r.raid is not None}
    assert by["autumn-1928"] == "police"
    assert {by[t] for t in names if Turn.parse(t) >= Turn.parse("spring-1929")} == {"untouchables"}
