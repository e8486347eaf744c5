"""The map picture of a Moonshine turn as its pages and files name it: its title,
and what it draws of the turn's results (every unit order as an arrow, the units
dislodged). ``moonshine.variants.moonshine.scene`` draws them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from moonshine.errors import StateError
from moonshine.render import phrasebook
from moonshine.variants.moonshine.map import GameMap, UnitKind
from moonshine.variants.moonshine.orders import (
    Assault,
    Hold,
    Move,
    SupportAssault,
    SupportHold,
    SupportMove,
    Transport,
    parse_canonical,
)
from moonshine.variants.moonshine.results import TurnResults, as_results
from moonshine.variants.moonshine.scene import Arrow, Dislodged


def picture_title(gmap: GameMap, turn: str, language: str) -> str:
    """The map picture's title says what it shows: ``Chicago, spring 1924: the orders
    and the position after them``."""
    return (
        map_title(gmap, turn, language) + phrasebook.colon(language) + phrasebook.message(language, "map.title_shows")
    )


def map_title(gmap: GameMap, turn: str, language: str) -> str:
    """The picture's title: the map's place and the turn, e.g. ``Chicago, spring 1924``."""
    place = gmap.title.split(",")[0].strip() or gmap.name
    return f"{place}, {phrasebook.turn_label(language, turn)}"


def _chain(gmap: GameMap | None, origin: str, carriers: Sequence[str]) -> tuple[str, ...]:
    """Carriers in the order the carried H passes them: walking from its origin to
    the next adjacent carrier (map known), else as given."""
    if gmap is None:
        return tuple(carriers)
    left = list(carriers)
    out: list[str] = []
    here = origin
    while left:
        nxt = next((c for c in sorted(left) if gmap.adjacent(here, c)), None)
        if nxt is None:
            out += left
            break
        out.append(nxt)
        left.remove(nxt)
        here = nxt
    return tuple(out)


def arrows_from_results(data: TurnResults | Mapping[str, Any], gmap: GameMap | None = None) -> list[Arrow]:
    """Every unit order of the turn as an arrow for the map: moves, supports,
    assaults, transports (one arrow per carried H, through its carriers) and
    retreats, each marked succeeded or failed. Holds draw nothing. Given the map,
    an unnamed chain of carriers is put in route order."""
    res = as_results(data)
    arrows: list[Arrow] = []
    moves: dict[tuple[str, str], Move] = {}
    transports: dict[tuple[str, str], list[tuple[str, str, bool]]] = {}
    for gang, gr in res.gangs.items():
        for u in gr.units:
            try:
                order = parse_canonical(u.order)
            except ValueError:
                raise StateError(
                    "<results>", f"gangs.{gang}.units", f"not an order in canonical form: {u.order!r}"
                ) from None
            ok = u.succeeded
            if isinstance(order, Hold):
                continue
            if isinstance(order, Move):
                moves[(order.unit.district, order.dest)] = order
                arrows.append(Arrow("move", gang, order.unit.district, order.dest, ok, path=order.path or order.via))
            elif isinstance(order, SupportHold):
                arrows.append(
                    Arrow(
                        "support",
                        gang,
                        order.unit.district,
                        order.target.district,
                        ok,
                        target_kind=order.target.kind.value,
                    )
                )
            elif isinstance(order, SupportMove | SupportAssault):
                end = order.dest if isinstance(order, SupportMove) else order.station
                arrows.append(Arrow("support", gang, order.unit.district, order.target.district, ok, target_end=end))
            elif isinstance(order, Assault):
                arrows.append(Arrow("assault", gang, order.unit.district, order.station, ok))
            elif isinstance(order, Transport):
                transports.setdefault((order.target.district, order.dest), []).append((gang, order.unit.district, ok))
    for (origin, dest), carriers in transports.items():
        move = moves.get((origin, dest))
        named = [c for _, c, _ in carriers]
        if move is not None and move.via and set(named) <= set(move.via):
            path = tuple(c for c in move.via if c in named)
        else:
            path = _chain(gmap, origin, named)
        ok = all(c_ok for _, _, c_ok in carriers)
        arrows.append(Arrow("transport", carriers[0][0], origin, dest, ok, path=path))
    for gang, gr in res.gangs.items():
        for d in gr.dislodged:
            if d.retreated_to:
                arrows.append(Arrow("retreat", gang, d.unit.split()[-1], d.retreated_to, True))
    return arrows


def dislodged_units(data: TurnResults | Mapping[str, Any]) -> list[Dislodged]:
    """The units dislodged this turn, for the map: where they stood and their fate."""
    out = []
    for gang, gr in as_results(data).gangs.items():
        for d in gr.dislodged:
            kind, _, district = d.unit.partition(" ")
            out.append(Dislodged(gang, UnitKind(kind), district, None if d.disbanded else d.retreated_to))
    return out


__all__ = ["arrows_from_results", "dislodged_units", "map_title", "picture_title"]
