"""The pass's reading of the game's mail: the messages of its mailbox (``inbox.source``
in game.yaml), or those a judge for many games found for it, read and answered in one
transaction (``moonshine.mail.inbox``), orders still taken in the grace period; the
messages held unread noted for the adjudication, each outcome logged."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from moonshine.game.directory import deadline, is_git_repo
from moonshine.game.journal import transaction
from moonshine.game.schedule import Schedule
from moonshine.mail.gamepass import Pass
from moonshine.mail.inbox.outcome import HELD
from moonshine.mail.turns import closes

if TYPE_CHECKING:
    from moonshine.mail.sources import Entry

ABSENCES = "absences.yaml"  # moonshine.mail.commands.absence.FILE


def intake(
    p: Pass,
    schedule: Schedule | None,
    turn: str,
    source: str | list[Entry],
    *,
    paused: bool = False,
    host_lines: Callable[[str], bool] | None = None,
) -> None:
    from collections import Counter

    from moonshine.mail.inbox import LOCK_WAIT, process, process_entries

    game = p.game
    due = deadline(game.config, turn)
    end, waiting = closes(game, schedule, turn, p.now)
    in_grace = due is not None and end is not None and due < p.now < end and bool(waiting)
    # the commands' press logs, votes and absences too
    paths = [f"orders/{turn}", f"outbox/{turn}", "press", "votes.yaml", ABSENCES]
    forward = (f"Orders by mail for {turn}", paths, is_git_repo(p.root))
    with transaction(p.root, f"run: inbox {turn}", wait=LOCK_WAIT, notify=p.log, forward=forward):
        grace_for = waiting if in_grace else ()
        if isinstance(source, str):
            outcomes = process(game, source, turn=turn, grace_for=grace_for, now=p.now)
        else:
            outcomes = process_entries(
                game,
                source,
                turn=turn,
                grace_for=grace_for,
                now=p.now,
                paused=paused,
                host_lines=host_lines,
                authserv=p.authserv,
                budget=p.budget,
            )
    p.held = [o.received or p.now for o in outcomes if o.status == HELD]
    if p.held_out is not None:
        p.held_out.extend(o.origin for o in outcomes if o.status == HELD)
    counts = Counter(o.status for o in outcomes if o.status != "duplicate")
    for o in outcomes:
        if o.status != "duplicate":
            p.log(f"mail {turn}: {o.line()}")
    if counts:
        grace = " (in the grace period)" if in_grace else ""
        p.log(f"inbox {turn}{grace}: " + ", ".join(f"{n} {s}" for s, n in sorted(counts.items())))
