"""``moonshine map check``: a map's consistency with the rules and rulings, and
the gangs' starting balance side by side (R1 to R3)."""

from __future__ import annotations

import msgspec
import networkx as nx

from moonshine.text.money import Money
from moonshine.variants.moonshine import scoring
from moonshine.variants.moonshine.geometry import contacts, load_geometry
from moonshine.variants.moonshine.map import WAREHOUSE_CAPACITY, Feature, GameMap, UnitKind
from moonshine.variants.moonshine.state import initial_state

# The published rules' home districts, gang by gang (R3).
PUBLISHED_HOMES: dict[str, tuple[str, ...]] = {
    "Chicago Outfit": ("NOR", "NOT", "LIN", "NOC", "UPT", "LAK"),
    "Valley Gang": ("LOO", "NSS", "BRO", "FIV", "KEN", "HYD", "GRA"),
    "Genna Crime Family": ("CHA", "DUM", "ROS", "BUR", "PUL", "CAL", "SOD"),
    "North Side Gang": ("EDG", "JEF", "POR", "IRV", "AVO", "HER"),
    "Unione Siciliana": ("LIP", "GOL", "POL", "LIT", "CHI", "FUL"),
    "Southside O'Donnells": ("MCK", "BRI", "BOY", "GGC", "WAS", "WOO"),
    "Westside O'Donnells": ("CRA", "AUS", "WGP", "NLA", "SLA", "PIL"),
    "Ragen's Colts": ("GAP", "WLA", "MAR", "ASH", "AUB", "BEV", "MOR"),
}


class BalanceRow(msgspec.Struct, frozen=True):
    gang: str
    name: str
    homes: int
    henchmen: int
    delivery: int
    vp: int
    production: int
    capacity: int
    cash: Money
    upkeep: Money


class CheckReport(msgspec.Struct, frozen=True):
    problems: list[str]
    notes: list[str]
    balance: list[BalanceRow]

    @property
    def ok(self) -> bool:
        return not self.problems


