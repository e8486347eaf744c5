"""A Moonshine game's export (``moonshine export``, ``docs/moonshine-game.schema.json``)
adjudicated again, turn by turn, from the file's own opening states and recorded
orders, and compared with the file's results and next opening state.

A turn's raid is drawn from the game's secret seed (R21), which an export carries only
once the game is over (the seeds ``moonshine reveal`` shows). With the seed, every
raid is drawn again and checked with the rest. Without it, the draw itself cannot be
checked: the next state is adjudicated up to the raid (its arrested units returned),
and the raid the file's next state records is applied to it from its published HMAC
(the district the HMAC picks, ``police.draw_of_digest``), so that everything the
raid did is checked, only not which HMAC the seed gives. The game's opening (the
map's scenario and its first raid) is checked the same way when the export starts
at the first turn.

Pure: the export's data and the map in; a ``moonshine.engine.replay.Replay`` out."""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import msgspec

from moonshine import schema
from moonshine.engine.replay import Difference, Replay
from moonshine.errors import StateError
from moonshine.text import money
from moonshine.variants.layout import MOONSHINE_LAYOUT
from moonshine.variants.moonshine import results as results_mod
from moonshine.variants.moonshine import state as state_mod
from moonshine.variants.moonshine.calendar import Turn
from moonshine.variants.moonshine.checker import ACCEPTED, read_orders
from moonshine.variants.moonshine.houserules import HouseRules
from moonshine.variants.moonshine.map import GameMap
from moonshine.variants.moonshine.police import apply_raid, draw_of_digest, open_turn
from moonshine.variants.moonshine.results import Submission
from moonshine.variants.moonshine.state import GameState
from moonshine.variants.moonshine.turn import GangPlan, plan_of, run_turn

MAX_WHAT = 12  # differences listed for one turn; the rest are counted


class ExportError(ValueError):
    """An export this module cannot read: where (a path in the JSON) and what."""


class TurnRecord(msgspec.Struct, frozen=True):
    """One turn of an export: its opening state (raid applied), each gang's recorded
    orders (None: the gang sent none, R12) and its public results; the last turn, not
    adjudicated yet, has neither orders nor results."""

    turn: str
    state: GameState
    orders: dict[str, list[str] | None] | None
    results: dict[str, Any] | None


class SeedSpan(msgspec.Struct, frozen=True):
    """A revealed seed and the turns whose raids it drew: from ``first_turn`` (None:
    the first) to ``last_turn`` (None: the last)."""

    seed: str
    first_turn: str | None
    last_turn: str | None

    def covers(self, turn: str) -> bool:
        t = Turn.parse(turn)
        return (self.first_turn is None or Turn.parse(self.first_turn) <= t) and (
            self.last_turn is None or t <= Turn.parse(self.last_turn)
        )


def seed_finder(seeds: Sequence[SeedSpan]) -> Callable[[str], str | None]:
    """The seed that drew a turn's raid, among ``seeds`` (None: not revealed)."""

    def seed_of(turn: str) -> str | None:
        return next((s.seed for s in seeds if s.covers(turn)), None)

    return seed_of


# -- reading ---------------------------------------------------------------------------


def read_turns(raw: Any, gmap: GameMap) -> list[TurnRecord]:
    """The export's ``turns``, checked: each opening state read as a state file is
    (``state.from_data``), the orders as lists of lines, the results as a mapping."""
    if not isinstance(raw, list) or not raw:
        raise ExportError("turns: expected a list of the game's turns, the first turn first")
    out: list[TurnRecord] = []
    for i, item in enumerate(raw):
        where = f"turns[{i}]"
        if not isinstance(item, dict):
            raise ExportError(f"{where}: expected an object (turn, state, orders, results)")
        if "state" not in item:
            raise ExportError(f"{where}.state: missing (an export written with --public cannot be replayed)")
        try:
            schema.check(item["state"], schema.STATE, f"{where}.state")
            st = state_mod.from_data(item["state"], gmap, source=f"{where}.state")
        except StateError as exc:  # named by its place in the JSON, which has no lines
            raise ExportError(f"{where}.state.{exc.key}: {exc.problem}" if exc.key else str(exc)) from None
        if item.get("turn") != st.turn:
            raise ExportError(f"{where}.turn: {item.get('turn')!r}, but its state is the state of {st.turn}")
        if out and Turn.parse(st.turn) != Turn.parse(out[-1].turn).next():
            raise ExportError(f"{where}.turn: {st.turn} does not follow {out[-1].turn}")
        orders = _orders(item.get("orders"), gmap, f"{where}.orders")
        results = item.get("results")
        if results is not None and not (isinstance(results, dict) and isinstance(results.get("public"), dict)):
            raise ExportError(f"{where}.results: expected the turn's results document (docs/results.schema.json)")
        if (orders is None) != (results is None):
            raise ExportError(f"{where}: a turn adjudicated has both its orders and its results, or neither")
        out.append(TurnRecord(st.turn, st, orders, results))
    return out


