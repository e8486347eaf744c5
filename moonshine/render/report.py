"""A turn's pages: each gang's private report and the public bulletin, in text and
HTML, English or French, and the map picture's arrows, from the map, the game's
settings, the turn's results (``moonshine.variants.moonshine.results``) and the next
turn's opening state. Pure: the pages are laid out by the templates
(``moonshine.render.pages``); ``moonshine.game.reports`` writes them into the game.

Privacy (R19): unit orders and their results, raids, control, VP and who corrupts
which station are public; a gang's order lines, sales, bids, stocks, ledger and cash
appear in its own report only."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

import msgspec

from moonshine.engine import outcome as oc
from moonshine.errors import GameError, StateError
from moonshine.render import pages, phrasebook, receipts
from moonshine.text.catalogue import gettext_for
from moonshine.text.money import Money
from moonshine.variants.moonshine import scoring, story
from moonshine.variants.moonshine.calendar import Turn
from moonshine.variants.moonshine.houserules import HouseRules
from moonshine.variants.moonshine.map import UPKEEP, Feature, GameMap, UnitKind
from moonshine.variants.moonshine.orders import (
    Assault,
    Hold,
    Move,
    SupportAssault,
    SupportHold,
    SupportMove,
    Transport,
    parse_canonical,
    restate,
)
from moonshine.variants.moonshine.results import (
    AdjustmentRecord,
    Dislodgement,
    GangResults,
    LedgerRecord,
    LineRecord,
    Text,
    TurnResults,
    UnitResult,
    as_results,
    check_results,
)
from moonshine.variants.moonshine.scene import Arrow, Dislodged
from moonshine.variants.moonshine.state import Arrested, GameState, Raid

if TYPE_CHECKING:
    pass


MAP_FILE = "map.png"


MAP_CID = "cid:map.png"


MAP_WIDTH = 1000


def map_file(language: str, game_language: str, ext: str = "png") -> str:
    """The name of the turn's map picture in ``language``: ``map.png`` in the game's
    language, ``map.fr.png`` in another one a player reads."""
    return f"map.{ext}" if language == game_language else f"map.{language}.{ext}"


def legend_file(language: str, game_language: str) -> str:
    """The name of the picture of the map's legend in ``language``: ``legend.png`` in
    the game's language, ``legend.fr.png`` in another one a player reads."""
    return "legend.png" if language == game_language else f"legend.{language}.png"


class Legend(msgspec.Struct, frozen=True):
    """The picture of the map's legend beside a page: its file and the size the page
    shows it at, in CSS px (``moonshine.picture.png.legend_picture``'s)."""

    file: str
    width: int
    height: int


def legend_figure(legend: Legend | None, heading: str, alt: str, *, for_email: bool = False) -> dict[str, Any] | None:
    """What a page's template shows of the legend (``_macros.html.j2``'s ``legend``):
    its heading, the picture at its size and its alternative text; None without one."""
    if legend is None:
        return None
    src = ("cid:" if for_email else "") + legend.file
    return {"heading": heading, "src": src, "width": legend.width, "height": legend.height, "alt": alt}


def closeup_file(gang: str, ext: str = "png") -> str:
    """The name of a gang's close-up map: ``closeup-outfit.png``."""
    return f"closeup-{gang.lower()}.{ext}"


class Extras(msgspec.Struct, frozen=True):
    """What a gang's report says that the turn's results do not hold: the next
    deadline (a sentence, already in the reader's words and time zone, "" when none
    is set), the judge's address for orders ("" when the game has no mail), and the
    pictures beside the report (the map in the reader's language, the close-up of
    the gang's area, "" when there is none, the map's legend in the reader's
    language)."""

    deadline: str = ""
    send_to: str = ""
    map_file: str = MAP_FILE
    closeup: str = ""
    legend: Legend | None = None


class Player(Protocol):
    """What a page says of a gang's player."""

    @property
    def name(self) -> str: ...


class Settings(Protocol):
    """What the pages read of a game's settings (``moonshine.game.directory.GameConfig``
    is one): its title and language, its players, its house rules and the hash of its
    secret seed."""

    @property
    def title(self) -> str: ...
    @property
    def language(self) -> str: ...
    @property
    def seed_sha256(self) -> str: ...
    @property
    def players(self) -> Mapping[str, Player]: ...
    @property
    def house(self) -> HouseRules: ...


class SeedNews(NamedTuple):
    """A secret seed replaced during the turn (``moonshine.game.seeds``): why (a reason's
    key), when (ISO 8601) and the SHA-256 of the new seed; the bulletin says so."""

    reason: str
    replaced: str
    new_sha256: str


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


def dislodged_units(data: TurnResults | Mapping[str, Any]) -> list[Dislodged]:
    """The units dislodged this turn, for the map: where they stood and their fate."""
    out = []
    for gang, gr in as_results(data).gangs.items():
        for d in gr.dislodged:
            kind, _, district = d.unit.partition(" ")
            out.append(Dislodged(gang, UnitKind(kind), district, None if d.disbanded else d.retreated_to))
    return out


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


