"""A turn's reports: each gang's private report and the public bulletin, in text and
HTML, English or French, and the map picture's arrows.

Everything here is a pure function of the map, the game's configuration, the turn's
results (``turns/TURN/results.yaml``, written by ``moonshine.results.to_data``) and
the next turn's opening state, except ``write_reports`` which reads and writes the
game directory. The pages themselves are written by ``moonshine.pages``.

Privacy (R19): unit orders and their results, raids, control, VP and who corrupts
which station are public; a gang's order lines, sales, bids, stocks, ledger and cash
appear in its own report only."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from moonshine import i18n, pages, receipts, scoring, story
from moonshine import outcome as oc
from moonshine.errors import GameError, StateError
from moonshine.gamedir import Game, GameConfig, atomic_write_bytes, atomic_write_text
from moonshine.geo import UPKEEP, Feature, GameMap, UnitKind
from moonshine.money import Money, dollars
from moonshine.orders import (
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
from moonshine.picture import Arrow, Dislodged
from moonshine.state import Arrested, GameState, Raid
from moonshine.text import Message, gettext_for, languages, message_from_data
from moonshine.turns import Turn

if TYPE_CHECKING:
    from moonshine.charts import Chart

RESULTS_FILE = "results.yaml"
REPORTS_DIR = "reports"
MAP_FILE = "map.png"
MAP_CID = "cid:map.png"
MAP_WIDTH = 1000
CHART_FILES = ("vp.png", "price.png")  # the bulletin's charts, beside it and attached to its mail


# -- the results, typed -------------------------------------------------------------------


@dataclass(frozen=True)
class LineRecord:
    """One line of a gang's orders file: as given, how it was understood, its fate.
    ``reason`` is the message as a value (explained in the reader's language); a file
    of an earlier version gives the English ``message`` and may give ``translations``
    (``message_fr``)."""

    number: int
    text: str
    status: str
    understood: str = ""
    message: str = ""
    translations: Mapping[str, str] = field(default_factory=dict)
    reason: Message | None = None


@dataclass(frozen=True)
class UnitResult:
    unit: str
    order: str  # canonical text
    succeeded: bool
    reason: str  # in English, as the file says it
    outcome: oc.Result | None = None  # None: a file of an earlier version


@dataclass(frozen=True)
class Dislodgement:
    unit: str
    by: str
    retreated_to: str | None
    disbanded: bool
    reason: str
    outcome: oc.Result | None = None


@dataclass(frozen=True)
class AdjustmentRecord:
    kind: str  # recruit, disband, recruit cancelled, bid cut, bid refused, disbanded for upkeep
    order: str
    reason: Text


@dataclass(frozen=True)
class BidRecord:
    station: str
    paid: Money
    won: bool
    reason: Text


@dataclass(frozen=True)
class LedgerRecord:
    before_raid: int = 0
    seized: int = 0
    at_start: int = 0
    captured: int = 0
    captured_from: int = 0
    produced: int = 0
    looted: int = 0
    held: int = 0
    capacity: int = 0
    sold: int = 0
    stored: Mapping[str, int] = field(default_factory=dict)
    lost: int = 0
    cash_start: Money = 0
    upkeep: Money = 0
    recruits: Money = 0
    bribes: Money = 0
    revenue: Money = 0
    cash_end: Money = 0
    notes: tuple[Text, ...] = ()
    balanced: bool = True


@dataclass(frozen=True)
class GangResults:
    gang: str
    orders_file: str | None
    lines: tuple[LineRecord, ...]
    units: tuple[UnitResult, ...]
    dislodged: tuple[Dislodgement, ...]
    adjustments: tuple[AdjustmentRecord, ...]
    bids: tuple[BidRecord, ...]
    ledger: LedgerRecord
    vp: int


@dataclass(frozen=True)
class AssaultRecord:
    gang: str
    unit: str
    station: str
    strength: int
    needed: int
    succeeded: bool
    reason: str
    outcome: oc.Result | None = None


@dataclass(frozen=True)
class NextTurn:
    turn: str
    price: Money
    price_reason: Text
    returns: tuple[tuple[str, Text], ...]  # (gang, what became of its arrested unit)
    raid: Raid | None


@dataclass(frozen=True)
class TurnResults:
    """``turns/TURN/results.yaml`` as typed values."""

    turn: str
    price: Money
    raid: Raid | None
    gangs: Mapping[str, GangResults]
    assaults: tuple[AssaultRecord, ...]
    corruption: Mapping[str, str]
    vp: Mapping[str, int]
    winners: tuple[str, ...]
    sold: int
    next: NextTurn


class _Reader:
    """Typed access to the raw YAML that names the file and key of any problem."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, key: str, problem: str) -> StateError:
        return StateError(self.source, key, problem)

    def mapping(self, raw: Any, key: str) -> Mapping[str, Any]:
        if not isinstance(raw, dict):
            raise self.fail(key, f"expected a mapping, found {type(raw).__name__}")
        return raw

    def seq(self, m: Mapping[str, Any], name: str, key: str) -> list[Any]:
        v = m.get(name)
        if v is None:
            return []
        if not isinstance(v, list):
            raise self.fail(f"{key}.{name}", f"expected a list, found {type(v).__name__}")
        return v

    def text(self, m: Mapping[str, Any], name: str, key: str, *, default: str | None = None) -> str:
        v = m.get(name, default)
        if v is None and default is not None:
            return default
        if isinstance(v, bool) or not isinstance(v, str | int | float):
            raise self.fail(f"{key}.{name}", f"expected text, found {v!r}")
        return str(v)

    def optional(self, m: Mapping[str, Any], name: str, key: str) -> str | None:
        if m.get(name) is None:
            return None
        return self.text(m, name, key)

    def integer(self, m: Mapping[str, Any], name: str, key: str, *, default: int | None = None) -> int:
        v = m.get(name, default)
        if not isinstance(v, int) or isinstance(v, bool):
            raise self.fail(f"{key}.{name}", f"expected a whole number, found {v!r}")
        return v

    def flag(self, m: Mapping[str, Any], name: str, key: str, *, default: bool | None = None) -> bool:
        v = m.get(name, default)
        if not isinstance(v, bool):
            raise self.fail(f"{key}.{name}", f"expected true or false, found {v!r}")
        return v

    def money(self, m: Mapping[str, Any], name: str, key: str) -> Money:
        try:
            return dollars(m.get(name))
        except ValueError as exc:
            raise self.fail(f"{key}.{name}", str(exc)) from None

    def raid(self, raw: Any, key: str) -> Raid | None:
        if raw is None:
            return None
        m = self.mapping(raw, key)
        by = self.text(m, "by", key)
        if by not in ("police", "untouchables"):
            raise self.fail(f"{key}.by", f"expected police or untouchables, found {by!r}")
        return Raid(
            district=self.text(m, "district", key),
            by=by,
            station=self.text(m, "station", key),
            spared=self.flag(m, "spared", key, default=False),
            controller=self.optional(m, "controller", key),
            crates=self.integer(m, "crates", key, default=0),
            arrested=tuple(str(x) for x in self.seq(m, "arrested", key)),
            spared_units=tuple(str(x) for x in self.seq(m, "spared_units", key)),
            speakeasy_closed=self.flag(m, "speakeasy_closed", key, default=False),
            draw=self.text(m, "draw", key, default=""),
        )


def _result_flag(r: _Reader, m: Mapping[str, Any], key: str) -> bool:
    v = r.text(m, "result", key)
    if v not in ("succeeded", "failed"):
        raise r.fail(f"{key}.result", f"expected succeeded or failed, found {v!r}")
    return v == "succeeded"


Text = str | Message  # a reason: a message of the catalogue, or a file of an earlier version's English


def _text(r: _Reader, raw: Any, key: str) -> Text:
    return raw if isinstance(raw, str) else _text_value(r, raw, key)


def _text_value(r: _Reader, raw: Any, key: str) -> Message:
    try:
        return message_from_data(raw)
    except ValueError as exc:
        raise r.fail(key, str(exc)) from None


def _reason(r: _Reader, m: Mapping[str, Any], key: str, *, text: str = "reason", value: str = "message") -> Text:
    """A reason as a value (``message``), or its English text in a file without one."""
    if m.get(value) is not None:
        return _text(r, m[value], f"{key}.{value}")
    return r.text(m, text, key, default="")


def _return(r: _Reader, raw: Any) -> tuple[str, Text]:
    """An arrested unit's return: ``{gang, message}``, or ``"gang: note"`` in a file of
    an earlier version."""
    if isinstance(raw, str):
        gang, _, note = raw.partition(": ")
        return gang, note
    m = r.mapping(raw, "next.returns")
    return r.text(m, "gang", "next.returns"), _text(r, m.get("message"), "next.returns.message")


def _outcome(r: _Reader, m: Mapping[str, Any], key: str) -> oc.Result | None:
    """The outcome a results file stores (None in a file of an earlier version)."""
    raw = m.get("outcome")
    if raw is None:
        return None
    try:
        return oc.from_data(r.mapping(raw, f"{key}.outcome"))
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise r.fail(f"{key}.outcome", f"expected an outcome: {exc}") from None


def _ledger(r: _Reader, raw: Any, key: str) -> LedgerRecord:
    m = r.mapping(raw, key)
    c = r.mapping(m.get("crates"), f"{key}.crates")
    d = r.mapping(m.get("dollars"), f"{key}.dollars")
    ck, dk = f"{key}.crates", f"{key}.dollars"
    stored_raw = r.mapping(c.get("stored") or {}, f"{ck}.stored")
    stored = {str(w): r.integer(stored_raw, w, f"{ck}.stored") for w in stored_raw}
    return LedgerRecord(
        before_raid=r.integer(c, "before_raid", ck),
        seized=r.integer(c, "seized", ck),
        at_start=r.integer(c, "at_start", ck),
        captured=r.integer(c, "captured", ck),
        captured_from=r.integer(c, "captured_from", ck),
        produced=r.integer(c, "produced", ck),
        looted=r.integer(c, "looted", ck),
        held=r.integer(c, "held", ck),
        capacity=r.integer(c, "capacity", ck),
        sold=r.integer(c, "sold", ck),
        stored=stored,
        lost=r.integer(c, "lost", ck),
        cash_start=r.money(d, "start", dk),
        upkeep=r.money(d, "upkeep", dk),
        recruits=r.money(d, "recruits", dk),
        bribes=r.money(d, "bribes", dk),
        revenue=r.money(d, "revenue", dk),
        cash_end=r.money(d, "end", dk),
        notes=tuple(_text(r, n, f"{key}.notes") for n in r.seq(m, "notes", key)),
        balanced=r.flag(m, "balanced", key, default=True),
    )


def _gang(r: _Reader, gang: str, raw: Any) -> GangResults:
    key = f"gangs.{gang}"
    m = r.mapping(raw, key)
    lines = []
    for i, ln in enumerate(r.seq(m, "lines", key)):
        k = f"{key}.lines[{i}]"
        x = r.mapping(ln, k)
        lines.append(
            LineRecord(
                number=r.integer(x, "line", k),
                text=r.text(x, "text", k, default=""),
                status=r.text(x, "status", k),
                understood=r.text(x, "understood", k, default=""),
                message=r.text(x, "message", k, default=""),
                translations={
                    lang: r.text(x, f"message_{lang}", k)
                    for lang in languages()
                    if lang != "en" and x.get(f"message_{lang}")
                },
                reason=None if x.get("reason") is None else _text_value(r, x["reason"], f"{k}.reason"),
            )
        )
    units = []
    for i, u in enumerate(r.seq(m, "units", key)):
        k = f"{key}.units[{i}]"
        x = r.mapping(u, k)
        units.append(
            UnitResult(
                r.text(x, "unit", k),
                r.text(x, "order", k),
                _result_flag(r, x, k),
                r.text(x, "reason", k, default=""),
                _outcome(r, x, k),
            )
        )
    dislodged = []
    for i, d in enumerate(r.seq(m, "dislodged", key)):
        k = f"{key}.dislodged[{i}]"
        x = r.mapping(d, k)
        dislodged.append(
            Dislodgement(
                unit=r.text(x, "unit", k),
                by=r.text(x, "by", k, default=""),
                retreated_to=r.optional(x, "retreated_to", k),
                disbanded=r.flag(x, "disbanded", k, default=False),
                reason=r.text(x, "reason", k, default=""),
                outcome=_outcome(r, x, k),
            )
        )
    adjustments = []
    for i, a in enumerate(r.seq(m, "adjustments", key)):
        k = f"{key}.adjustments[{i}]"
        x = r.mapping(a, k)
        adjustments.append(AdjustmentRecord(r.text(x, "kind", k), r.text(x, "order", k), _reason(r, x, k)))
    bids = []
    for i, b in enumerate(r.seq(m, "bids", key)):
        k = f"{key}.bids[{i}]"
        x = r.mapping(b, k)
        bids.append(BidRecord(r.text(x, "station", k), r.money(x, "paid", k), r.flag(x, "won", k), _reason(r, x, k)))
    return GangResults(
        gang=gang,
        orders_file=r.optional(m, "orders_file", key),
        lines=tuple(lines),
        units=tuple(units),
        dislodged=tuple(dislodged),
        adjustments=tuple(adjustments),
        bids=tuple(bids),
        ledger=_ledger(r, m.get("ledger"), f"{key}.ledger"),
        vp=r.integer(m, "vp", key),
    )


def read_results(raw: Any, *, source: str = "<results>") -> TurnResults:
    """Typed results from the data of ``results.yaml``; a malformed file raises
    StateError naming the file and the key."""
    r = _Reader(source)
    top = r.mapping(raw, "")
    turn = r.text(top, "turn", "")
    try:
        Turn.parse(turn)
    except ValueError as exc:
        raise r.fail("turn", str(exc)) from None
    gangs_raw = r.mapping(top.get("gangs"), "gangs")
    gangs = {str(g): _gang(r, str(g), v) for g, v in gangs_raw.items()}
    assaults = []
    for i, a in enumerate(r.seq(top, "assaults", "")):
        k = f"assaults[{i}]"
        x = r.mapping(a, k)
        assaults.append(
            AssaultRecord(
                gang=r.text(x, "gang", k),
                unit=r.text(x, "unit", k),
                station=r.text(x, "station", k),
                strength=r.integer(x, "strength", k),
                needed=r.integer(x, "needed", k),
                succeeded=r.flag(x, "succeeded", k),
                reason=r.text(x, "reason", k, default=""),
                outcome=_outcome(r, x, k),
            )
        )
    corruption_raw = r.mapping(top.get("corruption") or {}, "corruption")
    vp_raw = r.mapping(top.get("vp") or {}, "vp")
    nxt = r.mapping(top.get("next"), "next")
    next_turn = NextTurn(
        turn=r.text(nxt, "turn", "next"),
        price=r.money(nxt, "price", "next"),
        price_reason=_reason(r, nxt, "next", text="price_reason", value="price_message"),
        returns=tuple(_return(r, x) for x in r.seq(nxt, "returns", "next")),
        raid=r.raid(nxt.get("raid"), "next.raid"),
    )
    return TurnResults(
        turn=turn,
        price=r.money(top, "price", ""),
        raid=r.raid(top.get("raid"), "raid"),
        gangs=gangs,
        assaults=tuple(assaults),
        corruption={str(s): str(g) for s, g in corruption_raw.items()},
        vp={str(g): r.integer(vp_raw, g, "vp") for g in vp_raw},
        winners=tuple(str(g) for g in r.seq(top, "winners", "")),
        sold=r.integer(top, "sold", "", default=0),
        next=next_turn,
    )


def check_results(gmap: GameMap, res: TurnResults, *, source: str = "<results>") -> None:
    """The results name only the map's gangs and districts (StateError otherwise)."""

    def fail(key: str, problem: str) -> StateError:
        return StateError(source, key, problem)

    for g in res.gangs:
        if g not in gmap.gangs:
            raise fail(f"gangs.{g}", f"unknown gang {g!r} (gangs: {', '.join(gmap.gangs)})")
    for g in (*res.winners, *res.corruption.values(), *res.vp):
        if g not in gmap.gangs:
            raise fail("", f"unknown gang {g!r} (gangs: {', '.join(gmap.gangs)})")
    for s in res.corruption:
        if s not in gmap.districts or not gmap.districts[s].has_station:
            raise fail("corruption", f"{s!r} is not a district with a police station")
    for key, raid in (("raid", res.raid), ("next.raid", res.next.raid)):
        if raid is not None and (raid.district not in gmap.districts or raid.station not in gmap.districts):
            raise fail(key, f"unknown district {raid.district!r} or station {raid.station!r}")
    for g, gr in res.gangs.items():
        for b in gr.bids:
            if b.station not in gmap.districts:
                raise fail(f"gangs.{g}.bids", f"unknown station {b.station!r}")
    for a in res.assaults:
        if a.gang not in gmap.gangs or a.station not in gmap.districts:
            raise fail("assaults", f"unknown gang {a.gang!r} or station {a.station!r}")


def as_results(data: TurnResults | Mapping[str, Any], *, source: str = "<results>") -> TurnResults:
    return data if isinstance(data, TurnResults) else read_results(data, source=source)


def load_results(path: Path) -> TurnResults:
    if not path.exists():
        raise GameError(f"{path}: no results; adjudicate the turn first ('moonshine adjudicate TURN')")
    from moonshine.results import load_data

    raw = load_data(path)
    return read_results(raw, source=str(path))


# -- arrows for the map picture -----------------------------------------------------------


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


# -- words ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Words:
    """The language helpers a template and the view builders use."""

    language: str

    def __call__(self, key: str, /, **fields: object) -> str:
        return i18n.message(self.language, key, **fields)

    def word(self, text: str) -> str:
        return i18n.word(self.language, text)

    def reason(self, text: Text) -> str:
        """A reason in this language (a file of an earlier version gives its English)."""
        return text if isinstance(text, str) else text.text(self.language)

    def explain(self, outcome: oc.Result | None, text: str) -> str:
        """An outcome in this language; a file of an earlier version gives only its text."""
        return self.reason(text) if outcome is None else oc.explain(outcome, self.language)

    def money(self, cents: Money) -> str:
        return i18n.money_text(self.language, cents)

    def turn(self, turn: str, capital: bool = False) -> str:
        return i18n.turn_label(self.language, turn, capital=capital)

    def turn_of(self, turn: str) -> str:
        return i18n.turn_of(self.language, turn)

    @property
    def colon(self) -> str:
        return i18n.colon(self.language)

    @property
    def semi(self) -> str:
        return i18n.semicolon(self.language)


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
    return map_title(gmap, turn, language) + i18n.colon(language) + i18n.message(language, "map.title_shows")


def map_title(gmap: GameMap, turn: str, language: str) -> str:
    """The picture's title: the map's place and the turn, e.g. ``Chicago, spring 1924``."""
    place = gmap.title.split(",")[0].strip() or gmap.name
    return f"{place}, {i18n.turn_label(language, turn)}"


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


# -- control and VP at the end of the turn ---------------------------------------------------


def end_of_turn_control(nxt: GameState) -> dict[str, str]:
    """Control when the turn ended (VP are counted then): the next state's control
    before its opening raid closed a speakeasy (returning units take no control, R22)."""
    return story.control_at_end(nxt)


@dataclass(frozen=True)
class Standing:
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


# -- views --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LineRow:
    number: int
    text: str
    understood: str
    status: str  # translated
    message: str  # translated
    accepted: bool  # accepted, or a header line
    note: str  # what the text report says under the line ("" when read exactly as written)


@dataclass(frozen=True)
class OrderRow:
    order: str
    succeeded: bool
    result: str  # translated word
    reason: str  # translated
    line: str  # "order: reason", the judges' way


@dataclass(frozen=True)
class Row:
    label: str
    value: str
    op: str = ""  # "+", "-", "=" or ""


@dataclass(frozen=True)
class VPRow:
    label: str
    count: int
    vp: int


@dataclass(frozen=True)
class TextRow:
    label: str
    text: str


@dataclass(frozen=True)
class DistrictRow:
    code: str
    name: str
    feature: str
    station: str
    crates: str  # warehouse stock after the opening raid, "" otherwise

    @property
    def detail(self) -> str:
        return ", ".join(x for x in (self.feature, self.crates, self.station) if x)


@dataclass(frozen=True)
class GangBlock:
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


def _common(gmap: GameMap, config: GameConfig, res: TurnResults, w: Words, for_email: bool) -> dict[str, Any]:
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
    unit = f"{a.kind.value} ({i18n.kind_label(w.language, a.kind)})"
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
    config: GameConfig,
    data: TurnResults | Mapping[str, Any],
    nxt: GameState,
    gang: str,
    *,
    language: str | None = None,
    for_email: bool = False,
    seed: str | None = None,
) -> dict[str, Any]:
    """Everything one gang's private report shows, already in its language. With the
    game's secret ``seed``, the receipt of the gang's recorded orders and its salt."""
    res = as_results(data)
    check_results(gmap, res)
    if gang not in gmap.gangs:
        raise GameError(f"unknown gang {gang!r} (gangs: {', '.join(gmap.gangs)})")
    w = Words(i18n.check_language(language or config.language))
    g = gmap.gangs[gang]
    gr = res.gangs.get(gang) or GangResults(gang, None, (), (), (), (), (), LedgerRecord(), res.vp.get(gang, 0))
    back = Turn.parse(res.next.turn).next().name
    crates, dollar_rows, stored = _ledger_rows(w, gr.ledger, res.price)
    standing = next(s for s in standings(gmap, res, nxt) if s.key == gang)

    units = sorted(nxt.units_of(gang), key=lambda u: (gmap.districts[u.district].area, u.kind.value))
    districts = []
    for code in gmap.map_order(nxt.controlled_by(gang)):
        d = gmap.districts[code]
        crates_here = ""
        if d.feature is Feature.WAREHOUSE:
            crates_here = w("position.crates", n=nxt.stocks.get(code, 0))
        districts.append(
            DistrictRow(code, d.name, i18n.feature_label(w.language, d.feature), d.station or "", crates_here)
        )
    arrested = [a for a in nxt.arrested if a.gang == gang]
    upkeep_units = len(units) + len(arrested)
    player = config.players.get(gang)
    ctx = _common(gmap, config, res, w, for_email)
    ctx.update(
        {
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


@dataclass(frozen=True)
class ChangeRow:
    """A row of the bulletin's "what changed": a district or station, its holder before and after."""

    place: str
    before: str
    before_colour: str
    after: str
    after_colour: str


@dataclass(frozen=True)
class VPChangeRow:
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


def _story_context(
    gmap: GameMap, res: TurnResults, before: GameState, nxt: GameState, w: Words, winners: str
) -> dict[str, Any]:
    """The bulletin's headline, its few sentences and its "what changed" tables."""
    st = story.story(gmap, before, res, nxt)

    def name(gang: str | None) -> str:
        return _gang_name(gmap, gang)

    if winners:
        headline = winners
    elif st.taken:
        t = st.taken[0]
        headline = w("story.headline.station", gang=name(t.gang), station=f"{t.station} ({_station(gmap, t.station)})")
    elif st.net and max(st.net.values()) > 0:
        best = max(st.net.values())
        gang = next(g for g, n in st.net.items() if n == best)
        headline = w("story.headline.gain", gang=name(gang), n=best)
    else:
        headline = w("story.headline.quiet")
    sentences = []
    if st.leaders:
        if len(st.leaders) == 1:
            sentences.append(w("story.lead.one", gang=name(st.leaders[0]), vp=st.lead_vp))
        else:
            sentences.append(w("story.lead.many", gangs=_and(w, [name(g) for g in st.leaders]), vp=st.lead_vp))
    moved = [c for c in st.changes if not c.station]
    if moved:
        gains = sorted(st.net.items(), key=lambda kv: -kv[1])
        sentences.append(w("story.changed", n=len(moved), gangs=", ".join(f"{name(g)} {_signed(n)}" for g, n in gains)))
    else:
        sentences.append(w("story.unchanged"))
    if st.dislodged:
        units = [
            w("story.retreated", unit=d.unit, gang=name(d.gang), district=d.retreated_to)
            if d.retreated_to
            else w("story.disbanded", unit=d.unit, gang=name(d.gang))
            for d in st.dislodged
        ]
        sentences.append(w("story.dislodged", n=len(units), units=w.semi.join(units)))
    sentences += [
        w("story.taken", gang=name(t.gang), station=f"{t.station} ({_station(gmap, t.station)})", unit=t.unit)
        for t in st.taken
    ]
    if res.raid is not None:
        sentences.append(w("story.raid", text=_raid_short(gmap, res.raid, w)))
    stations = [
        w("story.station_to", station=f"{c.code} ({_station(gmap, c.code)})", gang=name(c.after))
        if c.after is not None
        else w("story.station_freed", station=f"{c.code} ({_station(gmap, c.code)})", gang=name(c.before))
        for c in st.changes
        if c.station
    ]
    if stations:
        sentences.append(w("story.stations", stations=", ".join(stations)))
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
    config: GameConfig,
    data: TurnResults | Mapping[str, Any],
    nxt: GameState,
    *,
    language: str | None = None,
    for_email: bool = False,
    before: GameState | None = None,
    charts: Sequence[tuple[str, str]] = (),
) -> dict[str, Any]:
    """Everything the public bulletin shows, already in its language. Nothing here
    comes from a gang's lines, bids, ledger, stocks or cash. With the turn's opening
    state ``before``: the headline, the story and what changed."""
    res = as_results(data)
    check_results(gmap, res)
    w = Words(i18n.check_language(language or config.language))
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
        ctx.update(_story_context(gmap, res, before, nxt, w, winners))
    else:
        ctx.update({"headline": "", "story": [], "changed": None, "vp_changes": []})
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


# -- rendering ----------------------------------------------------------------------------------


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
    config: GameConfig,
    data: TurnResults | Mapping[str, Any],
    nxt: GameState,
    gang: str,
    *,
    language: str | None = None,
    html: bool = False,
    for_email: bool = False,
    seed: str | None = None,
) -> str:
    """One gang's private report (text, or HTML with ``html=True``)."""
    ctx = report_context(gmap, config, data, nxt, gang, language=language, for_email=for_email, seed=seed)
    return inline_css(pages.render("report.html.j2", ctx)) if html else pages.render("report.txt.j2", ctx)


