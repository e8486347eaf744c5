"""``moonshine adjudicate``, ``rollback``, ``reveal``, ``verify-cd`` and ``simulate``."""

from __future__ import annotations

from pathlib import Path

import click

from moonshine.cli.common import game_option, turn_name
from moonshine.game.directory import Game
from moonshine.text import money
from moonshine.text.english import count


@click.command("adjudicate")
@click.argument("turn", callback=turn_name)
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
    from moonshine.game import families

    game = Game(game_dir)
    _refuse_after_vote(game)
    for line in families.of(game).adjudicate(game, turn, force=force, commit=not no_commit, notify=click.echo):
        click.echo(line)


def _refuse_after_vote(game: Game) -> None:
    """A game a passed draw or concession ended (``moonshine.mail.commands.votes``) is adjudicated no more."""
    if not (game.root / "votes.yaml").is_file():  # no vote ever: nothing more to load
        return
    from moonshine.mail.commands.votes import CONCESSION, ended

    over = ended(game)
    if over is not None:
        what = "concession" if over.kind == CONCESSION else "draw"
        raise click.ClickException(
            f"the game ended by a {what} voted by every surviving side (proposal {over.number}, votes.yaml): "
            "no turn is adjudicated any more"
        )


@click.command("rollback")
@click.argument("turn", callback=turn_name)
@game_option
@click.option("--no-commit", is_flag=True, help="Do not commit the rollback.")
def rollback(turn: str, game_dir: Path, no_commit: bool) -> None:
    """Restore the game to the start of TURN (the game master's undo): TURN's results
    and every later turn are removed; orders are kept."""
    from moonshine.errors import GameError
    from moonshine.game.jobs import mailed_reports
    from moonshine.game.jobs import rollback as do_rollback

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
    from moonshine.game import families

    game = Game(game_dir)
    if not families.of(game).reveals_seed:
        raise click.ClickException(
            f"a game of the {game.variant.name} variant draws nothing at random: it has no secret seed to reveal"
        )
    from moonshine.mail.commands.votes import ended

    st = game.load_any_state(game.current_turn())
    if not game.layout.winners(st) and ended(game) is None and not force:
        raise click.ClickException("the game is not over; the seed stays secret until it is (use --force to override)")
    from moonshine.game.jobs import revealed_seeds

    seeds = revealed_seeds(game)
    for r in seeds:
        if len(seeds) > 1:  # a seed replaced during the game: which turns each drew
            turns = f"{r.first_turn or 'the first turn'} to {r.last_turn or 'the last'}"
            click.echo(f"Seed of the turns from {turns}:")
        click.echo(f"Seed: {r.seed}")
        click.echo(f"SHA-256: {r.sha256}")
    if families.of(game).raids:
        click.echo(
            "Each turn's raid: HMAC-SHA256(key=seed, message=turn name), big-endian, modulo the raid table's weight."
        )
    click.echo(
        "The civil-disorder player's orders (R26): HMAC-SHA256(key=seed, message=civil-disorder|TURN|SIDE); "
        "'moonshine verify-cd TURN SIDE --seed SEED' computes them again."
    )


@click.command("verify-cd")
@click.argument("turn", callback=turn_name)
@click.argument("side")
@game_option
@click.option(
    "--seed",
    "secret",
    default=None,
    metavar="SEED",
    help="The game's secret seed, as 'moonshine reveal' shows it (default: the game's own).",
)
@click.option(
    "--player",
    default=None,
    metavar="PLAYER",
    help="The civil-disorder player (default: the one the file's first line names, else the variant's first).",
)
def verify_cd(turn: str, side: str, game_dir: Path, secret: str | None, player: str | None) -> None:
    """Compute again the orders the civil-disorder player (R26) writes for SIDE (a
    gang or power, by key or name) in TURN, from the game's secret seed, and compare
    them with orders/TURN/SIDE.txt. Exits 0 when the file is exactly those orders;
    otherwise prints the orders expected and exits 1. Anyone can run it once the
    seed is revealed: the seed of the orders is HMAC-SHA256(key=seed,
    message="civil-disorder|TURN|SIDE") (RULES.md, R26)."""
    from moonshine.game.civil_disorder import verify_civil_disorder

    game = Game(game_dir)
    key = game.side_by_name(side)
    if key is None:
        raise click.ClickException(f"no {game.layout.side} {side!r} in this game")
    found = verify_civil_disorder(game, turn, key, secret, player)
    where = found.path.relative_to(game.root) if found.path.is_relative_to(game.root) else found.path
    said = f"the civil-disorder player's orders ({found.player}, R26, seed {found.seed})"
    if found.matches:
        click.echo(f"{where} is exactly {said}.")
        return
    why = "there is no such file" if found.actual is None else "the file differs"
    click.echo(f"{where} is not {said}: {why}. The player writes:\n")
    click.echo(found.expected, nl=False)
    raise SystemExit(1)


@click.command("simulate")
@click.option("--turns", default=30, show_default=True, type=click.IntRange(1, 500), help="Turns at most.")
@click.option("--seed", default="simulation", show_default=True, help="Seed for the raids and the players.")
@click.option("--map", "map_name", default="chicago-1920s", show_default=True, help="Bundled map or YAML file.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), help="Write the game to this new directory.")
def simulate(turns: int, seed: str, map_name: str, out: Path | None) -> None:
    """Play a whole game with computer players giving random legal orders for every
    gang, to a victory or the turn limit; print a line per turn."""
    from moonshine.game.simulate import play, play_into
    from moonshine.variants.moonshine.map import load_map

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
        click.echo(f"No winner after {count(turns, 'turn')}.")
    if out is not None:
        click.echo(f"The game is in {out}")
