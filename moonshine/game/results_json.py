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

from moonshine import yamlio
from moonshine.game.directory import Game

FORMAT = "moonshine-results"
VERSION = 1


def _results(game: Game, turn: str) -> dict[str, Any] | None:
    path = game.turn_dir(turn) / "results.yaml"
    if not path.is_file():
        return None
    raw = yamlio.load(path, what="results file")
    if not isinstance(raw, dict):
        return None
    game.layout.check_results(raw, str(path))
    return raw


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
        "public": game.layout.public_results(raw, game.sides()),
    }
    if side is not None:
        mine = game.layout.private_results(raw, side)
        if mine is not None:
            doc["private"] = mine
    return doc


def attachment(game: Game, turn: str, side: str | None = None) -> bytes | None:
    """``document`` as UTF-8 JSON bytes (sorted keys, one line per value), or None."""
    doc = document(game, turn, side)
    if doc is None:
        return None
    return (json.dumps(doc, sort_keys=True, ensure_ascii=False, indent=1) + "\n").encode("utf-8")
