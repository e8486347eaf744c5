"""Options and helpers shared by the commands."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])


def game_option(func: F) -> F:
    """``--game DIR``: the game directory (default: the current directory)."""
    return click.option(
        "--game",
        "game_dir",
        type=click.Path(file_okay=False, path_type=Path),
        default=Path("."),
        show_default=True,
        help="The game directory.",
    )(func)
