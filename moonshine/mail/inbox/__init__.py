"""Play by email, the receiving side: read orders from a mailbox (a Maildir, an
mbox file, a folder of ``.eml`` files or one ``.eml`` file), check who sent
them, save them as ``orders/TURN/GANG.txt`` and answer every message.

A submission is a plain-text message (or a ``text/plain`` attachment) with::

    gang: valley
    password: the gang's password
    H LOO - NSS
    ...

It is accepted when the ``gang:`` line names a gang of the game, the sender's
address is one of that gang's addresses in game.yaml, the password matches the
stored hash, and it was received before the turn's deadline (unless the game
master allows late orders). An accepted submission replaces the gang's earlier
ones (R12); every accepted submission is kept in ``orders/TURN/history/``.
Nothing else ever changes an order file.

HTML-only mail is read: its text is taken from the HTML (block elements and
line breaks become new lines). Quoted lines (``>``), the signature (after a
``-- `` line) and the password line are left out of the saved orders.

The time a message was received is the date of its top ``Received:`` line (set
by the game master's own mail server), or, without one, its ``Date:`` line, or,
without either, the time it is processed. Mail received before the previous
turn's deadline is refused as meant for an earlier turn.

Every message is answered in the outbox (``outbox/TURN/reply-*.eml``) except
duplicates, automatic replies and bounces, and messages with no sender address.
Replies and reminders are written in the game's language (``language`` in
game.yaml, words in ``moonshine.render.mailwords``); the lines for the game master and
the log stay in English.
Processed Message-IDs are logged in ``orders/TURN/inbox.yaml``; a message found
in any turn's log is never processed again.
"""

from __future__ import annotations

import gc
import json
from collections.abc import Callable, Collection
from datetime import UTC, datetime
from pathlib import Path

from moonshine.errors import GameError
from moonshine.game import families, ledger, masking
from moonshine.game.directory import Game, atomic_write_text, deadline
from moonshine.game.lock import game_lock
from moonshine.mail import imap
from moonshine.mail.envelope import FUTURE_SLACK
from moonshine.mail.inbox.accept import process_one
from moonshine.mail.inbox.context import REPLIES_PER_ADDRESS, REPLIES_PER_DAY, Budget, Context, LogBudget
from moonshine.mail.inbox.outcome import HELD, Outcome
from moonshine.mail.inbox.reading import Head, Reading, head, read
from moonshine.mail.inbox.replies import warn_of_guessing
from moonshine.mail.inbox.turnlog import (
    ACCEPTED,
    HISTORY,
    JOURNAL,
    REJECTED,
    SUPERSEDED,
    load_log,
    log_path,
    recover_journal,
    save_log,
    seen_before,
)
from moonshine.mail.settings import authserv_id, imap_box, max_message_bytes
from moonshine.mail.sources import Entry, Incoming, imap_entries, source_entries
from moonshine.render.mailwords import phrase
from moonshine.text.chatter import ChatterTest


def process(
    game: Game,
    source: Path | str,
    *,
    turn: str | None = None,
    late_ok: bool = False,
    now: datetime | None = None,
    accept: str | None = None,
    grace_for: Collection[str] = (),
) -> list[Outcome]:
    """Process every message of ``source`` for ``turn`` (default: the current
    turn), oldest first. ``grace_for``: the sides still missing in the grace after
    the deadline, whose late orders are taken (the others' are late). Saves orders, logs every message, writes replies.
    ``source``: a Maildir, an mbox, a folder of ``.eml`` files, or an IMAP
    mailbox (``imaps://USER@HOST/FOLDER``, ``imap://`` with STARTTLS), whose
    messages are moved to the judged folder once their outcome is saved: a run
    killed before that reads them again and knows them as already processed.

    ``accept``: the Message-ID of one message the game master takes (late, or
    refused before): only that message is read, whatever its time and even if
    it was processed before, with the same checks of sender and password and the
    same parsing and masking as any other.

    Holds the game's lock (``moonshine.game.lock``): no adjudication runs
    meanwhile, and a message for a turn already adjudicated is not accepted."""
    turn = turn or game.current_turn()
    game.turn_key(turn)  # a turn, or a classic game's phase; else a GameError
    with game_lock(game.root, job=f"inbox {turn}", wait=LOCK_WAIT):
        if isinstance(source, str) and imap.is_imap_url(source):
            with imap_box(game.config, game.root, source) as box:
                entries = imap_entries(box)
                return _process(game, entries, source, turn, late_ok or accept is not None, now, accept, grace_for)
        path = Path(source)
        entries = source_entries(path)
        return _process(game, entries, str(path), turn, late_ok or accept is not None, now, accept, grace_for)


