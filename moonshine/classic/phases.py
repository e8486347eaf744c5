"""The sequence of a classic game: spring movement (and retreats), fall movement
(and retreats), then supply centres change hands and, when a power's units and
centres differ, the winter adjustments. A power owning the board's victory count
of supply centres (18 on the standard board) after a fall phase wins.

``adjudicate_phase`` is a pure function from the board, the state and the
powers' orders to the results and the next phase's state.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from moonshine.classic.adjustments import adjudicate_adjustments, adjustment_counts
from moonshine.classic.board import ClassicMap
from moonshine.classic.movement import Result, adjudicate_movement
from moonshine.classic.orders import Order
from moonshine.classic.retreats import adjudicate_retreats
from moonshine.classic.state import ClassicState, Phase, Season, Step, Unit
from moonshine.records import dataclass, field


@dataclass(frozen=True)
class PhaseOutcome:
    phase: Phase
    results: list[Result]
    ignored: list[Result]
    next_state: ClassicState
    notes: list[str] = field(default_factory=list)  # centres changing hands, civil disorder, the winner


def adjudicate_phase(gmap: ClassicMap, st: ClassicState, orders: Mapping[str, Sequence[Order]]) -> PhaseOutcome:
    """Resolve the phase ``st`` is at and build the state of the next one."""
    if st.winner:
        raise ValueError(f"the game is over: {gmap.powers.get(st.winner, st.winner)} won")
    phase = st.phase
    if phase.step is Step.MOVEMENT:
        moved = adjudicate_movement(gmap, st.units, orders)
        if moved.dislodged:
            nxt = ClassicState(
                Phase(phase.year, phase.season, Step.RETREATS),
                list(moved.units),
                dict(st.owners),
                list(moved.dislodged),
                list(moved.contested),
            )
            nxt.normalise()
            return PhaseOutcome(phase, moved.results, moved.ignored, nxt)
        nxt, notes = after_season(gmap, phase, moved.units, st.owners)
        return PhaseOutcome(phase, moved.results, moved.ignored, nxt, notes)
    if phase.step is Step.RETREATS:
        retreated = adjudicate_retreats(gmap, st.units, st.dislodged, st.contested, orders)
        nxt, notes = after_season(gmap, phase, retreated.units, st.owners)
        return PhaseOutcome(phase, retreated.results, retreated.ignored, nxt, notes)
    adjusted = adjudicate_adjustments(gmap, st.units, st.owners, orders)
    notes = [f"{gmap.powers[u.power]}: {u.label()} disbanded in civil disorder" for u in adjusted.civil_disorder]
    nxt = ClassicState(Phase(phase.year + 1, Season.SPRING, Step.MOVEMENT), list(adjusted.units), dict(st.owners))
    nxt.normalise()
    return PhaseOutcome(phase, adjusted.results, [], nxt, notes)


def after_season(
    gmap: ClassicMap, phase: Phase, units: Sequence[Unit], owners: Mapping[str, str]
) -> tuple[ClassicState, list[str]]:
    """The state after a season's movement and retreats: fall after spring; after
    fall, the centres change hands, then winter if anyone must adjust."""
    if phase.season is Season.SPRING:
        st = ClassicState(Phase(phase.year, Season.FALL, Step.MOVEMENT), list(units), dict(owners))
        st.normalise()
        return st, []
    new_owners = dict(owners)
    notes = []
    for u in sorted(units):
        if gmap.provinces[u.province].supply and new_owners.get(u.province) != u.power:
            before = new_owners.get(u.province)
            was = f" from {gmap.powers[before]}" if before else ""
            notes.append(f"{gmap.provinces[u.province].name} ({u.province}) taken by {gmap.powers[u.power]}{was}")
            new_owners[u.province] = u.power
    counts = {p: sum(1 for o in new_owners.values() if o == p) for p in gmap.powers}
    leaders = [p for p in gmap.powers if counts[p] >= gmap.victory_centres]
    winner = max(leaders, key=lambda p: counts[p]) if leaders else None
    if winner:
        notes.append(f"{gmap.powers[winner]} owns {counts[winner]} supply centres and wins the game")
    if any(adjustment_counts(gmap, units, new_owners).values()):
        nxt = Phase(phase.year, Season.WINTER, Step.ADJUSTMENTS)
    else:
        nxt = Phase(phase.year + 1, Season.SPRING, Step.MOVEMENT)
    st = ClassicState(nxt, list(units), new_owners, winner=winner)
    st.normalise()
    return st, notes
