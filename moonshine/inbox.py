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
game.yaml, words in ``moonshine.mailtext``); the lines for the game master and
the log stay in English.
Processed Message-IDs are logged in ``orders/TURN/inbox.yaml``; a message found
in any turn's log is never processed again.
"""

from __future__ import annotations

import hashlib
import mailbox
import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email import policy
from email.message import EmailMessage, Message
from email.parser import BytesParser
from email.utils import getaddresses, parsedate_to_datetime
from pathlib import Path
from typing import Any

import yaml

from moonshine import intake, mail, mailtext, masking
from moonshine import state as state_mod
from moonshine.errors import GameError, StateError
from moonshine.gamedir import GAME_FILE, Game, atomic_write_text
from moonshine.mailtext import Phrase, phrase, subject_turn
from moonshine.parser import printable
from moonshine.passwords import verify_password
from moonshine.state import GameState
from moonshine.turns import Turn

LOG_FILE = "inbox.yaml"
HISTORY = "history"

ACCEPTED = "accepted"
SUPERSEDED = "superseded"  # authentic and on time, but a later submission was received first
REJECTED = "rejected"
IGNORED = "ignored"  # bounces and automatic replies: logged, never answered
OUTCOMES = (ACCEPTED, SUPERSEDED, REJECTED, IGNORED)

_GANG_LINE = re.compile(r"^\s*(?:gang|bande|gang name|nom du gang)\s*:\s*(.*?)\s*$", re.IGNORECASE)
_ADDRESS = re.compile(r"[^@\s<>\"]+@[^@\s<>\"]+")


# -- reading a mail source --------------------------------------------------------


@dataclass(frozen=True)
class Incoming:
    raw: bytes
    origin: str  # where it was found, for the game master


def read_source(source: Path) -> list[Incoming]:
    """Every message of a Maildir, an mbox file, a folder of ``.eml`` files or
    one ``.eml`` file, as raw bytes, in the source's order."""
    if source.is_dir():
        if (source / "cur").is_dir() or (source / "new").is_dir():
            return list(_maildir(source))
        files = sorted(p for p in source.iterdir() if p.suffix.lower() == ".eml" and p.is_file())
        return [Incoming(p.read_bytes(), p.name) for p in files]
    if source.is_file():
        with source.open("rb") as fh:
            head = fh.read(5)
        if head == b"From ":
            return list(_mbox(source))
        return [Incoming(source.read_bytes(), source.name)]
    raise GameError(f"{source}: no such mailbox (expected a Maildir, an mbox file, or a folder of .eml files)")


def _maildir(path: Path) -> Iterator[Incoming]:
    box = mailbox.Maildir(str(path), factory=None, create=False)
    for key in sorted(box.keys()):
        yield Incoming(box.get_bytes(key), f"Maildir {key}")


def _mbox(path: Path) -> Iterator[Incoming]:
    box = mailbox.mbox(str(path), create=False)
    for i, key in enumerate(box.keys(), start=1):
        yield Incoming(box.get_bytes(key), f"mbox message {i}")


# -- taking a message apart ---------------------------------------------------------


def candidate_texts(msg: Message) -> list[tuple[str, str]]:
    """The texts orders may be in, in order of preference (``moonshine.intake``)."""
    return intake.texts(msg)


def find_line(pattern: re.Pattern[str], text: str) -> str | None:
    """What the first line matching ``pattern`` says, before the signature
    (``-- ``), after which the order reader reads nothing."""
    for line in split_lines(text):
        if line.rstrip() == "--":
            break
        m = pattern.match(line)
        if m:
            return m.group(1)
    return None


def split_lines(text: str) -> list[str]:
    """The text's lines, numbered from 1 as the order reader numbers them."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def orders_text(text: str, blank: Iterable[int] = ()) -> str:
    """The orders to save: the text as sent, with the lines numbered in ``blank``
    (the password lines) left empty so that line numbers stay those of the
    message; normalised line ends, trailing spaces removed, one final newline."""
    hide = set(blank)
    lines = [("" if n in hide else _tidy(line)) for n, line in enumerate(split_lines(text), 1)]
    return "\n".join(lines).rstrip("\n") + "\n"


def _tidy(line: str) -> str:
    """Trailing spaces go, except the one of the signature delimiter ``-- ``."""
    return line if line == "-- " else line.rstrip()


def _header(msg: Message, name: str) -> str:
    """A header's text, or "" when it is missing or cannot be read."""
    try:
        value = msg.get(name)
    except Exception:  # a malformed header must not stop the referee
        return ""
    return " ".join(str(value).split()) if value is not None else ""


