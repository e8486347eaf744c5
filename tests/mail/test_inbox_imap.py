"""`moonshine inbox imap://...`: orders read from a real IMAP mailbox (pymap on
127.0.0.1), acknowledged, and moved to the judged folder; a message left behind
by a run killed before the move is known again and answered only once."""

from __future__ import annotations

from email.message import EmailMessage
from pathlib import Path

import pytest
from click.testing import CliRunner
from gamekit import make_game
from imapkit import PASSWORD, USER, Server, count, post

from moonshine.cli import main
from moonshine.game.directory import Game

TURN = "spring-1924"
TERRY = "terry@valley.example"
VALLEY_PW = "gin-and-tonic"


def _game(tmp_path: Path, imap: Server, **settings: object) -> Game:
    return make_game(
        tmp_path / "g",
        seed="imap",
        name=lambda g: "Terry" if g == "valley" else g,
        emails={"valley": [TERRY]},
        passwords={"valley": VALLEY_PW},
        deadlines={TURN: "2099-03-01T18:00:00+00:00"},
        smtp={"host": "127.0.0.1", "from": "Referee <ref@moonshine.example>"},
        inbox={"imap": {"ca_file": str(imap.ca), **settings}},
    )


def _orders(message_id: str, body: str) -> bytes:
    msg = EmailMessage()
    msg["From"] = f"Terry <{TERRY}>"
    msg["To"] = "judge@moonshine.example"
    msg["Subject"] = "orders"
    msg["Date"] = "Wed, 28 Feb 2024 10:00:00 +0000"
    msg["Message-ID"] = message_id
    msg.set_content(body)
    return msg.as_bytes()


def _inbox(game: Game, url: str, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("MOONSHINE_IMAP_PASSWORD", PASSWORD)
    result = CliRunner().invoke(main, ["inbox", url, "--game", str(game.root)])
    assert result.exit_code == 0, result.output
    return result.output


def test_orders_by_imap_are_acknowledged_and_moved(
    tmp_path: Path, imap: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = _game(tmp_path, imap, done_folder="Judged A")
    folder = "Orders A"
    body = f"gang: valley\npassword: {VALLEY_PW}\nH LOO - NSS\nL KEN hold\n"
    post(imap, folder, _orders("<one@valley.example>", body), _orders("<two@valley.example>", "hello\n"))
    url = f"imap://{USER}@127.0.0.1:{imap.port}/{folder.replace(' ', '%20')}"
    out = _inbox(game, url, monkeypatch)
    assert "IMAP message" in out and "accepted" in out
    saved = (game.orders_dir(TURN) / "valley.txt").read_text(encoding="utf-8")
    assert "H LOO - NSS" in saved and VALLEY_PW not in saved
    assert len(list((game.root / "outbox" / TURN).glob("reply-*.eml"))) == 2
    assert count(imap, folder) == 0 and count(imap, "Judged A") == 2
    again = _inbox(game, url, monkeypatch)
    assert "no new message" in again


def test_a_message_left_by_a_killed_run_is_answered_once(
    tmp_path: Path, imap: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A run killed after it saved a message's outcome but before it moved the
    message: the next run finds it in the folder again, knows it, moves it, and
    writes no second reply."""
    game = _game(tmp_path, imap)
    folder = "Orders B"
    raw = _orders("<three@valley.example>", f"gang: valley\npassword: {VALLEY_PW}\nH LOO hold\n")
    post(imap, folder, raw)
    url = f"imap://{USER}@127.0.0.1:{imap.port}/{folder.replace(' ', '%20')}"
    _inbox(game, url, monkeypatch)
    replies = sorted((game.root / "outbox" / TURN).glob("reply-*.eml"))
    assert len(replies) == 1 and count(imap, folder) == 0
    post(imap, folder, raw)  # as if the move had never happened
    out = _inbox(game, url, monkeypatch)
    assert "1 message already processed, skipped." in out
    assert sorted((game.root / "outbox" / TURN).glob("reply-*.eml")) == replies
    assert count(imap, folder) == 0


def test_bad_settings_and_passwords_are_clear_errors(
    tmp_path: Path, imap: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = _game(tmp_path, imap, timeout="soon")
    url = f"imap://{USER}@127.0.0.1:{imap.port}/INBOX"
    monkeypatch.setenv("MOONSHINE_IMAP_PASSWORD", PASSWORD)
    r = CliRunner().invoke(main, ["inbox", url, "--game", str(game.root)])
    assert r.exit_code == 1 and "inbox.imap.timeout: expected a number of seconds" in r.output
    game = _game(tmp_path / "2", imap)
    monkeypatch.delenv("MOONSHINE_IMAP_PASSWORD")
    r = CliRunner().invoke(main, ["inbox", url, "--game", str(game.root)])
    assert r.exit_code == 1 and "set the environment variable MOONSHINE_IMAP_PASSWORD" in r.output
    monkeypatch.setenv("MOONSHINE_IMAP_PASSWORD", "wrong")
    r = CliRunner().invoke(main, ["inbox", url, "--game", str(game.root)])
    assert r.exit_code == 1 and "refused the user name or the password" in r.output and "wrong" not in r.output
    r = CliRunner().invoke(main, ["inbox", "imaps://judge:pw@127.0.0.1/INBOX", "--game", str(game.root)])
    assert r.exit_code == 1 and "the password does not belong in the address" in r.output
    r = CliRunner().invoke(main, ["inbox", str(tmp_path / "nowhere"), "--game", str(game.root)])
    assert r.exit_code == 2 and "does not exist" in r.output
