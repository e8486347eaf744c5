"""A board of the classic rule family, read from a folder of ``maps/``
(``classic/`` is the standard Diplomacy board): ``variant.yaml`` (the powers,
the victory condition, the opening position) and three CSV files: provinces, the
regions a unit may stand in (a province with two coasts has three regions: the
province itself for armies, one per coast for fleets) and the borders between
regions, each usable by armies ("land"), fleets ("sea") or both ("coast").

A province holds one unit at most; a fleet stands on a coast of a province with
coasts (``STP/SC``). Codes are upper case: ``STP`` is the province and the army's
region, ``STP/SC`` a fleet's region.

The names in ``provinces.csv`` and ``variant.yaml`` are English. A board may give
its provinces and powers names in another language as data beside it: an
optional ``names.<language>.csv`` (``names.fr.csv``) with the columns
``kind,code,name`` (kind ``province`` or ``power``), one row per name. A name the file does not give, or a language
with no file, falls back to the English one.
"""

from __future__ import annotations

import csv
import functools
from collections.abc import Iterable, Mapping
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec
import yaml

from moonshine import data_folder
from moonshine.errors import MapError
from moonshine.text.catalogue import Names

if TYPE_CHECKING:
    import networkx as nx

MAPS_DIR = data_folder("maps")
MAP_DIR = MAPS_DIR / "classic"
BOARD_FILE = "variant.yaml"
NAMES_GLOB = "names.*.csv"

COASTS = {"n": "NC", "s": "SC", "e": "EC", "w": "WC"}


class Kind(StrEnum):
    ARMY = "A"
    FLEET = "F"


class Terrain(StrEnum):
    LAND = "land"
    COAST = "coast"
    SEA = "sea"


class Province(msgspec.Struct, frozen=True):
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


class BoardInfo(msgspec.Struct, frozen=True):
    """What ``variant.yaml`` says of a board: its name and title, the powers (code ->
    name, in order), the supply centres that win, the first year and each power's
    opening units (``A VIE``, ``F STP/SC``)."""

    name: str
    title: str
    description: str
    powers: Mapping[str, str]
    victory_centres: int
    start_year: int
    start: Mapping[str, tuple[str, ...]]