_QUOTED_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_COMMENT = re.compile(r"\((?:[^()\\]|\\.)*\)")


def sender_of(msg: Message) -> str:
    """The one address a mail server sees in the message's ``From:`` line, lower
    case, or "" when there is no such single address. Read from the header as
    sent, never decoded: an encoded word (``=?utf-8?...?=``) is a display name,
    never an address; an angle address (``<...>``) is the address even after an
    unquoted display name that looks like one (``valley@... <evil@...>``); two
    addresses, two ``From:`` lines or none give "". The inbox, ``status`` and
    the reply all use this address."""
    try:
        values = [str(v) for k, v in msg.raw_items() if k.lower() == "from"]
    except Exception:
        return ""
    if len(values) != 1:
        return ""
    raw = " ".join(values[0].split())
    bare = _COMMENT.sub(" ", _QUOTED_STRING.sub('""', raw))
    angles = re.findall(r"<([^<>]*)>", bare)
    if len(angles) > 1 or bare.count("<") != len(angles) or bare.count(">") != len(angles):
        return ""
    if angles:
        addr = angles[0]
    else:
        found = [a for _, a in getaddresses([raw]) if a]
        if len(found) != 1 or "," in bare:
            return ""
        addr = found[0]
    addr = addr.strip().lower()
    return addr if _ADDRESS.fullmatch(addr) and "=?" not in addr and "?=" not in addr else ""


def _as_utc(when: datetime) -> datetime:
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)


def received_time(msg: Message) -> datetime | None:
    """When the message reached the game master's server (top ``Received:``
    line), else its ``Date:``; None when neither can be read."""
    try:
        received = msg.get_all("Received") or []
    except Exception:
        received = []
    candidates = [str(received[0]).rpartition(";")[2]] if received else []
    candidates.append(_header(msg, "Date"))
    for text in candidates:
        try:
            return _as_utc(parsedate_to_datetime(text.strip()))
        except Exception:  # unreadable, or out of range (year 9999 at -2359): not a usable time
            continue
    return None


def is_automatic(msg: Message, sender: str) -> bool:
    """Bounces and automatic replies (RFC 3834), never answered."""
    auto = _header(msg, "Auto-Submitted").lower()
    if auto and auto != "no":
        return True
    if _header(msg, "Return-Path") == "<>":
        return True
    local = sender.partition("@")[0]
    return local in ("mailer-daemon", "postmaster") or _header(msg, "Precedence").lower() in ("bulk", "junk", "list")


# -- the order reader, through one adapter -----------------------------------------


@dataclass(frozen=True)
class OrderCheck:
    """What the order reader made of a submission."""

    header_gang: str | None  # the gang key its ``gang:`` line names
    header_turn: str | None  # the turn its ``turn:`` line names
    password: str | None  # what its password line says
    password_lines: tuple[int, ...]  # those lines' numbers (from 1), never saved
    accepted: int  # valid orders
    rejected: int  # lines rejected, each with its reason in the acknowledgement
    problems: tuple[str, ...]  # problems with the whole text
    acknowledgement: str  # the orders as understood, for the player


def check_orders(text: str, game: Game, st: GameState, gang: str | None, *, source: str) -> OrderCheck:
    """The one link to the order reader: read ``text`` (as ``gang``'s orders, or
    as the gang its ``gang:`` line names) and write the acknowledgement."""
    from moonshine.ack import acknowledgement
    from moonshine.parser import PasswordHeader
    from moonshine.validate import ACCEPTED, read_orders

    orders = read_orders(text, game.map, st, gang, source=source)
    ack = acknowledgement(orders, game.map, st, language=game.config.language)
    return OrderCheck(
        header_gang=orders.header_gang,
        header_turn=orders.header_turn,
        password=orders.password,
        password_lines=tuple(line.number for line in orders.lines if isinstance(line.header, PasswordHeader)),
        accepted=orders.count(ACCEPTED),
        rejected=orders.rejected,
        problems=tuple(orders.problems),
        acknowledgement=ack,
    )


