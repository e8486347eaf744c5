"""A whole turn by email on a copy of the sample game: orders arrive in an mbox and
are checked and acknowledged, the referee sees who is missing and reminds them,
adjudicates, and mails the reports through a real SMTP server on 127.0.0.1."""

from __future__ import annotations

import mailbox
import re
import subprocess
from datetime import UTC, datetime, timedelta
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path

import yaml
from e2ekit import ADDRESS, PASSWORDS, TURN, letter, plain, run, sample_game
from mailkit import read_eml
from smtpkit import Server

from moonshine.render import receipts
from moonshine.render.mailwords import due_text, fmt_time

# Valley's orders, written in French (the order reader reads both languages).
VALLEY_FR = """\
# Bonjour l'arbitre !

bande : Valley Gang
mot de passe : {password}
tour : spring-1924
H LOO avance vers LIT
H NSS soutient H LOO - LIT
L KEN tient
vendre tout
-- \nTerry
"""


def test_a_whole_turn_by_email(tmp_path: Path, smtp: Server) -> None:
    now = datetime.now(UTC).replace(second=0, microsecond=0)
    deadline = now + timedelta(days=2, minutes=30)
    game = sample_game(tmp_path, smtp, deadline)
    orders = game.orders_dir(TURN)
    sample = {p.name: p.read_bytes() for p in orders.glob("*.txt")}
    sent = now - timedelta(hours=1)

    # -- the mailbox: one gang in French, one with a wrong password, one unknown sender
    box = mailbox.mbox(str(tmp_path / "referee.mbox"), create=True)
    box.add(letter(ADDRESS["valley"], "Ordres", VALLEY_FR.format(password=PASSWORDS["valley"]), sent, "<v@x>"))
    outfit = "gang: outfit\npassword: not-the-password\nL UPT - ROG\nsell 6\n"
    box.add(letter(ADDRESS["outfit"], "Outfit orders", outfit, sent, "<o@x>"))
    genna = f"gang: genna\npassword: {PASSWORDS['genna']}\nH SOD hold\n"
    box.add(letter("eve@evil.example", "genna orders", genna, sent, "<e@x>"))
    box.flush()
    box.close()

    result = run(game, "inbox", str(tmp_path / "referee.mbox"))
    assert result.exit_code == 0, result.output
    assert re.search(r"^accepted\s+valley\s+valley@players\.example\.org: 4 orders read \[mbox", result.output, re.M)
    assert re.search(
        r"^rejected\s+outfit\s+outfit@players\.example\.org: wrong password for Chicago Outfit", result.output, re.M
    )
    assert re.search(
        r"^rejected\s+-\s+eve@evil\.example: eve@evil\.example is not a player's address", result.output, re.M
    )
    assert result.output.rstrip().endswith(f"{TURN}: 1 accepted, 2 rejected.")

    # the order files: Valley's replaced (password line blank, signature left out), the others untouched
    valley = (orders / "valley.txt").read_text()
    assert valley == VALLEY_FR.format(password="").replace("mot de passe : \n", "\n").split("-- \n")[0]
    assert PASSWORDS["valley"] not in valley
    assert {n: (orders / n).read_bytes() for n in sample if n != "valley.txt"} == {
        n: b for n, b in sample.items() if n != "valley.txt"
    }
    assert sorted(p.name for p in (orders / "history").iterdir()) == ["valley-1.txt"]

    # the acknowledgements in the outbox
    outbox = game.root / "outbox" / TURN
    replies = {read_eml(p)["In-Reply-To"]: read_eml(p) for p in outbox.glob("reply-*.eml") if "-warning-" not in p.name}
    assert sorted(replies) == ["<e@x>", "<o@x>", "<v@x>"]
    [warning] = outbox.glob("reply-warning-*.eml")  # the wrong password in its name: the outfit is told, once a day
    assert [a.addr_spec for a in read_eml(warning)["To"].addresses] == [ADDRESS["outfit"]]
    ack = replies["<v@x>"]
    assert [a.addr_spec for a in ack["To"].addresses] == [ADDRESS["valley"]]
    assert ack["Subject"] == "Re: Ordres"
    text = plain(ack)
    assert text.startswith(
        f"Orders for Valley Gang, Spring 1924, received {fmt_time(sent)} from valley@players.example.org"
    )
    assert f"Deadline: {due_text('en', deadline)} (2\u00a0days left)." in text
    for line in ("H LOO - LIT", "H NSS / H LOO - LIT", "L KEN hold"):
        assert re.search(rf"^\s+line\s+\d+\s+{re.escape(line)}\s+accepted$", text, re.M), (line, text)
    assert "REJECTED" not in text
    receipt = re.search(r"^Receipt: ([0-9a-f]{4}(?:-[0-9a-f]{4}){4}) ", text, re.M)
    assert receipt, text
    refused = plain(replies["<o@x>"])
    assert "was NOT accepted as orders for Spring 1924" in refused
    assert "Reason: wrong password for Chicago Outfit." in refused and "No order file was changed." in refused
    stranger = replies["<e@x>"]
    assert [a.addr_spec for a in stranger["To"].addresses] == ["eve@evil.example"]
    assert "Reason: eve@evil.example is not a player's address in this game." in plain(stranger)
    for p in game.root.rglob("*"):
        if p.is_file():
            assert not any(pw.encode() in p.read_bytes() for pw in PASSWORDS.values()), p

    # who is missing, and the reminders
    status = run(game, "status")
    assert status.exit_code == 0, status.output
    lines = status.output.splitlines()
    assert lines[0] == f"{TURN}: deadline {fmt_time(deadline)}, 2\u00a0days left"
    row = {line.split()[0]: line for line in lines[1:-1]}
    assert f"orders received {fmt_time(sent)} (4 orders)" in row["valley"]
    assert "orders on file (not received by mail)" in row["outfit"]
    assert row["westside"].rstrip().endswith("MISSING") and row["ragen"].rstrip().endswith("MISSING")
    assert lines[-1] == "2 gangs without orders: westside, ragen"
    remind = run(game, "remind")
    assert remind.exit_code == 0, remind.output
    assert sorted(p.name for p in outbox.glob("remind-*.eml")) == ["remind-ragen.eml", "remind-westside.eml"]
    note = read_eml(outbox / "remind-ragen.eml")
    assert [a.addr_spec for a in note["To"].addresses] == [ADDRESS["ragen"]]
    assert str(note["Subject"]).endswith("Spring 1924: orders wanted from Ragen's Colts")
    assert f"The deadline is {due_text('en', deadline)} (2\u00a0days left)." in plain(note)
    assert smtp.recorder.received == []  # nothing is sent without --send

    # adjudication reads the orders that came by mail
    done = run(game, "adjudicate", TURN, "--force")  # before the deadline
    assert done.exit_code == 0, done.output
    results = yaml.safe_load((game.turn_dir(TURN) / "results.yaml").read_text())
    understood = [line["understood"] for line in results["gangs"]["valley"]["lines"] if line["status"] == "accepted"]
    assert understood == ["H LOO - LIT", "H NSS / H LOO - LIT", "L KEN hold", "sell all"]
    reports = game.turn_dir(TURN) / "reports"

    # the reports by mail: one message per gang, the bulletin, the map attached
    mailed = run(game, "mail", TURN, "--send")
    assert mailed.exit_code == 0, mailed.output
    got = smtp.recorder
    messages = got.messages()
    assert len(messages) == len(PASSWORDS) + 1
    assert {r[0] for r in got.received} == {"referee@moonshine.example.org"}
    png = (reports / "map.png").read_bytes()
    for gang, address in ADDRESS.items():
        name = game.map.gangs[gang].name
        [(_, rcpts, content)] = got.by_subject(f"private report for {name}")
        assert rcpts == [address]
        msg = message_from_bytes(content, policy=policy.default)
        assert isinstance(msg, EmailMessage)
        assert plain(msg) == (reports / f"{gang}.txt").read_text()
        if gang == "valley":  # the report gives the acknowledgement's receipt, its salt and the orders it covers
            report = plain(msg)
            assert f"give the receipt {receipt.group(1)}:" in report
            salt = re.search(r"^    salt: ([0-9a-f]{64})$", report, re.M)
            assert salt and receipts.receipt(salt.group(1), understood) == receipt.group(1)
        # the map, the close-up of the gang's area, and the results as JSON (docs/)
        picture, closeup, legend = [p for p in msg.walk() if p.get_content_disposition() == "inline"]  # the page's
        [results] = list(msg.iter_attachments())
        assert picture.get_content_type() == "image/png" and picture.get_content() == png
        assert closeup["Content-ID"] == f"<closeup-{gang}.png>"
        assert closeup.get_content() == (reports / f"closeup-{gang}.png").read_bytes()
        assert legend["Content-ID"] == "<legend.png>"  # the map's legend, under it
        assert legend.get_content() == (reports / "legend.png").read_bytes()
        assert results.get_content_type() == "application/json"
        assert results.get_filename() == f"moonshine-{TURN}-{gang}.json"
    [(_, rcpts, content)] = got.by_subject("Spring 1924: bulletin")
    assert sorted(rcpts) == sorted([*ADDRESS.values(), "referee@moonshine.example.org"])
    assert b"\nBcc:" not in content
    bulletin = message_from_bytes(content, policy=policy.default)
    assert isinstance(bulletin, EmailMessage)
    charts = [(reports / name).read_bytes() for name in ("vp.png", "price.png")]
    picture, legend, vp, price = [p for p in bulletin.walk() if p.get_content_disposition() == "inline"]  # the page's
    [results] = bulletin.iter_attachments()
    assert picture.get_content() == png and results.get_filename() == f"moonshine-{TURN}.json"
    assert legend.get_content() == (reports / "legend.png").read_bytes()
    assert [vp.get_content(), price.get_content()] == charts  # the charts, shown by the HTML
    cids = [a["Content-ID"] for a in (picture, legend, vp, price)]
    assert cids == ["<map.png>", "<legend.png>", "<vp.png>", "<price.png>"]
    shown = bulletin.get_body(("html",))
    assert shown is not None
    assert all(f'src="cid:{name}"' in shown.get_content() for name in ("map.png", "legend.png", "vp.png", "price.png"))

    again = run(game, "mail", TURN, "--send")
    assert again.exit_code == 0, again.output
    assert len(got.received) == len(PASSWORDS) + 1  # nothing sent twice
    assert again.output.count("not sent again") == len(PASSWORDS) + 1


