"""A real SMTP server for the tests: aiosmtpd on 127.0.0.1 with one recording handler,
``Recorder``, which keeps what it receives and fails or refuses on request, and its
subclass ``TokenRecorder``, which takes OAuth2 access tokens only (XOAUTH2). The root
``conftest.py`` starts one for a test (the ``smtp`` fixture, and ``smtp_xoauth2``); a
test that needs a handler of its own (a subclass of ``Recorder``) or a server's
options starts one with ``start_server`` or ``smtp_server``."""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from email.message import EmailMessage
from typing import Any

from aiosmtpd.controller import Controller
from portkit import free_port

REFEREE = "Moonshine referee <referee@moonshine.example>"
ACCOUNT = "referee@moonshine.example"  # the SMTP account a TokenRecorder takes tokens for


@dataclass
class Recorder:
    """aiosmtpd handler: records what it receives, fails on request."""

    received: list[tuple[str, list[str], bytes]] = field(default_factory=list)  # (sender, recipients, content)
    fail_data: int = 0  # the next N DATA commands get a transient 451
    refuse: dict[str, str] = field(default_factory=dict)  # address -> reply to RCPT
    peers: list[Any] = field(default_factory=list)  # the client's address and port at each RCPT
    rcpts: list[str] = field(default_factory=list)  # every address a RCPT named, refused or not

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str, rcpt_options: Any) -> str:
        self.peers.append(session.peer)
        self.rcpts.append(address)
        if address in self.refuse:
            return self.refuse[address]
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        if self.fail_data > 0:
            self.fail_data -= 1
            return "451 4.3.0 Temporary failure, try again"
        self.received.append((envelope.mail_from, list(envelope.rcpt_tos), envelope.content))
        return "250 Message accepted"

    def messages(self) -> list[EmailMessage]:
        out = []
        for _, _, content in self.received:
            msg = message_from_bytes(content, policy=policy.default)
            assert isinstance(msg, EmailMessage)
            out.append(msg)
        return out

    def by_subject(self, word: str) -> list[tuple[str, list[str], bytes]]:
        return [r for r, m in zip(self.received, self.messages(), strict=True) if word in str(m["Subject"])]


@dataclass
class TokenRecorder(Recorder):
    """An SMTP server's handler that takes XOAUTH2 only, for one account (``ACCOUNT``),
    with the tokens in ``tokens``; a refused token is answered as Gmail and Outlook
    answer it: a challenge with the reason in JSON, then, after the client's empty
    line, 535."""

    tokens: set[str] = field(default_factory=set)
    tried: list[str] = field(default_factory=list)  # every token a client tried

    async def auth_XOAUTH2(self, server: Any, args: list[str]) -> Any:
        from aiosmtpd.smtp import MISSING, AuthResult

        if len(args) == 2:
            blob = base64.b64decode(args[1])
        else:
            got = await server.challenge_auth("")
            if got is MISSING:
                return AuthResult(success=False, handled=True)
            blob = got
        match = re.fullmatch(rb"user=([^\x01]*)\x01auth=Bearer ([^\x01]*)\x01\x01", blob)
        if match is None:
            return AuthResult(success=False, handled=False, message="501 5.5.2 not an XOAUTH2 response")
        user, token = match.group(1).decode(), match.group(2).decode()
        self.tried.append(token)
        if user == ACCOUNT and token in self.tokens:
            return AuthResult(success=True, auth_data=user)
        reason = {"status": "401", "schemes": "bearer", "scope": "https://mail.example/"}
        await server.challenge_auth(json.dumps(reason))
        return AuthResult(success=False, handled=False, message="535 5.7.8 Username and Password not accepted")


@dataclass
class Server:
    recorder: Recorder
    port: int
    controller: Controller

    def smtp(self, **more: Any) -> dict[str, Any]:
        """game.yaml's ``smtp:`` section for this server (``more`` over the defaults)."""
        return {
            "host": "127.0.0.1",
            "port": self.port,
            "security": "none",
            "from": REFEREE,
            "attempts": 3,
            "retry_delay": 0.01,
            "timeout": 5,
            **more,
        }


def start_server(recorder: Recorder, **kwargs: Any) -> Server:
    """aiosmtpd on a free port of 127.0.0.1 with ``recorder`` as its handler (``kwargs``:
    the Controller's options, e.g. an authenticator); stop it with ``.controller.stop()``."""
    for _ in range(5):
        port = free_port()
        controller = Controller(recorder, hostname="127.0.0.1", port=port, **kwargs)
        try:
            controller.start()
        except OSError:  # the port was taken meanwhile
            continue
        return Server(recorder, port, controller)
    raise RuntimeError("no free port on 127.0.0.1")


@contextmanager
def smtp_server(recorder: Recorder | None = None, **kwargs: Any) -> Iterator[Server]:
    """A server started for the block, stopped when it ends."""
    server = start_server(recorder if recorder is not None else Recorder(), **kwargs)
    try:
        yield server
    finally:
        server.controller.stop()


@contextmanager
def xoauth2_server() -> Iterator[Server]:
    """A server that takes no mail without a login, and no login but XOAUTH2 with one of
    its ``TokenRecorder``'s tokens (none at first), on 127.0.0.1 without TLS."""
    with smtp_server(
        TokenRecorder(),
        auth_required=True,
        auth_require_tls=False,  # on 127.0.0.1
        auth_exclude_mechanism=["PLAIN", "LOGIN"],
    ) as server:
        yield server


def token_recorder(server: Server) -> TokenRecorder:
    """The handler of a server started with a ``TokenRecorder``."""
    assert isinstance(server.recorder, TokenRecorder)
    return server.recorder
