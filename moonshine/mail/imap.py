"""A real mailbox over IMAP: the judge's own address at a mail provider.

``imaps://USER@HOST[:PORT]/FOLDER`` connects with TLS from the first byte (port
993 by default); ``imap://USER@HOST[:PORT]/FOLDER`` connects in clear and must
switch to TLS with STARTTLS before the password is sent (port 143 by default):
a server that does not offer STARTTLS is refused, never sent the password in
clear. The folder defaults to ``INBOX``; a folder name with spaces or non-ASCII
letters is written percent-encoded (``/Diplomacy%20orders``).

The password is never on the command line: it comes from an environment
variable (``MOONSHINE_IMAP_PASSWORD`` by default) or from a file the game master
names (the first line of the file). A provider that takes no password (Outlook.com,
Microsoft 365) gets an OAuth2 access token instead, by ``AUTHENTICATE XOAUTH2``
(``imaplib``'s ``authenticate``): the token comes from the operator's command
(``moonshine.mail.oauth``), and a token the server refuses is asked for once more
and tried once again, on the same connection.

Messages are read one at a time (``BODY.PEEK[]``: reading does not mark them
seen) and only after their size is known, so memory is bounded by the largest
message the judge accepts, not by the mailbox. A message the judge has finished
with is moved to another folder (``Judged`` unless the game master names one),
where the game master can still read it; moving works on every server, where
keywords (custom flags) do not. A message still in the folder is read again by
the next run: a run killed between reading and moving reads it again, and the
caller recognises it by its key (the folder's UIDVALIDITY and the message's UID,
``key``), which it records before it answers. The standard library's ``imaplib`` is the client: it is synchronous
like the rest of a run, speaks every IMAP4rev1 server, and adds no dependency.
"""

from __future__ import annotations

import base64
import imaplib
import os
import re
import socket
import ssl
from collections.abc import Callable, Iterator
from pathlib import Path
from types import TracebackType
from typing import Any
from urllib.parse import unquote, urlsplit

import msgspec

from moonshine.errors import GameError
from moonshine.game.masking import mask_tokens
from moonshine.mail import oauth

DONE_FOLDER = "Judged"
PASSWORD_VARIABLE = "MOONSHINE_IMAP_PASSWORD"
DEFAULT_PORTS = {"imaps": 993, "imap": 143}
TIMEOUT = 60.0  # seconds for any one network operation
MAX_MESSAGE = 10 * 1024 * 1024  # bytes; a larger message is reported, never downloaded


def is_imap_url(text: str) -> bool:
    return text.lower().startswith(("imap://", "imaps://"))


class ImapAddress(msgspec.Struct, frozen=True):
    """Where the judge's mail is: ``imaps://judge@mail.example.org/INBOX``."""

    tls: bool  # True: TLS from the start (imaps); False: STARTTLS (imap)
    user: str
    host: str
    port: int
    folder: str

    @classmethod
    def parse(cls, url: str) -> ImapAddress:
        parts = urlsplit(url.strip())
        scheme = parts.scheme.lower()
        if scheme not in DEFAULT_PORTS:
            raise GameError(f"{url}: not an IMAP address (expected imaps://USER@HOST[:PORT]/FOLDER or imap://...)")
        if parts.password is not None:
            raise GameError(
                f"{_safe(url)}: the password does not belong in the address (it would show in the process list "
                f"and the shell's history); set {PASSWORD_VARIABLE} or name a password file"
            )
        if not parts.username or not parts.hostname:
            raise GameError(f"{url}: expected imaps://USER@HOST[:PORT]/FOLDER (the user and the host are needed)")
        try:
            port = parts.port or DEFAULT_PORTS[scheme]
        except ValueError:
            raise GameError(f"{url}: the port must be a number from 1 to 65535") from None
        folder = unquote(parts.path.lstrip("/")) or "INBOX"
        return cls(scheme == "imaps", unquote(parts.username), parts.hostname, port, folder)

    def url(self) -> str:
        scheme = "imaps" if self.tls else "imap"
        return f"{scheme}://{self.user}@{self.host}:{self.port}/{self.folder}"


