"""The standard Diplomacy board, read from ``moonshine/maps/classic/*.csv``: provinces, the
regions a unit may stand in (a province with two coasts has three regions: the
province itself for armies, one per coast for fleets) and the borders between
regions, each usable by armies ("land"), fleets ("sea") or both ("coast").

A province holds one unit at most; a fleet stands on a coast of a province with
coasts (``STP/SC``). Codes are upper case: ``STP`` is the province and the army's
region, ``STP/SC`` a fleet's region.
"""

from __future__ import annotations

import csv
from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from moonshine.errors import MapError

MAP_DIR = Path(__file__).resolve().parent.parent / "maps" / "classic"

POWERS: Mapping[str, str] = {
    "AUS": "Austria",
    "ENG": "England",
    "FRA": "France",
    "GER": "Germany",
    "ITA": "Italy",
    "RUS": "Russia",
    "TUR": "Turkey",
}
COASTS = {"n": "NC", "s": "SC", "e": "EC", "w": "WC"}
VICTORY_CENTRES = 18


class Kind(StrEnum):
    ARMY = "A"
    FLEET = "F"


class Terrain(StrEnum):
    LAND = "land"
    COAST = "coast"
    SEA = "sea"


@dataclass(frozen=True)
class Province:
    code: str
    name: str
    terrain: Terrain  # of the province's own region
    supply: bool
    home: str | None  # the power whose home supply centre it is


def province_of(region: str) -> str:
    """``STP/SC`` -> ``STP``."""
    return region.split("/", 1)[0]


def region_code(text: str) -> str:
    """The region code of ``stp(sc)``, ``STP/SC`` or ``stp``: ``STP/SC``, ``STP``."""
    t = text.strip().upper().replace("(", "/").replace(")", "")
    if "/" in t:
        prov, coast = t.split("/", 1)
        return f"{prov}/{coast}"
    return t


class ClassicMap:
    """The board's geography. Built by ``load_classic_map``; read-only afterwards."""

    def __init__(
        self,
        provinces: Mapping[str, Province],
        coasts: Mapping[str, tuple[str, ...]],
        borders: Iterable[tuple[str, str, Terrain]],
    ) -> None:
        self.provinces = dict(provinces)
        self.coasts = dict(coasts)  # province -> its coast regions (provinces with two coasts only)
        self.regions: dict[str, str] = {p: p for p in self.provinces}
        for prov, regs in self.coasts.items():
            for r in regs:
                self.regions[r] = prov
        army: dict[str, set[str]] = {p: set() for p in self.provinces}
        fleet: dict[str, set[str]] = {r: set() for r in self.regions}
        near: dict[str, set[str]] = {p: set() for p in self.provinces}
        for a, b, terrain in borders:
            for r in (a, b):
                if r not in self.regions:
                    raise MapError("borders.csv", r, "no such region in provinces.csv/regions.csv")
            pa, pb = province_of(a), province_of(b)
            near[pa].add(pb)
            near[pb].add(pa)
            if terrain is not Terrain.SEA:
                army[pa].add(pb)
                army[pb].add(pa)
            if terrain is not Terrain.LAND:
                fleet[a].add(b)
                fleet[b].add(a)
        self.army_nb = {p: frozenset(v) for p, v in army.items()}
        self.fleet_nb = {r: frozenset(v) for r, v in fleet.items()}
        self.near = {p: frozenset(v) for p, v in near.items()}
        self.supply_centres = tuple(sorted(p for p, v in self.provinces.items() if v.supply))

    # -- where units may stand ------------------------------------------------------
    def fleet_regions(self, province: str) -> tuple[str, ...]:
        """The regions of a province a fleet may stand in (none for a land province)."""
        if province in self.coasts:
            return self.coasts[province]
        if self.provinces[province].terrain is Terrain.LAND:
            return ()
        return (province,)

    def can_stand(self, kind: Kind, region: str) -> bool:
        if region not in self.regions:
            return False
        prov = province_of(region)
        if kind is Kind.ARMY:
            return region == prov and self.provinces[prov].terrain is not Terrain.SEA
        return region in self.fleet_regions(prov)

    def is_sea(self, province: str) -> bool:
        return self.provinces[province].terrain is Terrain.SEA

    def is_coastal(self, province: str) -> bool:
        """A land province an army may be convoyed from or to."""
        return not self.is_sea(province) and bool(self.fleet_regions(province))

    # -- movement ---------------------------------------------------------------------
    def army_adjacent(self, a: str, b: str) -> bool:
        return province_of(b) in self.army_nb.get(province_of(a), frozenset())

    def fleet_targets(self, region: str, province: str) -> tuple[str, ...]:
        """The regions of ``province`` a fleet in ``region`` can move to."""
        nb = self.fleet_nb.get(region, frozenset())
        return tuple(r for r in self.fleet_regions(province) if r in nb)

    def home_centres(self, power: str) -> tuple[str, ...]:
        return tuple(sorted(p for p, v in self.provinces.items() if v.supply and v.home == power))

    def distances_to(self, targets: Iterable[str]) -> dict[str, int]:
        """Steps from every province to the nearest of ``targets`` over any border,
        land or sea, for armies and fleets alike (the 2023 rule for civil disorder)."""
        dist: dict[str, int] = {}
        queue: deque[str] = deque()
        for t in targets:
            if t not in dist:
                dist[t] = 0
                queue.append(t)
        while queue:
            p = queue.popleft()
            for q in self.near[p]:
                if q not in dist:
                    dist[q] = dist[p] + 1
                    queue.append(q)
        return dist

    def name(self, region: str) -> str:
        prov = province_of(region)
        base = self.provinces[prov].name if prov in self.provinces else region
        return base if region == prov else f"{base} ({region.split('/', 1)[1].lower()})"