# -- the turn's log -------------------------------------------------------------------


@dataclass
class TurnLog:
    """``orders/TURN/inbox.yaml``: every message processed for the turn, and the
    submission that stands for each gang."""

    submissions: list[dict[str, Any]] = field(default_factory=list)
    current: dict[str, dict[str, Any]] = field(default_factory=dict)  # gang -> its standing submission

    def ids(self) -> set[str]:
        return {str(s.get("message_id")) for s in self.submissions}


def log_path(game: Game, turn: str) -> Path:
    return game.orders_dir(turn) / LOG_FILE


def load_log(game: Game, turn: str) -> TurnLog:
    path = log_path(game, turn)
    if not path.is_file():
        return TurnLog()
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError) as exc:
        raise StateError(str(path), "", f"cannot read the inbox log: {exc}") from None
    if not isinstance(raw, dict):
        raise StateError(str(path), "", "expected a mapping with submissions and current")
    subs = raw.get("submissions") or []
    current = raw.get("current") or {}
    if not isinstance(subs, list) or not isinstance(current, dict):
        raise StateError(str(path), "", "submissions must be a list and current a mapping")
    return TurnLog([s for s in subs if isinstance(s, dict)], {str(k): v for k, v in current.items()})


def save_log(game: Game, turn: str, log: TurnLog) -> None:
    head = "# Orders received by mail for this turn (moonshine inbox). 'current' is what stands.\n"
    data = {"current": {g: log.current[g] for g in sorted(log.current)}, "submissions": log.submissions}
    atomic_write_text(log_path(game, turn), head + state_mod.dump_yaml(data))


def processed_ids(game: Game) -> set[str]:
    """Message-IDs processed in any turn of the game."""
    found: set[str] = set()
    base = game.root / "orders"
    if base.is_dir():
        for d in sorted(base.iterdir()):
            if (d / LOG_FILE).is_file():
                found |= load_log(game, d.name).ids()
    return found


# -- processing ---------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    """What became of one message: one line for the game master."""

    status: str  # accepted, superseded, rejected, ignored, duplicate
    origin: str
    message_id: str
    sender: str
    gang: str | None
    reason: str
    reply: str | None = None  # the answer's file in the outbox

    def line(self) -> str:
        who = self.sender or "(no sender)"
        return f"{self.status:<10} {self.gang or '-':<10} {who}: {self.reason} [{self.origin}]"


@dataclass
class _Context:
    game: Game
    turn: str
    st: GameState
    now: datetime
    late_ok: bool
    due: datetime | None
    previous_due: datetime | None  # the previous turn's deadline: mail received before it is for that turn
    limit: int
    seen: set[str]
    log: TurnLog
    chatter: intake.ChatterTest

    @property
    def language(self) -> str:
        """The game's language: the language of every reply."""
        return self.game.config.language

    def say(self, key: str, /, **fields: object) -> str:
        return mailtext.text(self.language, key, **fields)


@dataclass
class _Reading:
    """One message, as far as it could be read."""

    incoming: Incoming
    message_id: str
    msg: Message | None = None
    sender: str = ""
    subject: str = ""
    received: datetime | None = None
    problem: Phrase | None = None
    own: intake.OwnText | None = None  # the player's own text, once found
    secrets: tuple[str, ...] = ()  # what its password lines say, quoted or not: masked in anything written


def _message_id(raw: bytes, msg: Message | None) -> str:
    mid = _header(msg, "Message-ID") if msg is not None else ""
    return mid if mid else f"<sha256.{hashlib.sha256(raw).hexdigest()[:32]}@no-message-id>"


