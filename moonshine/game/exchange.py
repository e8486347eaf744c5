"""A game written in a common format, and a saved game read back and replayed
(``moonshine export``, ``moonshine replay``).

- A classic game exports as a saved game of the python ``diplomacy`` package
  (``moonshine.variants.classic.savedgame``): every phase's position, orders and
  results, which that package loads (``diplomacy.utils.export.from_saved_game_format``).
- A Moonshine game exports its own documented JSON: ``{"format": "moonshine-game",
  "version": 1, "game", "variant", "turns": [...]}``, each turn the public results
  document of ``docs/results.schema.json`` (the JSON attached to every bulletin).
- ``replay_file`` reads a saved game of the ``diplomacy`` format, written by any
  engine (this one, the ``diplomacy`` package, Cicero's dipcc), adjudicates every
  phase under a preset of rules (``moonshine.variants.classic.rulebooks``) and lists
  each phase whose outcome differs from the file's next position.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from moonshine.errors import GameError
from moonshine.variants.classic import savedgame
from moonshine.variants.classic.board import ClassicMap, standard_map
from moonshine.variants.classic.layout import load_state, phases

if TYPE_CHECKING:
    from moonshine.game.directory import Game

MOONSHINE_FORMAT = "moonshine-game"
PACKAGE_MAPS = {"classic": "standard"}  # a board's name in the diplomacy package

# A result as the diplomacy package writes it, from the kind of this engine's outcome.
_RESULT_CODES = {
    "Bounced": "bounce",
    "HeldOff": "bounce",
    "HeadToHead": "bounce",
    "Blocked": "bounce",
    "SupportCut": "cut",
    "Void": "void",
    "Rejected": "void",
    "NoRoute": "no convoy",
    "RouteBroken": "no convoy",
    "Paradox": "void",
    "CarrierDislodged": "dislodged",
    "Dislodged": "dislodged",
}


def export_game(game: Game) -> dict[str, Any]:
    """The game in its common format: a classic game as a ``diplomacy`` saved game, a
    Moonshine game as its turns' public results."""
    if game.layout.exchange == "diplomacy":
        return export_classic(game.root, game.board(), title=game.config.title, variant=game.config.variant)
    return _export_moonshine(game)


def export_classic(root: Path, gmap: ClassicMap, *, title: str = "", variant: str = "classic") -> dict[str, Any]:
    """Every phase of the classic game in ``root`` (its position, the orders as the
    results file records them, each unit's result), and the phase it stands at."""
    out: list[dict[str, Any]] = []
    for name in phases(root):
        st = load_state(root, name, gmap)
        results_path = root / "turns" / name / "results.yaml"
        orders: dict[str, list[str]] = {}
        results: dict[str, list[str]] = {}
        if results_path.is_file():
            data = yaml.safe_load(results_path.read_text(encoding="utf-8")) or {}
            for power, rows in (data.get("results") or {}).items():
                for row in rows:
                    orders.setdefault(power, []).append(str(row["order"]))
                    unit = " ".join(str(row["order"]).split()[:2])
                    if str(row["order"]) != "WAIVE":
                        results[unit] = _codes(row)
        out.append(savedgame.phase_data(gmap, st, orders, results))
        if st.winner:
            out.append(savedgame.completed_data(gmap, st))
    if not out:
        raise GameError(f"{root}: no phase to export (no turns/PHASE/state.yaml)")
    return {
        "id": title or root.name,
        "map": PACKAGE_MAPS.get(variant, variant),
        "rules": [],
        "phases": out,
    }


def _codes(row: dict[str, Any]) -> list[str]:
    if row.get("result") == "succeeds":
        return []
    kind = str((row.get("outcome") or {}).get("kind", ""))
    codes = [_RESULT_CODES.get(kind, "void")] if kind else ["void"]
    if (row.get("outcome") or {}).get("dislodged_by") and "dislodged" not in codes:
        codes.append("dislodged")
    return codes


def _export_moonshine(game: Game) -> dict[str, Any]:
    from moonshine.judge import results_json

    turns = []
    for turn in game.turns():
        doc = results_json.document(game, turn)
        if doc is not None:
            turns.append(doc)
    return {
        "format": MOONSHINE_FORMAT,
        "version": 1,
        "game": game.config.title,
        "variant": game.config.variant,
        "turns": turns,
    }


def write_export(game: Game, out: Path) -> Path:
    """``export_game`` written to ``out`` as JSON."""
    from moonshine.game.directory import atomic_write_text

    atomic_write_text(out, json.dumps(export_game(game), indent=1, ensure_ascii=False) + "\n")
    return out


def read_json(path: Path) -> dict[str, Any]:
    """A JSON file, or an error naming it and the line where it breaks."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise GameError(f"{path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise GameError(f"{path}: not UTF-8 text (expected a saved game in JSON)") from None
    except json.JSONDecodeError as exc:
        raise GameError(f"{path}:{exc.lineno}: not JSON ({exc.msg})") from None
    if not isinstance(data, dict):
        raise GameError(f"{path}: expected a JSON object (a saved game: id, map, phases)")
    return data


def replay_file(path: Path, preset: str = "2023") -> savedgame.Replay:
    """Adjudicate every phase of the saved game ``path`` under the rules of ``preset``
    and compare each outcome with the file's next position."""
    from moonshine.variants.classic import rulebooks

    data = read_json(path)
    if data.get("format") == MOONSHINE_FORMAT:
        raise GameError(
            f"{path}: a Moonshine game's export: its turns' raids are drawn from the game's secret seed, "
            "which the export does not carry, so it cannot be adjudicated again here; "
            "replay a classic game's export or a diplomacy saved game"
        )
    if data.get("map", "standard") != "standard":
        raise GameError(f"{path}: map {data.get('map')!r}: only the standard board can be replayed (map: standard)")
    try:
        rules = rulebooks.rulebook(preset)
    except ValueError as exc:
        raise GameError(f"--rules: {exc}") from None
    gmap = standard_map()
    try:
        return savedgame.replay(gmap, savedgame.read_saved_game(gmap, data), rules)
    except savedgame.SavedGameError as exc:
        raise GameError(f"{path}: {exc}") from None


def replay_text(replay: savedgame.Replay, path: Path, preset: str) -> str:
    """The replay as the command prints it: each differing phase with its orders and
    both positions, then the count."""
    lines: list[str] = []
    for d in replay.differences:
        lines.append(f"{d.phase}: the outcome differs")
        for what in d.what:
            lines.append(f"  {what}")
        lines.append("  orders:")
        for power, given in sorted(d.orders.items()):
            lines.append(f"    {power}: {'; '.join(given)}")
        for label, pos in (("ours", d.ours), ("the file's", d.theirs)):
            lines.append(f"  next position, {label}:")
            for key, items in pos.items():
                lines.append(f"    {key}: {' '.join(items)}")
        lines.append("")
    for bad in replay.unreadable:
        lines.append(f"unreadable: {bad}")
    n = len(replay.differences)
    lines.append(
        f"{path.name}: {replay.compared} phases replayed under the {preset} rules "
        f"({replay.with_orders} with orders); {n} differ{'s' if n == 1 else ''} from the file"
    )
    return "\n".join(lines)
