"""Police raids and the Untouchables (R21 to R23), and the return of arrested
units at the opening of a turn (R22). Pure functions of map, state and seed."""

from __future__ import annotations

import hashlib
import hmac

import msgspec

from moonshine.text.catalogue import Message, sentence
from moonshine.variants.moonshine.calendar import is_untouchables
from moonshine.variants.moonshine.map import Feature, GameMap, UnitKind
from moonshine.variants.moonshine.state import Arrested, GameState, Raid, Unit


class Draw(msgspec.Struct, frozen=True):
    district: str
    value: int  # the HMAC read as a big-endian integer
    digest: str  # its hex form, published for audit
    total: int  # the table's total weight
    index: int  # value % total


def draw_raid(gmap: GameMap, seed: str, turn: str) -> Draw | None:
    """R21: HMAC-SHA256(key = seed, message = turn name), read big-endian, modulo the
    raid table's total weight, picks the entry walking the table in its listed order.
    None when the map's raid table is empty: there is no raid."""
    if not gmap.raid_table:
        return None
    digest = hmac.new(seed.encode("utf-8"), turn.encode("utf-8"), hashlib.sha256).digest()
    return draw_of_digest(gmap, digest.hex())


def draw_of_digest(gmap: GameMap, digest: str) -> Draw | None:
    """The entry of the raid table that a draw's HMAC (64 hexadecimal digits, as a
    bulletin publishes it) picks, as ``draw_raid`` reads it: what anyone can check of a
    raid without the seed. None when the map's raid table is empty; ValueError when
    ``digest`` is not an HMAC-SHA256 in hexadecimal."""
    total = sum(gmap.raid_table.values())
    if total == 0:
        return None
    if len(digest) != 64 or any(c not in "0123456789abcdef" for c in digest):
        raise ValueError(f"not a raid draw's HMAC-SHA256 (64 hexadecimal digits): {digest!r}")
    value = int(digest, 16)
    index = value % total
    acc = 0
    for district, weight in gmap.raid_table.items():
        acc += weight
        if index < acc:
            return Draw(district, value, digest, total, index)
    raise AssertionError("unreachable: index below total weight")


class Return(msgspec.Struct, frozen=True):
    unit: Unit | None  # where it came back, None when disbanded
    arrested: Arrested
    why: Message

    @property
    def note(self) -> str:
        return self.why.text()


def _can_take(st: GameState, district: str, kind: UnitKind, gang: str) -> bool:
    return all(u.gang == gang and u.kind is not kind for u in st.units_in(district))


def return_arrested(gmap: GameMap, st: GameState) -> list[Return]:
    """R22: arrested units come back at the start of the next turn, before its raid, in
    their station's district; if that clashes with R4, one at a time in the nearest
    district their gang controls that can take them (ties alphabetical), else disbanded.
    A returning unit takes no control and keeps its recruitment turn (R17). They come
    back one at a time, in alphabetical order of gang key, then of station, then of
    the district they were arrested in (R22, amended); one gang's L and H arrested in
    one district cannot be in each other's way (R4 lets them share a district), so
    the order between them (H first) changes nothing. Mutates ``st``."""
    out: list[Return] = []
    for a in sorted(st.arrested, key=return_order):
        arrested = a.kind.value + " " + a.taken_in  # the unit as its gang knew it: H NOC
        if _can_take(st, a.station, a.kind, a.gang):
            unit = Unit(a.station, a.kind, a.gang, a.recruited)
            st.units.append(unit)
            why = sentence(
                "{u}, arrested by the raid on {t}, was released at the station in {d} (R22)",
                u=arrested,
                t=a.taken_in,
                d=a.station,
            )
            out.append(Return(unit, a, why))
            continue
        place = _nearest_home(gmap, st, a)
        if place is None:
            why = sentence(
                "{u}, arrested by the raid on {t}, was released with nowhere to go: disbanded (R22)",
                u=arrested,
                t=a.taken_in,
            )
            out.append(Return(None, a, why))
            continue
        unit = Unit(place, a.kind, a.gang, a.recruited)
        st.units.append(unit)
        note = sentence(
            "{u}, arrested by the raid on {t}, was released; {s} was occupied, so it went to {d} (R22)",
            u=arrested,
            t=a.taken_in,
            s=a.station,
            d=place,
        )
        out.append(Return(unit, a, note))
    st.arrested = []
    st.normalise(gmap)
    return out


def return_order(a: Arrested) -> tuple[str, str, str, str]:
    """R22 (amended): gang key, then station, then the district of the arrest."""
    return (a.gang, a.station, a.taken_in, a.kind.value)


def _nearest_home(gmap: GameMap, st: GameState, a: Arrested) -> str | None:
    """The nearest district (the map's distances from the station, ``GameMap.steps_from``)
    that the unit's gang controls and that can take it; ties alphabetical."""
    owned = set(st.controlled_by(a.gang))
    steps = gmap.steps_from(a.station)
    fits = [(n, d) for d, n in steps.items() if d in owned and _can_take(st, d, a.kind, a.gang)]
    return min(fits)[1] if fits else None


def apply_raid(gmap: GameMap, st: GameState, draw: Draw, turn: str) -> Raid:
    """R22/R23: the raid's effects on the state (mutated), returned as a record."""
    district = draw.district
    untouchables = is_untouchables(turn)
    station = gmap.precinct_of(district)
    controller = st.control.get(district)
    corrupt = None if untouchables else st.corruption.get(station)
    if controller is None:
        return Raid(
            district, "untouchables" if untouchables else "police", station, False, None, 0, (), (), False, draw.digest
        )
    spared = corrupt is not None and corrupt == controller
    crates = 0
    closed = False
    if not spared:
        crates = st.stocks.get(district, 0)
        if crates:
            st.stocks[district] = 0
            if not untouchables:
                st.confiscated[station] = st.confiscated.get(station, 0) + crates
        if gmap.districts[district].feature is Feature.SPEAKEASY:
            del st.control[district]
            closed = True
    arrested: list[str] = []
    spared_units: list[str] = []
    for u in st.units_in(district):
        label = f"{u.gang} {u.kind.value} {u.district}"
        if corrupt is not None and corrupt == u.gang:
            spared_units.append(label)
            continue
        st.units.remove(u)
        st.arrested.append(Arrested(station, u.kind, u.gang, district, u.recruited))
        arrested.append(label)
    st.normalise(gmap)
    return Raid(
        district=district,
        by="untouchables" if untouchables else "police",
        station=station,
        spared=spared,
        controller=controller,
        crates=crates,
        arrested=tuple(arrested),
        spared_units=tuple(spared_units),
        speakeasy_closed=closed,
        draw=draw.digest,
    )


def open_turn(gmap: GameMap, st: GameState, seed: str | None) -> list[Return]:
    """Steps 1 and 2 of a turn for ``st`` (already carrying the new turn's name and
    price): arrested units return, then the raid is drawn and applied (R21 to R23).
    With no seed (``None``: a game replayed from its export, the seed still secret),
    the raid is left to draw: ``st.raid`` stays None."""
    returns = return_arrested(gmap, st)
    if seed is None:
        return returns
    draw = draw_raid(gmap, seed, st.turn)
    st.raid = None if draw is None else apply_raid(gmap, st, draw, st.turn)
    return returns