def _orders(raw: Any, gmap: GameMap, where: str) -> dict[str, list[str] | None] | None:
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise ExportError(f"{where}: expected each gang's recorded orders (a list of lines, or null)")
    out: dict[str, list[str] | None] = {}
    for gang, lines in raw.items():
        if gang not in gmap.gangs:
            raise ExportError(f"{where}.{gang}: no such gang (gangs: {', '.join(gmap.gangs)})")
        if lines is not None and not (isinstance(lines, list) and all(isinstance(x, str) for x in lines)):
            raise ExportError(f"{where}.{gang}: expected a list of orders (text) or null")
        out[gang] = None if lines is None else list(lines)
    return out


# -- replaying -------------------------------------------------------------------------


def replay(
    gmap: GameMap,
    house: HouseRules,
    turns: Sequence[TurnRecord],
    seed_of: Callable[[str], str | None],
) -> Replay:
    """Adjudicate every turn of ``turns`` that has orders from the file's opening state,
    and compare its public results and the next opening state with the file's; the
    opening too when the export starts at the map's first turn."""
    found: list[Difference] = []
    drawn = taken = compared = with_orders = 0
    sides = {k: g.name for k, g in gmap.gangs.items()}
    if turns and turns[0].turn == gmap.scenario.start:
        ours = state_mod.initial_state(gmap)
        seed = seed_of(ours.turn)
        what = _open(gmap, ours, turns[0].state, seed)
        if seed is None:
            taken += 1
        else:
            drawn += 1
        what += _differences("opening position", _state_data(ours), _state_data(turns[0].state))
        if what:
            found.append(Difference(f"{ours.turn} (the opening)", {}, _position(ours), _position(turns[0].state), what))
    for rec, nxt in itertools.pairwise(turns):
        if rec.orders is None or rec.results is None:
            break
        compared += 1
        with_orders += 1 if any(v is not None for v in rec.orders.values()) else 0
        plans, what = _plans(gmap, house, rec)
        seed = seed_of(nxt.turn)
        result = run_turn(gmap, rec.state, plans, seed, house)
        ours = result.next_state
        if not result.winners:
            if seed is None:
                what += _open(gmap, ours, nxt.state, None)
                taken += 1
            else:
                drawn += 1
        submissions = {g: Submission(g, "export" if p.submitted else None) for g, p in plans.items()}
        data = results_mod.to_data(gmap, result, submissions)
        what += _differences("results", _json(MOONSHINE_LAYOUT.public_results(data, sides)), rec.results["public"])
        what += _differences("next position", _state_data(ours), _state_data(nxt.state))
        if what:
            orders = {g: list(given) if given is not None else ["(no orders)"] for g, given in rec.orders.items()}
            found.append(Difference(rec.turn, orders, _position(ours), _position(nxt.state), _cut(what)))
    notes = []
    if drawn:
        notes.append(f"{drawn} raid{'s' if drawn != 1 else ''} drawn again from the revealed seeds")
    if taken:
        notes.append(
            f"{taken} raid{'s' if taken != 1 else ''} taken from the file's published draws (HMAC), "
            "their effects checked: the export carries no seed (a game not over), so the draws themselves are not"
        )
    return Replay(compared, with_orders, found, [], steps="turns", rules=_rules_label(house), notes=notes)


def _rules_label(house: HouseRules) -> str:
    return f"the game's house rules (victory at {house.victory_vp} VP, bribes from {money.fmt(house.minimum_bribe)})"


def _plans(gmap: GameMap, house: HouseRules, rec: TurnRecord) -> tuple[dict[str, GangPlan], list[str]]:
    """Each gang's plan from its recorded orders, read against the turn's opening
    state as the adjudication read them; an order not accepted again is a difference."""
    assert rec.orders is not None
    plans: dict[str, GangPlan] = {}
    what: list[str] = []
    for gang in gmap.gangs:
        given = rec.orders.get(gang)
        if given is None:
            plans[gang] = GangPlan(gang)
            continue
        go = read_orders("\n".join(given), gmap, rec.state, gang, source=f"{rec.turn}/{gang}", house=house)
        for line in go.lines:
            if line.status != ACCEPTED:
                reason = line.reason.text() if line.reason is not None else line.status
                what.append(f"orders of {gang}: {line.text!r} is not accepted here ({reason})")
        for issue in go.issues:
            what.append(f"orders of {gang}: {issue.text()}")
        plans[gang] = plan_of(gang, go)
    return plans, what


