"""A turn's results as JSON, attached to every report mail so that players' own
tools can read the game (``docs/results.schema.json`` describes it).

The bulletin's attachment holds the turn's public results only; a gang's (or
power's) report holds the same public part and, under ``private``, that side's
own: its order lines as read, its bids and its ledger (Moonshine). What is
public follows the reports (R19): unit orders and their results, dislodgements,
recruits and disbands, assaults, the raids, who corrupts which station, VP,
the price and the next turn's opening. A classic game's results are all public.

Built from ``turns/TURN/results.yaml`` (the game master's full results), never
from the orders files; deterministic bytes (sorted keys)."""

from __future__ import annotations

import json
from typing import Any

from moonshine import schema, yamlio
from moonshine.gamedir import Game

FORMAT = "moonshine-results"
VERSION = 1
_PUBLIC_TOP = ("price", "sold", "raid", "assaults", "corruption", "vp", "winners")


def _results(game: Game, turn: str) -> dict[str, Any] | None:
    path = game.turn_dir(turn) / "results.yaml"
    if not path.is_file():
        return None
    raw = yamlio.load(path, what="results file")
    if not isinstance(raw, dict):
        return None
    if not game.is_classic:
        schema.check(raw, schema.RESULTS, str(path))
    return raw


def _plain(value: Any) -> Any:
    """YAML values as JSON ones: dates as text, mappings with text keys."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)


def _public(game: Game, raw: dict[str, Any]) -> dict[str, Any]:
    sides = game.sides()
    if game.is_classic:
        rows = raw.get("results") or {}
        return {
            "sides": {
                key: {"name": name, "units": _plain(rows.get(key) or [])} for key, name in sides.items() if key in rows
            },
            "next": {"turn": str(raw.get("next", ""))},
            "notes": _plain(raw.get("notes") or []),
        }
    gangs = raw.get("gangs") or {}
    out: dict[str, Any] = {k: _plain(raw.get(k)) for k in _PUBLIC_TOP}
    out["sides"] = {
        key: {
            "name": sides.get(key, key),
            "submitted": gr.get("orders_file") is not None,
            "units": _plain(gr.get("units") or []),
            "dislodged": _plain(gr.get("dislodged") or []),
            "adjustments": _plain(gr.get("adjustments") or []),
            "vp": gr.get("vp", 0),
        }
        for key, gr in gangs.items()
    }
    nxt = raw.get("next") or {}
    out["next"] = {k: _plain(nxt.get(k)) for k in ("turn", "price", "price_reason", "returns", "raid")}
    return out


def _private(raw: dict[str, Any], side: str) -> dict[str, Any] | None:
    gr = (raw.get("gangs") or {}).get(side)
    if gr is None:
        return None
    return {
        "side": side,
        "orders": _plain(gr.get("lines") or []),
        "bids": _plain(gr.get("bids") or []),
        "ledger": _plain(gr.get("ledger") or {}),
    }


def document(game: Game, turn: str, side: str | None = None) -> dict[str, Any] | None:
    """The JSON document of ``turn``: public, and ``side``'s private part when a
    side is given; None when the turn has no results yet."""
    raw = _results(game, turn)
    if raw is None:
        return None
    doc: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "game": game.config.title,
        "variant": game.config.variant,
        "turn": turn,
        "public": _public(game, raw),
    }
    if side is not None and not game.is_classic:
        mine = _private(raw, side)
        if mine is not None:
            doc["private"] = mine
    return doc


def attachment(game: Game, turn: str, side: str | None = None) -> bytes | None:
    """``document`` as UTF-8 JSON bytes (sorted keys, one line per value), or None."""
    doc = document(game, turn, side)
    if doc is None:
        return None
    return (json.dumps(doc, sort_keys=True, ensure_ascii=False, indent=1) + "\n").encode("utf-8")
