"""A raid told in sentences, for a Moonshine turn's pages: the public sentence (who
raided where, and what it did), the short one that opens the bulletin's story, the
raid as a sentence of its own, and what it did to one gang, in that gang's words."""

from __future__ import annotations

from moonshine.render.turnpage import Words, district, gang_name, station
from moonshine.variants.moonshine.map import Feature, GameMap
from moonshine.variants.moonshine.state import Raid


def _split_unit(label: str) -> tuple[str, str]:
    """``outfit H NOC`` -> (``outfit``, ``H NOC``)."""
    gang, _, unit = label.partition(" ")
    return gang, unit


def describe_raid(gmap: GameMap, raid: Raid | None, w: Words) -> str:
    """One public sentence: who raided where, and what it did."""
    if raid is None:
        return w("raid.none")
    if raid.by == "untouchables":
        text = w("raid.raided_plural", who=w("raid.untouchables"), district=district(gmap, raid.district, w.language))
    else:
        who = w("raid.police", station=station(gmap, raid.station, w.language), code=raid.station)
        text = w("raid.raided", who=who, district=district(gmap, raid.district, w.language))
    if raid.controller is None:
        return text + ", " + w("raid.nobody")
    text += ", " + w("raid.controller", gang=gang_name(gmap, raid.controller, w.language))
    bits = []
    if raid.spared:
        bits.append(w("raid.spared", gang=gang_name(gmap, raid.controller, w.language)))
    else:
        effects = []
        if raid.crates:
            effects.append(w("raid.destroyed" if raid.by == "untouchables" else "raid.seized", n=raid.crates))
        if raid.speakeasy_closed:
            effects.append(w("raid.closed"))
        if gmap.districts[raid.district].feature is Feature.SUPPLY:
            effects.append(w("raid.dry"))
        bits += effects or [w("raid.empty")]
    if raid.arrested:
        units = ", ".join(_unit_of_gang(gmap, a) for a in raid.arrested)
        bits.append(w("raid.arrested", units=units, n=len(raid.arrested)))
    if raid.spared_units:
        units = ", ".join(_unit_of_gang(gmap, a) for a in raid.spared_units)
        bits.append(w("raid.units_spared", units=units, n=len(raid.spared_units)))
    return text + w.colon + w.semi.join(bits)


def raid_sentence(gmap: GameMap, raid: Raid | None, w: Words, key: str) -> str:
    """The raid as a sentence of its own (``key``: this turn's or the next), or "No raid."."""
    return w("raid.no_raid") if raid is None else w(key, text=describe_raid(gmap, raid, w))


def raid_short(gmap: GameMap, raid: Raid, w: Words) -> str:
    """``The police (Town Hall station, LAK) raided NOC (North Center), controlled by
    Chicago Outfit``: who raided where, for the story (the details follow below)."""
    if raid.by == "untouchables":
        text = w("raid.raided_plural", who=w("raid.untouchables"), district=district(gmap, raid.district, w.language))
    else:
        who = w("raid.police", station=station(gmap, raid.station, w.language), code=raid.station)
        text = w("raid.raided", who=who, district=district(gmap, raid.district, w.language))
    if raid.controller is not None:
        text += ", " + w("raid.controller", gang=gang_name(gmap, raid.controller, w.language))
    return text[:1].upper() + text[1:]


def _unit_of_gang(gmap: GameMap, label: str) -> str:
    gang, unit = _split_unit(label)
    return f"{unit} ({gang_name(gmap, gang)})"  # a label: the gang's name as a table shows it


def raid_effects_for(gmap: GameMap, raid: Raid | None, gang: str, back_turn: str, w: Words) -> list[str]:
    """What a raid does to one gang, in its own words."""
    if raid is None:
        return [w("raid.you.none")]
    out: list[str] = []
    place = district(gmap, raid.district, w.language)
    if raid.controller == gang:
        if raid.spared:
            out.append(w("raid.you.spared", district=place))
        else:
            before = len(out)
            if raid.crates:
                key = "raid.you.destroyed" if raid.by == "untouchables" else "raid.you.seized"
                out.append(w(key, n=raid.crates, district=place))
            if raid.speakeasy_closed:
                out.append(w("raid.you.closed", district=place))
            if gmap.districts[raid.district].feature is Feature.SUPPLY:
                out.append(w("raid.you.dry", district=place))
            if len(out) == before:
                out.append(w("raid.you.hit", district=place))
    for label in raid.arrested:
        g, unit = _split_unit(label)
        if g == gang:
            out.append(
                w(
                    "raid.you.arrested",
                    unit=unit,
                    turn=w.turn(back_turn),
                    turn_of=w.turn_of(back_turn),
                    code=raid.station,
                )
            )
    for label in raid.spared_units:
        g, unit = _split_unit(label)
        if g == gang:
            out.append(w("raid.you.unit_spared", unit=unit))
    return out or [w("raid.you.none")]


def raid_done_to(gmap: GameMap, raid: Raid | None, gang: str, back_turn: str, w: Words) -> list[str]:
    """What this turn's raid did to one gang, each loss named, for the first screen of
    its report (nothing when it did not touch the gang): ``H NOC was arrested by the
    raid on NOC (R22)...``, ``5 crates seized in NOC``. ``back_turn``: the turn its
    arrested units come back."""
    if raid is None:
        return []
    out: list[str] = []
    place = district(gmap, raid.district, w.language)
    who = (
        w("raid.untouchables")
        if raid.by == "untouchables"
        else w("raid.police", station=station(gmap, raid.station, w.language), code=raid.station)
    )
    if raid.controller == gang:
        if raid.spared:
            out.append(w("raid.done.spared", district=place, who=who))
        else:
            if raid.crates:
                key = "raid.done.destroyed" if raid.by == "untouchables" else "raid.done.seized"
                out.append(w(key, n=raid.crates, district=raid.district, who=who))
            if raid.speakeasy_closed:
                out.append(w("raid.done.closed", district=place, who=who))
            if gmap.districts[raid.district].feature is Feature.SUPPLY:
                out.append(w("raid.done.dry", district=place, who=who))
    for label in raid.arrested:
        g, unit = _split_unit(label)
        if g == gang:
            out.append(
                w(
                    "raid.done.arrested",
                    unit=unit,
                    district=raid.district,
                    turn=w.turn(back_turn),
                    turn_of=w.turn_of(back_turn),
                    code=raid.station,
                )
            )
    for label in raid.spared_units:
        g, unit = _split_unit(label)
        if g == gang:
            out.append(w("raid.done.unit_spared", unit=unit, district=raid.district))
    return out


__all__ = ["describe_raid", "raid_done_to", "raid_effects_for", "raid_sentence", "raid_short"]