def test_no_password_is_ever_written_anywhere(tmp_path: Path, smtp: Server) -> None:
    """A whole turn in a git repository (inbox, adjudicate, mail --send) with
    passwords everywhere a player or the game master puts them: in a message's
    body, its subject, a quoted copy, a wrong guess, and an orders file the game
    master placed by hand with its password line. No password is found in any
    file of the game, any commit, any outbox message or any mail delivered."""
    now = datetime.now(UTC).replace(second=0, microsecond=0)
    game = sample_game(tmp_path, smtp, now + timedelta(days=2))
    subprocess.run(["git", "init", "-q"], cwd=game.root, check=True)
    subprocess.run(["git", "add", "-A"], cwd=game.root, check=True)
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@x", "commit", "-qm", "start"], cwd=game.root, check=True
    )
    orders = game.orders_dir(TURN)
    by_hand = f"gang: ragen\npassword: {PASSWORDS['ragen']}\nH BAC hold\n"  # a late order the game master placed
    (orders / "ragen.txt").write_text(by_hand, encoding="utf-8")
    sent = now - timedelta(hours=1)
    valley_pw = PASSWORDS["valley"]
    body = VALLEY_FR.format(password=valley_pw) + f"\n> gang: valley\n> password: {valley_pw}\n> H LOO hold\n"
    box = mailbox.mbox(str(tmp_path / "referee.mbox"), create=True)
    box.add(letter(ADDRESS["valley"], f"Ordres (password: {valley_pw})", body, sent, "<v@x>"))
    guess = f"gang: outfit\npassword: {PASSWORDS['westside']}\nL UPT - ROG\n"  # another gang's password
    box.add(letter(ADDRESS["outfit"], f"orders {PASSWORDS['westside']}", guess, sent, "<o@x>"))
    box.add(letter("eve@evil.example", "genna", f"gang: genna\npassword: {PASSWORDS['genna']}\n", sent, "<e@x>"))
    box.flush()
    box.close()
    assert run(game, "inbox", str(tmp_path / "referee.mbox"), "--send").exit_code == 0
    assert run(game, "status").exit_code == 0
    assert run(game, "adjudicate", TURN, "--force").exit_code == 0
    mailed = run(game, "mail", TURN, "--send")
    assert mailed.exit_code == 0, mailed.output
    assert smtp.recorder.received, "the test must deliver mail to look into it"

    everything = [p.read_bytes() for p in game.root.rglob("*") if p.is_file() and ".git" not in p.parts]
    history = subprocess.run(
        ["git", "log", "--all", "-p", "--binary", "--format=%B"], cwd=game.root, check=True, capture_output=True
    ).stdout
    assert b"ragen.txt" in history and b"Adjudicate" in history  # the history holds the turn
    delivered = [content for _, _, content in smtp.recorder.received]
    for password in PASSWORDS.values():
        secret = password.encode()
        assert not any(secret in blob for blob in everything), password
        assert secret not in history, password
        assert not any(secret in content for content in delivered), password
    assert "password: ********" in (orders / "ragen.txt").read_text(encoding="utf-8")
