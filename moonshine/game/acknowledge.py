"""What ``moonshine check`` does, without the command line: read an orders file and
give the acknowledgement a player would get (the ``check`` command,
``moonshine.cli.check``); imports stay inside the function so that a check
loads only what it uses."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    pass


def acknowledge(
    file: Path, game_dir: Path, turn: str | None, gang: str | None, language: str | None
) -> tuple[str, bool]:
    """The acknowledgement of FILE's orders against the game's position (``turn``,
    default the latest), and whether every line is accepted. Raises a
    ``MoonshineError`` for what is not an orders file or not a game."""
    from moonshine.game import families, orderfile
    from moonshine.game.directory import Game

    text = orderfile.read(file)
    game = Game(game_dir)
    return families.of(game).acknowledge(game, file, text, turn, gang, language)
