"""A player may read the judge in another language than the game's
(``players.GANG.language`` in game.yaml): the replies to their mail, their
reminders, their private report and its subject are in their language; the
bulletin and the other players' mail stay in the game's."""

from __future__ import annotations

import mailbox
from datetime import UTC, datetime, timedelta
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path

import frtypo
import pytest
from e2ekit import PASSWORDS, TURN, letter, plain, run, sample_game
from msgspec.structs import replace
from smtpkit import Server

from moonshine.errors import StateError
from moonshine.game.directory import Game, load_config_text, save_config


def _french_valley(game: Game) -> Game:
    players = dict(game.config.players)
    players["valley"] = replace(players["valley"], language="fr")
    save_config(game, replace(game.config, players=players))
    return Game(game.root)


def test_a_french_player_in_an_english_game(tmp_path: Path, smtp: Server) -> None:
    now = datetime.now(UTC).replace(second=0, microsecond=0)
    game = _french_valley(sample_game(tmp_path, smtp, now + timedelta(days=2)))
    assert "language: fr" in (game.root / "game.yaml").read_text(encoding="utf-8")  # kept when saved
    sent = now - timedelta(hours=1)
    box = mailbox.mbox(str(tmp_path / "in.mbox"), create=True)
    valley = f"gang: valley\npassword: {PASSWORDS['valley']}\nH LOO - LIT\nL KEN hold\n"
    genna = f"gang: genna\npassword: {PASSWORDS['genna']}\nH SOD hold\n"
    box.add(letter("valley@players.example.org", "orders", valley, sent, "<v@x>"))
    box.add(letter("genna@players.example.org", "orders", genna, sent, "<g@x>"))
    box.flush()
    box.close()
    assert run(game, "inbox", str(tmp_path / "in.mbox")).exit_code == 0
    outbox = game.root / "outbox" / TURN
    replies = {}
    for p in outbox.glob("reply-*.eml"):
        msg = message_from_bytes(p.read_bytes(), policy=policy.default)
        assert isinstance(msg, EmailMessage)
        replies[str(msg["To"])] = plain(msg)
    assert "Vos ordres pour le printemps 1924 ont été reçus" in replies["valley@players.example.org"]
    assert "accepté" in replies["valley@players.example.org"]
    assert "L KEN tient" in replies["valley@players.example.org"]  # the orders in French notation
    assert "H SOD hold" in replies["genna@players.example.org"]
    assert "Orders for Genna Crime Family" in replies["genna@players.example.org"]  # the game's language

    done = run(game, "adjudicate", TURN, "--force")
    assert done.exit_code == 0, done.output
    reports = game.turn_dir(TURN) / "reports"
    assert frtypo.fr("Valley Gang : rapport privé, printemps 1924") in (reports / "valley.txt").read_text(
        encoding="utf-8"
    )
    assert "Genna Crime Family: private report, Spring 1924" in (reports / "genna.txt").read_text(encoding="utf-8")
    assert "Public bulletin" in (reports / "bulletin.txt").read_text(encoding="utf-8")
    assert '<html lang="fr"' in (reports / "valley.html").read_text(encoding="utf-8")

    assert run(game, "mail", TURN, "--send").exit_code == 0
    subjects = {}
    for _, rcpts, content in smtp.recorder.received:
        msg = message_from_bytes(content, policy=policy.default)
        subjects[tuple(sorted(rcpts))] = str(msg["Subject"])
    assert "rapport privé" in subjects[("valley@players.example.org",)].lower()
    assert "private report" in subjects[("genna@players.example.org",)]
    bulletin = [s for r, s in subjects.items() if len(r) > 1]
    assert len(bulletin) == 1 and "bulletin" in bulletin[0] and "printemps" not in bulletin[0]


def test_a_players_language_is_checked(tmp_path: Path) -> None:
    text = "title: t\nmap: chicago-1920s\nplayers:\n  valley:\n    email: v@x.org\n    language: de\n"
    with pytest.raises(StateError) as err:
        load_config_text(text, "game.yaml")
    assert "players.valley.language" in str(err.value) and "en, fr" in str(err.value)
    assert load_config_text(text.replace("de", "fr"), "game.yaml").players["valley"].language == "fr"


def test_a_classic_players_report_in_their_language(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from moonshine.cli import main

    root = tmp_path / "dip"
    runner = CliRunner()
    assert runner.invoke(main, ["new", str(root), "--variant", "classic", "--no-git"]).exit_code == 0
    game = Game(root)
    players = dict(game.config.players)
    players["FRA"] = replace(players["FRA"], language="fr")
    save_config(game, replace(game.config, players=players))
    (root / "orders" / "spring-1901" / "FRA.txt").write_text("A PAR - BUR\n", encoding="utf-8")
    done = runner.invoke(main, ["adjudicate", "spring-1901", "--game", str(root), "--no-commit"])
    assert done.exit_code == 0, done.output
    reports = root / "turns" / "spring-1901" / "reports"
    assert frtypo.fr("France (FRA) : rapport, printemps 1901") in (reports / "FRA.txt").read_text(encoding="utf-8")
    assert "report of" in (reports / "ENG.txt").read_text(encoding="utf-8")
    assert "bulletin of" in (reports / "bulletin.txt").read_text(encoding="utf-8")


def test_a_french_players_commands_are_answered_in_french_in_an_english_game(tmp_path: Path, smtp: Server) -> None:
    now = datetime.now(UTC).replace(second=0, microsecond=0)
    game = _french_valley(sample_game(tmp_path, smtp, now + timedelta(days=2)))
    sent = now - timedelta(hours=1)
    box = mailbox.mbox(str(tmp_path / "in.mbox"), create=True)
    valley = f"gang: valley\npassword: {PASSWORDS['valley']}\nétat\naide\nnulle\n"
    box.add(letter("valley@players.example.org", "commandes", valley, sent, "<v@x>"))
    box.flush()
    box.close()
    assert run(game, "inbox", str(tmp_path / "in.mbox")).exit_code == 0
    (reply,) = [
        plain(m)
        for p in (game.root / "outbox" / TURN).glob("reply-*.eml")
        if isinstance(m := message_from_bytes(p.read_bytes(), policy=policy.default), EmailMessage)
    ]
    assert "Turn:" not in reply and "Deadline:" not in reply and "A vote is open" not in reply
    assert "Date limite" in reply or "date limite" in reply

    def notice(gang: str) -> str:
        (path,) = (game.root / "outbox" / TURN).glob(f"vote-1-open-{gang}-*.eml")  # one mail to its one address
        msg = message_from_bytes(path.read_bytes(), policy=policy.default)
        assert isinstance(msg, EmailMessage)
        return plain(msg)

    assert "A vote is open" not in notice("valley") and "vote" in notice("valley").lower()  # in French
    assert "A vote is open" in notice("genna")  # the others' in the game's language
