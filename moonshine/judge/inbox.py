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

import functools
import gc
import hashlib
import json
import re
from collections import Counter
from collections.abc import Collection
from datetime import UTC, datetime
from email import policy
from email.message import EmailMessage, Message
from email.parser import BytesParser
from pathlib import Path
from typing import Any

import msgspec

from moonshine.errors import GameError
from moonshine.game import families
from moonshine.game.directory import Game, atomic_write_text, player_language
from moonshine.game.families.base import OrderCheck as OrderCheck
from moonshine.game.lock import game_lock
from moonshine.judge import commands, dispatch, imap, intake, masking, outbox
from moonshine.judge.envelope import (
    FUTURE_SLACK,
    as_utc,
    find_line,
    forged_verdict,
    header_text,
    is_automatic,
    orders_text,
    received_time,
    received_when,
    sender_of,
    split_lines,
)
from moonshine.judge.passwords import verify_password
from moonshine.judge.sources import Entry, Incoming, imap_box, imap_entries, source_entries
from moonshine.judge.turnlog import (
    ACCEPTED,
    IGNORED,
    JOURNAL,
    REJECTED,
    SUPERSEDED,
    TurnLog,
    load_log,
    log_path,
    recover_journal,
    save_log,
    seen_before,
)
from moonshine.render import mailwords, pages
from moonshine.render.mailwords import Phrase, phrase, subject_turn
from moonshine.text.wrap import line_ranges
from moonshine.variants.moonshine.calendar import Turn
from moonshine.variants.moonshine.chatter import ChatterTest
from moonshine.variants.moonshine.parser import printable

HISTORY = "history"


_GAME_NAME_LINE = re.compile(r"^\s*(?:game|partie)\s*:", re.IGNORECASE)  # a judge for many games' game: line
# The value: its first to last non-blank character, taken run by run; possessive runs
# (*+, ++) are never given back, so a line costs one pass ("(.*?)\s*$" cost one per character).
_GANG_LINE = re.compile(
    r"^\s*+(?:gang|bande|gang name|nom du gang|power|puissance)\s*+:\s*+((?:\S++|\s++(?=\S))*+)\s*+$", re.IGNORECASE
)


def check_orders(
    text: str, game: Game, st: Any, gang: str | None, *, source: str, language: str | None = None
) -> OrderCheck:
    """The one link to the order reader: read ``text`` (as ``gang``'s orders, or
    as the gang its ``gang:`` line names) and write the acknowledgement, with the
    game's rule family (``moonshine.game.families``: a classic game's orders name powers,
    with ``power:`` lines). The acknowledgement is in ``language`` (the reader's),
    else the game's."""
    lang = language or game.config.language
    return families.of(game).check_orders(text, game, st, gang, source=source, language=lang)


class Outcome(msgspec.Struct, frozen=True):
    """What became of one message: one line for the game master."""

    status: str  # accepted, superseded, rejected, ignored, duplicate
    origin: str
    message_id: str
    sender: str
    gang: str | None
    reason: str
    reply: str | None = None  # the answer's file in the outbox
    about: str | None = None  # the gang a refused message named, even when its sender is not that gang's
    refusal: str | None = None  # one of REFUSALS, for a refused message

    def line(self) -> str:
        """One line for the game master's terminal: text a player controls is
        shown with its escape and bidirectional-control characters escaped."""
        who = self.sender or "(no sender)"
        return masking.terminal_safe(f"{self.status:<10} {self.gang or '-':<10} {who}: {self.reason} [{self.origin}]")


# Why messages are refused, as ``status`` counts them per gang.
WRONG_PASSWORD, WRONG_SENDER, LATE, AFTER_ADJUDICATION, OTHER = (
    "wrong password",
    "wrong sender",
    "late",
    "after adjudication",
    "other",
)


REFUSALS = (WRONG_PASSWORD, WRONG_SENDER, LATE, AFTER_ADJUDICATION, OTHER)


_REFUSAL_OF = {
    "reject.wrong_password": WRONG_PASSWORD,
    "reject.too_many_guesses": WRONG_PASSWORD,
    "reject.not_player": WRONG_SENDER,
    "reject.other_gang": WRONG_SENDER,
    "reject.late": LATE,
    "reject.earlier_turn": LATE,
    "reject.adjudicated": AFTER_ADJUDICATION,
}


class _Context(msgspec.Struct):
    game: Game
    turn: str
    st: Any  # a GameState, or a classic game's ClassicState
    now: datetime
    late_ok: bool
    due: datetime | None
    previous_due: datetime | None  # the previous turn's deadline: mail received before it is for that turn
    limit: int
    seen: set[str]
    log: TurnLog
    chatter: ChatterTest
    closed: bool = False  # the turn is adjudicated: orders are kept for the game master, not taken
    accepting: bool = False  # the game master takes this message (inbox --accept)
    history_numbers: dict[str, int] = msgspec.field(default_factory=dict)  # gang -> last history file's number
    orphans: dict[tuple[str, str], Path] | None = None  # (gang, Message-ID) -> history file of a killed run
    reader: str | None = None  # the language of the player whose message is being answered, if not the game's
    authserv: str | None = None  # the trusted server's authserv-id (inbox.authserv_id)
    grace_for: frozenset[str] = frozenset()  # sides still missing in the grace period: their late orders count
    # wrong passwords in this pass, by "gang:KEY" and by "from:ADDRESS" (MAX_WRONG_PASSWORDS)
    wrong: Counter[str] = msgspec.field(default_factory=Counter)
    held: Counter[str] = msgspec.field(default_factory=Counter)  # gang -> messages refused unread after too many
    judged: bool = False  # read by a judge for many games: a "game:" line names this game, and is no order

    def game_over(self) -> bool:
        """A winner, or a draw or concession every surviving side voted (asked when
        orders are about to be taken: a vote in this very message may end the game)."""
        from moonshine.judge import votes

        return bool(self.game.layout.winners(self.st)) or votes.ended(self.game) is not None

    @property
    def language(self) -> str:
        """The language of the reply being written: its player's own
        (``players.GANG.language``), else the game's."""
        return self.reader or self.game.config.language

    def say(self, key: str, /, **fields: object) -> str:
        return mailwords.text(self.language, key, **fields)