def _district(gmap: GameMap, code: str) -> str:
    d = gmap.districts.get(code)
    return f"{code} ({d.name})" if d is not None else code


def _station(gmap: GameMap, code: str) -> str:
    d = gmap.districts.get(code)
    return d.station if d is not None and d.station else code


def _gang_name(gmap: GameMap, key: str | None) -> str:
    if key is None:
        return ""
    g = gmap.gangs.get(key)
    return g.name if g is not None else key


def _split_unit(label: str) -> tuple[str, str]:
    """``outfit H NOC`` -> (``outfit``, ``H NOC``)."""
    gang, _, unit = label.partition(" ")
    return gang, unit


def describe_raid(gmap: GameMap, raid: Raid | None, w: Words) -> str:
    """One public sentence: who raided where, and what it did."""
    if raid is None:
        return w("raid.none")
    if raid.by == "untouchables":
        text = w("raid.raided_plural", who=w("raid.untouchables"), district=_district(gmap, raid.district))
    else:
        who = w("raid.police", station=_station(gmap, raid.station), code=raid.station)
        text = w("raid.raided", who=who, district=_district(gmap, raid.district))
    if raid.controller is None:
        return text + ", " + w("raid.nobody")
    text += ", " + w("raid.controller", gang=_gang_name(gmap, raid.controller))
    bits = []
    if raid.spared:
        bits.append(w("raid.spared", gang=_gang_name(gmap, raid.controller)))
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


def _raid_sentence(gmap: GameMap, raid: Raid | None, w: Words, key: str) -> str:
    """The raid as a sentence of its own (``key``: this turn's or the next), or "No raid."."""
    return w("raid.no_raid") if raid is None else w(key, text=describe_raid(gmap, raid, w))


def _unit_of_gang(gmap: GameMap, label: str) -> str:
    gang, unit = _split_unit(label)
    return f"{unit} ({_gang_name(gmap, gang)})"


def raid_effects_for(gmap: GameMap, raid: Raid | None, gang: str, back_turn: str, w: Words) -> list[str]:
    """What a raid does to one gang, in its own words."""
    if raid is None:
        return [w("raid.you.none")]
    out: list[str] = []
    place = _district(gmap, raid.district)
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


class LineRow(msgspec.Struct, frozen=True):
    number: int
    text: str
    understood: str
    status: str  # translated
    message: str  # translated
    accepted: bool  # accepted, or a header line
    note: str  # what the text report says under the line ("" when read exactly as written)


class OrderRow(msgspec.Struct, frozen=True):
    order: str
    succeeded: bool
    result: str  # translated word
    reason: str  # translated
    line: str  # "order: reason", the judges' way


class Row(msgspec.Struct, frozen=True):
    label: str
    value: str
    op: str = ""  # "+", "-", "=" or ""


class VPRow(msgspec.Struct, frozen=True):
    label: str
    count: int
    vp: int


class TextRow(msgspec.Struct, frozen=True):
    label: str
    text: str


class DistrictRow(msgspec.Struct, frozen=True):
    code: str
    name: str
    feature: str
    station: str
    crates: str  # warehouse stock after the opening raid, "" otherwise

    @property
    def detail(self) -> str:
        return ", ".join(x for x in (self.feature, self.crates, self.station) if x)


class GangBlock(msgspec.Struct, frozen=True):
    key: str
    name: str
    colour: str
    submitted: bool
    orders: tuple[OrderRow, ...]  # every order but the plain holds
    changes: tuple[str, ...]  # the plain holds in one line, recruits, disbands


def _line_row(w: Words, ln: LineRecord) -> LineRow:
    ok = ln.status in ("accepted", "header")
    old = ln.translations.get(w.language) or ln.message  # a file of an earlier version
    message = old if ln.reason is None else ln.reason.text(w.language)
    written = ln.text.split("#")[0].strip()
    understood = restate(ln.understood, w.language)
    if ln.status == "header":
        note = message
    elif ok:
        same = written in ("", ln.understood, understood)  # what was written reads as it is
        bits = [] if same or not understood else [f"{w('orders.understood')} {understood}"]
        note = w.semi.join([*bits, message] if message else bits)
    else:
        note = w.word(ln.status) + (w.colon + message if message else "")
        note += f" ({understood})" if understood else ""
    return LineRow(ln.number, ln.text.strip(), understood, w.word(ln.status), message, ok, note)


def _order_row(w: Words, u: UnitResult) -> OrderRow:
    result = w.word("succeeded" if u.succeeded else "failed")
    reason = w.explain(u.outcome, u.reason)
    order = restate(u.order, w.language)
    return OrderRow(order, u.succeeded, result, reason, order + w.colon + (reason or result))


