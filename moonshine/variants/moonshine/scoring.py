"""What a position is worth: victory points (R24), production (R14) and
consumption capacity (R15). Pure functions of map and state."""

from __future__ import annotations

from moonshine.variants.moonshine.map import (
    SUPPLY_CRATES,
    Feature,
    GameMap,
    UnitKind,
    district_consumption,
    district_vp,
)
from moonshine.variants.moonshine.state import GameState

ASSAULT_VP = 5
CORRUPTION_VP = 3
VICTORY_VP = 30


def victory_points(gmap: GameMap, st: GameState, gang: str) -> int:
    """1 VP per controlled district (2 speakeasy, 3 supply zone), 3 per corrupted
    station, 5 per station ever assaulted successfully (R24)."""
    vp = sum(district_vp(gmap.districts[d].feature) for d in st.controlled_by(gang))
    vp += CORRUPTION_VP * sum(1 for g in st.corruption.values() if g == gang)
    vp += ASSAULT_VP * len(set(st.assaulted.get(gang, [])))
    return vp


def production(gmap: GameMap, st: GameState, gang: str, raided: str | None = None) -> int:
    """Crates from controlled supply zones not raided this turn: 5, +1 per own L (R14)."""
    total = 0
    for d in st.controlled_by(gang):
        if gmap.districts[d].feature is not Feature.SUPPLY or d == raided:
            continue
        total += SUPPLY_CRATES
        total += sum(1 for u in st.units_in(d) if u.gang == gang and u.kind is UnitKind.L)
    return total


def capacity(gmap: GameMap, st: GameState, gang: str) -> int:
    """Crates the gang's territory can absorb (R15): 1 per controlled district (3 for a
    speakeasy), +1 per own L standing in a controlled district that is not a supply zone."""
    mine = set(st.controlled_by(gang))
    total = sum(district_consumption(gmap.districts[d].feature) for d in mine)
    for u in st.units_of(gang):
        if u.kind is UnitKind.L and u.district in mine and gmap.districts[u.district].feature is not Feature.SUPPLY:
            total += 1
    return total