class _Reading(msgspec.Struct):
    """One message, as far as it could be read."""

    incoming: Incoming
    message_id: str
    msg: Message | None = None
    sender: str = ""
    subject: str = ""
    received: datetime | None = None
    problem: Phrase | None = None
    own: intake.OwnText | None = None  # the player's own text, once found
    texts: list[tuple[str, str]] = msgspec.field(default_factory=list)  # the texts orders may be in (intake.texts)
    texts_failed: bool = False  # the mail library could not take its texts apart
    secrets: tuple[str, ...] = ()  # what its password lines say, quoted or not: masked in anything written
    checked: bool = False  # its sender and password checked out
    digest: str = ""  # sha256 of its bytes
    future: bool = False  # its date was in the future, so the time of reading was used
    by_server: bool = False  # its time is the game master's server's (Received:), not the sender's (Date:)
    script: commands.Script = msgspec.field(default_factory=commands.Script)  # its commands (moonshine.judge.commands)
    answer: str = ""  # what was done for them, for the reply
    results: list[commands.Result] = msgspec.field(default_factory=list)  # the commands done so far
    later: tuple[commands.Command, ...] = ()  # commands to do once the orders are taken (status)


def _message_id(raw: bytes, msg: Message | None) -> str:
    mid = header_text(msg, "Message-ID") if msg is not None else ""
    return mid if mid else f"<sha256.{hashlib.sha256(raw).hexdigest()[:32]}@no-message-id>"


def _header_block(raw: bytes) -> bytes:
    """The message's header block: its bytes up to the first empty line (all of them
    when it has none)."""
    ends = [i for i in (raw.find(b"\n\n"), raw.find(b"\n\r\n")) if i >= 0]
    return raw[: min(ends) + 1] if ends else raw


def _read(incoming: Incoming, limit: int) -> _Reading:
    parser = BytesParser(policy=policy.default)
    # a message over the limit is refused unread: only its header block is parsed (the
    # mail library holds a parsed text several times over: 55 MB for a 7 MB photo)
    too_big = len(incoming.raw) > limit
    try:
        headers = parser.parsebytes(_header_block(incoming.raw) if too_big else incoming.raw, headersonly=True)
    except Exception as exc:  # malformed mail must never stop the run
        why = phrase("reject.unreadable", error=type(exc).__name__)
        return _Reading(incoming, _message_id(incoming.raw, None), problem=why)
    r = _Reading(incoming, _message_id(incoming.raw, headers), msg=headers)
    r.sender = sender_of(headers)
    r.subject = masking.mask(header_text(headers, "Subject")[:200])
    r.received, r.by_server = received_when(headers)
    if too_big:
        r.problem = phrase("reject.too_big", size=len(incoming.raw), limit=limit)
        return r
    if intake.too_many_parts(incoming.raw):  # refused before its parts are parsed
        r.problem = phrase("reject.too_many_parts", limit=intake.MAX_PARTS, depth=intake.MAX_DEPTH)
        return r
    try:
        r.msg = parser.parsebytes(incoming.raw)
    except Exception as exc:
        r.problem = phrase("reject.not_parsed", error=type(exc).__name__)
        return r
    try:
        r.texts = intake.texts(r.msg)
    except Exception:  # a body that cannot be decoded: no text, and no secret to mask
        r.texts, r.texts_failed = [], True
    r.secrets = tuple(v for _, text in r.texts for v in masking.password_values(text))
    r.subject = masking.mask(r.subject, r.secrets)
    return r


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
            with imap_box(game, source) as box:
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
) -> list[Outcome]:
    """``process`` for messages a judge for many games read in its own mailbox and
    found for this game (``moonshine.judge.judgepass``): each is done as any other,
    and its ``game:`` line (the judge's, naming this game) is no order."""
    turn = turn or game.current_turn()
    game.turn_key(turn)
    with game_lock(game.root, job=f"inbox {turn}", wait=LOCK_WAIT):
        return _process(game, entries, "the judge's mailbox", turn, False, now, None, grace_for, judged=True)


def is_closed(game: Game, turn: str) -> bool:
    """Whether ``turn`` is adjudicated, or being adjudicated (either half of the
    adjudication is on disk): orders for it are no longer taken."""
    from moonshine.game.jobs import RESULTS_FILE

    nxt = game.layout.turn_after(turn)  # None for a classic phase: the one after depends on the outcome
    return (game.turn_dir(turn) / RESULTS_FILE).is_file() or (nxt is not None and game.state_path(nxt).is_file())


class _Head(msgspec.Struct, frozen=True):
    """What the first pass keeps of a message: enough to sort and skip it."""

    entry: Entry
    index: int
    digest: str
    message_id: str
    received: datetime | None


