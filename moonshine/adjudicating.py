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
    from moonshine.geo import GameMap
    from moonshine.turn import TurnResult

Echo = Callable[[str], None]


def adjudicate(turn: str, game_dir: Path, *, force: bool, commit: bool, echo: Echo) -> None:
    """Adjudicate TURN in the game at ``game_dir`` and ``echo`` the summary, line by
    line. Raises a ``MoonshineError`` for what cannot be adjudicated."""
    import gc

    from moonshine import variants
    from moonshine.gamedir import Game

    game = Game(game_dir)
    _refuse_after_vote(game)
    if variants.get(game.config.variant).family == variants.CLASSIC:
        _adjudicate_classic(game, turn, force=force, commit=commit, echo=echo)
        return
    from moonshine import reports  # noqa: F401  (loaded before the freeze below)
    from moonshine.runner import adjudicate_game

    # What exists already (the modules' objects, some 40,000: functions, classes, their
    # dictionaries) outlives the turn: kept out of the cyclic collector's walks while it
    # runs, which then see only what the turn builds.
    gc.freeze()
    try:
        done = adjudicate_game(game, turn, force=force, commit=commit, notify=echo)
    finally:
        gc.unfreeze()
    for line in summary(game.map, done.result):
        echo(line)
    echo("")
    echo(f"Results: {done.results_path}")
    if done.reports:
        echo(f"Reports, bulletin and map: {done.reports[0].parent}/")
    echo(f"Next turn: {done.next_state_path}" + (" (committed)" if done.committed else ""))


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


def summary(gmap: GameMap, result: TurnResult) -> list[str]:
    """The turn in a few lines: sales and price, the winner or the next raid, and a
    line per gang (VP, units, districts, cash, crates sold)."""
    from moonshine import money

    nxt = result.next_state
    lines = [
        f"{result.turn}: {result.sold_total} crates sold at {money.fmt(result.price)}",
        f"Next price ({nxt.turn}): {money.fmt(result.new_price)} ({result.price_why.text()})",
    ]
    if result.winners:
        names = ", ".join(gmap.gangs[g].name for g in result.winners)
        lines.append(f"WINNER: {names} ({result.vp[result.winners[0]]} VP). The game is over.")
    else:
        from moonshine.reports import Words, describe_raid

        lines.append(f"Raid for {nxt.turn}: {describe_raid(gmap, nxt.raid, Words('en'))}")
    lines.append("")
    lines.append(f"{'gang':<22} {'VP':>3} {'units':>5} {'districts':>9} {'cash':>8} {'sold':>5}")
    for g in sorted(gmap.gangs, key=lambda k: (-result.vp[k], list(gmap.gangs).index(k))):
        lines.append(
            f"{gmap.gangs[g].name:<22} {result.vp[g]:>3} {len(nxt.units_of(g)):>5} "
            f"{len(nxt.controlled_by(g)):>9} {money.fmt(nxt.cash[g]):>8} {result.ledgers[g].sold:>5}"
        )
    return lines


def _adjudicate_classic(game: Game, phase: str, *, force: bool, commit: bool, echo: Echo) -> None:
    """A phase of a classic-family game (spring-1901, spring-1901-retreats,
    winter-1901) on its board: orders from orders/PHASE/POWER.txt, results in
    turns/PHASE/results.yaml. One transaction, as for Moonshine: if it is
    interrupted, the next command undoes it."""
    from moonshine.classic import game as classic
    from moonshine.classic.state import Phase
    from moonshine.gamedir import is_git_repo
    from moonshine.journal import transaction

    game.turn_key(phase)  # a phase's name, else a clear error
    gmap = game.board()
    with transaction(game.root, f"adjudicate {phase}", notify=echo) as txn:
        tdir = game.turn_dir(Phase.parse(phase).name)
        for picture in ("map.svg", "map.png"):
            txn.protect(tdir / picture)
        txn.protect_tree(tdir / "reports")
        done = classic.adjudicate_phase_dir(game.root, phase, force=force, commit=False, gmap=gmap)
        name = done.outcome.phase.name
        reports = classic.write_phase_reports(
            game.root, name, gmap, language=game.config.language, power_languages=game.side_languages()
        )
        txn.commit(f"Adjudicate {name}", git=commit and is_git_repo(game.root))
    echo(done.results_path.with_suffix(".txt").read_text(encoding="utf-8").rstrip())
    echo("")
    echo(f"Results: {done.results_path}")
    echo(f"Reports, bulletin and map: {reports[0].parent}/")
    echo(f"Next state: {done.next_state_path}")