def _safe(url: str) -> str:
    """``url`` with any password in it replaced by stars, for error messages."""
    return re.sub(r"(//[^:/@]*:)[^@/]*@", r"\1***@", url)


def read_password(*, variable: str = PASSWORD_VARIABLE, file: Path | None = None) -> str:
    """The mailbox password: from ``file`` (its first line) when given, else from
    the environment variable ``variable``."""
    if file is not None:
        try:
            with file.open("rb") as fh:
                first = fh.read(4096).decode("utf-8").splitlines()
        except OSError as exc:
            raise GameError(f"{file}: cannot read the mailbox password ({exc.strerror or exc})") from None
        except UnicodeDecodeError:
            raise GameError(f"{file}: the mailbox password file is not UTF-8 text") from None
        if not first or not first[0].strip():
            raise GameError(f"{file}: the mailbox password file is empty")
        return first[0].strip()
    value = os.environ.get(variable, "")
    if not value:
        raise GameError(f"no mailbox password: set the environment variable {variable} (or name a password file)")
    return value


class ImapMessage(msgspec.Struct, frozen=True):
    uid: int
    key: str  # "UIDVALIDITY:UID": the same message has the same key in every run
    raw: bytes  # a message over the limit (``too_large``): only its first bytes, one more than the limit
    size: int
    too_large: bool = False

    @property
    def label(self) -> str:
        return f"IMAP message {self.uid}"