def _read(incoming: Incoming, limit: int) -> _Reading:
    parser = BytesParser(policy=policy.default)
    try:
        headers = parser.parsebytes(incoming.raw, headersonly=True)
    except Exception as exc:  # malformed mail must never stop the run
        why = phrase("reject.unreadable", error=type(exc).__name__)
        return _Reading(incoming, _message_id(incoming.raw, None), problem=why)
    r = _Reading(incoming, _message_id(incoming.raw, headers), msg=headers)
    r.sender = sender_of(headers)
    r.subject = masking.mask(_header(headers, "Subject")[:200])
    r.received = received_time(headers)
    if len(incoming.raw) > limit:
        r.problem = phrase("reject.too_big", size=len(incoming.raw), limit=limit)
        return r
    try:
        r.msg = parser.parsebytes(incoming.raw)
    except Exception as exc:
        r.problem = phrase("reject.not_parsed", error=type(exc).__name__)
        return r
    try:
        r.secrets = tuple(v for _, text in intake.texts(r.msg) for v in masking.password_values(text))
    except Exception:  # a body that cannot be decoded gives no secret to mask
        r.secrets = ()
    r.subject = masking.mask(r.subject, r.secrets)
    return r


def process(
    game: Game,
    source: Path,
    *,
    turn: str | None = None,
    late_ok: bool = False,
    now: datetime | None = None,
) -> list[Outcome]:
    """Process every message of ``source`` for ``turn`` (default: the current
    turn), oldest first. Saves orders, logs every message, writes replies.
    One run at a time per turn: a second one waits for the first to finish."""
    turn = turn or game.current_turn()
    try:
        Turn.parse(turn)
    except ValueError as exc:
        raise GameError(str(exc)) from None
    with _locked(game.orders_dir(turn) / ".inbox.lock"):
        return _process(game, source, turn, late_ok, now)


@contextmanager
def _locked(path: Path) -> Iterator[None]:
    """An advisory lock on ``path``, released when the run ends (even if the
    process dies). Where the system has no ``fcntl``, no lock."""
    try:
        import fcntl
    except ImportError:  # not a POSIX system
        yield
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as fh:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh.fileno(), fcntl.LOCK_UN)


def _process(game: Game, source: Path, turn: str, late_ok: bool, now: datetime | None) -> list[Outcome]:
    ctx = _Context(
        game=game,
        turn=turn,
        st=game.load_state(turn),
        now=now or datetime.now(UTC).replace(microsecond=0),
        late_ok=late_ok,
        due=mail.deadline(game.config, turn),
        previous_due=mail.deadline(game.config, Turn.parse(turn).previous().name),
        limit=mail.max_message_bytes(game.config),
        seen=processed_ids(game),
        log=load_log(game, turn),
        chatter=intake.chatter_test(game.map),
    )
    readings = [_read(item, ctx.limit) for item in read_source(source)]
    far_future = datetime.max.replace(tzinfo=UTC)
    order = sorted(range(len(readings)), key=lambda i: (readings[i].received or far_future, i))
    outcomes = []
    for i in order:
        r = readings[i]
        if r.message_id in ctx.seen:
            outcomes.append(Outcome("duplicate", r.incoming.origin, r.message_id, r.sender, None, "already processed"))
            continue
        outcome = _process_one(ctx, r)
        ctx.seen.add(r.message_id)
        ctx.log.submissions.append(
            {
                "message_id": r.message_id,
                "from": r.sender,
                "gang": outcome.gang,
                "received": r.received.isoformat() if r.received else None,
                "processed": ctx.now.isoformat(),
                "outcome": outcome.status,
                "reason": outcome.reason,
                "reply": outcome.reply,
            }
        )
        save_log(game, turn, ctx.log)
        outcomes.append(outcome)
    return outcomes


class _Reject(Exception):
    """A refused message: why (``reason``, a catalogue phrase), the gang it is
    about if known, and what the player can do (a phrase, or a text already
    written in the game's language such as an acknowledgement)."""

    def __init__(self, reason: Phrase, gang: str | None = None, help_text: Phrase | str = "") -> None:
        super().__init__(reason.text("en"))
        self.phrase = reason
        self.reason = reason.text("en")  # for the game master's lines and the log
        self.gang = gang
        self.help_text = help_text


