"""Games played unattended for the tests of ``moonshine run``: a game directory
with a schedule, its mailbox on a real IMAP server (pymap, ``imapkit``) and its
mail sent through a real SMTP server (aiosmtpd, ``smtpkit``), both on
127.0.0.1; players who mail orders at a given time of the fake clock."""

from __future__ import annotations

import subprocess
import sys
from datetime import datetime
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path
from typing import Any

from gamekit import make_game
from imapkit import PASSWORD, USER, Server
from smtpkit import Recorder

from moonshine.game.directory import Game

JUDGE = "judge@moonshine.example.org"
GM = "gm@moonshine.example.org"
MOONSHINE = str(Path(sys.executable).parent / "moonshine")


def password(side: str) -> str:
    return f"{side.lower()}-secret-pass"


def address(side: str) -> str:
    return f"{side.lower()}@players.example.org"


def unattended_game(
    root: Path,
    imap: Server,
    smtp: dict[str, Any],
    *,
    variant: str = "moonshine",
    players: dict[str, str | None],
    schedule: dict[str, Any],
    folder: str,
    git: bool = True,
) -> Game:
    """A new game whose ``players`` (side -> time zone) have addresses and
    passwords; mail is read from ``folder`` on the IMAP server."""
    return make_game(
        root,
        variant=variant,
        seed="unattended",
        git=git,
        sides=players,
        name=lambda side: f"Player of {side}",
        emails=lambda side: [address(side)],
        passwords={side: password(side) for side in players},
        timezones=players,
        schedule=schedule,
        smtp=smtp,
        inbox={
            "source": f"imap://{USER}@127.0.0.1:{imap.port}/{folder}",
            "imap": {"ca_file": str(imap.ca), "done_folder": f"{folder}-judged"},
        },
        referee={"name": "The Game Master", "email": GM},
    )


def letter(side: str, body: str, sent: datetime, msgid: str, *, word: str = "gang") -> bytes:
    """A player's message, received by the judge's mail server at ``sent``."""
    msg = EmailMessage()
    msg["Received"] = f"from mx.players.example.org by mail.moonshine.example.org; {format_datetime(sent)}"
    msg["From"] = address(side)
    msg["To"] = JUDGE
    msg["Subject"] = "orders"
    msg["Date"] = format_datetime(sent)
    msg["Message-ID"] = msgid
    msg.set_content(f"{word}: {side}\npassword: {password(side)}\n{body}")
    return msg.as_bytes()


def run_here(game: Game, now: datetime) -> str:
    """``moonshine run GAME --now NOW`` in this process (quicker than a process of its own)."""
    import os

    from click.testing import CliRunner

    from moonshine.cli import main

    os.environ["MOONSHINE_IMAP_PASSWORD"] = PASSWORD
    done = CliRunner().invoke(main, ["run", str(game.root), "--now", now.isoformat()])
    assert done.exception is None or isinstance(done.exception, SystemExit), repr(done.exception)
    assert done.exit_code == 0, done.output
    return done.output


def run(game: Game, now: datetime, *, kill_at: int | None = None) -> subprocess.CompletedProcess[str]:
    """``moonshine run GAME --now NOW`` in a process of its own (as cron starts it)."""
    import os

    env = dict(os.environ)
    env["MOONSHINE_IMAP_PASSWORD"] = PASSWORD
    env.pop("MOONSHINE_KILL_AT", None)
    if kill_at is not None:
        env["MOONSHINE_KILL_AT"] = str(kill_at)
    return subprocess.run(
        [MOONSHINE, "run", str(game.root), "--now", now.isoformat()],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


def received(recorder: Recorder) -> list[tuple[list[str], EmailMessage]]:
    out = []
    for _, rcpts, content in recorder.received:
        msg = message_from_bytes(content, policy=policy.default)
        assert isinstance(msg, EmailMessage)
        out.append((rcpts, msg))
    return out


def to(recorder: Recorder, who: str, word: str = "") -> list[EmailMessage]:
    """Messages delivered to ``who`` whose subject holds ``word``."""
    return [m for rcpts, m in received(recorder) if who in rcpts and word in str(m["Subject"])]


def plain(msg: EmailMessage) -> str:
    body = msg.get_body(preferencelist=("plain",))
    assert body is not None
    return str(body.get_content()).replace("\r\n", "\n")
