"""A message to a judge for many games, read as far as its routing and the lobby need
it (``Mail``): its sender, subject, Message-ID and time received, whether it is an
automatic reply, why it cannot be read (too big, too many parts, not parsed), the
sender's own lines (``moonshine.mail.intake``), in which the game it names (a
``game:`` line, ``[GAME]`` in the subject) and its password line are found, and the
game its orders as JSON name (``docs/orders-json.md``)."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Collection
from datetime import datetime
from email.message import Message

import msgspec

from moonshine.game.ordersjson import envelope
from moonshine.mail import intake
from moonshine.mail.envelope import forged_verdict, header_text, is_automatic, received_when, sender_of

# A line's value is its first to last non-blank character, taken run by run (\S++, \s++
# followed by a non-blank): possessive runs (*+, ++) are never given back, so a line costs
# one pass; "(.*?)\s*$" cost one pass per character (a minute for 100 KB of blanks).
_VALUE = r"((?:\S++|\s++(?=\S))*+)"
PASSWORD_LINE = re.compile(rf"^\s*+(?:password|mot\s++de\s++passe)\s*+:\s*+{_VALUE}\s*+$", re.I)
GAME_LINE = re.compile(r"^\s*(?:game|partie)\s*:\s*(\S+)\s*$", re.I)
# a subject's tag: [alpha], or [alpha: Its Title] (moonshine.mail.outbox.compose.subject_prefix)
_SUBJECT_GAME = re.compile(r"\[([A-Za-z][A-Za-z0-9-]{1,23})(?::[^\]]{0,200}+)?\]")
_MESSAGE_IDS = re.compile(r"<[^<>\s]{1,250}+>")
MAX_LINES = 2000  # of the sender's own text read


class Mail(msgspec.Struct):
    """A message to the judge, as far as the lobby and the routing need it."""

    raw: bytes
    digest: str
    sender: str = ""
    subject: str = ""
    message_id: str = ""
    received: datetime | None = None
    automatic: bool = False
    forged: str = ""  # the trusted mail server's verdict on its From domain (dmarc=fail...), if forged
    own: bool = False  # from the judge's own address (a loop, or a forgery): never answered
    references: list[str] = msgspec.field(default_factory=list)  # In-Reply-To, then References from the last
    problem: str = ""  # unread: too big, too many parts, not parsed
    lines: list[str] = msgspec.field(default_factory=list)  # the sender's own text, by line
    json_game: str | None = None  # the game its first document of orders as JSON names (docs/orders-json.md)
    too_long: list[int] = msgspec.field(default_factory=list)  # lines left unread (intake.MAX_LINE), from 1

    known: str | None = None  # the game its subject's tag or a mail it replies to names (the router's finding)
    resolved: bool = False  # the router looked the subject's tag and the references up in the registry

    @property
    def game(self) -> str | None:
        """The game the mail names: a ``game:`` line, else ``[GAME]`` in the subject or
        the game of a mail it replies to (as the router found them in the registry)."""
        return self.game_line or (self.known if self.resolved else self.subject_game)

    @property
    def game_line(self) -> str | None:
        """The game a ``game:`` line names."""
        for line in self.lines:
            m = GAME_LINE.match(line)
            if m:
                return m.group(1).lower()
        return None

    @property
    def subject_game(self) -> str | None:
        """The name in the subject's tag (``[alpha]``, ``Re: [alpha: Its Title] ...``)."""
        m = _SUBJECT_GAME.search(self.subject)
        return m.group(1).lower() if m else None

    @property
    def password(self) -> str | None:
        for line in self.lines:
            m = PASSWORD_LINE.match(line)
            if m:
                return m.group(1)
        return None


# a line of orders or of a side's headers: enough to tell orders from a "Thanks!"
_ORDERISH = re.compile(
    r"^[^\S\n]*+(?:[A-Za-z]\s++[A-Za-z]{3}\b|(?:gang|bande|power|puissance|password|mot\s++de\s++passe)\s*+:)", re.I
)


def looks_like_orders(mail: Mail) -> bool:
    """Whether a line of the mail looks like orders or a side's headers (a reply that
    only thanks the judge does not)."""
    return any(_ORDERISH.match(line) for line in mail.lines)


# a Message-ID of the judge's lobby (moonshine.mail.outbox.compose.message_id of its "lobby" mail)
_LOBBY_ID = re.compile(r"<moonshine\.lobby\.[^<>@\s]{0,250}+@([^<>@\s]{1,250}+)>")


def replies_to_lobby(mail: Mail, domain: str) -> bool:
    """Whether the mail answers a mail of the judge's lobby (its reply, a notice of no game)."""
    found = (_LOBBY_ID.fullmatch(ref) for ref in mail.references)
    return any(m is not None and m.group(1).lower() == domain.lower() for m in found)


def is_password_or_game_line(line: str) -> bool:
    """A ``password:`` or ``game:`` line: never a command of the lobby."""
    return bool(PASSWORD_LINE.match(line) or GAME_LINE.match(line))


def read_mail(raw: bytes, limit: int, authserv: str | None = None, ours: Collection[str] = ()) -> Mail:
    """The mail as the judge routes it. ``authserv``: the trusted mail server
    (``inbox.authserv_id``), whose verdict on a forged sender is read
    (``moonshine.mail.envelope.forged_verdict``); ``ours``: the judge's own addresses."""
    from email import policy
    from email.parser import BytesParser

    digest = hashlib.sha256(raw).hexdigest()
    mail = Mail(raw, digest)
    parser = BytesParser(policy=policy.default)
    too_big = len(raw) > limit
    try:
        head = raw.split(b"\n\n", 1)[0] if too_big else raw
        msg: Message = parser.parsebytes(head, headersonly=True)
    except Exception:  # malformed mail must never stop the pass
        mail.problem = "unreadable"
        return mail
    mail.sender = sender_of(msg)
    mail.subject = header_text(msg, "Subject")[:200]
    mail.message_id = header_text(msg, "Message-ID")[:250]
    mail.received = received_when(msg)[0]
    mail.automatic = is_automatic(msg, mail.sender)
    mail.forged = forged_verdict(msg, mail.sender, authserv) or ""
    mail.own = bool(mail.sender) and mail.sender in {a.lower() for a in ours}
    replied = _MESSAGE_IDS.findall(header_text(msg, "In-Reply-To")[:1000])
    mail.references = [*replied[:1], *reversed(_MESSAGE_IDS.findall(header_text(msg, "References")[:5000]))][:20]
    if too_big:
        mail.problem = "too big"
        return mail
    if intake.too_many_parts(raw):
        mail.problem = "too many parts"
        return mail
    try:
        full = parser.parsebytes(raw)
        found = intake.texts(full)
        documents = intake.json_documents(full, found)
        if documents:
            named = envelope(documents[0][1]).get("game", "")
            mail.json_game = " ".join(named.split())[:100] or None
        for _, text in found:
            own = intake.own_text(text)
            if own.text.strip() or own.lines_dropped(intake.TOO_LONG):
                mail.lines = own.text.split("\n")[:MAX_LINES]
                mail.too_long = own.lines_dropped(intake.TOO_LONG)
                break
    except Exception:
        mail.problem = "unreadable"
    return mail