def _dislodged_text(w: Words, d: Dislodgement) -> str:
    """``dislodged by H LOO - NSS; retreated to GRA``: the reason tells the unit's fate."""
    first = w("dislodged.by", by=d.by) if d.by else w("dislodged.plain")
    if d.reason or d.outcome is not None:
        fate = w.explain(d.outcome, d.reason)
    elif d.retreated_to:
        fate = w("dislodged.retreated", district=d.retreated_to)
    else:
        fate = w("dislodged.disbanded")
    return first + w.semi + fate


def _returns_of(res: TurnResults, gang: str) -> list[Text]:
    return [note for g, note in res.next.returns if g == gang]


def _common(gmap: GameMap, config: Settings, res: TurnResults, w: Words, for_email: bool) -> dict[str, Any]:
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


def _ledger_rows(w: Words, lg: LedgerRecord, price: Money) -> tuple[list[Row], list[Row], str]:
    crates = [
        Row(w("crates.before_raid"), str(lg.before_raid)),
        Row(w("crates.seized"), str(lg.seized), "-"),
        Row(w("crates.at_start"), str(lg.at_start), "="),
        Row(w("crates.captured"), str(lg.captured), "+"),
        Row(w("crates.captured_from"), str(lg.captured_from), "-"),
        Row(w("crates.produced"), str(lg.produced), "+"),
        Row(w("crates.looted"), str(lg.looted), "+"),
        Row(w("crates.held"), str(lg.held), "="),
        Row(w("crates.sold", capacity=lg.capacity), str(lg.sold), "-"),
        Row(w("crates.lost"), str(lg.lost), "-"),
        Row(w("crates.stored"), str(sum(lg.stored.values())), "="),
    ]
    dollars_rows = [
        Row(w("dollars.start"), w.money(lg.cash_start)),
        Row(w("dollars.upkeep"), w.money(lg.upkeep), "-"),
        Row(w("dollars.recruits"), w.money(lg.recruits), "-"),
        Row(w("dollars.bribes"), w.money(lg.bribes), "-"),
        Row(w("dollars.revenue", n=lg.sold, price=w.money(price)), w.money(lg.revenue), "+"),
        Row(w("dollars.end"), w.money(lg.cash_end), "="),
    ]
    stored = ", ".join(f"{d} {n}" for d, n in lg.stored.items())
    return crates, dollars_rows, stored


def _vp_rows(w: Words, s: Standing) -> list[VPRow]:
    return [
        VPRow(w("vp.districts"), s.others, s.others),
        VPRow(w("vp.speakeasies"), s.speakeasies, 2 * s.speakeasies),
        VPRow(w("vp.supply"), s.supply, 3 * s.supply),
        VPRow(w("vp.stations"), s.stations, scoring.CORRUPTION_VP * s.stations),
        VPRow(w("vp.assaults"), s.assaults, scoring.ASSAULT_VP * s.assaults),
    ]


def _arrested_row(gmap: GameMap, w: Words, a: Arrested, back: str) -> str:
    unit = f"{a.kind.value} ({phrasebook.kind_label(w.language, a.kind)})"
    return w(
        "position.arrested_row",
        unit=unit,
        taken_in=a.taken_in,
        station=_station(gmap, a.station),
        turn=w.turn(back),
        turn_of=w.turn_of(back),
        code=a.station,
    )


def _receipt(seed: str | None, turn: str, gang: str, gr: GangResults) -> dict[str, Any] | None:
    """The receipt of a gang's recorded orders, with the salt and the orders it
    covers, so the player can check it against the acknowledgement."""
    if seed is None or gr.orders_file is None:
        return None
    orders = [ln.understood for ln in gr.lines if ln.status == "accepted" and ln.understood]
    salt = receipts.salt(seed, turn, gang)
    return {"code": receipts.receipt(salt, orders), "salt": salt, "orders": orders}


