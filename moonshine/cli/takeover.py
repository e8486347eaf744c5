"""``moonshine takeover``: a gang handed to a new player."""

from __future__ import annotations

from pathlib import Path

import click

from moonshine.cli.common import game_option


@click.command("takeover")
@click.argument("gang")
@click.option("--email", required=True, help="The new player's address (it replaces the gang's addresses).")
@click.option("--name", default=None, help="The new player's name.")
@click.option("--no-mail", is_flag=True, help="Mail nothing now: print the new password for you to pass on.")
@game_option
def takeover(gang: str, email: str, name: str | None, no_mail: bool, game_dir: Path) -> None:
    """Hand GANG (a gang or a power, by key or name) to a new player: its
    addresses become --email alone, it gets a new password (the old one stops
    working at once), and the new player is mailed the password (a message
    kept nowhere) and the gang's history, every report so far (through the
    outbox: sent now, or by the next 'moonshine run')."""
    from moonshine.game.directory import Game
    from moonshine.mail.takeover import takeover as hand_over

    game = Game(game_dir)
    done = hand_over(game, gang, email, name=name, send=not no_mail)
    click.echo(f"{done.side} now belongs to {done.email}; the old password no longer works.")
    turns = ", ".join(done.history) or "none yet"
    click.echo(f"History ({turns}): outbox/{game.current_turn()}/{done.history_file}")
    if done.password_mailed:
        click.echo(f"The new password was mailed to {done.email} (it is kept nowhere).")
        if not no_mail:
            _send_history(game, done.history_file)
        return
    if done.problem:
        click.echo(f"warning: the password could not be mailed: {done.problem}", err=True)
    click.echo(f"New password for {done.side} (pass it on yourself; it is kept nowhere): {done.password}")


def _send_history(game: object, name: str) -> None:
    from moonshine.game.directory import Game, is_git_repo
    from moonshine.game.journal import transaction
    from moonshine.mail.outbox.smtp import send_files

    assert isinstance(game, Game)
    turn = game.current_turn()
    forward = (f"Mail sent for {turn}", [f"outbox/{turn}"], is_git_repo(game.root))
    with transaction(game.root, f"takeover: send {turn}", wait=60, forward=forward):
        for r in send_files(game, turn, [name]):
            click.echo(r.line())
