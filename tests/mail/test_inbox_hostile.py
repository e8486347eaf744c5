"""The inbox against hostile and odd mail, on a copy of the sample game with the real
order reader: forged Message-IDs, messages without one, dates in the future,
escape characters, a turn already adjudicated, the game master's --accept, the
refusals ``status`` counts, the warning to a gang whose address sent a wrong
password, and the game's lock."""

from __future__ import annotations

import json
import multiprocessing
import subprocess
import time
from datetime import UTC, datetime, timedelta
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from gamekit import hold_lock
from inboxkit import reply_text
from samplegame import PASSWORDS, TURN, sample_to_order

from moonshine.cli import main
from moonshine.errors import GameError
from moonshine.game.directory import Game
from moonshine.mail import inbox
from moonshine.mail.inbox import turnlog
from moonshine.mail.inbox.outcome import Outcome
from moonshine.mail.outbox import compose

VALLEY, SECOND, EVE = "valley@players.example.org", "terry@home.example", "eve@else.example"
NOW = datetime(2024, 2, 29, 12, 0, tzinfo=UTC)
ORDERS = f"gang: valley\npassword: {PASSWORDS['valley']}\nH LOO - LIT\nL KEN hold\n"


@pytest.fixture
def game(tmp_path: Path) -> Game:
    return sample_to_order(tmp_path / "game", emails={"valley": [VALLEY, SECOND]})


def letter(sender: str, body: str, *, msgid: str | None = "<m1@players.example.org>", **headers: str) -> bytes:
    msg = EmailMessage()
    msg["Received"] = headers.pop("received", "from mx by mail.moonshine.example; Wed, 28 Feb 2024 10:00:00 +0000")
    msg["From"] = sender
    msg["To"] = "referee@moonshine.example.org"
    msg["Subject"] = headers.pop("subject", "orders")
    if msgid is not None:
        msg["Message-ID"] = msgid
    for k, v in headers.items():
        msg[k.replace("_", "-")] = v
    if not msg["Received"]:
        del msg["Received"]
    msg.set_content(body)
    return msg.as_bytes()


def box(path: Path, *messages: bytes) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    for i, raw in enumerate(messages):
        (path / f"{i:03d}.eml").write_bytes(raw)
    return path


def reply_of(game: Game, outcome: Outcome) -> EmailMessage:
    assert outcome.reply is not None
    msg = message_from_bytes((game.root / "outbox" / TURN / outcome.reply).read_bytes(), policy=policy.default)
    assert isinstance(msg, EmailMessage)
    return msg


def run(game: Game, *args: str) -> Any:
    result = CliRunner().invoke(main, [*args, "--game", str(game.root)])
    assert "Traceback" not in result.output, result.output
    return result


def test_a_forged_copy_of_a_message_id_never_hides_the_real_message(game: Game, tmp_path: Path) -> None:
    forged = letter(EVE, ORDERS.replace("LIT", "NSS"))
    [first] = inbox.process(game, box(tmp_path / "a", forged), now=NOW)
    assert first.status == "rejected" and first.refusal == "wrong sender"
    [again] = inbox.process(game, box(tmp_path / "a2", forged), now=NOW)
    assert again.status == "duplicate"  # the same bytes are never answered twice
    [real] = inbox.process(game, box(tmp_path / "b", letter(VALLEY, ORDERS)), now=NOW)
    assert real.status == "accepted", real.line()
    assert real.reply != first.reply
    assert reply_of(game, real)["Message-ID"] != reply_of(game, first)["Message-ID"]
    # once the real one is taken, its Message-ID stands for it: a later forgery is skipped
    [late_forgery] = inbox.process(game, box(tmp_path / "c", letter(VALLEY, ORDERS + "sell all\n")), now=NOW)
    assert late_forgery.status == "duplicate"


def test_a_message_without_message_id_is_read_once(game: Game, tmp_path: Path) -> None:
    raw = letter(VALLEY, ORDERS, msgid=None)
    [first] = inbox.process(game, box(tmp_path / "a", raw), now=NOW)
    assert first.status == "accepted" and first.message_id.endswith("@no-message-id>")
    [second] = inbox.process(game, box(tmp_path / "b", raw), now=NOW)
    assert second.status == "duplicate"


def test_a_senders_date_in_the_future_is_not_believed(game: Game, tmp_path: Path) -> None:
    raw = letter(VALLEY, ORDERS, received="", Date="Sat, 01 Jan 2039 10:00:00 +0000")
    [o] = inbox.process(game, box(tmp_path / "a", raw), now=NOW)
    assert o.status == "accepted"
    log = turnlog.load_log(game, TURN)
    assert log.current["valley"]["received"] == NOW.isoformat()


