"""The outbox: ``outbox/TURN/*.eml`` in a game's directory (``outbox/DAY/`` in a
judge's), files any mail program opens. Every message is written here first, then
sent as it is, each to each recipient at most once, the deliveries recorded in the
folder's ledger (``sent.yaml``, ``moonshine.game.ledger``).

- ``settings`` is not here: ``moonshine.mail.settings`` reads game.yaml's;
- ``compose``: a message's headers and identity;
- ``reports``: the turn's reports and bulletin as messages;
- ``smtp``: the delivery, at most once.

This module: the folder's messages written, read back, and those still to send."""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import datetime
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import getaddresses
from pathlib import Path

import msgspec

from moonshine.errors import GameError
from moonshine.game import ledger
from moonshine.game.directory import Game, atomic_write_text
from moonshine.mail.outbox.compose import POLICY


class Outgoing(msgspec.Struct, frozen=True):
    """A message to put in the outbox under ``name`` (a file name we chose)."""

    name: str
    message: EmailMessage


def serialise(msg: EmailMessage) -> str:
    return msg.as_string(policy=POLICY)


def write_outbox(game: Game, turn: str, items: Iterable[Outgoing]) -> list[Path]:
    """Write messages as ``outbox/TURN/NAME`` (atomically); returns the paths."""
    return write_folder(ledger.outbox_dir(game, turn), items)


def write_folder(folder: Path, items: Iterable[Outgoing]) -> list[Path]:
    """Write messages into an outbox folder (atomically); returns the paths."""
    paths = []
    for item in items:
        if not re.fullmatch(r"[a-z0-9][a-z0-9._-]*\.eml", item.name):
            raise GameError(f"not an outbox file name: {item.name!r}")
        path = folder / item.name
        atomic_write_text(path, serialise(item.message))
        paths.append(path)
    return paths


def load_message(path: Path) -> EmailMessage:
    with path.open("rb") as fh:
        msg = BytesParser(policy=POLICY).parse(fh)
    assert isinstance(msg, EmailMessage)
    return msg


def recipients(msg: EmailMessage) -> list[str]:
    """Envelope recipients: every address in To, Cc and Bcc, once, in order."""
    found: list[str] = []
    for header in ("To", "Cc", "Bcc"):
        for _, addr in getaddresses([str(v) for v in msg.get_all(header, [])]):
            if addr and addr not in found:
                found.append(addr)
    return found


def next_attempt(folder: Path, now: datetime) -> datetime | None:
    """When the folder's mail is next to be tried: ``now`` when a message has a
    recipient to try now (``pending``), else the earliest time a delivery deferred
    after a transient failure is tried again; None when nothing is left to try."""
    if not folder.is_dir():
        return None
    sent = ledger.load_sent(folder)
    found: datetime | None = None
    for path in sorted(folder.glob("*.eml")):
        msg = load_message(path)
        entry = sent.get(str(msg.get("Message-ID", "")).strip(), {})
        done = set(entry.get("delivered") or []) | set(entry.get("unknown") or {}) | set(entry.get("failed") or {})
        later = {a: d.next for a, d in ledger.deferrals(entry).items() if d.next > now}
        if set(recipients(msg)) - done - set(later):
            return now
        for when in later.values():
            found = when if found is None or when < found else found
    return found


def pending(folder: Path, now: datetime) -> list[str]:
    """The folder's messages with a recipient to try at ``now``: not yet reached,
    not of unknown outcome, not refused for good, and not deferred (after a transient
    failure) to a later time."""
    if not folder.is_dir():
        return []
    sent = ledger.load_sent(folder)
    out = []
    for path in sorted(folder.glob("*.eml")):
        msg = load_message(path)
        entry = sent.get(str(msg.get("Message-ID", "")).strip(), {})
        done = set(entry.get("delivered") or []) | set(entry.get("unknown") or {}) | set(entry.get("failed") or {})
        done |= {a for a, d in ledger.deferrals(entry).items() if d.next > now}
        if set(recipients(msg)) - done:
            out.append(path.name)
    return out
