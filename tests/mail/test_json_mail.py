"""Orders as JSON by mail (issue 41, docs/orders-json.md): the inbox reads a JSON
attachment (``application/json``, or a file named ``*.json``) or a mail whose own text
is a JSON document, makes it into the text of the same orders and goes on as for text
orders: the same reply and acknowledgement, line for line, the same receipt; the
password from the document or from the mail's own ``password:`` line; a document that
does not fit answered with every problem, in the reader's language. Then the same on
real servers (pymap and aiosmtpd on 127.0.0.1): a game of its own (``moonshine run``) of
either family, and a judge for many games, which finds the game from the document's
``game``. The cost of a hostile document is bounded in tests/project/test_reader_cost.py."""

from __future__ import annotations

import json
import re
from datetime import datetime, timedelta
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path
from typing import Any

import pytest
from frtypo import checked
from imapkit import Server
from inboxkit import TERRY, TURN, VALLEY_PW, eml_folder, inbox_game, order_mail, replies, reply_text
from msgspec.structs import replace
from smtpkit import Server as SmtpServer

from moonshine.game.directory import Game, save_config
from moonshine.mail import inbox
from moonshine.mail.intake import JSON_ATTACHMENT, JSON_TEXT, json_documents
from moonshine.render import receipts

RECEIPT = re.compile(r"[0-9a-f]{4}(?:-[0-9a-f]{4}){4}")
ORDERS = [
    {"type": "move", "unit": "H LOO", "to": "NSS"},
    {"type": "hold", "unit": "L KEN"},
    {"type": "sell", "crates": 4},
]
TYPED = ["H LOO - NSS", "L KEN hold", "sell 4"]


def document(game: str = "g", side: str = "valley", orders: list[Any] | None = None, **more: Any) -> dict[str, Any]:
    return {
        "format": "moonshine-orders",
        "version": 1,
        "family": "moonshine",
        "game": game,
        "side": side,
        "turn": TURN,
        "orders": ORDERS if orders is None else orders,
        **more,
    }


def with_json(
    body: str,
    doc: Any,
    *,
    sender: str = TERRY,
    maintype: str = "application",
    subtype: str = "json",
    filename: str | None = "orders.json",
    msgid: str = "<json-1@player.example>",
) -> EmailMessage:
    msg = order_mail(sender, body, msgid=msgid)
    data = doc if isinstance(doc, bytes) else json.dumps(doc, indent=1).encode("utf-8")
    msg.add_attachment(data, maintype=maintype, subtype=subtype, filename=filename)
    return msg


def one_reply(game: Game) -> str:
    [msg] = replies(game)
    return reply_text(msg)


def test_a_json_attachment_is_acknowledged_as_the_same_orders_typed(tmp_path: Path) -> None:
    typed = inbox_game(tmp_path / "typed")
    sent = inbox_game(tmp_path / "json")
    text = f"gang: valley\nturn: {TURN}\npassword: {VALLEY_PW}\n" + "".join(f"{line}\n" for line in TYPED)
    inbox.process(typed, eml_folder(tmp_path / "a", [order_mail(TERRY, text, msgid="<json-1@player.example>")]))
    mail = with_json(f"password: {VALLEY_PW}\n", document(game="G"))  # the game's directory's name, any case
    [outcome] = inbox.process(sent, eml_folder(tmp_path / "b", [mail]))
    assert outcome.status == "accepted", outcome.reason
    # the same orders file, the same reply line for line, the same receipt
    saved = (sent.orders_dir(TURN) / "valley.txt").read_text(encoding="utf-8")
    assert saved == (typed.orders_dir(TURN) / "valley.txt").read_text(encoding="utf-8")
    assert one_reply(sent) == one_reply(typed)
    receipt = RECEIPT.findall(one_reply(sent))
    salt = receipts.salt(sent.secret(), TURN, "valley")
    assert receipt == [receipts.receipt(salt, TYPED)]
    history = next((sent.orders_dir(TURN) / "history").glob("valley-*.txt")).read_text(encoding="utf-8")
    assert f"# read from: {JSON_ATTACHMENT}" in history


