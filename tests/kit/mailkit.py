"""A game whose turn's reports are mailed, for the tests of the outbox and of delivery
(``moonshine mail``): three gangs with addresses, the turn's reports written by hand,
the command run, an outbox message read back."""

from __future__ import annotations

from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from gamekit import make_game
from PIL import Image

from moonshine.cli import main
from moonshine.game.directory import Game

TURN = "spring-1924"
PLAYERS = {
    "outfit": ["al@outfit.example"],
    "valley": ["terry@valley.example", "frank@valley.example"],
    "genna": ["angelo@genna.example"],
}


def outbox_game(tmp_path: Path, *, smtp: dict[str, Any] | None = None, players: dict[str, list[str]] = PLAYERS) -> Game:
    """A game in ``tmp_path / "g"``: every gang a player named after it, ``players``'
    addresses, and game.yaml's ``smtp`` section when given."""
    more = {"smtp": smtp} if smtp is not None else {}
    return make_game(tmp_path / "g", name=str.title, emails=players, **more)


def write_reports(game: Game, turn: str = TURN) -> Path:
    base = game.turn_dir(turn) / "reports"
    base.mkdir(parents=True, exist_ok=True)
    for gang in game.map.gangs:
        (base / f"{gang}.txt").write_text(f"Private report of {gang} for {turn}.\nCash: $12.50\n", encoding="utf-8")
        (base / f"{gang}.html").write_text(
            f'<p>Private report of <b>{gang}</b></p><img src="map.png" alt="map">', encoding="utf-8"
        )
    (base / "bulletin.txt").write_text(f"Bulletin {turn}: the police raided LOO. Café ouvert.\n", encoding="utf-8")
    (base / "bulletin.html").write_text("<h1>Bulletin</h1><p>The police raided LOO.</p>", encoding="utf-8")
    Image.new("RGB", (8, 6), (200, 30, 30)).save(base / "map.png")
    return base


def run(game: Game, *args: str, env: dict[str, str] | None = None) -> Any:
    return CliRunner().invoke(main, [*args, "--game", str(game.root)], env=env)


def read_eml(path: Path) -> EmailMessage:
    msg = message_from_bytes(path.read_bytes(), policy=policy.default)
    assert isinstance(msg, EmailMessage)
    return msg
