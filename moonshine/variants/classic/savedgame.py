"""Classic games in the common format: the saved game of the python ``diplomacy``
package (``diplomacy.utils.export.to_saved_game_format``), which Cicero's dipcc writes
too. Read and written here, and replayed: every phase adjudicated by this engine and
compared with the position the file gives next.

A saved game is ``{"id", "map", "rules", "phases": [...]}``; each phase is ``{"name":
"S1901M", "state": {...}, "orders": {"FRANCE": ["A PAR - BUR", ...]}, "results": {...},
"messages": [...]}``, its ``state`` the position at the START of the phase: ``units``
(``"*A BUR"``: dislodged, in a retreat phase), ``retreats`` (each dislodged unit's
retreat provinces), ``centers``, ``homes``, ``builds``... The outcome of a phase is the
next phase's state. Orders are in standard notation (``A EDI - NWY VIA``, ``F NWG C A EDI
- NWY``, ``F SWE R BAL``, ``A BEL D``, ``F LON B``, ``WAIVE``), which
``moonshine.variants.classic.orders`` reads. Pure: data in, values out.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from moonshine.engine.replay import Difference, Replay
from moonshine.engine.rulebook import Rulebook
from moonshine.variants.classic.board import ClassicMap, Kind, province_of
from moonshine.variants.classic.orders import Order, OrderError, parse_order
from moonshine.variants.classic.phases import PhaseOutcome, adjudicate_phase
from moonshine.variants.classic.rules import CLASSIC
from moonshine.variants.classic.state import ClassicState, Dislodged, Phase, Season, Step, Unit

_SEASONS = {"S": Season.SPRING, "F": Season.FALL, "W": Season.WINTER}
_STEPS = {"M": Step.MOVEMENT, "R": Step.RETREATS, "A": Step.ADJUSTMENTS}
COMPLETED = "COMPLETED"  # the phase after the last, once someone won


class SavedGameError(ValueError):
    """A saved game this module cannot read: what is wrong, and where."""


def phase_of(code: str) -> Phase:
    """``S1901M`` -> spring 1901, movement; ``F1901R``; ``W1901A``."""
    if len(code) != 6 or code[0] not in _SEASONS or code[-1] not in _STEPS or not code[1:5].isdigit():
        raise SavedGameError(f"{code!r} is not a phase (S1901M, F1901R, W1901A...)")
    return Phase(int(code[1:5]), _SEASONS[code[0]], _STEPS[code[-1]])


def phase_code(phase: Phase) -> str:
    """Spring 1901, movement -> ``S1901M``."""
    step = {Step.MOVEMENT: "M", Step.RETREATS: "R", Step.ADJUSTMENTS: "A"}[phase.step]
    return f"{phase.season.value[0].upper()}{phase.year}{step}"


class SavedPhase(msgspec.Struct, frozen=True):
    """One phase of a saved game: its name, its position at the start (``state``;
    None for ``COMPLETED``), each power's orders as written, and each dislodged unit's
    retreat provinces as the file gives them (label -> provinces)."""

    name: str
    state: ClassicState | None
    orders: dict[str, list[str]]
    retreats: dict[str, list[str]] = msgspec.field(default_factory=dict)


def _power(gmap: ClassicMap, name: str, where: str) -> str:
    code = gmap.power_by_name(name)
    if code is None:
        raise SavedGameError(f"{where}: no power {name!r} on this board (expected {', '.join(gmap.powers.values())})")
    return code


def _unit(gmap: ClassicMap, power: str, text: str, where: str) -> Unit:
    parts = text.split()
    if len(parts) != 2 or parts[0] not in ("A", "F") or not gmap.can_stand(Kind(parts[0]), parts[1].upper()):
        raise SavedGameError(f"{where}: {text!r} is not a unit on this board")
    return Unit(power, Kind(parts[0]), parts[1].upper())


def state_from_data(gmap: ClassicMap, data: Mapping[str, Any], where: str = "") -> ClassicState:
    """The position a saved phase's ``state`` gives. A dislodged unit's attacker is not
    recorded: the provinces it may not retreat to (those not in its ``retreats``) are
    taken as left empty by a standoff, so that its retreats are the file's."""
    name = str(data.get("name", ""))
    phase = phase_of(name)
    units: list[Unit] = []
    retreats: Mapping[str, Mapping[str, Sequence[str]]] = data.get("retreats") or {}
    closed: dict[Unit, set[str]] = {}  # per dislodged unit: the neighbours it may not retreat to
    for power_name, labels in (data.get("units") or {}).items():
        power = _power(gmap, power_name, f"{where}{name}")
        for label in labels or ():
            if label.startswith("*"):
                u = _unit(gmap, power, label[1:], f"{where}{name}")
                allowed = {province_of(r.upper()) for r in (retreats.get(power_name) or {}).get(label[1:], ())}
                closed[u] = set(gmap.near[u.province]) - allowed
            else:
                units.append(_unit(gmap, power, label, f"{where}{name}"))
    occupied = {u.province for u in units}
    # A province closed to every dislodged unit next to it is taken as a standoff; what
    # else is closed to one unit is its attacker's origin.
    contested = {
        p
        for shut in closed.values()
        for p in shut - occupied
        if all(p in other for u, other in closed.items() if p in gmap.near[u.province])
    }
    dislodged: list[Dislodged] = []
    for u, shut in closed.items():
        origin = sorted(shut - occupied - contested)
        dislodged.append(Dislodged(u.power, u.kind, u.region, origin[0] if origin else "", False))
    owners: dict[str, str] = {}
    for power_name, centres in (data.get("centers") or {}).items():
        power = _power(gmap, power_name, f"{where}{name}")
        for c in centres or ():
            owners[c.upper()] = power
    st = ClassicState(phase, units, owners, dislodged, sorted(contested))
    st.normalise()
    return st


