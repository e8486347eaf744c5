"""What ``moonshine adjudicate`` does, without the command line: adjudicate a turn
(a Moonshine turn or a classic game's phase) as one transaction and tell the game
master what came of it. Shared by the ``adjudicate`` command
(``moonshine.commands.turn``) and the console script's fast path for it
(``moonshine.start``), which never loads click; imports stay inside the functions
so that a run loads only what it uses."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from moonshine.gamedir import Game

Echo = Callable[[str], None]


def adjudicate(turn: str, game_dir: Path, *, force: bool, commit: bool, echo: Echo) -> None:
    """Adjudicate TURN in the game at ``game_dir`` and ``echo`` the summary, line by
    line. Raises a ``MoonshineError`` for what cannot be adjudicated."""
    from moonshine import families
    from moonshine.gamedir import Game

    game = Game(game_dir)
    _refuse_after_vote(game)
    for line in families.of(game).adjudicate(game, turn, force=force, commit=commit, notify=echo):
        echo(line)


def _refuse_after_vote(game: Game) -> None:
    """A game a passed draw or concession ended (``moonshine.votes``) is adjudicated no more."""
    if not (game.root / "votes.yaml").is_file():  # no vote ever: nothing more to load
        return
    from moonshine.errors import GameError
    from moonshine.votes import CONCESSION, ended

    over = ended(game)
    if over is not None:
        what = "concession" if over.kind == CONCESSION else "draw"
        raise GameError(
            f"the game ended by a {what} voted by every surviving side (proposal {over.number}, votes.yaml): "
            "no turn is adjudicated any more"
        )