def _process_one(ctx: _Context, r: _Reading) -> Outcome:
    origin = r.incoming.origin
    if r.msg is not None and is_automatic(r.msg, r.sender):
        return Outcome(IGNORED, origin, r.message_id, r.sender, None, "automatic reply or bounce: not answered")
    if not r.sender:
        why = (r.problem or phrase("reject.no_sender")).text("en")
        return Outcome(REJECTED, origin, r.message_id, "", None, why)
    try:
        return _accept(ctx, r)
    except _Reject as rej:
        reply = _write_reply(ctx, r, rej.gang, _rejection_body(ctx, r, rej), accepted=False)
        return Outcome(REJECTED, origin, r.message_id, r.sender, rej.gang, rej.reason, reply)
    except Exception as exc:  # a defect in one message must not stop the others
        failure = _Reject(
            phrase("reject.failed", error=f"{type(exc).__name__}: {exc}"), help_text=phrase("help.failed")
        )
        reply = _write_reply(ctx, r, None, _rejection_body(ctx, r, failure), accepted=False)
        return Outcome(REJECTED, origin, r.message_id, r.sender, None, failure.reason, reply)


def _gang_names(ctx: _Context) -> str:
    return ", ".join(f"{k} ({g.name})" for k, g in ctx.game.map.gangs.items())


def _gangs_of(ctx: _Context, sender: str) -> list[str]:
    return [g for g in ctx.game.map.gangs if sender in {a.lower() for a in mail.player_addresses(ctx.game.config, g)}]


def _pick_text(ctx: _Context, r: _Reading, msg: Message) -> tuple[str, intake.OwnText, OrderCheck | None]:
    """The player's own text (``moonshine.intake``) of the first candidate whose
    ``gang:`` line names a gang, as the reader sees it; else the first with
    something in it."""
    found: list[tuple[str, intake.OwnText]] = []
    for where, raw in candidate_texts(msg):
        own = intake.ignore_chatter(intake.own_text(raw), ctx.chatter)
        if own.text.strip():
            found.append((where, own))
    for where, own in found:
        check = check_orders(own.text, ctx.game, ctx.st, None, source=ctx.say("ack.sender", sender=r.sender))
        if check.header_gang is not None:
            return where, own, check
    if found:
        return found[0][0], found[0][1], None
    return "body", intake.OwnText("", ()), None


def _accept(ctx: _Context, r: _Reading) -> Outcome:
    cfg = ctx.game.config
    gmap = ctx.game.map
    own = _gangs_of(ctx, r.sender)
    if not own:
        raise _Reject(phrase("reject.not_player", sender=r.sender), help_text=phrase("help.address"))
    if r.problem or r.msg is None:
        raise _Reject(r.problem or phrase("reject.not_read"))
    where, r.own, first = _pick_text(ctx, r, r.msg)
    text = r.own.text
    if not text.strip():
        raise _Reject(phrase("reject.no_text"), help_text=_format_help(own[0]))
    if first is None or first.header_gang is None:
        named = find_line(_GANG_LINE, text)
        if named is None:
            raise _Reject(phrase("reject.no_gang_line"), help_text=_format_help(own[0]))
        raise _Reject(phrase("reject.unknown_gang", named=named[:40], gangs=_gang_names(ctx)))
    found = gmap.gangs[first.header_gang]
    gang = found.key
    if gang not in own:
        names = ", ".join(gmap.gangs[g].name for g in own)
        raise _Reject(phrase("reject.other_gang", sender=r.sender, own=names, gang=found.name))
    stored = cfg.players[gang].password if gang in cfg.players else None
    if not stored:
        raise _Reject(phrase("reject.no_password_set", gang=found.name), gang)
    given = first.password
    if given is None:
        raise _Reject(phrase("reject.no_password_line"), gang, _format_help(gang))
    try:
        good = verify_password(given, str(stored))
    except ValueError:
        raise _Reject(phrase("reject.password_damaged", gang=found.name), gang) from None
    if not good:
        raise _Reject(phrase("reject.wrong_password", gang=found.name), gang)
    turn = Turn.parse(ctx.turn)
    if first.header_turn is not None and first.header_turn != ctx.turn:
        raise _Reject(phrase("reject.other_turn", named=_as_turn(first.header_turn), turn=turn), gang)
    received = r.received or ctx.now
    if ctx.previous_due is not None and received <= ctx.previous_due:
        raise _Reject(
            phrase("reject.earlier_turn", received=received, previous=ctx.previous_due, turn=turn),
            gang,
        )
    if ctx.due is not None and received > ctx.due and not ctx.late_ok:
        raise _Reject(phrase("reject.late", received=received, due=ctx.due), gang, phrase("help.late"))
    return _save(ctx, r, gang, text, orders_text(text, first.password_lines), where, received)


