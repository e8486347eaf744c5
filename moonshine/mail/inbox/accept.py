"""A message read in full and judged: who sent it, the side its ``gang:`` (or
``power:``) line names, the password, the turn and the deadline; its commands done
(``moonshine.mail.commands``); its orders checked by the game's rule family and
saved as the side's orders (``orders/TURN/SIDE.txt``) unless a later submission
stands, every submission kept in ``orders/TURN/history/``."""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import datetime
from email.utils import parseaddr
from pathlib import Path
from typing import Any

import msgspec

from moonshine.errors import MoonshineError
from moonshine.game import families, masking, news
from moonshine.game.directory import Game, GameConfig, atomic_write_text, player_language
from moonshine.game.families.base import OrderCheck
from moonshine.game.ordersjson import OrdersJsonError, looks_like_json, orders_text_from_json
from moonshine.mail import commands, intake
from moonshine.mail.commands import ready
from moonshine.mail.commands.grammar import Answer, CommandLine, Script
from moonshine.mail.commands.request import GameRequest, render
from moonshine.mail.envelope import find_line, forged_verdict, is_automatic, orders_text, split_lines
from moonshine.mail.inbox.context import Context, gangs_of
from moonshine.mail.inbox.outcome import (
    HELD,
    HELD_REASON,
    OTHER,
    UNSOLICITED,
    WRONG_SENDER,
    Forged,
    Outcome,
    Reject,
    Unsolicited,
)
from moonshine.mail.inbox.reading import Reading, looks_like_orders
from moonshine.mail.inbox.replies import accepted_body, intake_notes, reply_or_none, reply_safely, signature
from moonshine.mail.inbox.turnlog import ACCEPTED, HISTORY, IGNORED, REJECTED, SUPERSEDED, parse_time
from moonshine.mail.passwords import MAX_WRONG_PASSWORDS, verify_password
from moonshine.mail.settings import from_address
from moonshine.render import mailwords
from moonshine.render.mailwords import Phrase, fmt_time, phrase

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


def process_one(ctx: Context, r: Reading) -> Outcome:
    origin = r.incoming.origin
    ctx.reader = None  # the game's language, until the sender is known (_accept)
    if r.msg is not None and is_automatic(r.msg, r.sender):
        return Outcome(IGNORED, origin, r.message_id, r.sender, None, "automatic reply or bounce: not answered")
    if not r.sender:
        why = (r.problem or phrase("reject.no_sender")).text("en")
        return Outcome(REJECTED, origin, r.message_id, "", None, why, refusal=WRONG_SENDER)
    if r.sender == own_address(ctx.game.config):  # a loop, or a forgery: the judge never answers itself
        return Outcome(IGNORED, origin, r.message_id, r.sender, None, "from the judge's own address: not answered")
    try:
        return _accept(ctx, r)
    except Unsolicited:
        return Outcome(IGNORED, origin, r.message_id, r.sender, None, UNSOLICITED)
    except Forged as forged:
        why = f"forged sender: the mail server says {forged} for {r.sender}; not read, not answered"
        return Outcome(REJECTED, origin, r.message_id, r.sender, None, why, refusal=WRONG_SENDER)
    except Reject as rej:
        if r.later and rej.gang is not None:  # refused orders: the status still answered, as things stand
            r.orders_refused = True
            try:
                after_orders(ctx, r, rej.gang)
            except Exception:  # the refusal is answered all the same
                r.later = ()
        if rej.phrase.key == "reject.too_many_guesses":  # not read now: the next pass reads it
            why = HELD_REASON.format(n=MAX_WRONG_PASSWORDS, gang=ctx.game.sides().get(rej.gang or "", rej.gang))
            return Outcome(HELD, origin, r.message_id, r.sender, rej.gang, why, None, rej.about, received=r.received)
        reply = reply_or_none(ctx, r, rej.gang, rej)
        return Outcome(REJECTED, origin, r.message_id, r.sender, rej.gang, rej.reason, reply, rej.about, rej.refusal)
    except Exception as exc:  # a defect in one message must not stop the others
        failure = Reject(phrase("reject.failed", error=f"{type(exc).__name__}: {exc}"), help_text=phrase("help.failed"))
        reply = reply_or_none(ctx, r, None, failure)
        return Outcome(REJECTED, origin, r.message_id, r.sender, None, failure.reason, reply, refusal=OTHER)