def report_context(
    gmap: GameMap,
    config: Settings,
    data: TurnResults | Mapping[str, Any],
    nxt: GameState,
    gang: str,
    *,
    language: str | None = None,
    for_email: bool = False,
    seed: str | None = None,
    extras: Extras | None = None,
) -> dict[str, Any]:
    """Everything one gang's private report shows, already in its language. With the
    game's secret ``seed``, the receipt of the gang's recorded orders and its salt;
    ``extras``: the next deadline, where to send orders, the pictures' names."""
    res = as_results(data)
    check_results(gmap, res)
    if gang not in gmap.gangs:
        raise GameError(f"unknown gang {gang!r} (gangs: {', '.join(gmap.gangs)})")
    w = Words(phrasebook.check_language(language or config.language))
    g = gmap.gangs[gang]
    gr = res.gangs.get(gang) or GangResults(gang, None, (), (), (), (), (), LedgerRecord(), res.vp.get(gang, 0))
    back = Turn.parse(res.next.turn).next().name
    crates, dollar_rows, stored = _ledger_rows(w, gr.ledger, res.price)
    every = standings(gmap, res, nxt)
    standing = next(s for s in every if s.key == gang)

    units = sorted(nxt.units_of(gang), key=lambda u: (gmap.districts[u.district].area, u.kind.value))
    districts = []
    for code in gmap.map_order(nxt.controlled_by(gang)):
        d = gmap.districts[code]
        crates_here = ""
        if d.feature is Feature.WAREHOUSE:
            crates_here = w("position.crates", n=nxt.stocks.get(code, 0))
        districts.append(
            DistrictRow(code, d.name, phrasebook.feature_label(w.language, d.feature), d.station or "", crates_here)
        )
    arrested = [a for a in nxt.arrested if a.gang == gang]
    upkeep_units = len(units) + len(arrested)
    player = config.players.get(gang)
    ctx = _common(gmap, config, res, w, for_email)
    more = extras or Extras()
    the_next = phrasebook.the_turn(w.language, res.next.turn)  # "Spring 1925", "le printemps 1925"
    rank = 1 + sum(1 for s in every if s.vp > gr.vp)
    deadline, send = phrasebook.deadline_and_orders(w.language, the_next, deadline=more.deadline, send_to=more.send_to)
    ctx.update(
        {
            "map_src": ("cid:" if for_email else "") + more.map_file,
            "map_svg": "" if for_email else more.map_file.removesuffix(".png") + ".svg",
            "closeup_src": ("cid:" if for_email else "") + more.closeup if more.closeup else "",
            # the close-up's zoomable version is the whole map's SVG
            "closeup_svg": "" if for_email or not more.closeup else more.map_file.removesuffix(".png") + ".svg",
            "legend": legend_figure(more.legend, w("map.legend"), w("map.legend_alt"), for_email=for_email),
            "deadline": deadline,
            "send": send,
            "vp_rank": w("summary.vp_rank", vp=gr.vp, rank=rank, n=len(every), goal=scoring.VICTORY_VP),
            "gang": {"key": gang, "name": g.name, "colour": g.colour},
            "player": player.name if player is not None else "",
            "orders_file": gr.orders_file,
            "lines": [_line_row(w, ln) for ln in gr.lines],
            "receipt": _receipt(seed, res.turn, gang, gr),
            "units": [_order_row(w, u) for u in gr.units],
            "dislodged": [TextRow(d.unit, _dislodged_text(w, d)) for d in gr.dislodged],
            "adjustments": [_adjustment_row(w, a) for a in gr.adjustments],
            "bids": [
                {
                    "station": f"{b.station} ({_station(gmap, b.station)})",
                    "paid": w.money(b.paid),
                    "won": b.won,
                    "outcome": w("bids.won" if b.won else "bids.lost"),
                    "reason": w.reason(b.reason),
                }
                for b in gr.bids
            ],
            "crates": crates,
            "stored": stored,
            "dollars": dollar_rows,
            "balanced": gr.ledger.balanced,
            "notes": [w.reason(n) for n in gr.ledger.notes],
            "vp_rows": _vp_rows(w, standing),
            "vp": gr.vp,
            "vp_goal": scoring.VICTORY_VP,
            "cash": w.money(nxt.cash.get(gang, 0)),
            "upkeep": w("position.upkeep", amount=w.money(UPKEEP * upkeep_units), n=upkeep_units),
            "position_units": [f"{u.kind.value} {u.district}" for u in units],
            "districts": districts,
            "stations": [
                f"{s} ({_station(gmap, s)})" for s in gmap.map_order(s for s, o in nxt.corruption.items() if o == gang)
            ],
            "arrested": [_arrested_row(gmap, w, a, back) for a in arrested],
            "returned": [w.reason(n) for n in _returns_of(res, gang)],
            "price_next": w("price.next", price=w.money(res.next.price), reason=w.reason(res.next.price_reason)),
            "raid_next": _raid_sentence(gmap, res.next.raid, w, "raid.next"),
            "raid_effects": raid_effects_for(gmap, res.next.raid, gang, back, w),
            "winners": _winner_line(gmap, res, w),
        }
    )
    return ctx


def _winner_line(gmap: GameMap, res: TurnResults, w: Words) -> str:
    if not res.winners:
        return ""
    names = ", ".join(_gang_name(gmap, g) for g in res.winners)
    vp = res.vp.get(res.winners[0], 0)
    return w("winner.one" if len(res.winners) == 1 else "winner.many", gangs=names, vp=vp)


def _adjustment_row(w: Words, a: AdjustmentRecord) -> TextRow:
    """A recruit or a disband done as ordered is its unit and what became of it (the
    reason says "recruited", so the order's verb is not said twice); any other
    adjustment is its kind, the order, and why."""
    if a.kind in ("recruit", "disband"):
        return TextRow(a.order.removeprefix("recruit ").removeprefix("disband "), w.reason(a.reason))
    return TextRow(w.word(a.kind), restate(a.order, w.language) + w.colon + w.reason(a.reason))


