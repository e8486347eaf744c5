"""A judge for many games on one machine (``moonshine run DIR``,
``moonshine.host.run``), in CPU seconds (this process's and its children's:
git), medians of a few runs, with 100 games being played and then with 1,000 (the
same judge, 900 games more):

- a pass with nothing due (no mail, no deadline): what the pass costs for games that
  have nothing to do;
- a pass with 100 new messages in the judge's mailbox (a Maildir), one a game (games
  spread over all of them), each a player's orders with the game's line and the
  player's password, routed to its game, checked (an scrypt hash each) and answered:
  its cost a message beyond the idle pass, which should not grow with the games;
- the registry's lookups with 10,000 registered players: a player by address, their
  games, their dedication (microseconds a lookup).

The games are Pure (seven powers of one centre each), with no SMTP server: the mail is
written to the outbox and not sent. Not part of ``make test``: ``python -m bench.judge
[GAMES...]`` (100 and 1,000 by default; the set-up takes about half a second a game).
"""

from __future__ import annotations

import resource
import shutil
import statistics
import sys
import tempfile
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path
from time import perf_counter

SIZES = (100, 1000)
MESSAGES = 100
PLAYERS = 10_000
RUNS = 3
NOW = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)
PASSWORD = "bench-password-42"


def cpu() -> float:
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def make_judge(root: Path) -> None:
    """A judge with no game, its mailbox a Maildir, and its master."""
    from moonshine.host.registry import FILE, Registry
    from moonshine.host.settings import init
    from moonshine.mail.passwords import hash_password

    init(root, address="judge@bench.example.org", masters=["gm@bench.example.org"])
    (root / "judge.yaml").write_text(
        (root / "judge.yaml").read_text(encoding="utf-8").split("inbox:")[0] + "inbox:\n  source: mail\n",
        encoding="utf-8",
    )
    (root / "mail" / "new").mkdir(parents=True)
    (root / "mail" / "cur").mkdir()
    (root / "mail" / "tmp").mkdir()
    reg = Registry(root / FILE)
    digest = hash_password(PASSWORD)
    reg.register("gm@bench.example.org", "GM", timezone=None, language="en", now=NOW, password_hash=digest)
    reg.close()


def add_games(root: Path, numbers: range, now: datetime) -> dict[str, list[tuple[str, str]]]:
    """Pure games being played, each with seven players, numbered ``numbers``; returns
    each game's (address, power)."""
    from moonshine.host.games import build
    from moonshine.host.registry import FILE, STARTING, Registry
    from moonshine.host.run import reconcile
    from moonshine.host.settings import load

    settings = load(root)
    reg = Registry(root / FILE)
    digest = reg.password_hash(1)
    gm = reg.player("gm@bench.example.org")
    assert gm is not None and digest is not None
    options = {"schedule": {"timezone": "UTC", "every": "72h"}, "press": {"kind": "white"}, "dedication": 0}
    out: dict[str, list[tuple[str, str]]] = {}
    for g in numbers:
        name = f"game-{g:04d}"
        sides = build(settings, name, "pure", options, gm.address)
        reg.add_game(name, "pure", {**options, "sides": list(sides)}, gm.id, now)
        for i, _ in enumerate(sides):
            p = reg.register(
                f"p{g}-{i}@bench.example.org", f"P {g}-{i}", timezone=None, language="en", now=now, password_hash=digest
            )
            reg.join(name, p.id, [], now)
        reg.set_status(name, STARTING)
    reconcile(settings, reg, now, lambda _: None)
    for g in numbers:
        name = f"game-{g:04d}"
        out[name] = [(m.player.address, str(m.side)) for m in reg.members(name)]
    reg.close()
    return out