LOCK_WAIT = 60.0  # seconds the inbox waits for another job on the same game


def process_entries(
    game: Game,
    entries: list[Entry],
    *,
    turn: str | None = None,
    now: datetime | None = None,
    grace_for: Collection[str] = (),
    paused: bool = False,
    host_lines: Callable[[str], bool] | None = None,
    authserv: str | None = None,
    budget: Budget | None = None,
) -> list[Outcome]:
    """``process`` for messages a judge for many games read in its own mailbox and
    found for this game (``moonshine.host.run``): each is done as any other,
    and its ``game:`` line (the judge's, naming this game) is no order, nor a line
    ``host_lines`` says the judge read (a command of its lobby). ``paused``: its
    master paused the game (the replies say so where they would give the deadline).
    ``authserv``: the judge's trusted mail server (its ``inbox.authserv_id``), over
    the game's own; ``budget``: the judge's daily budget of mail to unproven addresses."""
    turn = turn or game.current_turn()
    game.turn_key(turn)
    with game_lock(game.root, job=f"inbox {turn}", wait=LOCK_WAIT):
        return _process(
            game,
            entries,
            "the judge's mailbox",
            turn,
            False,
            now,
            None,
            grace_for,
            judged=True,
            paused=paused,
            host_lines=host_lines,
            authserv=authserv,
            budget=budget,
        )


def is_closed(game: Game, turn: str) -> bool:
    """Whether ``turn`` is adjudicated, or being adjudicated (either half of the
    adjudication is on disk): orders for it are no longer taken."""
    from moonshine.game.jobs import RESULTS_FILE

    nxt = game.layout.turn_after(turn)  # None for a classic phase: the one after depends on the outcome
    return (game.turn_dir(turn) / RESULTS_FILE).is_file() or (nxt is not None and game.state_path(nxt).is_file())


def _process(
    game: Game,
    entries: list[Entry],
    source: str,
    turn: str,
    late_ok: bool,
    now: datetime | None,
    accept: str | None = None,
    grace_for: Collection[str] = (),
    *,
    judged: bool = False,
    paused: bool = False,
    host_lines: Callable[[str], bool] | None = None,
    authserv: str | None = None,
    budget: Budget | None = None,
) -> list[Outcome]:
    log = load_log(game, turn)
    recover_journal(game, turn, log)
    ids, digests, keys = seen_before(game)
    clock = now or datetime.now(UTC).replace(microsecond=0)
    ctx = Context(
        game=game,
        turn=turn,
        st=game.load_any_state(turn),
        now=clock,
        late_ok=late_ok,
        due=deadline(game.config, turn),
        previous_due=_previous_deadline(game, turn),
        limit=max_message_bytes(game.config),
        authserv=authserv or authserv_id(game.config),
        grace_for=frozenset(grace_for),
        seen=ids,
        log=log,
        chatter=_chatter(game),
        closed=is_closed(game, turn),
        accepting=accept is not None,
        judged=judged,
        paused=paused,
        host_lines=host_lines,
        budget=budget if budget is not None else LogBudget(log, clock, REPLIES_PER_ADDRESS, REPLIES_PER_DAY),
    )
    # A message the source still holds from an earlier pass is known by its key and not
    # read again: an idle pass over a kept mailbox reads no mail.
    known = 0
    if accept is None:
        fresh = [e for e in entries if e.key is None or e.key not in keys]
        known, entries = len(entries) - len(fresh), fresh
    # First pass: one message at a time, only what sorting and skipping need.
    heads = [head(entry, i, ctx.authserv) for i, entry in enumerate(entries)]
    if accept is not None:
        heads = [h for h in heads if h.message_id == accept.strip()]
        if not heads:
            raise GameError(f"{source}: no message with Message-ID {accept.strip()}")
    # Mail the trusted server vouches for first (no forger's guess can queue ahead of it),
    # then by the time received: a message held by an earlier pass comes before later mail.
    far_future = datetime.max.replace(tzinfo=UTC)
    heads.sort(key=lambda h: (not h.vouched, h.received or far_future, h.index))
    outcomes: list[Outcome] = [Outcome("duplicate", "", "", "", None, "already processed")] * known
    held: set[int] = set()  # the heads of messages held unread: left in the source for the next pass
    journal = game.orders_dir(turn) / JOURNAL
    journal.parent.mkdir(parents=True, exist_ok=True)
    with journal.open("a", encoding="utf-8") as out:
        for h in heads:
            already = h.message_id in ids if accept is None else _accepted_before(ctx, h.message_id)
            if (h.digest and h.digest in digests and accept is None) or already:
                outcomes.append(Outcome("duplicate", h.entry.origin, h.message_id, "", None, "already processed"))
                continue
            outcome, r = _process_entry(ctx, h)
            # The mail library's parsed message is full of reference cycles, which the
            # young generations' collection frees now (not the cyclic collector's next
            # full pass, rare with the command line's thresholds): the memory a run
            # takes stays that of one message, not of every message read so far.
            gc.collect(1)
            if outcome.status == HELD:  # not read: never logged, read again at the next pass
                held.add(h.index)
                outcomes.append(outcome)
                continue
            if h.digest:
                digests.add(h.digest)
            if r.checked:
                ids.add(h.message_id)
            sub = {
                "message_id": r.message_id,
                "digest": h.digest,
                "source_key": h.entry.key,
                "checked": r.checked,
                "from": r.sender,
                "gang": outcome.gang,
                "about": outcome.about,
                "received": r.received.isoformat() if r.received else None,
                "processed": ctx.now.isoformat(),
                "outcome": outcome.status,
                "refusal": outcome.refusal,
                "reason": outcome.reason,
                "reply": outcome.reply,
            }
            if accept is not None:
                sub["taken_by"] = "game master (inbox --accept)"
            ctx.log.submissions.append(sub)
            current = ctx.log.current.get(outcome.gang) if outcome.status == ACCEPTED and outcome.gang else None
            out.write(json.dumps({"submission": sub, "current": current}, default=str) + "\n")
            out.flush()
            outcomes.append(outcome)
    warn_of_guessing(ctx)
    if ctx.log.submissions or log_path(game, turn).is_file():  # a turn with no mail yet has no log
        save_log(game, turn, ctx.log)
    journal.unlink()
    protect_orders(game, turn)
    from moonshine.mail.commands import votes

    votes.write_due(game, ctx.now, turn)  # a proposal opened or decided by this run's votes: its notices
    if accept is None:  # every message's outcome is saved: the source may let go of them
        for h in heads:
            if h.entry.done is not None and h.index not in held:
                h.entry.done()
    return outcomes