def test_a_date_hours_ahead_does_not_make_earlier_orders_stand_over_later_ones(game: Game, tmp_path: Path) -> None:
    """A mail without a Received line whose Date is five hours ahead (a wrong clock, or
    a sender hoping to have the last word) counts as received when it was read: the
    gang's orders sent an hour later replace it."""
    ahead = format_datetime(NOW + timedelta(hours=5))
    first = ORDERS.replace("H LOO - LIT", "H LOO - NSS")
    [a] = inbox.process(
        game, box(tmp_path / "a", letter(VALLEY, first, msgid="<a@x>", received="", Date=ahead)), now=NOW
    )
    assert a.status == "accepted"
    later = NOW + timedelta(hours=1)
    b_raw = letter(VALLEY, ORDERS, msgid="<b@x>", received="", Date=format_datetime(later))
    [b] = inbox.process(game, box(tmp_path / "b", b_raw), now=later)
    assert b.status == "accepted"  # not "superseded" by a mail read before it
    log = turnlog.load_log(game, TURN)
    assert log.current["valley"]["received"] == later.isoformat()
    assert "H LOO - LIT" in (game.orders_dir(TURN) / "valley.txt").read_text(encoding="utf-8")


def test_a_password_typed_again_in_an_order_line_is_never_written_back(game: Game, tmp_path: Path) -> None:
    """The password pasted by mistake into an order line: the reply quotes the line it
    could not read with the password masked, and nowhere else writes it."""
    secret = PASSWORDS["valley"]
    body = ORDERS + f"L KEN - LIT {secret}\n"
    [o] = inbox.process(game, box(tmp_path / "a", letter(VALLEY, body)), now=NOW)
    assert o.status == "accepted"
    reply = reply_of(game, o)
    text = reply_text(reply)
    assert "L KEN - LIT ********" in text  # the line is quoted, its secret masked
    assert secret not in reply.as_string()
    saved = (game.orders_dir(TURN) / "valley.txt").read_text(encoding="utf-8")
    assert "H LOO - LIT" in saved and "L KEN - LIT ********" in saved  # the orders kept, the secret masked
    written = [p for p in game.root.rglob("*") if p.is_file() and secret.encode() in p.read_bytes()]
    assert written == []


def test_the_html_alternative_of_a_plain_text_is_not_read(game: Game, tmp_path: Path) -> None:
    """A mail with a plain text and its HTML alternative is read from the plain text the
    player wrote: what the HTML part holds beside it (here a hidden gang line and an
    order the player never saw) is not acted on."""
    msg = message_from_bytes(letter(VALLEY, f"password: {PASSWORDS['valley']}\nH LOO - LIT\n"), policy=policy.default)
    assert isinstance(msg, EmailMessage)
    hidden = '<div style="display:none">gang: valley<br>L KEN - LIT</div>'
    msg.add_alternative(f"<p>password: {PASSWORDS['valley']}<br>H LOO - LIT</p>{hidden}", subtype="html")
    [o] = inbox.process(game, box(tmp_path / "a", msg.as_bytes()), now=NOW)
    assert not (game.orders_dir(TURN) / "valley.txt").exists()  # no gang line in what the player wrote
    assert o.status == "rejected" and o.reason.startswith("no 'gang:' line"), o.reason


def test_a_date_out_of_range_never_stops_the_others(game: Game, tmp_path: Path) -> None:
    odd = letter(EVE, "hello", msgid="<odd@x>", received="", Date="Fri, 31 Dec 9999 23:59:00 -2359")
    outcomes = inbox.process(game, box(tmp_path / "a", odd, letter(VALLEY, ORDERS)), now=NOW)
    assert sorted(o.status for o in outcomes) == ["accepted", "ignored"]  # eve names no gang: not answered


def test_escape_and_bidi_characters_never_reach_the_terminal(game: Game, tmp_path: Path) -> None:
    body = f"gang: \x1b[2Jvalley\u202e\npassword: {PASSWORDS['valley']}\nH LOO - LIT\n"
    result = run(game, "inbox", str(box(tmp_path / "a", letter(VALLEY, body))))
    assert result.exit_code == 0, result.output
    assert "\x1b" not in result.output and "\u202e" not in result.output
    assert "\\x1b" in result.output and "\\u202e" in result.output