def _head(entry: Entry, index: int) -> _Head:
    try:
        raw = entry.load()
    except Exception:  # gone or unreadable: the second pass says so
        return _Head(entry, index, "", f"<unreadable.{index}@no-message-id>", None)
    digest = hashlib.sha256(raw).hexdigest()
    try:  # the header block alone: the same headers, without the body's copies
        headers = BytesParser(policy=policy.default).parsebytes(_header_block(raw), headersonly=True)
    except Exception:
        return _Head(entry, index, digest, _message_id(raw, None), None)
    return _Head(entry, index, digest, _message_id(raw, headers), received_time(headers))


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
) -> list[Outcome]:
    log = load_log(game, turn)
    recover_journal(game, turn, log)
    ids, digests, keys = seen_before(game)
    ctx = _Context(
        game=game,
        turn=turn,
        st=game.load_any_state(turn),
        now=now or datetime.now(UTC).replace(microsecond=0),
        late_ok=late_ok,
        due=outbox.deadline(game.config, turn),
        previous_due=_previous_deadline(game, turn),
        limit=outbox.max_message_bytes(game.config),
        authserv=outbox.authserv_id(game.config),
        grace_for=frozenset(grace_for),
        seen=ids,
        log=log,
        chatter=_chatter(game),
        closed=is_closed(game, turn),
        accepting=accept is not None,
        judged=judged,
    )
    # A message the source still holds from an earlier pass is known by its key and not
    # read again: an idle pass over a kept mailbox reads no mail.
    known = 0
    if accept is None:
        fresh = [e for e in entries if e.key is None or e.key not in keys]
        known, entries = len(entries) - len(fresh), fresh
    # First pass: one message at a time, only what sorting and skipping need.
    heads = [_head(entry, i) for i, entry in enumerate(entries)]
    if accept is not None:
        heads = [h for h in heads if h.message_id == accept.strip()]
        if not heads:
            raise GameError(f"{source}: no message with Message-ID {accept.strip()}")
    far_future = datetime.max.replace(tzinfo=UTC)
    heads.sort(key=lambda h: (h.received or far_future, h.index))
    outcomes: list[Outcome] = [Outcome("duplicate", "", "", "", None, "already processed")] * known
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
    _warn_of_guessing(ctx)
    if ctx.log.submissions or log_path(game, turn).is_file():  # a turn with no mail yet has no log
        save_log(game, turn, ctx.log)
    journal.unlink()
    protect_orders(game, turn)
    from moonshine.judge import votes

    votes.write_due(game, ctx.now, turn)  # a proposal opened or decided by this run's votes: its notices
    if accept is None:  # every message's outcome is saved: the source may let go of them
        for h in heads:
            if h.entry.done is not None:
                h.entry.done()
    return outcomes


def protect_orders(game: Game, turn: str) -> list[Path]:
    """Mask the password lines of the turn's orders files and history (a file the
    game master placed by hand keeps its ``password:`` line), so that no commit
    and no report ever holds a password. Returns the files changed."""
    base = game.orders_dir(turn)
    files = sorted(base.glob("*.txt")) + sorted((base / HISTORY).glob("*.txt"))
    return masking.mask_files(files, atomic_write_text)


def _accepted_before(ctx: _Context, message_id: str) -> bool:
    return any(
        s.get("message_id") == message_id and s.get("outcome") in (ACCEPTED, SUPERSEDED) for s in ctx.log.submissions
    )


def _process_entry(ctx: _Context, h: _Head) -> tuple[Outcome, _Reading]:
    """Read one message in full (second pass) and answer it."""
    try:
        raw = h.entry.load()
    except Exception as exc:
        r = _Reading(
            Incoming(b"", h.entry.origin), h.message_id, problem=phrase("reject.unreadable", error=type(exc).__name__)
        )
        return Outcome(REJECTED, h.entry.origin, h.message_id, "", None, "the message could not be read again"), r
    r = _read(Incoming(raw, h.entry.origin), ctx.limit)
    r.digest = h.digest
    if r.received is not None and not r.by_server and r.received > ctx.now + FUTURE_SLACK:
        r.received = None  # a sender's date in the future is not believed: the time of reading is used
        r.future = True
    return _process_one(ctx, r), r


class _Reject(Exception):
    """A refused message: why (``reason``, a catalogue phrase), the gang it is
    about if known, and what the player can do (a phrase, or a text already
    written in the game's language such as an acknowledgement)."""

    def __init__(
        self, reason: Phrase, gang: str | None = None, help_text: Phrase | str = "", *, about: str | None = None
    ) -> None:
        super().__init__(reason.text("en"))
        self.phrase = reason
        self.reason = reason.text("en")  # for the game master's lines and the log
        self.gang = gang
        self.help_text = help_text
        self.about = about or gang
        self.refusal = _REFUSAL_OF.get(reason.key, OTHER)


class _Forged(Exception):
    """Mail the trusted server found forged for its From domain: the sender named is not
    who sent it, so it is logged for the game master and never answered."""


class _Unsolicited(Exception):
    """Mail from an address that plays no side, naming no side, with no order, password
    or command in it (spam, mostly): logged for the game master, never answered, so
    the judge sends nothing back to forged senders."""


UNSOLICITED = "not from a player, and no side, order, password or command in it: not answered"


# a line a player writes to the judge: an order (a unit's letter and a place code) or
# the password line; enough to answer a player writing from an unknown address
# (blanks but no line break before the word: "^\s*" read every empty line to the end of the text)
_PLAYERISH = re.compile(r"^[^\S\n]*+(?:[A-Za-z]\s++[A-Za-z]{3}\b|(?:password|mot de passe)\s*+:)", re.I | re.M)


def _looks_like_orders(r: _Reading) -> bool:
    if r.msg is None:
        return True  # unread: the refusal says why
    try:
        return r.texts_failed or any(_PLAYERISH.search(intake.own_text(raw).text) for _, raw in r.texts)
    except Exception:  # a message the mail library cannot take apart is answered as before
        return True