def render_bulletin(
    gmap: GameMap,
    config: GameConfig,
    data: TurnResults | Mapping[str, Any],
    nxt: GameState,
    *,
    language: str | None = None,
    html: bool = False,
    for_email: bool = False,
    before: GameState | None = None,
    charts: Sequence[tuple[str, str]] = (),
) -> str:
    """The public bulletin (text, or HTML with ``html=True``); with the turn's opening
    state ``before``, its story and what changed; ``charts``: the pictures of the
    charts beside it (file name, title)."""
    ctx = bulletin_context(
        gmap, config, data, nxt, language=language, for_email=for_email, before=before, charts=charts
    )
    return inline_css(pages.render("bulletin.html.j2", ctx)) if html else pages.render("bulletin.txt.j2", ctx)


def render_all(
    gmap: GameMap,
    config: GameConfig,
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
) -> dict[str, str]:
    """File name -> text: ``GANG.txt`` and ``GANG.html`` for each gang (all by default)
    and ``bulletin.txt`` and ``bulletin.html``. ``seed``: the game's secret, for the
    receipts in the private reports. ``gang_languages``: the language of a gang's
    report when its player reads another than ``language``."""
    res = as_results(data)
    out: dict[str, str] = {}
    for g in gangs if gangs is not None else gmap.gangs:
        own = (gang_languages or {}).get(g, language)
        for html, ext in ((False, "txt"), (True, "html")):
            out[f"{g}.{ext}"] = render_report(
                gmap, config, res, nxt, g, language=own, html=html, for_email=for_email, seed=seed
            )
    if bulletin:
        for html, ext in ((False, "txt"), (True, "html")):
            out[f"bulletin.{ext}"] = render_bulletin(
                gmap, config, res, nxt, language=language, html=html, for_email=for_email, before=before, charts=charts
            )
    return out