def own_address(cfg: GameConfig) -> str:
    """The judge's own address (``smtp.from``), lower case; "" without a usable one."""
    try:
        return parseaddr(from_address(cfg))[1].lower()
    except MoonshineError:
        return ""


def _named_gang(ctx: Context, r: Reading) -> str | None:
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


def _gang_names(ctx: Context) -> str:
    return ", ".join(f"{k} ({name})" for k, name in ctx.game.sides(ctx.language).items())


def _pick_text(ctx: Context, r: Reading) -> tuple[str, intake.OwnText, OrderCheck | None]:
    """The player's own text (``moonshine.mail.intake``) of the first candidate whose
    ``gang:`` line names a gang, as the reader sees it; else the first with
    something in it. A mail with orders as JSON: the text its first document stands for
    (``_json_text``)."""
    if r.json:
        return _json_text(ctx, r)
    found: list[tuple[str, intake.OwnText, Script]] = []
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


def _json_text(ctx: Context, r: Reading) -> tuple[str, intake.OwnText, OrderCheck | None]:
    """The orders text the mail's first document of orders as JSON stands for
    (``moonshine.game.ordersjson``), read from then on as typed orders: the same
    acknowledgement, the same receipt. Its password is the document's, else the one of
    the mail's own password line; the mail's other text is not read (neither orders
    nor commands), and the reply says so. A document that does not fit is refused with
    every problem, in the reader's language."""
    where, raw = r.json[0]
    others = [intake.own_text(text).text for _, text in r.texts if not looks_like_json(text.encode("utf-8"))]
    lines = [line for text in others for line in split_lines(text) if line.strip()]
    given = [v for line in lines for v in masking.password_values(line)]
    r.json_left = any(not masking.password_values(line) and not _GAME_NAME_LINE.match(line) for line in lines)
    try:
        text = orders_text_from_json(ctx.game, raw, password=given[0] if given else None)
    except OrdersJsonError as exc:
        raise Reject(phrase("reject.json", n=len(exc.problems)), help_text=phrase("help.json", problems=exc)) from None
    r.json_read = where
    own = intake.OwnText(text, (), text)
    check = check_orders(
        text, ctx.game, ctx.st, None, source=ctx.say("ack.sender", sender=r.sender), language=ctx.language
    )
    return where, own, check


def _without_commands(ctx: Context, own: intake.OwnText) -> tuple[intake.OwnText, Script]:
    """The text with its command lines (``moonshine.mail.commands``) left empty, as the
    order reader sees it, and the commands."""
    script = commands.read(own.text, ctx.chatter.order_words)
    host = ctx.host_lines
    games = (
        {
            n
            for n, line in enumerate(split_lines(own.text), 1)
            if _GAME_NAME_LINE.match(line) or (host is not None and host(line))
        }
        if ctx.judged
        else set()
    )
    if not script and not games:
        return own, script
    taken = script.lines() | games
    lines = split_lines(own.text)
    kept = [("" if n in taken else line) for n, line in enumerate(lines, 1)]
    return intake.OwnText("\n".join(kept) + ("\n" if kept else ""), own.dropped, own.original), script


def _run_commands(
    ctx: Context, r: Reading, gang: str | None, some: tuple[CommandLine, ...] | None = None
) -> list[Answer]:
    """Do what the message's commands ask (``some`` of them; by default all),
    as ``gang`` (None: a sender who is no player, or whose password was not checked);
    the account of every command done so far goes in the reply, in the message's order."""
    received = min(r.received or ctx.now, ctx.now)
    req = GameRequest(
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
        paused=ctx.paused,
        orders_refused=r.orders_refused,
    )
    script = r.script if some is None else Script(some)
    results = commands.execute(req, script)
    r.results = sorted([*r.results, *results], key=lambda x: x.command.line)
    r.answer = render(ctx.language, r.results)
    return results