def _process_one(ctx: _Context, r: _Reading) -> Outcome:
    origin = r.incoming.origin
    ctx.reader = None  # the game's language, until the sender is known (_accept)
    if r.msg is not None and is_automatic(r.msg, r.sender):
        return Outcome(IGNORED, origin, r.message_id, r.sender, None, "automatic reply or bounce: not answered")
    if not r.sender:
        why = (r.problem or phrase("reject.no_sender")).text("en")
        return Outcome(REJECTED, origin, r.message_id, "", None, why, refusal=WRONG_SENDER)
    try:
        return _accept(ctx, r)
    except _Unsolicited:
        return Outcome(IGNORED, origin, r.message_id, r.sender, None, UNSOLICITED)
    except _Forged as forged:
        why = f"forged sender: the mail server says {forged} for {r.sender}; not read, not answered"
        return Outcome(REJECTED, origin, r.message_id, r.sender, None, why, refusal=WRONG_SENDER)
    except _Reject as rej:
        if r.later and rej.gang is not None:  # refused orders: the status still answered, as things stand
            try:
                _after_orders(ctx, r, rej.gang)
            except Exception:  # the refusal is answered all the same
                r.later = ()
        if rej.phrase.key == "reject.too_many_guesses":  # not answered: the pass's warning counts it
            return Outcome(REJECTED, origin, r.message_id, r.sender, rej.gang, rej.reason, None, rej.about, rej.refusal)
        # every address of the gang hears of the pass's first wrong password (later ones: the warning)
        first_wrong = rej.phrase.key == "reject.wrong_password" and ctx.wrong[f"gang:{rej.gang}"] == 1
        reply = _reply_or_none(ctx, r, rej.gang, rej, warn_gang=rej.gang if first_wrong else None)
        return Outcome(REJECTED, origin, r.message_id, r.sender, rej.gang, rej.reason, reply, rej.about, rej.refusal)
    except Exception as exc:  # a defect in one message must not stop the others
        failure = _Reject(
            phrase("reject.failed", error=f"{type(exc).__name__}: {exc}"), help_text=phrase("help.failed")
        )
        reply = _reply_or_none(ctx, r, None, failure)
        return Outcome(REJECTED, origin, r.message_id, r.sender, None, failure.reason, reply, refusal=OTHER)


def _reply_or_none(
    ctx: _Context, r: _Reading, gang: str | None, rej: _Reject, *, warn_gang: str | None = None
) -> str | None:
    """The refusal's reply, or None when none can be written for this message (its
    headers defeat the mail library): the refusal is still logged."""
    try:
        body = _rejection_body(ctx, r, rej)
    except Exception:
        return None
    return _reply_safely(ctx, r, gang, body, accepted=False, warn_gang=warn_gang)


def _reply_safely(
    ctx: _Context,
    r: _Reading,
    gang: str | None,
    body: str,
    *,
    accepted: bool,
    warn_gang: str | None = None,
    plain_key: str | None = None,
) -> str | None:
    """``_write_reply``, or None when no reply can be written for this message:
    what became of the message stands and is logged all the same."""
    try:
        return _write_reply(ctx, r, gang, body, accepted=accepted, warn_gang=warn_gang, plain_key=plain_key)
    except Exception:
        return None


def _named_gang(ctx: _Context, r: _Reading) -> str | None:
    """The gang a message's own text names (for the game master's count of
    refused attempts), or None."""
    if r.msg is None:
        return None
    try:
        for _, raw in r.texts:
            named = find_line(_GANG_LINE, intake.own_text(raw).text)
            if named is not None:
                return ctx.game.side_by_name(named)
    except Exception:  # only for the count: never a reason to fail
        return None
    return None


def _gang_names(ctx: _Context) -> str:
    return ", ".join(f"{k} ({name})" for k, name in ctx.game.sides(ctx.language).items())


def _gangs_of(ctx: _Context, sender: str) -> list[str]:
    return [g for g in ctx.game.sides() if sender in {a.lower() for a in outbox.player_addresses(ctx.game.config, g)}]


def _pick_text(ctx: _Context, r: _Reading) -> tuple[str, intake.OwnText, OrderCheck | None]:
    """The player's own text (``moonshine.judge.intake``) of the first candidate whose
    ``gang:`` line names a gang, as the reader sees it; else the first with
    something in it."""
    found: list[tuple[str, intake.OwnText, commands.Script]] = []
    for where, raw in r.texts:
        own, script = _without_commands(ctx, intake.own_text(raw))
        own = intake.ignore_chatter(own, ctx.chatter)
        if own.text.strip() or script:
            found.append((where, own, script))
    for where, own, script in found:
        check = check_orders(
            own.text, ctx.game, ctx.st, None, source=ctx.say("ack.sender", sender=r.sender), language=ctx.language
        )
        if check.header_gang is not None:
            r.script = script
            return where, own, check
    if found:
        r.script = found[0][2]
        return found[0][0], found[0][1], None
    return "body", intake.OwnText("", ()), None


def _without_commands(ctx: _Context, own: intake.OwnText) -> tuple[intake.OwnText, commands.Script]:
    """The text with its command lines (``moonshine.judge.commands``) left empty, as the
    order reader sees it, and the commands."""
    script = commands.read(own.text, ctx.chatter.order_words)
    games = (
        {n for n, line in enumerate(split_lines(own.text), 1) if _GAME_NAME_LINE.match(line)} if ctx.judged else set()
    )
    if not script and not games:
        return own, script
    taken = script.lines() | games
    lines = split_lines(own.text)
    kept = [("" if n in taken else line) for n, line in enumerate(lines, 1)]
    return intake.OwnText("\n".join(kept) + ("\n" if kept else ""), own.dropped, own.original), script