def _open(gmap: GameMap, ours: GameState, theirs: GameState, seed: str | None) -> list[str]:
    """Draw the raid of ``ours`` (its arrested units back already, or none) from
    ``seed``, else apply the raid the file's ``theirs`` records, picked by its published
    HMAC. Returns what cannot be so, a line each."""
    if seed is not None:
        open_turn(gmap, ours, seed)
        return []
    if theirs.raid is None:
        if any(gmap.raid_table.values()):
            return [f"raid: the file's {theirs.turn} has none, but a raid is drawn every turn (R21)"]
        return []
    try:
        draw = draw_of_digest(gmap, theirs.raid.draw)
    except ValueError as exc:
        return [f"raid: the file's {theirs.turn} raid cannot be checked: {exc}"]
    if draw is None:
        return [f"raid: the file's {theirs.turn} has one, but the map has no raid table"]
    ours.raid = apply_raid(gmap, ours, draw, ours.turn)
    ours.normalise(gmap)
    return []


# -- comparing -------------------------------------------------------------------------


def _json(value: Any) -> Any:
    """``value`` as JSON reads it back (tuples as lists, keys as text)."""
    return json.loads(json.dumps(value))


def _state_data(st: GameState) -> Any:
    return _json(state_mod.to_data(st))


def _differences(label: str, ours: Any, theirs: Any, path: str = "") -> list[str]:
    """Each place where ``ours`` and ``theirs`` differ, a line each: ``label: path:
    ours ..., the file's ...``; lists of plain values as what each has that the other
    has not."""
    if ours == theirs:
        return []
    where = f"{label}: {path}" if path else label
    if isinstance(ours, dict) and isinstance(theirs, dict):
        out: list[str] = []
        for key in [*ours, *(k for k in theirs if k not in ours)]:
            sub = f"{path}.{key}" if path else str(key)
            if key not in theirs:
                out.append(f"{label}: {sub}: ours has {_short(ours[key])}; the file has none")
            elif key not in ours:
                out.append(f"{label}: {sub}: the file has {_short(theirs[key])}; ours has none")
            else:
                out += _differences(label, ours[key], theirs[key], sub)
        return out
    if isinstance(ours, list) and isinstance(theirs, list):
        if all(not isinstance(v, dict | list) for v in [*ours, *theirs]):
            mine = [v for v in ours if v not in theirs]
            yours = [v for v in theirs if v not in ours]
            if not mine and not yours:
                return [f"{where}: the same items in another order"]
            return [f"{where}: ours has {_items(mine)}; the file has {_items(yours)}"]
        if len(ours) != len(theirs):
            return [f"{where}: ours has {len(ours)} items; the file has {len(theirs)}"]
        return [
            line
            for i, (a, b) in enumerate(zip(ours, theirs, strict=True))
            for line in _differences(label, a, b, f"{path}[{i}]")
        ]
    return [f"{where}: ours {_short(ours)}, the file's {_short(theirs)}"]


def _items(values: Sequence[Any]) -> str:
    return ", ".join(str(v) for v in values) if values else "nothing more"


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 80 else text[:77] + "..."


def _cut(what: list[str]) -> list[str]:
    if len(what) <= MAX_WHAT:
        return what
    return [*what[:MAX_WHAT], f"... and {len(what) - MAX_WHAT} more"]


def _dollars(value: Any) -> str:
    try:
        return money.fmt(money.dollars(value))
    except ValueError:
        return str(value)


def _position(st: GameState) -> dict[str, list[str]]:
    """A state as the replay prints it: a heading per gang's units and districts,
    then the economy, the arrested and the raid."""
    data: Mapping[str, Any] = _state_data(st)
    out: dict[str, list[str]] = {}
    for gang, units in (data.get("units") or {}).items():
        out[f"units {gang}"] = list(units)
    control: dict[str, list[str]] = {}
    for district, gang in (data.get("control") or {}).items():
        control.setdefault(gang, []).append(district)
    for gang, districts in control.items():
        out[f"control {gang}"] = districts
    for key in ("cash", "stocks", "corruption", "confiscated"):
        items = [f"{k} {_dollars(v) if key == 'cash' else v}" for k, v in (data.get(key) or {}).items()]
        if items:
            out[key] = [", ".join(items)]
    if data.get("arrested"):
        out["arrested"] = ["; ".join(f"{a['gang']} {a['unit']} taken in {a['taken_in']}" for a in data["arrested"])]
    raid = data.get("raid")
    if raid:
        out["raid"] = [f"{raid['district']} by the {raid['by']}, draw {str(raid['draw'])[:16]}..."]
    out["price"] = [_dollars(data.get("price"))]
    if data.get("winners"):
        out["winners"] = list(data["winners"])
    return out
