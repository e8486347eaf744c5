"""``moonshine check``: read an orders file and print the acknowledgement a player
would get. Imports stay inside the command so that a check starts fast."""

from __future__ import annotations

import re
from pathlib import Path

import click

from moonshine.commands.common import game_option


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
    type=click.Choice(["en", "fr"]),
    default=None,
    help="The acknowledgement's language (default: the game's).",
)
def check(file: Path, game_dir: Path, turn: str | None, gang: str | None, language: str | None) -> None:
    """Check the orders in FILE against the game's position and print the
    acknowledgement: each line as understood, accepted or rejected with the
    reason, units left without orders, the money the orders need. Exits 0 when
    every line is accepted, 1 otherwise."""
    from moonshine import orderfile
    from moonshine.ack import acknowledgement
    from moonshine.errors import GameError
    from moonshine.gamedir import Game
    from moonshine.parser import join, quote
    from moonshine.turns import Turn
    from moonshine.validate import read_orders

    text = orderfile.read(file)
    game = Game(game_dir)
    gmap = game.map
    if turn is not None:
        try:
            turn = Turn.parse(turn).name
        except ValueError as exc:
            raise GameError(str(exc)) from None
    st = game.load_state(turn or game.current_turn())
    if gang is not None and gmap.gang_by_name(gang) is None:
        raise GameError(f"no gang {quote(gang)} (gangs: {join(gmap.gangs)})")
    # orders/spring-1924/valley.txt, valley-2.txt, valley_orders.txt: the name says the gang
    stem = file.stem if gmap.gang_by_name(file.stem) else re.split(r"[-_. ]", file.stem)[0]
    orders = read_orders(text, gmap, st, gang, source=str(file), fallback_gang=stem)
    ack = acknowledgement(orders, gmap, st, language=language or game.config.language, seed=game.receipt_seed())
    click.echo(ack, nl=False)
    if not orders.ok:
        raise SystemExit(1)
