"""The adjudicator's case catalogue (tests/data/cases/*.yaml): each case is a position,
its orders in canonical form and the expected result of every order, the
dislodged units and every unit's final district. The DATC cases cite the DATC
case they are adapted from; rulings.yaml has at least one case per ruling R4 to
R12. A case may give the gangs' orders files instead (amended.yaml): they are read
by the one order-file reader and the order checker, and the adjudicator must carry
out what the checker accepted. A case may state outcomes as values (``outcomes:``,
as a results file stores them: the kind, the units, supports and strengths). Files
with ``kind: turn`` hold whole turns (R17, R21, R22: turns.yaml), ``kind: classic``
classic Diplomacy results (classic.yaml).
A summary of the counts per section is printed at the end of the run."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import yaml
from repokit import DATA

from moonshine.engine import outcome as oc
from moonshine.game.orderfile import decode
from moonshine.text import money
from moonshine.variants.moonshine.checker import BLANK, COMMENT, HEADER, GangOrders, read_orders
from moonshine.variants.moonshine.map import GameMap, UnitKind, load_map
from moonshine.variants.moonshine.movement import Outcome, ResultCode, adjudicate
from moonshine.variants.moonshine.orders import UNIT_ORDER_TYPES, Retreat, UnitOrder, UnitRef, parse_canonical
from moonshine.variants.moonshine.state import GameState, Unit

CASES = DATA / "cases"
RESULTS = ("succeeds", "fails", "rejected", "void")
UNIT = re.compile(r"^([LH]) ([A-Z]{3})( \(new\))?$")

# section -> [passed, run]; read by the terminal summary in conftest.py
TALLY: dict[str, list[int]] = {}


@dataclass
class Case:
    section: str  # file stem, e.g. datc-6a
    name: str
    description: str
    gmap: GameMap
    state: GameState
    orders: list[tuple[UnitOrder, str, str]]  # order, expected result, reason substring
    retreats: list[Retreat]
    dislodged: dict[UnitRef, str | None]  # unit -> retreated to (None: disbanded)
    final: dict[str, set[str]]  # gang -> {"H LOO", ...}
    datc: str | None = None
    ruling: str | None = None
    raw: dict[str, Any] = field(default_factory=dict)
    # Order files, read and checked as a gang's file is (one reader, one checker):
    # gang -> (text, encoding its bytes are in); the adjudicator gets what the checker
    # accepted. lines: gang -> expected status of each order line ("accepted",
    # "rejected, part of the reason", "replaced").
    files: dict[str, tuple[str, str]] = field(default_factory=dict)
    lines: dict[str, list[str]] = field(default_factory=dict)


@functools.cache
def _map(name: str) -> GameMap:
    return load_map(CASES / name if name.endswith(".yaml") else name)


def _fail(where: str, problem: str) -> ValueError:
    return ValueError(f"{where}: {problem}")


def _unit(text: str, where: str) -> tuple[UnitKind, str, bool]:
    m = UNIT.match(text)
    if not m:
        raise _fail(where, f"expected a unit like 'H LOO' or 'L NSS (new)', found {text!r}")
    return UnitKind(m.group(1)), m.group(2), m.group(3) is not None


def _ref(text: str, where: str) -> UnitRef:
    kind, code, _ = _unit(text, where)
    return UnitRef(kind, code)


def load_case(section: str, raw: dict[str, Any]) -> Case:
    where = f"{section}: {raw.get('name', '?')}"
    for key in ("name", "description", "units", "orders", "dislodged", "final"):
        if key not in raw:
            raise _fail(where, f"missing {key!r}")
    files: dict[str, tuple[str, str]] = {}
    for gang, spec in (raw.get("files") or {}).items():
        if isinstance(spec, str):
            files[gang] = (spec, "utf-8")
        elif isinstance(spec, dict) and isinstance(spec.get("text"), str):
            files[gang] = (spec["text"], str(spec.get("encoding", "utf-8")))
        else:
            raise _fail(where, f"files.{gang}: expected the file's text, or text and encoding")
    gmap = _map(raw.get("map", "chicago-1920s"))
    turn = raw.get("turn", gmap.scenario.start)
    st = GameState(turn=turn, price=gmap.scenario.price)
    for gang, units in raw["units"].items():
        if gang not in gmap.gangs:
            raise _fail(where, f"unknown gang {gang!r}")
        for text in units:
            kind, code, new = _unit(text, where)
            if code not in gmap.districts:
                raise _fail(where, f"unknown district in {text!r}")
            st.units.append(Unit(code, kind, gang, turn if new else ""))
    st.corruption = dict(raw.get("corruption") or {})
    orders: list[tuple[UnitOrder, str, str]] = []
    for item in raw["orders"]:
        if not isinstance(item, dict) or len(item) != 1:
            raise _fail(where, f"an order line is 'ORDER: RESULT', found {item!r}")
        ((text, expected),) = item.items()
        order = parse_canonical(text)
        if not isinstance(order, UNIT_ORDER_TYPES):
            raise _fail(where, f"not a unit order: {text!r}")
        result, _, reason = str(expected).partition(", ")
        if result not in RESULTS:
            raise _fail(where, f"{text}: expected one of {', '.join(RESULTS)}, found {expected!r}")
        orders.append((order, result, reason))
    retreats = []
    for text in raw.get("retreats") or []:
        r = parse_canonical(text)
        if not isinstance(r, Retreat):
            raise _fail(where, f"not a retreat: {text!r}")
        retreats.append(r)
    dislodged = {_ref(u, where): None if to == "disbanded" else str(to) for u, to in (raw["dislodged"] or {}).items()}
    final = {g: {f"{_ref(u, where).text()}" for u in units} for g, units in (raw["final"] or {}).items()}
    return Case(
        section,
        str(raw["name"]),
        str(raw["description"]),
        gmap,
        st,
        orders,
        retreats,
        dislodged,
        final,
        raw.get("datc"),
        raw.get("ruling"),
        raw,
        files,
        {g: [str(x) for x in v] for g, v in (raw.get("lines") or {}).items()},
    )


def _sections(kind: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """The catalogue's files of one kind (movement: the default; turn; classic)."""
    for path in sorted(CASES.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if data.get("kind", "movement") == kind:
            yield path.stem, data


def all_cases() -> Iterator[Case]:
    for section, data in _sections("movement"):
        for raw in data["cases"]:
            yield load_case(section, raw)


CATALOGUE = list(all_cases())


def checked(case: Case) -> dict[str, GangOrders]:
    """Each gang's file, as bytes in its encoding, read by the one order-file reader
    and checked by the order checker."""
    return {
        gang: read_orders(decode(text.encode(encoding)), case.gmap, case.state, gang)
        for gang, (text, encoding) in case.files.items()
    }


def run(case: Case) -> Outcome:
    if case.files:
        orders: dict[UnitRef, UnitOrder] = {}
        retreats: dict[UnitRef, Retreat] = {}
        for go in checked(case).values():
            orders.update(go.unit_orders)
            retreats.update(go.retreats)
        return adjudicate(case.gmap, case.state, orders, retreats)
    orders = {o.unit: o for o, _, _ in case.orders}
    retreats = {r.unit: r for r in case.retreats}
    return adjudicate(case.gmap, case.state, orders, retreats)


def line_problems(case: Case) -> list[str]:
    """Differences between the expected and the actual status of each order line."""
    found: list[str] = []
    for gang, go in checked(case).items():
        got = [ln for ln in go.lines if ln.status not in (COMMENT, BLANK, HEADER)]
        want = case.lines.get(gang, [])
        if len(got) != len(want):
            found.append(f"{gang}: expected {len(want)} order lines, got {[ln.text for ln in got]}")
            continue
        for ln, expected in zip(got, want, strict=True):
            status, _, reason = expected.partition(", ")
            text = "; ".join(m for m in (ln.message, ln.suggestion or "") if m)
            if ln.status != status:
                found.append(f"{gang} line {ln.number} {ln.text!r}: expected {status}, got {ln.status} ({text})")
            elif reason and reason not in text:
                found.append(f"{gang} line {ln.number} {ln.text!r}: expected {reason!r} in {text!r}")
    return found


def problems(case: Case, out: Outcome) -> list[str]:
    """Every difference between the expected and the actual outcome."""
    found: list[str] = []
    for order, expected, reason in case.orders:
        res = out.results.get(order.unit)
        if res is None:
            found.append(f"{order.text()}: no result")
            continue
        actual = (
            "rejected"
            if res.code is ResultCode.REJECTED
            else "void"
            if res.code is ResultCode.VOID
            else "succeeds"
            if res.succeeded
            else "fails"
        )
        if case.files and res.order != order:
            found.append(f"{order.text()}: the adjudicator carried out {res.order.text()} ({res.reason})")
        if actual != expected:
            found.append(f"{order.text()}: expected {expected}, got {actual} ({res.reason})")
        elif reason and reason not in res.reason:
            found.append(f"{order.text()}: expected a reason with {reason!r}, got {res.reason!r}")
    found += outcome_problems(case, out)
    actual_dislodged = {ref: d.retreated_to for ref, d in out.dislodged.items()}
    if actual_dislodged != case.dislodged:
        why = {ref.text(): d.reason for ref, d in out.dislodged.items()}
        found.append(f"dislodged: expected {_show(case.dislodged)}, got {_show(actual_dislodged)} {why}")
    actual_final: dict[str, set[str]] = {}
    for u in out.units:
        actual_final.setdefault(u.gang, set()).add(f"{u.kind.value} {u.district}")
    if actual_final != case.final:
        found.append(f"final: expected {_sets(case.final)}, got {_sets(actual_final)}")
    return found


def outcome_problems(case: Case, out: Outcome) -> list[str]:
    """The outcomes a case states as values (``outcomes: {UNIT: {kind: ..., field:
    value}}``, as a results file stores them; ``retreat`` for a dislodged unit's
    retreat): every field given must be the adjudicator's."""
    found: list[str] = []
    for text, want in (case.raw.get("outcomes") or {}).items():
        where = f"{case.section}: {case.name}: outcomes"
        if text.startswith("retreat "):
            d = out.dislodged.get(_ref(text.removeprefix("retreat "), where))
            got = None if d is None else oc.to_data(d.outcome)
        else:
            r = out.results.get(_ref(text, where))
            got = None if r is None else oc.to_data(r.outcome)
        if got is None:
            found.append(f"{text}: no outcome")
            continue
        wrong = {k: v for k, v in want.items() if got.get(k) != v}
        if wrong:
            found.append(f"{text}: expected the outcome {want}, got {got}")
    return found


def _show(d: dict[UnitRef, str | None]) -> str:
    return "{" + ", ".join(f"{r.text()}: {to or 'disbanded'}" for r, to in sorted(d.items())) + "}"


def _sets(d: dict[str, set[str]]) -> str:
    return "; ".join(f"{g}: {', '.join(sorted(v))}" for g, v in sorted(d.items()))


@pytest.mark.parametrize("case", CATALOGUE, ids=[f"{c.section}:{c.name}" for c in CATALOGUE])
def test_case(case: Case) -> None:
    tally = TALLY.setdefault(case.section, [0, 0])
    tally[1] += 1
    out = run(case)
    found = problems(case, out) + (line_problems(case) if case.files else [])
    assert not found, f"{case.name} ({case.description})\n  " + "\n  ".join(found)
    tally[0] += 1


def test_catalogue_covers_the_datc_and_every_ruling() -> None:
    datc = [c for c in CATALOGUE if c.datc]
    sections = {c.datc.split(".")[1] for c in datc if c.datc}
    assert len(datc) >= 70
    assert {"A", "C", "D", "E", "F", "G", "H"} <= sections
    assert all(re.fullmatch(r"6\.[A-H]\.\d+", c.datc or "") for c in datc)
    rulings = {c.ruling for c in CATALOGUE if c.ruling}
    assert {f"R{n}" for n in range(4, 13)} <= rulings


def test_every_case_orders_only_units_on_its_board() -> None:
    for case in CATALOGUE:
        on_board = {UnitRef(u.kind, u.district) for u in case.state.units}
        for order, _, _ in case.orders:
            assert order.unit in on_board, f"{case.name}: {order.text()} orders no unit of the position"


def test_a_wrong_expectation_is_reported() -> None:
    """The checker itself can fail: flip one expected result and it complains."""
    case = next(c for c in CATALOGUE if c.datc == "6.A.11")
    order, expected, reason = case.orders[0]
    flipped = Case(**{**case.__dict__, "orders": [(order, "succeeds", reason), *case.orders[1:]]})
    assert expected == "fails"
    assert problems(flipped, run(flipped))


def test_a_wrong_outcome_value_is_reported() -> None:
    """The outcomes a case states are compared field by field: change one strength and
    the case fails."""
    case = next(c for c in CATALOGUE if c.name == "R6 an L's support adds 1")
    assert not outcome_problems(case, run(case))
    raw = {
        **case.raw,
        "outcomes": {"H CHI": {**case.raw["outcomes"]["H CHI"], "attack": {"units": ["H CHI"], "strength": 2}}},
    }
    wrong = Case(**{**case.__dict__, "raw": raw})
    assert outcome_problems(wrong, run(wrong))


def summary() -> list[str]:
    """Counts per section, for the terminal summary."""
    if not TALLY:
        return []
    total = [sum(t[0] for t in TALLY.values()), sum(t[1] for t in TALLY.values())]
    parts = [f"{s} {p}/{n}" for s, (p, n) in sorted(TALLY.items())]
    return [f"adjudicator cases passed: {', '.join(parts)} (total {total[0]}/{total[1]})"]


# -- the outcome's API, on the starting position -----------------------------------


def _start() -> tuple[GameMap, GameState]:
    from moonshine.variants.moonshine.state import initial_state

    gmap = _map("chicago-1920s")
    return gmap, initial_state(gmap)


def test_units_without_orders_hold_and_orders_for_absent_units_are_ignored() -> None:
    gmap, st = _start()
    ghost = UnitRef(UnitKind.H, "HYD")  # Valley has an H in HYD
    absent = UnitRef(UnitKind.L, "HYD")  # but no L
    order = parse_canonical("L HYD - KEN")
    assert isinstance(order, UNIT_ORDER_TYPES)
    out = adjudicate(gmap, st, {absent: order})
    assert out.ignored == {absent: "L HYD - KEN: no L HYD on the board"}
    assert set(out.results) == {UnitRef(u.kind, u.district) for u in st.units}
    held = out.results[ghost]
    assert (held.order.text(), held.succeeded, held.code, held.reason, held.given) == (
        "H HYD hold",
        True,
        ResultCode.HELD,
        "held",
        None,
    )
    assert sorted(out.units) == sorted(st.units)


def test_moved_to_and_final_district() -> None:
    gmap, st = _start()
    move = parse_canonical("H LOO - GOL")  # Valley's H into Unione's L
    hold = parse_canonical("L GOL hold")
    assert isinstance(move, UNIT_ORDER_TYPES) and isinstance(hold, UNIT_ORDER_TYPES)
    retreat = parse_canonical("retreat L GOL - LIP, POL, LOO")
    assert isinstance(retreat, Retreat)
    out = adjudicate(gmap, st, {move.unit: move, hold.unit: hold}, {retreat.unit: retreat})
    assert out.moved_to(move.unit) == "GOL" and out.final_district(move.unit) == "GOL"
    assert out.moved_to(hold.unit) is None
    # LIP and POL hold Unione's own L; LOO was left by the attacker, who crossed the border.
    assert out.dislodged[hold.unit].retreated_to is None
    assert out.dislodged[hold.unit].reason == (
        "disbanded: no usable retreat (LIP: own L stands there; POL: own L stands there; "
        "LOO: the attacker came from there)"
    )
    assert out.final_district(hold.unit) is None
    assert out.results[hold.unit].reason == "dislodged by H LOO - GOL"


def test_the_outcome_is_the_same_every_time() -> None:
    gmap, st = _start()
    texts = ["H LOO - GOL", "L GOL / H LIT - LOO", "H LIT - LOO", "L BRO - FIV", "H HYD x SSH", "H NSS / H LOO"]
    orders = {o.unit: o for o in map(parse_canonical, texts) if isinstance(o, UNIT_ORDER_TYPES)}
    first, second = adjudicate(gmap, st, orders), adjudicate(gmap, st, dict(reversed(orders.items())))
    assert first == second


@pytest.mark.parametrize(
    ("choice", "datc"),
    [
        ({"dislodged_unit_bounces_unless_head_to_head": False}, "6.G.10"),  # DATC 4.A.7 choice a
        ({"paradox_rule": "all-fail"}, "6.F.14"),  # not Szykman
        ({"transport_from_target_cuts_support": True}, "6.G.13"),  # DATC 4.A.4 choice b
        ({"retreat_to_transported_attackers_origin": False}, "6.H.11"),  # DATC 4.A.5 choice a
        ({"own_carrier_means_transport": False}, "6.G.1"),  # DPTG: only named carriers
    ],
)
def test_each_rule_choice_decides_its_datc_case(choice: dict[str, Any], datc: str) -> None:
    """The rule choices are live: the other answer to a DATC issue changes its case."""
    import msgspec

    from moonshine.variants.moonshine.movement import MOONSHINE

    case = next(c for c in CATALOGUE if c.datc == datc)
    orders = {o.unit: o for o, _, _ in case.orders}
    retreats = {r.unit: r for r in case.retreats}
    assert not problems(case, run(case))
    other = adjudicate(case.gmap, case.state, orders, retreats, rules=msgspec.structs.replace(MOONSHINE, **choice))
    assert problems(case, other)


# -- one reading of an orders file ---------------------------------------------------------

FILE_CASES = [c for c in CATALOGUE if c.files]


@pytest.mark.parametrize("case", FILE_CASES, ids=[c.name for c in FILE_CASES])
def test_adjudicate_and_the_inbox_read_a_file_as_check_does(case: Case, tmp_path: Path) -> None:
    """`moonshine adjudicate` (runner.read_plan) and the inbox (intake.decode_part, an
    attached file with no charset) read the bytes of each case's file as `check`
    does: the same text, the same accepted orders."""
    import email

    from moonshine.game.jobs import read_plan
    from moonshine.mail.intake import decode_part

    for gang, go in checked(case).items():
        text, encoding = case.files[gang]
        data = text.encode(encoding)
        path = tmp_path / f"{gang}.txt"
        path.write_bytes(data)
        plan, sub = read_plan(case.gmap, case.state, gang, path, relative_to=tmp_path)
        assert plan.unit_orders == go.unit_orders and plan.retreats == go.retreats
        assert [ln.status for ln in sub.lines] == [ln.status for ln in go.lines if ln.status not in (BLANK, COMMENT)]
        part = email.message_from_bytes(b"Content-Type: text/plain\r\nContent-Transfer-Encoding: 8bit\r\n\r\n" + data)
        assert decode_part(part).splitlines() == text.splitlines()


# -- whole turns (files with kind: turn) ----------------------------------------------------
# A case gives a state (as state.yaml says it), each gang's orders file per turn, and
# what the turn did: the adjustments (R17, R18), the arrested units' returns at the
# next turn's opening (R22), the next state's units and arrested units, production
# (R14) and the next raid (R21 to R23). `raid_table` replaces the map's (R21: {} for
# no raids).


@dataclass
class TurnCase:
    section: str
    name: str
    description: str
    ruling: str | None
    gmap: GameMap
    state: GameState
    seed: str
    turns: list[dict[str, Any]]


def load_turn_case(section: str, raw: dict[str, Any]) -> TurnCase:
    import msgspec

    from moonshine.variants.moonshine import state as state_mod

    where = f"{section}: {raw.get('name', '?')}"
    for key in ("name", "description", "state", "turns"):
        if key not in raw:
            raise _fail(where, f"missing {key!r}")
    gmap = _map(raw.get("map", "chicago-1920s"))
    if "raid_table" in raw:
        gmap = msgspec.structs.replace(gmap, raid_table=dict(raw["raid_table"] or {}))
    st = state_mod.from_data(raw["state"], gmap, source=where)
    return TurnCase(
        section,
        str(raw["name"]),
        str(raw["description"]),
        raw.get("ruling"),
        gmap,
        st,
        str(raw.get("seed", "s")),
        raw["turns"],
    )


TURN_CASES = [load_turn_case(section, raw) for section, data in _sections("turn") for raw in data["cases"]]


def turn_problems(case: TurnCase) -> list[str]:
    from moonshine.variants.moonshine import state as state_mod
    from moonshine.variants.moonshine.turn import GangPlan, run_turn

    found: list[str] = []
    st = case.state
    for n, step in enumerate(case.turns, 1):
        plans: dict[str, GangPlan] = {}
        for gang, text in (step.get("files") or {}).items():
            go = read_orders(text, case.gmap, st, gang)
            plans[gang] = GangPlan(
                gang,
                True,
                dict(go.unit_orders),
                dict(go.retreats),
                list(go.recruits),
                list(go.disbands),
                go.sell,
                go.store,
                list(go.bribes),
            )
        res = run_turn(case.gmap, st, plans, case.seed)
        nxt = state_mod.from_data(state_mod.to_data(res.next_state), case.gmap)  # as saved and read back
        data = state_mod.to_data(nxt)
        expect = step.get("expect") or {}
        actual: dict[str, Any] = {
            "adjustments": [f"{a.gang} {a.kind}: {a.text}" for a in res.adjustments],
            "returns": [
                f"{r.arrested.gang} {r.arrested.kind.value} {r.arrested.taken_in} -> "
                + (r.unit.district if r.unit is not None else "disbanded")
                for r in res.returns
            ],
            "next_units": data["units"],
            "next_arrested": data["arrested"],
            "produced": {g: res.ledgers[g].produced for g in (expect.get("produced") or {})},
            "next_raid": None if nxt.raid is None else {k: data["raid"][k] for k in expect.get("next_raid") or {}},
            "winners": list(res.winners),
            "next_price": money.fmt(res.new_price),
            "price_reason": res.price_why.text(),
        }
        for key, want in expect.items():
            if key not in actual:
                found.append(f"turn {n} ({st.turn}): unknown expectation {key!r}")
            elif actual[key] != want:
                found.append(f"turn {n} ({st.turn}) {key}: expected {want}, got {actual[key]}")
        st = nxt
    return found


@pytest.mark.parametrize("case", TURN_CASES, ids=[f"{c.section}:{c.name}" for c in TURN_CASES])
def test_turn_case(case: TurnCase) -> None:
    tally = TALLY.setdefault(case.section, [0, 0])
    tally[1] += 1
    found = turn_problems(case)
    assert not found, f"{case.name} ({case.description})\n  " + "\n  ".join(found)
    tally[0] += 1


# -- classic Diplomacy (files with kind: classic) -------------------------------------------
# units: "POWER: A PAR" lines; orders: "POWER: ORDER" -> "succeeds|fails[, reason part]".

CLASSIC_CASES = [(section, raw) for section, data in _sections("classic") for raw in data["cases"]]


@pytest.mark.parametrize(("section", "raw"), CLASSIC_CASES, ids=[f"{s}:{r['name']}" for s, r in CLASSIC_CASES])
def test_classic_case(section: str, raw: dict[str, Any]) -> None:
    from moonshine.variants.classic.board import Kind, region_code, standard_map
    from moonshine.variants.classic.movement import adjudicate_movement
    from moonshine.variants.classic.orders import Order, parse_order
    from moonshine.variants.classic.state import Unit as ClassicUnit

    tally = TALLY.setdefault(section, [0, 0])
    tally[1] += 1
    units = []
    for line in raw["units"]:
        power, _, rest = line.partition(": ")
        kind, loc = rest.split()
        units.append(ClassicUnit(power, Kind(kind), region_code(loc)))
    orders: dict[str, list[Order]] = {}
    expected = []
    for item in raw["orders"]:
        ((line, want),) = item.items()
        power, _, text = line.partition(": ")
        order = parse_order(text)
        orders.setdefault(power, []).append(order)
        expected.append((power, order.text(), str(want)))
    out = adjudicate_movement(standard_map(), units, orders)
    found = []
    for power, text, want in expected:
        result, _, reason = want.partition(", ")
        got = next((r for r in out.results if r.power == power and r.order == text), None)
        if got is None:
            found.append(f"{power}: {text}: no result")
        elif ("succeeds" if got.succeeded else "fails") != result or reason not in got.reason:
            found.append(f"{power}: {text}: expected {want!r}, got {got.succeeded} ({got.reason})")
    assert not found, f"{raw['name']} ({raw['description']})\n  " + "\n  ".join(found)
    tally[0] += 1
