"""The classic order check and the adjudication agree (property): on random
positions of the standard board and random order files, every line the check
accepts is carried out as given (its result is not "illegal" nor "ignored"), and
every line it rejects is not."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from positionkit import units_in

from moonshine.render.classic.ack import check_orders, read_line
from moonshine.variants.classic.board import standard_map
from moonshine.variants.classic.movement import adjudicate_movement
from moonshine.variants.classic.state import ClassicState, Phase, Season, Step

GMAP = standard_map()
PROVINCES = sorted(GMAP.provinces)
POWERS = sorted(GMAP.powers)
EXAMPLES = int(os.environ.get("MOONSHINE_AGREEMENT_EXAMPLES", "60"))


@st.composite
def positions(draw: st.DrawFn) -> ClassicState:
    chosen = draw(st.lists(st.sampled_from(PROVINCES), min_size=2, max_size=14, unique=True))
    units = units_in(draw, chosen)
    state = ClassicState(Phase(1901, Season.SPRING, Step.MOVEMENT), units, {})
    state.normalise()
    return state


@st.composite
def order_lines(draw: st.DrawFn, state: ClassicState) -> list[str]:
    ordered = draw(st.lists(st.sampled_from(state.units), min_size=1, max_size=3, unique=True))
    lines = []
    for _ in range(draw(st.integers(1, 8))):
        unit = draw(st.sampled_from(ordered))  # few units, so that some get several orders
        # as players write it: the unit with or without its type (the power's unit there)
        me = draw(st.sampled_from([f"{unit.kind.value} {unit.region}", unit.region]))
        other = draw(st.sampled_from(state.units))
        them = f"{other.kind.value} {other.region}"
        near = sorted(GMAP.near[unit.province] | GMAP.near[other.province])
        dest = draw(st.sampled_from(near + [u.province for u in state.units] + PROVINCES[:3]))
        # a province by its code, or its name in English or French
        dest = draw(st.sampled_from([dest, GMAP.province_name(dest), GMAP.province_name(dest, "fr")]))
        lines.append(
            draw(
                st.sampled_from(
                    [
                        f"{me} H",
                        f"{me} - {dest}",
                        f"{me} S {them}",
                        f"{me} S {them} - {dest}",
                        f"{me} C {them} - {dest}",
                    ]
                )
            )
        )
    return lines


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_check_and_adjudication_agree(data: st.DataObject) -> None:
    state = data.draw(positions())
    power = data.draw(st.sampled_from(sorted({u.power for u in state.units})))
    lines = data.draw(order_lines(state))
    ack = check_orders(GMAP, state, power, "\n".join(lines))
    # the adjudication reads each line as the acknowledgement does (families.classic.read_orders)
    read = [read_line(GMAP, state, power, n, line).order for n, line in enumerate(lines, 1)]
    orders = [order for order in read if order is not None]
    moved = adjudicate_movement(GMAP, state.units, {power: orders})
    carried = {r.order for r in moved.results if r.power == power and not r.reason.startswith("illegal")}
    for line, order in zip(ack.lines, read, strict=True):
        assert line.order == order  # the check and the adjudication read the line alike
        if line.order is None:  # a unit without its type that is not the power's: read by neither
            continue
        text = line.order.text()
        if line.ok:
            assert text in carried, (line, moved.results)
        else:
            assert text not in carried or any(other.ok and other.order == line.order for other in ack.lines), (
                line,
                moved.results,
            )