def read_saved_game(gmap: ClassicMap, data: Mapping[str, Any]) -> list[SavedPhase]:
    """The phases of a saved game (its JSON, parsed), each position read."""
    phases = data.get("phases")
    if not isinstance(phases, list):
        raise SavedGameError("no list of phases (expected a saved game: {'id', 'map', 'phases': [...]})")
    out: list[SavedPhase] = []
    for n, ph in enumerate(phases):
        if not isinstance(ph, Mapping) or "name" not in ph:
            raise SavedGameError(f"phase {n + 1}: expected a mapping with a name, state and orders")
        name = str(ph["name"])
        state = None if name == COMPLETED else state_from_data(gmap, ph.get("state") or {"name": name})
        orders: dict[str, list[str]] = {}
        for power_name, given in (ph.get("orders") or {}).items():
            if given:
                orders[_power(gmap, power_name, name)] = [str(o) for o in given]
        retreats: dict[str, list[str]] = {}
        for power_name, units in ((ph.get("state") or {}).get("retreats") or {}).items():
            for label, where in (units or {}).items():
                retreats[f"{_power(gmap, power_name, name)} {label}"] = [str(w) for w in where]
        out.append(SavedPhase(name, state, orders, retreats))
    return out


def parse_orders(orders: Mapping[str, Sequence[str]]) -> tuple[dict[str, list[Order]], list[str]]:
    """Each power's orders read, and the lines that could not be."""
    read: dict[str, list[Order]] = {}
    bad: list[str] = []
    for power, lines in orders.items():
        for line in lines:
            try:
                read.setdefault(power, []).append(parse_order(line))
            except OrderError as exc:
                bad.append(f"{power}: {line!r}: {exc}")
    return read, bad


# -- positions compared --------------------------------------------------------------------


