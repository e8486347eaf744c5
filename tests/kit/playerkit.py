"""A game played by mail for the tests of the players' commands: three gangs
with addresses and passwords, an observer, a real SMTP server (aiosmtpd on
127.0.0.1) and a Maildir the inbox reads; every message the referee sends is
read back from what the server received, by recipient (the root conftest's
``smtp`` fixture, ``smtpkit``)."""

from __future__ import annotations

import hashlib
import mailbox
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from gamekit import make_game
from smtpkit import Recorder, Server

from moonshine.game.directory import Game
from moonshine.mail import inbox
from moonshine.mail.commands import votes
from moonshine.mail.inbox.outcome import Outcome
from moonshine.mail.outbox.smtp import send_files

TURN = "spring-1924"
NOW = datetime(2024, 2, 28, 12, 0, tzinfo=UTC)
DEADLINE = "2024-03-01T18:00:00+00:00"
REFEREE = "Referee <ref@moonshine.example>"
GM = "gm@moonshine.example"
OBSERVER = "watcher@press.example"
STRANGER = "nosy@elsewhere.example"
ADDRESSES = {
    "valley": ["terry@valley.example"],
    "outfit": ["al@outfit.example"],
    "genna": ["angelo@genna.example"],
}
PASSWORDS = {"valley": "gin-and-tonic", "outfit": "tommy-gun", "genna": "olive-oil"}


@dataclass
class Table:
    """The game, its judge's mailbox and the SMTP server's record."""

    game: Game
    box: Path
    recorder: Recorder
    now: datetime = NOW
    count: int = 0

    def send(self, sender: str, body: str, *, subject: str = "orders", when: datetime | None = None) -> None:
        """A message from ``sender`` arrives in the judge's mailbox."""
        self.count += 1
        msg = EmailMessage()
        msg["From"] = sender
        msg["To"] = "ref@moonshine.example"
        msg["Subject"] = subject
        msg["Date"] = (when or self.now).strftime("%a, %d %b %Y %H:%M:%S +0000")
        digest = hashlib.sha256(f"{self.count}|{sender}|{body}".encode()).hexdigest()[:16]
        msg["Message-ID"] = f"<{digest}@player.example>"
        msg.set_content(body)
        mailbox.Maildir(str(self.box), create=True).add(msg.as_bytes())

    def judge(self, *, now: datetime | None = None, turn: str = TURN) -> list[Outcome]:
        """Read the mailbox, then deliver every reply, relay and vote notice by SMTP."""
        when = now or self.now
        outcomes = inbox.process(self.game, self.box, turn=turn, now=when)
        self.deliver(turn, now=when)
        return outcomes

    def deliver(self, turn: str = TURN, *, now: datetime | None = None) -> None:
        votes.write_due(self.game, now or self.now, turn)
        names = inbox.reply_files(self.game, turn)
        if names:
            send_files(self.game, turn, names)

    def inbox_of(self, address: str) -> list[EmailMessage]:
        """Every message the server took for ``address`` (To, Cc or Bcc)."""
        out = []
        for _, rcpts, content in self.recorder.received:
            if address in rcpts:
                msg = message_from_bytes(content, policy=policy.default)
                assert isinstance(msg, EmailMessage)
                out.append(msg)
        return out

    def texts_of(self, address: str) -> list[str]:
        return [body(m) for m in self.inbox_of(address)]

    def last_reply(self, address: str) -> str:
        replies = [m for m in self.inbox_of(address) if str(m.get("In-Reply-To", ""))]
        assert replies, f"no reply to {address}"
        return body(replies[-1])


def body(msg: EmailMessage) -> str:
    part = msg.get_body(preferencelist=("plain",))
    assert part is not None
    return str(part.get_content())


def message(gang: str, *lines: str) -> str:
    """A message from ``gang`` with its gang line and password."""
    return "\n".join([f"gang: {gang}", f"password: {PASSWORDS[gang]}", *lines]) + "\n"


def make_table(tmp_path: Path, smtp: Server, *, language: str = "en", **extra: Any) -> Table:
    """The game in ``tmp_path / "g"``, mailing through ``smtp`` (whose record is emptied
    first, for a server a module's tests share)."""
    smtp.recorder.received.clear()
    sections = {
        "deadlines": {TURN: DEADLINE},
        "smtp": {"host": "127.0.0.1", "port": smtp.port, "security": "none", "from": REFEREE, "timeout": 5},
        "referee": {"email": GM},
        "observers": [OBSERVER],
        **extra,
    }
    game = make_game(
        tmp_path / "g", seed="players", language=language, emails=ADDRESSES, passwords=PASSWORDS, **sections
    )
    return Table(game, tmp_path / "box", smtp.recorder)


def later(hours: float) -> datetime:
    return NOW + timedelta(hours=hours)