def _rows(path: Path) -> list[list[str]]:
    try:
        with path.open(encoding="utf-8", newline="") as fh:
            rows = [[c.strip() for c in row] for row in csv.reader(fh) if row and any(c.strip() for c in row)]
    except OSError as exc:
        raise MapError(str(path), "", f"cannot read ({exc.strerror or exc})") from None
    return rows[1:]


def load_classic_map(directory: Path = MAP_DIR) -> ClassicMap:
    """Read provinces.csv, regions.csv and borders.csv from ``directory``."""
    provinces: dict[str, Province] = {}
    for row in _rows(directory / "provinces.csv"):
        if len(row) < 2:
            raise MapError("provinces.csv", ",".join(row), "expected code, name, supply centre of")
        code, name = row[0].upper(), row[1]
        owner = row[2] if len(row) > 2 else ""
        if owner and owner != "neutral" and owner not in POWERS:
            raise MapError("provinces.csv", code, f"unknown power {owner!r}")
        home = owner if owner in POWERS else None
        provinces[code] = Province(code, name, Terrain.LAND, bool(owner), home)
    coasts: dict[str, list[str]] = {}
    for row in _rows(directory / "regions.csv"):
        if len(row) != 3:
            raise MapError("regions.csv", ",".join(row), "expected province, coast, terrain")
        prov, coast, terrain = row[0].upper(), row[1], row[2]
        if prov not in provinces:
            raise MapError("regions.csv", prov, "no such province in provinces.csv")
        try:
            t = Terrain(terrain)
        except ValueError:
            raise MapError("regions.csv", prov, f"unknown terrain {terrain!r}") from None
        if coast:
            if coast not in COASTS:
                raise MapError("regions.csv", prov, f"unknown coast {coast!r}")
            coasts.setdefault(prov, []).append(f"{prov}/{COASTS[coast]}")
        else:
            p = provinces[prov]
            provinces[prov] = Province(p.code, p.name, t, p.supply, p.home)
    borders: list[tuple[str, str, Terrain]] = []
    for row in _rows(directory / "borders.csv"):
        if len(row) != 3:
            raise MapError("borders.csv", ",".join(row), "expected region, region, terrain")
        try:
            borders.append((region_code(row[0]), region_code(row[1]), Terrain(row[2])))
        except ValueError:
            raise MapError("borders.csv", ",".join(row), f"unknown terrain {row[2]!r}") from None
    return ClassicMap(provinces, {p: tuple(sorted(v)) for p, v in coasts.items()}, borders)


_CACHE: dict[Path, ClassicMap] = {}


def standard_map() -> ClassicMap:
    """The bundled standard board (loaded once)."""
    if MAP_DIR not in _CACHE:
        _CACHE[MAP_DIR] = load_classic_map(MAP_DIR)
    return _CACHE[MAP_DIR]