def test_the_password_may_be_in_the_document_and_is_written_nowhere(tmp_path: Path) -> None:
    game = inbox_game(tmp_path)
    secret = "json-only-password-x7"
    from moonshine.mail.passwords import hash_password

    players = dict(game.config.players)
    players["valley"] = replace(players["valley"], password=hash_password(secret))
    save_config(game, replace(game.config, players=players))
    game = Game(game.root)
    mail = order_mail(TERRY, json.dumps(document(password=secret)), subject=f"orders password: {secret}")
    [outcome] = inbox.process(game, eml_folder(tmp_path / "m", [mail]))
    assert outcome.status == "accepted", outcome.reason
    assert "H LOO - NSS" in one_reply(game)
    for path in game.root.rglob("*"):
        if path.is_file():
            assert secret.encode() not in path.read_bytes(), path


def test_a_mail_whose_text_is_a_json_document(tmp_path: Path) -> None:
    game = inbox_game(tmp_path)
    body = json.dumps(document(password=VALLEY_PW), indent=2) + "\n-- \nTerry, sent from a script\n"
    [outcome] = inbox.process(game, eml_folder(tmp_path / "m", [order_mail(TERRY, body)]))
    assert outcome.status == "accepted", outcome.reason
    history = next((game.orders_dir(TURN) / "history").glob("valley-*.txt")).read_text(encoding="utf-8")
    assert f"# read from: {JSON_TEXT}" in history


@pytest.mark.parametrize(
    ("maintype", "subtype", "filename"),
    [("application", "octet-stream", "valley.JSON"), ("text", "plain", "orders.json"), ("application", "json", None)],
)
def test_a_json_part_is_known_by_its_type_or_its_name(
    tmp_path: Path, maintype: str, subtype: str, filename: str
) -> None:
    game = inbox_game(tmp_path)
    doc = json.dumps(document()).encode("utf-8")
    if maintype == "text":
        msg = order_mail(TERRY, f"password: {VALLEY_PW}\n")
        msg.add_attachment(doc.decode("utf-8"), subtype="plain", filename=filename)
    else:
        msg = with_json(f"password: {VALLEY_PW}\n", doc, maintype=maintype, subtype=subtype, filename=filename)
    [outcome] = inbox.process(game, eml_folder(tmp_path / "m", [msg]))
    assert outcome.status == "accepted", outcome.reason


def test_the_mail_text_beside_a_document_is_not_read_and_the_reply_says_so(tmp_path: Path) -> None:
    game = inbox_game(tmp_path)
    body = f"Hello judge,\npassword: {VALLEY_PW}\nL KEN - HYD\nstatus\n"
    [outcome] = inbox.process(game, eml_folder(tmp_path / "m", [with_json(body, document())]))
    assert outcome.status == "accepted"
    reply = one_reply(game)
    assert "read only for its password line" in reply
    assert "L KEN hold" in reply and "KEN - HYD" not in reply and "The game as it stands" not in reply


def test_a_document_that_does_not_fit_is_answered_with_its_problems(tmp_path: Path) -> None:
    game = inbox_game(tmp_path)
    before = sorted(p.name for p in game.orders_dir(TURN).glob("*.txt")) if game.orders_dir(TURN).is_dir() else []
    bad = document(orders=[{"type": "mvoe", "unit": "H LOO", "to": "NSS"}, {"type": "hold", "unit": "H loo"}])
    [outcome] = inbox.process(game, eml_folder(tmp_path / "m", [with_json(f"password: {VALLEY_PW}\n", bad)]))
    assert outcome.status == "rejected"
    reply = one_reply(game)
    assert "do not fit the format of orders as JSON: 2 problems" in reply
    assert '/orders/0/type: unknown type of order "mvoe" (did you mean move?)' in reply
    assert '/orders/1/unit: expected a unit such as H LOO (found "H loo")' in reply
    assert sorted(p.name for p in game.orders_dir(TURN).glob("*.txt")) == before


