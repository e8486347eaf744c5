"""Options and helpers shared by the commands."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])

_TURN_SHAPE = re.compile(r"[a-z]+-[0-9]{4}(?:-[a-z]+)?")


def turn_name(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """A turn or phase name as the commands take it (``spring-1924``, ``automne-1925``,
    ``fall-1901-retreats``), refused before the command does anything when it has any
    other shape (a path, ``..``, a 300-character string); the game then checks that
    it is one of its own turns."""
    if value is None:
        return None
    text = value.strip().lower()
    if len(text) <= 40 and _TURN_SHAPE.fullmatch(text):
        return text
    shown = value if len(value) <= 40 else value[:40] + "..."
    raise click.BadParameter(f"{shown!r} is not a turn name (e.g. spring-1924, autumn-1925, fall-1901-retreats)")


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


NOW_VARIABLE = "MOONSHINE_NOW"


def clock(value: str | None) -> datetime:
    """The command's clock: ``--now`` or MOONSHINE_NOW (for tests and rehearsals), else
    the time."""
    text = value or os.environ.get(NOW_VARIABLE) or ""
    if not text:
        return datetime.now(UTC).replace(microsecond=0)
    try:
        when = datetime.fromisoformat(text.strip())
    except ValueError:
        raise click.BadParameter(f"{text!r} is not a date and time (expected e.g. 2026-12-03T18:00:00+00:00)") from None
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def now_option(func: F) -> F:
    """``--now TIME``: the command's clock (also MOONSHINE_NOW); never for a real game."""
    return click.option(
        "--now",
        "now_text",
        default=None,
        metavar="TIME",
        help="For tests: the command's clock (ISO 8601); also MOONSHINE_NOW. Never for a real game.",
    )(func)