def _commands(
    ctx: _Context, r: _Reading, gang: str | None, some: tuple[commands.Command, ...] | None = None
) -> list[commands.Result]:
    """Do what the message's commands ask (``some`` of them; by default all),
    as ``gang`` (None: a sender who is no player, or whose password was not checked);
    the account of every command done so far goes in the reply, in the message's order."""
    received = min(r.received or ctx.now, ctx.now)
    req = commands.Request(
        game=ctx.game,
        turn=ctx.turn,
        st=ctx.st,
        now=received,
        sender=r.sender,
        gang=gang,
        message_id=r.message_id,
        due=ctx.due,
        secrets=r.secrets,
        processed=ctx.now,
    )
    script = r.script if some is None else commands.Script(some)
    results = dispatch.execute(req, script)
    r.results = sorted([*r.results, *results], key=lambda x: x.command.line)
    r.answer = commands.render(ctx.language, r.results)
    return results


def _after_orders(ctx: _Context, r: _Reading, gang: str) -> None:
    """The commands that report the game (``status``), done once the message's orders
    are taken or refused: they tell the state with this message's orders in it."""
    later, r.later = r.later, ()
    if later:
        _commands(ctx, r, gang, later)


def _commands_only(ctx: _Context, r: _Reading, gang: str | None, results: list[commands.Result]) -> Outcome:
    """The answer to a message with commands and no orders: orders on file stand."""
    received = r.received or ctx.now
    if gang is None:
        lead = ctx.say("reply.commands_stranger", title=ctx.game.config.title, received=received)
    else:
        name = ctx.game.sides(ctx.language)[gang]
        lead = ctx.say("reply.commands", gang=name, turn=_as_turn(ctx.turn), received=received, sender=r.sender)
    body = f"{lead}\n\n{_intake_notes(ctx, r)}\n{_signature(ctx.game, ctx.language)}"
    done = [x.command.name for x in results if x.done]
    refused = [x.command.name for x in results if not x.done]
    reason = "commands: " + "; ".join(
        part
        for part in (f"done {', '.join(done)}" if done else "", f"refused {', '.join(refused)}" if refused else "")
        if part
    )
    reply = _reply_safely(ctx, r, gang, body, accepted=True, plain_key="subject.commands")
    status = ACCEPTED if done else REJECTED
    refusal = None if done else (WRONG_SENDER if gang is None else OTHER)
    return Outcome(status, r.incoming.origin, r.message_id, r.sender, gang, reason, reply, refusal=refusal)


def _accept(ctx: _Context, r: _Reading) -> Outcome:
    cfg = ctx.game.config
    sides = ctx.game.sides()
    own = _gangs_of(ctx, r.sender)
    # the reply speaks the sender's language when the one side they play has chosen its own
    ctx.reader = player_language(cfg, own[0]) if len(own) == 1 else None
    if not own and r.problem is None and r.msg is not None:
        r.own = _pick_text(ctx, r)[1]
        if r.script:  # commands from someone who plays no gang: help, observe, an observer's status
            return _commands_only(ctx, r, None, _commands(ctx, r, None))
    if not own:
        about = _named_gang(ctx, r)
        if about is None and r.problem is None and not _looks_like_orders(r):
            raise _Unsolicited
        raise _Reject(phrase("reject.not_player", sender=r.sender), help_text=phrase("help.address"), about=about)
    if r.problem or r.msg is None:
        raise _Reject(r.problem or phrase("reject.not_read"))
    forged = forged_verdict(r.msg, r.sender, ctx.authserv)
    if forged is not None:  # not the player's: refused before its password is checked, and not answered
        raise _Forged(forged)
    where, r.own, first = _pick_text(ctx, r)
    text = r.own.text
    if not text.strip():
        raise _Reject(phrase("reject.no_text"), help_text=_format_help(own[0], ctx))
    if first is None or first.header_gang is None:
        named = find_line(_GANG_LINE, text)
        if named is None:
            raise _Reject(phrase("reject.no_gang_line"), help_text=_format_help(own[0], ctx))
        raise _Reject(phrase("reject.unknown_gang", named=named[:40], gangs=_gang_names(ctx)))
    gang = first.header_gang
    found = _Side(gang, sides[gang])
    if gang not in own:
        names = ", ".join(sides[g] for g in own)
        raise _Reject(phrase("reject.other_gang", sender=r.sender, own=names, gang=found.name), about=gang)
    stored = cfg.players[gang].password if gang in cfg.players else None
    if not stored:
        raise _Reject(phrase("reject.no_password_set", gang=found.name), gang)
    given = first.password
    if given is None:
        raise _Reject(phrase("reject.no_password_line"), gang, _format_help(gang, ctx))
    if max(ctx.wrong[f"gang:{gang}"], ctx.wrong[f"from:{r.sender}"]) >= MAX_WRONG_PASSWORDS:
        ctx.held[gang] += 1  # refused unread and unanswered: the pass's one warning counts it
        raise _Reject(phrase("reject.too_many_guesses", gang=found.name, n=MAX_WRONG_PASSWORDS), gang)
    try:
        good = verify_password(given, str(stored))
    except ValueError:
        raise _Reject(phrase("reject.password_damaged", gang=found.name), gang) from None
    if not good:
        ctx.wrong[f"gang:{gang}"] += 1
        ctx.wrong[f"from:{r.sender}"] += 1
        raise _Reject(phrase("reject.wrong_password", gang=found.name), gang, phrase("help.impersonation"))
    r.checked = True  # from here on, its Message-ID stands for this message
    if r.script:
        if first.accepted + first.rejected == 0:
            return _commands_only(ctx, r, gang, _commands(ctx, r, gang))
        # with orders: a status tells the state once they are saved (_after_orders)
        r.later = tuple(c for c in r.script.commands if c.name == commands.STATUS)
        _commands(ctx, r, gang, tuple(c for c in r.script.commands if c.name != commands.STATUS))
    turn = _as_turn(ctx.turn)
    if ctx.game_over():
        raise _Reject(phrase("reject.game_over"), gang)
    if ctx.closed:
        kept = _keep(ctx, r, gang, orders_text(text, first.password_lines), where, "after the turn was adjudicated")
        raise _Reject(phrase("reject.adjudicated", turn=turn), gang, phrase("help.adjudicated", kept=kept))
    if first.header_turn is not None and first.header_turn != ctx.turn:
        raise _Reject(phrase("reject.other_turn", named=_as_turn(first.header_turn), turn=turn), gang)
    received = r.received or ctx.now
    if ctx.previous_due is not None and received <= ctx.previous_due:
        raise _Reject(
            phrase("reject.earlier_turn", received=received, previous=ctx.previous_due, turn=turn),
            gang,
        )
    if ctx.due is not None and received > ctx.due and not ctx.late_ok and gang not in ctx.grace_for:
        raise _Reject(phrase("reject.late", received=received, due=ctx.due), gang, phrase("help.late"))
    return _save(ctx, r, gang, text, orders_text(text, first.password_lines), where, received)


