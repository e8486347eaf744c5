"""The sequence of a classic game: spring movement (and retreats), fall movement
(and retreats), then supply centres change hands and, when a power's units and
centres differ, the winter adjustments. A power owning the board's victory count
of supply centres (18 on the standard board) after a fall phase wins.

``adjudicate_phase`` is a pure function from the board, the state and the
powers' orders to the results and the next phase's state.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import msgspec

from moonshine.engine.rulebook import Rulebook
from moonshine.variants.classic.adjustments import adjudicate_adjustments, adjustment_counts
from moonshine.variants.classic.board import ClassicMap
from moonshine.variants.classic.movement import Result, adjudicate_movement
from moonshine.variants.classic.orders import Order
from moonshine.variants.classic.retreats import adjudicate_retreats
from moonshine.variants.classic.rules import CLASSIC
from moonshine.variants.classic.state import ClassicState, Phase, Season, Step, Unit


class Event(msgspec.Struct, frozen=True):
    """Something that happens to the board between phases, as a value: a centre
    ``taken`` by ``power`` (from ``before``, if anyone owned it), ``power``'s
    ``unit`` disbanded in ``civil_disorder``, or ``power`` ``wins`` with
    ``centres`` supply centres. The reports word it in the reader's language."""

    kind: str  # taken, civil_disorder, wins
    power: str
    province: str = ""
    before: str = ""
    unit: str = ""
    centres: int = 0

    def to_data(self) -> dict[str, str | int]:
        fields: dict[str, str | int] = {
            "province": self.province,
            "before": self.before,
            "unit": self.unit,
            "centres": self.centres,
        }
        return {"event": self.kind, "power": self.power} | {k: v for k, v in fields.items() if v}

    @classmethod
    def from_data(cls, data: Mapping[str, object]) -> Event:
        centres = data.get("centres", 0)
        return cls(
            kind=str(data["event"]),
            power=str(data["power"]),
            province=str(data.get("province", "")),
            before=str(data.get("before", "")),
            unit=str(data.get("unit", "")),
            centres=centres if isinstance(centres, int) else 0,
        )

    def note(self, gmap: ClassicMap) -> str:
        """The event in English, for the results file a person reads."""
        power = gmap.powers.get(self.power, self.power)
        if self.kind == "taken":
            was = f" from {gmap.powers.get(self.before, self.before)}" if self.before else ""
            return f"{gmap.provinces[self.province].name} ({self.province}) taken by {power}{was}"
        if self.kind == "wins":
            return f"{power} owns {self.centres} supply centres and wins the game"
        return f"{power}: {self.unit} disbanded in civil disorder"


class PhaseOutcome(msgspec.Struct, frozen=True):
    phase: Phase
    results: list[Result]
    ignored: list[Result]
    next_state: ClassicState
    notes: list[str] = msgspec.field(default_factory=list)  # centres changing hands, civil disorder, the winner
    events: list[Event] = msgspec.field(default_factory=list)  # the same, as values


def adjudicate_phase(
    gmap: ClassicMap, st: ClassicState, orders: Mapping[str, Sequence[Order]], rules: Rulebook = CLASSIC
) -> PhaseOutcome:
    """Resolve the phase ``st`` is at under ``rules`` (the 2023 rulebook's, DATC's
    preferred answers, by default) and build the state of the next one."""
    if st.winner:
        raise ValueError(f"the game is over: {gmap.powers.get(st.winner, st.winner)} won")
    phase = st.phase
    if phase.step is Step.MOVEMENT:
        moved = adjudicate_movement(gmap, st.units, orders, rules=rules)
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
        nxt, events = after_season(gmap, phase, moved.units, st.owners)
        return PhaseOutcome(phase, moved.results, moved.ignored, nxt, [e.note(gmap) for e in events], events)
    if phase.step is Step.RETREATS:
        retreated = adjudicate_retreats(gmap, st.units, st.dislodged, st.contested, orders)
        nxt, events = after_season(gmap, phase, retreated.units, st.owners)
        notes = [e.note(gmap) for e in events]
        return PhaseOutcome(phase, retreated.results, retreated.ignored, nxt, notes, events)
    adjusted = adjudicate_adjustments(gmap, st.units, st.owners, orders, rules)
    events = [Event("civil_disorder", u.power, unit=u.label()) for u in adjusted.civil_disorder]
    nxt = ClassicState(Phase(phase.year + 1, Season.SPRING, Step.MOVEMENT), list(adjusted.units), dict(st.owners))
    nxt.normalise()
    return PhaseOutcome(phase, adjusted.results, [], nxt, [e.note(gmap) for e in events], events)


def after_season(
    gmap: ClassicMap, phase: Phase, units: Sequence[Unit], owners: Mapping[str, str]
) -> tuple[ClassicState, list[Event]]:
    """The state after a season's movement and retreats: fall after spring; after
    fall, the centres change hands, then winter if anyone must adjust."""
    if phase.season is Season.SPRING:
        st = ClassicState(Phase(phase.year, Season.FALL, Step.MOVEMENT), list(units), dict(owners))
        st.normalise()
        return st, []
    new_owners = dict(owners)
    events: list[Event] = []
    for u in sorted(units):
        if gmap.provinces[u.province].supply and new_owners.get(u.province) != u.power:
            events.append(Event("taken", u.power, province=u.province, before=new_owners.get(u.province) or ""))
            new_owners[u.province] = u.power
    counts = {p: sum(1 for o in new_owners.values() if o == p) for p in gmap.powers}
    leaders = [p for p in gmap.powers if counts[p] >= gmap.victory_centres]
    winner = max(leaders, key=lambda p: counts[p]) if leaders else None
    if winner:
        events.append(Event("wins", winner, centres=counts[winner]))
    if any(adjustment_counts(gmap, units, new_owners).values()):
        nxt = Phase(phase.year, Season.WINTER, Step.ADJUSTMENTS)
    else:
        nxt = Phase(phase.year + 1, Season.SPRING, Step.MOVEMENT)
    st = ClassicState(nxt, list(units), new_owners, winner=winner)
    st.normalise()
    return st, events
