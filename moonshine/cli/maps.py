"""``moonshine map check``."""

from __future__ import annotations

import click

from moonshine.text import money
from moonshine.text.english import count
from moonshine.variants.moonshine.map import load_map
from moonshine.variants.moonshine.mapcheck import check_map


@click.group("map")
def map_group() -> None:
    """Inspect and check maps."""


@map_group.command("check")
@click.argument("map_name", metavar="[MAP]", default="chicago-1920s")
@click.option("--any-gangs", is_flag=True, help="Do not require the published rules' gangs and homes.")
def check(map_name: str, any_gangs: bool) -> None:
    """Check MAP (a bundled map's name or a YAML file; default chicago-1920s):
    symmetric and connected adjacency, no corner-only contacts, precincts and
    stations, the published home districts; then print the gangs' starting
    balance. Exits 1 when the map has problems."""
    from moonshine import variants

    if map_name in variants.names() and not variants.get(map_name).layout.map_check:
        raise click.ClickException(
            f"{map_name} is a board of the classic family (maps/{map_name}/), read and checked when a "
            "game is created; 'map check' checks Moonshine maps (chicago-1920s or a YAML file)"
        )
    gmap = load_map(map_name)
    report = check_map(gmap, published_homes=not any_gangs)
    click.echo(f"Map {gmap.name} ({gmap.source})")
    for note in report.notes:
        click.echo(f"  {note}")
    if report.problems:
        for p in report.problems:
            click.echo(f"  problem: {p}", err=True)
        raise click.ClickException(f"{count(len(report.problems), 'problem')} in {gmap.source}")
    click.echo("")
    head = f"{'gang':<22} {'homes':>5} {'H':>3} {'L':>3} {'VP':>4} {'prod':>5} {'cons':>5} {'cash':>6} {'upkeep':>7}"
    click.echo(head)
    click.echo("-" * len(head))
    for r in report.balance:
        click.echo(
            f"{r.name:<22} {r.homes:>5} {r.henchmen:>3} {r.delivery:>3} {r.vp:>4} {r.production:>5} "
            f"{r.capacity:>5} {money.fmt(r.cash):>6} {money.fmt(r.upkeep):>7}"
        )
    click.echo("")
    click.echo("OK: the map is consistent with R1 to R3.")