def protect_orders(game: Game, turn: str) -> list[Path]:
    """Mask the password lines of the turn's orders files and history (a file the
    game master placed by hand keeps its ``password:`` line), so that no commit
    and no report ever holds a password. Returns the files changed."""
    base = game.orders_dir(turn)
    files = sorted(base.glob("*.txt")) + sorted((base / HISTORY).glob("*.txt"))
    return masking.mask_files(files, atomic_write_text)


def _accepted_before(ctx: Context, message_id: str) -> bool:
    return any(
        s.get("message_id") == message_id and s.get("outcome") in (ACCEPTED, SUPERSEDED) for s in ctx.log.submissions
    )


def _process_entry(ctx: Context, h: Head) -> tuple[Outcome, Reading]:
    """Read one message in full (second pass) and answer it."""
    try:
        raw = h.entry.load()
    except Exception as exc:
        r = Reading(
            Incoming(b"", h.entry.origin), h.message_id, problem=phrase("reject.unreadable", error=type(exc).__name__)
        )
        return Outcome(REJECTED, h.entry.origin, h.message_id, "", None, "the message could not be read again"), r
    r = read(Incoming(raw, h.entry.origin), ctx.limit)
    r.digest = h.digest
    if r.received is not None and not r.by_server and r.received > ctx.now + FUTURE_SLACK:
        r.received = None  # a sender's date in the future is not believed: the time of reading is used
        r.future = True
    return process_one(ctx, r), r


def _previous_deadline(game: Game, turn: str) -> datetime | None:
    """The deadline of the turn (or phase) before ``turn``: orders sent before it
    were meant for that one."""
    before = game.layout.turn_before(turn, game.turns())
    return deadline(game.config, before) if before is not None else None


def _chatter(game: Game) -> ChatterTest:
    return families.of(game).chatter_test(game)


REPLY_KINDS = ("reply-", "press-", "vote-", "observe-", "predict-")  # what the inbox's commands write to the outbox


def reply_files(game: Game, turn: str) -> list[str]:
    """The turn's replies in the outbox, by name, with the press, vote notices
    and requests the messages' commands wrote."""
    base = ledger.outbox_dir(game, turn)
    return sorted(p.name for p in base.glob("*.eml") if p.name.startswith(REPLY_KINDS)) if base.is_dir() else []
