"""Waiting for mail between two passes of ``moonshine run --watch``: IMAP IDLE
(RFC 2177) on several mailboxes at once (every game's and judge's on IMAP:
``moonshine.host.watch``), when each of their servers offers it (a server says when
mail arrives, and the first to say so ends the wait), else the caller sleeps.

The standard library's ``imaplib`` has no IDLE command before Python 3.14, so the
command is spoken here through its public API for commands it does not know
(``send``, ``readline`` and ``socket``), with a tag of this module's own: the
client chooses the tags (RFC 3501, 2.2.1), and one that cannot look like
``imaplib``'s (four capitals and a number) never answers one of its commands."""

from __future__ import annotations

import contextlib
import imaplib
import itertools
import selectors
import time
from collections.abc import Sequence

from moonshine.errors import MoonshineError
from moonshine.mail.imap import ImapMailbox

_TAGS = (f"moonshine-idle-{n}" for n in itertools.count(1))


def wait_on(mailboxes: Sequence[ImapMailbox], seconds: float) -> bool:
    """Wait up to ``seconds`` for new mail in any of ``mailboxes`` (not yet opened)
    with IMAP IDLE. False (at once) when there are none, when one of their servers
    does not offer IDLE (the caller's polling then serves them all), or the wait
    failed; True at once when mail is there already (the next pass reads it)."""
    with contextlib.ExitStack() as opened:
        conns: list[imaplib.IMAP4] = []
        try:
            for mailbox in mailboxes:
                box = opened.enter_context(mailbox)
                conn = box.connection()
                if not offers_idle(conn):
                    return False
                if box.pending():  # mail is there already: the next pass reads it
                    return True
                conns.append(conn)
            return idle(conns, seconds) if conns else False
        except (MoonshineError, OSError, imaplib.IMAP4.error):
            return False


def offers_idle(conn: imaplib.IMAP4) -> bool:
    """Whether the server offers IDLE, asked after the login (many servers list
    their extensions only then)."""
    typ, data = conn.capability()
    words = b" ".join(d for d in data if isinstance(d, bytes)).upper().split()
    return typ == "OK" and b"IDLE" in words


def idle(conns: Sequence[imaplib.IMAP4], seconds: float) -> bool:
    """IDLE on each connection's selected folder until one server reports a new
    message or ``seconds`` pass; then DONE on each. True when the wait went as planned."""
    started: list[tuple[imaplib.IMAP4, str]] = []
    try:
        for conn in conns:
            tag = next(_TAGS)
            conn.send(f"{tag} IDLE\r\n".encode("ascii"))
            started.append((conn, tag))
            if not conn.readline().startswith(b"+"):
                return False
        return _wait(conns, seconds)
    finally:
        for conn, tag in started:
            _done(conn, tag)


def _wait(conns: Sequence[imaplib.IMAP4], seconds: float) -> bool:
    """Until a server sends news of a message (or closes), or ``seconds`` pass."""
    end = time.monotonic() + seconds
    with selectors.DefaultSelector() as sel:
        for conn in conns:
            sel.register(conn.socket(), selectors.EVENT_READ, conn)
        while (left := end - time.monotonic()) > 0:
            ready = sel.select(timeout=min(left, 29 * 60))  # RFC 2177: renew before 30 minutes
            if not ready:
                break
            for key, _ in ready:
                line = key.data.readline()
                if not line:
                    return False
                if b"EXISTS" in line.upper() or b"RECENT" in line.upper():
                    return True
    return True


def _done(conn: imaplib.IMAP4, tag: str) -> None:
    """End an IDLE command and read to its tagged end (10 seconds at most)."""
    sock = conn.socket()
    try:
        conn.send(b"DONE\r\n")
        deadline = time.monotonic() + 10
        while (left := deadline - time.monotonic()) > 0:
            sock.settimeout(left)
            try:
                line = conn.readline()
            except (TimeoutError, OSError):
                break
            if not line or line.startswith(f"{tag} ".encode("ascii")):
                break
    except OSError:
        pass
    finally:
        sock.settimeout(None)
