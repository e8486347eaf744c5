"""``moonshine run``: the judge runs itself (``moonshine.mail.run``)."""

from __future__ import annotations

import os
import time
from datetime import UTC, datetime
from pathlib import Path

import click

from moonshine.cli.common import NOW_VARIABLE, clock, now_option


class _Logger:
    """One line per action, to the terminal and to run.log in the game directory. A
    line is cut at its line feeds only, and every other control character in it (a
    carriage return, U+0085, U+2028, a terminal's escape) is written escaped
    (``moonshine.game.masking.terminal_safe``): text a stranger wrote (a name, a
    subject) can neither forge a line of the log nor reach a terminal raw."""

    def __init__(self, root: Path, now: datetime) -> None:
        self.path = root / "run.log"
        self.stamp = now.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        self.name = root.resolve().name

    def __call__(self, line: str) -> None:
        from moonshine.game.masking import terminal_safe

        for part in line.removesuffix("\n").split("\n"):
            text = terminal_safe(f"{self.stamp} {self.name}: {part}").replace("\t", " ")
            click.echo(text)
            try:  # never through a symbolic link: run.log is the directory's own file
                fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW, 0o644)
                with os.fdopen(fd, "a", encoding="utf-8") as fh:
                    fh.write(text + "\n")
            except OSError:
                pass


def _one_pass(games: tuple[Path, ...], now: datetime) -> int:
    from moonshine.errors import MoonshineError
    from moonshine.host.settings import is_judge_dir
    from moonshine.mail.run import run_game

    failures = 0
    for root in games:
        say = _Logger(root, now)
        if is_judge_dir(root):
            failures += _judge_pass(root, now, say)
            continue
        if not (root / "game.yaml").is_file():
            click.echo(f"{root}: not a game directory (no game.yaml)", err=True)
            failures += 1
            continue
        failed: set[str] = set()
        try:
            run_game(root, now=now, say=say, failed=failed)
        except MoonshineError as exc:
            say(f"ERROR: {exc}")
            failures += 1
            continue
        if failed:
            click.echo(f"{root}: the pass failed ({', '.join(sorted(failed))}): see run.log", err=True)
            failures += 1
    return failures


def _judge_pass(root: Path, now: datetime, say: _Logger) -> int:
    """A pass of a judge for many games (``moonshine.host.run``): 1 when it failed."""
    from moonshine.errors import MoonshineError
    from moonshine.host.run import run_judge

    failed: set[str] = set()
    try:
        run_judge(root, now=now, say=say, say_for=lambda game: _Logger(game, now), failed=failed)
    except MoonshineError as exc:
        say(f"ERROR: {exc}")
        return 1
    if failed:
        click.echo(f"{root}: the pass failed ({', '.join(sorted(failed))}): see run.log", err=True)
        return 1
    return 0


@click.command("run")
@click.argument("games", nargs=-1, type=click.Path(file_okay=False, path_type=Path))
@click.option("--watch", is_flag=True, help="Keep running: a pass, then wait for mail (IMAP IDLE) or --interval.")
@click.option(
    "--interval", default=60.0, show_default=True, type=click.FloatRange(0.05), help="Seconds between passes."
)
@click.option("--passes", default=0, type=click.IntRange(0), help="With --watch: stop after this many passes.")
@now_option
def run(games: tuple[Path, ...], watch: bool, interval: float, passes: int, now_text: str | None) -> None:
    """One pass of the whole judge on each game directory GAMES (default: the
    current directory), or on a judge for many games (a directory with judge.yaml
    and games/, made by 'moonshine judge init': its one mailbox for every game,
    the lobby's commands, every game's deadlines): read the mailbox (inbox.source in game.yaml), answer
    every message and send the answers at once, remind the gangs when due,
    adjudicate when the deadline (plus the grace, when a gang is missing) has
    passed, mail the reports and the bulletin, set the next deadline (schedule
    in game.yaml), commit. Safe to start every minute (cron, a systemd timer):
    a game another run is working on is left alone; nothing is mailed twice.
    Each action is a line on the terminal and in run.log in the game directory;
    errors are mailed to the game master (referee in game.yaml) once. Exits
    with status 1 when a game's pass failed in any step (a mailbox that cannot
    be read, a broken game.yaml, mail refused) or a directory is not a game; a
    game found busy is not a failure."""
    games = games or (Path("."),)
    if not watch:
        if _one_pass(games, clock(now_text)):
            raise SystemExit(1)
        return
    if now_text or os.environ.get(NOW_VARIABLE):
        raise click.BadParameter("--watch reads the real clock: it cannot be used with --now or MOONSHINE_NOW")
    from moonshine.host.watch import wait_for_mail

    done = 0
    while True:
        _one_pass(games, clock(None))
        done += 1
        if passes and done >= passes:
            return
        start = time.monotonic()
        waited = wait_for_mail(games, interval)
        rest = interval - (time.monotonic() - start)
        if not waited and rest > 0:
            time.sleep(rest)