# -- the game directory -----------------------------------------------------------------------


def reports_dir(game: Game, turn: str) -> Path:
    return game.turn_dir(turn) / REPORTS_DIR


def adjudicated_turns(game: Game) -> list[str]:
    """The turns with results, oldest first."""
    return [t for t in game.turns() if (game.turn_dir(t) / RESULTS_FILE).is_file()]


def charts_until(game: Game, turn: str, res: TurnResults, language: str) -> tuple[Chart, Chart]:
    """The charts of the game from its first turn to ``turn``, whose results are ``res``
    (the earlier turns' are read from the game directory)."""
    turns = [t for t in adjudicated_turns(game) if Turn.parse(t) < Turn.parse(turn)]
    vp: list[Mapping[str, int]] = []
    prices: list[float] = []
    for t in turns:
        earlier = load_results(game.turn_dir(t) / RESULTS_FILE)
        vp.append(dict(earlier.vp))
        prices.append(earlier.price / 100)
    from moonshine.gamecharts import game_charts

    return game_charts(game, [*turns, turn], [*vp, dict(res.vp)], [*prices, res.price / 100], language)


def load_turn(game: Game, turn: str) -> tuple[TurnResults, GameState]:
    """A turn's results and the next turn's opening state, both checked."""
    _turn(turn)
    turn = game.turn_name(turn)
    path = game.turn_dir(turn) / RESULTS_FILE
    if not path.is_file():
        raise GameError(f"{path}: no results; adjudicate the turn first ('moonshine adjudicate {turn}')")
    res = load_results(path)
    nxt_name = _check_turn(game, turn, res, str(path))
    return res, game.load_state(nxt_name)