def position(st: ClassicState, *, centres: bool = True) -> dict[str, list[str]]:
    """A position as the saved game writes it: per power, its units (``*`` before a
    dislodged one) and, when asked, its centres (``centres:POWER``)."""
    out: dict[str, list[str]] = {}
    for u in st.units:
        out.setdefault(u.power, []).append(u.label())
    for d in st.dislodged:
        out.setdefault(d.power, []).append("*" + Unit(d.power, d.kind, d.region).label())
    if centres:
        for c, p in st.owners.items():
            out.setdefault(f"centres:{p}", []).append(c)
    return {k: sorted(v) for k, v in sorted(out.items())}


def differences(ours: ClassicState, theirs: ClassicState) -> list[str]:
    """What differs between two positions of the same moment, one line per power:
    the units always; the centres except at the start of a retreat phase (where sites
    count the centres before or after the movement)."""
    with_centres = theirs.phase.step is not Step.RETREATS
    a, b = position(ours, centres=with_centres), position(theirs, centres=with_centres)
    out = []
    for key in sorted(set(a) | set(b)):
        mine, other = set(a.get(key, ())), set(b.get(key, ())) if key in b else set()
        if mine != other:
            extra = ", ".join(sorted(mine - other)) or "-"
            missing = ", ".join(sorted(other - mine)) or "-"
            out.append(f"{key}: ours has {extra}; the file has {missing}")
    if ours.phase != theirs.phase:
        out.insert(0, f"phase: ours is {phase_code(ours.phase)}, the file's {phase_code(theirs.phase)}")
    return out


def start_position(gmap: ClassicMap, saved: SavedPhase, ours: ClassicState | None) -> ClassicState:
    """The position to adjudicate a saved phase from: the file's, with the attackers'
    origins and standoffs of our own adjudication when ours reached the same position."""
    st = saved.state
    assert st is not None
    if ours is not None and st.phase.step is Step.RETREATS and ours.phase == st.phase and not differences(ours, st):
        return ClassicState(st.phase, list(st.units), dict(st.owners), list(ours.dislodged), list(ours.contested))
    return st


def advance(
    gmap: ClassicMap, st: ClassicState, orders: Mapping[str, Sequence[Order]], until: Phase | None, rules: Rulebook
) -> tuple[PhaseOutcome, ClassicState]:
    """Adjudicate ``st`` with ``orders``, then go on with no orders through phases the
    file skips (a retreat or winter that had nothing to do, for one site) until
    ``until``: the first outcome and the position reached."""
    outcome = adjudicate_phase(gmap, st, orders, rules)
    nxt = outcome.next_state
    for _ in range(3):
        if until is None or nxt.winner or nxt.phase.sort_key() >= until.sort_key():
            break
        nxt = adjudicate_phase(gmap, nxt, {}, rules).next_state
    return outcome, nxt


def replay(gmap: ClassicMap, phases: Sequence[SavedPhase], rules: Rulebook = CLASSIC) -> Replay:
    """Adjudicate every phase of a saved game from the file's own position and orders,
    and compare the outcome with the file's next position."""
    found: list[Difference] = []
    unreadable: list[str] = []
    compared = with_orders = 0
    ours: ClassicState | None = None
    for saved, nxt in itertools.pairwise(phases):
        if saved.state is None:
            break
        orders, bad = parse_orders(saved.orders)
        unreadable += [f"{saved.name}: {b}" for b in bad]
        start = start_position(gmap, saved, ours)
        until = nxt.state.phase if nxt.state is not None else None
        try:
            _, ours = advance(gmap, start, orders, until, rules)
        except ValueError as exc:
            unreadable.append(f"{saved.name}: {exc}")
            ours = None
            continue
        compared += 1
        with_orders += 1 if any(saved.orders.values()) else 0
        theirs = nxt.state
        if theirs is None:  # COMPLETED: someone won; the file stops
            if not ours.winner:
                what = ["the file ends the game; ours has no winner"]
                found.append(Difference(saved.name, saved.orders, position(ours), {}, what))
            continue
        what = differences(ours, theirs)
        if what:
            centres = theirs.phase.step is not Step.RETREATS
            found.append(
                Difference(
                    saved.name, saved.orders, position(ours, centres=centres), position(theirs, centres=centres), what
                )
            )
    return Replay(compared, with_orders, found, unreadable)