def _changes(gr: GangResults, w: Words) -> tuple[str, ...]:
    """Recruits and disbands as the board shows them (their reasons may tell of cash: private)."""
    recruited, disbanded = [], []
    for a in gr.adjustments:
        unit = a.order.removeprefix("recruit ").removeprefix("disband ")
        if a.kind == "recruit":
            recruited.append(unit)
        elif a.kind in ("disband", "disbanded for upkeep"):
            disbanded.append(unit)
    out = []
    if recruited:
        out.append(w("orders.recruited", units=", ".join(recruited), n=len(recruited)))
    if disbanded:
        out.append(w("orders.disbanded", units=", ".join(disbanded), n=len(disbanded)))
    return tuple(out)


class ChangeRow(msgspec.Struct, frozen=True):
    """A row of the bulletin's "what changed": a district or station, its holder before and after."""

    place: str
    before: str
    before_colour: str
    after: str
    after_colour: str


class VPChangeRow(msgspec.Struct, frozen=True):
    name: str
    colour: str
    before: int
    after: int
    change: str  # "+3", "−2"


def _holder(gmap: GameMap, w: Words, gang: str | None, station: bool = False) -> tuple[str, str]:
    """A gang's name and colour; for nobody, "neutral" (a district) or "nobody" (a station's corruption)."""
    if gang is None or gang not in gmap.gangs:
        return w("changed.uncorrupted" if station else "changed.nobody"), ""
    return gmap.gangs[gang].name, gmap.gangs[gang].colour


def _raid_short(gmap: GameMap, raid: Raid, w: Words) -> str:
    """``The police (Town Hall station, LAK) raided NOC (North Center), controlled by
    Chicago Outfit``: who raided where, for the story (the details follow below)."""
    if raid.by == "untouchables":
        text = w("raid.raided_plural", who=w("raid.untouchables"), district=_district(gmap, raid.district))
    else:
        who = w("raid.police", station=_station(gmap, raid.station), code=raid.station)
        text = w("raid.raided", who=who, district=_district(gmap, raid.district))
    if raid.controller is not None:
        text += ", " + w("raid.controller", gang=_gang_name(gmap, raid.controller))
    return text[:1].upper() + text[1:]


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"\u2212{-n}" if n < 0 else "0"


def _headline(gmap: GameMap, w: Words, item: story.News) -> str:
    """The headline of a piece of news, as the paper would set it (the text bulletin
    sets it in capitals)."""
    gang = _gang_name(gmap, item.gangs[0]) if item.gangs else ""
    k = story.Kind
    if item.kind is k.WIN:
        if len(item.gangs) > 1:
            return w("story.headline.wins", gangs=_and(w, [_gang_name(gmap, g) for g in item.gangs]))
        return w("story.headline.win", gang=gang)
    if item.kind is k.ASSAULT:
        return w("story.headline.assault", gang=gang, station=_station(gmap, item.place), code=item.place)
    if item.kind in (k.STATION, k.BOUGHT):
        return w("story.headline.station", gang=gang, station=_station(gmap, item.place), code=item.place)
    if item.kind is k.RAID_ON_LEADER:
        return w("story.headline.raid_leader", gang=gang, district=gmap.districts[item.place].name)
    if item.kind is k.WIPED_OUT:
        return w("story.headline.wiped_out", gang=gang)
    if item.kind is k.LAST_SPEAKEASY:
        return w("story.headline.last_speakeasy", gang=gang)
    if item.kind is k.PRICE:
        key = "story.headline.price_up" if item.n > item.before else "story.headline.price_down"
        return w(key, price=w.money(item.n))
    if item.kind is k.NEW_LEADER:
        return w("story.headline.leader", gang=gang)
    if item.kind in (k.GAINS, k.FEW_GAINS):
        return w("story.headline.gain", gang=gang, n=item.n)
    return w("story.headline.quiet")


def _net_sentence(gmap: GameMap, w: Words, st: story.Story) -> str:
    """How many districts changed hands, then each gang's net gain or loss, said as such."""
    moved = sum(1 for c in st.changes if not c.station)
    if not moved:
        return w("story.unchanged")
    out = [w("story.changed", n=moved)]
    gains = sorted(((g, n) for g, n in st.net.items() if n > 0), key=lambda kv: -kv[1])
    losses = sorted(((g, -n) for g, n in st.net.items() if n < 0), key=lambda kv: -kv[1])
    for key, side in (("story.net.gains", gains), ("story.net.losses", losses)):
        if side:
            items = w.semi.join(w("story.net.item", gang=_gang_name(gmap, g), n=n) for g, n in side)
            out.append(w(key, items=items))
    if not gains and not losses:
        out.append(w("story.net.even"))
    return " ".join(out)


