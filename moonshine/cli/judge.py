"""``moonshine judge``: a judge for many games (``moonshine.host.settings``); its
passes are ``moonshine run DIR``."""

from __future__ import annotations

from pathlib import Path

import click


@click.group("judge")
def judge_group() -> None:
    """A judge for many games: one address and one mailbox for every game under
    DIR/games/, players who register, join and leave by mail (moonshine run DIR
    makes its passes)."""


@click.command("init")
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@click.option("--address", required=True, help="The judge's own address, e.g. judge@example.org.")
@click.option("--title", default="Moonshine judge", show_default=True, help="The judge's name in its mail.")
@click.option("--timezone", "zone", default="UTC", show_default=True, help="The judge's time zone (IANA name).")
@click.option("--language", default="en", show_default=True, help="The lobby's language for strangers (en, fr).")
@click.option("--master", "masters", multiple=True, help="An address that may create games (repeat for more).")
def init(directory: Path, address: str, title: str, zone: str, language: str, masters: tuple[str, ...]) -> None:
    """Write DIR/judge.yaml (address, mailbox, SMTP, time zone, masters), the
    judge's secret seed (the draws of sides) and its registry of players and
    games. Edit judge.yaml's inbox and smtp sections, then run
    'moonshine run DIR' from cron or a systemd timer."""
    from moonshine.host.settings import JUDGE_FILE
    from moonshine.host.settings import init as make

    digest = make(directory, address=address, title=title, timezone=zone, language=language, masters=list(masters))
    click.echo(f"Judge directory: {directory} (edit {directory / JUDGE_FILE}: inbox, smtp)")
    click.echo(f"Seed hash (publish it): {digest}")


@click.command("check")
@click.argument("directory", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.option("--repair", is_flag=True, help="Rebuild what can be rebuilt from the games; nothing is deleted.")
def check(directory: Path, repair: bool) -> None:
    """Check a judge's registry against its games (exit 1 on a problem): the
    registry missing, empty or damaged, a game of it without its directory, a
    directory of games/ it does not know, players out of step. With --repair, a
    registry that cannot be used is moved aside and a new one made, and every game
    of games/ it lacks is entered from its own files (moonshine.host.check)."""
    from moonshine.host import check as checking

    left = checking.repair(directory, click.echo) if repair else checking.check(directory, click.echo)
    if left:
        raise SystemExit(1)


judge_group.add_command(init)
judge_group.add_command(check)
