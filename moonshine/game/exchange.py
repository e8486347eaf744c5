"""A game written in a common format, and a saved game read back and replayed
(``moonshine export``, ``moonshine replay``).

- A classic game exports as a saved game of the python ``diplomacy`` package
  (``moonshine.variants.classic.savedgame``): every phase's position, orders and
  results, which that package loads (``diplomacy.utils.export.from_saved_game_format``).
- A Moonshine game exports its own documented JSON (``docs/moonshine-game.schema.json``):
  ``{"format": "moonshine-game", "version": 2, "game", "variant", "map", "rules",
  "seed_sha256", "turns": [...]}``, each turn its opening state (raid applied), every
  gang's recorded orders (what its receipt covers) and its public results (the
  document of ``docs/results.schema.json``, ``moonshine.variants.resultsdoc``); the
  game's seeds (``seeds``) once the game is over. ``public=True`` writes the public
  results alone, which the bulletins published already.
- ``replay_file`` reads either: a saved game of the ``diplomacy`` format, written by
  any engine (this one, the ``diplomacy`` package, Cicero's dipcc), adjudicated phase
  by phase under a preset of rules (``moonshine.variants.classic.rulebooks``); or a
  Moonshine export, adjudicated turn by turn under its own house rules
  (``moonshine.variants.moonshine.replay``). Each lists every phase or turn whose
  outcome differs from the file's.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec
import yaml

from moonshine.engine.replay import Replay
from moonshine.errors import GameError
from moonshine.variants.classic import savedgame
from moonshine.variants.classic.board import ClassicMap, standard_map
from moonshine.variants.classic.layout import load_state, phases

if TYPE_CHECKING:
    from moonshine.game.directory import Game

MOONSHINE_FORMAT = "moonshine-game"
MOONSHINE_VERSION = 2  # 1: each turn's public results alone (no state, orders, rules nor seeds)
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


def export_game(game: Game, *, public: bool = False, ended: bool = False) -> dict[str, Any]:
    """The game in its common format: a classic game as a ``diplomacy`` saved game, a
    Moonshine game as its own export (``public``: the public results alone; ``ended``:
    the game ended by a vote, so that its seeds are written as for a game won)."""
    if game.layout.exchange == "diplomacy":
        return export_classic(game.root, game.board(), title=game.config.title, variant=game.config.variant)
    return export_moonshine(game, public=public, ended=ended)


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


def export_moonshine(game: Game, *, public: bool = False, ended: bool = False) -> dict[str, Any]:
    """A Moonshine game's export (``docs/moonshine-game.schema.json``): every turn's
    opening state, recorded orders and public results, the house rules, and the seeds
    once the game is over (won, or ``ended`` by a vote), as ``moonshine reveal`` shows
    them. ``public``: each turn's public results alone (no state, no orders, no seed)."""
    from moonshine.text import money
    from moonshine.variants import resultsdoc
    from moonshine.variants.moonshine import results as results_mod
    from moonshine.variants.moonshine import state as state_mod

    sides = game.sides()
    turns: list[dict[str, Any]] = []
    last = None
    for turn in game.turns():
        path = game.turn_dir(turn) / "results.yaml"
        raw = results_mod.load_data(path) if path.is_file() else None
        entry: dict[str, Any] = {"turn": turn}
        if not public:
            last = game.load_state(turn)
            entry["state"] = state_mod.to_data(last)
        if raw is not None:
            if not public:
                entry["orders"] = recorded_orders(raw)
            entry["results"] = resultsdoc.document(
                game.layout, raw, title=game.config.title, variant=game.config.variant, turn=turn, sides=sides
            )
        if raw is not None or not public:
            turns.append(entry)
    if not turns:
        raise GameError(f"{game.root}: no turn to export (no turns/TURN/state.yaml)")
    house = game.config.house
    out: dict[str, Any] = {
        "format": MOONSHINE_FORMAT,
        "version": MOONSHINE_VERSION,
        "game": game.config.title,
        "variant": game.config.variant,
        "map": game.config.map,
        "public": public,
        "rules": {"victory_vp": house.victory_vp, "minimum_bribe": money.to_yaml(house.minimum_bribe)},
        "seed_sha256": game.config.seed_sha256,
        "turns": turns,
    }
    if not public and (ended or (last is not None and last.winners)):
        from moonshine.game.jobs import revealed_seeds

        out["seeds"] = [
            {"seed": r.seed, "sha256": r.sha256, "first_turn": r.first_turn, "last_turn": r.last_turn}
            for r in revealed_seeds(game)
        ]
    return out


def recorded_orders(raw: dict[str, Any]) -> dict[str, list[str] | None]:
    """Each gang's recorded orders in a turn's results data: its accepted orders in
    canonical notation, in its file's order (what its receipt covers,
    ``moonshine.render.receipts``); None for a gang that sent no orders (R12)."""
    out: dict[str, list[str] | None] = {}
    for gang, gr in (raw.get("gangs") or {}).items():
        if gr.get("orders_file") is None:
            out[gang] = None
        else:
            out[gang] = [str(ln["understood"]) for ln in gr.get("lines") or [] if ln.get("status") == "accepted"]
    return out