def opening_state(game: Game, turn: str) -> GameState | None:
    """The turn's opening state (for the bulletin's story), if the game has it."""
    if not game.state_path(turn).is_file():
        return None
    return game.load_state(turn)


def _turn(turn: str) -> Turn:
    try:
        return Turn.parse(turn)
    except ValueError as exc:
        raise GameError(str(exc)) from None


def _check_turn(game: Game, turn: str, res: TurnResults, source: str) -> str:
    """Check a turn's results against the map and the turn's name; the next turn's name."""
    t = _turn(turn)
    check_results(game.map, res, source=source)
    if res.turn != turn:
        raise StateError(source, "turn", f"these are the results of {res.turn}, not {turn}")
    nxt_name = t.next().name
    if res.next.turn != nxt_name:
        raise StateError(source, "next.turn", f"expected {nxt_name}, found {res.next.turn}")
    return nxt_name


def render_map(
    gmap: GameMap, res: TurnResults, nxt: GameState, language: str, *, width: int = MAP_WIDTH
) -> tuple[str, bytes]:
    """The map at the start of the next turn with this turn's orders as arrows, and the
    units dislodged this turn faded where they stood with their retreats (crossed out
    when disbanded): SVG and PNG."""
    from moonshine import picture

    arrows = arrows_from_results(res, gmap)
    title = picture_title(gmap, res.turn, language)
    # the board as the turn left it, with the turn's own raid ("raided this turn"): the
    # next state already holds the next turn's raid, drawn at its opening
    shown = nxt.copy()
    shown.raid = res.raid
    scene = picture.build_scene(
        gmap, shown, arrows=arrows, title=title, language=language, dislodged=dislodged_units(res)
    )
    return picture.scene_svg(scene), picture.scene_png(scene, width)


