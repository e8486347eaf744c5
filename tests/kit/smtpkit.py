"""A real SMTP server for the tests: aiosmtpd on 127.0.0.1 with one recording handler,
``Recorder``, which keeps what it receives and fails or refuses on request. The root
``conftest.py`` starts one for a test (the ``smtp`` fixture); a test that needs a
handler of its own (a subclass of ``Recorder``) or a server's options starts one with
``start_server`` or ``smtp_server``."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from email.message import EmailMessage
from typing import Any

from aiosmtpd.controller import Controller
from portkit import free_port

REFEREE = "Moonshine referee <referee@moonshine.example>"


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
