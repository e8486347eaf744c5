"""The DATC v3.0 chapter 6 cases (tests/data/classic_datc_cases.json) and the cases of
"The Math of Adjudication" (tests/data/classic_dipmath_cases.json), run through the
classic variant: the same resolver that adjudicates Moonshine.

Where a case comes in several rules editions, the 2023 one is run; where it has
none, the 1982 one, which the DATC says the 2000/2023 rules agree with. The
data's few errors are corrected by tests/data/classic_datc_corrections.yaml, each
with the DATC's own words; docs/datc.md lists them. A summary of passed/total is
printed at the end of the run (tests/conftest.py).

Conventions of the data: units come from ``starting_state`` and, in the movement
phases, from the orders themselves (a unit is implied where the province is not
already taken). A support "succeeds" when it is given (legal, matching, not
cut), a convoy when its fleet keeps its place in the convoy (legal, matching,
not dislodged, not held by the paradox rule), a hold when the unit is not
dislodged, a retreat when the unit reaches its destination. In the build cases
a power owns its home centres and every supply centre one of its units stands
in, and ``occupiers`` overrides.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import pytest
import yaml
from repokit import DATA

from moonshine.engine.rulebook import Rulebook
from moonshine.variants.classic.adjustments import adjudicate_adjustments
from moonshine.variants.classic.board import Kind, region_code, standard_map
from moonshine.variants.classic.movement import MovementOutcome, Result, adjudicate_movement
from moonshine.variants.classic.orders import Order, parse_order
from moonshine.variants.classic.retreats import adjudicate_retreats
from moonshine.variants.classic.rules import CLASSIC
from moonshine.variants.classic.state import Unit

SOURCES = {"datc": DATA / "classic_datc_cases.json", "dipmath": DATA / "classic_dipmath_cases.json"}
CORRECTIONS = DATA / "classic_datc_corrections.yaml"
EDITION_PREFERENCE = ("2023", "1982")

# section ("6.A", "dipmath") -> [passed, run]; read by the terminal summary in conftest.py
TALLY: dict[str, list[int]] = {}


def _select(cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    by_name: dict[str, list[dict[str, Any]]] = {}
    for c in cases:
        by_name.setdefault(c["name"], []).append(c)
    chosen = []
    for name, variants in by_name.items():
        if len(variants) == 1 and "edition" not in variants[0]:
            chosen.append(variants[0])
            continue
        editions = {v.get("edition"): v for v in variants}
        pick = next((editions[e] for e in EDITION_PREFERENCE if e in editions), None)
        assert pick is not None, f"{name}: no 2023 or 1982 edition among {sorted(map(str, editions))}"
        chosen.append(pick)
    return chosen


def _load() -> list[tuple[str, dict[str, Any]]]:
    corrections = yaml.safe_load(CORRECTIONS.read_text(encoding="utf-8")) or {}
    out = []
    for source, path in SOURCES.items():
        for case in _select(json.loads(path.read_text(encoding="utf-8"))["cases"]):
            fix = corrections.get(case["name"])
            if fix is not None:
                case = {**case, **fix["replace"], "corrected": fix["reason"]}
            section = case["url"].rsplit("#", 1)[1].rsplit(".", 1)[0] if source == "datc" else source
            out.append((section, case))
    return out


CASES = _load()


# -- reading the data's notation ------------------------------------------------------


def _split(line: str) -> tuple[str, str]:
    power, rest = line.split(":", 1)
    assert power in standard_map().powers, f"unknown power in {line!r}"
    return power, rest.strip()


def _unit(line: str) -> Unit:
    power, rest = _split(line)
    kind, loc = rest.split()
    return Unit(power, Kind(kind), region_code(loc))


def _orders(lines: Mapping[str, Any]) -> tuple[dict[str, list[Order]], list[tuple[str, Order, Any]]]:
    by_power: dict[str, list[Order]] = {}
    expected = []
    for line, want in lines.items():
        power, text = _split(line)
        order = parse_order(text)
        by_power.setdefault(power, []).append(order)
        expected.append((power, order, want))
    return by_power, expected


def _board(starting: list[str], implied: list[tuple[str, Order, Any]]) -> list[Unit]:
    units = {u.province: u for u in map(_unit, starting)}
    for power, order, _ in implied:
        ref = getattr(order, "unit", None)
        if ref is not None and ref.province not in units:
            units[ref.province] = Unit(power, ref.kind, ref.region)
    return list(units.values())


def _movement_result(out: MovementOutcome, power: str, order: Order) -> Result:
    prov = order.unit.province  # type: ignore[union-attr]
    r = out.result_for(prov)
    if r is not None and r.power == power:
        return r
    return next(x for x in out.ignored if x.power == power and x.order == order.text())


def _check(problems: list[str], what: str, want: Any, got: Result) -> None:
    if want is None:
        return
    ok = want == "Succeeds"
    if got.succeeded != ok:
        problems.append(f"{what}: expected {want}, got {'Succeeds' if got.succeeded else 'Fails'} ({got.reason})")


def _run_main(case: dict[str, Any], problems: list[str], rules: Rulebook = CLASSIC) -> MovementOutcome:
    gmap = standard_map()
    orders, expected = _orders(case["orders"])
    units = _board(case.get("starting_state", []), expected)
    out = adjudicate_movement(gmap, units, orders, rules=rules)
    for power, order, want in expected:
        _check(problems, f"{power}: {order.text()}", want, _movement_result(out, power, order))
    return out


def _run_retreat(case: dict[str, Any], problems: list[str], rules: Rulebook = CLASSIC) -> None:
    gmap = standard_map()
    main = _run_main(case["preceding_main_phase"], problems, rules)
    orders, expected = _orders(case["orders"])
    out = adjudicate_retreats(gmap, main.units, main.dislodged, main.contested, orders)
    for power, order, want in expected:
        prov = order.unit.province  # type: ignore[union-attr]
        got = next((r for r in out.results if r.power == power and r.unit.split()[1].split("/")[0] == prov), None)
        if got is None:
            got = next(x for x in out.ignored if x.power == power and x.order == order.text())
        _check(problems, f"retreat {power}: {order.text()}", want, got)


def _run_build(case: dict[str, Any], problems: list[str]) -> None:
    gmap = standard_map()
    units = [_unit(s) for s in case.get("starting_state", [])]
    owners = {c: p for p in gmap.powers for c in gmap.home_centres(p)}
    for u in units:
        if gmap.provinces[u.province].supply:
            owners[u.province] = u.power
    for prov, power in (case.get("occupiers") or {}).items():
        owners[prov.upper()] = power
    orders, expected = _orders(case["orders"])
    out = adjudicate_adjustments(gmap, units, owners, orders)
    results = list(out.results)
    for power, order, want in expected:
        i = next(k for k, r in enumerate(results) if r.power == power and r.order == order.text())
        got = results.pop(i)
        if want is not None:
            _check(problems, f"{power}: {order.text()}", "Succeeds" if want == "Succeeds" else "Fails", got)
    if "civil_disorder" in case:
        want_cd = sorted(case["civil_disorder"])
        got_cd = sorted(f"{u.power}: {u.kind.value} {u.region.lower()}" for u in out.civil_disorder)
        if want_cd != got_cd:
            problems.append(f"civil disorder: expected {want_cd}, got {got_cd}")


@pytest.mark.parametrize(("section", "case"), CASES, ids=[c["name"] for _, c in CASES])
def test_datc_case(section: str, case: dict[str, Any]) -> None:
    tally = TALLY.setdefault(section, [0, 0])
    tally[1] += 1
    problems: list[str] = []
    phase = case["phase"]
    if phase == "Main":
        _run_main(case, problems)
    elif phase == "Retreat":
        _run_retreat(case, problems)
    else:
        _run_build(case, problems)
    assert not problems, f"{case['name']} ({case['url']}):\n  " + "\n  ".join(problems)
    tally[0] += 1


def summary() -> list[str]:
    """Counts per section, for the terminal summary."""
    if not TALLY:
        return []
    passed = sum(t[0] for t in TALLY.values())
    run = sum(t[1] for t in TALLY.values())
    parts = [f"{s} {p}/{n}" for s, (p, n) in sorted(TALLY.items())]
    return [f"DATC cases passed (classic variant): {', '.join(parts)} (total {passed}/{run})"]


# -- the classic book's rule choices are live ---------------------------------------------


@pytest.mark.parametrize(
    ("choice", "name"),
    [
        ({"paradox_rule": "all-fail"}, "t6f14_simple_convoy_paradox"),  # not Szykman
        ({"dislodged_unit_bounces_unless_head_to_head": False}, "t6g10_swapped_or_an_head_to_head_battle"),
        ({"transport_from_target_cuts_support": True}, "t6g13_support_cut_on_attack_on_itself_via_convoy"),
        ({"own_carrier_means_transport": False}, "t6g01_two_units_can_swap_provinces_by_convoy"),
        ({"strengths": {"A": 2, "F": 1}}, "t6d07_support_to_hold_on_moving_unit_not_allowed"),
    ],
)
def test_each_classic_rule_choice_decides_its_datc_case(choice: dict[str, Any], name: str) -> None:
    """Every choice of the classic book is read by the classic adjudication: the other
    answer changes its case (as the Moonshine book's do, tests/variants/test_cases.py)."""
    import msgspec

    from moonshine.variants.classic.rules import CLASSIC

    case = next(c for _, c in CASES if c["name"] == name)
    problems: list[str] = []
    _run_main(case, problems)
    assert problems == []
    _run_main(case, problems, rules=msgspec.structs.replace(CLASSIC, **choice))
    assert problems


def test_retreat_to_a_convoyed_attackers_origin_is_a_choice() -> None:
    """DATC 4.A.5 (6.H.11): with the other answer, the dislodged unit may not retreat
    where the convoyed attacker came from."""
    import msgspec

    from moonshine.variants.classic.rules import CLASSIC

    case = next(c for _, c in CASES if c["url"].endswith("#6.H.11"))
    problems: list[str] = []
    _run_retreat(case, problems)
    assert problems == []
    _run_retreat(case, problems, rules=msgspec.structs.replace(CLASSIC, retreat_to_transported_attackers_origin=False))
    assert problems


def test_a_supporters_strength_is_a_choice_of_the_book() -> None:
    """With every classic unit of strength 1 a support adds 1 either way; with armies
    of strength 2, the book's choice decides 6.E.4."""
    import msgspec

    from moonshine.variants.classic.rules import CLASSIC

    case = next(c for _, c in CASES if c["name"] == "t6e04_non_dislodged_loser_has_still_effect")
    strong = msgspec.structs.replace(CLASSIC, strengths={"A": 2, "F": 1})
    one: list[str] = []
    other: list[str] = []
    _run_main(case, one, strong)
    _run_main(case, other, msgspec.structs.replace(strong, support_adds_supporter_strength=True))
    assert one != other
