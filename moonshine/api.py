"""The referee as a library: a few functions over a game directory, for scripts and
players' tools, whatever the game's variant (Moonshine or the classic family).

    >>> from moonshine import api
    >>> game = api.open_game("path/to/game")
    >>> ack, ok = api.check(game, "orders/spring-1924/valley.txt")
    >>> api.adjudicate(game, "spring-1924")
    >>> for o in api.outcomes(game, "spring-1924"):
    ...     print(o.side, o.order, o.succeeded, o.outcome, o.explain("fr"))
    >>> print(api.report(game, "spring-1924", side="valley", language="fr"))

``outcomes`` gives each order's outcome as a value (``moonshine.outcome``: who
bounced whom, with which supports and strengths); ``explain`` turns it into a
sentence in any language of the catalogue. Errors are ``moonshine.errors``
exceptions (``GameError`` for a game that cannot do what is asked, ``StateError``
for a malformed file), each naming the file and what is wrong.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from moonshine.records import dataclass

if TYPE_CHECKING:
    from moonshine.gamedir import Game
    from moonshine.outcome import Result


@dataclass(frozen=True)
class OrderOutcome:
    """One order of a turn (or phase) and what became of it."""

    side: str  # the gang's or power's key
    unit: str
    order: str  # canonical text
    succeeded: bool
    outcome: Result | None  # None: a results file of an earlier version
    reason: str  # the English sentence the file gives
    family: str  # the rule family's words for the explanation

    def explain(self, language: str = "en") -> str:
        """The outcome as a sentence in ``language``."""
        from moonshine import outcome

        return self.reason if self.outcome is None else outcome.explain(self.outcome, language, self.family)


def open_game(path: str | Path) -> Game:
    """The game in directory ``path`` (its ``game.yaml`` is read and checked)."""
    from moonshine.gamedir import Game

    game = Game(Path(path))
    game.config  # noqa: B018 (read now: a bad game.yaml is reported here)
    return game


def check(
    game: Game, file: str | Path, *, turn: str | None = None, side: str | None = None, language: str | None = None
) -> tuple[str, bool]:
    """The acknowledgement a player gets for the orders file ``file`` (relative to
    the game directory or absolute), and whether every line is accepted."""
    from moonshine.checking import acknowledge

    path = Path(file)
    return acknowledge(path if path.is_absolute() else game.root / path, game.root, turn, side, language)


def adjudicate(game: Game, turn: str, *, force: bool = False, commit: bool = True) -> None:
    """Adjudicate ``turn`` (a phase in the classic family) as ``moonshine
    adjudicate`` does: results, next state and reports written in one transaction."""
    if game.is_classic:
        from moonshine.classic.game import adjudicate_phase_dir

        adjudicate_phase_dir(game.root, turn, force=force, commit=commit, gmap=game.board())
        return
    from moonshine.runner import adjudicate_game

    adjudicate_game(game, turn, force=force, commit=commit)


def outcomes(game: Game, turn: str) -> list[OrderOutcome]:
    """Every order of an adjudicated ``turn`` with its outcome as a value, side by side."""
    return list(_outcomes(game, turn))


def _outcomes(game: Game, turn: str) -> Iterator[OrderOutcome]:
    from moonshine import outcome

    if game.is_classic:
        from moonshine.classic.report import load_results

        data = load_results(game.turn_dir(turn) / "results.yaml")
        for side, rows in (data.get("results") or {}).items():
            for r in rows or []:
                value = outcome.from_data(r["outcome"]) if isinstance(r.get("outcome"), dict) else None
                order = str(r.get("order", ""))
                unit = " ".join(order.split()[:2])
                ok = r.get("result") == "succeeds"
                yield OrderOutcome(str(side), unit, order, ok, value, str(r.get("reason", "")), outcome.CLASSIC)
        return
    from moonshine.reports import load_turn

    res, _ = load_turn(game, turn)
    for side, gr in res.gangs.items():
        for u in gr.units:
            yield OrderOutcome(side, u.unit, u.order, u.succeeded, u.outcome, u.reason, outcome.MOONSHINE)


def report(game: Game, turn: str, *, side: str | None = None, language: str | None = None) -> str:
    """The text of ``side``'s private report on ``turn``, or of the public bulletin
    (``side`` None), in ``language`` (default: the game's)."""
    if game.is_classic:
        from moonshine.classic.game import load_state
        from moonshine.classic.report import load_results, render_text
        from moonshine.errors import GameError

        gmap = game.board()
        key = None
        if side is not None:
            key = game.side_by_name(side)
            if key is None:
                raise GameError(f"no power {side!r} (powers: {', '.join(gmap.powers)})")
        data = load_results(game.turn_dir(turn) / "results.yaml")
        nxt = load_state(game.root, str(data.get("next", "")), gmap)
        return render_text(gmap, data, nxt, power=key, language=language or game.config.language)
    from moonshine.reports import print_report

    return print_report(game, turn, gang=side, language=language)
