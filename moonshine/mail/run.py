"""The judge that runs itself: one idempotent pass over a game directory
(``moonshine run``), safe to start every minute from cron or a systemd timer.

A pass, holding the game's lock (a second run finds it busy and leaves):

1. finishes or undoes a job a killed run left (``moonshine.game.journal``);
2. puts in the outbox the reports of a turn adjudicated by a run killed before
   it could mail them;
3. sets the current turn's deadline from the schedule (``schedule:`` in
   game.yaml) when it has none, into ``deadlines:`` where every command reads it;
4. reads the mailbox (``inbox.source`` in game.yaml: an IMAP address, a Maildir,
   an mbox or a folder of ``.eml`` files) and answers every message; in the grace
   period (after the deadline, while a gang has sent nothing) orders are still
   taken;
5. writes the reminders that are due (``schedule.reminders``) to the gangs with
   no orders or with rejected lines, each reminder once;
6. adjudicates when the deadline has passed (plus the grace when a gang is
   missing), or before it when every side with a player is ready (``ready``,
   ``early:`` in game.yaml; ``moonshine.mail.commands.ready``), the civil-disorder
   player's orders written first for the sides the missed-turn policy put in civil
   disorder (``nmr:``; ``moonshine.mail.disorder``); puts the reports and the bulletin
   in the outbox and sets the next turn's deadline;
7. delivers by SMTP every message of the outbox not yet delivered (the
   acknowledgements at once), each to each recipient at most once
   (``moonshine.mail.outbox``);
8. mails each new error to the game master once (``referee.email``): a mailbox
   that cannot be read, a report the SMTP server refused (or could not take for
   ``ledger.GIVE_UP``; a transient failure is tried again by later passes, waiting
   longer each time), a delivery of unknown outcome, an orders file that cannot
   be read; the same error is not mailed again while it lasts, and at most one
   error mail waits in the outbox (a new one takes in the undelivered one).

Besides, at each pass it brings the missed-turn policy's record in step with the
players (a new player on a side: a takeover), and does what the players' votes on
time ask (``pause``, ``resume``, ``extend``: ``moonshine.mail.commands.timevotes``):
a game the players paused reads and answers its mail but has no deadline.

A pass with a failed step ends with ``run_game``'s ``failed`` set, and ``moonshine
run`` with a non-zero status.

What the judge did is kept in ``run.yaml`` (when each turn opened, the
reminders sent, the turns whose reports were put in the outbox, the errors
reported; a game of an earlier version kept it in ``judge.yaml``, the name of a
judge's settings since: read when there is no ``run.yaml``, and renamed by the
next write); each step is a transaction, so a run killed anywhere is finished by
the next one with nothing lost and nothing sent twice. Every action writes one
line to ``run.log`` in the game directory (and to the caller).

This module is the pass itself (``run_game``), when a game next has something to do
(``next_due``) and a turn played again after a rollback (``reopen``); the steps live
beside it: the pass the steps share and its errors mailed to the game master
(``moonshine.mail.gamepass``), the record (``moonshine.mail.record``), where the turn
stands (``moonshine.mail.turns``), the deadlines (``moonshine.mail.timekeeping``), the
mailbox (``moonshine.mail.mailbox``), the reminders (``moonshine.mail.reminders``), the
turn's end and its reports (``moonshine.mail.adjudication``) and the delivery
(``moonshine.mail.delivery``).

The clock is read once per pass; tests give it (``now``).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from moonshine.errors import GameBusy, MoonshineError
from moonshine.game import ledger
from moonshine.game.directory import GAME_FILE, Game, config_section, deadline, is_git_repo
from moonshine.game.journal import recover, transaction
from moonshine.game.lock import game_lock
from moonshine.game.schedule import Schedule
from moonshine.mail import outbox
from moonshine.mail.adjudication import (
    adjudicate_if_due,
    mail_reports_left,
    observe_players,
    reveal_identities,
    vote_notices,
)
from moonshine.mail.delivery import deliver, mail_turns
from moonshine.mail.disorder import expected
from moonshine.mail.gamepass import Pass
from moonshine.mail.mailbox import intake
from moonshine.mail.record import RECORD_FILES, Log, iso, load_record, parse_iso, save_record
from moonshine.mail.reminders import remind
from moonshine.mail.settings import mail_source
from moonshine.mail.timekeeping import apply_time_votes, ensure_deadline, move_for_absence, players_paused
from moonshine.mail.turns import closes, is_over, schedule_of

if TYPE_CHECKING:
    from moonshine.mail.inbox.context import Budget
    from moonshine.mail.sources import Entry

LOG = "run.log"  # the pass's log in the game directory (moonshine.cli.run)


def run_game(
    root: Path,
    *,
    now: datetime,
    say: Log,
    failed: set[str] | None = None,
    mail: list[Entry] | None = None,
    paused: bool = False,
    host_lines: Callable[[str], bool] | None = None,
    process: str | None = None,
    seal: bool = False,
    due: list[datetime | None] | None = None,
    authserv: str | None = None,
    budget: Budget | None = None,
    held: list[str] | None = None,
    reveal: bool = True,
) -> bool:
    """One pass over the game in ``root``; False when the game was busy (another
    run or command holds its lock). ``failed`` receives the steps that failed (their
    errors are in the log, and mailed to the game master once). ``mail``: the
    messages a judge for many games found for this game in its own mailbox
    (``moonshine.host.run``), read instead of the game's ``inbox.source``.
    ``paused``: a game its master paused reads and answers its mail, and sends what
    is due, but sets no deadline, reminds nobody and adjudicates nothing.
    ``host_lines``: lines of those messages the judge read itself (its lobby's
    commands), never orders. ``process``: a turn a master asked to adjudicate now,
    done when it is the current turn and every side the judge waits for has orders
    (else it waits for its deadline as usual). ``seal``: the game's lock is left
    sealed (``moonshine.game.lock.sealed``), so that a judge for many games sees for
    a ``stat`` whether any job has held it since. ``due`` receives, computed under
    the lock at the end of the pass, when the game next has something to do without
    new mail (``next_due``). ``reveal``: an anonymous game found over tells its
    players who played which side (``moonshine.mail.identities``; a judge for many
    games does it from its own outbox). ``authserv`` and ``budget``: a judge for many
    games' trusted mail server and its daily budget of mail to unproven addresses
    (``moonshine.mail.inbox.context``); ``held`` receives the origins of the messages
    held unread (too many wrong passwords in the pass): their source keeps them for the
    next pass."""
    root = Path(root).resolve()  # errors and "busy" name the game's directory, never "."
    try:
        with game_lock(root, job="run", wait=0, seal=seal):
            for line in recover(root):
                say(line)
            steps = _pass(
                root,
                now,
                say,
                mail,
                paused=paused,
                host_lines=host_lines,
                process=process,
                reveal=reveal,
                authserv=authserv,
                budget=budget,
                held=held,
            )
            if failed is not None:
                failed |= steps
            if due is not None:
                due.append(now if steps else next_due(Game(root), now, paused=paused))
    except GameBusy as exc:
        say(f"busy: {exc}; this pass leaves it alone")
        return False
    return True


def _pass(
    root: Path,
    now: datetime,
    say: Log,
    mail: list[Entry] | None = None,
    *,
    paused: bool = False,
    host_lines: Callable[[str], bool] | None = None,
    process: str | None = None,
    reveal: bool = True,
    authserv: str | None = None,
    budget: Budget | None = None,
    held: list[str] | None = None,
) -> set[str]:
    """The pass's steps; returns those that failed."""
    game = Game(root)
    p = Pass(game, now, say, authserv=authserv, budget=budget, held_out=held)
    p.record = load_record(game)
    found: dict[str, Any] = {}

    def settings() -> None:
        from moonshine.mail.policy import policy_of

        found["schedule"] = schedule_of(game)
        found["turn"] = turn = game.current_turn()
        found["over"] = is_over(game, turn)
        policy_of(game)  # early:, nmr:, max_pause: read (a wrong value is this step's error)

    if not p.step("settings", settings):
        p.step("deliver", lambda: deliver(p))  # the error, to the game master
        return p.failed_steps
    schedule: Schedule | None = found["schedule"]
    turn: str = found["turn"]
    over: bool = found["over"]
    if not over:
        p.step("disorder", lambda: observe_players(p, turn))
        p.step("time", lambda: apply_time_votes(p, turn))
    # a paused game (by its master, or by the players' vote) reads and answers its mail; nothing falls due
    ticking = not over and not paused and not players_paused(p)
    if ticking and schedule is not None:  # first: the reports' mail gives the next deadline
        p.step("deadline", lambda: ensure_deadline(p, schedule, turn))
    p.step("reports", lambda: mail_reports_left(p))
    source: str | list[Entry] | None = mail_source(game.config, game.root) if mail is None else (mail or None)
    if source is not None and not over:
        p.step("intake", lambda: intake(p, schedule, turn, source, paused=paused, host_lines=host_lines))
        p.step("time", lambda: apply_time_votes(p, turn))  # a vote this mail passed
        ticking = ticking and not players_paused(p)
    if ticking and schedule is not None and schedule.absence:
        p.step("deadline", lambda: move_for_absence(p, schedule, turn))
    if ticking and schedule is not None:
        p.step("remind", lambda: remind(p, schedule, turn))
    p.step("votes", lambda: vote_notices(p, turn))
    p.step("deliver", lambda: deliver(p))
    now_asked = process == turn
    adjudicated = ticking and p.step("adjudicate", lambda: adjudicate_if_due(p, schedule, turn, asked=now_asked))
    if adjudicated and game.current_turn() != turn:
        nxt = game.current_turn()
        if schedule is not None and not is_over(game, nxt):  # first: the reports' mail gives it
            p.step("deadline", lambda: ensure_deadline(p, schedule, nxt))
        p.step("reports", lambda: mail_reports_left(p))
        p.step("deliver", lambda: deliver(p))
    revealed: list[str] = []
    if reveal and (over or adjudicated):
        p.step("identities", lambda: revealed.extend(reveal_identities(p)))
    if revealed:  # the players hear of it in this pass
        p.step("deliver", lambda: deliver(p))
    if p.errors_mailed:  # the game master hears of this pass's errors in this pass
        p.step("deliver", lambda: deliver(p))
    p.forget_mended()
    return p.failed_steps


