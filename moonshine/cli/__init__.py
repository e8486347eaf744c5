"""The ``moonshine`` command (the console script). Commands are thin: load, call the
library, report. Each lives in ``moonshine/cli/`` and is imported only when it
runs (click's lazy-loading pattern for subcommands: a ``Group`` whose
``get_command`` imports the module), so that a player-facing command like
``check`` starts fast; the listing of ``--help`` reads the one-line helps kept
here and imports none of them."""

from __future__ import annotations

import gc
import importlib
import os
from typing import Any

import click

from moonshine import GC_THRESHOLDS, __version__
from moonshine.errors import MoonshineError

# name -> (module under moonshine.cli, attribute, one-line help for the listing)
COMMANDS: dict[str, tuple[str, str, str]] = {
    "new": ("game", "new", "Create a game directory with its first turn."),
    "map": ("maps", "map_group", "Inspect and check maps."),
    "adjudicate": ("turn", "adjudicate", "Adjudicate a turn and open the next one."),
    "rollback": ("turn", "rollback", "Restore the game to the start of a turn."),
    "reveal": ("turn", "reveal", "Show the game's secret seed once the game is over."),
    "simulate": ("turn", "simulate", "Play a whole game with computer players."),
    "verify-cd": ("turn", "verify_cd", "Check a side's civil-disorder orders against the game's seed (R26)."),
    "check": ("check", "check", "Check an orders file and print the acknowledgement."),
    "mail": ("mail", "mail_cmd", "Mail a turn's reports and bulletin (outbox, or --send)."),
    "inbox": ("mail", "inbox_cmd", "Read orders from a mailbox, check senders, answer each message."),
    "status": ("mail", "status_cmd", "Who has sent orders, who has not, time left."),
    "remind": ("mail", "remind_cmd", "Write reminders to the gangs without orders."),
    "passwd": ("mail", "passwd_cmd", "Set a gang's password (stored hashed)."),
    "votes": ("mail", "votes_cmd", "Write (and --send) the notices draw and concession votes owe."),
    "report": ("report", "report", "Write a turn's reports, bulletin and map pictures."),
    "site": ("site", "site", "Write the game's public record as a static web site."),
    "takeover": ("takeover", "takeover", "Hand a gang to a new player: new address, new password, its history."),
    "run": ("run", "run", "One pass of the judge: mail in, answers, reminders, adjudication, reports."),
    "judge": ("judge", "judge_group", "A judge for many games: its directory (init); passes by 'run DIR'."),
    "export": ("exchange", "export", "Write the game in a common format (classic: the diplomacy package's JSON)."),
    "replay": ("exchange", "replay", "Adjudicate a saved game (diplomacy JSON) again; print where it differs."),
}


def _tune_collector() -> None:
    """A command is a short process that builds many objects and keeps most of them to
    the end (the map, the state, the orders, the turn's results, the pictures' shapes):
    with the default thresholds the cyclic collector walks them again and again, more
    of them the bigger the board, so that a turn of 10,000 units spends as long in it as
    in its work. Collections every 50,000 new objects instead of 700 keep that cost in
    step with the work; reference counting still frees nearly everything at once."""
    gc.set_threshold(*GC_THRESHOLDS)


class LazyGroup(click.Group):
    """A group whose commands are imported on first use (``COMMANDS``)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | set(COMMANDS))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in COMMANDS:
            module, attr, _ = COMMANDS[cmd_name]
            cmd = getattr(importlib.import_module(f"moonshine.cli.{module}"), attr)
            assert isinstance(cmd, click.Command)
            return cmd
        return super().get_command(ctx, cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, COMMANDS[name][2]) for name in sorted(COMMANDS)]
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        found = super().resolve_command(ctx, args)
        if found[1] is not None and not ctx.resilient_parsing:
            try:
                _recover(args)
            except MoonshineError as exc:
                raise click.ClickException(str(exc)) from None
        return found

    def invoke(self, ctx: click.Context) -> Any:
        _tune_collector()
        try:
            return super().invoke(ctx)
        except MoonshineError as exc:
            raise click.ClickException(str(exc)) from None
        except OSError as exc:  # a path the system refuses (too long, not a folder, no room...): said, not traced
            raise click.ClickException(_os_error(exc)) from None


def _os_error(exc: OSError) -> str:
    """``FILE: what the system said``, the file shortened to what a terminal shows."""
    name = str(exc.filename) if exc.filename is not None else ""
    if len(name) > 80:
        name = name[:38] + "..." + name[-38:]
    what = exc.strerror or str(exc)
    return f"{name}: {what}" if name else what


def _recover(args: list[str]) -> None:
    """Before any command: finish or undo a job a killed run left in the game
    (moonshine.game.journal), with a line saying so."""
    game = "."
    for i, arg in enumerate(args):
        if arg == "--game" and i + 1 < len(args):
            game = args[i + 1]
        elif arg.startswith("--game="):
            game = arg.partition("=")[2]
    from moonshine.game.directory import JOURNAL_DIR

    if os.path.exists(os.path.join(game, JOURNAL_DIR)):  # journal.needs_recovery, without loading the journal
        from moonshine.game.journal import recover_if_needed

        for line in recover_if_needed(game, wait=30):
            click.echo(line, err=True)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="moonshine")
def main() -> None:
    """Moonshine: the referee for play-by-email games of Moonshine, eight gangs
    fighting over Prohibition-era Chicago.

    A game directory holds game.yaml, the players' orders under orders/TURN/ and
    each turn's state and results under turns/TURN/. Run commands inside it or
    pass --game DIR.
    """


def run() -> None:
    """The console script: the command, then the end of the process. The objects the
    command leaves are frozen first (``gc.freeze``), so that the interpreter's exit
    does not walk them all once more looking for cycles to collect: the process
    ends and frees them anyway. A sixth of a player's ``check`` went to that walk.
    The exit is otherwise the interpreter's own: ``atexit`` handlers run, files are
    flushed and closed. (Tests call ``main`` and leave the collector alone.)"""
    try:
        main()
    finally:
        gc.freeze()