def write_reports(
    game: Game,
    turn: str,
    *,
    language: str | None = None,
    gangs: Sequence[str] | None = None,
    bulletin: bool = True,
    pictures: bool = True,
    for_email: bool = False,
    written_turn: tuple[TurnResults | Mapping[str, Any], GameState] | None = None,
    opening: GameState | None = None,
) -> list[Path]:
    """Write TURN's reports under ``turns/TURN/reports/``: ``GANG.txt`` and
    ``GANG.html`` for every gang (or those given), ``bulletin.txt``, ``bulletin.html``,
    ``map.svg`` and ``map.png``; each file atomically. Returns the paths written, in
    order. The HTML shows the ``map.png`` beside it, so that it opens from the disk
    with its picture; the mail makes it ``cid:map.png``, the attached picture
    (``moonshine.mail.mail_pictures``; ``for_email=True`` writes that already). The
    ``adjudicate`` command calls it after adjudicating, handing over in
    ``written_turn`` the results' data and the next state it has just written, so that
    they are not read back, and in ``opening`` the turn's opening state it has read;
    without them, they are read from the game directory."""
    gmap = game.map
    lang = i18n.check_language(language or game.config.language)
    for g in gangs or ():
        if g not in gmap.gangs:
            raise GameError(f"unknown gang {g!r} (gangs: {', '.join(gmap.gangs)})")
    if written_turn is None:
        res, nxt = load_turn(game, turn)
    else:
        source = str(game.turn_dir(turn) / RESULTS_FILE)
        res = as_results(written_turn[0], source=source)
        _check_turn(game, turn, res, source)
        nxt = written_turn[1]
    base = reports_dir(game, turn)
    written: list[Path] = []
    chart_files: list[tuple[str, str]] = []
    if bulletin and pictures:
        from moonshine import charts

        for name, chart in zip(CHART_FILES, charts_until(game, turn, res, lang), strict=True):
            atomic_write_bytes(base / name, charts.png(chart))
            written.append(base / name)
            chart_files.append((name, chart.title))
    texts = render_all(
        gmap,
        game.config,
        res,
        nxt,
        language=lang,
        gangs=gangs,
        bulletin=bulletin,
        for_email=for_email,
        seed=game.receipt_seed(),
        before=opening if opening is not None else opening_state(game, turn),
        charts=chart_files,
        # each player's report in their own language, unless one language was asked for
        gang_languages=None if language else game.side_languages(),
    )
    for name, text in texts.items():
        path = base / name
        atomic_write_text(path, text)
        written.append(path)
    if pictures:
        svg, png = render_map(gmap, res, nxt, lang)
        atomic_write_text(base / "map.svg", svg)
        atomic_write_bytes(base / MAP_FILE, png)
        written += [base / "map.svg", base / MAP_FILE]
    return written


def print_report(game: Game, turn: str, *, gang: str | None = None, language: str | None = None) -> str:
    """The text of one report (the gang's, or the bulletin), for the terminal."""
    gmap = game.map
    if gang is not None and gang not in gmap.gangs:
        raise GameError(f"unknown gang {gang!r} (gangs: {', '.join(gmap.gangs)})")
    lang = i18n.check_language(language or game.config.language)
    res, nxt = load_turn(game, turn)
    if gang is None:
        return render_bulletin(gmap, game.config, res, nxt, language=lang, before=opening_state(game, turn))
    return render_report(gmap, game.config, res, nxt, gang, language=lang, seed=game.receipt_seed())


__all__ = [
    "MAP_CID",
    "MAP_FILE",
    "TurnResults",
    "arrows_from_results",
    "bulletin_context",
    "describe_raid",
    "load_results",
    "load_turn",
    "map_title",
    "print_report",
    "read_results",
    "render_all",
    "render_bulletin",
    "render_report",
    "report_context",
    "standings",
    "write_reports",
]