def check_map(gmap: GameMap, *, published_homes: bool = True) -> CheckReport:
    problems: list[str] = []
    notes: list[str] = []
    ds = gmap.districts

    # R1: symmetric, connected, no corner-only contacts.
    for code, d in ds.items():
        for n in d.neighbours:
            if code not in ds[n].neighbours:
                problems.append(f"adjacency not symmetric: {code} lists {n} but {n} does not list {code}")
    undirected: nx.Graph[str] = nx.Graph(gmap.graph)
    if not nx.is_connected(undirected):
        parts = sorted((sorted(c) for c in nx.connected_components(undirected)), key=len)
        problems.append(f"the map is not connected: {len(parts)} parts, smallest {', '.join(parts[0])}")
    if gmap.geometry is not None:
        shapes = load_geometry(gmap.geometry)
        missing = [c for c in ds if c not in shapes]
        if missing:
            problems.append(f"no shape in {gmap.geometry.name} for {', '.join(missing)}")
        else:
            touch = contacts({c: shapes[c] for c in ds})
            for (a, b), length in touch.corners.items():
                if gmap.adjacent(a, b) or gmap.adjacent(b, a):
                    problems.append(
                        f"corner-only contact listed as neighbours: {a}-{b} "
                        f"(shared border {length:.0f} m; R1 forbids diagonal moves)"
                    )
            for a, b in touch.borders:
                if not (gmap.adjacent(a, b) or gmap.adjacent(b, a)):
                    problems.append(f"{a} and {b} share a border in the geometry but are not listed as neighbours")
            for code in ds:
                for n in ds[code].neighbours:
                    pair = (min(code, n), max(code, n))
                    if code < n and pair not in touch.borders and pair not in touch.corners:
                        problems.append(f"{code}-{n} listed as neighbours but their shapes do not touch")
            notes.append(f"geometry: {len(touch.borders)} shared borders, {len(touch.corners)} corner-only contacts")
    else:
        notes.append("no geometry file: corner-only contacts not checked")

    # R2: precincts and stations.
    stations = gmap.stations()
    if not stations:
        problems.append("no police station on the map")
    for code, d in ds.items():
        p = ds[d.precinct]
        if not p.has_station:
            problems.append(f"{code} depends on precinct {d.precinct}, which has no police station")
        if d.has_station and d.precinct != code:
            problems.append(f"{code} has a station but depends on the precinct of {d.precinct}")
    for s in stations:
        members = [c for c, d in ds.items() if d.precinct == s]
        if not nx.is_connected(undirected.subgraph(members)):
            problems.append(f"the precinct of {s} is not in one piece: {', '.join(members)}")

    # R3: homes and starting units.
    home_owner: dict[str, str] = {}
    for g in gmap.gangs.values():
        for h in g.homes:
            if h in home_owner:
                problems.append(f"{h} is a home of both {home_owner[h]} and {g.key}")
            home_owner[h] = g.key
        placed = [d for _, d in g.units]
        if sorted(placed) != sorted(g.homes):
            problems.append(f"{g.key}: starting units must stand one in each home district (R3)")
        if published_homes:
            want = PUBLISHED_HOMES.get(g.name)
            if want is None:
                problems.append(f"{g.key}: {g.name!r} is not one of the gangs of the published rules")
            elif sorted(want) != sorted(g.homes):
                problems.append(f"{g.key}: homes differ from the published rules ({', '.join(want)})")
    if published_homes:
        if len(home_owner) != 51:
            problems.append(f"{len(home_owner)} home districts; the published rules list 51")
        if len(gmap.gangs) != 8:
            problems.append(f"{len(gmap.gangs)} gangs; the published rules have 8")

    # Scenario, raid table (R21), stocks.
    for code, crates in gmap.scenario.warehouse_stock.items():
        if ds[code].feature is not Feature.WAREHOUSE:
            problems.append(f"scenario stock in {code}, which is not a warehouse")
        elif crates > WAREHOUSE_CAPACITY:
            problems.append(f"scenario stock of {crates} crates in {code}: a warehouse holds at most 10")
    for code in gmap.raid_table:
        if ds[code].feature is Feature.NONE:
            problems.append(f"raid table lists {code}, which has no warehouse, speakeasy or supply zone (R21)")
    unlisted = [c for c, d in ds.items() if d.feature is not Feature.NONE and c not in gmap.raid_table]
    if unlisted:
        notes.append(f"never raided (not in the raid table): {', '.join(unlisted)}")
    if not gmap.raid_table:
        notes.append("the raid table is empty: no raids in this game (R21)")

    counts = {f: sum(1 for d in ds.values() if d.feature is f) for f in Feature}
    notes.insert(
        0,
        f"{len(ds)} districts, {undirected.number_of_edges()} adjacencies, {len(stations)} police stations; "
        f"{counts[Feature.SUPPLY]} supply zones, {counts[Feature.SPEAKEASY]} speakeasies, "
        f"{counts[Feature.WAREHOUSE]} warehouses",
    )
    return CheckReport(problems, notes, balance_table(gmap) if not problems else [])


def balance_table(gmap: GameMap) -> list[BalanceRow]:
    st = initial_state(gmap)
    rows = []
    for g in gmap.gangs.values():
        units = st.units_of(g.key)
        rows.append(
            BalanceRow(
                gang=g.key,
                name=g.name,
                homes=len(g.homes),
                henchmen=sum(1 for u in units if u.kind is UnitKind.H),
                delivery=sum(1 for u in units if u.kind is UnitKind.L),
                vp=scoring.victory_points(gmap, st, g.key),
                production=scoring.production(gmap, st, g.key),
                capacity=scoring.capacity(gmap, st, g.key),
                cash=st.cash[g.key],
                upkeep=200 * len(units),
            )
        )
    return rows
