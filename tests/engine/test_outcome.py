"""Outcomes are values: the adjudicator's results name the units, supports and
strengths of a contest; one explainer turns them into sentences; they round-trip
through the data a results file stores."""

from __future__ import annotations

import random

import pytest
from positionkit import random_orders, random_position, random_retreats

from moonshine.engine import outcome as oc
from moonshine.variants.moonshine.map import UnitKind, load_map
from moonshine.variants.moonshine.movement import adjudicate
from moonshine.variants.moonshine.orders import UNIT_ORDER_TYPES, UnitRef, parse_canonical
from moonshine.variants.moonshine.state import GameState, Unit


def _position(units: dict[str, list[str]], orders: list[str]) -> dict[UnitRef, oc.Result]:
    gmap = load_map("chicago-1920s")
    st = GameState(turn=gmap.scenario.start, price=gmap.scenario.price)
    for gang, us in units.items():
        for u in us:
            kind, code = u.split()
            st.units.append(Unit(code, UnitKind(kind), gang, ""))
    parsed = [parse_canonical(t) for t in orders]
    out = adjudicate(gmap, st, {o.unit: o for o in parsed if isinstance(o, UNIT_ORDER_TYPES)})
    return {ref: r.outcome for ref, r in out.results.items()}


def test_a_failed_move_names_both_sides_with_their_supports_and_strengths() -> None:
    # R6: an H with an L's support (3) does not beat an H with an L's hold support (2 + 1).
    results = _position(
        {"valley": ["H NSS", "L LOO"], "genna": ["H CHI", "L BRO"]},
        ["H NSS hold", "L LOO / H NSS", "H CHI - NSS", "L BRO / H CHI - NSS"],
    )
    held_off = results[UnitRef(UnitKind.H, "CHI")]
    assert held_off == oc.HeldOff(oc.Force(("H CHI",), 3, ("L BRO",)), oc.Force(("H NSS",), 3, ("L LOO",)))
    assert oc.explain(held_off) == "held off: H CHI with L BRO's support (3) against H NSS with L LOO's support (3)"
    assert oc.explain(held_off, "fr") == (
        "repoussée\u00a0: H CHI avec le soutien de L BRO (3) contre H NSS avec le soutien de L LOO (3)"
    )
    assert results[UnitRef(UnitKind.H, "NSS")] == oc.Held(("H CHI",))
    assert results[UnitRef(UnitKind.L, "LOO")] == oc.SupportGiven(1)


def test_a_bounce_between_rivals_names_each_rival_force() -> None:
    got = oc.Bounced(oc.Force(("H NSS",), 3, ("L BRO",)), (oc.Force(("H CHI",), 4, ("H PIL",)),))
    assert oc.explain(got) == "bounced: H NSS with L BRO's support (3) against H CHI with H PIL's support (4)"
    assert oc.from_data(oc.to_data(got)) == got
    assert oc.to_data(got) == {
        "kind": "bounced",
        "attack": {"units": ["H NSS"], "strength": 3, "supports": ["L BRO"]},
        "against": [{"units": ["H CHI"], "strength": 4, "supports": ["H PIL"]}],
    }


def test_every_outcome_of_random_turns_round_trips() -> None:
    gmap = load_map("chicago-1920s")
    seen: set[str] = set()
    for seed in range(150):
        rnd = random.Random(seed)
        st = random_position(rnd, gmap)
        out = adjudicate(gmap, st, random_orders(rnd, gmap, st), random_retreats(rnd, gmap, st))
        values = [r.outcome for r in out.results.values()] + [d.outcome for d in out.dislodged.values()]
        for v in values + [a.outcome for a in out.assaults]:
            seen.add(v.kind)
            back = oc.from_data(oc.to_data(v))
            assert back == v
            assert oc.explain(back) == oc.explain(v)
    assert {"held", "moved", "bounced", "held off", "support given", "support cut", "void", "rejected"} <= seen


@pytest.mark.parametrize("data", [{"kind": "teleported"}, {"kind": "held", "colour": "red"}])
def test_unknown_outcomes_and_fields_are_refused(data: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        oc.from_data(data)


def test_each_family_gives_the_words_its_explanations_use() -> None:
    from moonshine import variants
    from moonshine.variants.classic.rules import WORDING

    moonshine_words = variants.get("moonshine").layout.wording
    assert moonshine_words == oc.DEFAULT_WORDING
    assert variants.get("classic").layout.wording is variants.get("pure").layout.wording is WORDING
    said = {
        (oc.Carried("H LOO", "NSS"), "carried H LOO to NSS", "convoyed H LOO to NSS"),
        (oc.SupportGiven(2), "support given (+2)", "support given"),
        (
            oc.Blocked("H LOO", "NSS", head_to_head=True),
            "blocked by own H LOO coming the other way",
            "blocked by own H LOO",
        ),
    }
    for value, moonshine_text, classic_text in said:
        assert oc.explain(value, "en", moonshine_words) == oc.explain(value) == moonshine_text
        assert oc.explain(value, "en", WORDING) == classic_text