class ImapMailbox:
    """A connection to one folder: ``with ImapMailbox(address, password) as box:``;
    ``secret``: the password, or the command that prints an OAuth2 access token
    (XOAUTH2)."""

    def __init__(
        self,
        address: ImapAddress,
        secret: str | oauth.TokenCommand,
        *,
        ca_file: Path | None = None,
        done_folder: str = DONE_FOLDER,
        timeout: float = TIMEOUT,
        max_message: int = MAX_MESSAGE,
    ) -> None:
        self.address = address
        self.done_folder = done_folder
        self.max_message = max_message
        self._secret = secret
        self._context = ssl.create_default_context(cafile=str(ca_file) if ca_file else None)
        self._timeout = timeout
        self._conn: imaplib.IMAP4 | None = None
        self.uidvalidity = 0

    # -- connection ---------------------------------------------------------------
    def __enter__(self) -> ImapMailbox:
        self.open()
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

    def open(self) -> None:
        a = self.address
        where = a.url()
        try:
            if a.tls:
                conn: imaplib.IMAP4 = imaplib.IMAP4_SSL(
                    a.host, a.port, ssl_context=self._context, timeout=self._timeout
                )
            else:
                conn = imaplib.IMAP4(a.host, a.port, timeout=self._timeout)
                if "STARTTLS" not in conn.capabilities:
                    conn.shutdown()
                    raise GameError(f"{where}: the server offers no STARTTLS; the password is never sent in clear")
                conn.starttls(ssl_context=self._context)
        except ssl.SSLError as exc:
            raise GameError(f"{where}: TLS failed ({exc.reason or exc})") from None
        except (OSError, imaplib.IMAP4.error) as exc:
            raise GameError(f"{where}: cannot connect ({_why(exc)})") from None
        self._conn = conn
        try:
            if isinstance(self._secret, oauth.TokenCommand):
                self._xoauth2(conn, self._secret)
            else:
                conn.login(a.user, self._secret)
        except imaplib.IMAP4.abort as exc:
            self.close()
            raise GameError(f"{where}: connection lost while logging in ({_why(exc)})") from None
        except imaplib.IMAP4.error:
            self.close()
            raise GameError(f"{where}: the server refused the user name or the password") from None
        except OSError as exc:
            self.close()
            raise GameError(f"{where}: connection lost while logging in ({_why(exc)})") from None
        except GameError:
            self.close()
            raise
        self._select()

    def _xoauth2(self, conn: imaplib.IMAP4, command: oauth.TokenCommand) -> None:
        """Log in with an access token (``AUTHENTICATE XOAUTH2``); one the server
        refuses (expired early, revoked) is asked for again, and tried once more."""
        where, user = self.address.url(), self.address.user
        if "AUTH=XOAUTH2" not in conn.capabilities:
            offered = " ".join(c for c in conn.capabilities if c.startswith("AUTH=")) or "none"
            raise GameError(f"{where}: the server does not offer XOAUTH2 (its logins: {offered}); set auth: password")
        tried: list[str] = []
        why = ""
        for again in (False, True):
            token = oauth.token(command, again=again)
            if token in tried:
                break  # the command gave the token just refused: no use trying it again
            tried.append(token)
            answer = _XOAuth2(oauth.sasl(user, token))
            try:
                conn.authenticate("XOAUTH2", answer)
                return
            except imaplib.IMAP4.abort:
                raise  # the connection is gone: not the token's fault
            except imaplib.IMAP4.error as exc:
                why = mask_tokens(f"{answer.complaint} {exc}".strip(), tried)
        raise GameError(
            f"{where}: the server refused the XOAUTH2 login as {user} with the access token of {command.where}, "
            + ("and again with a new one" if len(tried) > 1 else "and the command gave the same token when run again")
            + f" ({why[:300]})"
        )

    def _select(self) -> None:
        conn = self._need()
        typ, data = self._call(conn.select, _quote(self.address.folder))
        if typ != "OK":
            raise GameError(f"{self.address.url()}: no folder {self.address.folder!r} ({_text(data)})")
        typ, data = self._call(conn.response, "UIDVALIDITY")
        first = data[0] if data else None
        text = first.decode("ascii", "replace") if isinstance(first, bytes) else str(first or "")
        self.uidvalidity = int(text) if text.isdigit() else 0
        if self.done_folder == self.address.folder:
            raise GameError(f"{self.address.url()}: the folder for judged mail must be another folder")
        self._call(conn.create, _quote(self.done_folder))  # already there: a harmless NO

    def close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is None:
            return
        try:
            conn.logout()
        except (OSError, imaplib.IMAP4.error):
            conn.shutdown()

    def _need(self) -> imaplib.IMAP4:
        if self._conn is None:
            raise GameError(f"{self.address.url()}: not connected")
        return self._conn

    def connection(self) -> imaplib.IMAP4:
        """The open connection (``imaplib``'s), for a command this class does not
        speak: IDLE (``moonshine.mail.idle``)."""
        return self._need()

    def _call(self, fn: Callable[..., Any], *args: object) -> tuple[str, list[object]]:
        try:
            typ, data = fn(*args)
        except (OSError, imaplib.IMAP4.error) as exc:
            raise GameError(f"{self.address.url()}: {_why(exc)}") from None
        return str(typ), list(data or [])

    # -- reading --------------------------------------------------------------------
    def pending(self) -> list[int]:
        """UIDs of the messages still in the folder, oldest first."""
        conn = self._need()
        typ, data = self._call(conn.uid, "SEARCH", "ALL")
        if typ != "OK":
            raise GameError(f"{self.address.url()}: the server refused to list the messages ({_text(data)})")
        uids: list[int] = []
        for chunk in data:
            if isinstance(chunk, bytes):
                uids.extend(int(u) for u in chunk.split() if u.isdigit())
        return sorted(uids)

    def messages(self) -> Iterator[ImapMessage]:
        """Each pending message, one at a time; a message over the size limit comes
        with only its first bytes (its headers, for a reply) and ``too_large`` set."""
        for uid in self.pending():
            msg = self.fetch(uid)
            if msg is not None:
                yield msg

    def fetch(self, uid: int) -> ImapMessage | None:
        conn = self._need()
        typ, data = self._call(conn.uid, "FETCH", str(uid), "(RFC822.SIZE)")
        size = _size(data)
        if typ != "OK" or size is None:
            return None  # gone since the search (another client moved or deleted it)
        key = f"{self.uidvalidity}:{uid}"
        part = f"BODY.PEEK[]<0.{self.max_message + 1}>" if size > self.max_message else "BODY.PEEK[]"
        typ, data = self._call(conn.uid, "FETCH", str(uid), f"({part})")
        raw = next((part[1] for part in data if isinstance(part, tuple) and len(part) == 2), None)
        if typ != "OK" or not isinstance(raw, bytes):
            return None
        return ImapMessage(uid, key, raw, size, too_large=size > self.max_message)

    def load(self, uid: int) -> bytes:
        """The message's bytes (the first ones only, past the size limit), for the
        inbox; a message gone since the listing is an error."""
        msg = self.fetch(uid)
        if msg is None:
            raise GameError(f"{self.address.url()}: message {uid} is gone")
        return msg.raw

    # -- marking --------------------------------------------------------------------
    def mark_done(self, uid: int) -> None:
        """The judge has finished with the message: move it to the folder for judged
        mail, so that no later run reads it again. Without the server's MOVE: copy,
        then delete and expunge that one message (UID EXPUNGE where the server has
        UIDPLUS, so that nobody else's deleted mail is expunged with it)."""
        conn = self._need()
        if "MOVE" in conn.capabilities:
            typ, data = self._call(conn.uid, "MOVE", str(uid), _quote(self.done_folder))
        else:
            typ, data = self._call(conn.uid, "COPY", str(uid), _quote(self.done_folder))
            if typ == "OK":
                typ, data = self._call(conn.uid, "STORE", str(uid), "+FLAGS.SILENT", r"(\Deleted)")
            if typ == "OK":
                typ, data = (
                    self._call(conn.uid, "EXPUNGE", str(uid))
                    if "UIDPLUS" in conn.capabilities
                    else self._call(conn.expunge)
                )
        if typ != "OK":
            raise GameError(f"{self.address.url()}: cannot mark message {uid} as done ({_text(data)})")


