"""Where a classic game's files are: ``turns/PHASE/state.yaml`` (the state at the
start of each phase) and ``orders/PHASE/POWER.txt``. The variant's layout
(``moonshine.variants.layout``) and the classic family's game layer
(``moonshine.game.families.classic``) both read it; it reads neither."""

from __future__ import annotations

from pathlib import Path

from moonshine.errors import GameError
from moonshine.variants.classic import state as state_mod
from moonshine.variants.classic.board import ClassicMap
from moonshine.variants.classic.state import ClassicState, Phase


def state_path(root: Path, phase: str) -> Path:
    return root / "turns" / phase / "state.yaml"


def orders_dir(root: Path, phase: str) -> Path:
    return root / "orders" / phase


def phases(root: Path) -> list[str]:
    """Phases with a state file, in order."""
    found: list[Phase] = []
    base = root / "turns"
    if base.is_dir():
        for p in base.iterdir():
            try:
                ph = Phase.parse(p.name)
            except ValueError:
                continue
            if (p / "state.yaml").is_file():
                found.append(ph)
    return [p.name for p in sorted(found, key=Phase.sort_key)]


def load_state(root: Path, phase: str, gmap: ClassicMap) -> ClassicState:
    """The state at the start of ``phase``; an error naming the phases there are."""
    path = state_path(root, phase)
    if not path.is_file():
        known = ", ".join(phases(root)) or "none"
        raise GameError(f"{path}: no state for {phase} (phases in this game: {known})")
    return state_mod.load(path, gmap)
