"""A judge for many games on one machine (``moonshine run DIR``,
``moonshine.host.run``), in CPU seconds (this process's and its children's:
git), medians of a few runs:

- a pass over 100 games being played with nothing due (no mail, no deadline);
- a pass over the same 100 games with 800 new messages in the judge's mailbox (a
  Maildir): 8 a game, each a player's orders with the game's line and the player's
  password, routed to its game, checked (an scrypt hash each) and answered;
- the registry's lookups with 10,000 registered players: a player by address, their
  games, their dedication (microseconds a lookup).

The games are Pure (seven powers of one centre each), with no SMTP server: the mail is
written to the outbox and not sent. Not part of ``make test``: ``python -m bench.judge``.
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

GAMES = 100
MESSAGES = 800
PLAYERS = 10_000
RUNS = 3
NOW = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)
PASSWORD = "bench-password-42"


def cpu() -> float:
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def make_judge(root: Path) -> dict[str, list[tuple[str, str]]]:
    """A judge with ``GAMES`` Pure games being played, each with seven players; returns
    each game's (address, power)."""
    from moonshine.host.games import build
    from moonshine.host.registry import FILE, STARTING, Registry
    from moonshine.host.run import reconcile
    from moonshine.host.settings import init, load
    from moonshine.mail.passwords import hash_password

    init(root, address="judge@bench.example.org", masters=["gm@bench.example.org"])
    (root / "judge.yaml").write_text(
        (root / "judge.yaml").read_text(encoding="utf-8").split("inbox:")[0] + "inbox:\n  source: mail\n",
        encoding="utf-8",
    )
    (root / "mail" / "new").mkdir(parents=True)
    (root / "mail" / "cur").mkdir()
    (root / "mail" / "tmp").mkdir()
    settings = load(root)
    reg = Registry(root / FILE)
    digest = hash_password(PASSWORD)
    gm = reg.register("gm@bench.example.org", "GM", timezone=None, language="en", now=NOW, password_hash=digest)
    options = {"schedule": {"timezone": "UTC", "every": "72h"}, "press": {"kind": "white"}, "dedication": 0}
    out: dict[str, list[tuple[str, str]]] = {}
    for g in range(GAMES):
        name = f"game-{g:03d}"
        sides = build(settings, name, "pure", options, gm.address)
        reg.add_game(name, "pure", {**options, "sides": list(sides)}, gm.id, NOW)
        for i, _ in enumerate(sides):
            p = reg.register(
                f"p{g}-{i}@bench.example.org", f"P {g}-{i}", timezone=None, language="en", now=NOW, password_hash=digest
            )
            reg.join(name, p.id, [], NOW)
        reg.set_status(name, STARTING)
    reconcile(settings, reg, NOW, lambda _: None)
    for g in range(GAMES):
        name = f"game-{g:03d}"
        out[name] = [(m.player.address, str(m.side)) for m in reg.members(name)]
    reg.close()
    return out


def post(root: Path, seating: dict[str, list[tuple[str, str]]], at: datetime) -> None:
    """``MESSAGES`` messages in the judge's Maildir: each game's players' orders, in turn."""
    n = 0
    per_game = MESSAGES // GAMES
    for name, players in seating.items():
        for k in range(per_game):
            address, power = players[k % len(players)]
            msg = EmailMessage()
            msg["Received"] = f"from mx by judge; {format_datetime(at)}"
            msg["From"] = address
            msg["To"] = "judge@bench.example.org"
            msg["Subject"] = f"[{name}] orders"
            msg["Date"] = format_datetime(at)
            msg["Message-ID"] = f"<b{n}@bench.example.org>"
            msg.set_content(f"game: {name}\npower: {power}\npassword: {PASSWORD}\n")
            (root / "mail" / "new" / f"{n:05d}.eml").write_bytes(msg.as_bytes())
            n += 1


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
    work = Path(tempfile.mkdtemp(prefix="moonshine-bench-judge-"))
    try:
        base = work / "base"
        t0 = perf_counter()
        seating = make_judge(base)
        players = sum(len(v) for v in seating.values())
        print(f"judge: {GAMES} Pure games, {players} players (set up in {perf_counter() - t0:.0f} s)", flush=True)
        one_pass(base, NOW + timedelta(minutes=1))  # the games' first pass: deadlines, welcome mail
        idle = [one_pass(base, NOW + timedelta(minutes=2 + i)) for i in range(RUNS)]
        print(f"  a pass with nothing due:        {statistics.median(idle):6.2f} s CPU (median of {RUNS})")
        busy = []
        for i in range(RUNS):
            copy = work / f"run-{i}"
            shutil.copytree(base, copy, symlinks=True)
            post(copy, seating, NOW + timedelta(hours=1))
            busy.append(one_pass(copy, NOW + timedelta(hours=1, minutes=1)))
            answered = sum(1 for _ in copy.glob("games/*/outbox/*/reply-*.eml"))
            assert answered == MESSAGES, answered
            shutil.rmtree(copy)
        print(f"  a pass with {MESSAGES} new messages:   {statistics.median(busy):6.2f} s CPU (median of {RUNS})")
        for label, micro in lookups(work).items():
            print(f"  registry of {PLAYERS:,} players, {label}: {micro:7.1f} µs")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