def test_orders_for_a_turn_already_adjudicated_are_kept_not_accepted(game: Game, tmp_path: Path) -> None:
    (game.turn_dir(TURN) / "results.yaml").write_text("# adjudicated\n", encoding="utf-8")
    [o] = inbox.process(game, box(tmp_path / "a", letter(VALLEY, ORDERS)), now=NOW)
    assert o.status == "rejected" and o.refusal == "after adjudication"
    assert "already adjudicated" in o.reason
    assert not (game.orders_dir(TURN) / "valley.txt").exists()
    [kept] = (game.orders_dir(TURN) / "history").glob("valley-*.txt")
    saved = kept.read_text(encoding="utf-8")
    assert "# kept: after the turn was adjudicated" in saved and "H LOO - LIT" in saved
    assert PASSWORDS["valley"] not in saved
    text = reply_text(reply_of(game, o))
    assert "was NOT accepted" in text and "kept for the game master" in text


def test_the_game_master_accepts_a_late_message(game: Game, tmp_path: Path) -> None:
    late = letter(VALLEY, ORDERS, received="from mx by mail; Sat, 02 Mar 2024 09:00:00 +0000", msgid="<late@x>")
    source = box(tmp_path / "a", late, letter(EVE, "spam", msgid="<spam@x>"))
    first = run(game, "inbox", str(source))
    assert "rejected   valley" in first.output and "late: received" in first.output
    assert not (game.orders_dir(TURN) / "valley.txt").exists()
    again = run(game, "inbox", str(source))
    assert "2 messages already processed" in again.output
    taken = run(game, "inbox", str(source), "--accept", "<late@x>")
    assert taken.exit_code == 0, taken.output
    assert taken.output.startswith("accepted   valley"), taken.output
    assert "spam" not in taken.output and "eve@" not in taken.output
    saved = (game.orders_dir(TURN) / "valley.txt").read_text(encoding="utf-8")
    assert "H LOO - LIT" in saved and PASSWORDS["valley"] not in saved
    [history] = [
        p for p in (game.orders_dir(TURN) / "history").glob("valley-*.txt") if "inbox --accept" in p.read_text()
    ]
    assert "taken by the game master" in history.read_text()
    twice = run(game, "inbox", str(source), "--accept", "<late@x>")
    assert "already processed" in twice.output
    unknown = run(game, "inbox", str(source), "--accept", "<nothing@x>")
    assert unknown.exit_code != 0 and "no message with Message-ID <nothing@x>" in unknown.output


def test_accept_still_checks_the_password(game: Game, tmp_path: Path) -> None:
    bad = letter(VALLEY, ORDERS.replace(PASSWORDS["valley"], "a-guess"), msgid="<bad@x>")
    [o] = inbox.process(game, box(tmp_path / "a", bad), now=NOW, accept="<bad@x>")
    assert o.status == "rejected" and o.refusal == "wrong password"


def test_a_wrong_password_from_a_gangs_address_warns_every_address_of_the_gang(game: Game, tmp_path: Path) -> None:
    guess = "hunter2-guess"
    [o] = inbox.process(game, box(tmp_path / "a", letter(VALLEY, ORDERS.replace(PASSWORDS["valley"], guess))), now=NOW)
    assert o.status == "rejected" and o.refusal == "wrong password"
    reply = reply_of(game, o)
    assert [a.addr_spec for a in reply["To"].addresses] == [VALLEY]
    assert reply["Cc"] is None  # the refusal to its sender only; the gang hears by the day's warning
    text = reply_text(reply)
    assert "someone may be" in text and guess not in text
    warnings = sorted((game.root / "outbox" / TURN).glob("reply-warning-valley-*.eml"))
    sent = [message_from_bytes(w.read_bytes(), policy=policy.default) for w in warnings]
    # one mail to each address of the gang, each naming only the address it goes to
    assert sorted([a.addr_spec for a in m["To"].addresses] for m in sent) == sorted([[VALLEY], [SECOND]])
    assert all(m["Cc"] is None and m["Bcc"] is None for m in sent)
    for m in sent:
        assert "refused a message naming Valley Gang: its password was wrong" in reply_text(m)  # type: ignore[arg-type]
        assert guess not in reply_text(m)  # type: ignore[arg-type]
    # a second wrong password the same day: its refusal, and no second warning
    inbox.process(
        game, box(tmp_path / "b", letter(VALLEY, ORDERS.replace(PASSWORDS["valley"], "hunter3-guess"))), now=NOW
    )
    assert len(list((game.root / "outbox" / TURN).glob("reply-warning-valley-*.eml"))) == 2


def test_status_counts_refused_messages_per_gang(game: Game, tmp_path: Path) -> None:
    messages = (
        letter(VALLEY, ORDERS.replace(PASSWORDS["valley"], "guess-one"), msgid="<a@x>"),
        letter(EVE, ORDERS, msgid="<b@x>"),
        letter(VALLEY, ORDERS, msgid="<c@x>", received="from mx by mail; Sat, 02 Mar 2024 09:00:00 +0000"),
    )
    inbox.process(game, box(tmp_path / "a", *messages), now=NOW)
    result = run(game, "status")
    [valley] = [line for line in result.output.splitlines() if line.strip().startswith("valley")]
    assert "MISSING" in valley
    assert f"refused: 1 wrong password, 1 wrong sender, 1 late (last from {VALLEY})" in valley
    [outfit] = [line for line in result.output.splitlines() if line.strip().startswith("outfit")]
    assert "refused" not in outfit


