"""The game state at the start of a turn, saved as readable YAML with a stable
order so that a turn's diff in git is meaningful."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import msgspec

from moonshine.errors import StateError
from moonshine.text import money
from moonshine.text.money import Money
from moonshine.variants.moonshine.calendar import Turn
from moonshine.variants.moonshine.map import Feature, GameMap, UnitKind

STATE_VERSION = 1


class Unit(msgspec.Struct, frozen=True, order=True):
    district: str
    kind: UnitKind
    gang: str
    recruited: str = ""  # the turn it was recruited in ("" for starting units): R17 disbands the newest first

    def label(self) -> str:
        return f"{self.kind.value} {self.district}"


class Arrested(msgspec.Struct, frozen=True, order=True):
    """A unit taken by a raid: off the board for the turn, back at the start of the
    next turn in its station's district (R22)."""

    station: str  # the district of the station holding it
    kind: UnitKind
    gang: str
    taken_in: str  # where it was arrested
    recruited: str = ""  # kept while arrested and after it returns (R17): "" for a starting unit

    def label(self) -> str:
        return f"{self.kind.value} (arrested in {self.taken_in})"


class Raid(msgspec.Struct, frozen=True):
    """The raid of this turn's step 2 (R21 to R23), already applied to the state."""

    district: str
    by: str  # "police" or "untouchables"
    station: str  # the raiding station's district (the precinct)
    spared: bool  # the controller corrupts the station: no effect on the district
    controller: str | None  # who controlled the district when raided
    crates: int  # crates taken (confiscated, or destroyed by the Untouchables)
    arrested: tuple[str, ...]  # e.g. "outfit L UPT"
    spared_units: tuple[str, ...] = ()
    speakeasy_closed: bool = False
    draw: str = ""  # the HMAC value (hex) that picked the entry, for audit


