"""A message the referee writes: its headers as the referee always sets them
(``text_message``), a Message-ID that depends only on the game and what the message
is (so that writing it again writes the same message), the subject's prefix, and the
recipients who must not see each other (``unseen``). The outbox's messages are
written, and read back to be sent, with ``POLICY``."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from datetime import UTC, datetime
from email import policy
from email.message import EmailMessage
from email.utils import format_datetime, parseaddr

from moonshine.game.directory import Game, GameConfig
from moonshine.mail.settings import from_address


def mail_domain(cfg: GameConfig) -> str:
    addr = parseaddr(from_address(cfg))[1]
    return addr.rpartition("@")[2] or "moonshine.invalid"


def game_name(cfg: GameConfig) -> str | None:
    """The game's name at the judge for many games that plays it (``judge: {name:
    alpha}`` in game.yaml), or None for a game of its own."""
    section = cfg.extra.get("judge")
    name = section.get("name") if isinstance(section, dict) else None
    return str(name) if name else None


# A Message-ID of a judge's game names the game (``<moonshine+alpha.spring-1901.reply...@host>``):
# a reply's In-Reply-To or References leads back to it (moonshine.host.run).
_NAMED_ID = re.compile(r"<moonshine\+([a-z][a-z0-9-]{1,23})\.[^<>@\s]{0,250}+@([^<>@\s]{1,250}+)>")


def message_id(cfg: GameConfig, *parts: str, label: int = 3) -> str:
    """A Message-ID that depends only on the game and ``parts`` (turn, kind, ...);
    the first ``label`` parts show in it, after the game's name at a judge for many
    games (``game_named_by``)."""
    digest = hashlib.sha256("|".join((cfg.seed_sha256, cfg.title, *parts)).encode("utf-8")).hexdigest()[:20]
    label_text = ".".join(re.sub(r"[^A-Za-z0-9-]", "", p)[:24] for p in parts[:label])
    name = game_name(cfg)
    head = f"moonshine+{name}" if name else "moonshine"
    return f"<{head}.{label_text}.{digest}@{mail_domain(cfg)}>"


def game_named_by(message_id: str, domain: str) -> str | None:
    """The game a Message-ID the judge of ``domain`` wrote names, or None."""
    m = _NAMED_ID.fullmatch(message_id.strip())
    return m.group(1) if m and m.group(2).lower() == domain.lower() else None


def address_mark(address: str) -> str:
    """A short digest of an address, naming one recipient's own mail in an outbox and
    in its Message-ID (an outbox file name never shows an address): the same address,
    the same mark."""
    return hashlib.sha256(address.strip().lower().encode("utf-8")).hexdigest()[:8]


def subject_prefix(cfg: GameConfig) -> str:
    """A subject's tag: the game's title, or at a judge for many games its name, which
    a reply's subject names the game by (``[alpha]``), with its title after it
    (``[alpha: Alpha Chicago]``)."""
    name = game_name(cfg)
    if name is None:
        return f"[{cfg.title}]"
    return f"[{name}]" if cfg.title.strip() in ("", name) else f"[{name}: {cfg.title}]"


def turn_in_subject(game: Game, language: str, turn: str) -> str:
    """A turn as a subject names it: ``Spring 1924`` (``Printemps 1924``), a classic
    phase by its label (``Autumn 1901``, ``Automne 1901``), never by its key."""
    from moonshine.render.mailwords import subject_turn
    from moonshine.text.catalogue import Localized

    shown = subject_turn(language, turn)
    if shown != turn:
        return shown
    named = game.layout.turn_in_text(turn)
    return named.text(language) if isinstance(named, Localized) else str(named)


def cte(text: str) -> str:
    return "7bit" if text.isascii() and all(len(line) < 900 for line in text.splitlines()) else "quoted-printable"


def fix_boundaries(msg: EmailMessage, seed: str) -> None:
    """Multipart boundaries are random by default; make them depend on ``seed``
    so that the same message is written as the same bytes."""
    for i, part in enumerate(msg.walk()):
        if part.is_multipart():
            part.set_boundary(f"==moonshine-{hashlib.sha256(f'{seed}|{i}'.encode()).hexdigest()[:24]}-{i}==")


# The outbox's messages are written, and read back to be sent, with their headers on
# one line up to RFC 5322's limit of 998 characters instead of folded at 78: Python's
# folding of a header with encoded words (a French subject, "printemps 1924 : ordres
# reçus") writes a space the reader sees twice on 3.12.5 and later and on 3.13 until
# the fix of CPython's gh-144156, and some providers refuse such headers.
POLICY = policy.default.clone(max_line_length=998)


def text_message(
    *,
    sender: str,
    to: Sequence[str],
    subject: str,
    body: str,
    msg_id: str,
    date: datetime,
    cc: Sequence[str] = (),
    bcc: Sequence[str] = (),
    reply_to: str | None = None,
    in_reply_to: str | None = None,
    references: str | None = None,
    auto: str = "auto-generated",
) -> EmailMessage:
    """A plain-text message with the headers the referee always sets."""
    msg = EmailMessage(policy=POLICY)
    msg["From"] = sender
    msg["To"] = ", ".join(to)
    if cc:
        msg["Cc"] = ", ".join(cc)
    if bcc:
        msg["Bcc"] = ", ".join(bcc)
    if reply_to:
        msg["Reply-To"] = reply_to
    msg["Subject"] = subject
    msg["Date"] = format_datetime(date.astimezone(UTC), usegmt=True)
    msg["Message-ID"] = msg_id
    if in_reply_to:
        msg["In-Reply-To"] = in_reply_to
        msg["References"] = references or in_reply_to
    msg["Auto-Submitted"] = auto
    msg.set_content(body, cte=cte(body))
    return msg


def unseen(sender: str, recipients: Sequence[str]) -> tuple[list[str], list[str]]:
    """To: and Bcc: of one mail to ``recipients`` who must not see each other's
    addresses: the one recipient in To:, or the judge's own address (``sender``) in
    To: and every recipient in Bcc:, as the bulletin goes."""
    people = sorted(dict.fromkeys(recipients))
    return (people, []) if len(people) <= 1 else ([sender], people)