def _as_turn(name: str) -> Turn | str:
    """A turn's name as a Turn, written in the reply's language; else as it is."""
    try:
        return Turn.parse(name)
    except ValueError:
        return name


def _history_path(ctx: _Context, gang: str) -> Path:
    base = ctx.game.orders_dir(ctx.turn) / HISTORY
    numbers = [0]
    if base.is_dir():
        for p in base.glob(f"{gang}-*.txt"):
            tail = p.stem.rpartition("-")[2]
            if tail.isdigit():
                numbers.append(int(tail))
    return base / f"{gang}-{max(numbers) + 1}.txt"


def _save(ctx: _Context, r: _Reading, gang: str, sent: str, text: str, where: str, received: datetime) -> Outcome:
    """Save ``text`` (what was ``sent``, password lines blanked) as the gang's
    orders unless a later submission stands. The acknowledgement reads ``sent``
    so that its line numbers are the message's."""
    source = ctx.say("ack.source", sender=r.sender, received=received)  # the acknowledgement's "File:" line
    check = check_orders(sent, ctx.game, ctx.st, gang, source=source)
    name = ctx.game.map.gangs[gang].name
    if check.accepted == 0 and check.rejected > 0:
        raise _Reject(phrase("reject.nothing_readable", n=check.rejected), gang, check.acknowledgement)
    standing = ctx.log.current.get(gang)
    standing_at = _parse_time(standing.get("received")) if standing else None
    history = _history_path(ctx, gang)
    rel_history = history.relative_to(ctx.game.orders_dir(ctx.turn)).as_posix()
    meta = (
        f"# received: {received.isoformat()}\n# from: {r.sender}\n# message-id: {r.message_id}\n# read from: {where}\n"
    )
    atomic_write_text(history, meta + text)
    counts = _Counts(check.accepted, check.rejected)
    turn = Turn.parse(ctx.turn)
    if standing_at is not None and received < standing_at:
        reason = f"{counts.text('en')}; a later submission (received {mail.fmt_time(standing_at)}) stands"
        lead = ctx.say("reply.superseded", gang=name, turn=turn, received=received, standing=standing_at)
        reply = _write_reply(ctx, r, gang, _accepted_body(ctx, lead, check, _intake_notes(ctx, r)), accepted=True)
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
    replaced = f"; replaces the orders received {mail.fmt_time(standing_at)}" if standing_at else ""
    lead = ctx.say(
        "reply.accepted", gang=name, turn=turn, received=received, sender=r.sender, counts=counts.text(ctx.language)
    )
    if standing_at:
        lead += "\n" + ctx.say("reply.replaces", standing=standing_at)
    reply = _write_reply(ctx, r, gang, _accepted_body(ctx, lead, check, _intake_notes(ctx, r)), accepted=True)
    return Outcome(ACCEPTED, r.incoming.origin, r.message_id, r.sender, gang, counts.text("en") + replaced, reply)


@dataclass(frozen=True)
class _Counts:
    """``3 order(s) read, 1 rejected`` / ``3 ordres lus, 1 ligne rejetée``."""

    accepted: int
    rejected: int

    def text(self, language: str) -> str:
        out = mailtext.text(language, "counts.read", n=self.accepted)
        return out + (mailtext.text(language, "counts.rejected", n=self.rejected) if self.rejected else "")


def _parse_time(value: Any) -> datetime | None:
    if isinstance(value, datetime):
        return _as_utc(value)
    if isinstance(value, str):
        try:
            return _as_utc(datetime.fromisoformat(value))
        except ValueError:
            return None
    return None


# -- replies ------------------------------------------------------------------------


def _format_help(gang: str) -> Phrase:
    """How to send orders, with ``gang``'s key in the example."""
    return phrase("help.format", gang=gang)


def _deadline_line(ctx: _Context) -> str:
    if ctx.due is None:
        return ctx.say("deadline.none")
    left = mail.describe_time_left(ctx.due, ctx.now, ctx.language)
    return ctx.say("deadline.line", due=ctx.due, left=left)