def test_a_french_player_reads_the_problems_in_french(tmp_path: Path) -> None:
    game = inbox_game(tmp_path, language="fr")
    [outcome] = inbox.process(game, eml_folder(tmp_path / "m", [with_json(f"password: {VALLEY_PW}\n", b'{"a": 1,}')]))
    assert outcome.status == "rejected"
    reply = checked(one_reply(game))
    assert "ne suivent pas le format des ordres en JSON : 1 problème" in reply
    assert "le document : ce n'est pas du JSON" in reply


def test_a_report_forwarded_with_its_results_attached_is_read_for_its_typed_orders(tmp_path: Path) -> None:
    """Every report mail attaches the turn's results as JSON (``moonshine.game.results_json``);
    a player who forwards it with their orders typed above gets those orders read."""
    game = inbox_game(tmp_path)
    results = {
        "format": "moonshine-results",
        "version": 1,
        "game": game.config.title,
        "variant": game.config.variant,
        "turn": "winter-1923",
        "public": {"orders": []},
        "private": {"orders": ["H LOO hold"]},
    }
    attached = (json.dumps(results, sort_keys=True, ensure_ascii=False, indent=1) + "\n").encode("utf-8")
    text = f"gang: valley\npassword: {VALLEY_PW}\n" + "".join(f"{line}\n" for line in TYPED)
    mail = with_json(
        text + "\n---------- Forwarded message ---------\n", attached, filename="moonshine-winter-1923-valley.json"
    )
    [outcome] = inbox.process(game, eml_folder(tmp_path / "m", [mail]))
    assert outcome.status == "accepted", outcome.reason
    assert "H LOO - NSS" in (game.orders_dir(TURN) / "valley.txt").read_text(encoding="utf-8")
    assert "read only for its password line" not in one_reply(game)


def test_a_stranger_sending_json_is_told_the_address_plays_no_side(tmp_path: Path) -> None:
    game = inbox_game(tmp_path)
    [outcome] = inbox.process(
        game, eml_folder(tmp_path / "m", [with_json("", document(), sender="x@elsewhere.example")])
    )
    assert outcome.status == "rejected" and "not a player's address" in outcome.reason


def test_documents_are_found_within_bounds() -> None:
    msg = order_mail(TERRY, "{\n" + " " * 20_000 + '"a": 1}\n')
    for i in range(200):
        msg.add_attachment(b"{}", maintype="application", subtype="json", filename=f"{i}.json")
    from email import policy
    from email.parser import BytesParser

    from moonshine.mail import intake

    parsed = BytesParser(policy=policy.default).parsebytes(msg.as_bytes())
    found = json_documents(parsed, intake.texts(parsed))
    assert [where for where, _ in found] == [JSON_ATTACHMENT, JSON_TEXT]  # the first parts only; duplicates once
    assert found[1][1].startswith(b"{\n" + b" " * 20_000)  # a long line is kept whole


# -- on real servers ---------------------------------------------------------------------------


def json_letter(sender: str, judge: str, body: str, doc: Any, at: datetime, subject: str) -> EmailMessage:
    """A player's mail with orders as a JSON attachment, received by the judge's server at ``at``."""
    msg = plain_letter(sender, judge, body, at, subject)
    msg.add_attachment(json.dumps(doc).encode(), maintype="application", subtype="json", filename="orders.json")
    return msg


def plain_letter(sender: str, judge: str, body: str, at: datetime, subject: str) -> EmailMessage:
    msg = EmailMessage()
    msg["Received"] = f"from mx.players.example.org by mail.example.org; {format_datetime(at)}"
    msg["From"] = sender
    msg["To"] = judge
    msg["Subject"] = subject
    msg["Date"] = format_datetime(at)
    msg["Message-ID"] = f"<json-{at.timestamp():.0f}@players.example.org>"
    msg.set_content(body)
    return msg