def next_due(game: Game, now: datetime, *, paused: bool = False) -> datetime | None:
    """When the game's pass next has something to do if no mail comes and no one
    changes the game: the earliest of its deadline (the end of the grace once the
    deadline is past), its next reminder, the next notice of an open vote (the votes on
    time too), the end of a pause the players voted, and the next try of its
    undelivered mail; ``now`` when something is to do at once (a deadline to set, a
    phase with nothing to order, a passed vote on time to apply); None when only mail
    or a change can give it something to do. What a pass does (``_pass``) and nothing else: a
    judge for many games opens a game at this time, and need not open it before."""
    from moonshine.mail.commands import votes
    from moonshine.mail.commands.timevotes import current_pause, due_to_apply

    schedule = schedule_of(game)
    turn = game.current_turn()
    times: list[datetime] = []
    held = current_pause(game, now)  # a pause the players voted: it ends at its longest length
    if held is not None:
        times.append(held.until())
    if due_to_apply(game, turn, now):
        times.append(now)
    if not is_over(game, turn) and not paused and held is None:
        due = deadline(game.config, turn)
        if due is None and schedule is not None:
            times.append(now)  # a deadline to set
        if due is not None:
            end, _ = closes(game, schedule, turn, now)
            times.append(due if now < due or end is None else end)
            if schedule is not None:
                sent = {parse_iso(x) for x in load_record(game).reminded.get(turn, [])}
                times += [t for t in schedule.reminder_times(due) if t < due and t not in sent]
        if not expected(game, turn, players_only=False):
            times.append(now)  # a phase with nothing to order is adjudicated at once
    ahead = votes.next_time(game, now)
    if ahead is not None:
        times.append(ahead)
    if config_section(game.config, "smtp"):
        for t in mail_turns(game):
            attempt = outbox.next_attempt(ledger.outbox_dir(game, t), now)
            if attempt is not None:
                times.append(attempt)
    return min(times) if times else None


