"""A game whose players mail their orders, for the tests of the inbox
(``moonshine inbox``): three gangs with addresses, two with passwords, a deadline;
order mail built with the standard library, put in a Maildir or a folder of .eml
files, read by the command; the replies read back."""

from __future__ import annotations

import hashlib
import mailbox
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from gamekit import make_game

from moonshine.cli import main
from moonshine.game.directory import Game

TURN = "spring-1924"
DEADLINE = "2024-03-01T18:00:00+00:00"
BEFORE = "Wed, 28 Feb 2024 10:00:00 +0000"
AFTER = "Sat, 02 Mar 2024 09:00:00 +0000"
TERRY, FRANK, AL, ANGELO = "terry@valley.example", "frank@valley.example", "al@outfit.example", "angelo@genna.example"
VALLEY_PW, OUTFIT_PW = "gin-and-tonic", "tommy-gun"
VALLEY_ORDERS = f"gang: valley\npassword: {VALLEY_PW}\nH LOO - NSS\nL KEN hold\nsell 4\n"
EMAILS = {"valley": [TERRY, FRANK], "outfit": [AL], "genna": [ANGELO]}
PASSWORDS = {"valley": VALLEY_PW, "outfit": OUTFIT_PW}  # genna has none


def inbox_game(tmp_path: Path, **extra: Any) -> Game:
    """A game in ``tmp_path / "g"``: every gang a player named by its key, the addresses
    of ``EMAILS``, the passwords of ``PASSWORDS``, the turn's deadline, an SMTP section;
    ``extra``: more sections of game.yaml, over those."""
    sections = {
        "deadlines": {TURN: DEADLINE},
        "smtp": {"host": "127.0.0.1", "from": "Referee <ref@moonshine.example>"},
        **extra,
    }
    return make_game(tmp_path / "g", emails=EMAILS, passwords=PASSWORDS, **sections)


def order_mail(
    sender: str,
    body: str,
    *,
    subject: str = "orders",
    date: str = BEFORE,
    msgid: str | None = None,
    received: str | None = None,
) -> EmailMessage:
    msg = EmailMessage()
    if received:
        msg["Received"] = f"from mx.example by mail.moonshine.example; {received}"
    msg["From"] = sender
    msg["To"] = "ref@moonshine.example"
    msg["Subject"] = subject
    msg["Date"] = date
    digest = hashlib.sha256(f"{sender}|{body}|{date}|{subject}|{received}".encode()).hexdigest()[:16]
    msg["Message-ID"] = msgid or f"<{digest}@player.example>"
    msg.set_content(body)
    return msg


def maildir(path: Path, messages: list[EmailMessage | bytes]) -> Path:
    box = mailbox.Maildir(str(path), create=True)
    for m in messages:
        box.add(m if isinstance(m, bytes) else m.as_bytes())
    return path


def eml_folder(path: Path, messages: list[EmailMessage | bytes]) -> Path:
    """The messages as a folder of ``.eml`` files, one a message, in order."""
    path.mkdir(parents=True, exist_ok=True)
    for i, m in enumerate(messages, 1):
        (path / f"{i:03d}.eml").write_bytes(m if isinstance(m, bytes) else m.as_bytes())
    return path


def run_inbox(game: Game, source: Path, *args: str) -> Any:
    result = CliRunner().invoke(main, ["inbox", str(source), "--game", str(game.root), *args])
    assert "Traceback" not in result.output
    return result


def replies(game: Game) -> list[EmailMessage]:
    """The replies in the turn's outbox, in the order of their files."""
    out = []
    for p in sorted((game.root / "outbox" / TURN).glob("reply-*.eml")):
        msg = message_from_bytes(p.read_bytes(), policy=policy.default)
        assert isinstance(msg, EmailMessage)
        out.append(msg)
    return out


def reply_text(msg: EmailMessage) -> str:
    """A reply's plain text."""
    body = msg.get_body(preferencelist=("plain",))
    assert body is not None
    return str(body.get_content())
