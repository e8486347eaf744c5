"""The end of an anonymous game of its own (issue 41), on a real SMTP server (aiosmtpd on
127.0.0.1): the pass that plays its last turn tells every player who played which side,
in a mail of their own (``To:`` their address alone, a side's second address too) and
in their language, once."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from email.utils import getaddresses
from pathlib import Path

from frtypo import checked
from gamekit import make_game
from msgspec.structs import replace
from runkit import plain, received, run_here
from smtpkit import Server as SmtpServer

from moonshine.game import identities
from moonshine.game.directory import Game, deadline, save_config

START = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)
SIDES = ("outfit", "valley", "genna")
ADDRESSES = {
    "outfit": ["outfit@players.example.org", "outfit-partner@players.example.org"],  # a gang played by two
    "valley": ["valley@players.example.org"],  # reads French
    "genna": ["genna@players.example.org"],
}


def test_each_address_is_told_in_a_mail_of_its_own_in_its_language_once(tmp_path: Path, smtp: SmtpServer) -> None:
    game = make_game(
        tmp_path / "g",
        seed="reveal",
        sides=SIDES,
        name=lambda side: f"Name of {side}",
        emails=ADDRESSES,
        anonymous=True,
        rules={"victory_vp": 1},  # the first turn's adjudication ends the game
        schedule={"every": "72h"},
        smtp=smtp.smtp(),
    )
    cfg = game.config
    save_config(game, replace(cfg, players={**cfg.players, "valley": replace(cfg.players["valley"], language="fr")}))
    run_here(game, START)  # the first deadline
    due = deadline(Game(game.root).config, "spring-1924")
    assert due is not None
    run_here(game, due + timedelta(minutes=5))
    game = Game(game.root)
    assert game.layout.winners(game.load_any_state(game.current_turn()))
    assert identities.of(game.config).revealed is not None
    run_here(game, due + timedelta(hours=1))  # once
    told = [
        (r, m)
        for r, m in received(smtp.recorder)
        if "who played" in str(m["Subject"]) or "qui a joué" in str(m["Subject"])
    ]
    everyone = [a for side in SIDES for a in ADDRESSES[side]]
    assert sorted(a for r, _ in told for a in r) == sorted(everyone)
    for rcpts, msg in told:
        assert len(rcpts) == 1, (rcpts, str(msg["To"]))
        who = rcpts[0]
        assert [a for _, a in getaddresses([str(msg["To"]), str(msg.get("Cc", ""))]) if a] == [who]
        text = plain(msg)
        if who.startswith("valley"):
            text = checked(text)
            assert "qui a joué quel camp" in str(msg["Subject"]) and "Name of valley,\n\nLa partie" in text
            assert all(f"({side}) : Name of {side}" in text for side in SIDES), text
        else:
            assert "The game " in text and all(f"({side}): Name of {side}" in text for side in SIDES), text
        assert not [a for a in everyone if a != who and a in str(msg)]