def after_orders(ctx: Context, r: Reading, gang: str) -> None:
    """The commands that report the game (``status``), done once the message's orders
    are taken or refused: they tell the state with this message's orders in it."""
    later, r.later = r.later, ()
    if later:
        _run_commands(ctx, r, gang, later)


def _commands_only(ctx: Context, r: Reading, gang: str | None, results: list[Answer]) -> Outcome:
    """The answer to a message with commands and no orders: orders on file stand."""
    received = r.received or ctx.now
    if gang is None:
        lead = ctx.say("reply.commands_stranger", title=ctx.game.config.title, received=received)
    else:
        name = ctx.game.sides(ctx.language)[gang]
        lead = ctx.say("reply.commands", gang=name, turn=ctx.turn_text, received=received, sender=r.sender)
    body = f"{lead}\n\n{intake_notes(ctx, r)}\n{signature(ctx.game, ctx.language)}"
    done = [x.command.name for x in results if x.done]
    refused = [x.command.name for x in results if not x.done]
    reason = "commands: " + "; ".join(
        part
        for part in (f"done {', '.join(done)}" if done else "", f"refused {', '.join(refused)}" if refused else "")
        if part
    )
    reply = reply_safely(ctx, r, gang, body, accepted=True, plain_key="subject.commands")
    status = ACCEPTED if done else REJECTED
    refusal = None if done else (WRONG_SENDER if gang is None else OTHER)
    return Outcome(status, r.incoming.origin, r.message_id, r.sender, gang, reason, reply, refusal=refusal)


def _accept(ctx: Context, r: Reading) -> Outcome:
    cfg = ctx.game.config
    sides = ctx.game.sides()
    own = gangs_of(ctx, r.sender)
    # the reply speaks the sender's language when the one side they play has chosen its own
    ctx.reader = player_language(cfg, own[0]) if len(own) == 1 else None
    if not own and r.problem is None and r.msg is not None and not r.json:  # (orders as JSON hold no command)
        r.own = _pick_text(ctx, r)[1]
        if r.script:  # commands from someone who plays no gang: help, observe, an observer's status
            return _commands_only(ctx, r, None, _run_commands(ctx, r, None))
    if not own:
        about = _named_gang(ctx, r)
        if about is None and r.problem is None and not looks_like_orders(r):
            raise Unsolicited
        raise Reject(phrase("reject.not_player", sender=r.sender), help_text=phrase("help.address"), about=about)
    if r.problem or r.msg is None:
        raise Reject(r.problem or phrase("reject.not_read"))
    forged = forged_verdict(r.msg, r.sender, ctx.authserv)
    if forged is not None:  # not the player's: refused before its password is checked, and not answered
        raise Forged(forged)
    where, r.own, first = _pick_text(ctx, r)
    text = r.own.text
    if not text.strip():
        raise Reject(phrase("reject.no_text"), help_text=_format_help(own[0], ctx))
    if first is None or first.header_gang is None:
        named = find_line(_GANG_LINE, text)
        messages = families.of(ctx.game).messages  # a classic game's orders have a 'power:' line
        if named is None:
            raise Reject(phrase("reject.no_gang_line" + messages), help_text=_format_help(own[0], ctx))
        raise Reject(phrase("reject.unknown_gang" + messages, named=named[:40], gangs=_gang_names(ctx)))
    gang = first.header_gang
    found = _Side(gang, sides[gang])
    if gang not in own:
        names = ", ".join(sides[g] for g in own)
        raise Reject(phrase("reject.other_gang", sender=r.sender, own=names, gang=found.name), about=gang)
    stored = cfg.players[gang].password if gang in cfg.players else None
    if not stored:
        raise Reject(phrase("reject.no_password_set", gang=found.name), gang)
    given = first.password
    if given is None:
        raise Reject(phrase("reject.no_password_line"), gang, _format_help(gang, ctx))
    if max(ctx.wrong[f"gang:{gang}"], ctx.wrong[f"from:{r.sender}"]) >= MAX_WRONG_PASSWORDS:
        ctx.held[gang] += 1  # refused unread and unanswered: the pass's one warning counts it
        raise Reject(phrase("reject.too_many_guesses", gang=found.name, n=MAX_WRONG_PASSWORDS), gang)
    try:
        good = verify_password(given, str(stored))
    except ValueError:
        raise Reject(phrase("reject.password_damaged", gang=found.name), gang) from None
    if not good:
        ctx.wrong[f"gang:{gang}"] += 1
        ctx.wrong[f"from:{r.sender}"] += 1
        raise Reject(phrase("reject.wrong_password", gang=found.name), gang, phrase("help.impersonation"))
    r.checked = True  # from here on, its Message-ID stands for this message
    if r.script:
        if first.accepted + first.rejected == 0:
            return _commands_only(ctx, r, gang, _run_commands(ctx, r, gang))
        # with orders: a status tells the state once they are saved (after_orders)
        later = [c for c in r.script.commands if c.command is not None and c.command.after_orders]
        r.later = tuple(later)
        _run_commands(ctx, r, gang, tuple(c for c in r.script.commands if c not in later))
    turn = ctx.turn_text
    if ctx.game_over():
        raise Reject(phrase("reject.game_over"), gang)
    if ctx.closed:
        kept = _keep(ctx, r, gang, _kept_text(r, text, first.password_lines), where, "after the turn was adjudicated")
        raise Reject(phrase("reject.adjudicated", turn=turn), gang, phrase("help.adjudicated", kept=kept))
    if first.header_turn is not None and first.header_turn != ctx.turn:
        named_turn = ctx.game.layout.turn_in_text(first.header_turn)
        raise Reject(phrase("reject.other_turn", named=named_turn, turn=turn), gang)
    received = r.received or ctx.now
    if ctx.previous_due is not None and received <= ctx.previous_due:
        raise Reject(
            phrase("reject.earlier_turn", received=received, previous=ctx.previous_due, turn=turn),
            gang,
        )
    if ctx.due is not None and received > ctx.due and not ctx.late_ok and gang not in ctx.grace_for:
        raise Reject(phrase("reject.late", received=received, due=ctx.due), gang, phrase("help.late"))
    return _save(ctx, r, gang, text, _kept_text(r, text, first.password_lines), where, received)