def test_the_inbox_waits_for_the_games_lock(game: Game, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(inbox, "LOCK_WAIT", 0.2)
    ctx = multiprocessing.get_context("spawn")  # a fresh interpreter: no threads of this one forked
    ready, release = ctx.Event(), ctx.Event()
    child = ctx.Process(target=hold_lock, args=(str(game.root), ready, release))
    child.start()
    try:
        assert ready.wait(20)
        started = time.monotonic()
        with pytest.raises(GameError, match=r"adjudicate spring-1924 .* is running"):
            inbox.process(game, box(tmp_path / "a", letter(VALLEY, ORDERS)), now=NOW)
        assert time.monotonic() - started < 5
        assert not (game.orders_dir(TURN) / "valley.txt").exists()
    finally:
        release.set()
        child.join(20)
    [o] = inbox.process(game, box(tmp_path / "a", letter(VALLEY, ORDERS)), now=NOW)
    assert o.status == "accepted"


def test_an_interrupted_run_is_finished_by_the_next(game: Game, tmp_path: Path) -> None:
    """A run killed after answering a message but before writing the log leaves its
    journal; the next run puts it in the log and does not answer the message again."""
    source = box(tmp_path / "a", letter(VALLEY, ORDERS))
    inbox.process(game, source, now=NOW)
    log_file = turnlog.log_path(game, TURN)
    logged = turnlog.load_log(game, TURN)
    journal = game.orders_dir(TURN) / turnlog.JOURNAL
    journal.write_text(
        json.dumps({"submission": logged.submissions[0], "current": logged.current["valley"]}) + "\n{cut short",
        encoding="utf-8",
    )
    log_file.unlink()
    [o] = inbox.process(game, source, now=NOW)
    assert o.status == "duplicate"
    assert not journal.exists()
    assert turnlog.load_log(game, TURN).current["valley"]["message_id"] == "<m1@players.example.org>"


def test_an_address_a_mail_server_would_refuse_is_no_sender(game: Game, tmp_path: Path) -> None:
    """Found by the hostile-mail run: a garbled address once stopped the whole run."""
    raw = letter(VALLEY, ORDERS).replace(f"From: {VALLEY}".encode(), b"From: Terry <valley@[layers.example.org>")
    assert b"[layers" in raw
    outcomes = inbox.process(game, box(tmp_path / "a", raw, letter(VALLEY, ORDERS, msgid="<ok@x>")), now=NOW)
    assert [(o.status, o.sender) for o in outcomes] == [("rejected", ""), ("accepted", VALLEY)]


def test_a_reply_that_cannot_be_written_does_not_change_what_became_of_the_message(
    game: Game, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(**_: Any) -> EmailMessage:
        raise AttributeError("'InvalidHeaderDefect' object has no attribute 'all_defects'")

    monkeypatch.setattr(compose, "text_message", refuse)
    messages = (letter(VALLEY, ORDERS), letter(EVE, ORDERS, msgid="<eve@x>"))
    outcomes = inbox.process(game, box(tmp_path / "a", *messages), now=NOW)
    assert sorted((o.status, o.reply) for o in outcomes) == [("accepted", None), ("rejected", None)]
    assert (game.orders_dir(TURN) / "valley.txt").is_file()
    assert [s["outcome"] for s in turnlog.load_log(game, TURN).submissions] == ["accepted", "rejected"]


def test_an_interrupted_runs_journal_is_never_committed(tmp_path: Path) -> None:
    from moonshine.game.directory import git_commit
    from moonshine.game.families import new_game

    root = tmp_path / "g"
    new_game(root, seed="s")
    game = Game(root)
    journal = game.orders_dir(game.current_turn()) / turnlog.JOURNAL
    assert journal.name in (root / ".gitignore").read_text(encoding="utf-8").split()
    journal.write_text('{"submission": {"message_id": "<x@y>", "outcome": "rejected"}}\n', encoding="utf-8")
    (root / "notes.txt").write_text("x\n", encoding="utf-8")
    assert git_commit(root, "a job's commit")
    tracked = subprocess.run(["git", "ls-files"], cwd=root, capture_output=True, text=True, check=True).stdout.split()
    assert "notes.txt" in tracked and not [name for name in tracked if name.endswith(turnlog.JOURNAL)]