def test_json_orders_by_mail_to_a_game_running_itself(tmp_path: Path, imap: Server, smtp: SmtpServer) -> None:
    from imapkit import post
    from runkit import JUDGE, address, password, plain, run_here, to
    from runkit import unattended_game as running_game

    from moonshine.mail.inbox.turnlog import parse_time

    start = parse_time("2026-11-30T08:00:00+00:00")
    assert start is not None
    schedule = {"timezone": "Europe/Paris", "every": "48h", "reminders": []}
    game = running_game(tmp_path / "g", imap, smtp.smtp(), players={"valley": None}, schedule=schedule, folder="json")
    post(imap, "json")
    run_here(game, start)
    t = start + timedelta(hours=1)
    typed = f"gang: Valley Gang\nturn: {TURN}\npassword: {password('valley')}\n" + "".join(f"{x}\n" for x in TYPED)
    post(imap, "json", plain_letter(address("valley"), JUDGE, typed, t, "orders typed").as_bytes())
    run_here(game, t + timedelta(minutes=1))
    later = t + timedelta(hours=1)
    doc = document(game=game.config.title, side="Valley Gang")
    msg = json_letter(address("valley"), JUDGE, f"password: {password('valley')}\n", doc, later, "orders as JSON")
    post(imap, "json", msg.as_bytes())
    run_here(game, later + timedelta(minutes=1))
    [by_text] = to(smtp.recorder, address("valley"), "Re: orders typed")
    [by_json] = to(smtp.recorder, address("valley"), "Re: orders as JSON")
    text_ack, json_ack = plain(by_text), plain(by_json)
    assert "3 order" in json_ack and "They replace the orders received" in json_ack

    def acknowledgement(reply: str) -> str:  # from its title on, but the line naming the mail (its time)
        ack = reply[reply.index("Moonshine: orders for") :]
        return re.sub(r"^File: .*$", "", ack, flags=re.M)

    assert acknowledgement(json_ack) == acknowledgement(text_ack)
    receipt = RECEIPT.findall(json_ack)
    assert receipt and receipt == RECEIPT.findall(text_ack)
    # the deadline passes: the report lists the orders and the receipt acknowledged
    due = parse_time(str(game.config.extra["deadlines"][TURN])) if "deadlines" in game.config.extra else None
    due = due or parse_time(str(Game(game.root).config.extra["deadlines"][TURN]))
    assert due is not None
    run_here(game, due + timedelta(minutes=1))
    [report] = to(smtp.recorder, address("valley"), "private report")
    assert receipt[0] in plain(report)
    assert "H LOO - NSS" in plain(report)


def test_json_orders_by_mail_to_a_judge_for_many_games(tmp_path: Path, imap: Server, smtp: SmtpServer) -> None:
    from imapkit import post
    from judgekit import JUDGE, START, Judge, addr, one
    from runkit import plain

    j = Judge(tmp_path / "judge", imap, smtp)
    t = START
    for n in (0, 1, 2):
        j.send(addr(n), f"register Player {n}\n", t)
    j.run(t + timedelta(minutes=1))
    for r, m in j.new_mail():
        found = re.search(r"for all your games: (\S+)", plain(m))
        if found:
            j.passwords[r[0]] = found.group(1)
    pw = {n: f"password: {j.passwords[addr(n)]}\n" for n in (0, 1, 2)}
    t += timedelta(hours=1)
    j.send(addr(0), pw[0] + "create gamma moonshine\nevery: 72h\nend\ncreate delta moonshine\nevery: 72h\n", t)
    j.run(t + timedelta(minutes=1))
    for game in ("gamma", "delta"):
        j.send(addr(1), pw[1] + f"join {game} valley\n", t + timedelta(minutes=5))
        j.send(addr(2), pw[2] + f"join {game} outfit\n", t + timedelta(minutes=5))
    j.run(t + timedelta(minutes=6))
    j.send(addr(0), pw[0] + "start gamma\nstart delta\n", t + timedelta(minutes=10))
    j.run(t + timedelta(minutes=11))
    j.new_mail()
    # player 1 plays in both games: the document's game finds delta, with no game: line nor [delta]
    t += timedelta(hours=1)
    msg = json_letter(addr(1), JUDGE, pw[1], document(game="Delta"), t, "my orders")
    post(imap, "judge", msg.as_bytes())
    # player 2's document names a game the judge has not: the reply says so
    lost = json_letter(addr(2), JUDGE, pw[2], document(game="Omega", side="outfit"), t + timedelta(seconds=30), "mine")
    post(imap, "judge", lost.as_bytes())
    j.run(t + timedelta(minutes=1))
    mail = j.new_mail()
    assert "No game 'Omega'" in one(mail, addr(2), "Your mail")
    ack = one(mail, addr(1), "Re: my orders")
    assert "Orders for Valley Gang" in ack and "3 order" in ack
    assert (j.root / "games" / "delta" / "orders" / TURN / "valley.txt").is_file()
    assert not (j.root / "games" / "gamma" / "orders" / TURN / "valley.txt").is_file()
    receipt = RECEIPT.findall(ack)
    salt = receipts.salt(Game(j.root / "games" / "delta").secret(), TURN, "valley")
    assert receipt == [receipts.receipt(salt, TYPED)]


