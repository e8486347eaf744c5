"""The registry of rule families as the game layer plays them: ``of(game)`` (or
``get(variant)``) gives the family's value (``moonshine.game.families.base.Family``),
which the commands, the inbox and the unattended judge call instead of asking
which family a game plays. A family is loaded when a game of it is first met, so
that a Moonshine game's commands never load the classic family, nor the reverse.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from moonshine import variants
from moonshine.game.families.base import Family as Family

if TYPE_CHECKING:
    from moonshine.game.directory import Game


def _moonshine() -> Family:
    from moonshine.game.families.moonshine import MoonshineFamily

    return MoonshineFamily()


def _classic() -> Family:
    from moonshine.game.families.classic import ClassicFamily

    return ClassicFamily()


FAMILIES: dict[str, Callable[[], Family]] = {variants.MOONSHINE: _moonshine, variants.CLASSIC: _classic}


@cache
def _family(name: str) -> Family:
    return FAMILIES[name]()


def get(variant: str) -> Family:
    """The family that plays the variant called ``variant`` (an error with a
    suggestion for a name that is no variant)."""
    return _family(variants.get(variant).family)


def of(game: Game) -> Family:
    """The family that plays ``game``."""
    return _family(game.variant.family)


def new_game(
    root: Path,
    *,
    map_name: str = "chicago-1920s",
    seed: str | None = None,
    title: str | None = None,
    language: str = "en",
    use_git: bool = True,
    variant: str = variants.MOONSHINE,
) -> Game:
    """Create a game directory with its first turn's state (R3; a classic game's
    first phase) and, when git is available, a repository with a first commit.
    ``variant`` names a variant of the registry (``moonshine.variants``):
    ``"classic"`` is Diplomacy on the standard board."""
    from moonshine.errors import GameError
    from moonshine.game.directory import GAME_FILE

    if (root / GAME_FILE).exists():
        raise GameError(f"{root}: already a game directory ({GAME_FILE} exists)")
    if root.exists() and any(p.name != ".git" for p in root.iterdir()):
        raise GameError(f"{root}: the directory is not empty")
    return get(variant).create(
        root, variant=variant, map_name=map_name, seed=seed, title=title, language=language, use_git=use_git
    )
