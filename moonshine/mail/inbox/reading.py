"""One message as the inbox reads it (``Reading``): its headers first (``head``:
enough to sort the mailbox and skip what was read before), then the whole of it
(``read``): its sender, subject and time received, the texts its orders may be in
(``moonshine.mail.intake``) and its documents of orders as JSON, the passwords it
gives (masked in anything written), or why it cannot be read (too big, too many parts,
not parsed)."""

from __future__ import annotations

import hashlib
import re
from datetime import datetime
from email import policy
from email.message import Message
from email.parser import BytesParser

import msgspec

from moonshine.game import masking
from moonshine.game.ordersjson import envelope
from moonshine.mail import intake
from moonshine.mail.commands.grammar import Answer, CommandLine, Script
from moonshine.mail.envelope import header_text, received_time, received_when, sender_of
from moonshine.mail.sources import Entry, Incoming
from moonshine.render.mailwords import Phrase, phrase


class Reading(msgspec.Struct):
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
    json: list[tuple[str, bytes]] = msgspec.field(default_factory=list)  # its orders as JSON (intake.json_documents)
    json_read: str = ""  # where the orders were read from, when from a JSON document (intake.JSON_*)
    json_left: bool = False  # the mail's text held more than its password line, and was not read as orders
    secrets: tuple[str, ...] = ()  # what its password lines say, quoted or not: masked in anything written
    checked: bool = False  # its sender and password checked out
    digest: str = ""  # sha256 of its bytes
    future: bool = False  # its date was in the future, so the time of reading was used
    by_server: bool = False  # its time is the game master's server's (Received:), not the sender's (Date:)
    script: Script = msgspec.field(default_factory=Script)  # its commands (moonshine.mail.commands)
    answer: str = ""  # what was done for them, for the reply
    results: list[Answer] = msgspec.field(default_factory=list)  # the commands done so far
    later: tuple[CommandLine, ...] = ()  # commands to do once the orders are taken (status)
    orders_refused: bool = False  # its orders were refused: the commands done after them know it (ready)


def message_id_of(raw: bytes, msg: Message | None) -> str:
    mid = header_text(msg, "Message-ID") if msg is not None else ""
    return mid if mid else f"<sha256.{hashlib.sha256(raw).hexdigest()[:32]}@no-message-id>"


def header_block(raw: bytes) -> bytes:
    """The message's header block: its bytes up to the first empty line (all of them
    when it has none)."""
    ends = [i for i in (raw.find(b"\n\n"), raw.find(b"\n\r\n")) if i >= 0]
    return raw[: min(ends) + 1] if ends else raw


def read(incoming: Incoming, limit: int) -> Reading:
    parser = BytesParser(policy=policy.default)
    # a message over the limit is refused unread: only its header block is parsed (the
    # mail library holds a parsed text several times over: 55 MB for a 7 MB photo)
    too_big = len(incoming.raw) > limit
    try:
        headers = parser.parsebytes(header_block(incoming.raw) if too_big else incoming.raw, headersonly=True)
    except Exception as exc:  # malformed mail must never stop the run
        why = phrase("reject.unreadable", error=type(exc).__name__)
        return Reading(incoming, message_id_of(incoming.raw, None), problem=why)
    r = Reading(incoming, message_id_of(incoming.raw, headers), msg=headers)
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
    try:
        r.json = intake.json_documents(r.msg, r.texts)
    except Exception:  # a part the mail library cannot decode: no document
        r.json = []
    given = [envelope(raw).get("password", "").strip() for _, raw in r.json[:1]]
    r.secrets = tuple(v for _, text in r.texts for v in masking.password_values(text)) + tuple(v for v in given if v)
    r.subject = masking.mask(r.subject, r.secrets)
    return r


class Head(msgspec.Struct, frozen=True):
    """What the first pass keeps of a message: enough to sort and skip it."""

    entry: Entry
    index: int
    digest: str
    message_id: str
    received: datetime | None


def head(entry: Entry, index: int) -> Head:
    try:
        raw = entry.load()
    except Exception:  # gone or unreadable: the second pass says so
        return Head(entry, index, "", f"<unreadable.{index}@no-message-id>", None)
    digest = hashlib.sha256(raw).hexdigest()
    try:  # the header block alone: the same headers, without the body's copies
        headers = BytesParser(policy=policy.default).parsebytes(header_block(raw), headersonly=True)
    except Exception:
        return Head(entry, index, digest, message_id_of(raw, None), None)
    return Head(entry, index, digest, message_id_of(raw, headers), received_time(headers))


# a line a player writes to the judge: an order (a unit's letter and a place code) or
# the password line; enough to answer a player writing from an unknown address
# (blanks but no line break before the word: "^\s*" read every empty line to the end of the text)
_PLAYERISH = re.compile(r"^[^\S\n]*+(?:[A-Za-z]\s++[A-Za-z]{3}\b|(?:password|mot de passe)\s*+:)", re.I | re.M)


def looks_like_orders(r: Reading) -> bool:
    if r.msg is None or r.json:
        return True  # unread: the refusal says why; or orders as JSON
    try:
        return r.texts_failed or any(_PLAYERISH.search(intake.own_text(raw).text) for _, raw in r.texts)
    except Exception:  # a message the mail library cannot take apart is answered as before
        return True