class _XOAuth2:
    """The client's side of XOAUTH2 for ``imaplib``'s ``authenticate``: the initial
    response to the server's empty challenge; to a challenge with the server's
    complaint (a JSON object: status, scope), kept for the error, the empty
    response that ends the exchange with the server's NO."""

    def __init__(self, response: bytes) -> None:
        self.response = response
        self.complaint = ""

    def __call__(self, challenge: bytes) -> bytes:
        if not challenge:
            return self.response
        self.complaint = challenge.decode("utf-8", "replace")[:200]
        return b""


def _quote(folder: str) -> str:
    """A folder name as an IMAP quoted string (modified UTF-7 for non-ASCII)."""
    name = _utf7(folder)
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _utf7(text: str) -> str:
    """RFC 3501's modified UTF-7 for mailbox names."""
    out: list[str] = []
    buf: list[str] = []

    def flush() -> None:
        if buf:
            chunk = base64.b64encode("".join(buf).encode("utf-16-be")).decode("ascii").rstrip("=")
            out.append("&" + chunk.replace("/", ",") + "-")
            buf.clear()

    for ch in text:
        if 0x20 <= ord(ch) <= 0x7E:
            flush()
            out.append("&-" if ch == "&" else ch)
        else:
            buf.append(ch)
    flush()
    return "".join(out)


def _size(data: list[object]) -> int | None:
    for part in data:
        text = part[0] if isinstance(part, tuple) else part
        if isinstance(text, bytes):
            m = re.search(rb"RFC822\.SIZE (\d+)", text)
            if m:
                return int(m.group(1))
    return None


def _text(data: list[object]) -> str:
    return " ".join(d.decode("utf-8", "replace") if isinstance(d, bytes) else str(d) for d in data)[:200]


def _why(exc: BaseException) -> str:
    if isinstance(exc, socket.timeout | TimeoutError):
        return "timed out"
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc) or type(exc).__name__
