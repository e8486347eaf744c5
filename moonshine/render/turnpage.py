"""What a Moonshine turn's two pages, each gang's report and the bulletin, share:
the settings they read of a game (``Settings`` and its ``Player``, protocols: the
game layer's ``GameConfig`` and ``Player`` are on a floor above rendering, which may
not import them, and satisfy them), the words a template and the view builders use
(``Words``), districts, stations and gangs by name, the standings, an order's row and
a dislodged unit's fate, the winners' line, and the context both pages start from."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

import msgspec

from moonshine.engine import outcome as oc
from moonshine.render import phrasebook
from moonshine.render.figures import MAP_CID, MAP_FILE
from moonshine.render.turnmap import map_title
from moonshine.text.catalogue import fmt, gettext_for, named
from moonshine.text.money import Money
from moonshine.variants.moonshine import scoring, story
from moonshine.variants.moonshine.houserules import HouseRules
from moonshine.variants.moonshine.map import Feature, GameMap
from moonshine.variants.moonshine.orders import restate
from moonshine.variants.moonshine.results import Dislodgement, Text, TurnResults, UnitResult
from moonshine.variants.moonshine.state import GameState


class Player(Protocol):
    """What a page says of a gang's player (``moonshine.game.directory.Player`` is one)."""

    @property
    def name(self) -> str: ...


class Settings(Protocol):
    """What the pages read of a game's settings (``moonshine.game.directory.GameConfig``
    is one): its title and language, its players and whether their names are hidden
    (an anonymous game), its house rules and the hash of its secret seed."""

    @property
    def title(self) -> str: ...
    @property
    def language(self) -> str: ...
    @property
    def seed_sha256(self) -> str: ...
    @property
    def players(self) -> Mapping[str, Player]: ...
    @property
    def anonymous(self) -> bool: ...
    @property
    def house(self) -> HouseRules: ...


class Words(msgspec.Struct, frozen=True):
    """The language helpers a template and the view builders use."""

    language: str

    def __call__(self, key: str, /, **fields: object) -> str:
        return phrasebook.message(self.language, key, **fields)

    def word(self, text: str) -> str:
        return phrasebook.word(self.language, text)

    def reason(self, text: Text) -> str:
        """A reason in this language (a file of an earlier version gives its English)."""
        return text if isinstance(text, str) else text.text(self.language)

    def explain(self, outcome: oc.Result | None, text: str) -> str:
        """An outcome in this language; a file of an earlier version gives only its text."""
        return self.reason(text) if outcome is None else oc.explain(outcome, self.language)

    def money(self, cents: Money) -> str:
        return phrasebook.money_text(self.language, cents)

    def turn(self, turn: str, capital: bool = False) -> str:
        return phrasebook.turn_label(self.language, turn, capital=capital)

    def turn_of(self, turn: str) -> str:
        return phrasebook.turn_of(self.language, turn)

    @property
    def colon(self) -> str:
        return phrasebook.colon(self.language)

    @property
    def semi(self) -> str:
        return phrasebook.semicolon(self.language)

    def listed(self, names: list[str]) -> str:
        """``A, B and C`` / ``A, B et C``."""
        if len(names) < 2:
            return "".join(names)
        return ", ".join(names[:-1]) + gettext_for(self.language)(" and ") + names[-1]

    @property
    def then(self) -> str:
        """Between an order and what became of it: ``: ``, French `` — ``."""
        return fmt(self.language, "format.result")


def district(gmap: GameMap, code: str, language: str = "en") -> str:
    """A district as the pages name it: ``HYD (Hyde Park)``; its name in ``language``
    where it holds words of English (``UPT (Uptown (avec Edgewater))``)."""
    d = gmap.districts.get(code)
    return f"{code} ({named(language, 'map.district', d.name)})" if d is not None else code


def station(gmap: GameMap, code: str, language: str = "en") -> str:
    """The name of the police station in district ``code`` (the code when it has none),
    as ``language`` writes it: ``Town Hall station``, ``poste Town Hall``."""
    d = gmap.districts.get(code)
    return named(language, "map.station", d.station) if d is not None and d.station else code


def gang_name(gmap: GameMap, key: str | None, language: str | None = None) -> str:
    """A gang's name from its key ("" for nobody); with ``language``, as a sentence
    in that language writes it (French gives it its article: ``le Chicago Outfit``,
    ``les Ragen's Colts``), else as a table or a heading shows it."""
    if key is None:
        return ""
    g = gmap.gangs.get(key)
    if g is None:
        return key
    return named(language, "map.gang", g.name) if language is not None else g.name


