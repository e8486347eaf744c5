"""A turn's results as data: ``turns/TURN/results.yaml`` (every order as given, its
result and reason, the ledgers, raids and VP), written (``to_data``) and read back,
checked and typed (``read_results``, ``load_results``: the values the reports are
rendered from)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import msgspec

from moonshine.engine import outcome as oc
from moonshine.errors import GameError, StateError
from moonshine.text import money
from moonshine.text.catalogue import Message, languages, message_data, message_from_data
from moonshine.text.money import Money, dollars
from moonshine.variants.moonshine.calendar import Turn
from moonshine.variants.moonshine.map import GameMap
from moonshine.variants.moonshine.state import Raid
from moonshine.variants.moonshine.turn import Ledger, TurnResult

RESULTS_VERSION = 1


def load_data(path: Path) -> Any:
    """``turns/TURN/results.yaml`` as data, checked strictly (``moonshine.schema.RESULTS``);
    its turn must be its directory's."""
    from moonshine import schema, yamlio

    raw = yamlio.load(path, what="results file")
    schema.check(raw, schema.RESULTS, str(path))
    if raw["turn"] != path.parent.name:
        raise StateError(
            yamlio.where(str(path), yamlio.line_of(raw, "turn")),
            "turn",
            f"says {raw['turn']}, but the file is in turns/{path.parent.name}/",
        )
    if raw["next"]["raid"] is None and not raw["winners"]:
        raise StateError(
            yamlio.where(str(path), yamlio.line_of(raw["next"], "raid")),
            "next.raid",
            "missing: the next turn's raid is drawn unless the game is over (R21)",
        )
    return raw


class OrderLineRecord(msgspec.Struct, frozen=True):
    """One line of a gang's orders file as the referee understood it."""

    number: int
    text: str
    status: str  # accepted, rejected, replaced, ...
    understood: str = ""  # canonical form
    message: str = ""  # in English, for a person reading the file
    reason: Message | None = None  # the message as a value: reports explain it in any language


class Submission(msgspec.Struct):
    """Where a gang's orders came from."""

    gang: str
    file: str | None = None  # relative path, None when the gang sent nothing (R12)
    lines: list[OrderLineRecord] = msgspec.field(default_factory=list)


def raid_data(raid: Raid | None) -> dict[str, Any] | None:
    if raid is None:
        return None
    return {
        "district": raid.district,
        "by": raid.by,
        "station": raid.station,
        "controller": raid.controller,
        "spared": raid.spared,
        "crates": raid.crates,
        "arrested": list(raid.arrested),
        "spared_units": list(raid.spared_units),
        "speakeasy_closed": raid.speakeasy_closed,
        "draw": raid.draw,
    }


def ledger_data(ledger: Ledger) -> dict[str, Any]:
    return {
        "crates": {
            "before_raid": ledger.before_raid,
            "seized": ledger.seized,
            "at_start": ledger.at_start,
            "captured": ledger.captured,
            "captured_from": ledger.captured_from,
            "produced": ledger.produced,
            "looted": ledger.looted,
            "held": ledger.held,
            "capacity": ledger.capacity,
            "sold": ledger.sold,
            "stored": dict(ledger.stored),
            "lost": ledger.lost,
        },
        "dollars": {
            "start": money.to_yaml(ledger.cash_start),
            "upkeep": money.to_yaml(ledger.upkeep),
            "recruits": money.to_yaml(ledger.recruits),
            "bribes": money.to_yaml(ledger.bribes),
            "revenue": money.to_yaml(ledger.revenue),
            "end": money.to_yaml(ledger.cash_end),
        },
        "notes": [message_data(n) for n in ledger.notes],
        "balanced": ledger.balanced,
    }


