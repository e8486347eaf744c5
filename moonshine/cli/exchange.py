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
@click.option(
    "--public",
    is_flag=True,
    help="A Moonshine game: each turn's public results alone, as the bulletins published them "
    "(no opening states, no orders, no seeds); such a file cannot be replayed.",
)
@game_option
def export(out: Path | None, public: bool, game_dir: Path) -> None:
    """Write the game in a common format. A classic game: a saved game of the python
    diplomacy package's JSON format (every phase's position, orders and results),
    which that package and 'moonshine replay' read. A Moonshine game: every turn's
    opening state, each gang's recorded orders and the public results
    (docs/moonshine-game.schema.json), and the game's seeds once it is over, which
    'moonshine replay' reads. It holds what the gangs keep private (cash, stocks,
    bids, sales): publish it once the game is over, or use --public."""
    from moonshine import api
    from moonshine.mail.commands.votes import ended

    game = api.open_game(game_dir)
    path = api.export(
        game,
        out or game.root / f"{game.root.resolve().name}.json",
        public=public,
        ended=ended(game) is not None,
    )
    click.echo(f"Wrote {path}")


@click.command("replay")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--rules",
    "preset",
    type=click.Choice(list(PRESETS)),
    default=None,
    help="A classic saved game: the preset of rules to adjudicate under: 2023 (the default), "
    "webdiplomacy, droidippy (docs/rules-presets.md). A Moonshine export is replayed under its own house rules.",
)
def replay(file: Path, preset: str | None) -> None:
    """Adjudicate every phase of FILE again and print each one whose outcome differs
    from the file's, with its orders and both positions; exit 1 when any does. FILE is
    a saved game of the diplomacy package's JSON format, written by any engine, or a
    Moonshine game's export ('moonshine export'), whose raids are drawn again from its
    seeds when it carries them (a game over) and otherwise taken from its published
    draws."""
    from moonshine import api

    result = api.replay(file, preset)
    from moonshine.game.exchange import replay_text

    click.echo(replay_text(result, file))
    if result.differences:
        raise SystemExit(1)