class ClassicMap:
    """The board's geography and its powers. Built by ``load_classic_map``;
    read-only afterwards."""

    def __init__(
        self,
        provinces: Mapping[str, Province],
        coasts: Mapping[str, tuple[str, ...]],
        borders: Iterable[tuple[str, str, Terrain]],
        info: BoardInfo,
    ) -> None:
        self.info = info
        self.directory: Path | None = None  # the board's folder, when read from one
        # language -> (kind, code) -> the name in that language, from names.<language>.csv
        self.translations: dict[str, dict[tuple[str, str], str]] = {}
        self.powers: Mapping[str, str] = info.powers
        self.victory_centres = info.victory_centres
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
        # Looked up for every order: whether a province is sea, and per fleet region the
        # regions of each province it can move to (the provinces it borders only).
        self._sea = {p: v.terrain is Terrain.SEA for p, v in self.provinces.items()}
        self._fleet_to: dict[str, dict[str, tuple[str, ...]]] = {}
        for r, nb in self.fleet_nb.items():
            provs = {province_of(b) for b in nb}
            self._fleet_to[r] = {prov: tuple(x for x in self.fleet_regions(prov) if x in nb) for prov in provs}

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
        return self._sea[province]

    def is_coastal(self, province: str) -> bool:
        """A land province an army may be convoyed from or to."""
        return not self.is_sea(province) and bool(self.fleet_regions(province))

    # -- movement ---------------------------------------------------------------------
    def army_adjacent(self, a: str, b: str) -> bool:
        return province_of(b) in self.army_nb.get(province_of(a), frozenset())

    def fleet_targets(self, region: str, province: str) -> tuple[str, ...]:
        """The regions of ``province`` a fleet in ``region`` can move to."""
        known = self._fleet_to.get(region)
        if known is not None:
            found = known.get(province)
            if found is not None:
                return found
        nb = self.fleet_nb.get(region, frozenset())
        return tuple(r for r in self.fleet_regions(province) if r in nb)

    def home_centres(self, power: str) -> tuple[str, ...]:
        return tuple(sorted(p for p, v in self.provinces.items() if v.supply and v.home == power))

    @functools.cached_property
    def graph(self) -> nx.Graph[str]:
        """The provinces as a networkx graph, an edge per pair that share a border
        (land or sea), built on first use: networkx is imported only then."""
        import networkx as nx

        graph: nx.Graph[str] = nx.Graph()
        graph.add_nodes_from(self.provinces)
        graph.add_edges_from((p, q) for p, near in self.near.items() for q in near)
        return graph

    def distances_to(self, targets: Iterable[str]) -> dict[str, int]:
        """Steps from every province to the nearest of ``targets`` over any border,
        land or sea, for armies and fleets alike (the 2023 rule for civil disorder)."""
        wanted = set(targets)
        if not wanted:  # a power with no home centre left: every unit is as far as can be
            return {}
        import networkx as nx

        steps = nx.multi_source_dijkstra_path_length(self.graph, wanted)  # each border one step
        return {p: int(n) for p, n in steps.items()}

    def fleet_steps_to(self, targets: Iterable[str]) -> dict[str, int]:
        """Fleet moves from every fleet region to the nearest region of the provinces
        ``targets`` (the older rule for civil disorder: a fleet counts as it moves; a
        region no fleet can reach them from is left out)."""
        starts = [r for p in set(targets) for r in self.fleet_regions(p)]
        steps = dict.fromkeys(starts, 0)
        frontier = starts
        while frontier:
            nxt = []
            for r in frontier:
                for n in self.fleet_nb[r]:
                    if n not in steps:
                        steps[n] = steps[r] + 1
                        nxt.append(n)
            frontier = nxt
        return steps

    def province_name(self, code: str, language: str = "en") -> str:
        """The province's name in ``language`` (the English one when the board has none)."""
        found = self.translations.get(language, {}).get(("province", code))
        if found is not None:
            return found
        return self.provinces[code].name if code in self.provinces else code

    def power_name(self, code: str, language: str = "en") -> str:
        """The power's name in ``language`` (the English one when the board has none)."""
        found = self.translations.get(language, {}).get(("power", code))
        return found if found is not None else self.powers.get(code, code)

    def power_names(self, language: str = "en") -> dict[str, str]:
        """Every power's code and name in ``language``, in the board's order."""
        return {p: self.power_name(p, language) for p in self.powers}

    def power_value(self, code: str) -> Names:
        """The power's name in English and in each language the board names it in, as
        a sentence's value (each reader sees it in their language)."""
        others = ((lang, self.power_name(code, lang)) for lang in sorted(self.translations))
        return Names((("en", self.power_name(code)), *others))

    def power_by_name(self, text: str) -> str | None:
        """The power ``text`` names: its code or its name in any language of the board
        (``ENG``, ``England``, ``Angleterre``), any case; None when it names none."""
        wanted = text.strip().casefold()
        for language in ("en", *sorted(self.translations)):
            for code, name in self.power_names(language).items():
                if wanted in (code.casefold(), name.casefold()):
                    return code
        return None

    def name(self, region: str, language: str = "en") -> str:
        prov = province_of(region)
        base = self.province_name(prov, language)
        return base if region == prov else f"{base} ({region.split('/', 1)[1].lower()})"

    def names(self, region: str) -> Names:
        """The region's name in English and in each language the board names it in,
        as a sentence's value (each reader sees it in their language)."""
        others = ((lang, self.name(region, lang)) for lang in sorted(self.translations))
        return Names((("en", self.name(region)), *others))


def _rows(path: Path) -> list[list[str]]:
    try:
        with path.open(encoding="utf-8", newline="") as fh:
            rows = [[c.strip() for c in row] for row in csv.reader(fh) if row and any(c.strip() for c in row)]
    except OSError as exc:
        raise MapError(str(path), "", f"cannot read ({exc.strerror or exc})") from None
    return rows[1:]


def _translations(directory: Path, gmap: ClassicMap) -> dict[str, dict[tuple[str, str], str]]:
    """The board's ``names.<language>.csv`` files, each checked: the header
    ``kind,code,name``, then one row per province or power of this board (kind
    ``province`` or ``power``: ``ENG`` is England and the English Channel), each
    once, each with a name."""
    out: dict[str, dict[tuple[str, str], str]] = {}
    codes = {"province": set(gmap.provinces), "power": set(gmap.powers)}
    for path in sorted(directory.glob(NAMES_GLOB)):
        language = path.name.removeprefix("names.").removesuffix(".csv")
        src = path.name
        if not language.isalpha():
            raise MapError(src, "", "expected a file name such as names.fr.csv (names.<language>.csv)")
        try:
            with path.open(encoding="utf-8", newline="") as fh:
                rows = [[c.strip() for c in row] for row in csv.reader(fh)]
        except OSError as exc:
            raise MapError(src, "", f"cannot read ({exc.strerror or exc})") from None
        except UnicodeDecodeError as exc:
            raise MapError(src, "", f"not UTF-8 text ({exc})") from None
        if not rows or [c.lower() for c in rows[0]] != ["kind", "code", "name"]:
            raise MapError(src, "line 1", "expected the header 'kind,code,name'")
        names: dict[tuple[str, str], str] = {}
        for number, row in enumerate(rows[1:], start=2):
            if not any(row):
                continue
            where = f"line {number}"
            if len(row) != 3:
                raise MapError(src, where, f"expected kind,code,name, found {','.join(row)!r}")
            kind, code, name = row[0].lower(), row[1].upper(), row[2]
            if kind not in codes:
                raise MapError(src, where, f"unknown kind {row[0]!r} (expected province or power)")
            if code not in codes[kind]:
                raise MapError(src, where, f"{row[1]!r} is no {kind} of this board")
            if not name:
                raise MapError(src, where, f"no name given for the {kind} {code}")
            if (kind, code) in names:
                raise MapError(src, where, f"the {kind} {code} is named twice")
            names[(kind, code)] = name
        out[language] = names
    return out


