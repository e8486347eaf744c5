"""Raids (R21 to R23) and arrested units' return (R22)."""

from __future__ import annotations

import hashlib
import hmac

import pytest

from moonshine.variants.moonshine.map import GameMap, UnitKind
from moonshine.variants.moonshine.police import Draw, apply_raid, draw_of_digest, draw_raid, open_turn, return_arrested
from moonshine.variants.moonshine.state import Arrested, GameState, Unit


def test_draw_recomputed_independently(chicago: GameMap) -> None:
    # Recompute R21 by hand: HMAC-SHA256(seed, turn), big-endian, modulo total weight.
    seed, turn = "sample-game-1", "spring-1924"
    value = int.from_bytes(hmac.new(seed.encode(), turn.encode(), hashlib.sha256).digest(), "big")
    table = list(chicago.raid_table.items())
    total = sum(w for _, w in table)
    assert total == 93
    index = value % total
    picked = None
    for district, weight in table:
        if index < weight:
            picked = district
            break
        index -= weight
    draw = draw_raid(chicago, seed, turn)
    assert draw is not None and draw.district == picked == "NOC"
    assert draw.total == total


def _draw(district: str) -> Draw:
    return Draw(district, 0, "00", 1, 0)


def test_police_raid_on_a_warehouse(chicago: GameMap, start: GameState) -> None:
    s = start.copy()
    raid = apply_raid(chicago, s, _draw("NOC"), "spring-1924")
    assert raid.by == "police" and raid.station == "LOG" and raid.controller == "outfit"
    assert raid.crates == 5 and s.stocks["NOC"] == 0 and s.confiscated["LOG"] == 5
    assert s.unit_at(UnitKind.H, "NOC") is None
    assert s.arrested == [Arrested("LOG", UnitKind.H, "outfit", "NOC")]
    assert s.control["NOC"] == "outfit"  # a warehouse stays controlled


def test_raid_on_a_speakeasy_returns_it_to_neutral(chicago: GameMap, start: GameState) -> None:
    s = start.copy()
    raid = apply_raid(chicago, s, _draw("UPT"), "spring-1924")
    assert raid.speakeasy_closed and "UPT" not in s.control


def test_corrupted_station_spares_its_gang_but_not_another(chicago: GameMap, start: GameState) -> None:
    s = start.copy()
    s.corruption["LOG"] = "outfit"
    raid = apply_raid(chicago, s, _draw("NOC"), "spring-1924")
    assert raid.spared and raid.crates == 0 and s.stocks["NOC"] == 5
    assert s.unit_at(UnitKind.H, "NOC") is not None and raid.spared_units == ("outfit H NOC",)
    t = start.copy()
    t.corruption["LOG"] = "northside"
    raid = apply_raid(chicago, t, _draw("NOC"), "spring-1924")
    assert not raid.spared and t.stocks["NOC"] == 0 and t.unit_at(UnitKind.H, "NOC") is None


def test_untouchables_destroy_and_cannot_be_corrupted(chicago: GameMap, start: GameState) -> None:
    s = start.copy()
    s.turn = "spring-1929"
    s.corruption["LOG"] = "outfit"
    raid = apply_raid(chicago, s, _draw("NOC"), "spring-1929")
    assert raid.by == "untouchables" and not raid.spared
    assert raid.crates == 5 and s.stocks["NOC"] == 0 and s.confiscated.get("LOG", 0) == 0
    assert s.arrested and s.arrested[0].kind is UnitKind.H


def test_raid_on_an_uncontrolled_district_has_no_effect(chicago: GameMap, start: GameState) -> None:
    s = start.copy()
    raid = apply_raid(chicago, s, _draw("ALB"), "spring-1924")
    assert raid.controller is None and raid.crates == 0 and s.stocks["ALB"] == 3


def test_arrested_units_return_to_the_station_or_nearest_home(chicago: GameMap, start: GameState) -> None:
    s = start.copy()
    s.units = [u for u in s.units if u.district != "NOC"]
    s.arrested = [Arrested("LOG", UnitKind.H, "outfit", "NOC")]
    back = return_arrested(chicago, s)
    assert back[0].unit == Unit("LOG", UnitKind.H, "outfit")
    assert "LOG" not in s.control  # a returning unit takes no control
    # Into an occupied district: the station's district holds another gang's unit.
    t = start.copy()
    t.units = [u for u in t.units if u.district != "NOC"]
    t.units.append(Unit("LOG", UnitKind.L, "northside"))
    t.arrested = [Arrested("LOG", UnitKind.H, "outfit", "NOC")]
    back = return_arrested(chicago, t)
    # LOG's neighbours: AVO HER HUM LIP NOC POL; NOC is the outfit's and empty of an H.
    assert back[0].unit == Unit("NOC", UnitKind.H, "outfit")
    assert "went to NOC" in back[0].note
    assert t.arrested == []


def test_arrested_unit_with_nowhere_to_go_is_disbanded(chicago: GameMap, start: GameState) -> None:
    s = start.copy()
    s.control = {d: g for d, g in s.control.items() if g != "outfit"}
    s.units = [u for u in s.units if u.gang != "outfit"] + [Unit("LOG", UnitKind.H, "northside")]
    s.arrested = [Arrested("LOG", UnitKind.H, "outfit", "NOC")]
    back = return_arrested(chicago, s)
    assert back[0].unit is None and "disbanded" in back[0].note


def test_open_turn_returns_then_raids(chicago: GameMap, start: GameState) -> None:
    s = start.copy()
    s.turn = "autumn-1924"
    open_turn(chicago, s, "sample-game-1")
    drawn = draw_raid(chicago, "sample-game-1", "autumn-1924")
    assert s.raid is not None and drawn is not None and s.raid.district == drawn.district


def test_a_draws_published_hmac_names_its_district_without_the_seed(chicago: GameMap) -> None:
    for turn in ("spring-1924", "autumn-1924", "spring-1929"):
        drawn = draw_raid(chicago, "sample-game-1", turn)
        assert drawn is not None
        again = draw_of_digest(chicago, drawn.digest)
        assert again == drawn
    other = "0" * 63 + "1"  # 1 % 93 = 1: the table's first entry, if its weight is above 1
    first, weight = next(iter(chicago.raid_table.items()))
    assert weight > 1
    picked = draw_of_digest(chicago, other)
    assert picked is not None and picked.district == first
    for bad in ("", "0" * 63, "g" * 64, "A" * 64):
        with pytest.raises(ValueError, match="64 hexadecimal digits"):
            draw_of_digest(chicago, bad)


def test_open_turn_without_a_seed_returns_the_arrested_and_leaves_the_raid_to_draw(
    chicago: GameMap, start: GameState
) -> None:
    s = start.copy()
    s.turn = "autumn-1924"
    s.units = [u for u in s.units if not (u.kind is UnitKind.H and u.district == "NOC")]
    s.arrested = [Arrested("LOG", UnitKind.H, "outfit", "NOC")]
    back = open_turn(chicago, s, None)
    assert len(back) == 1 and s.arrested == [] and s.raid is None