# -- writing ---------------------------------------------------------------------------------


def state_data(gmap: ClassicMap, st: ClassicState) -> dict[str, Any]:
    """A position as a saved game's ``state``."""
    names = {p: name.upper() for p, name in gmap.powers.items()}
    units: dict[str, list[str]] = {names[p]: [] for p in gmap.powers}
    retreats: dict[str, dict[str, list[str]]] = {names[p]: {} for p in gmap.powers}
    centres: dict[str, list[str]] = {names[p]: [] for p in gmap.powers}
    homes = {names[p]: list(gmap.home_centres(p)) for p in gmap.powers}
    for u in st.units:
        units[names[u.power]].append(u.label())
    for d in st.dislodged:
        label = Unit(d.power, d.kind, d.region).label()
        units[names[d.power]].append("*" + label)
        retreats[names[d.power]][label] = _retreat_options(gmap, st, d)
    for c, p in sorted(st.owners.items()):
        centres[names[p]].append(c)
    builds = _builds(gmap, st, names)
    return {
        "name": phase_code(st.phase),
        "units": units,
        "retreats": retreats,
        "centers": centres,
        "homes": homes,
        "influence": {n: [] for n in names.values()},
        "civil_disorder": dict.fromkeys(names.values(), 0),
        "builds": builds,
        "note": "",
    }


def _retreat_options(gmap: ClassicMap, st: ClassicState, d: Dislodged) -> list[str]:
    from moonshine.variants.classic.rules import retreat_problem

    occupied = {u.province for u in st.units}
    contested = set(st.contested)
    out = []
    for prov in sorted(gmap.near[province_of(d.region)]):
        targets = [prov] if d.kind is Kind.ARMY else list(gmap.fleet_targets(d.region, prov))
        for region in targets:
            problem, reached = retreat_problem(gmap, d, region, occupied, contested)
            if problem is None:
                out.append(reached)
    return out


def _builds(gmap: ClassicMap, st: ClassicState, names: Mapping[str, str]) -> dict[str, dict[str, Any]]:
    from moonshine.variants.classic.adjustments import adjustment_counts

    out: dict[str, dict[str, Any]] = {}
    counts = adjustment_counts(gmap, st.units, st.owners) if st.phase.step is Step.ADJUSTMENTS else {}
    taken = {u.province for u in st.units}
    for p, name in names.items():
        n = counts.get(p, 0)
        free = [h for h in gmap.home_centres(p) if st.owners.get(h) == p and h not in taken] if n > 0 else []
        out[name] = {"count": min(n, len(free)) if n > 0 else n, "homes": free}
    return out


def phase_data(
    gmap: ClassicMap,
    st: ClassicState,
    orders: Mapping[str, Sequence[str]],
    results: Mapping[str, Sequence[str]],
) -> dict[str, Any]:
    """One phase of a saved game: its position, each power's orders, each unit's results."""
    names = {p: name.upper() for p, name in gmap.powers.items()}
    return {
        "name": phase_code(st.phase),
        "state": state_data(gmap, st),
        "orders": {names[p]: list(orders.get(p, ())) for p in gmap.powers},
        "results": {k: list(v) for k, v in results.items()},
        "messages": [],
    }


def completed_data(gmap: ClassicMap, st: ClassicState) -> dict[str, Any]:
    """The ``COMPLETED`` phase after a win, with the final position."""
    data = state_data(gmap, st)
    data["name"] = COMPLETED
    return {"name": COMPLETED, "state": data, "orders": {}, "results": {}, "messages": []}