def _signature(game: Game) -> str:
    return "\n-- \n" + mailtext.text(game.config.language, "signature", title=game.config.title) + "\n"


def _ranges(numbers: list[int]) -> str:
    """``3-9, 12``: line numbers as ranges."""
    out: list[str] = []
    for n in sorted(set(numbers)):
        if out and out[-1].split("-")[-1] == str(n - 1):
            out[-1] = out[-1].split("-")[0] + f"-{n}"
        else:
            out.append(str(n))
    return ", ".join(out)


def _intake_notes(ctx: _Context, r: _Reading) -> str:
    """What the mail-reading layer left out of the message, for the reply: quoted
    text, the signature, greetings and sign-offs (each shown as written)."""
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
        notes.append(ctx.say("note.quoted", lines=_ranges(quoted)))
    signature = own.lines_dropped(intake.SIGNATURE)
    if signature:
        notes.append(ctx.say("note.signature", line=signature[0]))
    return "\n".join(notes)


def _accepted_body(ctx: _Context, lead: str, check: OrderCheck, notes: str = "") -> str:
    if ctx.due is None:
        more = ctx.say("reply.open_no_deadline")
    elif ctx.now > ctx.due:
        more = ctx.say("reply.closed")
    else:
        more = ctx.say("reply.open")
    extra = f"\n{notes}\n" if notes else ""
    return f"{lead}\n{_deadline_line(ctx)} {more}\n\n{check.acknowledgement.rstrip()}\n{extra}{_signature(ctx.game)}"


def _rejection_body(ctx: _Context, r: _Reading, rej: _Reject) -> str:
    about = phrase("reply.subject", subject=r.subject) if r.subject else phrase("reply.no_subject")
    when = ctx.say("reply.received_at", received=r.received) if r.received else ""
    text = "\n\n".join(
        (
            ctx.say("reply.rejected", about=about, when=when, turn=Turn.parse(ctx.turn)),
            ctx.say("reply.reason", reason=rej.phrase),
            ctx.say("reply.unchanged"),
        )
    )
    help_text = rej.help_text.text(ctx.language) if isinstance(rej.help_text, Phrase) else rej.help_text
    if help_text:
        text += f"\n\n{help_text.rstrip()}"
    notes = _intake_notes(ctx, r)
    if notes:
        text += f"\n\n{notes}"
    return f"{text}\n\n{_deadline_line(ctx)}\n{_signature(ctx.game)}"


def _write_reply(ctx: _Context, r: _Reading, gang: str | None, body: str, *, accepted: bool) -> str:
    cfg = ctx.game.config
    digest = hashlib.sha256(r.message_id.encode("utf-8")).hexdigest()[:12]
    name = f"reply-{gang or 'unknown'}-{digest}.eml"
    subject = r.subject if r.subject.lower().startswith("re:") else f"Re: {r.subject}" if r.subject else ""
    if not subject:
        subject = ctx.say(
            "subject.accepted" if accepted else "subject.rejected",
            prefix=mail.subject_prefix(cfg),
            turn=subject_turn(ctx.language, ctx.turn),
        )
    cc: list[str] = []
    if accepted and gang is not None:
        cc = [a for a in mail.player_addresses(cfg, gang) if a.lower() != r.sender]
    msg: EmailMessage = mail.text_message(
        sender=mail.from_address(cfg),
        to=[r.sender],
        cc=cc,
        subject=masking.mask(subject, r.secrets),
        body=masking.mask_secrets(body, r.secrets),
        msg_id=mail.message_id(cfg, ctx.turn, "reply", r.message_id),
        date=ctx.now,
        reply_to=mail.from_address(cfg),
        in_reply_to=r.message_id,
        auto="auto-replied",
    )
    mail.write_outbox(ctx.game, ctx.turn, [mail.Outgoing(name, msg)])
    return name


def reply_files(game: Game, turn: str) -> list[str]:
    """The turn's replies in the outbox, by name."""
    base = mail.outbox_dir(game, turn)
    return sorted(p.name for p in base.glob("reply-*.eml")) if base.is_dir() else []


