"""Moonshine's rules of adjudication tested directly, not only through one seeded
game's outcome (each a behaviour a deliberate bug changed while every test passed,
``scripts/mutants.py``): a station emptied of its loot by a successful assault, the raid
draw's boundaries in the raid table, and the alphabetical order in which arrested units
come back (R22, amended)."""

from __future__ import annotations

from moonshine.variants.moonshine.map import GameMap, UnitKind
from moonshine.variants.moonshine.orders import Assault, Sell, SupportAssault, UnitRef
from moonshine.variants.moonshine.police import draw_of_digest, return_arrested, return_order
from moonshine.variants.moonshine.state import Arrested, GameState, Unit
from moonshine.variants.moonshine.turn import GangPlan, run_turn

SEED = "police-rules"


def quiet(start: GameState) -> GameState:
    """The starting position with no raid this turn."""
    s = start.copy()
    s.raid = None
    return s


def plan(gang: str, *orders: Assault | SupportAssault | Sell) -> GangPlan:
    p = GangPlan(gang, submitted=True)
    for o in orders:
        if isinstance(o, Sell):
            p.sell = o
        else:
            p.unit_orders[o.unit] = o
    return p


def test_a_successful_assault_empties_the_station_of_its_loot(chicago: GameMap, start: GameState) -> None:
    s = quiet(start)
    s.confiscated["LAK"] = 4
    s.corruption["LAK"] = "outfit"  # the station's strength against the outfit is 3 (R11)
    h = UnitRef(UnitKind.H, "LAK")
    p = plan("outfit", Assault(h, "LAK"), SupportAssault(UnitRef(UnitKind.H, "NOC"), h, "LAK"), Sell(0))
    r = run_turn(chicago, s, {"outfit": p}, SEED)
    assert r.ledgers["outfit"].looted == 4
    assert r.next_state.confiscated.get("LAK", 0) == 0  # taken: the station holds no more
    again = r.next_state.copy()
    again.raid = None
    again.cash["outfit"] = 2000
    support = SupportAssault(UnitRef(UnitKind.H, "NOC"), h, "LAK")
    r2 = run_turn(chicago, again, {"outfit": plan("outfit", Assault(h, "LAK"), support)}, SEED)
    assert r2.ledgers["outfit"].looted == 0  # nothing seized twice


def test_the_raid_draw_walks_the_table_with_its_boundaries(chicago: GameMap) -> None:
    """R21: the draw's number modulo the table's total weight, the entries taken in
    their listed order, each covering [its start, its start + its weight)."""
    table = list(chicago.raid_table.items())
    total = sum(w for _, w in table)
    start = 0
    for district, weight in table:
        for index in {start, start + weight - 1}:  # the first and the last number of the entry
            picked = draw_of_digest(chicago, f"{index:064x}")
            assert picked is not None and picked.district == district, (index, district)
            assert picked.index == index and picked.total == total
        start += weight
    wrapped = draw_of_digest(chicago, f"{total:064x}")  # the total itself: back to the first entry
    assert wrapped is not None and wrapped.district == table[0][0] and wrapped.index == 0
    last = draw_of_digest(chicago, f"{2 * total - 1:064x}")
    assert last is not None and last.district == table[-1][0]


def test_arrested_units_come_back_in_the_order_of_gang_then_station_then_district() -> None:
    units = [
        Arrested("LOO", UnitKind.H, "valley", "NSS"),
        Arrested("AVO", UnitKind.H, "valley", "CHI"),
        Arrested("LOO", UnitKind.L, "outfit", "LOO"),
        Arrested("LOO", UnitKind.H, "outfit", "ALB"),
        Arrested("AVO", UnitKind.H, "northside", "LIN"),
    ]
    order = [(a.gang, a.station, a.taken_in) for a in sorted(units, key=return_order)]
    assert order == [
        ("northside", "AVO", "LIN"),
        ("outfit", "LOO", "ALB"),
        ("outfit", "LOO", "LOO"),
        ("valley", "AVO", "CHI"),
        ("valley", "LOO", "NSS"),
    ]


def test_two_gangs_arrested_at_one_station_the_first_by_key_gets_it(chicago: GameMap, start: GameState) -> None:
    s = start.copy()
    s.units = [u for u in s.units if u.district not in ("LOG", "NOC")]
    s.arrested = [
        Arrested("LOG", UnitKind.H, "outfit", "NOC"),
        Arrested("LOG", UnitKind.H, "northside", "LOG"),
    ]
    back = return_arrested(chicago, s)
    assert [r.arrested.gang for r in back] == ["northside", "outfit"]  # alphabetical: northside first
    assert back[0].unit == Unit("LOG", UnitKind.H, "northside")
    assert back[1].unit is not None and back[1].unit.district != "LOG"  # the station was taken