def _as_turn(name: str) -> Turn | str:
    """A turn's name as a Turn, written in the reply's language; else as it is."""
    try:
        return Turn.parse(name)
    except ValueError:
        return name


def _orphan_histories(ctx: _Context) -> dict[tuple[str, str], Path]:
    """History files a killed run wrote for messages its log never recorded, by
    gang and Message-ID (read once per run): the message is read again, and its
    file is written again in the same place instead of a second one."""
    if ctx.orphans is None:
        recorded = {str(s.get("message_id")) for s in ctx.log.submissions}
        ctx.orphans = {}
        base = ctx.game.orders_dir(ctx.turn) / HISTORY
        for p in sorted(base.glob("*-*.txt")) if base.is_dir() else ():
            try:
                with p.open(encoding="utf-8", errors="replace") as fh:
                    head = [fh.readline() for _ in range(4)]
            except OSError:
                continue
            ids = [ln[len("# message-id: ") :].strip() for ln in head if ln.startswith("# message-id: ")]
            if ids and ids[0] not in recorded:
                ctx.orphans[(p.stem.rpartition("-")[0], ids[0])] = p
    return ctx.orphans


def _history_path(ctx: _Context, gang: str, message_id: str) -> Path:
    """The file of ``gang``'s history for a message: the one a killed run wrote for
    it, else the next one (the folder is listed once per run)."""
    orphan = _orphan_histories(ctx).get((gang, message_id))
    if orphan is not None:
        return orphan
    base = ctx.game.orders_dir(ctx.turn) / HISTORY
    last = ctx.history_numbers.get(gang)
    if last is None:
        numbers = [0]
        if base.is_dir():
            for p in base.glob(f"{gang}-*.txt"):
                tail = p.stem.rpartition("-")[2]
                if tail.isdigit():
                    numbers.append(int(tail))
        last = max(numbers)
    ctx.history_numbers[gang] = last + 1
    return base / f"{gang}-{last + 1}.txt"


def _meta(r: _Reading, received: datetime, where: str, note: str = "") -> str:
    extra = f"# kept: {note}\n" if note else ""
    return (
        f"# received: {received.isoformat()}\n# from: {r.sender}\n# message-id: {r.message_id}\n"
        f"# read from: {where}\n{extra}"
    )


def _keep(ctx: _Context, r: _Reading, gang: str, text: str, where: str, why: str) -> str:
    """Keep orders that are not taken in the gang's history, for the game master;
    returns the file's path in the game."""
    history = _history_path(ctx, gang, r.message_id)
    atomic_write_text(history, _meta(r, r.received or ctx.now, where, why) + text)
    return history.relative_to(ctx.game.root).as_posix()


def _save(ctx: _Context, r: _Reading, gang: str, sent: str, text: str, where: str, received: datetime) -> Outcome:
    """Save ``text`` (what was ``sent``, password lines blanked) as the gang's
    orders unless a later submission stands. The acknowledgement reads ``sent``
    so that its line numbers are the message's."""
    source = ctx.say("ack.source", sender=r.sender, received=received)  # the acknowledgement's "File:" line
    check = check_orders(sent, ctx.game, ctx.st, gang, source=source, language=ctx.language)
    name = ctx.game.sides(ctx.language)[gang]
    if check.accepted == 0 and check.rejected > 0:
        raise _Reject(phrase("reject.nothing_readable", n=check.rejected), gang, check.acknowledgement)
    standing = ctx.log.current.get(gang)
    standing_at = parse_time(standing.get("received")) if standing else None
    history = _history_path(ctx, gang, r.message_id)
    rel_history = history.relative_to(ctx.game.orders_dir(ctx.turn)).as_posix()
    taken = "taken by the game master (inbox --accept)" if ctx.accepting else ""
    atomic_write_text(history, _meta(r, received, where, taken) + text)
    counts = _Counts(check.accepted, check.rejected)
    turn = _as_turn(ctx.turn)
    if standing_at is not None and received < standing_at:
        _after_orders(ctx, r, gang)
        reason = f"{counts.text('en')}; a later submission (received {outbox.fmt_time(standing_at)}) stands"
        lead = ctx.say("reply.superseded", gang=name, turn=turn, received=received, standing=standing_at)
        reply = _reply_safely(
            ctx, r, gang, _accepted_body(ctx, lead, check, _intake_notes(ctx, r), gang), accepted=True
        )
        return Outcome(SUPERSEDED, r.incoming.origin, r.message_id, r.sender, gang, reason, reply)
    atomic_write_text(ctx.game.orders_dir(ctx.turn) / f"{gang}.txt", text)
    ctx.log.current[gang] = {
        "received": received.isoformat(),
        "message_id": r.message_id,
        "from": r.sender,
        "history": rel_history,
        "accepted": check.accepted,
        "rejected": check.rejected,
    }
    _after_orders(ctx, r, gang)
    replaced = f"; replaces the orders received {outbox.fmt_time(standing_at)}" if standing_at else ""
    lead = ctx.say(
        "reply.accepted", gang=name, turn=turn, received=received, sender=r.sender, counts=counts.text(ctx.language)
    )
    if standing_at:
        lead += "\n" + ctx.say("reply.replaces", standing=standing_at)
    reply = _reply_safely(ctx, r, gang, _accepted_body(ctx, lead, check, _intake_notes(ctx, r), gang), accepted=True)
    return Outcome(ACCEPTED, r.incoming.origin, r.message_id, r.sender, gang, counts.text("en") + replaced, reply)


