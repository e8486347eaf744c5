"""Waiting for mail between two passes of ``moonshine run --watch``: IMAP IDLE
(RFC 2177) when the first game whose mailbox is on IMAP has a server that
offers it (the server says when mail arrives), else the caller sleeps.

The standard library's ``imaplib`` has no IDLE command before Python 3.14, so the
command is spoken here through its public API for commands it does not know
(``send``, ``readline`` and ``socket``), with a tag of this module's own: the
client chooses the tags (RFC 3501, 2.2.1), and one that cannot look like
``imaplib``'s (four capitals and a number) never answers one of its commands."""

from __future__ import annotations

import imaplib
import itertools
import time
from collections.abc import Sequence
from pathlib import Path

from moonshine.errors import MoonshineError

_TAGS = (f"moonshine-idle-{n}" for n in itertools.count(1))


def wait_for_mail(games: Sequence[Path], seconds: float) -> bool:
    """Wait up to ``seconds`` for new mail with IMAP IDLE. False (at once) when no
    game reads an IMAP mailbox whose server offers IDLE, or the wait failed."""
    from moonshine.gamedir import Game
    from moonshine.imapbox import is_imap_url
    from moonshine.inbox import imap_box
    from moonshine.judge import mail_source

    for root in games:
        try:
            game = Game(root)
            source = mail_source(game)
            if source is None or not is_imap_url(source):
                continue
            with imap_box(game, source) as box:
                conn = box._need()
                if not offers_idle(conn):
                    return False
                if box.pending():  # mail is there already: the next pass reads it
                    return True
                return idle(conn, seconds)
        except (MoonshineError, OSError, imaplib.IMAP4.error):
            return False
    return False


def offers_idle(conn: imaplib.IMAP4) -> bool:
    """Whether the server offers IDLE, asked after the login (many servers list
    their extensions only then)."""
    typ, data = conn.capability()
    words = b" ".join(d for d in data if isinstance(d, bytes)).upper().split()
    return typ == "OK" and b"IDLE" in words


def idle(conn: imaplib.IMAP4, seconds: float) -> bool:
    """IDLE on the selected folder until the server reports a new message or
    ``seconds`` pass; then DONE. True when the wait went as planned."""
    tag = next(_TAGS)
    conn.send(f"{tag} IDLE\r\n".encode("ascii"))
    first = conn.readline()
    if not first.startswith(b"+"):
        return False
    end = time.monotonic() + seconds
    sock = conn.socket()
    try:
        while (left := end - time.monotonic()) > 0:
            sock.settimeout(min(left, 29 * 60))  # RFC 2177: renew before 30 minutes
            try:
                line = conn.readline()
            except TimeoutError:
                break
            if not line:
                return False
            if b"EXISTS" in line.upper() or b"RECENT" in line.upper():
                break
    finally:
        sock.settimeout(None)
        conn.send(b"DONE\r\n")
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:  # the tagged end of the IDLE command
            try:
                line = conn.readline()
            except (TimeoutError, OSError):
                break
            if not line or line.startswith(f"{tag} ".encode("ascii")):
                break
    return True