def _news_sentence(gmap: GameMap, res: TurnResults, w: Words, item: story.News, st: story.Story) -> str:
    """The sentence that tells a piece of news in the story, below the headline."""
    gang = _gang_name(gmap, item.gangs[0]) if item.gangs else ""
    k = story.Kind
    if item.kind is k.WIN:
        if len(item.gangs) > 1:
            return w("story.win.many", gangs=_and(w, [_gang_name(gmap, g) for g in item.gangs]), vp=item.n)
        if not item.other:
            return w("story.win.alone", gang=gang, vp=item.n)
        margin = item.n - item.before
        return w("story.win.one", gang=gang, vp=item.n, n=margin, other=_gang_name(gmap, item.other))
    if item.kind is k.ASSAULT:
        station = f"{item.place} ({_station(gmap, item.place)})"
        return w("story.taken", gang=gang, station=station, unit=item.unit)
    if item.kind in (k.STATION, k.BOUGHT):
        station = f"{item.place} ({_station(gmap, item.place)})"
        if item.other:
            return w("story.station.switched", gang=gang, station=station, other=_gang_name(gmap, item.other))
        return w("story.station.bought", gang=gang, station=station)
    if item.kind is k.RAID_ON_LEADER and res.raid is not None:
        return w("story.raid_leader", text=_raid_short(gmap, res.raid, w))
    if item.kind is k.WIPED_OUT:
        return w("story.wiped_out", gang=gang)
    if item.kind is k.LAST_SPEAKEASY:
        return w("story.last_speakeasy", gang=gang, district=_district(gmap, item.place))
    if item.kind is k.PRICE:
        return w(
            "story.price",
            before=w.money(item.before),
            after=w.money(item.n),
            reason=w.reason(res.next.price_reason),
        )
    if item.kind is k.NEW_LEADER:
        return w("story.leader", gang=gang, vp=item.n)
    if item.kind in (k.GAINS, k.FEW_GAINS):
        return _net_sentence(gmap, w, st)
    return ""


def _story_context(gmap: GameMap, res: TurnResults, before: GameState, nxt: GameState, w: Words) -> dict[str, Any]:
    """The bulletin's headline (its turn's biggest news), its few sentences (the news
    in the order of ``story.Kind``, then the standing, the districts that changed hands,
    the dislodged units, the raid and the stations freed) and its "what changed" tables."""
    st = story.story(gmap, before, res, nxt)

    def name(gang: str | None) -> str:
        return _gang_name(gmap, gang)

    kinds = {n.kind for n in st.news}
    k = story.Kind
    headline = _headline(gmap, w, st.news[0])
    bought = [n for n in st.news if n.kind is k.BOUGHT]
    sentences = []
    for item in st.news:
        if item.kind is k.BOUGHT and len(bought) > 1:  # stations bought: most turns see some, told in one sentence
            if item is bought[0]:
                items = [
                    w("story.bought.item", station=f"{b.place} ({_station(gmap, b.place)})", gang=name(b.gangs[0]))
                    for b in bought
                ]
                sentences.append(w("story.bought.many", n=len(bought), items=", ".join(items)))
            continue
        sentence = _news_sentence(gmap, res, w, item, st)
        if sentence:
            sentences.append(sentence)
    if st.leaders and not kinds & {k.WIN, k.NEW_LEADER}:
        if len(st.leaders) == 1:
            sentences.append(w("story.lead.one", gang=name(st.leaders[0]), vp=st.lead_vp))
        else:
            sentences.append(w("story.lead.many", gangs=_and(w, [name(g) for g in st.leaders]), vp=st.lead_vp))
    if not kinds & {k.GAINS, k.FEW_GAINS}:
        sentences.append(_net_sentence(gmap, w, st))
    if st.dislodged:
        units = [
            w("story.retreated", unit=d.unit, gang=name(d.gang), district=d.retreated_to)
            if d.retreated_to
            else w("story.disbanded", unit=d.unit, gang=name(d.gang))
            for d in st.dislodged
        ]
        sentences.append(w("story.dislodged", n=len(units), units=w.semi.join(units)))
    if res.raid is not None and k.RAID_ON_LEADER not in kinds:
        sentences.append(w("story.raid", text=_raid_short(gmap, res.raid, w)))
    freed = [
        w("story.station_freed", station=f"{c.code} ({_station(gmap, c.code)})", gang=name(c.before))
        for c in st.changes
        if c.station and c.after is None
    ]
    if freed:
        sentences.append(w("story.stations_freed", stations=", ".join(freed), n=len(freed)))
    rows = []
    for c in st.changes:
        place = (
            w("changed.station", station=_station(gmap, c.code), code=c.code) if c.station else _district(gmap, c.code)
        )
        b, bc = _holder(gmap, w, c.before, c.station)
        a, ac = _holder(gmap, w, c.after, c.station)
        rows.append(ChangeRow(place, b, bc, a, ac))
    vp_rows = [
        VPChangeRow(gmap.gangs[c.gang].name, gmap.gangs[c.gang].colour, c.before, c.after, _signed(c.delta))
        for c in st.vp
    ]
    return {"headline": headline, "story": sentences, "changed": rows, "vp_changes": vp_rows}


def _and(w: Words, names: list[str]) -> str:
    """``A, B and C`` / ``A, B et C``."""
    if len(names) < 2:
        return "".join(names)
    return ", ".join(names[:-1]) + gettext_for(w.language)(" and ") + names[-1]