def post(root: Path, seating: dict[str, list[tuple[str, str]]], at: datetime, run: int) -> None:
    """``MESSAGES`` messages in the judge's Maildir, one a game, to games spread over
    all of them: a player's orders (the ``run``-th player of the game)."""
    names = sorted(seating)
    step = max(1, len(names) // MESSAGES)
    for k, name in enumerate(names[::step][:MESSAGES]):
        players = seating[name]
        address, power = players[run % len(players)]
        msg = EmailMessage()
        msg["Received"] = f"from mx by judge; {format_datetime(at)}"
        msg["From"] = address
        msg["To"] = "judge@bench.example.org"
        msg["Subject"] = f"[{name}] orders"
        msg["Date"] = format_datetime(at)
        msg["Message-ID"] = f"<b{run}-{k}-{len(names)}@bench.example.org>"
        msg.set_content(f"game: {name}\npower: {power}\npassword: {PASSWORD}\n")
        (root / "mail" / "new" / f"{run}-{len(names)}-{k:05d}.eml").write_bytes(msg.as_bytes())


def one_pass(root: Path, now: datetime) -> float:
    from moonshine.host.run import run_judge

    before = cpu()
    failed: set[str] = set()
    run_judge(root, now=now, say=lambda _: None, say_for=lambda _: lambda _: None, failed=failed)
    assert not failed, failed
    return cpu() - before


def lookups(root: Path) -> dict[str, float]:
    """Microseconds per lookup in a registry of ``PLAYERS`` players."""
    from moonshine.host.registry import Registry

    reg = Registry(root / "big.sqlite")
    with reg.transaction():
        for i in range(PLAYERS):
            reg.register(f"x{i}@bench.example.org", f"X {i}", timezone=None, language="en", now=NOW, password_hash="h")
    addresses = [f"x{(i * 7919) % PLAYERS}@bench.example.org" for i in range(PLAYERS)]
    out: dict[str, float] = {}

    def each(label: str, fn: Callable[[str], object]) -> None:
        t0 = perf_counter()
        for a in addresses:
            fn(a)
        out[label] = (perf_counter() - t0) / len(addresses) * 1e6

    each("player by address", reg.player)
    ids = {a: p.id for a in addresses[:100] if (p := reg.player(a)) is not None}
    each("games of a player", lambda a: reg.games_of(ids.get(a, 1)))
    each("dedication", lambda a: reg.dedication(ids.get(a, 1)))
    assert reg.count_players() == PLAYERS
    reg.close()
    return out


def main(argv: Sequence[str] = ()) -> int:
    sizes = [int(a) for a in argv] or list(SIZES)
    work = Path(tempfile.mkdtemp(prefix="moonshine-bench-judge-"))
    try:
        root = work / "judge"
        make_judge(root)
        seating: dict[str, list[tuple[str, str]]] = {}
        clock = NOW
        for size in sizes:
            t0 = perf_counter()
            seating |= add_games(root, range(len(seating), size), clock)
            players = sum(len(v) for v in seating.values())
            took = perf_counter() - t0
            print(f"judge: {size:,} Pure games, {players:,} players (set up in {took:.0f} s)", flush=True)
            clock += timedelta(minutes=1)
            one_pass(root, clock)  # the new games' first pass: deadlines, welcome mail
            idle = []
            for _ in range(RUNS):
                clock += timedelta(minutes=1)
                idle.append(one_pass(root, clock))
            quiet = statistics.median(idle)
            print(
                f"  a pass with nothing due:           {quiet:6.2f} s CPU ({quiet / size * 1000:.2f} ms a game;"
                f" median of {RUNS})",
                flush=True,
            )
            busy = []
            for run in range(RUNS):
                before = sum(1 for _ in root.glob("games/*/outbox/*/reply-*.eml"))
                clock += timedelta(minutes=10)
                post(root, seating, clock, run)
                clock += timedelta(minutes=1)
                busy.append(one_pass(root, clock))
                answered = sum(1 for _ in root.glob("games/*/outbox/*/reply-*.eml")) - before
                assert answered == MESSAGES, answered
            cost = statistics.median(busy)
            each = (cost - quiet) / MESSAGES * 1000
            print(
                f"  a pass with {MESSAGES} new messages:    {cost:6.2f} s CPU ({each:.0f} ms a message beyond the"
                f" idle pass; median of {RUNS})",
                flush=True,
            )
        for label, micro in lookups(work).items():
            print(f"  registry of {PLAYERS:,} players, {label}: {micro:7.1f} µs")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
