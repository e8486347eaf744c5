"""The inbox's answers (``outbox/TURN/reply-*.eml``): the body of an accepted
submission (its acknowledgement, the deadline, what the reading left out, the
commands done) and of a refused one (why, and what to do), the reply message
threaded on the player's own, and a warning to each of a side's addresses when its password is guessed.
Replies are written in the reader's language (``moonshine.render.mailwords``); a
reply that cannot be written changes nothing of what became of the message."""

from __future__ import annotations

import functools
import hashlib
import re
from email.message import EmailMessage

from moonshine.game import ledger, masking
from moonshine.game.directory import Game, player_language
from moonshine.game.families.base import OrderCheck
from moonshine.mail import intake, outbox
from moonshine.mail.envelope import split_lines
from moonshine.mail.inbox.context import Context, gangs_of
from moonshine.mail.inbox.outcome import Reject
from moonshine.mail.inbox.reading import Reading
from moonshine.mail.outbox import compose
from moonshine.mail.passwords import MAX_WRONG_PASSWORDS
from moonshine.mail.settings import from_address, player_addresses
from moonshine.render import mailwords, pages
from moonshine.render.mailwords import Phrase, describe_time_left, phrase
from moonshine.text.printable import printable
from moonshine.text.wrap import line_ranges


def deadline_line(ctx: Context, side: str | None = None) -> str:
    """The deadline, in the zone of ``side``'s player (``moonshine.game.deadlines``) and in UTC."""
    if ctx.due is None:
        return ctx.say("deadline.paused" if ctx.paused else "deadline.none")
    from moonshine.game.deadlines import deadline_text

    left = describe_time_left(ctx.due, ctx.now, ctx.language)
    return ctx.say("deadline.line", due=deadline_text(ctx.game.config, side, ctx.due, ctx.language), left=left)


def signature_line(game: Game, language: str | None = None) -> str:
    return mailwords.text(language or game.config.language, "signature", title=game.config.title)


def signature(game: Game, language: str | None = None) -> str:
    return "\n-- \n" + signature_line(game, language) + "\n"


def intake_notes(ctx: Context, r: Reading) -> str:
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
    if r.json_read and r.json_left:
        notes.append(ctx.say("note.json_left"))
    if r.answer:
        notes.append(r.answer)
    return "\n".join(notes)


def accepted_body(ctx: Context, lead: str, check: OrderCheck, notes: str = "", side: str | None = None) -> str:
    if ctx.due is None:
        more = ctx.say("reply.open_paused" if ctx.paused else "reply.open_no_deadline")
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
            deadline=deadline_line(ctx, side),
            more=more,
            ack=check.acknowledgement.rstrip(),
            notes=notes,
            signature=signature_line(ctx.game, ctx.language),
        ),
    )


def rejection_body(ctx: Context, r: Reading, rej: Reject) -> str:
    when = ctx.say("reply.received_at", received=r.received) if r.received else ""
    # a stranger's own words are never sent back (the judge would relay short spam)
    stranger = not gangs_of(ctx, r.sender)
    if stranger:
        first = ctx.say("reply.stranger_rejected", when=when, turn=ctx.turn_text)
    else:
        about = phrase("reply.subject", subject=r.subject) if r.subject else phrase("reply.no_subject")
        first = ctx.say("reply.rejected", about=about, when=when, turn=ctx.turn_text)
    help_text = rej.help_text.text(ctx.language) if isinstance(rej.help_text, Phrase) else rej.help_text
    return pages.render(
        "reply_rejected.txt.j2",
        dict(
            rejected=first,
            reason=ctx.say("reply.reason", reason=rej.phrase),
            unchanged=ctx.say("reply.unchanged"),
            help=(help_text or "").rstrip(),
            notes=intake_notes(ctx, r) if not stranger else "",
            deadline=deadline_line(ctx, rej.gang),
            signature=signature_line(ctx.game, ctx.language),
        ),
    )


def reply_or_none(ctx: Context, r: Reading, gang: str | None, rej: Reject) -> str | None:
    """The refusal's reply, or None when none can be written for this message (its
    headers defeat the mail library, or the day's cap of mail to its unproven address
    is reached): the refusal is still logged."""
    try:
        body = rejection_body(ctx, r, rej)
    except Exception:
        return None
    return reply_safely(ctx, r, gang, body, accepted=False)


def reply_safely(
    ctx: Context,
    r: Reading,
    gang: str | None,
    body: str,
    *,
    accepted: bool,
    plain_key: str | None = None,
) -> str | None:
    """``_write_reply``, or None when no reply can be written for this message:
    what became of the message stands and is logged all the same. A message whose
    sender and password did not check out is answered within the day's budget of mail
    to unproven addresses (``Context.budget``): past it, nothing goes back, so that
    nobody can turn the judge into a cannon aimed at a third party's address."""
    if not r.checked and ctx.budget is not None and not ctx.budget.allow(r.sender):
        ctx.capped += 1
        return None
    try:
        return _write_reply(ctx, r, gang, body, accepted=accepted, plain_key=plain_key)
    except Exception:
        return None