# -- status and reminders ----------------------------------------------------------------


@dataclass(frozen=True)
class GangStatus:
    gang: str
    name: str
    has_orders: bool
    received: datetime | None  # when the standing orders were received by mail
    accepted: int | None
    rejected: int | None
    addresses: tuple[str, ...]
    has_password: bool

    def line(self) -> str:
        if self.has_orders and self.received is not None:
            counts = f"{self.accepted} order(s)" + (f", {self.rejected} rejected" if self.rejected else "")
            state = f"orders received {mail.fmt_time(self.received)} ({counts})"
        elif self.has_orders:
            state = "orders on file (not received by mail)"
        else:
            state = "MISSING"
        notes = []
        if not self.addresses:
            notes.append(f"no address in {GAME_FILE}")
        if not self.has_password:
            notes.append("no password (moonshine passwd)")
        extra = f"  [{'; '.join(notes)}]" if notes else ""
        return f"{self.gang:<10} {self.name:<22} {state}{extra}"


@dataclass(frozen=True)
class TurnStatus:
    turn: str
    deadline: datetime | None
    now: datetime
    gangs: list[GangStatus]

    @property
    def missing(self) -> list[str]:
        return [g.gang for g in self.gangs if not g.has_orders]

    def time_left(self, language: str = "en") -> str:
        return mail.describe_time_left(self.deadline, self.now, language)


def turn_status(game: Game, turn: str | None = None, *, now: datetime | None = None) -> TurnStatus:
    """Which gangs have orders on file for ``turn`` and how long is left."""
    turn = turn or game.current_turn()
    game.load_state(turn)  # a turn of this game
    cfg = game.config
    log = load_log(game, turn)
    rows = []
    for key, gang in game.map.gangs.items():
        current = log.current.get(key) or {}
        has = (game.orders_dir(turn) / f"{key}.txt").is_file()
        player = cfg.players.get(key)
        rows.append(
            GangStatus(
                gang=key,
                name=gang.name,
                has_orders=has,
                received=_parse_time(current.get("received")) if has else None,
                accepted=current.get("accepted"),
                rejected=current.get("rejected"),
                addresses=tuple(mail.player_addresses(cfg, key)),
                has_password=bool(player and player.password),
            )
        )
    return TurnStatus(turn, mail.deadline(cfg, turn), now or datetime.now(UTC).replace(microsecond=0), rows)


def reminders(
    game: Game, turn: str | None = None, *, now: datetime | None = None
) -> tuple[list[mail.Outgoing], list[str]]:
    """Reminders to the gangs with no orders on file (one per gang per day:
    the Message-ID carries the date), and warnings for gangs with no address."""
    status = turn_status(game, turn, now=now)
    cfg = game.config
    lang = cfg.language
    this_turn = Turn.parse(status.turn)
    out: list[mail.Outgoing] = []
    warnings: list[str] = []
    due = status.deadline
    for g in status.gangs:
        if g.has_orders:
            continue
        if not g.addresses:
            warnings.append(f"{g.gang}: no address in {GAME_FILE} (players.{g.gang}.email): no reminder")
            continue
        if due is not None:
            when = mailtext.text(lang, "remind.deadline", due=due, left=status.time_left(lang))
        else:
            when = mailtext.text(lang, "remind.no_deadline")
        paragraphs = (
            mailtext.text(lang, "remind.missing", gang=g.name, turn=this_turn) + "\n" + when,
            mailtext.text(lang, "remind.default"),
            mailtext.text(lang, "help.format", gang=g.gang),
        )
        day = status.now.strftime("%Y%m%d")
        msg = mail.text_message(
            sender=mail.from_address(cfg),
            to=list(g.addresses),
            subject=mailtext.text(
                lang,
                "subject.reminder",
                prefix=mail.subject_prefix(cfg),
                turn=subject_turn(lang, status.turn),
                gang=g.name,
            ),
            body="\n\n".join(paragraphs) + "\n" + _signature(game),
            msg_id=mail.message_id(cfg, status.turn, "remind", g.gang, day),
            date=status.now,
            reply_to=mail.from_address(cfg),
        )
        out.append(mail.Outgoing(f"remind-{g.gang}.eml", msg))
    return out, warnings
