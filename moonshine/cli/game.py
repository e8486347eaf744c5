"""``moonshine new``."""

from __future__ import annotations

from pathlib import Path

import click

from moonshine import variants
from moonshine.game import families
from moonshine.game.families import new_game
from moonshine.text.catalogue import languages


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
    family = families.get(variant)
    game = new_game(
        directory, map_name=map_name, seed=seed, title=title, language=language, use_git=not no_git, variant=variant
    )
    for line in family.created(game):
        click.echo(line)
