"""Reading orders from mailboxes: Maildir, mbox and .eml folders built with the
standard library, every rejection, and that no forged or late message ever
changes a saved order file."""

from __future__ import annotations

import itertools
import mailbox
import re
from collections.abc import Callable
from datetime import UTC, datetime
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path
from typing import Any

import frtypo
import pytest
import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from inboxkit import (
    AFTER,
    AL,
    ANGELO,
    BEFORE,
    DEADLINE,
    FRANK,
    TERRY,
    TURN,
    VALLEY_ORDERS,
    VALLEY_PW,
    eml_folder,
    inbox_game,
    maildir,
    order_mail,
    replies,
    reply_text,
    run_inbox,
)
from msgspec.structs import replace
from smtpkit import Server

from moonshine.cli import main
from moonshine.game.directory import Game, save_config
from moonshine.game.families.base import OrderCheck
from moonshine.game.lock import LOCK_FILE
from moonshine.mail import inbox, sources
from moonshine.mail.envelope import orders_text, split_lines
from moonshine.mail.inbox import accept, reading, turnlog
from moonshine.mail.intake import html_to_text
from moonshine.variants.moonshine.state import GameState

# -- a small stand-in for the order reader, so that these tests check the mail ----------
# machinery only; tests at the end go through the real reader and acknowledgement.

_FAKE_ORDER = re.compile(r"^(?:[LH] [A-Z]{3} (?:hold|- [A-Z]{3})|sell \d+)$")


def fake_check(
    text: str, game: Game, st: GameState, gang: str | None, *, source: str, language: str | None = None
) -> OrderCheck:
    header_gang = password = turn = None
    pw_lines: list[int] = []
    accepted = rejected = 0
    for n, line in enumerate(split_lines(text), 1):
        if line.rstrip() == "--":
            break
        body = line.strip().lstrip(">").strip()
        m = re.match(r"(?i)(gang|password|turn)\s*:\s*(.*)$", body)
        if m and m.group(1).lower() == "gang":
            g = game.map.gang_by_name(m.group(2))
            header_gang = header_gang or (g.key if g else None)
        elif m and m.group(1).lower() == "password":
            password = m.group(2).strip()
            pw_lines.append(n)
        elif m:
            turn = m.group(2).strip()
        elif _FAKE_ORDER.match(body):
            accepted += 1
        elif body:
            rejected += 1
    ack = f"FAKE ACK for {gang or header_gang}: {accepted} accepted, {rejected} rejected ({source})"
    return OrderCheck(header_gang, turn, password, tuple(pw_lines), accepted, rejected, (), ack)


