"""``moonshine adjudicate``, ``rollback``, ``reveal`` and ``simulate``."""

from __future__ import annotations

from pathlib import Path

import click

from moonshine import money, variants
from moonshine.commands.common import game_option
from moonshine.gamedir import Game
from moonshine.geo import GameMap
from moonshine.turn import TurnResult


def summary(gmap: GameMap, result: TurnResult) -> list[str]:
    nxt = result.next_state
    lines = [
        f"{result.turn}: {result.sold_total} crates sold at {money.fmt(result.price)}",
        f"Next price ({nxt.turn}): {money.fmt(result.new_price)} ({result.price_reason})",
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


@click.command("adjudicate")
@click.argument("turn")
@game_option
@click.option("--force", is_flag=True, help="Adjudicate before the deadline, or again a turn already adjudicated.")
@click.option("--no-commit", is_flag=True, help="Do not commit the turn in the game's git repository.")
def adjudicate(turn: str, game_dir: Path, force: bool, no_commit: bool) -> None:
    """Adjudicate TURN (e.g. spring-1924): read turns/TURN/state.yaml and the gangs'
    orders in orders/TURN/, resolve the whole turn, write turns/TURN/results.yaml and
    the next turn's state, the reports, bulletin and map pictures (turns/TURN/reports/),
    and commit ("Adjudicate TURN") when the game is in git.
    Gangs without orders hold, sell the maximum and bid nothing (R12).
    Before the turn's deadline (deadlines: in game.yaml) it refuses, naming the
    gangs with no orders yet, unless --force is given.
    It is one transaction: if it is interrupted, the next command undoes it.
    In a classic game, TURN is a phase (spring-1901, spring-1901-retreats,
    winter-1901) and the orders are in orders/PHASE/POWER.txt."""
    from moonshine.runner import adjudicate_game

    game = Game(game_dir)
    if variants.get(game.config.variant).family == variants.CLASSIC:
        _adjudicate_classic(game, turn, force=force, commit=not no_commit)
        return
    done = adjudicate_game(game, turn, force=force, commit=not no_commit, notify=click.echo)
    for line in summary(game.map, done.result):
        click.echo(line)
    click.echo("")
    click.echo(f"Results: {done.results_path}")
    if done.reports:
        click.echo(f"Reports, bulletin and map: {done.reports[0].parent}/")
    click.echo(f"Next turn: {done.next_state_path}" + (" (committed)" if done.committed else ""))


@click.command("rollback")
@click.argument("turn")
@game_option
@click.option("--no-commit", is_flag=True, help="Do not commit the rollback.")
def rollback(turn: str, game_dir: Path, no_commit: bool) -> None:
    """Restore the game to the start of TURN (the game master's undo): TURN's results
    and every later turn are removed; orders are kept."""
    from moonshine.errors import GameError
    from moonshine.runner import mailed_reports
    from moonshine.runner import rollback as do_rollback

    game = Game(game_dir)
    removed = do_rollback(game, turn, commit=not no_commit, notify=click.echo)
    if not removed:
        click.echo(f"Nothing to undo: the game is at the start of {turn}.")
        return
    click.echo(f"The game is back at the start of {turn}; removed:")
    for p in removed:
        click.echo(f"  {p}")
    start = game.turn_key(turn)
    for t in sorted({p.name for p in (game.root / "outbox").glob("*") if p.is_dir()}):
        try:
            if game.turn_key(t) < start:
                continue
        except GameError:
            continue
        mailed = mailed_reports(game, t)
        if mailed:
            click.echo(
                f"warning: players already have the old reports of {t} ({', '.join(mailed)}); "
                f"once {t} is adjudicated again, 'moonshine mail {t} --send' sends them marked [corrected]",
                err=True,
            )


@click.command("reveal")
@game_option
@click.option("--force", is_flag=True, help="Reveal the seed even though the game is not over.")
def reveal(game_dir: Path, force: bool) -> None:
    """Show the game's secret seed once the game has ended, so that players can
    recompute every raid draw (R21)."""
    game = Game(game_dir)
    if game.is_classic:
        raise click.ClickException(
            f"a game of the {game.variant.name} variant draws nothing at random: it has no secret seed to reveal"
        )
    st = game.load_state(game.current_turn())
    if not st.winners and not force:
        raise click.ClickException("the game is not over; the seed stays secret until it is (use --force to override)")
    click.echo(f"Seed: {game.secret()}")
    click.echo(f"SHA-256: {game.config.seed_sha256}")
    click.echo(
        "Each turn's raid: HMAC-SHA256(key=seed, message=turn name), big-endian, modulo the raid table's weight."
    )


@click.command("simulate")
@click.option("--turns", default=30, show_default=True, type=click.IntRange(1, 500), help="Turns at most.")
@click.option("--seed", default="simulation", show_default=True, help="Seed for the raids and the players.")
@click.option("--map", "map_name", default="chicago-1920s", show_default=True, help="Bundled map or YAML file.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), help="Write the game to this new directory.")
def simulate(turns: int, seed: str, map_name: str, out: Path | None) -> None:
    """Play a whole game with computer players giving random legal orders for every
    gang, to a victory or the turn limit; print a line per turn."""
    from moonshine.geo import load_map
    from moonshine.simulate import play, play_into

    gmap = load_map(map_name)
    results = play_into(out, map_name, seed, turns) if out is not None else (p.result for p in play(gmap, seed, turns))
    last = None
    for r in results:
        last = r
        leader = max(gmap.gangs, key=lambda g: (r.vp[g], -list(gmap.gangs).index(g)))
        raid = r.raid.district if r.raid else "-"
        click.echo(
            f"{r.turn:<12} price {money.fmt(r.price):>6}  sold {r.sold_total:>3}  raid {raid}  "
            f"units {len(r.next_state.units):>3}  leader {gmap.gangs[leader].name} ({r.vp[leader]} VP)"
        )
    if last is None:
        return
    if last.winners:
        click.echo(f"Winner after {last.turn}: {', '.join(gmap.gangs[g].name for g in last.winners)}")
    else:
        click.echo(f"No winner after {turns} turns.")
    if out is not None:
        click.echo(f"The game is in {out}")


def _adjudicate_classic(game: Game, phase: str, *, force: bool, commit: bool) -> None:
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
    with transaction(game.root, f"adjudicate {phase}", notify=click.echo) as txn:
        tdir = game.turn_dir(Phase.parse(phase).name)
        for picture in ("map.svg", "map.png"):
            txn.protect(tdir / picture)
        txn.protect_tree(tdir / "reports")
        done = classic.adjudicate_phase_dir(game.root, phase, force=force, commit=False, gmap=gmap)
        name = done.outcome.phase.name
        reports = classic.write_phase_reports(game.root, name, gmap, language=game.config.language)
        txn.commit(f"Adjudicate {name}", git=commit and is_git_repo(game.root))
    click.echo(done.results_path.with_suffix(".txt").read_text(encoding="utf-8").rstrip())
    click.echo("")
    click.echo(f"Results: {done.results_path}")
    click.echo(f"Reports, bulletin and map: {reports[0].parent}/")
    click.echo(f"Next state: {done.next_state_path}")
