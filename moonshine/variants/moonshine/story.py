"""What a turn changed, as facts the bulletin tells: districts and police stations
that changed hands, victory points gained or lost, dislodgements, successful
assaults, and the plain holds that need no line each.

Pure functions of the map, the turn's opening state, its results and the next
turn's opening state. They read the results and the states only through the few
small functions below (``_control_*``, ``_vp_*``, ``_dislodged``, ``_assaults``,
``is_plain_hold``), so that another form of the results needs only these changed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

import msgspec

from moonshine.engine.outcome import Held, Result
from moonshine.variants.moonshine import scoring
from moonshine.variants.moonshine.map import GameMap, district_vp
from moonshine.variants.moonshine.orders import Hold, parse_canonical
from moonshine.variants.moonshine.state import GameState


class _DislodgedUnit(Protocol):
    @property
    def unit(self) -> str: ...
    @property
    def by(self) -> str: ...
    @property
    def retreated_to(self) -> str | None: ...


class _GangResults(Protocol):
    @property
    def dislodged(self) -> Sequence[_DislodgedUnit]: ...


class _Assault(Protocol):
    @property
    def gang(self) -> str: ...
    @property
    def unit(self) -> str: ...
    @property
    def station(self) -> str: ...
    @property
    def succeeded(self) -> bool: ...


class TurnResults(Protocol):
    """What the story reads of a turn's results (``moonshine.game.reports.TurnResults``
    is one): its victory points, corruption, dislodgements and assaults."""

    @property
    def vp(self) -> Mapping[str, int]: ...
    @property
    def corruption(self) -> Mapping[str, str]: ...
    @property
    def gangs(self) -> Mapping[str, _GangResults]: ...
    @property
    def assaults(self) -> Sequence[_Assault]: ...


class Change(msgspec.Struct, frozen=True):
    """A district (or a police station's corruption) that changed hands; ``None``: nobody."""

    code: str
    before: str | None
    after: str | None
    station: bool = False  # the corruption of a police station, not the control of a district


class VPChange(msgspec.Struct, frozen=True):
    gang: str
    before: int
    after: int

    @property
    def delta(self) -> int:
        return self.after - self.before


class Dislodged(msgspec.Struct, frozen=True):
    gang: str
    unit: str  # "H ROS"
    by: str
    retreated_to: str | None


class TakenStation(msgspec.Struct, frozen=True):
    gang: str
    unit: str
    station: str


class Story(msgspec.Struct, frozen=True):
    """A turn's news, most telling first within each list."""

    changes: tuple[Change, ...]  # districts in map order, then stations
    vp: tuple[VPChange, ...]  # every gang whose VP changed, biggest gain first
    net: Mapping[str, int]  # gang -> districts gained minus lost (only gangs with changes)
    dislodged: tuple[Dislodged, ...]
    taken: tuple[TakenStation, ...]
    leaders: tuple[str, ...]  # the gangs with the most VP at the end of the turn
    lead_vp: int


# -- how the results and the states are read (the only places that know their shape) --------


def control_at_end(st: GameState) -> dict[str, str]:
    """Control when a turn ended: a state's control before its opening raid closed a
    speakeasy (the state of the next turn opens with that raid)."""
    control = dict(st.control)
    raid = st.raid
    if raid is not None and raid.speakeasy_closed and raid.controller is not None:
        control[raid.district] = raid.controller
    return control


def _vp_at(gmap: GameMap, control: Mapping[str, str], corruption: Mapping[str, str], st: GameState) -> dict[str, int]:
    out = {}
    for gang in gmap.gangs:
        vp = sum(district_vp(gmap.districts[d].feature) for d, g in control.items() if g == gang)
        vp += scoring.CORRUPTION_VP * sum(1 for g in corruption.values() if g == gang)
        vp += scoring.ASSAULT_VP * len(set(st.assaulted.get(gang, [])))
        out[gang] = vp
    return out


def _vp_after(res: TurnResults) -> Mapping[str, int]:
    return res.vp


def _corruption_after(res: TurnResults) -> Mapping[str, str]:
    return res.corruption


def _dislodged(res: TurnResults) -> list[Dislodged]:
    return [Dislodged(gang, d.unit, d.by, d.retreated_to) for gang, gr in res.gangs.items() for d in gr.dislodged]


def _assaults(res: TurnResults) -> list[TakenStation]:
    return [TakenStation(a.gang, a.unit, a.station) for a in res.assaults if a.succeeded]


def is_plain_hold(order: str, succeeded: bool, reason: str, value: Result | None = None) -> bool:
    """A unit that held and had nothing else happen to it: told in one line per gang.
    The outcome's value says so (``Held`` against no one); a results file of an
    earlier version, its English reason."""
    try:
        parsed = parse_canonical(order)
    except ValueError:
        return False
    plain = value == Held() if value is not None else reason == "held"
    return isinstance(parsed, Hold) and succeeded and plain


# -- the story -------------------------------------------------------------------------------------


def story(gmap: GameMap, before: GameState, res: TurnResults, nxt: GameState) -> Story:
    """The news of a turn from its opening state ``before``, its results and the next
    turn's opening state ``nxt``."""
    start = control_at_end(before)  # as the turn before ended (this turn's raid included in the news)
    end = control_at_end(nxt)
    changes = [
        Change(d, start.get(d), end.get(d)) for d in gmap.map_order(set(start) | set(end)) if start.get(d) != end.get(d)
    ]
    after_corruption = _corruption_after(res)
    stations = sorted(set(before.corruption) | set(after_corruption), key=lambda s: gmap.districts[s].area)
    changes += [
        Change(s, before.corruption.get(s), after_corruption.get(s), station=True)
        for s in stations
        if before.corruption.get(s) != after_corruption.get(s)
    ]
    vp_before = _vp_at(gmap, start, before.corruption, before)
    vp_after = _vp_after(res)
    order = list(gmap.gangs)
    vp = sorted(
        (VPChange(g, vp_before.get(g, 0), vp_after.get(g, 0)) for g in gmap.gangs),
        key=lambda c: (-c.delta, order.index(c.gang)),
    )
    net: dict[str, int] = {}
    for c in changes:
        if c.station:
            continue
        if c.after is not None:
            net[c.after] = net.get(c.after, 0) + 1
        if c.before is not None:
            net[c.before] = net.get(c.before, 0) - 1
    lead = max(vp_after.values(), default=0)
    leaders = tuple(g for g in gmap.gangs if vp_after.get(g, 0) == lead and lead > 0)
    return Story(
        changes=tuple(changes),
        vp=tuple(c for c in vp if c.delta != 0),
        net={g: net[g] for g in order if net.get(g)},
        dislodged=tuple(_dislodged(res)),
        taken=tuple(_assaults(res)),
        leaders=leaders,
        lead_vp=lead,
    )
