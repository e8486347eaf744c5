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

The clock is read once per pass; tests give it (``now``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from contextlib import suppress
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from moonshine.errors import GameBusy, MoonshineError, StateError
from moonshine.game import families, ledger
from moonshine.game.directory import (
    GAME_FILE,
    Game,
    atomic_write_text,
    config_section,
    deadline,
    is_git_repo,
    player_language,
)
from moonshine.game.journal import Transaction, recover, transaction
from moonshine.game.lock import game_lock
from moonshine.game.schedule import Schedule, parse_schedule
from moonshine.mail import outbox
from moonshine.mail.disorder import expected as expected
from moonshine.mail.inbox.outcome import HELD
from moonshine.mail.outbox import compose
from moonshine.mail.outbox.reports import REPORTS, report_messages
from moonshine.mail.settings import from_address, game_master_addresses, mail_source, player_addresses
from moonshine.render import mailwords
from moonshine.text.catalogue import Catalogue, Localized, fill, keyed, languages

if TYPE_CHECKING:
    from moonshine.mail.inbox.context import Budget
    from moonshine.mail.sources import Entry

RECORD = "run.yaml"
OLD_RECORD = "judge.yaml"  # the record's name before 2026-12 (a judge's settings file since): read, then renamed
RECORD_FILES = [RECORD, OLD_RECORD]  # what a commit of the record holds (the old one's removal)
ABSENCES = "absences.yaml"  # moonshine.mail.commands.absence.FILE
LOG = "run.log"

Log = Callable[[str], None]


# -- the judge's record ----------------------------------------------------------------


class Record(msgspec.Struct):
    """``run.yaml``: what the unattended judge has done."""

    opened: dict[str, str] = msgspec.field(default_factory=dict)  # turn -> when it opened (ISO, UTC)
    reminded: dict[str, list[str]] = msgspec.field(default_factory=dict)  # turn -> reminder times done
    mailed: list[str] = msgspec.field(default_factory=list)  # turns whose reports went to the outbox
    errors: dict[str, dict[str, str]] = msgspec.field(default_factory=dict)  # key -> step, text, since
    scheduled: dict[str, str] = msgspec.field(default_factory=dict)  # turn -> its deadline before an absence moved it

    def data(self) -> dict[str, Any]:
        return {
            "opened": dict(sorted(self.opened.items())),
            "scheduled": dict(sorted(self.scheduled.items())),
            "reminded": {t: sorted(v) for t, v in sorted(self.reminded.items())},
            "mailed": list(self.mailed),
            "errors": {k: self.errors[k] for k in sorted(self.errors)},
        }


def load_record(game: Game) -> Record:
    from moonshine import yamlio

    path = game.root / RECORD
    if not path.is_file():
        path = game.root / OLD_RECORD  # a game's record written by an earlier version
    if not path.is_file():
        return Record()
    raw = yamlio.load(path, what="judge's record")
    if raw is None:
        return Record()
    if not isinstance(raw, dict):
        raise StateError(str(path), "", "expected a mapping (opened, reminded, mailed, errors)")
    try:
        return Record(
            opened={str(k): str(v) for k, v in (raw.get("opened") or {}).items()},
            reminded={str(k): [str(x) for x in v or []] for k, v in (raw.get("reminded") or {}).items()},
            mailed=[str(x) for x in raw.get("mailed") or []],
            errors={str(k): {str(a): str(b) for a, b in v.items()} for k, v in (raw.get("errors") or {}).items()},
            scheduled={str(k): str(v) for k, v in (raw.get("scheduled") or {}).items()},
        )
    except (AttributeError, TypeError):
        raise StateError(str(path), "", "not a record of the judge; move it away to start a new one") from None


def save_record(game: Game, record: Record) -> None:
    """Write the record (in the job's transaction: a record of an earlier version,
    ``judge.yaml``, goes in the same one)."""
    from moonshine import yamlio
    from moonshine.game.journal import active

    head = "# What the unattended judge (moonshine run) did: turns opened, reminders, reports, errors reported.\n"
    atomic_write_text(game.root / RECORD, head + yamlio.dump(record.data()))
    old = game.root / OLD_RECORD
    if old.is_file():
        txn = active(game.root)
        if txn is not None:
            txn.remove(old)
        else:
            old.unlink()


# -- settings ------------------------------------------------------------------------------


def schedule_of(game: Game) -> Schedule | None:
    raw = game.config.extra.get("schedule")
    return None if raw is None else parse_schedule(raw)


def game_master(game: Game) -> list[str]:
    """Where errors go (``moonshine.mail.settings.game_master_addresses``)."""
    return game_master_addresses(game.config)


def iso(when: datetime) -> str:
    return when.astimezone(UTC).replace(microsecond=0).isoformat()


def parse_iso(text: str) -> datetime:
    when = datetime.fromisoformat(text)
    return when if when.tzinfo else when.replace(tzinfo=UTC)


# -- who is expected to send orders ---------------------------------------------------------


def missing(game: Game, turn: str, expected_sides: list[str], absent: set[str]) -> list[str]:
    return [s for s in expected_sides if s not in absent and not (game.orders_dir(turn) / f"{s}.txt").is_file()]


def is_over(game: Game, turn: str) -> bool:
    """A winner, or a draw or concession every surviving side voted (``moonshine.mail.commands.votes``)."""
    from moonshine.mail.commands import votes

    st = game.load_any_state(turn)
    return bool(game.layout.winners(st)) or votes.ended(game) is not None


def previous_turn(game: Game, turn: str) -> str | None:
    turns = game.turns()
    i = turns.index(turn) if turn in turns else len(turns)
    return turns[i - 1] if i > 0 else None


# -- the pass --------------------------------------------------------------------------------


class Pass(msgspec.Struct):
    """One pass over one game."""

    game: Game
    now: datetime
    say: Log
    record: Record = msgspec.field(default_factory=Record)
    failed_steps: set[str] = msgspec.field(default_factory=set)
    reported: set[str] = msgspec.field(default_factory=set)  # error keys seen in this pass
    errors_mailed: int = 0
    authserv: str | None = None  # a judge for many games' trusted mail server (over the game's own)
    budget: Budget | None = None  # a judge for many games' daily budget of mail to unproven addresses
    held: list[datetime] = msgspec.field(default_factory=list)  # when each message held unread was received
    held_out: list[str] | None = None  # receives the origins of the messages held unread (run_game's held)

    @property
    def root(self) -> Path:
        return self.game.root

    def log(self, line: str) -> None:
        self.say(line)

    # -- steps ----------------------------------------------------------------------------
    def step(self, name: str, fn: Callable[[], None]) -> bool:
        """Run a step; an error is logged and reported to the game master once."""
        try:
            fn()
            return True
        except MoonshineError as exc:
            self.error(name, str(exc))
        except OSError as exc:
            self.error(name, f"{type(exc).__name__}: {exc}")
        return False

    def error(self, step: str, text: str, *, fails: bool = True) -> None:
        """Log the error and mail it to the game master once. ``fails=False``: a
        notice of something the pass could not help (a delivery of unknown outcome
        that a killed pass left): the step has not failed."""
        if fails:
            self.failed_steps.add(step)
        key = f"{step}-{hashlib.sha256(f'{step}|{text}'.encode()).hexdigest()[:12]}"
        self.reported.add(key)
        self.log(f"ERROR {step}: {text}")
        if key in self.record.errors:
            return
        self.record.errors[key] = {"step": step, "since": iso(self.now), "text": text}
        try:
            self._mail_error(key, step, text)
        except MoonshineError as exc:  # the game master is told in the log at least
            self.log(f"ERROR report: the error could not be written for the game master: {exc}")

    def _mail_error(self, key: str, step: str, text: str) -> None:
        """The error, in a mail to the game master in the outbox (delivered by the
        pass's next ``deliver``). An earlier error mail that has reached nobody yet
        (the server down) is folded into this one and leaves the outbox: the game
        master has at most one error mail waiting, with every error in it."""
        game = self.game
        to = game_master(game)
        turn = game.current_turn()
        with transaction(self.root, "run: error report", notify=self.log) as txn:
            written = ""
            if to:
                cfg = game.config
                body = (
                    f"The judge of '{cfg.title}' ({self.root}) met an error at {iso(self.now)} "
                    f"while it was {STEP_WORDS.get(step, step)}:\n\n{text}\n\n"
                    "It goes on with the rest of its work and tries again at every run; this error is "
                    "mailed once, until it is mended and comes back.\n"
                )
                earlier = self._waiting_error_mails(txn)
                for when, old in earlier:
                    body += f"\n-- An earlier error mail ({when}), not delivered to you until now:\n\n{old}"
                masters, hidden = compose.unseen(from_address(cfg), to)
                msg = compose.text_message(
                    sender=from_address(cfg),
                    to=masters,
                    bcc=hidden,
                    subject=f"{compose.subject_prefix(cfg)} judge error: {STEP_WORDS.get(step, step)}",
                    body=body,
                    msg_id=compose.message_id(cfg, turn, "error", key, iso(self.now)),
                    date=self.now,
                )
                stamp = self.now.astimezone(UTC).strftime("%Y%m%dt%H%M%S")
                written = f"error-{key}-{stamp}.eml"
                outbox.write_outbox(game, turn, [outbox.Outgoing(written, msg)])
                if earlier:
                    written += f" (with {len(earlier)} earlier error mail(s) not delivered yet)"
            save_record(game, self.record)
            self.errors_mailed += 1
            paths = [*RECORD_FILES, *(f"outbox/{t}" for t in self._mail_turns())]
            txn.commit(f"Error reported: {step}", paths, git=is_git_repo(self.root))
        if to:
            self.log(f"error written to the outbox for the game master ({', '.join(to)}): {written}")
        else:
            self.log("no game master address (referee): the error is in this log only")

    def _mail_turns(self) -> list[str]:
        cur = self.game.current_turn()
        return [t for t in (previous_turn(self.game, cur), cur) if t is not None]

    def _waiting_error_mails(self, txn: Transaction) -> list[tuple[str, str]]:
        """The error mails in the outbox that have reached nobody (neither delivered
        nor perhaps delivered) and are still to be tried: removed, and returned (their
        date and text) to be folded into the next one."""
        out = []
        for turn in self._mail_turns():
            sent = ledger.load_sent(ledger.outbox_dir(self.game, turn))
            for path in sorted(ledger.outbox_dir(self.game, turn).glob("error-*.eml")):
                msg = outbox.load_message(path)
                entry = sent.get(str(msg.get("Message-ID", "")).strip(), {})
                if entry.get("delivered") or entry.get("unknown"):
                    continue
                if set(outbox.recipients(msg)) <= set(entry.get("failed") or {}):
                    continue  # failed for good: the log said so
                body = msg.get_body(("plain",))
                out.append((str(msg.get("Date", "")), body.get_content() if body is not None else ""))
                txn.remove(path)
        return out

    def forget_mended(self) -> None:
        """Errors of steps that went well this pass are over: if one comes back, it
        is reported again."""
        gone = [
            k
            for k, v in self.record.errors.items()
            if v.get("step") not in self.failed_steps and k not in self.reported
        ]
        if not gone:
            return
        for k in gone:
            del self.record.errors[k]
        with transaction(self.root, "run: errors mended", notify=self.log) as txn:
            save_record(self.game, self.record)
            txn.commit("Errors mended", RECORD_FILES, git=is_git_repo(self.root))


STEP_WORDS = {
    "disorder": "counting the turns missed (the missed-turn policy, nmr:)",
    "time": "doing what the players' votes on time ask (pause, resume, extend)",
    "intake": "reading the mailbox",
    "deliver": "sending mail",
    "adjudicate": "adjudicating",
    "reports": "putting the reports in the outbox",
    "deadline": "setting the deadline",
    "remind": "writing the reminders",
    "votes": "writing the notices of draw and concession votes",
    "settings": "reading the game (game.yaml, the current turn's state)",
}


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


# -- deadlines --------------------------------------------------------------------------------


def ensure_deadline(p: Pass, schedule: Schedule, turn: str) -> None:
    """The turn's deadline from the schedule, when game.yaml has none for it."""
    from moonshine.game.deadlines import write_deadline

    game = p.game
    if deadline(game.config, turn) is not None:
        return
    opened = parse_iso(p.record.opened[turn]) if turn in p.record.opened else p.now
    due = schedule.deadline(opened, turn)
    _commit_game_masters_edits(p)
    with transaction(p.root, f"run: deadline {turn}", notify=p.log) as txn:
        write_deadline(game, turn, due)
        p.record.opened.setdefault(turn, iso(opened))
        save_record(game, p.record)
        txn.commit(f"Deadline of {turn}: {iso(due)}", [GAME_FILE, *RECORD_FILES], git=is_git_repo(p.root))
    p.log(f"deadline {turn}: {iso(due)} (opened {iso(opened)})")


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


def _commit_game_masters_edits(p: Pass) -> None:
    """Edits the game master left uncommitted in game.yaml go in a commit of their own
    before the judge writes a deadline there, so that its commit holds its change alone."""
    from moonshine.game.git import git_commit

    if is_git_repo(p.root) and git_commit(p.root, f"{GAME_FILE}: the game master's edits", [GAME_FILE]):
        p.log(f"committed the game master's edits to {GAME_FILE} before writing a deadline there")


def move_for_absence(p: Pass, schedule: Schedule, turn: str) -> None:
    """The deadline moved past the absences of the gangs it waits for (by at most
    ``schedule.absence``), once, from the deadline the schedule gave."""
    from moonshine.game.deadlines import write_deadline, zone_of
    from moonshine.mail.commands.absence import load, moved

    game = p.game
    due = deadline(game.config, turn)
    if due is None:
        return
    scheduled = parse_iso(p.record.scheduled[turn]) if turn in p.record.scheduled else due
    waiting = set(expected(game, turn))
    away = [a for side, items in load(game).items() if side in waiting for a in items]
    new = moved(scheduled, away, schedule.absence, zone_of(game.config, None))
    if new <= due:
        return
    _commit_game_masters_edits(p)
    with transaction(p.root, f"run: deadline {turn}", notify=p.log) as txn:
        write_deadline(game, turn, new)
        p.record.scheduled.setdefault(turn, iso(scheduled))
        save_record(game, p.record)
        txn.commit(
            f"Deadline of {turn} moved for an absence: {iso(new)}", [GAME_FILE, *RECORD_FILES], git=is_git_repo(p.root)
        )
    p.log(f"deadline {turn} moved for an absence: {iso(new)} (was {iso(due)})")


def closes(game: Game, schedule: Schedule | None, turn: str, now: datetime) -> tuple[datetime | None, list[str]]:
    """When ``turn`` is adjudicated (None: no deadline), and who is missing (a side in
    civil disorder is waited for by nobody: the civil-disorder player writes its orders)."""
    due = deadline(game.config, turn)
    from moonshine.mail.commands.absence import absent_sides
    from moonshine.mail.disorder import in_disorder

    away = absent_sides(game, due) if due is not None else set()
    waiting = missing(game, turn, expected(game, turn), away | in_disorder(game, turn))
    if due is None:
        return None, waiting
    grace = schedule.grace if schedule is not None else None
    if grace and waiting:
        return due + grace, waiting
    return due, waiting


# -- the mailbox ---------------------------------------------------------------------------------


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


# -- reminders -------------------------------------------------------------------------------------

REMIND: Catalogue = {
    "judge.remind.subject": "{prefix} Reminder: {turn}, orders for {gang}",
    "judge.remind.missing": "The judge has no orders from {gang} for {turn} yet.",
    "judge.remind.rejected": (
        "Your orders for {turn} have {n} rejected line: that unit holds unless you send a corrected "
        "complete file (the acknowledgement you received names the line and why).",
        "Your orders for {turn} have {n} rejected lines: those units hold unless you send a corrected "
        "complete file (the acknowledgement you received names each line and why).",
    ),
    "judge.remind.deadline": "The deadline is {due} ({left}).",
    "judge.remind.grace": "Whoever has sent no orders by then gets {grace} more; after that their units hold.",
}


def _say(lang: str, key: str, **fields: object) -> str:
    lang = lang if lang in languages() else "en"
    return fill(lang, keyed(lang, REMIND, f"judge.remind.{key}", fields.get("n")), **fields)


def remind(p: Pass, schedule: Schedule, turn: str) -> None:
    """The reminders that are due, each once: to the sides with no orders and to
    those whose orders have rejected lines."""
    from moonshine.game.deadlines import deadline_text
    from moonshine.mail.commands.absence import absent_sides
    from moonshine.mail.status import turn_status

    game = p.game
    due = deadline(game.config, turn)
    if due is None:
        return
    slots = schedule.reminders_due(p.now, due, [parse_iso(x) for x in p.record.reminded.get(turn, [])])
    if not slots:
        return
    cfg = game.config
    status = turn_status(game, turn, now=p.now)
    waiting = set(expected(game, turn)) - absent_sides(game, due)
    slot = max(slots)  # a run that missed several reminder times sends one reminder
    out: list[outbox.Outgoing] = []
    for g in status.gangs:
        if g.gang not in waiting or not g.addresses:
            continue
        if g.has_orders and not g.rejected:
            continue
        lang = player_language(cfg, g.gang)  # the player's own language, else the game's
        name = cfg.players[g.gang].name if g.gang in cfg.players and cfg.players[g.gang].name else g.name
        # the turn in the reader's words: a Moonshine turn, or a classic phase (which
        # subject_turn leaves as named, and its sentences write as in a subject)
        named = game.layout.turn_in_text(turn)
        in_sentence = mailwords.shown(lang, named)
        in_subject = mailwords.subject_turn(lang, turn)
        if in_subject == turn:  # a classic phase: its label ("Printemps 1901" in French)
            in_subject = named.text(lang) if isinstance(named, Localized) else str(named)
        first = (
            _say(lang, "rejected", turn=in_sentence, n=g.rejected)
            if g.has_orders
            else _say(lang, "missing", gang=g.name, turn=in_sentence)
        )
        when = _say(lang, "deadline", due=deadline_text(cfg, g.gang, due, lang), left=status.time_left(lang))
        grace = f" {_say(lang, 'grace', grace=_duration(schedule.grace))}" if schedule.grace else ""
        body = (
            f"{name},\n\n{first}\n{when}{grace}\n\n"
            + mailwords.text(lang, "remind.default" + families.of(game).messages)
            + "\n\n-- \n"
            + mailwords.text(lang, "signature", title=cfg.title)
            + "\n"
        )
        stamp = slot.strftime("%Y%m%dt%H%M")
        msg = compose.text_message(
            sender=from_address(cfg),
            to=list(g.addresses),
            subject=_say(lang, "subject", prefix=compose.subject_prefix(cfg), turn=in_subject, gang=g.name),
            body=body,
            msg_id=compose.message_id(cfg, turn, "remind", g.gang, iso(slot)),
            date=p.now,
            reply_to=from_address(cfg),
        )
        out.append(outbox.Outgoing(f"remind-{g.gang.lower()}-{stamp}.eml", msg))
    with transaction(p.root, f"run: remind {turn}", notify=p.log) as txn:
        outbox.write_outbox(game, turn, out)
        done = p.record.reminded.setdefault(turn, [])
        done += [iso(s) for s in slots if iso(s) not in done]
        save_record(game, p.record)
        txn.commit(f"Reminders for {turn}", [*RECORD_FILES, f"outbox/{turn}"], git=is_git_repo(p.root))
    who = ", ".join(m.name for m in out) or "nobody (every gang has orders)"
    p.log(f"remind {turn} ({iso(slot)}): {who}")


def _duration(d: Any) -> str:
    hours = int(d.total_seconds() // 3600)
    minutes = int(d.total_seconds() % 3600 // 60)
    return f"{hours} h {minutes:02d}" if minutes else f"{hours} h"


# -- adjudication and reports ----------------------------------------------------------------------


# How long past its time an adjudication waits for messages received before the deadline
# and held unread (too many wrong passwords in a pass: moonshine.mail.inbox.outcome.HELD):
# each later pass reads them first, so an owner's orders sent behind forged guesses count.
HOLD_LIMIT = timedelta(hours=1)


def adjudicate_if_due(p: Pass, schedule: Schedule | None, turn: str, *, asked: bool = False) -> None:
    """At the deadline (and the grace), or before it when every side with a player is
    ready, or when a master asked for it now (``asked``: ``process``) and every side the
    judge waits for has orders: the missed-turn policy's work first
    (``before_adjudication``), then the turn."""
    from moonshine.mail.commands.ready import everyone_ready

    game = p.game
    end, waiting = closes(game, schedule, turn, p.now)
    nothing_to_order = not expected(game, turn, players_only=False)  # a classic phase with no retreat, no build
    early = False
    if not nothing_to_order and (end is None or p.now < end):
        if asked and not waiting:
            p.log(f"{turn}: every side has orders; adjudicated now, as a master asked")
        elif not everyone_ready(game, turn):
            return  # before the deadline (and the grace), or no deadline at all
        early = True
    due = deadline(game.config, turn)
    held = [when for when in p.held if due is None or when <= due]
    if held and (early or (end is not None and p.now < end + HOLD_LIMIT)):
        p.log(
            f"adjudication of {turn} waits: {len(held)} message(s) received before the deadline are held "
            "unread (too many wrong passwords in this pass) and are read first at the next pass"
        )
        return
    before_adjudication(p, turn, early=early)
    late = f"; no orders from {', '.join(waiting)} (they hold)" if waiting else ""
    how = (" early, as a master asked" if asked else " early: every player was ready") if early else ""
    families.of(game).adjudicate(game, turn, now=p.now, notify=p.log, force=early)
    p.log(f"adjudicated {turn}{how}{late}; next: {game.current_turn()}")
    game.forget_config()


def before_adjudication(p: Pass, turn: str, *, early: bool) -> None:
    """What the missed-turn policy does at the deadline (``moonshine.mail.disorder.at_deadline``:
    the civil-disorder player's orders, the sides put in civil disorder, the players
    removed, each told) and the turn's news of an early turn (whose deadline becomes
    now: what is received after it is for the next turn), in one transaction just
    before the adjudication; a game that needs a secret seed for its civil-disorder
    player and has none gets one first, committed before it is drawn from."""
    from moonshine.game import news
    from moonshine.game.civil_disorder import ensure_secret
    from moonshine.mail import disorder
    from moonshine.mail.policy import policy_of

    game = p.game
    policy = policy_of(game)
    if any(s.disorder for s in disorder.standings(game, turn, policy).values()):
        made = ensure_secret(game, notify=p.log)
        if made is not None:
            p.log(f"a secret seed for the civil-disorder player, its SHA-256 published in {GAME_FILE}: {made}")
    _commit_game_masters_edits(p)
    with transaction(p.root, f"run: the deadline of {turn}", notify=p.log) as txn:
        done = disorder.at_deadline(game, turn, p.now, policy)
        if early:  # the turn closes now: mail received after this is the next turn's
            from moonshine.game.deadlines import write_deadline

            write_deadline(game, turn, p.now)
            news.put(game, turn, "early", "news.early", when=p.now)
        else:
            news.drop(game, turn, "early")  # a turn rolled back, then run at its deadline
        paths = [f"orders/{turn}", f"outbox/{turn}", GAME_FILE, disorder.FILE]
        txn.commit(
            f"{turn}: civil disorder and the turn's news, before the adjudication", paths, git=is_git_repo(p.root)
        )
    game.forget_config()
    for line in done.lines():
        p.log(line)


def observe_players(p: Pass, turn: str) -> None:
    """The missed-turn policy's record in step with game.yaml's players
    (``moonshine.mail.disorder.observe``): a side with a new player (a takeover) counts
    from this turn, and its civil disorder, if any, is over (the bulletin says so)."""
    from moonshine.game import news
    from moonshine.mail import disorder

    game = p.game
    record = disorder.load(game)
    before = disorder.copy(record)
    taken = disorder.observe(game, record, turn)
    if record == before:
        return
    was = disorder.standings(game, turn, record=before) if before.sides else {}
    with transaction(p.root, "run: the players the missed-turn policy counts", notify=p.log) as txn:
        disorder.save(game, record)
        for side in taken:
            if side in was and was[side].disorder:
                news.put(game, turn, f"taken-{side}", "news.taken", side=side)
        txn.commit(
            "The players as the missed-turn policy counts them",
            [disorder.FILE, f"orders/{turn}"],
            git=is_git_repo(p.root),
        )
    for side in taken:
        p.log(f"{side} has a new player: the missed-turn policy counts from {turn}")


def players_paused(p: Pass) -> bool:
    """Whether a pause the players voted holds the game now."""
    from moonshine.mail.commands.timevotes import current_pause

    return current_pause(p.game, p.now) is not None


def apply_time_votes(p: Pass, turn: str) -> None:
    """What the players' passed votes on time ask of the turn's deadline
    (``moonshine.mail.commands.timevotes.apply``), in one transaction."""
    from moonshine.mail.commands import timevotes

    if not timevotes.due_to_apply(p.game, turn, p.now):
        return
    _commit_game_masters_edits(p)
    with transaction(p.root, "run: the players' votes on time", notify=p.log) as txn:
        lines = timevotes.apply(p.game, turn, p.now)
        paths = [GAME_FILE, "votes.yaml", f"orders/{turn}", f"outbox/{turn}"]
        txn.commit(f"{turn}: the players' votes on time", paths, git=is_git_repo(p.root))
    for line in lines:
        p.log(line)


def mail_reports_left(p: Pass) -> None:
    """The reports of the last adjudicated turn go to the outbox once (a run killed
    after adjudicating, before this, leaves it to the next run)."""
    game = p.game
    last = previous_turn(game, game.current_turn())
    if last is None or last in p.record.mailed:
        return
    if not (game.turn_dir(last) / REPORTS).is_dir():
        return
    with transaction(p.root, f"run: mail {last}", notify=p.log) as txn:
        built = report_messages(game, last)
        outbox.write_outbox(game, last, built.messages)
        p.record.mailed.append(last)
        save_record(game, p.record)
        txn.commit(f"Mail for {last}", [*RECORD_FILES, f"outbox/{last}"], git=is_git_repo(p.root))
    for w in built.warnings:
        p.log(f"warning: {w}")
    p.log(f"reports of {last} in the outbox: {len(built.messages)} message(s)")


def reveal_identities(p: Pass) -> list[str]:
    """An anonymous game over tells each player who played which side, once
    (``moonshine.mail.identities``); returns the mails written (none for a game that
    reveals nothing, or not yet over). A game of a judge for many games (``judge:`` in
    its game.yaml) leaves it to its judge, which tells its players from its own outbox
    with the tokens of the draw (``moonshine.host.games.queue_identities``): a ``moonshine
    run`` in its folder by its master, before or after the judge's pass, mails none."""
    from moonshine.game import identities
    from moonshine.mail.identities import write_reveal
    from moonshine.mail.outbox.compose import game_name

    game = p.game
    if not identities.of(game.config).to_reveal or not is_over(game, game.current_turn()):
        return []
    if game_name(game.config) is not None:
        p.log("the game is over: its judge tells the players who played which side")
        return []
    turn = game.current_turn()
    with transaction(p.root, "run: identities", notify=p.log) as txn:
        written = write_reveal(game, p.now)
        txn.commit("The game is over: who played which side", ["game.yaml", f"outbox/{turn}"], git=is_git_repo(p.root))
    p.log(f"identities revealed to the players: {', '.join(written) or 'no player with an address'}")
    return written


def vote_notices(p: Pass, turn: str) -> None:
    """The notices the draw and concession votes owe now (``moonshine.mail.commands.votes.due``):
    opening, reminder, and how each ended; each written once, delivered below."""
    from moonshine.mail.commands import votes

    if not votes.due(p.game, p.now, turn):
        return
    with transaction(p.root, "run: vote notices", notify=p.log) as txn:
        written = votes.write_due(p.game, p.now, turn)
        txn.commit("Vote notices", [f"outbox/{turn}"], git=is_git_repo(p.root))
    p.log(f"vote notices {turn}: {', '.join(name for _, name in written)}")


# -- delivery ------------------------------------------------------------------------------------


def is_error_mail(name: str) -> bool:
    """An outbox file of the judge's own errors, to the game master."""
    return name.startswith("error-")


def describe(game: Game, turn: str, name: str, addr: str) -> str:
    """A delivery, as the game master knows it: the turn, the message's subject and
    file, the address and the side whose player it is."""
    subject = ""
    with suppress(OSError):
        subject = " ".join(str(outbox.load_message(ledger.outbox_dir(game, turn) / name).get("Subject", "")).split())
    sides = [s for s in game.config.players if addr in player_addresses(game.config, s)]
    who = f"{addr} (player of {', '.join(sides)})" if sides else addr
    what = f'"{subject}" ({turn}/{name})' if subject else f"{turn}/{name}"
    return f"{what} to {who}"


def mail_turns(game: Game) -> list[str]:
    """The turns whose outbox a pass delivers: the current and the previous one, and
    an older one with a delivery deferred after a transient failure."""
    cur = game.current_turn()
    turns = [t for t in (previous_turn(game, cur), cur) if t is not None]
    base = game.root / "outbox"
    every = game.turns()
    older = []
    if base.is_dir():
        for path in base.glob(f"*/{ledger.SENT_FILE}"):
            turn = path.parent.name
            if turn not in turns and turn in every and ledger.has_deferrals(path.parent):
                older.append(turn)
    return sorted(older, key=every.index) + turns


def deliver(p: Pass) -> None:
    """Send what the outbox holds for the current and the previous turn. The game
    master hears, in one error, of every report not delivered for good (refused, or
    failing for ``ledger.GIVE_UP``) and of every delivery of unknown outcome (a pass
    killed while sending); a transient failure is tried again by a later pass. A
    failure of the game master's own error mail is written to the log only."""
    from moonshine.mail.outbox.smtp import send_files

    game = p.game
    if not config_section(game.config, "smtp"):
        return
    lost: list[str] = []  # not delivered, for good
    unsure: list[str] = []  # the server may have it
    own: list[str] = []  # the game master's own error mail
    for turn in mail_turns(game):
        folder = ledger.outbox_dir(game, turn)
        names = outbox.pending(folder, p.now)
        left = ledger.interrupted(ledger.outbox_dir(game, turn))
        if not names and not left:
            continue
        forward = (f"Mail sent for {turn}", [f"outbox/{turn}"], is_git_repo(p.root))
        with transaction(p.root, f"run: send {turn}", wait=60, notify=p.log, forward=forward):
            settled = ledger.settle_interrupted(ledger.outbox_dir(game, turn))
            results = send_files(game, turn, outbox.pending(folder, p.now), now=p.now) if names else []
        for name, addr, why in settled:
            line = f"{describe(game, turn, name, addr)}: outcome unknown ({why}); not sent again"
            p.log(f"interrupted {turn}/{name} to {addr}: outcome unknown; not sent again")
            (own if is_error_mail(name) else unsure).append(line)
        for r in results:
            if r.delivered:
                whom = "error mail delivered to the game master" if is_error_mail(r.name) else "sent"
                p.log(f"{whom} {turn}/{r.name} to {', '.join(r.delivered)}")
            for addr, why in sorted(r.transient().items()):
                p.log(f"deferred {turn}/{r.name} to {addr}: {why}; tried again from {r.deferred[addr]}")
            for addr, why in sorted(r.permanent().items()):
                line = f"{describe(game, turn, r.name, addr)} was not delivered: {why}"
                (own if is_error_mail(r.name) else lost).append(line)
            for addr, why in sorted(r.unknown.items()):
                line = f"{describe(game, turn, r.name, addr)}: outcome unknown ({why}); not sent again"
                (own if is_error_mail(r.name) else unsure).append(line)
    for line in own:  # an error about an error mail would be mailed to the same address
        p.failed_steps.add("deliver")
        p.log(f"ERROR deliver: the error mail for the game master: {line}")
    parts = []
    if lost:
        parts.append("Not delivered, and not tried again:\n" + "\n".join(f"- {x}" for x in lost))
    if unsure:
        parts.append(
            "Perhaps delivered: the server may have these messages; ask the players whether they got them "
            "('moonshine mail TURN --send --resend-unknown' sends them again):\n" + "\n".join(f"- {x}" for x in unsure)
        )
    if parts:
        p.error("deliver", "\n\n".join(parts), fails=bool(lost))