def to_data(gmap: GameMap, result: TurnResult, submissions: Mapping[str, Submission]) -> dict[str, Any]:
    out = result.outcome
    gangs: dict[str, Any] = {}
    area = {c: d.area for c, d in gmap.districts.items()}
    for g in gmap.gangs:
        sub = submissions.get(g, Submission(g))
        units = []
        for ref in sorted(out.results, key=lambda r: (area[r.district], r.kind.value)):
            res = out.results[ref]
            if res.gang != g:
                continue
            units.append(
                {
                    "unit": ref.text(),
                    "order": res.order.text(),
                    "result": "succeeded" if res.succeeded else "failed",
                    "reason": res.reason,
                    "outcome": oc.to_data(res.outcome),
                }
            )
        dislodged = []
        for ref in sorted(out.dislodged, key=lambda r: (area[r.district], r.kind.value)):
            d = out.dislodged[ref]
            if d.gang != g:
                continue
            dislodged.append(
                {
                    "unit": ref.text(),
                    "by": d.by,
                    "retreated_to": d.retreated_to,
                    "disbanded": d.disbanded,
                    "reason": d.reason,
                    "outcome": oc.to_data(d.outcome),
                }
            )
        gangs[g] = {
            "orders_file": sub.file,
            "lines": [
                {
                    "line": ln.number,
                    "text": ln.text,
                    "status": ln.status,
                    "understood": ln.understood,
                    "message": ln.message,
                    **({"reason": message_data(ln.reason)} if ln.reason is not None else {}),
                }
                for ln in sub.lines
            ],
            "units": units,
            "dislodged": dislodged,
            "adjustments": [
                {"kind": a.kind, "order": a.text, "reason": a.reason, "message": message_data(a.why)}
                for a in result.adjustments
                if a.gang == g
            ],
            "bids": [
                {
                    "station": b.station,
                    "paid": money.to_yaml(b.amount),
                    "won": b.won,
                    "reason": b.reason,
                    "message": message_data(b.why),
                }
                for b in result.bids
                if b.gang == g
            ],
            "ledger": ledger_data(result.ledgers[g]),
            "vp": result.vp[g],
        }
    nxt = result.next_state
    return {
        "version": RESULTS_VERSION,
        "turn": result.turn,
        "price": money.to_yaml(result.price),
        "raid": raid_data(result.raid),
        "gangs": gangs,
        "assaults": [
            {
                "gang": a.gang,
                "unit": a.unit.text(),
                "station": a.station,
                "strength": a.strength,
                "needed": a.needed,
                "succeeded": a.succeeded,
                "reason": a.reason,
                "outcome": oc.to_data(a.outcome),
            }
            for a in out.assaults
        ],
        "corruption": dict(nxt.corruption),
        "vp": dict(result.vp),
        "winners": list(result.winners),
        "sold": result.sold_total,
        "next": {
            "turn": nxt.turn,
            "price": money.to_yaml(result.new_price),
            "price_reason": result.price_why.text(),
            "price_message": message_data(result.price_why),
            "returns": [{"gang": r.arrested.gang, "message": message_data(r.why)} for r in result.returns],
            "raid": raid_data(nxt.raid),
        },
    }


# -- the results file read back, typed (the reports read these) -------------------------


class LineRecord(msgspec.Struct, frozen=True):
    """One line of a gang's orders file: as given, how it was understood, its fate.
    ``reason`` is the message as a value (explained in the reader's language); a file
    of an earlier version gives the English ``message`` and may give ``translations``
    (``message_fr``)."""

    number: int
    text: str
    status: str
    understood: str = ""
    message: str = ""
    translations: Mapping[str, str] = msgspec.field(default_factory=dict)
    reason: Message | None = None


class UnitResult(msgspec.Struct, frozen=True):
    unit: str
    order: str  # canonical text
    succeeded: bool
    reason: str  # in English, as the file says it
    outcome: oc.Result | None = None  # None: a file of an earlier version


class Dislodgement(msgspec.Struct, frozen=True):
    unit: str
    by: str
    retreated_to: str | None
    disbanded: bool
    reason: str
    outcome: oc.Result | None = None


class AdjustmentRecord(msgspec.Struct, frozen=True):
    kind: str  # recruit, disband, recruit cancelled, bid cut, bid refused, disbanded for upkeep
    order: str
    reason: Text


class BidRecord(msgspec.Struct, frozen=True):
    station: str
    paid: Money
    won: bool
    reason: Text


class LedgerRecord(msgspec.Struct, frozen=True):
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
    stored: Mapping[str, int] = msgspec.field(default_factory=dict)
    lost: int = 0
    cash_start: Money = 0
    upkeep: Money = 0
    recruits: Money = 0
    bribes: Money = 0
    revenue: Money = 0
    cash_end: Money = 0
    notes: tuple[Text, ...] = ()
    balanced: bool = True


class GangResults(msgspec.Struct, frozen=True):
    gang: str
    orders_file: str | None
    lines: tuple[LineRecord, ...]
    units: tuple[UnitResult, ...]
    dislodged: tuple[Dislodgement, ...]
    adjustments: tuple[AdjustmentRecord, ...]
    bids: tuple[BidRecord, ...]
    ledger: LedgerRecord
    vp: int


class AssaultRecord(msgspec.Struct, frozen=True):
    gang: str
    unit: str
    station: str
    strength: int
    needed: int
    succeeded: bool
    reason: str
    outcome: oc.Result | None = None


class NextTurn(msgspec.Struct, frozen=True):
    turn: str
    price: Money
    price_reason: Text
    returns: tuple[tuple[str, Text], ...]  # (gang, what became of its arrested unit)
    raid: Raid | None


class TurnResults(msgspec.Struct, frozen=True):
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
    raw = load_data(path)
    return read_results(raw, source=str(path))