CLASSIC_TYPED = ["A PAR - BUR", "A MAR S A PAR - BUR", "F BRE - MAO"]
CLASSIC_ORDERS = [
    {"type": "move", "unit": "A PAR", "to": "BUR"},
    {"type": "support", "unit": "A MAR", "target": "A PAR", "to": "BUR"},
    {"type": "move", "unit": "F BRE", "to": "MAO"},
]


def test_json_orders_by_mail_to_a_classic_game(tmp_path: Path, imap: Server, smtp: SmtpServer) -> None:
    """The other family: a power's orders as JSON, mailed as the mail's whole text, get
    the acknowledgement the same orders typed get, and are the orders adjudicated."""
    from imapkit import post
    from runkit import JUDGE, address, password, plain, run_here, to
    from runkit import unattended_game as running_game

    from moonshine.mail.inbox.turnlog import parse_time

    start = parse_time("2026-11-30T08:00:00+00:00")
    assert start is not None
    schedule = {"timezone": "UTC", "every": "48h", "reminders": []}
    game = running_game(
        tmp_path / "c", imap, smtp.smtp(), variant="classic", players={"FRA": None}, schedule=schedule, folder="jsonc"
    )
    post(imap, "jsonc")
    run_here(game, start)
    t = start + timedelta(hours=1)
    turn = "spring-1901"
    typed = f"power: France\nturn: {turn}\npassword: {password('FRA')}\n" + "".join(f"{x}\n" for x in CLASSIC_TYPED)
    post(imap, "jsonc", plain_letter(address("FRA"), JUDGE, typed, t, "orders typed").as_bytes())
    run_here(game, t + timedelta(minutes=1))
    later = t + timedelta(hours=1)
    doc = {
        "format": "moonshine-orders",
        "version": 1,
        "family": "classic",
        "game": game.root.name,
        "side": "France",
        "turn": turn,
        "password": password("FRA"),
        "orders": CLASSIC_ORDERS,
    }
    body = json.dumps(doc, indent=2) + "\n"
    post(imap, "jsonc", plain_letter(address("FRA"), JUDGE, body, later, "orders as JSON").as_bytes())
    run_here(game, later + timedelta(minutes=1))
    [by_text] = to(smtp.recorder, address("FRA"), "Re: orders typed")
    [by_json] = to(smtp.recorder, address("FRA"), "Re: orders as JSON")
    text_ack, json_ack = plain(by_text), plain(by_json)
    assert "3 orders read" in json_ack and "They replace the orders received" in json_ack

    def acknowledgement(reply: str) -> str:  # from its title on, but the line naming the mail (its time)
        ack = reply[reply.index("Diplomacy: orders of France") :]
        return re.sub(r"^File: .*$", "", ack, flags=re.M)

    assert acknowledgement(json_ack) == acknowledgement(text_ack)
    assert "3 order lines: 3 accepted, 0 rejected" in json_ack
    # the deadline passes: the orders adjudicated are the document's
    due = parse_time(str(Game(game.root).config.extra["deadlines"][turn]))
    assert due is not None
    run_here(game, due + timedelta(minutes=1))
    [report] = to(smtp.recorder, address("FRA"), "private report")
    assert re.search(r"A PAR - BUR +succeeded +moved to BUR with A MAR's\s+support", plain(report)), plain(report)