def _kept_text(r: Reading, text: str, password_lines: Iterable[int]) -> str:
    """The orders as they are written to the game: its password lines blanked, and the
    password the message gave masked wherever else it was pasted (an order line), as
    the reply masks it."""
    return masking.mask_secrets(orders_text(text, password_lines), r.secrets)


def _in_disorder(ctx: Context, gang: str) -> bool:
    """Whether ``gang`` is in civil disorder as its orders arrive (``moonshine.mail.disorder``);
    a policy the game's settings cannot give is no reason to refuse orders."""
    from moonshine.errors import MoonshineError
    from moonshine.mail import disorder

    try:
        return disorder.standings(ctx.game, ctx.turn)[gang].disorder
    except (MoonshineError, KeyError):
        return False


class _Side(msgspec.Struct, frozen=True):
    key: str
    name: str


def _format_help(gang: str, ctx: Context | None = None) -> Phrase:
    """How to send orders, with ``gang``'s key in the example (a classic game's
    example has a power and its orders)."""
    messages = families.of(ctx.game).messages if ctx is not None else ""
    return phrase("help.format" + messages, gang=gang)


class _Counts(msgspec.Struct, frozen=True):
    """``3 orders read, 1 rejected`` / ``3 ordres lus, 1 ligne rejetée``."""

    accepted: int
    rejected: int

    def text(self, language: str) -> str:
        out = mailwords.text(language, "counts.read", n=self.accepted)
        return out + (mailwords.text(language, "counts.rejected", n=self.rejected) if self.rejected else "")


def _orphan_histories(ctx: Context) -> dict[tuple[str, str], Path]:
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


def _history_path(ctx: Context, gang: str, message_id: str) -> Path:
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