def reopen(game: Game, turn: str, now: datetime, *, notify: Log | None = None) -> None:
    """After a rollback to the start of ``turn`` (``moonshine.game.jobs.rollback``):
    the judge's record forgets what it did for ``turn`` and every later turn, so that
    ``turn`` is played again: it opens ``now`` (its deadline, taken out of game.yaml
    with the later turns', is set again from the schedule by the next pass, unless
    the caller writes one), its reminders are due again, and its reports, once it is
    adjudicated again, are mailed again (marked as corrections where they differ from
    those mailed: ``moonshine.mail.outbox.reports``). Safe to do again."""
    from moonshine.game.deadlines import clear_deadline

    start = game.turn_key(turn)

    def gone(t: str) -> bool:
        try:
            return bool(game.turn_key(t) >= start)
        except MoonshineError:
            return False

    with transaction(game.root, f"run: reopen {turn}", notify=notify) as txn:
        for t in [t for t in (game.config.extra.get("deadlines") or {}) if gone(str(t))]:
            clear_deadline(game, str(t))
        record = load_record(game)
        record.mailed = [t for t in record.mailed if not gone(t)]
        record.reminded = {t: v for t, v in record.reminded.items() if not gone(t)}
        record.scheduled = {t: v for t, v in record.scheduled.items() if not gone(t)}
        record.opened = {t: v for t, v in record.opened.items() if not gone(t)}
        record.opened[turn] = iso(now)
        save_record(game, record)
        txn.commit(f"{turn} played again from {iso(now)}", [GAME_FILE, *RECORD_FILES], git=is_git_repo(game.root))
