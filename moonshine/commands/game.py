"""``moonshine new``."""

from __future__ import annotations

from pathlib import Path

import click

from moonshine import variants
from moonshine.gamedir import new_game
from moonshine.text import languages


@click.command("new")
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@click.option("--map", "map_name", default="chicago-1920s", show_default=True, help="Bundled map name or YAML file.")
@click.option("--seed", default=None, help="The game's secret seed for the raid draws (default: a random one).")
@click.option("--title", default=None, help="The game's title, shown in reports.")
@click.option("--language", type=click.Choice(languages()), default="en", show_default=True, help="Reports' language.")
@click.option("--no-git", is_flag=True, help="Do not make the directory a git repository.")
@click.option(
    "--variant",
    type=click.Choice(variants.names()),
    default="moonshine",
    show_default=True,
    help="classic: Diplomacy on the standard board; pure: seven powers on seven provinces that all touch. "
    "Classic-family orders go in orders/PHASE/POWER.txt, e.g. orders/spring-1901/ENG.txt.",
)
def new(
    directory: Path, map_name: str, seed: str | None, title: str | None, language: str, no_git: bool, variant: str
) -> None:
    """Create a game directory: game.yaml, orders/, and turns/START/state.yaml.
    The secret seed is kept in .moonshine-secret (not in git); game.yaml keeps
    only its SHA-256, which the first bulletin publishes."""
    spec = variants.get(variant)
    if spec.family == variants.CLASSIC:
        from moonshine.classic.game import phases

        game = new_game(directory, title=title, language=language, use_git=not no_git, variant=variant)
        first = phases(game.root)[0]
        title = game.config.title
        click.echo(f"Created {game.root}: {title}, variant {spec.name} ({spec.title}), first phase {first}.")
        click.echo(
            f"Next: add players' addresses to {game.config_path}, collect orders in {game.root}/orders/{first}/."
        )
        return
    game = new_game(directory, map_name=map_name, seed=seed, title=title, language=language, use_git=not no_git)
    turn = game.current_turn()
    click.echo(f"Created {game.root}: {game.config.title}, map {game.config.map}, first turn {turn}.")
    click.echo(f"Seed hash (publish it): {game.config.seed_sha256}")
    click.echo(f"Next: add players' addresses to {game.config_path}, collect orders in {game.orders_dir(turn)}/.")