def bulletin_context(
    gmap: GameMap,
    config: Settings,
    data: TurnResults | Mapping[str, Any],
    nxt: GameState,
    *,
    language: str | None = None,
    for_email: bool = False,
    before: GameState | None = None,
    charts: Sequence[tuple[str, str]] = (),
    legend: Legend | None = None,
    seed_news: SeedNews | None = None,
) -> dict[str, Any]:
    """Everything the public bulletin shows, already in its language. Nothing here
    comes from a gang's lines, bids, ledger, stocks or cash. With the turn's opening
    state ``before``: the headline, the story and what changed; ``legend``: the
    picture of the map's legend beside it; ``seed_news``: the secret seed replaced
    during the turn."""
    res = as_results(data)
    check_results(gmap, res)
    w = Words(phrasebook.check_language(language or config.language))
    blocks = []
    dislodged = []
    for key, g in gmap.gangs.items():
        gr = res.gangs.get(key)
        if gr is None:
            continue
        held = [u.unit for u in gr.units if story.is_plain_hold(u.order, u.succeeded, u.reason, u.outcome)]
        blocks.append(
            GangBlock(
                key=key,
                name=g.name,
                colour=g.colour,
                submitted=gr.orders_file is not None,
                orders=tuple(
                    _order_row(w, u)
                    for u in gr.units
                    if not story.is_plain_hold(u.order, u.succeeded, u.reason, u.outcome)
                ),
                changes=((w("orders.held", n=len(held), units=", ".join(held)),) if held else ()) + _changes(gr, w),
            )
        )
        dislodged += [TextRow(g.name + w.colon + d.unit, _dislodged_text(w, d)) for d in gr.dislodged]
    assaults = [
        w(
            "assault.took",
            gang=_gang_name(gmap, a.gang),
            unit=a.unit,
            station=f"{a.station} ({_station(gmap, a.station)})",
            strength=a.strength,
            needed=a.needed,
        )
        for a in res.assaults
        if a.succeeded
    ]
    corruption = [
        {
            "station": f"{s} ({_station(gmap, s)})",
            "gang": _gang_name(gmap, owner),
            "colour": gmap.gangs[owner].colour,
        }
        for s, owner in sorted(res.corruption.items(), key=lambda kv: gmap.districts[kv[0]].area)
    ]
    first = res.turn == gmap.scenario.start
    table = ", ".join(f"{d} {n}" for d, n in gmap.raid_table.items())
    total = sum(gmap.raid_table.values())
    ctx = _common(gmap, config, res, w, for_email)
    winners = _winner_line(gmap, res, w)
    ctx["charts"] = [{"src": f"cid:{n}" if for_email else n, "title": t} for n, t in charts]
    ctx["chart_names"] = ", ".join(n for n, _ in charts)
    if before is not None:
        ctx.update(_story_context(gmap, res, before, nxt, w))
    else:
        ctx.update({"headline": "", "story": [], "changed": None, "vp_changes": []})
    # the map's alternative text says what the picture shows: the turn's news
    news = ctx["story"][0] if ctx["story"] else ctx["headline"]
    title = map_title(gmap, res.turn, w.language)
    ctx["map_alt"] = w("map.alt_news", title=title, news=news) if news else w("map.alt", title=title)
    ctx["legend"] = legend_figure(legend, w("map.legend"), w("map.legend_alt"), for_email=for_email)
    ctx.update(
        {
            "price_now": w("price.now", price=w.money(res.price)),
            "raid_now": _raid_sentence(gmap, res.raid, w, "raid.this_turn"),
            "raid_now_draw": w("raid.draw", draw=res.raid.draw) if res.raid is not None and res.raid.draw else "",
            "blocks": blocks,
            "dislodged": dislodged,
            "assaults": assaults,
            "standings": standings(gmap, res, nxt),
            "corruption": corruption,
            "winners": winners,
            "price_next": w("price.next", price=w.money(res.next.price), reason=w.reason(res.next.price_reason)),
            "raid_next": _raid_sentence(gmap, res.next.raid, w, "raid.next"),
            "raid_next_draw": (
                w("raid.draw", draw=res.next.raid.draw) if res.next.raid is not None and res.next.raid.draw else ""
            ),
            "first": first,
            "house_rules": [m.text(w.language) for m in config.house.sentences()] if first else [],
            "seed_sha256": config.seed_sha256,
            "seed_replaced": (
                w(
                    f"seed.replaced.{seed_news.reason}",
                    date=seed_news.replaced[:10],
                    hash=seed_news.new_sha256,
                )
                if seed_news is not None
                else ""
            ),
            "seed_how": w("seed.how", total=total) if total else w("seed.no_raids"),
            "seed_table": table,
            "seed_python": (
                (
                    "import hashlib, hmac; "
                    "print(int.from_bytes(hmac.new(b'SEED', b'spring-1924', hashlib.sha256).digest(), 'big')"
                    f" % {total})"
                )
                if total
                else ""
            ),
        }
    )
    return ctx