class _Counts(msgspec.Struct, frozen=True):
    """``3 order(s) read, 1 rejected`` / ``3 ordres lus, 1 ligne rejetée``."""

    accepted: int
    rejected: int

    def text(self, language: str) -> str:
        out = mailwords.text(language, "counts.read", n=self.accepted)
        return out + (mailwords.text(language, "counts.rejected", n=self.rejected) if self.rejected else "")


def parse_time(value: Any) -> datetime | None:
    if isinstance(value, datetime):
        return as_utc(value)
    if isinstance(value, str):
        try:
            return as_utc(datetime.fromisoformat(value))
        except ValueError:
            return None
    return None


def _format_help(gang: str, ctx: _Context | None = None) -> Phrase:
    """How to send orders, with ``gang``'s key in the example (a classic game's
    example has a power and its orders)."""
    messages = families.of(ctx.game).messages if ctx is not None else ""
    return phrase("help.format" + messages, gang=gang)


class _Side(msgspec.Struct, frozen=True):
    key: str
    name: str


def _previous_deadline(game: Game, turn: str) -> datetime | None:
    """The deadline of the turn (or phase) before ``turn``: orders sent before it
    were meant for that one."""
    before = game.layout.turn_before(turn, game.turns())
    return outbox.deadline(game.config, before) if before is not None else None


def _chatter(game: Game) -> ChatterTest:
    return families.of(game).chatter_test(game)


def _deadline_line(ctx: _Context, side: str | None = None) -> str:
    """The deadline, in the zone of ``side``'s player (``moonshine.judge.zones``) and in UTC."""
    if ctx.due is None:
        return ctx.say("deadline.none")
    from moonshine.judge.zones import deadline_text

    left = outbox.describe_time_left(ctx.due, ctx.now, ctx.language)
    return ctx.say("deadline.line", due=deadline_text(ctx.game.config, side, ctx.due, ctx.language), left=left)


def signature_line(game: Game, language: str | None = None) -> str:
    return mailwords.text(language or game.config.language, "signature", title=game.config.title)


def _signature(game: Game, language: str | None = None) -> str:
    return "\n-- \n" + signature_line(game, language) + "\n"


def _intake_notes(ctx: _Context, r: _Reading) -> str:
    """What the mail-reading layer left out of the message, for the reply: quoted
    text, the signature, greetings and sign-offs (each shown as written), lines too long
    to read."""
    own = r.own
    if own is None:
        return ""
    notes: list[str] = []
    chatter = own.lines_dropped(intake.CHATTER)
    if chatter:
        raw = split_lines(own.original)
        shown = [ctx.say("note.line", n=n, text=printable(raw[n - 1].strip(), 40)) for n in chatter if n - 1 < len(raw)]
        notes.append(ctx.say("note.chatter", lines=", ".join(shown)))
    quoted = own.lines_dropped(intake.QUOTED, intake.REPLY_HEADER, intake.COPY)
    if quoted:
        notes.append(ctx.say("note.quoted", lines=line_ranges(quoted)))
    signature = own.lines_dropped(intake.SIGNATURE)
    if signature:
        notes.append(ctx.say("note.signature", line=signature[0]))
    too_long = own.lines_dropped(intake.TOO_LONG)
    if too_long:
        notes.append(ctx.say("note.too_long", lines=line_ranges(too_long), n=intake.MAX_LINE))
    if r.answer:
        notes.append(r.answer)
    return "\n".join(notes)


def _accepted_body(ctx: _Context, lead: str, check: OrderCheck, notes: str = "", side: str | None = None) -> str:
    if ctx.due is None:
        more = ctx.say("reply.open_no_deadline")
    elif ctx.now > ctx.due and side is not None and side in ctx.grace_for:
        more = ctx.say("reply.grace")
    elif ctx.now > ctx.due:
        more = ctx.say("reply.closed")
    else:
        more = ctx.say("reply.open")
    return pages.render(
        "reply_accepted.txt.j2",
        dict(
            lead=lead,
            deadline=_deadline_line(ctx, side),
            more=more,
            ack=check.acknowledgement.rstrip(),
            notes=notes,
            signature=signature_line(ctx.game, ctx.language),
        ),
    )