def end_of_turn_control(nxt: GameState) -> dict[str, str]:
    """Control when the turn ended (VP are counted then): the next state's control
    before its opening raid closed a speakeasy (returning units take no control, R22)."""
    return story.control_at_end(nxt)


class Standing(msgspec.Struct, frozen=True):
    key: str
    name: str
    colour: str
    districts: int
    supply: int
    speakeasies: int
    others: int
    stations: int
    assaults: int
    vp: int
    computed_vp: int  # from the position; equals ``vp`` unless the results are inconsistent
    winner: bool


def standings(gmap: GameMap, res: TurnResults, nxt: GameState) -> list[Standing]:
    """Every gang's districts and VP at the end of the turn, best first (ties in map order)."""
    control = end_of_turn_control(nxt)
    out = []
    for key, g in gmap.gangs.items():
        mine = [d for d, owner in control.items() if owner == key]
        feats = [gmap.districts[d].feature for d in mine]
        supply = feats.count(Feature.SUPPLY)
        speak = feats.count(Feature.SPEAKEASY)
        stations = sum(1 for owner in res.corruption.values() if owner == key)
        assaults = len(set(nxt.assaulted.get(key, [])))
        computed = (
            (len(mine) - supply - speak)
            + 2 * speak
            + 3 * supply
            + scoring.CORRUPTION_VP * stations
            + scoring.ASSAULT_VP * assaults
        )
        out.append(
            Standing(
                key=key,
                name=g.name,
                colour=g.colour,
                districts=len(mine),
                supply=supply,
                speakeasies=speak,
                others=len(mine) - supply - speak,
                stations=stations,
                assaults=assaults,
                vp=res.vp.get(key, computed),
                computed_vp=computed,
                winner=key in res.winners,
            )
        )
    order = list(gmap.gangs)
    return sorted(out, key=lambda s: (-s.vp, order.index(s.key)))


class OrderRow(msgspec.Struct, frozen=True):
    order: str
    succeeded: bool
    result: str  # translated word
    reason: str  # translated
    line: str  # "order: reason", the judges' way


class TextRow(msgspec.Struct, frozen=True):
    label: str
    text: str


def order_row(w: Words, u: UnitResult) -> OrderRow:
    """A unit's order and its result, in the reader's words."""
    result = w.word("succeeded" if u.succeeded else "failed")
    reason = w.explain(u.outcome, u.reason)
    order = restate(u.order, w.language)
    return OrderRow(order, u.succeeded, result, reason, order + w.then + (reason or result))


def dislodged_text(w: Words, d: Dislodgement) -> str:
    """``dislodged by H LOO - NSS; retreated to GRA``: the reason tells the unit's fate."""
    first = w("dislodged.by", by=d.by) if d.by else w("dislodged.plain")
    if d.reason or d.outcome is not None:
        fate = w.explain(d.outcome, d.reason)
    elif d.retreated_to:
        fate = w("dislodged.retreated", district=d.retreated_to)
    else:
        fate = w("dislodged.disbanded")
    return first + w.semi + fate


def common(gmap: GameMap, config: Settings, res: TurnResults, w: Words, for_email: bool) -> dict[str, Any]:
    """The context both pages start from: the game, the turn and the next, the map's title and picture."""
    return {
        "_": w,
        "lang": w.language,
        "game_title": config.title,
        "map_title": map_title(gmap, res.turn, w.language),
        "turn": res.turn,
        "turn_label": w.turn(res.turn),
        "turn_title": w.turn(res.turn, capital=True),
        "next_turn": res.next.turn,
        "next_label": w.turn(res.next.turn),
        "next_title": w.turn(res.next.turn, capital=True),
        "next_of": w.turn_of(res.next.turn),
        "colon": w.colon,
        "map_src": MAP_CID if for_email else MAP_FILE,
        "game_over": bool(res.winners),
        "credits": gettext_for(w.language)(gmap.credits) if gmap.credits else "",
    }


def winner_line(gmap: GameMap, res: TurnResults, w: Words) -> str:
    """Who won, and with how many VP ("" while the game goes on)."""
    if not res.winners:
        return ""
    names = w.listed([gang_name(gmap, g, w.language) for g in res.winners])
    vp = res.vp.get(res.winners[0], 0)
    return w("winner.one" if len(res.winners) == 1 else "winner.many", gangs=names, vp=vp)


__all__ = [
    "OrderRow",
    "Player",
    "Settings",
    "Standing",
    "TextRow",
    "Words",
    "common",
    "dislodged_text",
    "district",
    "end_of_turn_control",
    "gang_name",
    "order_row",
    "standings",
    "station",
    "winner_line",
]
