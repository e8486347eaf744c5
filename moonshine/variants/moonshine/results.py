"""A turn's results as data: ``turns/TURN/results.yaml`` (every order as given, its
result and reason, the ledgers, raids and VP). Reports are rendered from this."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import msgspec

from moonshine.engine import outcome as oc
from moonshine.errors import StateError
from moonshine.text import money
from moonshine.text.catalogue import Message, message_data
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