def _board_info(directory: Path) -> BoardInfo:
    path = directory / BOARD_FILE
    src = str(path)
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise MapError(src, "", f"cannot read ({exc.strerror or exc})") from None
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        raise MapError(src, "", f"not valid YAML ({exc})") from None
    if not isinstance(raw, dict):
        raise MapError(src, "", "expected a mapping (name, title, powers, victory_centres, start_year, start)")
    known = {"name", "family", "title", "description", "powers", "victory_centres", "start_year", "start"}
    unknown = sorted(str(k) for k in raw if k not in known)
    if unknown:
        raise MapError(src, unknown[0], f"unknown key (expected one of {', '.join(sorted(known))})")
    powers = raw.get("powers")
    if not isinstance(powers, dict) or not powers:
        raise MapError(src, "powers", "expected a mapping of power codes to names")
    codes = {str(k).upper(): str(v) for k, v in powers.items()}
    for key in ("victory_centres", "start_year"):
        if not isinstance(raw.get(key), int) or isinstance(raw.get(key), bool) or raw[key] < 1:
            raise MapError(src, key, "expected a positive whole number")
    start = raw.get("start")
    if not isinstance(start, dict) or {str(k).upper() for k in start} != set(codes):
        raise MapError(src, "start", f"expected the opening units of each power ({', '.join(codes)})")
    units: dict[str, tuple[str, ...]] = {}
    for power, texts in start.items():
        if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
            raise MapError(src, f"start.{power}", "expected a list of units such as 'A VIE' or 'F STP/SC'")
        units[str(power).upper()] = tuple(texts)
    return BoardInfo(
        name=str(raw.get("name") or directory.name),
        title=str(raw.get("title") or directory.name),
        description=str(raw.get("description") or ""),
        powers=codes,
        victory_centres=raw["victory_centres"],
        start_year=raw["start_year"],
        start=units,
    )


def load_classic_map(directory: Path = MAP_DIR) -> ClassicMap:
    """Read variant.yaml, provinces.csv, regions.csv and borders.csv from ``directory``."""
    info = _board_info(directory)
    provinces: dict[str, Province] = {}
    for row in _rows(directory / "provinces.csv"):
        if len(row) < 2:
            raise MapError("provinces.csv", ",".join(row), "expected code, name, supply centre of")
        code, name = row[0].upper(), row[1]
        owner = row[2] if len(row) > 2 else ""
        if owner and owner != "neutral" and owner not in info.powers:
            raise MapError("provinces.csv", code, f"unknown power {owner!r}")
        home = owner if owner in info.powers else None
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
    gmap = ClassicMap(provinces, {p: tuple(sorted(v)) for p, v in coasts.items()}, borders, info)
    gmap.directory = directory
    gmap.translations = _translations(directory, gmap)
    for power, texts in info.start.items():
        for text in texts:
            kind, _, where = text.strip().partition(" ")
            if kind.upper() not in ("A", "F") or not gmap.can_stand(Kind(kind.upper()), region_code(where)):
                raise MapError(BOARD_FILE, f"start.{power}", f"{text!r} is not a unit that can stand on this board")
    return gmap


_CACHE: dict[Path, ClassicMap] = {}


def board(name: str) -> ClassicMap:
    """A bundled board of the classic family by its folder's name (loaded once)."""
    directory = MAPS_DIR / name
    if directory not in _CACHE:
        if not (directory / BOARD_FILE).is_file():
            raise MapError(str(directory / BOARD_FILE), "", f"no board called {name!r} in {MAPS_DIR}")
        _CACHE[directory] = load_classic_map(directory)
    return _CACHE[directory]


def board_names() -> list[str]:
    """The bundled boards of the classic family (folders with a variant.yaml)."""
    return sorted(p.parent.name for p in MAPS_DIR.glob(f"*/{BOARD_FILE}"))


def standard_map() -> ClassicMap:
    """The bundled standard board (loaded once)."""
    return board("classic")
