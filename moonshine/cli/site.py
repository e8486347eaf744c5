"""``moonshine site``: the game's public record as a static web site."""

from __future__ import annotations

from pathlib import Path

import click

from moonshine.cli.common import game_option
from moonshine.text.catalogue import languages
from moonshine.text.english import count


@click.command("site")
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="The folder to write the site in (default: site/ in the game directory).",
)
@click.option("--language", type=click.Choice(languages()), help="The site's language (default: the game's).")
@game_option
def site(out: Path | None, language: str | None, game_dir: Path) -> None:
    """Write the game's public record as a static web site: one page per
    adjudicated turn (the bulletin and its map, links to the turns before and
    after), an index with the timeline and the charts (victory points, the price
    of alcohol; a classic game's supply centres), and the rules. Only what the bulletins publish goes in. The pages
    open from the disk (file://) as from any static web host."""
    from moonshine.game import families
    from moonshine.game.directory import Game

    game = Game(game_dir)
    target = out if out is not None else game.root / "site"
    written = families.of(game).build_site(game, target, language=language)
    click.echo(f"Wrote the site in {target}/ ({count(len(written), 'file')}); open {target / 'index.html'}")
