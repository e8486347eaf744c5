"""``moonshine report``: write a turn's reports, bulletin and map pictures."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from moonshine.cli.common import game_option, turn_name

if TYPE_CHECKING:
    pass
from moonshine.text.catalogue import languages
from moonshine.text.english import count


@click.command("report")
@click.argument("turn", callback=turn_name)
@click.option("--gang", help="Only this gang's report (by key, e.g. outfit); with --print, print it.")
@click.option(
    "--print",
    "to_terminal",
    is_flag=True,
    help="Print one report (the gang's, or the bulletin) instead of writing files.",
)
@click.option(
    "--language", type=click.Choice(languages()), help="Language of the reports (default: the game's, from game.yaml)."
)
@game_option
def report(turn: str, gang: str | None, to_terminal: bool, language: str | None, game_dir: Path) -> None:
    """Write TURN's reports under turns/TURN/reports/: each gang's private report
    (GANG.txt, GANG.html), the public bulletin (bulletin.txt, bulletin.html) and the
    map at the start of the next turn with TURN's orders as arrows (map.svg,
    map.png). With --gang, only that gang's report and the map are written. With
    --print, nothing is written: the text of the gang's report, or of the bulletin,
    is printed."""
    from moonshine import api
    from moonshine.game import families

    game = api.open_game(game_dir)
    if to_terminal:
        from moonshine.game.masking import terminal_safe

        click.echo(terminal_safe(api.report(game, turn, side=gang, language=language)), nl=False)
        return
    written = families.of(game).write_reports(game, turn, side=gang, language=language)
    base = written[0].parent if written else game.turn_dir(turn)
    click.echo(f"Wrote {count(len(written), 'file')} in {base}:")
    for p in written:
        click.echo(f"  {p.name}")
