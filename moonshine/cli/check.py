"""``moonshine check``: read an orders file and print the acknowledgement a player
would get (``moonshine.game.acknowledge``)."""

from __future__ import annotations

from pathlib import Path

import click

from moonshine.cli.common import game_option
from moonshine.text.catalogue import languages


@click.command("check")
@click.argument("file", type=click.Path(path_type=Path, dir_okay=True, exists=False))
@game_option
@click.option("--turn", default=None, metavar="TURN", help="The turn to check against (default: the latest).")
@click.option(
    "--gang",
    default=None,
    metavar="GANG",
    help="The gang (key or name; default: the file's gang: line, else its name).",
)
@click.option(
    "--language",
    type=click.Choice(languages()),
    default=None,
    help="The acknowledgement's language (default: the game's).",
)
def check(file: Path, game_dir: Path, turn: str | None, gang: str | None, language: str | None) -> None:
    """Check the orders in FILE against the game's position and print the
    acknowledgement: each line as understood, accepted or rejected with the
    reason, units left without orders, the money the orders need. A FILE whose
    name ends in .json, or whose first character is {, holds orders as JSON
    (docs/orders-json.md), acknowledged as the same orders typed. Exits 0 when
    every line is accepted, 1 otherwise."""
    from moonshine.game.acknowledge import acknowledge

    ack, ok = acknowledge(file, game_dir, turn, gang, language)
    click.echo(ack, nl=False)
    if not ok:
        raise SystemExit(1)
