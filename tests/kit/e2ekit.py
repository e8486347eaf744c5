"""The sample game played by email, for the end-to-end tests of a turn by mail: every
gang's password, a deadline, its mail through a real SMTP server (``smtpkit``); the
players' letters, the referee's commands, the text of a message."""

from __future__ import annotations

from datetime import datetime
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from msgspec.structs import replace
from repokit import ROOT
from samplegame import TURN, copy_sample
from smtpkit import Server

from moonshine.cli import main
from moonshine.game.directory import Game, load_config, save_config

REFEREE = "Moonshine referee <referee@moonshine.example.org>"
PASSWORDS = {gang: f"{gang}-secret-1924" for gang in load_config(ROOT / "game.yaml").players}
ADDRESS = {gang: f"{gang}@players.example.org" for gang in PASSWORDS}  # as in the sample game.yaml
NOT_MAILED = ("westside", "ragen")  # their sample orders are removed: nobody sends any


def sample_game(tmp_path: Path, smtp: Server, deadline: datetime) -> Game:
    """A copy of the repository's sample game, with passwords, a deadline and mail settings."""
    root = tmp_path / "game"
    copy_sample(root)
    for gang in NOT_MAILED:
        (root / "orders" / TURN / f"{gang}.txt").unlink()
    game = Game(root)
    assert game.current_turn() == TURN, "the sample game has moved on; this test plays its first turn"
    for gang, password in PASSWORDS.items():
        assert run(game, "passwd", gang, "--password", password).exit_code == 0
    game = Game(root)
    more = {"deadlines": {TURN: deadline.isoformat()}, "smtp": smtp.smtp(**{"from": REFEREE})}
    save_config(game, replace(game.config, extra={**game.config.extra, **more}))
    return Game(root)


def run(game: Game, *args: str) -> Any:
    result = CliRunner().invoke(main, [*args, "--game", str(game.root)])
    assert "Traceback" not in result.output, result.output
    return result


def letter(sender: str, subject: str, body: str, sent: datetime, msgid: str) -> bytes:
    msg = EmailMessage()
    msg["Received"] = f"from mx.players.example.org by mail.moonshine.example.org; {format_datetime(sent)}"
    msg["From"] = sender
    msg["To"] = REFEREE
    msg["Subject"] = subject
    msg["Date"] = format_datetime(sent)
    msg["Message-ID"] = msgid
    msg.set_content(body)
    return msg.as_bytes()


def plain(msg: EmailMessage) -> str:
    body = msg.get_body(preferencelist=("plain",))
    assert body is not None
    return str(body.get_content()).replace("\r\n", "\n")
