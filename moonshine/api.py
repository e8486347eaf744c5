"""The referee as a library: a few functions over a game directory, for scripts and
players' tools, whatever the game's variant (Moonshine or the classic family).

    >>> from moonshine import api
    >>> game = api.open_game("path/to/game")
    >>> ack, ok = api.check(game, "orders/spring-1924/valley.txt")
    >>> api.adjudicate(game, "spring-1924")
    >>> for o in api.outcomes(game, "spring-1924"):
    ...     print(o.side, o.order, o.succeeded, o.outcome, o.explain("fr"))
    >>> print(api.report(game, "spring-1924", side="valley", language="fr"))

``export`` writes a game in a common format and ``replay`` adjudicates a saved game
of the ``diplomacy`` package's format again. ``outcomes`` gives each order's outcome
as a value (``moonshine.engine.outcome``: who bounced whom, with which supports and
strengths); ``explain`` turns it into a sentence in any language of the catalogue. Errors are ``moonshine.errors``
exceptions (``GameError`` for a game that cannot do what is asked, ``StateError``
for a malformed file), each naming the file and what is wrong.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from moonshine.game.families.base import OrderOutcome as OrderOutcome

if TYPE_CHECKING:
    from moonshine.engine.replay import Replay
    from moonshine.game.directory import Game


def open_game(path: str | Path) -> Game:
    """The game in directory ``path`` (its ``game.yaml`` is read and checked)."""
    from moonshine.game.directory import Game

    game = Game(Path(path))
    game.config  # noqa: B018 (read now: a bad game.yaml is reported here)
    return game


def check(
    game: Game, file: str | Path, *, turn: str | None = None, side: str | None = None, language: str | None = None
) -> tuple[str, bool]:
    """The acknowledgement a player gets for the orders file ``file`` (relative to
    the game directory or absolute), and whether every line is accepted."""
    from moonshine.game.acknowledge import acknowledge

    path = Path(file)
    return acknowledge(path if path.is_absolute() else game.root / path, game.root, turn, side, language)


def adjudicate(game: Game, turn: str, *, force: bool = False, commit: bool = True) -> None:
    """Adjudicate ``turn`` (a phase in the classic family) as ``moonshine
    adjudicate`` does: results, next state and reports written in one transaction."""
    from moonshine.game import families

    families.of(game).adjudicate(game, turn, force=force, commit=commit)


def outcomes(game: Game, turn: str) -> list[OrderOutcome]:
    """Every order of an adjudicated ``turn`` with its outcome as a value, side by side."""
    from moonshine.game import families

    return list(families.of(game).outcomes(game, turn))


def report(game: Game, turn: str, *, side: str | None = None, language: str | None = None) -> str:
    """The text of ``side``'s private report on ``turn``, or of the public bulletin
    (``side`` None), in ``language`` (default: the game's)."""
    from moonshine.game import families

    return families.of(game).report_text(game, turn, side=side, language=language)


def export(game: Game, out: str | Path, *, public: bool = False, ended: bool = False) -> Path:
    """Write the game to ``out`` in a common format (``moonshine export``): a classic
    game as a saved game of the python ``diplomacy`` package; a Moonshine game as its
    own export (docs/moonshine-game.schema.json: every turn's opening state, recorded
    orders and public results, and the seeds once the game is won, or ``ended`` by a
    vote), or with ``public`` its turns' public results alone."""
    from moonshine.game.exchange import write_export

    return write_export(game, Path(out), public=public, ended=ended)


def replay(file: str | Path, preset: str | None = None) -> Replay:
    """Adjudicate every phase of ``file`` again: a saved game of the ``diplomacy``
    package's JSON (from any engine) under the rules of ``preset`` (``2023``, the
    default; ``webdiplomacy``, ``droidippy``), or a Moonshine game's export under its
    own house rules; the phases (or turns) compared and each one whose outcome differs
    from the file's (``moonshine replay``)."""
    from moonshine.game.exchange import replay_file

    return replay_file(Path(file), preset)
