"""What a turn changed, as facts the bulletin tells: districts and police stations
that changed hands, victory points gained or lost, dislodgements, successful
assaults, and the plain holds that need no line each; and the turn's news, ranked
as a paper of the time would rank it (``Kind``), so that the bulletin leads with
the biggest.

Pure functions of the map, the turn's opening state, its results and the next
turn's opening state. They read the results and the states only through the few
small functions below (``_control_*``, ``_vp_*``, ``_dislodged``, ``_assaults``,
``is_plain_hold``), so that another form of the results needs only these changed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import IntEnum
from typing import Protocol

import msgspec

from moonshine.engine.outcome import Held, Result
from moonshine.variants.moonshine import scoring
from moonshine.variants.moonshine.map import Feature, GameMap, district_vp
from moonshine.variants.moonshine.orders import Hold, parse_canonical
from moonshine.variants.moonshine.state import GameState, Raid


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
    is one): its victory points, corruption, dislodgements, assaults, raid and winners."""

    @property
    def vp(self) -> Mapping[str, int]: ...
    @property
    def corruption(self) -> Mapping[str, str]: ...
    @property
    def gangs(self) -> Mapping[str, _GangResults]: ...
    @property
    def assaults(self) -> Sequence[_Assault]: ...
    @property
    def raid(self) -> Raid | None: ...
    @property
    def winners(self) -> Sequence[str]: ...


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


class Kind(IntEnum):
    """The kinds of news, the biggest first: a bulletin's headline is its turn's first."""

    WIN = 1  # the game is won
    ASSAULT = 2  # a police station taken by force
    STATION = 3  # a police station's corruption taken from one gang by another
    RAID_ON_LEADER = 4  # this turn's raid hit a district of the gang alone in the lead in VP
    WIPED_OUT = 5  # a gang left with no unit and no district
    LAST_SPEAKEASY = 6  # a gang lost the last speakeasy it controlled
    PRICE = 7  # the price of a crate moves by BIG_PRICE_MOVE or more
    NEW_LEADER = 8  # a gang alone in the lead that was not leading before
    GAINS = 9  # the biggest net gain of districts, MANY_DISTRICTS or more
    BOUGHT = 10  # a police station nobody paid, bought (most turns see one)
    FEW_GAINS = 11  # the biggest net gain of districts, fewer than MANY_DISTRICTS
    QUIET = 12  # none of the above


BIG_PRICE_MOVE = 100  # cents: two steps of the price (R17) in one turn
MANY_DISTRICTS = 3  # a net gain of districts that makes the news by itself


class News(msgspec.Struct, frozen=True):
    """One item of a turn's news. ``gangs``: who it is about (the winners; the gang that
    took, bought, was raided, wiped out, took the lead or gained); ``place``: the
    station or district; ``other``: the gang the station was taken from, or the
    runner-up of a won game; ``n``: VP, districts gained, or the new price (cents);
    ``before``: the runner-up's VP, or the old price."""

    kind: Kind
    gangs: tuple[str, ...] = ()
    place: str = ""
    other: str = ""
    unit: str = ""
    n: int = 0
    before: int = 0


class Story(msgspec.Struct, frozen=True):
    """A turn's news, most telling first within each list."""

    changes: tuple[Change, ...]  # districts in map order, then stations
    vp: tuple[VPChange, ...]  # every gang whose VP changed, biggest gain first
    net: Mapping[str, int]  # gang -> districts gained minus lost (only gangs with changes)
    dislodged: tuple[Dislodged, ...]
    taken: tuple[TakenStation, ...]
    leaders: tuple[str, ...]  # the gangs with the most VP at the end of the turn
    lead_vp: int
    news: tuple[News, ...] = ()  # the biggest first (``Kind``), never empty from ``story``


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


def _raid(res: TurnResults) -> Raid | None:
    return res.raid


def _winners(res: TurnResults) -> Sequence[str]:
    return res.winners


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
    first = max(vp_before.values(), default=0)
    leaders_before = tuple(g for g in gmap.gangs if vp_before.get(g, 0) == first and first > 0)
    net = {g: net[g] for g in order if net.get(g)}
    taken = tuple(_assaults(res))
    items: list[News] = []
    winners = tuple(_winners(res))
    if winners:
        others = sorted(
            (g for g in gmap.gangs if g not in winners), key=lambda g: (-vp_after.get(g, 0), order.index(g))
        )
        runner = others[0] if others else ""
        items.append(News(Kind.WIN, winners, other=runner, n=lead, before=vp_after.get(runner, 0)))
    items += [News(Kind.ASSAULT, (t.gang,), place=t.station, unit=t.unit) for t in taken]
    items += [
        News(Kind.STATION if c.before else Kind.BOUGHT, (c.after,), place=c.code, other=c.before or "")
        for c in changes
        if c.station and c.after is not None and c.after not in {t.gang for t in taken if t.station == c.code}
    ]
    raid = _raid(res)
    if raid is not None and raid.controller is not None and not raid.spared and (raid.controller,) == leaders_before:
        items.append(News(Kind.RAID_ON_LEADER, (raid.controller,), place=raid.district))  # the sole leader
    units_after = {u.gang for u in nxt.units}
    for g in gmap.gangs:
        had = g in start.values() or any(u.gang == g for u in before.units)
        if had and g not in end.values() and g not in units_after:
            items.append(News(Kind.WIPED_OUT, (g,)))
            continue
        lost = [d for d in gmap.map_order(set(start)) if start[d] == g and _speakeasy(gmap, d)]
        if lost and not any(x == g and _speakeasy(gmap, d) for d, x in end.items()):
            items.append(News(Kind.LAST_SPEAKEASY, (g,), place=lost[-1]))
    if abs(nxt.price - before.price) >= BIG_PRICE_MOVE:
        items.append(News(Kind.PRICE, n=nxt.price, before=before.price))
    if not winners and len(leaders) == 1 and leaders[0] not in leaders_before:
        items.append(News(Kind.NEW_LEADER, leaders, n=lead))
    best = max(net.values(), default=0)
    if best > 0:
        kind = Kind.GAINS if best >= MANY_DISTRICTS else Kind.FEW_GAINS
        items.append(News(kind, (next(g for g, n in net.items() if n == best),), n=best))
    if not items:
        items.append(News(Kind.QUIET))
    return Story(
        changes=tuple(changes),
        vp=tuple(c for c in vp if c.delta != 0),
        net=net,
        dislodged=tuple(_dislodged(res)),
        taken=taken,
        leaders=leaders,
        lead_vp=lead,
        news=tuple(sorted(items, key=lambda x: x.kind)),
    )


def _speakeasy(gmap: GameMap, district: str) -> bool:
    d = gmap.districts.get(district)
    return d is not None and d.feature is Feature.SPEAKEASY