@pytest.fixture
def fake_reader(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(accept, "check_orders", fake_check)


# -- building mail and mailboxes ------------------------------------------------------


def mbox(path: Path, messages: list[EmailMessage | bytes]) -> Path:
    box = mailbox.mbox(str(path), create=True)
    for m in messages:
        box.add(m if isinstance(m, bytes) else m.as_bytes())
    box.flush()
    box.close()
    return path


SOURCES: dict[str, Callable[[Path, list[EmailMessage | bytes]], Path]] = {
    "maildir": maildir,
    "mbox": mbox,
    "eml": eml_folder,
}


def orders_file(game: Game, gang: str = "valley") -> Path:
    return game.orders_dir(TURN) / f"{gang}.txt"


def snapshot(game: Game) -> dict[str, bytes]:
    """Every file of the game but the lock (which names the last job that held it)."""
    return {
        str(p.relative_to(game.root)): p.read_bytes()
        for p in sorted(game.root.rglob("*"))
        if p.is_file() and p.name != LOCK_FILE
    }


# -- accepting ---------------------------------------------------------------------------


@pytest.mark.parametrize("kind", sorted(SOURCES))
def test_orders_are_saved_and_acknowledged_from_every_kind_of_source(
    tmp_path: Path, fake_reader: None, kind: str
) -> None:
    game = inbox_game(tmp_path)
    msg = order_mail(TERRY, VALLEY_ORDERS, subject="Valley orders", msgid="<first@valley.example>")
    source = SOURCES[kind](tmp_path / f"box-{kind}", [msg])
    result = run_inbox(game, source)
    assert result.exit_code == 0, result.output
    assert re.search(r"^accepted\s+valley\s+terry@valley\.example: 3 orders read", result.output, re.M)
    assert f"{TURN}: 1 accepted." in result.output
    saved = orders_file(game).read_text()
    assert saved == "gang: valley\n\nH LOO - NSS\nL KEN hold\nsell 4\n"  # the password line left blank
    history = (game.orders_dir(TURN) / "history" / "valley-1.txt").read_text()
    assert "# received: 2024-02-28T10:00:00+00:00" in history and history.endswith(saved)
    [reply] = replies(game)
    assert [a.addr_spec for a in reply["To"].addresses] == [TERRY]
    assert [a.addr_spec for a in reply["Cc"].addresses] == [FRANK]  # the gang's other player
    assert reply["In-Reply-To"] == "<first@valley.example>"
    assert [a.addr_spec for a in reply["Reply-To"].addresses] == ["ref@moonshine.example"]
    assert reply["Subject"] == "Re: Valley orders"
    assert reply["Auto-Submitted"] == "auto-replied"
    text = reply_text(reply)
    assert "Orders for Valley Gang, Spring 1924, received 2024-02-28 10:00 UTC" in text
    assert "FAKE ACK for valley: 3 accepted, 0 rejected" in text
    assert "Deadline: Friday\u00a01\u00a0March\u00a02024, 18:00\u00a0UTC" in text


def test_running_inbox_twice_processes_each_message_once(tmp_path: Path, fake_reader: None) -> None:
    game = inbox_game(tmp_path)
    source = maildir(tmp_path / "box", [order_mail(TERRY, VALLEY_ORDERS)])
    assert run_inbox(game, source).exit_code == 0
    before = snapshot(game)
    again = run_inbox(game, source)
    assert again.exit_code == 0
    assert "1 message already processed, skipped." in again.output
    assert f"{TURN}: no new message." in again.output
    assert snapshot(game) == before


def test_a_later_submission_replaces_the_earlier_and_both_are_kept(tmp_path: Path, fake_reader: None) -> None:
    game = inbox_game(tmp_path)
    first = order_mail(TERRY, VALLEY_ORDERS, date="Tue, 27 Feb 2024 09:00:00 +0000")
    second_body = f"gang: valley\npassword: {VALLEY_PW}\nH LOO - BRO\n"
    second = order_mail(FRANK, second_body, date="Thu, 29 Feb 2024 20:00:00 +0000")
    assert run_inbox(game, maildir(tmp_path / "a", [first])).exit_code == 0
    result = run_inbox(game, maildir(tmp_path / "b", [second]))
    assert "replaces the orders received 2024-02-27 09:00 UTC" in result.output
    assert orders_file(game).read_text() == "gang: valley\n\nH LOO - BRO\n"
    history = sorted(p.name for p in (game.orders_dir(TURN) / "history").iterdir())
    assert history == ["valley-1.txt", "valley-2.txt"]
    assert "H LOO - NSS" in (game.orders_dir(TURN) / "history" / "valley-1.txt").read_text()
    log = yaml.safe_load((game.orders_dir(TURN) / "inbox.yaml").read_text())
    assert log["current"]["valley"]["from"] == FRANK
    assert log["current"]["valley"]["history"] == "history/valley-2.txt"


def test_an_older_message_read_late_does_not_replace_a_newer_one(tmp_path: Path, fake_reader: None) -> None:
    game = inbox_game(tmp_path)
    newer = order_mail(TERRY, f"gang: valley\npassword: {VALLEY_PW}\nH LOO - BRO\n", date=BEFORE)
    older = order_mail(FRANK, VALLEY_ORDERS, date="Mon, 26 Feb 2024 08:00:00 +0000")
    assert run_inbox(game, eml_folder(tmp_path / "a", [newer])).exit_code == 0
    result = run_inbox(game, eml_folder(tmp_path / "b", [older]))
    assert re.search(r"^superseded\s+valley\s+frank@valley\.example: .*a later submission", result.output, re.M)
    assert orders_file(game).read_text() == "gang: valley\n\nH LOO - BRO\n"
    assert len(list((game.orders_dir(TURN) / "history").iterdir())) == 2  # kept on file all the same


def test_one_run_takes_messages_in_the_order_received(tmp_path: Path, fake_reader: None) -> None:
    game = inbox_game(tmp_path)
    late_in_box = order_mail(TERRY, VALLEY_ORDERS, date="Mon, 26 Feb 2024 08:00:00 +0000")
    early_in_box = order_mail(FRANK, f"gang: valley\npassword: {VALLEY_PW}\nH LOO - BRO\n", date=BEFORE)
    result = run_inbox(game, mbox(tmp_path / "mbox", [early_in_box, late_in_box]))
    assert result.output.count("accepted") >= 2
    assert orders_file(game).read_text() == "gang: valley\n\nH LOO - BRO\n"  # the one received last stands


# -- rejections: none of them touches an order file ------------------------------------------


def _with_saved_orders(tmp_path: Path) -> tuple[Game, dict[str, bytes]]:
    game = inbox_game(tmp_path)
    assert run_inbox(game, maildir(tmp_path / "first", [order_mail(TERRY, VALLEY_ORDERS)])).exit_code == 0
    orders = {p.name: p.read_bytes() for p in sorted(game.orders_dir(TURN).rglob("*.txt"))}
    return game, orders


def _assert_orders_unchanged(game: Game, orders: dict[str, bytes]) -> None:
    assert {p.name: p.read_bytes() for p in sorted(game.orders_dir(TURN).rglob("*.txt"))} == orders


REJECTIONS: dict[str, tuple[EmailMessage, str, str]] = {
    "unknown sender": (
        order_mail("eve@evil.example", VALLEY_ORDERS),
        "eve@evil.example is not a player's address in this game",
        "eve@evil.example",
    ),
    "display name pretending to be a player": (
        order_mail(f'"{TERRY}" <eve@evil.example>', VALLEY_ORDERS),
        "eve@evil.example is not a player's address in this game",
        "eve@evil.example",
    ),
    "spoofed sender, wrong password": (
        order_mail(TERRY, VALLEY_ORDERS.replace(VALLEY_PW, "guessed")),
        "wrong password for Valley Gang",
        TERRY,
    ),
    "no password line": (
        order_mail(TERRY, "gang: valley\nH LOO - BRO\n"),
        "no 'password:' line",
        TERRY,
    ),
    "another gang's name": (
        order_mail(AL, VALLEY_ORDERS),
        "al@outfit.example plays Chicago Outfit, not Valley Gang: these orders name another gang",
        AL,
    ),
    "late": (
        order_mail(TERRY, VALLEY_ORDERS, date=AFTER, received=AFTER),
        "late: received 2024-03-02 09:00 UTC, after the deadline 2024-03-01 18:00 UTC",
        TERRY,
    ),
    "late by the server's clock, whatever the Date line says": (
        order_mail(TERRY, VALLEY_ORDERS, date=BEFORE, received=AFTER),
        "late: received 2024-03-02 09:00 UTC",
        TERRY,
    ),
    "no gang line": (
        order_mail(TERRY, f"password: {VALLEY_PW}\nH LOO - BRO\n"),
        "no 'gang:' line: the orders must say whose they are",
        TERRY,
    ),
    "unknown gang": (
        order_mail(TERRY, f"gang: capone\npassword: {VALLEY_PW}\nH LOO - BRO\n"),
        "'gang: capone' names no gang of this game (gangs: outfit (Chicago Outfit), valley (Valley Gang)",
        TERRY,
    ),
    "another turn": (
        order_mail(TERRY, f"gang: valley\npassword: {VALLEY_PW}\nturn: autumn-1924\nH LOO - BRO\n"),
        "these orders are for Autumn 1924, but the turn being played is Spring 1924",
        TERRY,
    ),
    "nothing readable": (
        order_mail(TERRY, f"gang: valley\npassword: {VALLEY_PW}\nmove everything north please\n"),
        "the order line could not be read; earlier orders, if any, stand",
        TERRY,
    ),
    "no password set for the gang": (
        order_mail(ANGELO, "gang: genna\npassword: anything\nH CHA hold\n"),
        "no password is set for Genna Crime Family",
        ANGELO,
    ),
}


@pytest.mark.parametrize("case", sorted(REJECTIONS))
def test_rejected_messages_get_a_clear_reply_and_change_no_order_file(
    tmp_path: Path, fake_reader: None, case: str
) -> None:
    game, orders = _with_saved_orders(tmp_path)
    msg, reason, reply_to = REJECTIONS[case]
    result = run_inbox(game, eml_folder(tmp_path / "box", [msg]))
    assert result.exit_code == 0, result.output
    assert re.search(r"^rejected\s", result.output, re.M), result.output
    assert reason in result.output
    _assert_orders_unchanged(game, orders)
    answer = [r for r in replies(game) if r["In-Reply-To"] == msg["Message-ID"]]
    assert len(answer) == 1
    assert [a.addr_spec for a in answer[0]["To"].addresses] == [reply_to]
    text = reply_text(answer[0])
    assert "was NOT accepted as orders for Spring 1924" in text
    assert reason in text
    assert "No order file was changed." in text
    assert VALLEY_PW not in text


def test_mail_received_before_the_previous_deadline_is_for_an_earlier_turn(tmp_path: Path, fake_reader: None) -> None:
    game = inbox_game(tmp_path)
    deadlines = {"autumn-1923": "2024-02-20T18:00:00+00:00", TURN: DEADLINE}
    save_config(game, replace(game.config, extra={**game.config.extra, "deadlines": deadlines}))
    old = order_mail(TERRY, VALLEY_ORDERS, date="Mon, 19 Feb 2024 08:00:00 +0000")
    result = run_inbox(game, maildir(tmp_path / "box", [old]))
    assert "before the previous turn's deadline (2024-02-20 18:00 UTC): these orders are for an earlier turn" in (
        result.output
    )
    assert not orders_file(game).exists()


def test_unsolicited_mail_from_strangers_is_logged_never_answered(tmp_path: Path, fake_reader: None) -> None:
    """Spam (a stranger's message naming no gang, with no order, password or command)
    gets no reply, so forged senders get nothing back; a stranger sending orders or
    naming a gang is still told why they are refused."""
    game = inbox_game(tmp_path)
    spam = order_mail("deals@bulk.example", "Cheap watches!\nVisit our shop today.", subject="Offer")
    lost = order_mail("eve@evil.example", "L UPT - ROG\n", subject="my orders")
    named = order_mail("eve@elsewhere.example", "gang: genna\nplease send me the rules\n")
    result = run_inbox(game, maildir(tmp_path / "box", [spam, lost, named]))
    assert result.exit_code == 0, result.output
    assert re.search(r"^ignored\s+-\s+deals@bulk\.example: not from a player.*not answered", result.output, re.M)
    refused = re.findall(r"^rejected\s.*(eve@\S+) is not a player's address", result.output, re.M)
    assert sorted(refused) == ["eve@elsewhere.example", "eve@evil.example"]
    assert sorted(str(r["To"]) for r in replies(game)) == ["eve@elsewhere.example", "eve@evil.example"]


def test_late_orders_are_taken_with_late_ok(tmp_path: Path, fake_reader: None) -> None:
    game = inbox_game(tmp_path)
    source = maildir(tmp_path / "box", [order_mail(TERRY, VALLEY_ORDERS, date=AFTER)])
    result = run_inbox(game, source, "--late-ok")
    assert result.exit_code == 0
    assert re.search(r"^accepted\s+valley", result.output, re.M)
    assert orders_file(game).is_file()


def test_oversize_message_is_rejected_with_the_limit(tmp_path: Path, fake_reader: None) -> None:
    game, orders = _with_saved_orders(tmp_path)
    save_config(game, replace(game.config, extra={**game.config.extra, "inbox": {"max_message_bytes": 4096}}))
    big = order_mail(TERRY, VALLEY_ORDERS.replace("sell 4", "sell 4\n" + "x" * 80 * 100))
    result = run_inbox(game, maildir(tmp_path / "box", [big]))
    assert re.search(r"^rejected\s.*more than the 4,096 bytes this game accepts", result.output, re.M)
    _assert_orders_unchanged(game, orders)
    assert any("more than the 4,096 bytes" in reply_text(r) for r in replies(game))


def test_an_oversize_message_is_refused_without_being_read_whole(tmp_path: Path, fake_reader: None) -> None:
    """A player's photo of 5 MB is refused on its size, its sender, subject and date
    read from its header block alone: reading it takes a small part of its size in
    memory, not the several copies the mail library makes of a text it parses."""
    import tracemalloc

    photo = order_mail(TERRY, VALLEY_ORDERS, subject="my orders, and the board")
    photo.add_attachment(bytes(range(256)) * (5 * 4096), maintype="image", subtype="jpeg", filename="board.jpg")
    raw = photo.as_bytes()
    assert len(raw) > 5_000_000
    tracemalloc.start()
    try:
        read = reading.read(sources.Incoming(raw, "test"), 512 * 1024)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert read.problem is not None and read.problem.key == "reject.too_big"
    assert read.sender == TERRY and read.subject == "my orders, and the board"
    assert read.received == datetime(2024, 2, 28, 10, 0, tzinfo=UTC)
    assert peak < len(raw) // 4, f"reading a {len(raw):,}-byte message took {peak:,} bytes"
    game = inbox_game(tmp_path)
    result = run_inbox(game, maildir(tmp_path / "box", [photo]))
    assert re.search(r"^rejected\s.*more than the 524,288 bytes this game accepts", result.output, re.M)
    assert any("more than the 524,288 bytes" in reply_text(r) for r in replies(game))


def test_bounces_and_automatic_replies_are_logged_never_answered(tmp_path: Path, fake_reader: None) -> None:
    game = inbox_game(tmp_path)
    auto = order_mail(TERRY, "I am on holiday until March.")
    auto["Auto-Submitted"] = "auto-replied"
    bounce = order_mail("MAILER-DAEMON@valley.example", "Delivery failed.")
    result = run_inbox(game, maildir(tmp_path / "box", [auto, bounce]))
    assert len(re.findall(r"^ignored\s.*automatic reply or bounce: not answered", result.output, re.M)) == 2
    assert f"{TURN}: 2 ignored." in result.output
    assert replies(game) == []
    assert not orders_file(game).exists()


# -- malformed and unusual mail --------------------------------------------------------------

_BAD: dict[str, bytes] = {
    "no headers at all": b"\x00\x01\xff\xfe garbage \x80\x81",
    "multipart without boundary": (
        b"From: terry@valley.example\r\nMessage-ID: <nb@x>\r\nDate: " + BEFORE.encode() + b"\r\n"
        b"Content-Type: multipart/mixed\r\n\r\nno boundary here\r\n"
    ),
    "truncated multipart": (
        b'From: terry@valley.example\r\nMessage-ID: <tr@x>\r\nContent-Type: multipart/mixed; boundary="XX"\r\n\r\n'
        b"--XX\r\nContent-Type: text/plain\r\n\r\ngang: valley\r\npassword: wrong\r\n"
    ),
    "unknown charset": (
        b"From: terry@valley.example\r\nMessage-ID: <cs@x>\r\nContent-Type: text/plain; charset=klingon-8\r\n\r\n"
        b"gang: valley\r\npassword: nope\r\n\xff\xfe\r\n"
    ),
    "broken base64": (
        b"From: terry@valley.example\r\nMessage-ID: <b64@x>\r\nContent-Type: text/plain\r\n"
        b"Content-Transfer-Encoding: base64\r\n\r\n!!!not base64***\r\n"
    ),
    "broken From header": b"From: <<<@@@>>> ,,, \r\nMessage-ID: <fr@x>\r\n\r\ngang: valley\r\n",
    "header line with invalid bytes": (
        b"From: terry@valley.example\r\nSubject: \xff\xfe\xfd\r\nMessage-ID: <ib@x>\r\n\r\ngang: valley\r\n"
    ),
}


@pytest.mark.parametrize("kind", sorted(SOURCES))
def test_malformed_mail_never_stops_the_run_nor_changes_orders(tmp_path: Path, fake_reader: None, kind: str) -> None:
    game, orders = _with_saved_orders(tmp_path)
    good_later = order_mail(
        FRANK, f"gang: valley\npassword: {VALLEY_PW}\nH LOO - BRO\n", date="Thu, 29 Feb 2024 10:00 +0000"
    )
    messages: list[EmailMessage | bytes] = [*_BAD.values(), good_later]
    result = run_inbox(game, SOURCES[kind](tmp_path / "box", messages))
    assert result.exit_code == 0, result.output
    lines = [line for line in result.output.splitlines() if re.match(r"^(accepted|rejected|ignored)\s", line)]
    assert len(lines) == len(messages)
    assert sum(line.startswith("accepted") for line in lines) == 1  # only the good one
    assert orders_file(game).read_text() == "gang: valley\n\nH LOO - BRO\n"
    history = sorted(p.name for p in (game.orders_dir(TURN) / "history").iterdir())
    assert history == ["valley-1.txt", "valley-2.txt"]
    assert (game.orders_dir(TURN) / "history" / "valley-1.txt").read_bytes() == orders["valley-1.txt"]


def test_html_only_mail_is_read_from_its_text(tmp_path: Path, fake_reader: None) -> None:
    game = inbox_game(tmp_path)
    msg = EmailMessage()
    msg["From"] = TERRY
    msg["Subject"] = "orders"
    msg["Date"] = BEFORE
    msg["Message-ID"] = "<html@valley.example>"
    html = (
        "<html><head><style>p {color: red}</style></head><body>"
        f"<div>gang: valley</div><div>password: {VALLEY_PW}</div>"
        "<p>H LOO - NSS<br>L KEN&nbsp;hold</p><blockquote>H XXX - YYY</blockquote></body></html>"
    )
    msg.set_content(html, subtype="html")
    result = run_inbox(game, eml_folder(tmp_path / "box", [msg]))
    assert re.search(r"^accepted\s+valley.*2 orders read", result.output, re.M), result.output
    assert orders_file(game).read_text() == "gang: valley\n\nH LOO - NSS\nL KEN hold\n"


def test_html_to_text_keeps_lines_and_drops_scripts_and_quotes() -> None:
    html = (
        "<p>H LOO - NSS</p><script>alert(1)</script><div>sell&nbsp;4<br/>L KEN hold</div><blockquote>old</blockquote>"
    )
    assert html_to_text(html) == "H LOO - NSS\nsell 4\nL KEN hold"


@pytest.mark.parametrize(
    "filename", ["../../game.yaml", "/etc/passwd", "..\\..\\orders\\spring-1924\\outfit.txt", "con"]
)
def test_orders_in_an_attachment_with_a_hostile_name(tmp_path: Path, fake_reader: None, filename: str) -> None:
    game = inbox_game(tmp_path)
    before = snapshot(game)
    msg = order_mail(TERRY, "Orders attached.")
    msg.add_attachment(VALLEY_ORDERS.encode(), maintype="text", subtype="plain", filename=filename)
    result = run_inbox(game, eml_folder(tmp_path / "box", [msg]))
    assert re.search(r"^accepted\s+valley", result.output, re.M), result.output
    assert orders_file(game).read_text() == "gang: valley\n\nH LOO - NSS\nL KEN hold\nsell 4\n"
    after = snapshot(game)
    changed = {k for k in after if before.get(k) != after[k]}
    assert all(k.startswith((f"orders/{TURN}/", f"outbox/{TURN}/")) for k in changed), changed
    assert (tmp_path / "game.yaml").exists() is False
    assert "read from: attachment" in (game.orders_dir(TURN) / "history" / "valley-1.txt").read_text()


def test_the_password_is_never_written_anywhere(tmp_path: Path, fake_reader: None) -> None:
    game = inbox_game(tmp_path)
    msgs = [
        order_mail(TERRY, VALLEY_ORDERS),
        order_mail(TERRY, VALLEY_ORDERS, date=AFTER),
        order_mail(AL, VALLEY_ORDERS),
        order_mail(FRANK, f"gang: valley\nPassword : {VALLEY_PW}\n> password: {VALLEY_PW}\nH LOO - BRO\n", date=BEFORE),
    ]
    assert run_inbox(game, maildir(tmp_path / "box", msgs)).exit_code == 0
    for p in game.root.rglob("*"):
        if p.is_file():
            assert VALLEY_PW.encode() not in p.read_bytes(), p


def test_missing_source_is_a_clear_error(tmp_path: Path) -> None:
    game = inbox_game(tmp_path)
    result = CliRunner().invoke(main, ["inbox", str(tmp_path / "nowhere"), "--game", str(game.root)])
    assert result.exit_code == 2
    assert "does not exist" in result.output


def test_orders_text_blanks_password_lines_and_keeps_numbering() -> None:
    text = "gang: valley\r\npassword: x\r\nH LOO - NSS   \r\n\r\n-- \r\nTerry  \r\n"
    assert orders_text(text, [2]) == "gang: valley\n\nH LOO - NSS\n\n-- \nTerry\n"
    assert split_lines(orders_text(text, [2]))[2] == "H LOO - NSS"


# -- through the real order reader and acknowledgement ---------------------------------------


def test_real_reader_accepts_checks_and_acknowledges(tmp_path: Path) -> None:
    game = inbox_game(tmp_path)
    body = f"gang: Valley Gang\npassword: {VALLEY_PW}\nH LOO - NSS\nL KEN / H HYD\nH XXX - YYY\nsell 4\n-- \nTerry\n"
    result = run_inbox(game, maildir(tmp_path / "box", [order_mail(TERRY, body)]))
    assert result.exit_code == 0, result.output
    assert re.search(r"^accepted\s+valley\s+terry@valley\.example: 3 orders read, 1 rejected", result.output, re.M)
    saved = orders_file(game).read_text()
    assert VALLEY_PW not in saved and "H LOO - NSS" in saved
    [reply] = replies(game)
    text = reply_text(reply)
    assert "H LOO - NSS" in text and "XXX" in text
    assert VALLEY_PW not in text
    # what was saved reads back to the same orders
    from moonshine.variants.moonshine.checker import read_orders

    again = read_orders(saved, game.map, game.load_state(TURN), "valley")
    assert again.count("accepted") == 3 and again.rejected == 1


def test_real_reader_finds_password_under_other_spellings(tmp_path: Path) -> None:
    game = inbox_game(tmp_path)
    body = f"Gang: valley\nmot de passe: {VALLEY_PW}\nH LOO - NSS\n"
    result = run_inbox(game, eml_folder(tmp_path / "box", [order_mail(TERRY, body)]))
    assert re.search(r"^accepted\s+valley", result.output, re.M), result.output
    assert VALLEY_PW not in orders_file(game).read_text()


def test_real_reader_rejects_a_wrong_password(tmp_path: Path) -> None:
    game = inbox_game(tmp_path)
    body = "gang: valley\npassword: letmein\nH LOO - NSS\n"
    result = run_inbox(game, eml_folder(tmp_path / "box", [order_mail(TERRY, body)]))
    assert "wrong password for Valley Gang" in result.output
    assert not orders_file(game).exists()


# -- the library, with a fixed clock -----------------------------------------------------------


def test_process_uses_now_when_a_message_has_no_date(tmp_path: Path, fake_reader: None) -> None:
    game = inbox_game(tmp_path)
    raw = f"From: {TERRY}\nMessage-ID: <nodate@x>\n\n{VALLEY_ORDERS}".encode()
    early = datetime(2024, 2, 29, 12, 0, tzinfo=UTC)
    [outcome] = inbox.process(game, eml_folder(tmp_path / "a", [raw]), now=early)
    assert outcome.status == "accepted"
    raw2 = raw.replace(b"<nodate@x>", b"<nodate2@x>")
    late = datetime(2024, 3, 5, 12, 0, tzinfo=UTC)
    [outcome2] = inbox.process(game, eml_folder(tmp_path / "b", [raw2]), now=late)
    assert outcome2.status == "rejected" and outcome2.reason.startswith("late: received 2024-03-05 12:00 UTC")


def test_a_message_with_no_orders_withdraws_the_earlier_ones(tmp_path: Path, fake_reader: None) -> None:
    game, _ = _with_saved_orders(tmp_path)
    empty = order_mail(TERRY, f"gang: valley\npassword: {VALLEY_PW}\n", date="Thu, 29 Feb 2024 10:00:00 +0000")
    result = run_inbox(game, maildir(tmp_path / "box", [empty]))
    assert re.search(r"^accepted\s+valley.*0 orders read; replaces the orders received", result.output, re.M)
    assert orders_file(game).read_text() == "gang: valley\n"


def test_inbox_send_delivers_each_reply_once(tmp_path: Path, fake_reader: None, smtp: Server) -> None:
    game = inbox_game(tmp_path, smtp=smtp.smtp(**{"from": "Referee <ref@moonshine.example>"}))
    msgs = [order_mail(TERRY, VALLEY_ORDERS), order_mail("eve@evil.example", VALLEY_ORDERS)]
    result = run_inbox(game, maildir(tmp_path / "box", msgs), "--send")
    assert result.exit_code == 0, result.output
    got = sorted(sorted(r[1]) for r in smtp.recorder.received)
    assert got == [["eve@evil.example"], [FRANK, TERRY]]
    assert all(r[0] == "ref@moonshine.example" for r in smtp.recorder.received)
    again = run_inbox(game, maildir(tmp_path / "box", msgs), "--send")
    assert again.exit_code == 0, again.output
    assert "Nothing to send." in again.output
    assert len(smtp.recorder.received) == 2


# -- any message at all ------------------------------------------------------------------------

_FROMS = [
    TERRY,
    TERRY,
    TERRY,
    FRANK,
    AL,
    "eve@evil.example",
    f'"{TERRY}" <eve@evil.example>',
    "<<>>",
    "",
    "=?utf-8?q?=FF?= <x@y>",
]
_HEADERS = ["Subject", "Date", "Message-ID", "Content-Type", "Content-Transfer-Encoding", "Received"]
_BODY_LINES = ["gang: valley", "gang: outfit", "password: wrong-one", "H LOO - NSS", "turn: autumn-1924", "-- ", ">"]


@st.composite
def any_message(draw: st.DrawFn) -> bytes:
    head = [b"From: " + draw(st.sampled_from(_FROMS)).encode()]
    for _ in range(draw(st.integers(0, 5))):
        name = draw(st.sampled_from(_HEADERS)).encode()
        value = draw(st.one_of(st.binary(max_size=40), st.text(max_size=40).map(lambda t: t.encode("utf-8"))))
        head.append(name + b": " + value.replace(b"\r", b"").replace(b"\n", b" "))
    lines = draw(
        st.lists(st.sampled_from(_BODY_LINES) | st.sampled_from(_BODY_LINES) | st.text(max_size=30), max_size=8)
    )
    body = "\n".join(lines).encode("utf-8") + draw(st.binary(max_size=60))
    return b"\r\n".join(head) + b"\r\n\r\n" + body


def test_any_message_is_answered_without_crashing_and_never_changes_orders(tmp_path: Path) -> None:
    game, orders = _with_saved_orders(tmp_path)
    boxes = itertools.count()

    @settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(raw=any_message())
    def check(raw: bytes) -> None:
        folder = eml_folder(tmp_path / f"box{next(boxes)}", [raw])
        outcomes = inbox.process(game, folder)
        assert len(outcomes) == 1
        assert outcomes[0].status in ("rejected", "ignored", "duplicate"), outcomes[0]
        assert outcomes[0].reason
        _assert_orders_unchanged(game, orders)

    check()


# -- a French game: every reply in French ----------------------------------------------------

NOW = datetime(2024, 2, 29, 8, 0, tzinfo=UTC)  # 1 day 10 hours before the deadline
FR_DEADLINE = "Date limite : vendredi 1er mars 2024 à 18 h 00 UTC (il reste 1 jour et 10 heures)."
FR_SIGNATURE = "\n-- \nL'arbitre de Moonshine: Chicago, 1924\n"
ENGLISH_WORDS = ("NOT accepted", "Reason:", "Deadline:", "No order file", "The referee of", "received 2024")


def make_french_game(tmp_path: Path, **extra: Any) -> Game:
    game = inbox_game(tmp_path, **extra)
    save_config(game, replace(game.config, language="fr"))
    assert "language: fr" in game.config_path.read_text()
    return Game(game.root)


def french_replies(game: Game) -> dict[str, str]:
    """Each reply's text by the Message-ID it answers; none has a word of English."""
    out = {}
    for msg in replies(game):
        text = frtypo.checked(reply_text(msg))
        assert not [w for w in ENGLISH_WORDS if w in text], text
        assert text.endswith(FR_SIGNATURE)
        out[str(msg["In-Reply-To"])] = text
    return out


NOT_A_PLAYER = "Motif : eve@evil.example n'est l'adresse d'aucun joueur de cette partie."
FR_REASONS: dict[str, str] = {
    "unknown sender": NOT_A_PLAYER,
    "display name pretending to be a player": NOT_A_PLAYER,
    "spoofed sender, wrong password": "Motif : mot de passe incorrect pour Valley Gang.",
    "no password line": "Motif : aucune ligne « mot de passe: » (ou « password: »).",
    "another gang's name": (
        "Motif : al@outfit.example joue pour Chicago Outfit, pas pour Valley Gang : ces ordres nomment un autre gang."
    ),
    "late": (
        "Motif : hors délai : reçus le 2 mars 2024 à 9 h 00 UTC, après la date limite du 1er mars 2024 à 18 h 00 UTC."
    ),
    "late by the server's clock, whatever the Date line says": "Motif : hors délai : reçus le 2 mars 2024 à 9 h 00 UTC",
    "no gang line": "Motif : aucune ligne « gang: » : les ordres doivent dire de quel gang ils sont.",
    "unknown gang": "Motif : « gang: capone » ne désigne aucun gang de cette partie (gangs : outfit (Chicago Outfit), ",
    "another turn": "Motif : ces ordres sont pour l'automne 1924, mais le tour en cours est le printemps 1924.",
    "nothing readable": (
        "Motif : la seule ligne d'ordres n'a pas pu être lue ; les ordres précédents, s'il y en a, restent valables."
    ),
    "no password set for the gang": (
        "Motif : aucun mot de passe n'est défini pour Genna Crime Family : demandez-en un à l'arbitre."
    ),
}
FR_HELP: dict[str, str] = {
    "unknown sender": "Écrivez depuis l'adresse que l'arbitre a enregistrée pour votre gang, ou demandez-lui",
    "no password line": "comme ceci :\n\n    gang: valley\n    mot de passe: le mot de passe de votre gang\n",
    "no gang line": "Envoyez vos ordres dans un courriel en texte brut (ou une pièce jointe en texte brut)",
    "late": "Les ordres reçus hors délai ne sont pas utilisés ; vos ordres précédents, s'il y en a, restent valables.",
}


def test_every_english_rejection_has_its_french_reply() -> None:
    assert set(FR_REASONS) == set(REJECTIONS)


@pytest.mark.parametrize("case", sorted(REJECTIONS))
def test_rejections_in_a_french_game_are_answered_in_french(tmp_path: Path, fake_reader: None, case: str) -> None:
    game = make_french_game(tmp_path)
    before = snapshot(game)
    msg, reason, _ = REJECTIONS[case]
    [outcome] = inbox.process(game, eml_folder(tmp_path / "box", [msg]), now=NOW)
    assert outcome.status == "rejected" and reason in outcome.reason  # the game master's line stays English
    text = french_replies(game)[str(msg["Message-ID"])]
    assert "n'a PAS été accepté comme ordres pour le printemps 1924." in text
    if "is not a player's address" in outcome.reason:  # a stranger's subject is not echoed
        assert text.startswith("Votre message, reçu le ") and "« orders »" not in text
    else:
        assert text.startswith("Votre message « orders », reçu le ")
    assert FR_REASONS[case] in text
    assert "\n\nAucun fichier d'ordres n'a été modifié.\n\n" in text
    assert FR_DEADLINE in text
    if case in FR_HELP:
        assert FR_HELP[case] in text
    assert VALLEY_PW not in text
    changed = {k for k, v in snapshot(game).items() if before.get(k) != v}
    assert not [k for k in changed if k.endswith(".txt")], changed  # no order file


def test_accepted_orders_in_a_french_game(tmp_path: Path, fake_reader: None) -> None:
    game = make_french_game(tmp_path)
    msg = order_mail(TERRY, VALLEY_ORDERS, subject="Ordres de la Valley")
    [outcome] = inbox.process(game, eml_folder(tmp_path / "box", [msg]), now=NOW)
    assert outcome.status == "accepted" and outcome.reason == "3 orders read"
    text = french_replies(game)[str(msg["Message-ID"])]
    assert text.startswith(
        "Vos ordres pour le printemps 1924 ont été reçus le 28 février 2024 à 10 h 00 UTC "
        "(Valley Gang, envoyés par terry@valley.example) : 3 ordres lus.\n"
    )
    assert f"{FR_DEADLINE} Vous pouvez envoyer de nouveaux ordres d'ici là ; les derniers reçus comptent." in text
    assert "FAKE ACK for valley: 3 accepted, 0 rejected (courriel de terry@valley.example, reçu le 28 février" in text
    [reply] = replies(game)
    assert reply["Subject"] == "Re: Ordres de la Valley"


def test_a_replacement_and_a_superseded_message_in_a_french_game(tmp_path: Path, fake_reader: None) -> None:
    game = make_french_game(tmp_path)
    first = order_mail(TERRY, VALLEY_ORDERS, date="Tue, 27 Feb 2024 09:00:00 +0000")
    second = order_mail(FRANK, f"gang: valley\npassword: {VALLEY_PW}\nH LOO - BRO\nmarch north\n", date=BEFORE)
    inbox.process(game, eml_folder(tmp_path / "a", [first, second]), now=NOW)
    older = order_mail(FRANK, VALLEY_ORDERS, date="Mon, 26 Feb 2024 08:00:00 +0000")
    [late_found] = inbox.process(game, eml_folder(tmp_path / "b", [older]), now=NOW)
    assert late_found.status == "superseded"
    texts = french_replies(game)
    assert (
        "1 ordre lu, 1 ligne rejetée.\nIls remplacent les ordres reçus le 27 février 2024 à 9 h 00 UTC."
        in (texts[str(second["Message-ID"])])
    )
    assert texts[str(older["Message-ID"])].startswith(
        "Ces ordres de Valley Gang pour le printemps 1924, reçus le 26 février 2024 à 8 h 00 UTC, ne remplacent PAS "
        "ceux reçus plus tard, le 28 février 2024 à 10 h 00 UTC, qui restent valables. "
        "Ils sont seulement conservés dans l'historique.\n"
    )


def test_late_orders_taken_and_messages_without_subject_in_a_french_game(tmp_path: Path, fake_reader: None) -> None:
    game = make_french_game(tmp_path)
    late = order_mail(TERRY, VALLEY_ORDERS, subject="", date=AFTER)
    wrong = order_mail(FRANK, VALLEY_ORDERS.replace(VALLEY_PW, "guessed"), subject="")
    after = datetime(2024, 3, 2, 10, 0, tzinfo=UTC)
    inbox.process(game, eml_folder(tmp_path / "box", [late, wrong]), late_ok=True, now=after)
    texts = french_replies(game)
    assert (
        "Date limite : vendredi 1er mars 2024 à 18 h 00 UTC (dépassée depuis 16 heures). Elle est passée : plus aucun "
        in (texts[str(late["Message-ID"])])
    )
    assert texts[str(wrong["Message-ID"])].startswith(
        "Votre message sans objet, reçu le 28 février 2024 à 10 h 00 UTC, n'a PAS été accepté"
    )
    subjects = sorted(str(m["Subject"]) for m in replies(game))
    assert subjects == [
        # the gang's warning of the day, to each of its two addresses
        "[Moonshine: Chicago, 1924] Mots de passe erronés pour Valley Gang",
        "[Moonshine: Chicago, 1924] Mots de passe erronés pour Valley Gang",
        "[Moonshine: Chicago, 1924] printemps 1924\u00a0: ordres NON acceptés",
        "[Moonshine: Chicago, 1924] printemps 1924\u00a0: ordres reçus",
    ]


def test_oversize_malformed_and_unreadable_mail_in_a_french_game(
    tmp_path: Path, fake_reader: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = make_french_game(tmp_path)
    save_config(game, replace(game.config, extra={**game.config.extra, "inbox": {"max_message_bytes": 4096}}))
    big = order_mail(TERRY, VALLEY_ORDERS + "x" * 80 * 100)
    no_boundary = _BAD["multipart without boundary"]
    inbox.process(game, eml_folder(tmp_path / "a", [big, no_boundary]), now=NOW)
    texts = french_replies(game)
    assert (
        "plus que les 4 096 octets acceptés dans cette partie ; envoyez les ordres en texte brut, sans "
        in (texts[str(big["Message-ID"])])
    )
    assert re.search(r"Motif : le message fait \d \d{3} octets", texts[str(big["Message-ID"])])
    assert (
        "Motif : aucun texte trouvé : les ordres doivent être dans le texte du message ou dans une pièce jointe "
        "en texte brut.\n\nAucun fichier d'ordres n'a été modifié.\n\nEnvoyez vos ordres"
    ) in texts["<nb@x>"]

    class Failing(BytesParser):
        def parsebytes(self, text: bytes, headersonly: bool = False) -> Any:
            if not headersonly:
                raise ValueError("no")
            return super().parsebytes(text, headersonly)

    monkeypatch.setattr(reading, "BytesParser", Failing)
    odd = order_mail(TERRY, VALLEY_ORDERS, msgid="<odd@valley.example>")
    inbox.process(game, eml_folder(tmp_path / "b", [odd]), now=NOW)
    assert (
        "Motif : le message n'a pas pu être lu (ValueError) ; envoyez les ordres en texte brut."
        in (french_replies(game)["<odd@valley.example>"])
    )


def test_a_defect_in_one_message_is_answered_in_french(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = make_french_game(tmp_path)

    def broken(*args: Any, **kwargs: Any) -> OrderCheck:
        raise RuntimeError("boom")

    monkeypatch.setattr(accept, "check_orders", broken)
    msg = order_mail(TERRY, VALLEY_ORDERS)
    [outcome] = inbox.process(game, eml_folder(tmp_path / "box", [msg]), now=NOW)
    assert outcome.reason == "the message could not be processed (RuntimeError: boom)"
    text = french_replies(game)[str(msg["Message-ID"])]
    assert "Motif : le message n'a pas pu être traité (RuntimeError: boom)." in text
    assert "L'arbitre a été prévenu ; vos ordres n'ont pas été enregistrés." in text


def test_real_reader_acknowledges_french_orders_in_french(tmp_path: Path) -> None:
    game = make_french_game(tmp_path)
    body = f"bande : Valley Gang\nmot de passe : {VALLEY_PW}\nH LOO avance vers NSS\nL KEN tient\nvendre 4\n"
    [outcome] = inbox.process(game, eml_folder(tmp_path / "box", [order_mail(TERRY, body)]), now=NOW)
    assert outcome.status == "accepted", outcome
    text = french_replies(game)[outcome.message_id]
    assert "3 ordres lus.\n" in text
    assert "ORDRES TELS QUE COMPRIS" in text  # the acknowledgement, in the game's language
    assert "Fichier : courriel de terry@valley.example, reçu le 28 février 2024 à 10 h 00 UTC" in text
    assert VALLEY_PW not in text


def test_a_killed_runs_history_file_is_written_again_in_place(tmp_path: Path) -> None:
    """A run killed after it kept a message's orders in the history, before its log
    recorded the message: the next run reads the message again and writes the same
    history file, not a second one."""
    game = inbox_game(tmp_path)
    msg = order_mail(TERRY, VALLEY_ORDERS, msgid="<killed@valley.example>")
    history = game.orders_dir(TURN) / "history"
    history.mkdir(parents=True)
    orphan = history / "valley-1.txt"
    orphan.write_text("# received: 2024-02-28T10:00:00+00:00\n# message-id: <killed@valley.example>\nH LOO - NSS\n")
    recorded = history / "valley-2.txt"  # a file of a message the log did record stays as it is
    recorded.write_text("# message-id: <other@valley.example>\nL KEN hold\n")
    log = game.orders_dir(TURN) / "inbox.yaml"
    assert not log.exists()
    result = run_inbox(game, eml_folder(tmp_path / "box", [msg]))
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in history.iterdir()) == ["valley-1.txt", "valley-2.txt"]
    assert "H LOO - NSS" in orphan.read_text(encoding="utf-8") and "# from: " in orphan.read_text(encoding="utf-8")
    assert recorded.read_text(encoding="utf-8") == "# message-id: <other@valley.example>\nL KEN hold\n"


_pieces = ["a", "Z", " ", ": ", "#", "- ", "'", '"', "\n", "é", "—", "😀", "x" * 30, "yes", "null", "1.5"]
_texts = st.lists(st.sampled_from(_pieces), max_size=12).map("".join)  # long lines fold at 100 columns
_submission = st.fixed_dictionaries(
    {
        "message_id": _texts,
        "digest": st.sampled_from(["", "ab" * 32]),
        "checked": st.booleans(),
        "from": _texts,
        "gang": st.one_of(st.none(), st.sampled_from(["valley", "outfit"])),
        "received": st.one_of(st.none(), st.just("2024-02-27T08:00:00+00:00")),
        "outcome": st.sampled_from(["accepted", "rejected", "ignored"]),
        "reason": _texts,
        "reply": st.one_of(st.none(), _texts),
    }
)


_gangs = st.sampled_from(["valley", "outfit", "genna"])


@settings(max_examples=60, deadline=None)
@given(st.lists(_submission, max_size=6), st.dictionaries(_gangs, st.fixed_dictionaries({"from": _texts}), max_size=3))
def test_the_log_written_a_submission_at_a_time_is_the_whole_mappings_yaml(
    submissions: list[dict[str, Any]], current: dict[str, dict[str, Any]]
) -> None:
    from moonshine.yamlio import dump

    log = turnlog.TurnLog(submissions, current)
    whole = {"current": {g: current[g] for g in sorted(current)}, "submissions": submissions}
    assert turnlog.log_text(log) == turnlog.LOG_HEAD + dump(whole)