class Units(list[Unit]):
    """The units on the board, in order: a list like any other that also answers,
    without a scan, which unit stands in a district, which are there and whose they
    are. The answers are worked out on the first question after a change."""

    __slots__ = ("_index",)

    def __init__(self, units: Iterable[Unit] = ()) -> None:
        super().__init__(units)
        self._index: _UnitIndex | None = None

    def lookup(self) -> _UnitIndex:
        if self._index is None:
            self._index = _UnitIndex(self)
        return self._index

    def __reduce__(self) -> tuple[Any, ...]:
        return (Units, (list(self),))

    def __copy__(self) -> Units:
        return Units(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> Units:
        import copy

        return Units(copy.deepcopy(list(self), memo))


def _changes(name: str) -> Any:
    method = getattr(list, name)

    def changed(self: Units, *args: Any, **kwargs: Any) -> Any:
        self._index = None
        return method(self, *args, **kwargs)

    changed.__name__ = name
    changed.__doc__ = method.__doc__
    return changed


for _name in (
    "append",
    "extend",
    "insert",
    "remove",
    "pop",
    "clear",
    "sort",
    "reverse",
    "__setitem__",
    "__delitem__",
    "__iadd__",
    "__imul__",
):
    setattr(Units, _name, _changes(_name))


class _UnitIndex:
    """Who stands where, built in one pass over the units (list order kept)."""

    __slots__ = ("at", "of", "within")

    def __init__(self, units: Iterable[Unit]) -> None:
        self.at: dict[tuple[UnitKind, str], Unit] = {}
        self.within: dict[str, list[Unit]] = {}
        self.of: dict[str, list[Unit]] = {}
        for u in units:
            self.at.setdefault((u.kind, u.district), u)
            self.within.setdefault(u.district, []).append(u)
            self.of.setdefault(u.gang, []).append(u)


class GameState(msgspec.Struct):
    turn: str
    price: Money
    units: list[Unit] = msgspec.field(default_factory=list)
    control: dict[str, str] = msgspec.field(default_factory=dict)  # district -> gang
    stocks: dict[str, int] = msgspec.field(default_factory=dict)  # warehouse district -> crates
    cash: dict[str, Money] = msgspec.field(default_factory=dict)  # gang -> cents
    corruption: dict[str, str] = msgspec.field(default_factory=dict)  # station district -> gang
    confiscated: dict[str, int] = msgspec.field(default_factory=dict)  # station district -> crates
    assaulted: dict[str, list[str]] = msgspec.field(default_factory=dict)  # gang -> stations taken (VP once)
    arrested: list[Arrested] = msgspec.field(default_factory=list)
    raid: Raid | None = None
    sold: dict[str, int] = msgspec.field(default_factory=dict)  # turn name -> crates sold by all (R20)
    winners: list[str] = msgspec.field(default_factory=list)

    def __post_init__(self) -> None:
        if not isinstance(self.units, Units):
            self.units = Units(self.units)  # through __setattr__: the indexed list

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "units" and not isinstance(value, Units):
            value = Units(value)  # any list given becomes an indexed one
        super().__setattr__(name, value)

    # -- queries (by index, not by scanning the units) ----------------------------
    def _index(self) -> _UnitIndex:
        units = self.units
        if not isinstance(units, Units):  # changed behind __setattr__'s back
            units = Units(units)
        return units.lookup()

    def units_of(self, gang: str) -> list[Unit]:
        return list(self._index().of.get(gang, ()))

    def units_in(self, district: str) -> list[Unit]:
        return list(self._index().within.get(district, ()))

    def unit_at(self, kind: UnitKind, district: str) -> Unit | None:
        return self._index().at.get((kind, district))

    def controlled_by(self, gang: str) -> list[str]:
        return [d for d, g in self.control.items() if g == gang]

    def copy(self) -> GameState:
        """An independent copy: every list and mapping is new; the units, arrests and
        raid are immutable values and are shared rather than copied one by one."""
        return GameState(**{name: _fresh(getattr(self, name)) for name in self.__struct_fields__})

    def normalise(self, gmap: GameMap) -> None:
        """Put every collection in its canonical order (map order, then kind)."""
        area = {c: d.area for c, d in gmap.districts.items()}
        order = list(gmap.gangs)
        self.units.sort(key=lambda u: (area[u.district], u.kind.value))
        self.control = {d: self.control[d] for d in sorted(self.control, key=area.__getitem__)}
        self.stocks = {d: self.stocks[d] for d in sorted(self.stocks, key=area.__getitem__)}
        self.cash = {g: self.cash[g] for g in sorted(self.cash, key=order.index)}
        self.corruption = {s: self.corruption[s] for s in sorted(self.corruption, key=area.__getitem__)}
        self.confiscated = {s: self.confiscated[s] for s in sorted(self.confiscated, key=area.__getitem__)}
        self.assaulted = {
            g: sorted(v, key=area.__getitem__)
            for g, v in sorted(self.assaulted.items(), key=lambda kv: order.index(kv[0]))
            if v
        }
        self.arrested.sort(key=lambda a: (area[a.station], a.kind.value, a.gang, area[a.taken_in]))
        self.sold = {t: self.sold[t] for t in sorted(self.sold, key=Turn.parse)}


def _fresh(value: Any) -> Any:
    """``value`` with new lists and dicts all the way down; other values (text,
    numbers, frozen structs) are immutable and kept."""
    if isinstance(value, list):
        return [_fresh(v) for v in value]
    if isinstance(value, dict):
        return {k: _fresh(v) for k, v in value.items()}
    return value


def initial_state(gmap: GameMap) -> GameState:
    """The scenario's starting position (R3): every gang controls its homes with one
    unit in each; warehouses hold the scenario's stock; no raid yet."""
    s = gmap.scenario
    st = GameState(turn=s.start, price=s.price)
    for g in gmap.gangs.values():
        for kind, d in g.units:
            st.units.append(Unit(d, kind, g.key))
        for d in g.homes:
            st.control[d] = g.key
        st.cash[g.key] = s.cash
    for d, n in s.warehouse_stock.items():
        st.stocks[d] = n
    for code, dist in gmap.districts.items():
        if dist.feature is Feature.WAREHOUSE:
            st.stocks.setdefault(code, 0)
    st.normalise(gmap)
    return st


# -- YAML ----------------------------------------------------------------------


def to_data(st: GameState) -> dict[str, Any]:
    units: dict[str, list[str]] = {g: [] for g in st.cash}  # gangs in map order (normalise)
    for u in st.units:
        units.setdefault(u.gang, []).append(
            f"{u.kind.value} {u.district}" + (f" (recruited {u.recruited})" if u.recruited else "")
        )
    data: dict[str, Any] = {
        "version": STATE_VERSION,
        "turn": st.turn,
        "price": money.to_yaml(st.price),
        "cash": {g: money.to_yaml(c) for g, c in st.cash.items()},
        "units": {g: lst for g, lst in units.items() if lst},
        "control": dict(st.control),
        "stocks": dict(st.stocks),
        "corruption": dict(st.corruption),
        "confiscated": dict(st.confiscated),
        "assaulted": {g: list(v) for g, v in st.assaulted.items()},
        "arrested": [
            {"gang": a.gang, "unit": a.kind.value, "station": a.station, "taken_in": a.taken_in}
            | ({"recruited": a.recruited} if a.recruited else {})
            for a in st.arrested
        ],
        "raid": None,
        "sold": dict(st.sold),
        "winners": list(st.winners),
    }
    if st.raid is not None:
        r = st.raid
        data["raid"] = {
            "district": r.district,
            "by": r.by,
            "station": r.station,
            "controller": r.controller,
            "spared": r.spared,
            "crates": r.crates,
            "arrested": list(r.arrested),
            "spared_units": list(r.spared_units),
            "speakeasy_closed": r.speakeasy_closed,
            "draw": r.draw,
        }
    return data


def dumps(st: GameState) -> str:
    from moonshine import yamlio

    return f"# Moonshine game state at the start of {st.turn}\n" + yamlio.dump(to_data(st))


class _StateReader:
    def __init__(self, source: str, gmap: GameMap) -> None:
        self.source = source
        self.gmap = gmap

    def fail(self, key: str, problem: str) -> StateError:
        return StateError(self.source, key, problem)

    def mapping(self, raw: Mapping[str, Any], key: str) -> dict[Any, Any]:
        v = raw.get(key, {})
        if v is None:
            return {}
        if not isinstance(v, dict):
            raise self.fail(key, f"expected a mapping, found {type(v).__name__}")
        return v

    def district(self, code: Any, key: str) -> str:
        if not isinstance(code, str) or code not in self.gmap.districts:
            raise self.fail(key, f"unknown district {code!r}")
        return code

    def gang(self, key_: Any, key: str) -> str:
        if not isinstance(key_, str) or key_ not in self.gmap.gangs:
            raise self.fail(key, f"unknown gang {key_!r} (gangs: {', '.join(self.gmap.gangs)})")
        return key_

    def count(self, v: Any, key: str) -> int:
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:
            raise self.fail(key, f"expected a number of crates, found {v!r}")
        return v

    def cash(self, v: Any, key: str) -> Money:
        try:
            return money.dollars(v)
        except ValueError as exc:
            raise self.fail(key, str(exc)) from None

    def kind(self, v: Any, key: str) -> UnitKind:
        if v not in ("L", "H"):
            raise self.fail(key, f"expected L or H, found {v!r}")
        return UnitKind(v)


def from_data(raw: Any, gmap: GameMap, *, source: str = "<state>") -> GameState:
    r = _StateReader(source, gmap)
    if not isinstance(raw, dict):
        raise r.fail("", "expected a mapping at the top of the file")
    turn = raw.get("turn")
    try:
        Turn.parse(str(turn))
    except ValueError as exc:
        raise r.fail("turn", str(exc)) from None
    st = GameState(turn=str(turn), price=r.cash(raw.get("price"), "price"))
    for g, c in r.mapping(raw, "cash").items():
        st.cash[r.gang(g, "cash")] = r.cash(c, f"cash.{g}")
    seen: dict[tuple[UnitKind, str], str] = {}
    for g, lst in r.mapping(raw, "units").items():
        gang = r.gang(g, "units")
        if not isinstance(lst, list):
            raise r.fail(f"units.{g}", "expected a list like ['H LOO', 'L NSS']")
        for i, text in enumerate(lst):
            key = f"units.{g}[{i}]"
            parts = str(text).split()
            recruited = ""
            if len(parts) == 4 and parts[2] == "(recruited" and parts[3].endswith(")"):
                recruited = parts[3][:-1]
                try:
                    Turn.parse(recruited)
                except ValueError as exc:
                    raise r.fail(key, str(exc)) from None
            elif len(parts) != 2:
                raise r.fail(key, f"expected 'L CODE', 'H CODE' or 'H CODE (recruited TURN)', found {text!r}")
            kind = r.kind(parts[0], key)
            d = r.district(parts[1], key)
            if (kind, d) in seen:
                raise r.fail(key, f"two {kind.value} units in {d} (R4)")
            seen[(kind, d)] = gang
            st.units.append(Unit(d, kind, gang, recruited))
    for (kind, d), gang in seen.items():
        other = seen.get((UnitKind.H if kind is UnitKind.L else UnitKind.L, d))
        if other is not None and other != gang:
            raise r.fail("units", f"units of {gang} and {other} both stand in {d} (R4)")
    for d, g in r.mapping(raw, "control").items():
        st.control[r.district(d, "control")] = r.gang(g, f"control.{d}")
    for d, n in r.mapping(raw, "stocks").items():
        code = r.district(d, "stocks")
        if gmap.districts[code].feature is not Feature.WAREHOUSE:
            raise r.fail(f"stocks.{d}", "only warehouses hold crates between turns (R16)")
        st.stocks[code] = r.count(n, f"stocks.{d}")
    for d, g in r.mapping(raw, "corruption").items():
        code = r.district(d, "corruption")
        if not gmap.districts[code].has_station:
            raise r.fail(f"corruption.{d}", f"{d} has no police station")
        st.corruption[code] = r.gang(g, f"corruption.{d}")
    for d, n in r.mapping(raw, "confiscated").items():
        code = r.district(d, "confiscated")
        if not gmap.districts[code].has_station:
            raise r.fail(f"confiscated.{d}", f"{d} has no police station")
        st.confiscated[code] = r.count(n, f"confiscated.{d}")
    for g, lst in r.mapping(raw, "assaulted").items():
        gang = r.gang(g, "assaulted")
        if not isinstance(lst, list):
            raise r.fail(f"assaulted.{g}", "expected a list of stations")
        st.assaulted[gang] = [r.district(d, f"assaulted.{g}") for d in lst]
    arrested = raw.get("arrested") or []
    if not isinstance(arrested, list):
        raise r.fail("arrested", "expected a list")
    for i, a in enumerate(arrested):
        key = f"arrested[{i}]"
        if not isinstance(a, dict):
            raise r.fail(key, "expected a mapping with gang, unit, station, taken_in (and recruited)")
        recruited = str(a.get("recruited") or "")
        if recruited:
            try:
                Turn.parse(recruited)
            except ValueError as exc:
                raise r.fail(f"{key}.recruited", str(exc)) from None
        st.arrested.append(
            Arrested(
                station=r.district(a.get("station"), f"{key}.station"),
                kind=r.kind(a.get("unit"), f"{key}.unit"),
                gang=r.gang(a.get("gang"), f"{key}.gang"),
                taken_in=r.district(a.get("taken_in"), f"{key}.taken_in"),
                recruited=recruited,
            )
        )
    raid = raw.get("raid")
    if raid is not None:
        if not isinstance(raid, dict):
            raise r.fail("raid", "expected a mapping")
        by = raid.get("by")
        if by not in ("police", "untouchables"):
            raise r.fail("raid.by", f"expected police or untouchables, found {by!r}")
        controller = raid.get("controller")
        st.raid = Raid(
            district=r.district(raid.get("district"), "raid.district"),
            by=str(by),
            station=r.district(raid.get("station"), "raid.station"),
            spared=bool(raid.get("spared", False)),
            controller=None if controller is None else r.gang(controller, "raid.controller"),
            crates=r.count(raid.get("crates", 0), "raid.crates"),
            arrested=tuple(str(x) for x in raid.get("arrested") or []),
            spared_units=tuple(str(x) for x in raid.get("spared_units") or []),
            speakeasy_closed=bool(raid.get("speakeasy_closed", False)),
            draw=str(raid.get("draw", "")),
        )
    for t, n in r.mapping(raw, "sold").items():
        try:
            Turn.parse(str(t))
        except ValueError as exc:
            raise r.fail("sold", str(exc)) from None
        st.sold[str(t)] = r.count(n, f"sold.{t}")
    winners = raw.get("winners") or []
    if not isinstance(winners, list):
        raise r.fail("winners", "expected a list of gangs")
    st.winners = [r.gang(g, "winners") for g in winners]
    st.normalise(gmap)
    return st


def loads(text: str, gmap: GameMap, *, source: str = "<state>") -> GameState:
    """A state file's text, checked strictly: its shape (``moonshine.schema.STATE``:
    every key present and typed, no unknown key), then its meaning."""
    from moonshine import schema, yamlio

    raw = yamlio.loads(text, source)
    schema.check(raw, schema.STATE, source)
    st = from_data(raw, gmap, source=source)
    missing = [g for g in gmap.gangs if g not in st.cash]
    if missing:
        line = yamlio.line_of(raw, "cash")
        raise StateError(yamlio.where(source, line), "cash", f"no entry for {', '.join(missing)}")
    return st


def load(path: Path, gmap: GameMap) -> GameState:
    from moonshine import yamlio

    return loads(yamlio.read_text(path, what="state file"), gmap, source=str(path))