def write_export(game: Game, out: Path, *, public: bool = False, ended: bool = False) -> Path:
    """``export_game`` written to ``out`` as JSON."""
    from moonshine.game.directory import atomic_write_text

    doc = export_game(game, public=public, ended=ended)
    atomic_write_text(out, json.dumps(doc, indent=1, ensure_ascii=False) + "\n")
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


def replay_file(path: Path, preset: str | None = None) -> Replay:
    """Adjudicate every phase (or turn) of ``path`` again and compare each outcome with
    the file's: a ``diplomacy`` saved game under the rules of ``preset`` (default
    ``2023``), a Moonshine export under its own house rules."""
    data = read_json(path)
    if data.get("format") == MOONSHINE_FORMAT:
        if preset is not None:
            raise GameError(
                f"--rules {preset}: a Moonshine game's export is replayed under its own house rules "
                "(its 'rules'); the presets are the classic family's"
            )
        return replay_moonshine(path, data)
    from moonshine.variants.classic import rulebooks

    preset = preset or "2023"
    if data.get("map", "standard") != "standard":
        raise GameError(f"{path}: map {data.get('map')!r}: only the standard board can be replayed (map: standard)")
    try:
        rules = rulebooks.rulebook(preset)
    except ValueError as exc:
        raise GameError(f"--rules: {exc}") from None
    gmap = standard_map()
    try:
        done = savedgame.replay(gmap, savedgame.read_saved_game(gmap, data), rules)
    except savedgame.SavedGameError as exc:
        raise GameError(f"{path}: {exc}") from None
    return msgspec.structs.replace(done, rules=f"the {preset} rules")


def replay_moonshine(path: Path, data: dict[str, Any]) -> Replay:
    """A Moonshine game's export (``export_moonshine``) adjudicated again, turn by
    turn; its raids drawn from its seeds when it carries them, their hashes checked."""
    from moonshine.errors import MoonshineError
    from moonshine.game.seeds import seed_hash
    from moonshine.variants.moonshine import houserules
    from moonshine.variants.moonshine import replay as mreplay
    from moonshine.variants.moonshine.map import load_map

    version = data.get("version")
    if version != MOONSHINE_VERSION:
        older = " (version 1 carries the public results alone: export the game again)" if version == 1 else ""
        raise GameError(f"{path}: a Moonshine export of version {version!r}; this judge replays version 2{older}")
    if data.get("public"):
        raise GameError(
            f"{path}: a public export (moonshine export --public): the turns' public results alone, "
            "with no opening state nor orders to adjudicate; export the game without --public"
        )
    rules = data.get("rules")
    try:
        gmap = load_map(str(data.get("map") or "chicago-1920s"))
        house = houserules.from_config(rules if isinstance(rules, dict) else None, f"{path}: rules")
        turns = mreplay.read_turns(data.get("turns"), gmap)
    except mreplay.ExportError as exc:
        raise GameError(f"{path}: {exc}") from None
    except MoonshineError as exc:
        raise GameError(f"{path}: {exc}") from None
    spans: list[mreplay.SeedSpan] = []
    seeds = data.get("seeds") or []
    if not isinstance(seeds, list):
        raise GameError(f"{path}: seeds: expected a list of the game's revealed seeds")
    for i, raw in enumerate(seeds):
        if not isinstance(raw, dict) or not isinstance(raw.get("seed"), str) or not raw["seed"]:
            raise GameError(f"{path}: seeds[{i}]: expected seed, sha256, first_turn, last_turn")
        if seed_hash(raw["seed"]) != raw.get("sha256"):
            raise GameError(f"{path}: seeds[{i}].sha256: is not the SHA-256 of the seed beside it")
        spans.append(mreplay.SeedSpan(raw["seed"], raw.get("first_turn"), raw.get("last_turn")))
    if spans and spans[-1].last_turn is None and seed_hash(spans[-1].seed) != data.get("seed_sha256"):
        raise GameError(f"{path}: seeds: the last seed's SHA-256 is not the game's seed_sha256")
    return mreplay.replay(gmap, house, turns, mreplay.seed_finder(spans))


def replay_text(replay: Replay, path: Path) -> str:
    """The replay as the command prints it: each differing phase (or turn) with its
    orders and both positions, then the count and how the replay was made."""
    lines: list[str] = []
    for d in replay.differences:
        lines.append(f"{d.phase}: the outcome differs")
        for what in d.what:
            lines.append(f"  {what}")
        lines.append("  orders:")
        for side, given in sorted(d.orders.items()):
            lines.append(f"    {side}: {'; '.join(given)}")
        for label, pos in (("ours", d.ours), ("the file's", d.theirs)):
            lines.append(f"  next position, {label}:")
            for key, items in pos.items():
                lines.append(f"    {key}: {' '.join(items)}")
        lines.append("")
    for bad in replay.unreadable:
        lines.append(f"unreadable: {bad}")
    n = len(replay.differences)
    lines.append(
        f"{path.name}: {replay.compared} {replay.steps if replay.compared != 1 else replay.steps.rstrip('s')} "
        f"replayed under {replay.rules} "
        f"({replay.with_orders} with orders); {n} differ{'s' if n == 1 else ''} from the file"
    )
    lines += [f"  {note}" for note in replay.notes]
    return "\n".join(lines)