def inline_css(page: str) -> str:
    """The page with its stylesheet's rules written into each element's ``style``
    (mail programs that drop ``<style>`` still show it right); at-rules (the
    phone's and dark mode's) stay in the ``<style>`` block for those that keep it.
    A rule never overrides what an element's own ``style`` says."""
    import css_inline

    out = str(css_inline.CSSInliner(keep_at_rules=True, load_remote_stylesheets=False).inline(page))
    # The character set first in the head, as browsers read it from the first bytes.
    charset = '<meta charset="utf-8">'
    if charset in out:
        out = out.replace(charset + "\n", "", 1).replace("<head>", "<head>" + charset + "\n", 1)
    return out if out.endswith("\n") else out + "\n"


def render_report(
    gmap: GameMap,
    config: Settings,
    data: TurnResults | Mapping[str, Any],
    nxt: GameState,
    gang: str,
    *,
    language: str | None = None,
    html: bool = False,
    for_email: bool = False,
    seed: str | None = None,
    extras: Extras | None = None,
) -> str:
    """One gang's private report (text, or HTML with ``html=True``)."""
    ctx = report_context(
        gmap, config, data, nxt, gang, language=language, for_email=for_email, seed=seed, extras=extras
    )
    return inline_css(pages.render("report.html.j2", ctx)) if html else pages.render("report.txt.j2", ctx)


def render_bulletin(
    gmap: GameMap,
    config: Settings,
    data: TurnResults | Mapping[str, Any],
    nxt: GameState,
    *,
    language: str | None = None,
    html: bool = False,
    for_email: bool = False,
    before: GameState | None = None,
    charts: Sequence[tuple[str, str]] = (),
    deadline: str = "",
    legend: Legend | None = None,
    seed_news: SeedNews | None = None,
) -> str:
    """The public bulletin (text, or HTML with ``html=True``); with the turn's opening
    state ``before``, its story and what changed; ``charts``: the pictures of the
    charts beside it (file name, title); ``deadline``: the next deadline as a sentence
    in the game's time zone ("" when none is set); ``legend``: the picture of the
    map's legend beside it; ``seed_news``: the secret seed replaced during the turn."""
    ctx = bulletin_context(
        gmap,
        config,
        data,
        nxt,
        language=language,
        for_email=for_email,
        before=before,
        charts=charts,
        legend=legend,
        seed_news=seed_news,
    )
    ctx["deadline"] = deadline
    return inline_css(pages.render("bulletin.html.j2", ctx)) if html else pages.render("bulletin.txt.j2", ctx)


def render_all(
    gmap: GameMap,
    config: Settings,
    data: TurnResults | Mapping[str, Any],
    nxt: GameState,
    *,
    language: str | None = None,
    gangs: Iterable[str] | None = None,
    bulletin: bool = True,
    for_email: bool = False,
    seed: str | None = None,
    before: GameState | None = None,
    charts: Sequence[tuple[str, str]] = (),
    gang_languages: Mapping[str, str] | None = None,
    extras: Mapping[str, Extras] | None = None,
    deadline: str = "",
    legend: Legend | None = None,
    seed_news: SeedNews | None = None,
) -> dict[str, str]:
    """File name -> text: ``GANG.txt`` and ``GANG.html`` for each gang (all by default)
    and ``bulletin.txt`` and ``bulletin.html``. ``seed``: the game's secret, for the
    receipts in the private reports. ``gang_languages``: the language of a gang's
    report when its player reads another than ``language``. ``extras``: what each
    gang's report says beyond the results (its deadline, pictures); ``deadline`` and
    ``legend`` (the picture of the map's legend) and ``seed_news`` (the secret seed
    replaced during the turn): the bulletin's."""
    res = as_results(data)
    out: dict[str, str] = {}
    for g in gangs if gangs is not None else gmap.gangs:
        own = (gang_languages or {}).get(g, language)
        more = (extras or {}).get(g)
        for html, ext in ((False, "txt"), (True, "html")):
            out[f"{g}.{ext}"] = render_report(
                gmap, config, res, nxt, g, language=own, html=html, for_email=for_email, seed=seed, extras=more
            )
    if bulletin:
        for html, ext in ((False, "txt"), (True, "html")):
            out[f"bulletin.{ext}"] = render_bulletin(
                gmap,
                config,
                res,
                nxt,
                language=language,
                html=html,
                for_email=for_email,
                before=before,
                charts=charts,
                deadline=deadline,
                legend=legend,
                seed_news=seed_news,
            )
    return out


__all__ = [
    "MAP_CID",
    "MAP_FILE",
    "Extras",
    "Legend",
    "SeedNews",
    "Settings",
    "arrows_from_results",
    "bulletin_context",
    "closeup_file",
    "describe_raid",
    "legend_figure",
    "legend_file",
    "map_file",
    "map_title",
    "render_all",
    "render_bulletin",
    "render_report",
    "report_context",
    "standings",
]