def _rejection_body(ctx: _Context, r: _Reading, rej: _Reject) -> str:
    when = ctx.say("reply.received_at", received=r.received) if r.received else ""
    # a stranger's own words are never sent back (the judge would relay short spam)
    stranger = not _gangs_of(ctx, r.sender)
    if stranger:
        first = ctx.say("reply.stranger_rejected", when=when, turn=_as_turn(ctx.turn))
    else:
        about = phrase("reply.subject", subject=r.subject) if r.subject else phrase("reply.no_subject")
        first = ctx.say("reply.rejected", about=about, when=when, turn=_as_turn(ctx.turn))
    help_text = rej.help_text.text(ctx.language) if isinstance(rej.help_text, Phrase) else rej.help_text
    return pages.render(
        "reply_rejected.txt.j2",
        dict(
            rejected=first,
            reason=ctx.say("reply.reason", reason=rej.phrase),
            unchanged=ctx.say("reply.unchanged"),
            help=(help_text or "").rstrip(),
            notes=_intake_notes(ctx, r) if not stranger else "",
            deadline=_deadline_line(ctx, rej.gang),
            signature=signature_line(ctx.game, ctx.language),
        ),
    )


def _write_reply(
    ctx: _Context,
    r: _Reading,
    gang: str | None,
    body: str,
    *,
    accepted: bool,
    warn_gang: str | None = None,
    plain_key: str | None = None,
) -> str:
    """The reply to ``r`` in the outbox. Its name and Message-ID come from the
    message's Message-ID once sender and password checked out, else also from
    its content: a forged copy's reply never stands for the real one's.
    ``warn_gang``: a gang whose registered addresses all get the reply too (a
    wrong password sent from one of them)."""
    cfg = ctx.game.config
    key = r.message_id if r.checked or not r.digest else f"{r.message_id} {r.digest}"
    digest = hashlib.sha256(key.encode("utf-8")).hexdigest()[:12]
    name = f"reply-{(gang or 'unknown').lower()}-{digest}.eml"  # outbox names are lower case (a power is FRA)
    plain = ctx.say(
        plain_key or ("subject.accepted" if accepted else "subject.rejected"),
        prefix=outbox.subject_prefix(cfg),
        turn=subject_turn(ctx.language, ctx.turn),
    )
    if not _gangs_of(ctx, r.sender):  # a stranger's subject is not sent back
        subject = plain
    else:
        subject = r.subject if r.subject.lower().startswith("re:") else f"Re: {r.subject}" if r.subject else plain
    cc: list[str] = []
    if accepted and gang is not None:
        cc = [a for a in outbox.player_addresses(cfg, gang) if a.lower() != r.sender]
    elif warn_gang is not None:
        cc = [a for a in outbox.player_addresses(cfg, warn_gang) if a.lower() != r.sender]
    try:
        msg = _reply_message(ctx, r, cc, masking.mask(subject, r.secrets), body, key, _reference(r.message_id))
    except Exception:  # a subject or reference the mail library refuses: the plain subject, no threading
        msg = _reply_message(ctx, r, cc, plain, body, key, None)
    outbox.write_outbox(ctx.game, ctx.turn, [outbox.Outgoing(name, msg)])
    return name


_MESSAGE_ID = re.compile(r"<[!-;=?-~]{1,250}>")  # printable ASCII, no "<" or ">" inside


def _reply_message(
    ctx: _Context, r: _Reading, cc: list[str], subject: str, body: str, key: str, reference: str | None
) -> EmailMessage:
    cfg = ctx.game.config
    return outbox.text_message(
        sender=outbox.from_address(cfg),
        to=[r.sender],
        cc=cc,
        subject=subject,
        body=masking.mask_secrets(body, r.secrets),
        msg_id=outbox.message_id(cfg, ctx.turn, "reply", key),
        date=ctx.now,
        reply_to=outbox.from_address(cfg),
        in_reply_to=reference,
        auto="auto-replied",
    )


def _reference(message_id: str) -> str | None:
    """The message's Message-ID for the reply's In-Reply-To, when it is one a mail
    program can thread on; None for anything else (made up or hostile)."""
    return message_id if _MESSAGE_ID.fullmatch(message_id) else None


MAX_WRONG_PASSWORDS = 3  # a gang's, or an address's, wrong passwords read in one pass; later ones unread


def _warn_of_guessing(ctx: _Context) -> None:
    """One mail per gang to all its addresses when a pass read more than one wrong
    password in its name, or refused messages unread after too many: how many, and
    what to do. Never one mail per guess."""
    cfg = ctx.game.config
    for gang in ctx.game.sides():
        wrong, held = ctx.wrong[f"gang:{gang}"], ctx.held[gang]
        addresses = outbox.player_addresses(cfg, gang)
        if wrong + held <= 1 or not addresses:
            continue
        language = player_language(cfg, gang)
        say = functools.partial(mailwords.text, language)
        name = ctx.game.sides(language)[gang]
        body = say("warning.guessing", gang=name, n=wrong + held, wrong=wrong, held=held, limit=MAX_WRONG_PASSWORDS)
        key = f"guessing {gang} {ctx.now.isoformat()}"
        msg = outbox.text_message(
            sender=outbox.from_address(cfg),
            to=addresses,
            subject=say("warning.guessing_subject", prefix=outbox.subject_prefix(cfg), gang=name),
            body=body,
            msg_id=outbox.message_id(cfg, ctx.turn, "warning", key),
            date=ctx.now,
            reply_to=outbox.from_address(cfg),
            auto="auto-generated",
        )
        digest = hashlib.sha256(key.encode("utf-8")).hexdigest()[:12]
        outbox.write_outbox(ctx.game, ctx.turn, [outbox.Outgoing(f"reply-warning-{gang.lower()}-{digest}.eml", msg)])


REPLY_KINDS = ("reply-", "press-", "vote-", "observe-", "predict-")  # what the inbox's commands write to the outbox


def reply_files(game: Game, turn: str) -> list[str]:
    """The turn's replies in the outbox, by name, with the press, vote notices
    and requests the messages' commands wrote."""
    base = outbox.outbox_dir(game, turn)
    return sorted(p.name for p in base.glob("*.eml") if p.name.startswith(REPLY_KINDS)) if base.is_dir() else []
