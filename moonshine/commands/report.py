"""``moonshine report``: write a turn's reports, bulletin and map pictures."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from moonshine.commands.common import game_option

if TYPE_CHECKING:
    from moonshine.gamedir import Game
from moonshine.text import languages


@click.command("report")
@click.argument("turn")
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
    from moonshine.reports import write_reports

    game = api.open_game(game_dir)
    if to_terminal:
        from moonshine.masking import terminal_safe

        click.echo(terminal_safe(api.report(game, turn, side=gang, language=language)), nl=False)
        return
    if game.is_classic:
        _report_classic(game, turn, gang, language)
        return
    written = write_reports(game, turn, language=language, gangs=[gang] if gang else None, bulletin=gang is None)
    base = written[0].parent if written else game.turn_dir(turn)
    click.echo(f"Wrote {len(written)} files in {base}:")
    for p in written:
        click.echo(f"  {p.name}")


def _report_classic(game: Game, phase: str, power: str | None, language: str | None) -> None:
    """A classic phase's reports (--gang names a power)."""
    from moonshine.classic.game import write_phase_reports
    from moonshine.errors import GameError

    gmap = game.board()
    lang = language or game.config.language
    key = None
    if power is not None:
        key = game.side_by_name(power)
        if key is None:
            raise GameError(f"no power {power!r} (powers: {', '.join(gmap.powers)})")
    written = write_phase_reports(
        game.root,
        phase,
        gmap,
        language=lang,
        powers=[key] if key else None,
        bulletin=key is None,
        power_languages=None if language else game.side_languages(),  # --language: that one for all
    )
    click.echo(f"Wrote {len(written)} files in {written[0].parent}:")
    for p in written:
        click.echo(f"  {p.name}")
