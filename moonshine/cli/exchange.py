"""``moonshine export`` and ``moonshine replay``: a game in a common format, and a
saved game adjudicated again (``moonshine.game.exchange``)."""

from __future__ import annotations

from pathlib import Path

import click

from moonshine.cli.common import game_option
from moonshine.variants.classic.rulebooks import PRESETS


@click.command("export")
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    help="The file to write (default: GAME.json in the game directory, GAME the directory's name).",
)
@game_option
def export(out: Path | None, game_dir: Path) -> None:
    """Write the game in a common format. A classic game: a saved game of the python
    diplomacy package's JSON format (every phase's position, orders and results),
    which that package and 'moonshine replay' read. A Moonshine game: each turn's
    public results as docs/results.schema.json describes them."""
    from moonshine import api

    game = api.open_game(game_dir)
    path = api.export(game, out or game.root / f"{game.root.resolve().name}.json")
    click.echo(f"Wrote {path}")


@click.command("replay")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--rules",
    "preset",
    type=click.Choice(list(PRESETS)),
    default="2023",
    show_default=True,
    help="The preset of rules to adjudicate under: 2023, webdiplomacy, droidippy (docs/rules-presets.md).",
)
def replay(file: Path, preset: str) -> None:
    """Adjudicate every phase of FILE, a saved game of the diplomacy package's JSON
    format written by any engine, and print each phase whose outcome differs from the
    file's next position, with its orders and both positions. Exit 1 when any does."""
    from moonshine import api

    result = api.replay(file, preset)
    from moonshine.game.exchange import replay_text

    click.echo(replay_text(result, file, preset))
    if result.differences:
        raise SystemExit(1)
