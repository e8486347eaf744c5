"""One game's mail at its open edge (issue 39): a game of its own on real servers
(pymap, aiosmtpd) keeps its owner's orders behind forged guesses at the deadline and
answers a third party's address within the day's budget; the mail the trusted server
vouches for is read first; and the behaviours of the mail layer no test held before
(each seen by a deliberate bug that passed the suite, ``scripts/mutants.py``): an
Authentication-Results domain that only ends like the sender's, ``Auto-Submitted: no``
on a player's own mail, the time of receipt from the judge's own (top) ``Received:``
line on either side of the deadline, the guess throttle for an address that plays two
gangs, a deferred delivery retried for each recipient of one message at its own time,
and turn names written with blanks or capitals."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path

import pytest
import yaml
from imapkit import Server, post
from inboxkit import TERRY, VALLEY_ORDERS, VALLEY_PW, inbox_game, maildir, order_mail
from runkit import JUDGE, address, password, plain, run_here, to, unattended_game
from smtpkit import Server as SmtpServer

from moonshine.game.directory import Game, Player, save_config
from moonshine.mail import inbox

START = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)
MIN = timedelta(minutes=1)
SCHEDULE = {"timezone": "UTC", "every": "48h"}
MX = "mx.moonshine.example"


def forged(side: str, body: str, at: datetime, n: int, *, sender: str | None = None, **headers: str) -> bytes:
    """A mail naming ``side`` with a password that is not its own, received at ``at``."""
    msg = EmailMessage()
    for name, value in headers.items():
        msg[name.replace("_", "-")] = value
    msg["Received"] = f"from mx.players.example.org by mail.moonshine.example.org; {format_datetime(at)}"
    msg["From"] = sender or address(side)
    msg["To"] = JUDGE
    msg["Subject"] = "orders"
    msg["Date"] = format_datetime(at)
    msg["Message-ID"] = f"<forged-{side}-{n}-{at.timestamp():.0f}@elsewhere.example>"
    msg.set_content(f"gang: {side}\npassword: guess-{n:04d}-words\n{body}")
    return msg.as_bytes()


def owners(side: str, body: str, at: datetime, msgid: str, **headers: str) -> bytes:
    msg = EmailMessage()
    for name, value in headers.items():
        msg[name.replace("_", "-")] = value
    msg["Received"] = f"from mx.players.example.org by mail.moonshine.example.org; {format_datetime(at)}"
    msg["From"] = address(side)
    msg["To"] = JUDGE
    msg["Subject"] = "orders"
    msg["Date"] = format_datetime(at)
    msg["Message-ID"] = msgid
    msg.set_content(f"gang: {side}\npassword: {password(side)}\n{body}")
    return msg.as_bytes()


def due_of(game: Game) -> datetime:
    raw = yaml.safe_load((game.root / "game.yaml").read_text(encoding="utf-8"))
    return datetime.fromisoformat(str(raw["deadlines"]["spring-1924"]))


# -- a game of its own, on real servers --------------------------------------------------------------------


def test_a_game_of_its_own_adjudicates_the_owners_orders_sent_behind_forged_guesses(
    tmp_path: Path, imap: Server, smtp: SmtpServer
) -> None:
    game = unattended_game(
        tmp_path / "g", imap, smtp.smtp(), players={"valley": None}, schedule=SCHEDULE, folder="own1"
    )
    post(imap, "own1")
    run_here(game, START)
    due = due_of(game)
    raws = [forged("valley", "H LOO hold\n", due - timedelta(minutes=10) + i * MIN, i) for i in range(3)]
    raws.append(owners("valley", "H LOO - NSS\n", due - timedelta(minutes=2), "<owner-1@players.example.org>"))
    post(imap, "own1", *raws)
    out = run_here(game, due + MIN)
    assert "held unread for the next pass" in out and "adjudication of spring-1924 waits" in out
    out = run_here(game, due + 2 * MIN)
    assert "adjudicated spring-1924" in out
    results = (game.root / "turns" / "spring-1924" / "results.yaml").read_text(encoding="utf-8")
    assert "H LOO - NSS" in results
    warnings = to(smtp.recorder, address("valley"), "Wrong passwords")
    assert len(warnings) == 1 and "refused 4 messages" in plain(warnings[0])


def test_a_third_partys_address_gets_ten_replies_a_day_from_a_game_of_its_own(
    tmp_path: Path, imap: Server, smtp: SmtpServer
) -> None:
    game = unattended_game(
        tmp_path / "g", imap, smtp.smtp(), players={"valley": None}, schedule=SCHEDULE, folder="own2"
    )
    post(imap, "own2")
    run_here(game, START)
    victim = "victim@elsewhere.example"
    t = START + timedelta(hours=1)
    post(imap, "own2", *(forged("valley", "H LOO hold\n", t, i, sender=victim) for i in range(15)))
    run_here(game, t + MIN)
    post(
        imap,
        "own2",
        *(forged("valley", "H LOO hold\n", t + timedelta(hours=1), 20 + i, sender=victim) for i in range(5)),
    )
    run_here(game, t + timedelta(hours=1, minutes=1))
    assert len(to(smtp.recorder, victim)) == 10
    # the next day, the budget is new
    post(imap, "own2", forged("valley", "H LOO hold\n", t + timedelta(days=1), 99, sender=victim))
    run_here(game, t + timedelta(days=1, minutes=1))
    assert len(to(smtp.recorder, victim)) == 11


def test_the_mail_the_trusted_server_vouches_for_is_read_before_forged_guesses(
    tmp_path: Path, imap: Server, smtp: SmtpServer
) -> None:
    game = unattended_game(
        tmp_path / "g", imap, smtp.smtp(), players={"valley": None}, schedule=SCHEDULE, folder="own3"
    )
    raw = yaml.safe_load((game.root / "game.yaml").read_text(encoding="utf-8"))
    raw["inbox"]["authserv_id"] = MX
    (game.root / "game.yaml").write_text(yaml.safe_dump(raw), encoding="utf-8")
    post(imap, "own3")
    run_here(game, START)
    t = START + timedelta(hours=1)
    guesses = [forged("valley", "H LOO hold\n", t + i * MIN, i) for i in range(20)]  # no verdict: DMARC none
    vouched = owners(
        "valley",
        "H LOO - NSS\n",
        t + 30 * MIN,
        "<owner-3@players.example.org>",
        Authentication_Results=f"{MX}; spf=pass smtp.mailfrom=players.example.org; "
        "dkim=pass header.d=players.example.org; dmarc=pass header.from=players.example.org",
    )
    post(imap, "own3", *guesses, vouched)
    out = run_here(game, t + 31 * MIN)
    assert "H LOO - NSS" in (game.root / "orders" / "spring-1924" / "valley.txt").read_text(encoding="utf-8")
    assert out.count("held unread for the next pass") == 17


# -- what the mail layer does that no test held -----------------------------------------------------------


@pytest.mark.parametrize(
    ("header", "verdict"),
    [
        (f"{MX}; dmarc=fail header.from=ample.org", None),  # ends like example.org: not its domain
        (f"{MX}; dmarc=fail header.from=example.org", "dmarc=fail"),
        (f"{MX}; dmarc=fail header.from=mail.example.org", "dmarc=fail"),  # a subdomain is the same sender
        (f"{MX}; dkim=fail header.d=ample.org", None),
        (f"{MX}; spf=fail smtp.mailfrom=ample.org", None),
    ],
)
def test_an_authentication_result_of_a_domain_that_only_ends_like_the_senders_is_not_its(
    header: str, verdict: str | None
) -> None:
    from moonshine.mail.envelope import authenticated, forged_verdict

    msg = EmailMessage()
    msg["Authentication-Results"] = header
    msg["From"] = "terry@example.org"
    assert forged_verdict(msg, "terry@example.org", MX) == verdict
    passing = EmailMessage()
    passing["Authentication-Results"] = header.replace("=fail", "=pass")
    assert authenticated(passing, "terry@example.org", MX) is (verdict is not None)


def test_auto_submitted_no_on_a_players_own_mail_is_answered(tmp_path: Path) -> None:
    game = inbox_game(tmp_path)
    mail = order_mail(TERRY, VALLEY_ORDERS)
    mail["Auto-Submitted"] = "no"  # what RFC 3834 says a person's mail may carry
    [o] = inbox.process(game, maildir(tmp_path / "box", [mail]), now=datetime(2024, 2, 28, 12, tzinfo=UTC))
    assert o.status == "accepted" and o.reply is not None
    auto = order_mail(TERRY, VALLEY_ORDERS.replace("sell 4", "sell 3"))
    auto["Auto-Submitted"] = "auto-replied"
    [o] = inbox.process(game, maildir(tmp_path / "box2", [auto]), now=datetime(2024, 2, 28, 12, tzinfo=UTC))
    assert o.status == "ignored"


@pytest.mark.parametrize(
    ("top", "below", "status"),
    [
        ("Fri, 01 Mar 2024 17:59:00 +0000", "Fri, 01 Mar 2024 18:30:00 +0000", "accepted"),
        ("Fri, 01 Mar 2024 18:01:00 +0000", "Fri, 01 Mar 2024 17:30:00 +0000", "rejected"),
    ],
)
def test_the_time_of_receipt_is_the_judges_own_received_line(tmp_path: Path, top: str, below: str, status: str) -> None:
    """The deadline is 18:00 UTC; the topmost Received: line is the judge's own
    server's, the lines below it came with the message (a sender writes what they
    like there), and the Date: line is the sender's too."""
    game = inbox_game(tmp_path)
    msg = order_mail(TERRY, VALLEY_ORDERS, date=below)
    del msg["Received"]
    msg["Received"] = f"from mx.example by mail.moonshine.example; {top}"
    msg["Received"] = f"from laptop by mx.example; {below}"
    [o] = inbox.process(game, maildir(tmp_path / "box", [msg]), now=datetime(2024, 3, 1, 19, tzinfo=UTC))
    assert o.status == status, o
    assert o.refusal == ("late" if status == "rejected" else None)