def _write_reply(
    ctx: Context,
    r: Reading,
    gang: str | None,
    body: str,
    *,
    accepted: bool,
    plain_key: str | None = None,
) -> str:
    """The reply to ``r`` in the outbox. Its name and Message-ID come from the
    message's Message-ID once sender and password checked out, else also from
    its content: a forged copy's reply never stands for the real one's."""
    cfg = ctx.game.config
    key = r.message_id if r.checked or not r.digest else f"{r.message_id} {r.digest}"
    digest = hashlib.sha256(key.encode("utf-8")).hexdigest()[:12]
    name = f"reply-{(gang or 'unknown').lower()}-{digest}.eml"  # outbox names are lower case (a power is FRA)
    plain = ctx.say(
        plain_key or ("subject.accepted" if accepted else "subject.rejected"),
        prefix=compose.subject_prefix(cfg),
        turn=compose.turn_in_subject(ctx.game, ctx.language, ctx.turn),
    )
    if not gangs_of(ctx, r.sender):  # a stranger's subject is not sent back
        subject = plain
    else:
        subject = r.subject if r.subject.lower().startswith("re:") else f"Re: {r.subject}" if r.subject else plain
    cc: list[str] = []
    if accepted and gang is not None and r.checked:
        cc = [a for a in player_addresses(cfg, gang) if a.lower() != r.sender]
    try:
        msg = _reply_message(ctx, r, cc, masking.mask(subject, r.secrets), body, key, _reference(r.message_id))
    except Exception:  # a subject or reference the mail library refuses: the plain subject, no threading
        msg = _reply_message(ctx, r, cc, plain, body, key, None)
    outbox.write_outbox(ctx.game, ctx.turn, [outbox.Outgoing(name, msg)])
    return name


_MESSAGE_ID = re.compile(r"<[!-;=?-~]{1,250}>")  # printable ASCII, no "<" or ">" inside


def _reply_message(
    ctx: Context, r: Reading, cc: list[str], subject: str, body: str, key: str, reference: str | None
) -> EmailMessage:
    cfg = ctx.game.config
    return compose.text_message(
        sender=from_address(cfg),
        to=[r.sender],
        cc=cc,
        subject=subject,
        body=masking.mask_secrets(body, r.secrets),
        msg_id=compose.message_id(cfg, ctx.turn, "reply", key),
        date=ctx.now,
        reply_to=from_address(cfg),
        in_reply_to=reference,
        auto="auto-replied",
    )


def _reference(message_id: str) -> str | None:
    """The message's Message-ID for the reply's In-Reply-To, when it is one a mail
    program can thread on; None for anything else (made up or hostile)."""
    return message_id if _MESSAGE_ID.fullmatch(message_id) else None


def warn_of_guessing(ctx: Context) -> None:
    """One mail to each of a gang's addresses, at most once a day, when a pass read a
    wrong password in its name (and held messages unread after too many): how many,
    and what to do. Never one mail per guess, nor one per pass: forged guesses cannot
    flood a player; every address of the gang hears of them, and each mail names
    only the address it goes to."""
    cfg = ctx.game.config
    day = ctx.now.strftime("%Y%m%d")
    for gang in ctx.game.sides():
        wrong, held = ctx.wrong[f"gang:{gang}"], ctx.held[gang]
        if wrong + held == 0:
            continue
        language = player_language(cfg, gang)
        say = functools.partial(mailwords.text, language)
        side = ctx.game.sides(language)[gang]
        key = "warning.guessing" if wrong + held > 1 else "warning.guessing_one"
        body = say(key, gang=side, n=wrong + held, wrong=wrong, held=held, limit=MAX_WRONG_PASSWORDS)
        body += "\n" + signature(ctx.game, language)
        subject = say("warning.guessing_subject", prefix=compose.subject_prefix(cfg), gang=side)
        for address in player_addresses(cfg, gang):
            # each address its own mail, named by a digest of it (an outbox name never shows an address)
            mark = compose.address_mark(address)
            name = f"reply-warning-{gang.lower()}-{day}-{mark}.eml"
            if (ledger.outbox_dir(ctx.game, ctx.turn) / name).exists():
                continue  # this address was warned today
            msg = compose.text_message(
                sender=from_address(cfg),
                to=[address],
                subject=subject,
                body=body,
                msg_id=compose.message_id(cfg, ctx.turn, "warning", f"guessing {gang} {day} {mark}"),
                date=ctx.now,
                reply_to=from_address(cfg),
                auto="auto-generated",
            )
            outbox.write_outbox(ctx.game, ctx.turn, [outbox.Outgoing(name, msg)])