def _meta(r: Reading, received: datetime, where: str, note: str = "") -> str:
    extra = f"# kept: {note}\n" if note else ""
    return (
        f"# received: {received.isoformat()}\n# from: {r.sender}\n# message-id: {r.message_id}\n"
        f"# read from: {where}\n{extra}"
    )


def _keep(ctx: Context, r: Reading, gang: str, text: str, where: str, why: str) -> str:
    """Keep orders that are not taken in the gang's history, for the game master;
    returns the file's path in the game."""
    history = _history_path(ctx, gang, r.message_id)
    atomic_write_text(history, _meta(r, r.received or ctx.now, where, why) + text)
    return history.relative_to(ctx.game.root).as_posix()


def _save(ctx: Context, r: Reading, gang: str, sent: str, text: str, where: str, received: datetime) -> Outcome:
    """Save ``text`` (what was ``sent``, password lines blanked) as the gang's
    orders unless a later submission stands. The acknowledgement reads ``sent``
    so that its line numbers are the message's."""
    source = ctx.say("ack.source", sender=r.sender, received=received)  # the acknowledgement's "File:" line
    check = check_orders(sent, ctx.game, ctx.st, gang, source=source, language=ctx.language)
    name = ctx.game.sides(ctx.language)[gang]
    if check.accepted == 0 and check.rejected > 0:
        raise Reject(phrase("reject.nothing_readable", n=check.rejected), gang, check.acknowledgement)
    standing = ctx.log.current.get(gang)
    standing_at = parse_time(standing.get("received")) if standing else None
    history = _history_path(ctx, gang, r.message_id)
    rel_history = history.relative_to(ctx.game.orders_dir(ctx.turn)).as_posix()
    taken = "taken by the game master (inbox --accept)" if ctx.accepting else ""
    atomic_write_text(history, _meta(r, received, where, taken) + text)
    counts = _Counts(check.accepted, check.rejected)
    turn = ctx.turn_text
    if standing_at is not None and received < standing_at:
        after_orders(ctx, r, gang)
        reason = f"{counts.text('en')}; a later submission (received {fmt_time(standing_at)}) stands"
        lead = ctx.say("reply.superseded", gang=name, turn=turn, received=received, standing=standing_at)
        reply = reply_safely(ctx, r, gang, accepted_body(ctx, lead, check, intake_notes(ctx, r), gang), accepted=True)
        return Outcome(SUPERSEDED, r.incoming.origin, r.message_id, r.sender, gang, reason, reply)
    ended = _in_disorder(ctx, gang)  # before the orders: its own orders end it
    atomic_write_text(ctx.game.orders_dir(ctx.turn) / f"{gang}.txt", text)
    was_ready = ready.unready(ctx.game, ctx.turn, gang)  # new orders: a ready is about the old ones
    if ended:
        news.put(ctx.game, ctx.turn, f"back-{gang}", "news.back", side=gang)
    ctx.log.current[gang] = {
        "received": received.isoformat(),
        "message_id": r.message_id,
        "from": r.sender,
        "history": rel_history,
        "accepted": check.accepted,
        "rejected": check.rejected,
    }
    after_orders(ctx, r, gang)
    replaced = f"; replaces the orders received {fmt_time(standing_at)}" if standing_at else ""
    lead = ctx.say(
        "reply.accepted", gang=name, turn=turn, received=received, sender=r.sender, counts=counts.text(ctx.language)
    )
    if standing_at:
        lead += "\n" + ctx.say("reply.replaces", standing=standing_at)
    if ended:
        lead += "\n" + ctx.say("reply.disorder_ended", gang=name)
    if was_ready and not any(c.command is ready.READY_COMMAND for c in r.script.commands):
        lead += "\n" + ctx.say("reply.ready_reset")
    reply = reply_safely(ctx, r, gang, accepted_body(ctx, lead, check, intake_notes(ctx, r), gang), accepted=True)
    return Outcome(ACCEPTED, r.incoming.origin, r.message_id, r.sender, gang, counts.text("en") + replaced, reply)