def test_an_address_that_plays_two_gangs_has_three_guesses_a_pass_in_all(tmp_path: Path) -> None:
    from msgspec.structs import replace

    from moonshine.mail.passwords import hash_password

    game = inbox_game(tmp_path)
    cfg = game.config
    players = dict(cfg.players)
    players["outfit"] = Player(name="outfit", email=[TERRY], password=hash_password("tommy-gun-and-violin"))
    save_config(game, replace(cfg, players=players))
    game = Game(game.root)
    when = "Wed, 28 Feb 2024 09:0{}:00 +0000"
    valley = [
        order_mail(TERRY, VALLEY_ORDERS.replace(VALLEY_PW, f"wrong-{i}-pass"), date=when.format(i)) for i in range(3)
    ]
    outfit = order_mail(
        TERRY, "gang: outfit\npassword: tommy-gun-and-violin\nH LIN hold\n", date="Wed, 28 Feb 2024 09:30:00 +0000"
    )
    outcomes = inbox.process(
        game, maildir(tmp_path / "box", [*valley, outfit]), now=datetime(2024, 2, 28, 12, tzinfo=UTC)
    )
    assert [o.status for o in outcomes] == ["rejected", "rejected", "rejected", "held"]
    assert outcomes[-1].gang == "outfit"  # the address's fourth guess, in another gang's name, waits too


