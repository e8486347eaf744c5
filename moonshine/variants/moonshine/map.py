"""The map as data: districts, features, police stations, gangs and the
scenario, loaded from YAML by a validating builder (the parsed YAML cached per
content); the district graph as networkx on first use, for the map check and the
distances between districts (kept in the cache)."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from moonshine import data_folder
from moonshine.errors import MapError
from moonshine.text import money
from moonshine.text.money import Money

if TYPE_CHECKING:
    import networkx as nx

MAPS_DIR = data_folder("maps")


class Feature(StrEnum):
    NONE = "none"
    SUPPLY = "supply"
    SPEAKEASY = "speakeasy"
    WAREHOUSE = "warehouse"

    @property
    def label(self) -> str:
        return {"none": "none", "supply": "supply zone", "speakeasy": "speakeasy", "warehouse": "warehouse"}[self.value]


class UnitKind(StrEnum):
    L = "L"  # delivery man (livreur), strength 1
    H = "H"  # henchman (homme de main), strength 2

    @property
    def strength(self) -> int:
        return 1 if self is UnitKind.L else 2

    @property
    def label(self) -> str:
        return "delivery man" if self is UnitKind.L else "henchman"


# Production and consumption of one district (published rules, R14, R15, R24).
SUPPLY_CRATES = 5
WAREHOUSE_CAPACITY = 10
UPKEEP = 200  # cents: $2 per unit per turn, arrested units too (R17)
RECRUIT_COST = 200  # cents: $2 per recruit (R17)
STATION_STRENGTH = 7
CORRUPTED_STATION_STRENGTH = 3


def district_vp(feature: Feature) -> int:
    """VP for controlling a district (R24): 1, speakeasy 2, supply zone 3."""
    return {Feature.SPEAKEASY: 2, Feature.SUPPLY: 3}.get(feature, 1)


def district_consumption(feature: Feature) -> int:
    """Crates a controlled district can absorb per turn (R15): 1, speakeasy 3."""
    return 3 if feature is Feature.SPEAKEASY else 1


class District(msgspec.Struct, frozen=True):
    code: str
    name: str
    area: int
    feature: Feature
    precinct: str  # code of the district whose police station this district depends on
    neighbours: tuple[str, ...]
    station: str | None = None  # name of the police station in this district, if any
    aliases: tuple[str, ...] = ()

    @property
    def has_station(self) -> bool:
        return self.station is not None

    def describe(self) -> str:
        return f"{self.code} ({self.name})"


class Gang(msgspec.Struct, frozen=True):
    key: str
    name: str
    colour: str  # its units and swatches
    homes: tuple[str, ...]
    units: tuple[tuple[UnitKind, str], ...]  # starting units (kind, district)
    fill: str = ""  # its districts on the map ("": a tint of its colour)


class Scenario(msgspec.Struct, frozen=True):
    start: str
    cash: Money
    price: Money
    warehouse_stock: Mapping[str, int]


class GameMap(msgspec.Struct, frozen=True, dict=True):
    name: str
    title: str
    districts: Mapping[str, District]  # in map order (area number)
    gangs: Mapping[str, Gang]  # in map order
    scenario: Scenario
    raid_table: Mapping[str, int]  # district -> weight, in map order
    credits: str = ""
    geometry: Path | None = None
    source: str = ""

    @functools.cached_property
    def graph(self) -> nx.Graph[str]:
        """The districts as a networkx graph (nodes with name, feature, station and
        precinct; an edge per pair of neighbours), built on first use: only the map
        check needs it, so networkx is imported only then."""
        import networkx as nx

        graph: nx.Graph[str] = nx.Graph()
        for code, dist in self.districts.items():
            graph.add_node(
                code, name=dist.name, feature=dist.feature.value, station=dist.station, precinct=dist.precinct
            )
        for code, dist in self.districts.items():
            for n in dist.neighbours:
                graph.add_edge(code, n)
        return graph

    @functools.cached_property
    def _steps(self) -> dict[str, Mapping[str, int]]:
        return {}

    @functools.cached_property
    def _adjacency(self) -> bytes:
        """The map's adjacency as a cache key: what the graph's answers depend on."""
        return repr([(c, d.neighbours) for c, d in self.districts.items()]).encode()

    @functools.cached_property
    def _near(self) -> Mapping[str, Mapping[str, int]]:
        """Every district's districts one or two moves away, with their distance: asked
        of the networkx graph (``all_pairs_shortest_path_length``, cut off at two, the
        farthest a unit reaches by itself, R8) once per map and kept in the referee's
        cache, so that checking and adjudicating read a table, not the graph library."""
        from moonshine import cache

        kept = cache.load_value("near", self._adjacency)
        if not isinstance(kept, dict) or kept.keys() != self.districts.keys():
            import networkx as nx

            kept = {
                code: {d: n for d, n in lengths.items() if d != code}
                for code, lengths in nx.all_pairs_shortest_path_length(self.graph, cutoff=2)
            }
            cache.store_value("near", self._adjacency, kept)
        return kept

    def within(self, code: str, steps: int) -> set[str]:
        """The districts at most ``steps`` moves from ``code`` (1 or 2), not itself."""
        if not 1 <= steps <= 2:
            raise ValueError(f"a unit reaches one or two moves away, not {steps}")
        return {d for d, n in self._near[code].items() if n <= steps}

    def steps_from(self, code: str) -> Mapping[str, int]:
        """The fewest moves from ``code`` to every district it is linked to, asked of
        the networkx graph (``single_source_shortest_path_length``) and kept in the
        referee's cache, keyed by the map's adjacency and the district: networkx is
        imported the first time a map's distances from a district are needed, not
        by every command that needs them again."""
        found = self._steps.get(code)
        if found is not None:
            return found
        from moonshine import cache

        key = code.encode() + b"|" + self._adjacency
        kept = cache.load_value("steps", key)
        if not isinstance(kept, dict) or code not in kept:
            import networkx as nx

            kept = dict(nx.single_source_shortest_path_length(self.graph, code))
            cache.store_value("steps", key, kept)
        self._steps[code] = kept
        return kept

    # -- lookups ------------------------------------------------------------
    def district(self, code: str) -> District:
        return self.districts[code]

    def adjacent(self, a: str, b: str) -> bool:
        return b in self.districts[a].neighbours

    def neighbours(self, code: str) -> tuple[str, ...]:
        return self.districts[code].neighbours

    def stations(self) -> list[str]:
        return [c for c, d in self.districts.items() if d.station is not None]

    def precinct_of(self, code: str) -> str:
        return self.districts[code].precinct

    def gang_by_name(self, text: str) -> Gang | None:
        """A gang by key or full name, case-insensitive, ignoring punctuation."""
        wanted = _squash(text)
        for g in self.gangs.values():
            if wanted in (_squash(g.key), _squash(g.name)):
                return g
        return None

    def home_of(self, code: str) -> str | None:
        for g in self.gangs.values():
            if code in g.homes:
                return g.key
        return None

    def map_order(self, codes: Iterable[str]) -> list[str]:
        """Sort district codes in map order (area number)."""
        return sorted(codes, key=lambda c: self.districts[c].area)


def _squash(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


# -- loading -----------------------------------------------------------------


def map_path(name_or_path: str | Path) -> Path:
    """A bundled map by name (``chicago-1920s``) or a path to a YAML file."""
    p = Path(name_or_path)
    if p.suffix in (".yaml", ".yml") or p.exists():
        return p
    return MAPS_DIR / f"{name_or_path}.yaml"


def load_map(name_or_path: str | Path = "chicago-1920s") -> GameMap:
    """A map, checked by ``build_map``. The YAML is parsed once per content and version:
    the parsed data is kept in the cache directory (``moonshine.cache``)."""
    from moonshine import cache

    path = map_path(name_or_path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise MapError(str(path), "", f"cannot read the map file ({exc.strerror or exc})") from None
    raw = cache.load_value("map", data)
    if raw is None:
        from moonshine import yamlio
        from moonshine.errors import StateError

        try:
            raw = yamlio.loads(yamlio.decode(data, str(path)), str(path))
        except StateError as exc:
            raise MapError(exc.source, exc.key, exc.problem) from None
        cache.store_value("map", data, raw)
    return build_map(raw, source=str(path), base=path.parent)


class _Reader:
    """Typed access to raw YAML that names the file and key on any error."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, key: str, problem: str) -> MapError:
        return MapError(self.source, key, problem)

    def mapping(self, value: Any, key: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(key, f"expected a mapping, found {type(value).__name__}")
        return value

    def seq(self, value: Any, key: str) -> list[Any]:
        if not isinstance(value, list):
            raise self.fail(key, f"expected a list, found {type(value).__name__}")
        return value

    def text(self, m: Mapping[str, Any], name: str, key: str, default: str | None = None) -> str:
        if name not in m:
            if default is not None:
                return default
            raise self.fail(f"{key}.{name}" if key else name, "missing")
        v = m[name]
        if not isinstance(v, str) or not v.strip():
            raise self.fail(f"{key}.{name}" if key else name, f"expected text, found {v!r}")
        return v

    def integer(self, m: Mapping[str, Any], name: str, key: str) -> int:
        v = m.get(name)
        if not isinstance(v, int) or isinstance(v, bool):
            raise self.fail(f"{key}.{name}", f"expected a whole number, found {v!r}")
        return v

    def money(self, m: Mapping[str, Any], name: str, key: str) -> Money:
        try:
            return money.dollars(m.get(name))
        except ValueError as exc:
            raise self.fail(f"{key}.{name}", str(exc)) from None


def build_map(raw: Any, *, source: str = "<map>", base: Path | None = None) -> GameMap:
    """Validate raw map data and build the map. Structural errors raise MapError
    (file, key, problem); consistency problems are reported by ``check_map``."""
    r = _Reader(source)
    top = r.mapping(raw, "")
    name = r.text(top, "name", "")
    title = r.text(top, "title", "", default=name)

    districts: dict[str, District] = {}
    for i, item in enumerate(r.seq(top.get("districts"), "districts")):
        key = f"districts[{i}]"
        d = r.mapping(item, key)
        code = r.text(d, "code", key)
        key = f"districts.{code}"
        if code in districts:
            raise r.fail(key, "district listed twice")
        if not (len(code) == 3 and code.isalpha() and code.isupper()):
            raise r.fail(key, "a district code is three capital letters")
        try:
            feature = Feature(d.get("feature", "none"))
        except ValueError:
            raise r.fail(
                f"{key}.feature", f"unknown feature {d.get('feature')!r} (supply, speakeasy, warehouse or none)"
            ) from None
        neighbours = r.seq(d.get("neighbours"), f"{key}.neighbours")
        if not all(isinstance(n, str) for n in neighbours):
            raise r.fail(f"{key}.neighbours", "expected district codes")
        station = d.get("station")
        if station is not None and (not isinstance(station, str) or not station.strip()):
            raise r.fail(f"{key}.station", "expected the station's name")
        aliases = d.get("aliases", [])
        if not isinstance(aliases, list) or not all(isinstance(a, str) for a in aliases):
            raise r.fail(f"{key}.aliases", "expected a list of names")
        districts[code] = District(
            code=code,
            name=r.text(d, "name", key),
            area=r.integer(d, "area", key),
            feature=feature,
            precinct=r.text(d, "precinct", key),
            neighbours=tuple(sorted(neighbours)),
            station=station,
            aliases=tuple(aliases),
        )
    if not districts:
        raise r.fail("districts", "no districts")

    for code, dist in districts.items():
        for n in dist.neighbours:
            if n not in districts:
                raise r.fail(f"districts.{code}.neighbours", f"unknown district {n!r}")
            if n == code:
                raise r.fail(f"districts.{code}.neighbours", "a district cannot neighbour itself")
        if dist.precinct not in districts:
            raise r.fail(f"districts.{code}.precinct", f"unknown district {dist.precinct!r}")

    gangs: dict[str, Gang] = {}
    for i, item in enumerate(r.seq(top.get("gangs"), "gangs")):
        key = f"gangs[{i}]"
        g = r.mapping(item, key)
        gkey = r.text(g, "key", key)
        key = f"gangs.{gkey}"
        if gkey in gangs:
            raise r.fail(key, "gang listed twice")
        if not gkey.isidentifier() or gkey != gkey.lower():
            raise r.fail(f"{key}.key", "a gang key is one lower-case word")
        homes = r.seq(g.get("homes"), f"{key}.homes")
        for h in homes:
            if h not in districts:
                raise r.fail(f"{key}.homes", f"unknown district {h!r}")
        units: list[tuple[UnitKind, str]] = []
        for j, u in enumerate(r.seq(g.get("units"), f"{key}.units")):
            parts = str(u).split()
            if len(parts) != 2 or parts[0] not in ("L", "H") or parts[1] not in districts:
                raise r.fail(f"{key}.units[{j}]", f"expected 'L CODE' or 'H CODE', found {u!r}")
            units.append((UnitKind(parts[0]), parts[1]))
        colour = r.text(g, "colour", key)
        if not (colour.startswith("#") and len(colour) == 7):
            raise r.fail(f"{key}.colour", f"expected a colour like '#c0392b', found {colour!r}")
        fill = str(g.get("fill") or "")
        if fill and not (fill.startswith("#") and len(fill) == 7):
            raise r.fail(f"{key}.fill", f"expected a colour like '#f2cfb2', found {fill!r}")
        gangs[gkey] = Gang(gkey, r.text(g, "name", key), colour, tuple(homes), tuple(units), fill)
    if not gangs:
        raise r.fail("gangs", "no gangs")

    s = r.mapping(top.get("scenario"), "scenario")
    stock_raw = r.mapping(s.get("warehouse_stock", {}), "scenario.warehouse_stock")
    stock: dict[str, int] = {}
    for code, n in stock_raw.items():
        if code not in districts:
            raise r.fail("scenario.warehouse_stock", f"unknown district {code!r}")
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise r.fail(f"scenario.warehouse_stock.{code}", f"expected a number of crates, found {n!r}")
        stock[code] = n
    scenario = Scenario(
        start=r.text(s, "start", "scenario"),
        cash=r.money(s, "cash", "scenario"),
        price=r.money(s, "price", "scenario"),
        warehouse_stock=stock,
    )

    # R21: a map may have no raids (a house rule, a test map): `raid_table: {}` (or [],
    # or null). The key itself must be there, so that no table is forgotten.
    if "raid_table" not in top:
        raise r.fail("raid_table", "missing (write 'raid_table: {}' for a map without raids)")
    raid_raw = r.mapping(top.get("raid_table") or {}, "raid_table")
    raid: dict[str, int] = {}
    for code, w in raid_raw.items():
        if code not in districts:
            raise r.fail("raid_table", f"unknown district {code!r}")
        if not isinstance(w, int) or isinstance(w, bool) or w <= 0:
            raise r.fail(f"raid_table.{code}", f"expected a positive whole weight, found {w!r}")
        raid[code] = w

    ordered = dict(sorted(districts.items(), key=lambda kv: kv[1].area))
    geometry = None
    if isinstance(top.get("geometry"), str) and base is not None:
        geometry = base / top["geometry"]
    credits = top.get("credits", "")
    return GameMap(
        name=name,
        title=title,
        districts=ordered,
        gangs=gangs,
        scenario=scenario,
        raid_table=dict(sorted(raid.items(), key=lambda kv: districts[kv[0]].area)),
        credits=credits if isinstance(credits, str) else "",
        geometry=geometry,
        source=source,
    )