def test_a_deferred_delivery_is_retried_for_each_recipient_at_its_own_time(tmp_path: Path, smtp: SmtpServer) -> None:
    from moonshine.game import ledger
    from moonshine.game.directory import GameConfig
    from moonshine.mail import outbox
    from moonshine.mail.outbox import compose
    from moonshine.mail.outbox.smtp import send_folder
    from moonshine.mail.settings import smtp_settings

    cfg = GameConfig(title="t", map="", extra={"smtp": smtp.smtp()})
    folder = tmp_path / "outbox" / "day"
    msg = compose.text_message(
        sender="Referee <referee@moonshine.example>",
        to=["a@players.example", "b@players.example"],
        subject="news",
        body="hello\n",
        msg_id="<news-1@moonshine.example>",
        date=START,
    )
    outbox.write_folder(folder, [outbox.Outgoing("news.eml", msg)])
    settings = smtp_settings(cfg)
    smtp.recorder.refuse = {"a@players.example": "451 4.3.0 busy", "b@players.example": "451 4.3.0 busy"}
    send_folder(folder, ["news.eml"], settings, now=START)
    sent = ledger.load_sent_raw(folder)
    entry = sent["<news-1@moonshine.example>"]
    later = START + timedelta(hours=5)
    entry["deferred"]["b@players.example"]["next"] = later.isoformat()  # b failed again since: its own time
    ledger.save_entry(folder, "<news-1@moonshine.example>", entry)
    smtp.recorder.refuse = {}
    smtp.recorder.rcpts.clear()
    send_folder(folder, ["news.eml"], settings, now=START + ledger.RETRY_FIRST)
    assert smtp.recorder.rcpts == ["a@players.example"]  # b's try is not due yet
    send_folder(folder, ["news.eml"], settings, now=later)
    assert smtp.recorder.rcpts == ["a@players.example", "b@players.example"]


@pytest.mark.parametrize("written", [" spring-1924 ", "SPRING-1924", "Spring-1924\t"])
def test_a_turn_named_with_blanks_or_capitals_is_the_turn(written: str) -> None:
    from moonshine.variants.moonshine.calendar import Turn

    assert Turn.parse(written).name == "spring-1924"
